-- matrix: PostgreSQL session lock through PgBouncer under "failover" (locklab matrix; the table is ../table.lua).
return {
  name = "PostgreSQL session lock through PgBouncer: failover with asynchronous replication",
  about = [[
The primary n1 has a standby fed asynchronously (lag 50-100 ms); n1 crashes at 20 ms and the
standby is promoted 1 s later. B starts at 2 s.

B, starting at 2 s, talks to the promoted standby, which has no lock; it would have been let
in through the pool anyway.

The design: PostgreSQL's session-level advisory lock (lua/clients/pg-advisory.lua) taken
through PgBouncer with pool_mode = transaction (server_options.pgbouncer_pool = 4): "a server
connection is assigned to a client only during a transaction", and PgBouncer's feature map
lists session-level advisory locks as never compatible with transaction pooling
(www.pgbouncer.org/features.html). The lock belongs to the pooled backend that ran the
statement, which PgBouncer hands to the next client (last-in first-out).]],
  protocol = "pg-advisory",
  server = "postgresql",
  server_options = { pgbouncer_pool = 4 },
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
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "violated", no_deadlock = "holds" },
}
