-- matrix: PostgreSQL advisory lock (transaction) under "gc-pause" (locklab matrix; the table is ../table.lua).
return {
  name = "PostgreSQL advisory lock (transaction): the holder's GC pause",
  about = [[
At 4 s, 1 s before its work is done, inside its critical section, A stops for a GC pause of 12
s (longer than the 10 s lease of the lease designs), then finishes, writes to the resource and
releases (Martin Kleppmann, "How to do distributed locking", 2016).

A paused process keeps its connection and its open transaction, and the lock with them
(idle_in_transaction_session_timeout is 0, off, by default). B waits until A's COMMIT.

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
    { at = "4s", gc_pause = "A", duration = "12s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
