-- matrix: PostgreSQL advisory lock (transaction) under "partition" (locklab matrix; the table is ../table.lua).
return {
  name = "PostgreSQL advisory lock (transaction): the holder is partitioned",
  about = [[
At 1 s a partition cuts A off from the server for 40 s (B still reaches it). A finishes its 5 s
of work; its release cannot arrive.

A's COMMIT is lost in the partition; the transaction stays open on the server, idle in
transaction, and with it the lock (idle_in_transaction_session_timeout is 0, off, by
default). B waits in vain. (The simulator drops what a partition cuts; over TCP the COMMIT
might arrive when the cut heals, at 41 s.)

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
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", partition = { { "A" }, { "n1", "B" } }, duration = "40s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "violated" },
}
