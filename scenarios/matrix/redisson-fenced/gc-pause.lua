-- matrix: Redisson fenced (watchdog) under "gc-pause" (locklab matrix; the table is ../table.lua).
return {
  name = "Redisson fenced (watchdog): the holder's GC pause outlives the lease",
  about = [[
At 1 s, inside its critical section, A stops for a GC pause of 35 s, longer than the 30 s lease
(the watchdog is paused with A). The lease runs out, B takes the lock, and A wakes believing it
still holds it, writes to the resource and releases (Martin Kleppmann, "How to do distributed
locking", 2016).

The design: Redisson's RedissonFencedLock (3.19.0+, #4684) taken without a lease (the
watchdog); its token goes with every write, and the resource rejects a token lower than one it
has accepted (lua/clients/redisson-fenced.lua; fencing tokens: Kleppmann 2016).]],
  protocol = "redisson-fenced",
  nodes = 1,
  fencing = true,
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
  expect = { mutual_exclusion = "violated", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
