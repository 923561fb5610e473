-- fairlock-lease-timeout-3.31.0: Redisson #4705 with the 3.31.0 scripts: six of eight time out.
local clients = {}
for i = 1, 8 do
  clients[i] = { name = "T" .. i, start = (i - 1) * 100, work = "200ms" }
end
return {
  name = "fair lock, lease 1 s, nobody unlocks (#4705): 3.31.0 scripts",
  about = [[
Redisson issue #4705 "Get FairLock Fail" (redisson 3.17.4): eight threads start 100 ms apart,
each calls tryLock(wait 10 s, lease 1 s) and never unlocks. The reporter expected eight
successes and got one or two. This is the run with the scripts of 3.31.0, the last release
before the fix (commit f08dfd894 to RedissonFairLock.java, released in 3.32.0).

Up to 3.31.0 an already-queued waiter is told its own deadline minus wait minus now, i.e. the
deadline of the waiter AHEAD of it: T3 hears 10.8 s, T4 20.7 s, ... T8 60.3 s, although the
lock will be free in under a second. Java waits min(ttl, time left) on the waiter's own channel,
so T3..T8 sleep through their whole 10 s budget. Nobody wakes them: a lease that runs out
publishes nothing, and the waiters never unlock, so no unlock message is ever sent. T1 takes
the lock, T2 (told the PTTL, 900 ms, because it queued first) takes it when T1's lease ends,
and T3..T8 each wake at the end of their wait and give up (acquireFailed). Two of eight, as in
the issue. The lock then lies free from 2 s to 10.7 s while six clients want it: no_deadlock is
violated. The queue stays fair; it only stops moving.

Compare fairlock-lease-timeout (HEAD scripts: all eight acquire), or side by side:
  locklab compare fairlock-lease-timeout --scripts redisson@3.31.0 --scripts HEAD
Scenario device: options.skip_unlock makes release() a no-op (the test's threads never unlock);
the 200 ms of work is shorter than the 1 s lease, so critical sections do not overlap.]],
  protocol = "redisson-fair",
  scripts = "redisson@3.31.0",
  nodes = 1,
  lease = "1s", wait = "10s",
  network = { delay = { "1ms", "5ms" } },
  clients = clients,
  options = { skip_unlock = true },
  duration = "20s", seed = 1,
  -- observed: T1 and T2 ACQUIRED (0.005 s, 1.014 s); T3..T8 give up at 10.2 s .. 10.7 s
  expect = { mutual_exclusion = "holds", fairness = "holds", no_deadlock = "violated" },
}
