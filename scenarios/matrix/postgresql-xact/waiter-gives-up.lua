-- matrix: PostgreSQL advisory lock (transaction) under "waiter-gives-up" (locklab matrix; the table is ../table.lua).
return {
  name = "PostgreSQL advisory lock (transaction): a waiter gives up",
  about = [[
No fault in the servers or the network: B waits only 2 s and gives up while A holds the lock; C
arrives at 3 s with the usual wait. Whatever B leaves behind must not block C or let it in
early.

B rolls its transaction back when it gives up: it leaves nothing behind.

The design: PostgreSQL's transaction-level advisory lock (lua/clients/pg-advisory-xact.lua):
BEGIN, pg_try_advisory_xact_lock(key), polled, the work, COMMIT. Transaction-level locks "are
automatically released at the end of the transaction, and there is no explicit unlock
operation" (PostgreSQL 15 documentation, 13.3.5 "Advisory Locks"); they live in the server's
shared memory and are never WAL-logged.]],
  protocol = "pg-advisory-xact",
  server = "postgresql",
  nodes = 1,
  lease = false, wait = "90s",     -- no lease: the design has none
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s", wait = "2s" },
    { name = "C", start = "3s", work = "8s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
