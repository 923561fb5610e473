-- matrix: PostgreSQL advisory lock (transaction) under "server-restart" (locklab matrix; the table is ../table.lua).
return {
  name = "PostgreSQL advisory lock (transaction): the server crashes and restarts",
  about = [[
The server n1 crashes at 1 s and restarts at 2 s (persistence = "always": what PostgreSQL's
WAL keeps, it keeps).

The crash ends every transaction; the restarted server holds no lock. A learns it only at its
COMMIT, and B takes the lock while A still works.

The design: PostgreSQL's transaction-level advisory lock (lua/clients/pg-advisory-xact.lua):
BEGIN, pg_try_advisory_xact_lock(key), polled, the work, COMMIT. Transaction-level locks "are
automatically released at the end of the transaction, and there is no explicit unlock
operation" (PostgreSQL 15 documentation, 13.3.5 "Advisory Locks"); they live in the server's
shared memory and are never WAL-logged.]],
  protocol = "pg-advisory-xact",
  server = "postgresql",
  nodes = 1,
  persistence = "always",
  lease = false, wait = "90s",     -- no lease: the design has none
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", crash = "n1" },
    { at = "2s", restart = "n1" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds" },
}
