-- fairlock-abandoned-waiters: waiters that give up or die do not block the fair queue for good.
return {
  name = "fair lock: abandoned waiters are purged from the queue",
  about = [[
A fair queue must survive waiters that leave it (Redisson's RedissonFairLock.java and its
history, issues #1104 and #2099; the Redisson wiki as quoted in #2099: "if some thread has died
then Redisson waits its return for 5 seconds"). C1 holds the lock from 0 to 4 s (lease 10 s);
C2..C5 queue behind it, each with a deadline = the tail's deadline + its own wait.

C2 calls tryLock(wait 1 s) and gives up at 1.1 s: acquireFailed removes it and moves everyone
behind it 1 s earlier, since its slot is gone (#1104, #2099). C3 (tryLock, wait 100 ms) crashes
at 250 ms while queued: nobody removes its entry, and it heads the queue with its deadline,
about 10.1 s (C1's lease end + its 100 ms). When C1 unlocks at 4 s, the script publishes only
to the head's own channel: dead C3's. C4 and C5 hear nothing and sleep until the ttl they were
told (C1's PTTL: until 10 s). Then they poll and find the lock free but C3 at the head, so it is
not theirs; the HEAD script tells a queued waiter max(0, PTTL) = 0 for a missing lock, and Java
polls again at once (latch.tryAcquire(0)): C4 and C5 poll back to back for 100 ms, until C3's
deadline passes and the purge loop at the top of the script drops it. C4 takes the lock, then
C5, woken by C4's unlock. The lock lay free for 6 s with two waiters, within the no_deadlock
bound (twice the lease, 20 s), and nobody jumped the queue.

The stale entry costs what the dead waiter reserved: the lease's end plus its wait. A dead
waiter that had called lock() (no wait) reserves threadWaitTime: 5 s up to 3.13.2, 5 min since.]],
  protocol = "redisson-fair",
  nodes = 1,
  lease = "10s", wait = "30s",
  network = { delay = { "1ms", "5ms" } },
  clients = {
    { name = "C1", start = 0,       work = "4s" },
    { name = "C2", start = "100ms", wait = "1s" },
    { name = "C3", start = "200ms", wait = "100ms" },
    { name = "C4", start = "300ms" },
    { name = "C5", start = "400ms" },
  },
  faults = {
    { at = "250ms", crash = "C3" },
  },
  duration = "30s", seed = 1,
  expect = { mutual_exclusion = "holds", fairness = "holds", no_deadlock = "holds" },
}
