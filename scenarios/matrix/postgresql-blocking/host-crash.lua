-- matrix: PostgreSQL advisory lock (session, waiting in the server) under "host-crash" (locklab matrix; the table is ../table.lua).
return {
  name = "PostgreSQL advisory lock (session, waiting in the server): the holder's host crashes",
  about = [[
At 1 s A's host vanishes (power loss, a kernel panic, a killed VM: crash with host = true): no
FIN, no RST. The servers learn of it only when their TCP keepalive gives up on the connection,
about 2 h 11 min with Linux's defaults, far beyond this run. The advisory lock lives as long as
the session, and the backend as long as its connection, which the server still believes open
(tcp_keepalives_idle: the system's default): B waits out its 90 s. A process crash frees the
lock at once (the "crash" column).

The design: PostgreSQL's session-level advisory lock (lua/clients/pg-advisory-blocking.lua):
pg_advisory_lock(key), waiting in the server under lock_timeout, and pg_advisory_unlock(key). "Once acquired at session
level, an advisory lock is held until explicitly released or the session ends" (PostgreSQL 15
documentation, 13.3.5 "Advisory Locks"); it lives in the server's shared memory and is never
WAL-logged.]],
  protocol = "pg-advisory-blocking",
  server = "postgresql",
  nodes = 1,
  lease = false, wait = "90s",     -- no lease: the design has none
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", crash = "A", host = true },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "violated" },
}
