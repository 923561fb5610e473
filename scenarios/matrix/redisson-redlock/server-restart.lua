-- matrix: Redisson RedLock (5, watchdog) under "server-restart" (locklab matrix; the table is ../table.lua).
return {
  name = "Redisson RedLock (5, watchdog): the server crashes and restarts empty",
  about = [[
Redis master n1 crashes at 1 s and restarts at 2 s with nothing saved (persistence none: no AOF
fsync), so it forgets the lock A holds ("Distributed Locks with Redis", "Performance, crash
recovery and fsync"). n1 is one of five masters; the other four still hold A's lock.

The design: Redisson's RedissonRedLock over five masters, without a lease: each RedissonLock
keeps its own watchdog (lua/clients/redisson-redlock.lua).]],
  protocol = "redisson-redlock",
  mode = "redlock", nodes = { "n1", "n2", "n3", "n4", "n5" },
  lease = false, wait = "60s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "45s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", crash = "n1" },
    { at = "2s", restart = "n1" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
