-- matrix: PostgreSQL advisory lock (session, waiting in the server) under "reenter" (locklab matrix; the table is ../table.lua).
return {
  name = "PostgreSQL advisory lock (session, waiting in the server): the holder takes the lock again",
  about = [[
No fault. A takes the lock and, holding it, takes it again, as a method that holds the lock
calls another that takes it and releases it when it returns (../reenter-model.lua: the inner
acquire may wait 1 s); A then works on under its first hold, and B waits its turn.

A session's holds are counted: "if a session already holds a given advisory lock, additional
requests by it will always succeed", and each must be released. The inner pg_advisory_unlock
counts down; the lock frees at A's last one.

The design: PostgreSQL's session-level advisory lock (lua/clients/pg-advisory-blocking.lua):
pg_advisory_lock(key), waiting in the server under lock_timeout, and pg_advisory_unlock(key). "Once acquired at session
level, an advisory lock is held until explicitly released or the session ends" (PostgreSQL 15
documentation, 13.3.5 "Advisory Locks"); it lives in the server's shared memory and is never
WAL-logged.]],
  protocol = "../reenter-model-postgresql.lua",
  server = "postgresql",
  nodes = 1,
  lease = false, wait = "90s",     -- no lease: the design has none
  network = { delay = {"1ms", "5ms"} },
  options = { design = "pg-advisory-blocking" },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds", reentrancy = "holds" },
}
