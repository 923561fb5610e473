-- matrix: PostgreSQL advisory lock (session, waiting in the server) under "late-release" (locklab matrix; the table is ../table.lua).
return {
  name = "PostgreSQL advisory lock (session, waiting in the server): the holder's release is delayed past the lease",
  about = [[
From 4.9 s, 100 ms before A's work ends, a cut between A and the server holds A's messages for
7.1 s. Over TCP (network.partitions = "tcp") A's release, sent at 5 s, is retransmitted with
Linux's backoff (200 ms doubling) and lands at 17.6 s, 12.6 s after it was sent, past the 10 s
lease; A's client gave up waiting long before. The session holds the lock until A's
pg_advisory_unlock lands at 17.6 s, and B gets it then: late, not unsafe.

The design: PostgreSQL's session-level advisory lock (lua/clients/pg-advisory-blocking.lua):
pg_advisory_lock(key), waiting in the server under lock_timeout, and pg_advisory_unlock(key). "Once acquired at session
level, an advisory lock is held until explicitly released or the session ends" (PostgreSQL 15
documentation, 13.3.5 "Advisory Locks"); it lives in the server's shared memory and is never
WAL-logged.]],
  protocol = "pg-advisory-blocking",
  server = "postgresql",
  nodes = 1,
  lease = false, wait = "90s",     -- no lease: the design has none
  network = { delay = {"1ms", "5ms"}, partitions = "tcp" },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "4900ms", partition = { { "A" }, { "n1", "B" } }, duration = "7100ms" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
