-- postgresql-pgbouncer-xact-lock: a transaction-level advisory lock survives PgBouncer's
-- transaction pooling.
return {
  name = "PostgreSQL transaction-level advisory lock through PgBouncer (pool_mode = transaction)",
  about = [[
The same pool as postgresql-pgbouncer-session-lock (PgBouncer, pool_mode = transaction, two
server connections), with the transaction-level lock (lua/clients/pg-advisory-xact.lua): BEGIN,
SELECT pg_try_advisory_xact_lock(KEY), polled, the work, COMMIT. Transaction-level locks "are
automatically released at the end of the transaction" (PostgreSQL 15 documentation, 13.3.5
"Advisory Locks"), and PgBouncer keeps the server connection the client's for the whole
transaction (www.pgbouncer.org/features.html). B's BEGIN gets the second backend, its
pg_try_advisory_xact_lock says false until A's COMMIT, and mutual exclusion holds: the lock
that a pool cannot break is the one scoped to what the pool keeps together.]],
  protocol = "pg-advisory-xact",
  server = "postgresql",
  server_options = { pgbouncer_pool = 2 },
  nodes = 1,
  lease = false, wait = "90s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,       work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
