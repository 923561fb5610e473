-- matrix: Redisson RedLock (5, watchdog) under "clock-jump" (locklab matrix; the table is ../table.lua).
return {
  name = "Redisson RedLock (5, watchdog): a server's clock jumps forward",
  about = [[
At 1 s n1's clock jumps forward by 35 s, past the 30 s lease (an NTP step, an administrator).
Redis keeps a key's expiry as an absolute time on its own clock, so A's key there expires at
once (Kleppmann 2016, on Redlock's timing assumptions). n1 is one of five masters.

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
    { at = "1s", clock_jump = "n1", by = "35s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
