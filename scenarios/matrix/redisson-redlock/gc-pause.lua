-- matrix: Redisson RedLock (5, watchdog) under "gc-pause" (locklab matrix; the table is ../table.lua).
return {
  name = "Redisson RedLock (5, watchdog): the holder's GC pause outlives the lease",
  about = [[
At 1 s, inside its critical section, A stops for a GC pause of 35 s, longer than the 30 s lease
(the watchdog is paused with A). The lease runs out, B takes the lock, and A wakes believing it
still holds it, writes to the resource and releases (Martin Kleppmann, "How to do distributed
locking", 2016).

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
    { at = "1s", gc_pause = "A", duration = "35s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds" },
}
