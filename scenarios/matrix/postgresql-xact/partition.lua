-- matrix: PostgreSQL advisory lock (transaction) under "partition" (locklab matrix; the table is ../table.lua).
return {
  name = "PostgreSQL advisory lock (transaction): the holder is partitioned",
  about = [[
At 1 s a partition cuts A off from the server for 40 s (B still reaches it). A finishes its 5 s
of work; its release cannot arrive.

A's client gives up on its COMMIT after 3 s but keeps the connection; the transaction stays
open on the server, idle in transaction, with the lock. Over TCP the cut loses nothing: the segment waits in A's socket and is retransmitted, each
retransmission twice as late as the one before (200 ms, 400 ms, ... at most 120 s apart), until
the cut heals or TCP gives up after tcp_retries2 = 15 of them ("a hypothetical timeout of 924.6
seconds", Linux ip-sysctl; network.partitions = "tcp"). The cut heals at 41 s; the next
retransmission after it, 51 s after the first sending at 5 s, delivers it at 56 s.
The COMMIT ends the transaction then, and B, polling, takes the lock 51 s late: no deadlock
(idle_in_transaction_session_timeout, 0 by default, would not have ended it sooner).

The design: PostgreSQL's transaction-level advisory lock (lua/clients/pg-advisory-xact.lua):
BEGIN, pg_try_advisory_xact_lock(key), polled, the work, COMMIT. Transaction-level locks "are
automatically released at the end of the transaction, and there is no explicit unlock
operation" (PostgreSQL 15 documentation, 13.3.5 "Advisory Locks"); they live in the server's
shared memory and are never WAL-logged.]],
  protocol = "pg-advisory-xact",
  server = "postgresql",
  nodes = 1,
  lease = false, wait = "90s",     -- no lease: the design has none
  network = { delay = {"1ms", "5ms"}, partitions = "tcp" },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", partition = { { "A" }, { "n1", "B" } }, duration = "40s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
