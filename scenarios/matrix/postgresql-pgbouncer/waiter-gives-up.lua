-- matrix: PostgreSQL session lock through PgBouncer under "waiter-gives-up" (locklab matrix; the table is ../table.lua).
return {
  name = "PostgreSQL session lock through PgBouncer: a waiter gives up",
  about = [[
No fault in the servers or the network: B waits only 2 s and gives up while A holds the lock; C
arrives at 3 s with the usual wait. Whatever B leaves behind must not block C or let it in
early.

B never has to give up: its first pg_try_advisory_lock runs on the backend whose session
holds A's lock, and says true.

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
    { name = "B", start = "100ms", work = "8s", wait = "2s" },
    { name = "C", start = "3s", work = "8s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "violated", no_deadlock = "holds" },
}
