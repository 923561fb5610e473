-- matrix: PostgreSQL advisory lock (session, waiting in the server) under "partition" (locklab matrix; the table is ../table.lua).
return {
  name = "PostgreSQL advisory lock (session, waiting in the server): the holder is partitioned",
  about = [[
At 1 s a partition cuts A off from the server for 40 s (B still reaches it). A finishes its 5 s
of work; its release cannot arrive.

The server frees a session lock only when the session ends, and nothing ends a silent one
(idle_session_timeout is 0, off, by default; TCP keepalive takes about 2 h). A's
pg_advisory_unlock is lost in the partition and its client gives up on it after 3 s but keeps
the connection (the simulated client never closes one), so B waits in vain. (The simulator
drops what a partition cuts; over TCP the unlock might arrive when the cut heals, at 41 s.)

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
    { at = "1s", partition = { { "A" }, { "n1", "B" } }, duration = "40s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "violated" },
}
