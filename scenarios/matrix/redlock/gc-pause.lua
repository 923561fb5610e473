-- matrix: Redlock (5 masters) under "gc-pause" (locklab matrix; the table is ../table.lua).
return {
  name = "Redlock (5 masters): the holder's GC pause outlives the lease",
  about = [[
At 4 s, 1 s before its work is done, inside its critical section, A stops for a GC pause of 12
s, longer than the 10 s lease. The lease runs out, B takes the lock, and A wakes believing it
still holds it, writes to the resource and releases (Martin Kleppmann, "How to do distributed
locking", 2016).

The design: Redlock over five independent masters ("Distributed Locks with Redis", "The Redlock
Algorithm"; lua/clients/redlock.lua with redlock-rb's numbers).]],
  protocol = "redlock",
  mode = "redlock", nodes = { "n1", "n2", "n3", "n4", "n5" },
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  options = { retry_count = 1000 },  -- B keeps trying for its whole wait, as in the other rows (redlock-rb: 3 attempts)
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "4s", gc_pause = "A", duration = "12s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds" },
}
