-- matrix: PostgreSQL advisory lock (transaction) under "reenter" (locklab matrix; the table is ../table.lua).
return {
  name = "PostgreSQL advisory lock (transaction): the holder takes the lock again",
  about = [[
No fault. A takes the lock and, holding it, takes it again, as a method that holds the lock
calls another that takes it and releases it when it returns (../reenter-model.lua: the inner
acquire may wait 1 s); A then works on under its first hold, and B waits its turn.

The inner acquire runs on the same connection, inside A's open transaction: BEGIN only warns,
and pg_try_advisory_xact_lock counts a second hold. But a transaction-level lock has no
unlock: the inner method's release is COMMIT, which ends the whole transaction and frees the
lock while A still works. (Code that nests must leave the transaction to the outermost
caller.)

The design: PostgreSQL's transaction-level advisory lock (lua/clients/pg-advisory-xact.lua):
BEGIN, pg_try_advisory_xact_lock(key), polled, the work, COMMIT. Transaction-level locks "are
automatically released at the end of the transaction, and there is no explicit unlock
operation" (PostgreSQL 15 documentation, 13.3.5 "Advisory Locks"); they live in the server's
shared memory and are never WAL-logged.]],
  protocol = "../reenter-model-postgresql.lua",
  server = "postgresql",
  nodes = 1,
  lease = false, wait = "90s",     -- no lease: the design has none
  network = { delay = {"1ms", "5ms"} },
  options = { design = "pg-advisory-xact" },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds", reentrancy = "violated" },
}
