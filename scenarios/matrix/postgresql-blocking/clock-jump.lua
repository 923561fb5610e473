-- matrix: PostgreSQL advisory lock (session, waiting in the server) under "clock-jump" (locklab matrix; the table is ../table.lua).
return {
  name = "PostgreSQL advisory lock (session, waiting in the server): the server's clock jumps forward",
  about = [[
At 1 s n1's clock jumps forward by 15 s (an NTP step, an administrator).

Nothing in the lock depends on a clock: it lives as long as the session.

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
    { at = "1s", clock_jump = "n1", by = "15s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
