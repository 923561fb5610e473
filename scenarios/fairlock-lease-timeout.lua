-- fairlock-lease-timeout: Redisson #4705 with the HEAD scripts: all eight get the lock.
local clients = {}
for i = 1, 8 do
  clients[i] = { name = "T" .. i, start = (i - 1) * 100, work = "200ms" }
end
return {
  name = "fair lock, lease 1 s, nobody unlocks (#4705): HEAD scripts",
  about = [[
Redisson issue #4705 "Get FairLock Fail" (redisson 3.17.4), today RedissonFairLockTest
.testLeaseTimeout: eight threads start 100 ms apart, each calls tryLock(wait 10 s, lease 1 s)
and never unlocks. Every lease simply runs out, and nobody publishes when a lease runs out, so
a waiter finds the lock free only by polling again after the ttl the script told it
(RedissonFairLock.java, tryLockInnerAsync; commit f08dfd894, released in 3.32.0).

On joining the queue a waiter is told the tail's deadline minus now (T3: 10.8 s, T8: 60.3 s:
each slot adds the 10 s wait). Java's tryLock polls once more right after subscribing, and
since 3.32.0 an already-queued waiter is told max(0, PTTL of the lock): about 800 ms here. So
every waiter wakes when the current lease ends, polls, and the queue head takes the lock; the
others are told the new lease's PTTL and sleep again. T1..T8 acquire in order, about one second
apart, well inside their 10 s waits. (Every waiter polls at every lease end: a small thundering
herd, since the lease's end wakes nobody in particular.)

The same run with the 3.31.0 scripts is fairlock-lease-timeout-3.31.0; side by side:
  locklab compare fairlock-lease-timeout --scripts redisson@3.31.0 --scripts HEAD
Scenario device: options.skip_unlock makes release() a no-op (the test's threads never unlock);
the 200 ms of work is shorter than the 1 s lease, so critical sections do not overlap.]],
  protocol = "redisson-fair",
  scripts = "HEAD",
  nodes = 1,
  lease = "1s", wait = "10s",
  network = { delay = { "1ms", "5ms" } },
  clients = clients,
  options = { skip_unlock = true },
  duration = "20s", seed = 1,
  -- observed: T1..T8 all ACQUIRED, in order, at 0.005 s, 1.011 s, ... 7.045 s
  expect = { mutual_exclusion = "holds", fairness = "holds", no_deadlock = "holds" },
}
