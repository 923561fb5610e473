-- matrix: Redisson RedLock (5, watchdog) under "holder-crash" (locklab matrix; the table is ../table.lua).
return {
  name = "Redisson RedLock (5, watchdog): the holder crashes",
  about = [[
A crashes at 1 s inside its critical section and never releases. The lock has to come free by
itself for B: the watchdog dies with A, so the last 30 s lease runs out.

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
    { at = "1s", crash = "A" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
