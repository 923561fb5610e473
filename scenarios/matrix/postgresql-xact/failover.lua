-- matrix: PostgreSQL advisory lock (transaction) under "failover" (locklab matrix; the table is ../table.lua).
return {
  name = "PostgreSQL advisory lock (transaction): failover with asynchronous replication",
  about = [[
The primary n1 has a standby fed asynchronously (lag 50-100 ms); n1 crashes at 20 ms and the
standby is promoted 1 s later. B starts at 2 s.

Advisory locks are never WAL-logged, so the promoted standby has no lock and B takes it while
A still works.

The design: PostgreSQL's transaction-level advisory lock (lua/clients/pg-advisory-xact.lua):
BEGIN, pg_try_advisory_xact_lock(key), polled, the work, COMMIT. Transaction-level locks "are
automatically released at the end of the transaction, and there is no explicit unlock
operation" (PostgreSQL 15 documentation, 13.3.5 "Advisory Locks"); they live in the server's
shared memory and are never WAL-logged.]],
  protocol = "pg-advisory-xact",
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
