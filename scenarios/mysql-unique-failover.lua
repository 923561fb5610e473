-- mysql-unique-failover: asynchronous replication loses the lock's row in a failover.
return {
  name = "MySQL unique-index lock: failover with asynchronous replication",
  about = [[
The unique-index lock on a primary with an asynchronous replica. "Replication is
asynchronous by default" (MySQL 8.0 Reference Manual, "Replication",
dev.mysql.com/doc/refman/8.0/en/replication.html); "with regular asynchronous replication ...
the primary does not wait for a replica to confirm that an event has been received" (MariaDB
Knowledge Base, "Semisynchronous Replication", mariadb.com/kb/en/semisynchronous-replication/).
A's INSERT commits on the primary, which crashes 20 ms later, before the row reaches the
replica (lag 50-100 ms); the replica is promoted after 1 s and B's INSERT succeeds on it while
A is still inside its critical section: mutual exclusion is lost, as for Redis
(failover-async-replication).]],
  protocol = "mysql-unique",
  server = "mysql",
  nodes = 1, replicas = 1,
  lease = false, wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  replication = { lag = {"50ms", "100ms"}, down_after = "1s", detection = "500ms" },
  clients = {
    { name = "A", start = 0,       work = "5s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "20ms", crash = "n1" },
  },
  duration = "30s", seed = 3,
  expect = { mutual_exclusion = "violated" },
}
