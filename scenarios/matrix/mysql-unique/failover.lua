-- matrix: MySQL unique index (INSERT / DELETE) under "failover" (locklab matrix; the table is ../table.lua).
return {
  name = "MySQL unique index (INSERT / DELETE): failover with asynchronous replication",
  about = [[
The primary n1 has a replica fed asynchronously (MySQL's default replication; lag 50-100 ms).
n1 crashes at 20 ms, after A's INSERT committed on it and before the replica had it; the
replica is promoted 1 s later without A's row (MySQL 8.0 Reference Manual, "Replication":
"Replication is asynchronous by default"; a failover to such a replica loses the last
transactions). B starts at 2 s, once the clients have learned of the new primary: its INSERT
succeeds while A works.

The design: the comparison table's MySQL lock (lua/clients/mysql-unique.lua): a table whose
primary key (a unique index) is the lock's name; an INSERT takes the lock, the duplicate-key
error 1062 means it is taken (retry later), a DELETE of the caller's own row releases it. The
row has no expiry: the design has no lease.]],
  protocol = "mysql-unique",
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
