-- matrix: PostgreSQL advisory lock (session, waiting in the server) under "failover" (locklab matrix; the table is ../table.lua).
return {
  name = "PostgreSQL advisory lock (session, waiting in the server): failover with asynchronous replication",
  about = [[
The primary n1 has a standby fed asynchronously (lag 50-100 ms); n1 crashes at 20 ms and the
standby is promoted 1 s later. B starts at 2 s.

Advisory locks are never WAL-logged (PostgreSQL 15 documentation, 27.4.3 "Hot Standby"), so
the promoted standby has no lock at all, and B gets it while A still works.

The design: PostgreSQL's session-level advisory lock (lua/clients/pg-advisory-blocking.lua):
pg_advisory_lock(key), waiting in the server under lock_timeout, and pg_advisory_unlock(key). "Once acquired at session
level, an advisory lock is held until explicitly released or the session ends" (PostgreSQL 15
documentation, 13.3.5 "Advisory Locks"); it lives in the server's shared memory and is never
WAL-logged.]],
  protocol = "pg-advisory-blocking",
  server = "postgresql",
  nodes = 1, replicas = 1,
  replication = { lag = {"50ms", "100ms"}, down_after = "1s", detection = "500ms" },
  lease = false, wait = "90s",     -- no lease: the design has none
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "2s", work = "8s" },
  },
  faults = {
    { at = "20ms", crash = "n1" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds" },
}
