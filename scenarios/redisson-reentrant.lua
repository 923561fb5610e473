-- redisson-reentrant: one thread takes the same lock three times.
return {
  name = "Redisson's reentrant lock: three holds, three unlocks",
  about = [[
Redisson's RedissonLock is reentrant (RedissonLock.java, tryLockInnerAsync and
unlockInnerAsync). The lock is a hash whose field is the owner (<uuid>:<threadId>) and whose
value counts the holds: a second lock() by the same thread HINCRBYs the count instead of
waiting; each unlock() decrements it and re-arms the lease, and only the unlock that brings it
to 0 deletes the key and publishes to the waiters. Here A takes the lock three times
(options.reentrant = 3) and unlocks three times; B, waiting on the channel, gets the lock only
after A's third unlock. With --verbose the trace shows the count going 1, 2, 3, then 2, 1 and
the DEL with the PUBLISH.]],
  protocol = "redisson",
  nodes = 1,
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  options = { reentrant = 3 },
  clients = {
    { name = "A", start = 0,       work = "2s", rounds = 2 },
    { name = "B", start = "100ms", work = "1s", rounds = 2 },
  },
  duration = "60s", seed = 1,
  expect = { reentrancy = "holds", mutual_exclusion = "holds", no_deadlock = "holds" },
}
