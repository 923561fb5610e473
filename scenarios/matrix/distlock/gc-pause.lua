-- matrix: SET NX PX + compare-and-delete under "gc-pause" (locklab matrix; the table is ../table.lua).
return {
  name = "SET NX PX + compare-and-delete: the holder's GC pause outlives the lease",
  about = [[
At 4 s, 1 s before its work is done, inside its critical section, A stops for a GC pause of 12
s, longer than the 10 s lease. The lease runs out, B takes the lock, and A wakes believing it
still holds it, writes to the resource and releases (Martin Kleppmann, "How to do distributed
locking", 2016).

The design: The Redis documentation's single-instance lock ("Distributed Locks with Redis",
"Correct Implementation with a Single Instance"): SET key random NX PX ttl, released by a
compare-and-delete script (lua/clients/distlock.lua).]],
  protocol = "distlock",
  nodes = 1,
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
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
