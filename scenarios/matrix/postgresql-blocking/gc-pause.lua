-- matrix: PostgreSQL advisory lock (session, waiting in the server) under "gc-pause" (locklab matrix; the table is ../table.lua).
return {
  name = "PostgreSQL advisory lock (session, waiting in the server): the holder's GC pause",
  about = [[
At 4 s, 1 s before its work is done, inside its critical section, A stops for a GC pause of 12
s (longer than the 10 s lease of the lease designs), then finishes, writes to the resource and
releases (Martin Kleppmann, "How to do distributed locking", 2016).

A paused process keeps its connection, and its session keeps the lock: no lease runs out. B
waits, and A's pg_advisory_unlock at 16 s hands it on.

The design: PostgreSQL's session-level advisory lock (lua/clients/pg-advisory-blocking.lua):
pg_advisory_lock(key), waiting in the server under lock_timeout, and pg_advisory_unlock(key). "Once acquired at session
level, an advisory lock is held until explicitly released or the session ends" (PostgreSQL 15
documentation, 13.3.5 "Advisory Locks"); it lives in the server's shared memory and is never
WAL-logged.]],
  protocol = "pg-advisory-blocking",
  server = "postgresql",
  nodes = 1,
  lease = false, wait = "90s",     -- no lease: the design has none
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "4s", gc_pause = "A", duration = "12s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
