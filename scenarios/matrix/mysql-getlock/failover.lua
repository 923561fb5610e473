-- matrix: MySQL GET_LOCK() under "failover" (locklab matrix; the table is ../table.lua).
return {
  name = "MySQL GET_LOCK(): failover with asynchronous replication",
  about = [[
The primary n1 has a replica fed asynchronously (lag 50-100 ms); n1 crashes at 20 ms and the
replica is promoted 1 s later. A user-level lock is never replicated at all: GET_LOCK is not
a write, and the manual warns that statements using it are unsafe for statement-based
replication (MySQL 8.0 Reference Manual, "Locking Functions"). The new primary has no lock,
so B, starting at 2 s, gets it while A still works.

The design: MySQL's user-level lock (lua/clients/mysql-getlock.lua): GET_LOCK(name, 0), polled,
and RELEASE_LOCK(name). The lock belongs to the session that took it and is "released
explicitly by executing RELEASE_LOCK() or implicitly when your session terminates (either
normally or abnormally)" (MySQL 8.0 Reference Manual, "Locking Functions"). It lives in the
server's memory only: it is neither written to disk nor replicated.]],
  protocol = "mysql-getlock",
  server = "mysql",
  nodes = 1, replicas = 1,
  replication = { lag = {"50ms", "100ms"}, down_after = "1s", detection = "500ms" },
  lease = false, wait = "90s",     -- no lease: the design has none
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "2s", work = "8s" },
  },
  faults = {
    { at = "20ms", crash = "n1" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds" },
}
