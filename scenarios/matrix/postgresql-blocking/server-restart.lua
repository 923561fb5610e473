-- matrix: PostgreSQL advisory lock (session, waiting in the server) under "server-restart" (locklab matrix; the table is ../table.lua).
return {
  name = "PostgreSQL advisory lock (session, waiting in the server): the server crashes and restarts",
  about = [[
The server n1 crashes at 1 s and restarts at 2 s (persistence = "always": what PostgreSQL's
WAL keeps, it keeps).

An advisory lock is not data: the restarted server holds none. A learns that its session is
gone only at its next statement (its pg_advisory_unlock at 5 s finds nothing). B was waiting
inside the crashed process: as this column crashes a server (silently, for every row), no
reply and no reset reach B, whose statement waits on a dead connection until the application's
own bound (lock_timeout + 1 s) ends it; B never gets in, so nobody shares the lock, but the lock
is out of reach meanwhile. (The polled recipe, pg-advisory.lua, asks the restarted server
again and is let in while A still works.)

The design: PostgreSQL's session-level advisory lock (lua/clients/pg-advisory-blocking.lua):
pg_advisory_lock(key), waiting in the server under lock_timeout, and pg_advisory_unlock(key). "Once acquired at session
level, an advisory lock is held until explicitly released or the session ends" (PostgreSQL 15
documentation, 13.3.5 "Advisory Locks"); it lives in the server's shared memory and is never
WAL-logged.]],
  protocol = "pg-advisory-blocking",
  server = "postgresql",
  nodes = 1,
  persistence = "always",
  lease = false, wait = "90s",     -- no lease: the design has none
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", crash = "n1" },
    { at = "2s", restart = "n1" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "violated" },
}
