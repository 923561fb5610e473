-- matrix: Redis SETNX + EXPIRE under "gc-pause" (locklab matrix; the table is ../table.lua).
return {
  name = "Redis SETNX + EXPIRE: the holder's GC pause outlives the lease",
  about = [[
At 4 s, 1 s before its work is done, inside its critical section, A stops for a GC pause of 12
s, longer than the 10 s lease. The lease runs out, B takes the lock, and A wakes believing it
still holds it, writes to the resource and releases (Martin Kleppmann, "How to do distributed
locking", 2016).

The design: The naive lock: SETNX key value, then EXPIRE key ttl as a second command; released
with a plain DEL (lua/clients/setnx-expire.lua).]],
  protocol = "setnx-expire",
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
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "violated", no_deadlock = "holds" },
}
