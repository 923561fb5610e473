-- redisson-redlock-basic: RedissonRedLock over five masters, with nothing going wrong.
return {
  name = "three clients share a RedissonRedLock over five masters",
  about = [[
Redisson's RedissonRedLock (RedissonRedLock.java, RedissonMultiLock.java), the second Redlock
implementation: one RedissonLock per master A-E, taken in order, each with max(wait/N, 1) =
6 s of the 30 s wait and a lease of 2 x wait, then the real 10 s lease applied to every lock
acquired; up to N - (N/2+1) = 2 may fail. Unlike redlock.lua, a client that finds a master's
lock busy does not move on at once: RedissonLock.tryLock subscribes to that master's
redisson_lock__channel:{lock} and waits for the holder's unlock message (or the lock's TTL).
Three clients take turns for two rounds each; nothing fails, so mutual exclusion holds and
the lock never stays stuck (no_deadlock). The baseline for redisson-redlock-crash-restart-nofsync.]],
  protocol = "redisson-redlock",
  mode = "redlock",
  nodes = { "A", "B", "C", "D", "E" },
  lease = "10s", wait = "30s",
  network = { delay = { "1ms", "5ms" } },
  clients = {
    { name = "c1", start = 0,      work = "1s", rounds = 2 },
    { name = "c2", start = "10ms", work = "1s", rounds = 2 },
    { name = "c3", start = "20ms", work = "1s", rounds = 2 },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", no_deadlock = "holds" },
}
