-- postgresql-pgbouncer-session-lock: a session-level advisory lock through PgBouncer's
-- transaction pooling belongs to a pooled backend, not to the client.
return {
  name = "PostgreSQL advisory lock through PgBouncer (pool_mode = transaction): two holders",
  about = [[
PostgreSQL's session-level advisory lock (lua/clients/pg-advisory.lua): SELECT
pg_try_advisory_lock(KEY), polled, and pg_advisory_unlock(KEY). "Once acquired at session
level, an advisory lock is held until explicitly released or the session ends" (PostgreSQL 15
documentation, 13.3.5 "Advisory Locks"). Here the clients reach the server through PgBouncer
with pool_mode = transaction (server_options.pgbouncer_pool = 2): "a server connection is
assigned to a client only during a transaction", and PgBouncer's feature map lists
session-level advisory locks as never compatible with transaction pooling
(www.pgbouncer.org/features.html).

A's pg_try_advisory_lock runs on the pool's first backend, which goes back to the pool when
the statement ends; the lock stays with that backend's session. B's statement 100 ms later is
handed the same backend (PgBouncer reuses server connections last-in first-out), whose
session already holds the lock, so "additional requests by it will always succeed": true. A
and B work side by side.]],
  protocol = "pg-advisory",
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
  expect = { mutual_exclusion = "violated", resource_safety = "violated", no_deadlock = "holds" },
}
