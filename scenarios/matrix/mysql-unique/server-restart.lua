-- matrix: MySQL unique index (INSERT / DELETE) under "server-restart" (locklab matrix; the table is ../table.lua).
return {
  name = "MySQL unique index (INSERT / DELETE): the server crashes and restarts",
  about = [[
MySQL n1 crashes at 1 s and restarts at 2 s. InnoDB writes and flushes its redo log at each
commit by default (innodb_flush_log_at_trx_commit = 1: MySQL 8.0 Reference Manual, "InnoDB
Startup Options and System Variables"), so the restarted server has every committed row
(persistence = "always" here, where the Redis rows restart empty): A's row is still there,
B's INSERTs still get 1062, and B takes the lock after A's DELETE.

The design: the comparison table's MySQL lock (lua/clients/mysql-unique.lua): a table whose
primary key (a unique index) is the lock's name; an INSERT takes the lock, the duplicate-key
error 1062 means it is taken (retry later), a DELETE of the caller's own row releases it. The
row has no expiry: the design has no lease.]],
  protocol = "mysql-unique",
  server = "mysql",
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
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
