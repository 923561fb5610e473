-- matrix: PostgreSQL advisory lock (session, waiting in the server) under "waiter-gives-up" (locklab matrix; the table is ../table.lua).
return {
  name = "PostgreSQL advisory lock (session, waiting in the server): a waiter gives up",
  about = [[
No fault in the servers or the network: B waits only 2 s and gives up while A holds the lock; C
arrives at 3 s with the usual wait. Whatever B leaves behind must not block C or let it in
early.

B's wait ends with lock_timeout (55P03 "canceling statement due to lock timeout") and leaves
nothing behind: C, who asks later, waits behind no one and gets the lock when A frees it.

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
    { name = "B", start = "100ms", work = "8s", wait = "2s" },
    { name = "C", start = "3s", work = "8s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
