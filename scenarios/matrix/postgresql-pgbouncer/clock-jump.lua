-- matrix: PostgreSQL session lock through PgBouncer under "clock-jump" (locklab matrix; the table is ../table.lua).
return {
  name = "PostgreSQL session lock through PgBouncer: the server's clock jumps forward",
  about = [[
At 1 s n1's clock jumps forward by 15 s (an NTP step, an administrator).

The clock does not matter: B was let in at 100 ms, on the backend whose session holds A's
lock.

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
    { at = "1s", clock_jump = "n1", by = "15s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "violated", no_deadlock = "holds" },
}
