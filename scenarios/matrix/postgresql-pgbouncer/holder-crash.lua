-- matrix: PostgreSQL session lock through PgBouncer under "holder-crash" (locklab matrix; the table is ../table.lua).
return {
  name = "PostgreSQL session lock through PgBouncer: the holder crashes",
  about = [[
A crashes at 1 s inside its critical section and never releases. The lock has to come free by
itself for B, who waits up to 90 s.

A crashes between two statements: PgBouncer has nothing of A's in a transaction, so it closes
no server connection, and the lock stays with the pooled backend. B had been handed that
backend already at 100 ms and was let in at once; the crash changes nothing.

The design: PostgreSQL's session-level advisory lock (lua/clients/pg-advisory.lua) taken
through PgBouncer with pool_mode = transaction (server_options.pgbouncer_pool = 4): "a server
connection is assigned to a client only during a transaction", and PgBouncer's feature map
lists session-level advisory locks as never compatible with transaction pooling
(www.pgbouncer.org/features.html). The lock belongs to the pooled backend that ran the
statement, which PgBouncer hands to the next client (last-in first-out).]],
  protocol = "pg-advisory",
  server = "postgresql",
  server_options = { pgbouncer_pool = 4 },
  nodes = 1,
  lease = false, wait = "90s",     -- no lease: the design has none
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", crash = "A" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
