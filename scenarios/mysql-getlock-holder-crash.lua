-- mysql-getlock-holder-crash: GET_LOCK's lock goes with the connection.
return {
  name = "MySQL GET_LOCK: a crashed holder's lock frees with its connection",
  about = [[
MySQL's user-level lock (lua/clients/mysql-getlock.lua): SELECT GET_LOCK('lock', 0) to acquire,
RELEASE_LOCK to release. "A lock obtained with GET_LOCK() is released explicitly by executing
RELEASE_LOCK() or implicitly when your session terminates (either normally or abnormally)"
(MySQL 8.0 Reference Manual, "Locking Functions",
dev.mysql.com/doc/refman/8.0/en/locking-functions.html; MariaDB behaves alike, checked by
tests/diff/mysql/cases/getlock.txt). A crashes 1 s after taking the lock; its connection
closes, the server releases the lock, and B, polling, gets it within a retry: no deadlock,
where the unique-index table (mysql-unique-holder-crash) keeps its row for ever.]],
  protocol = "mysql-getlock",
  server = "mysql",
  nodes = 1,
  lease = false, wait = "90s",
  clients = {
    { name = "A", start = 0,       work = "2s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "1s", crash = "A" },
  },
  duration = "120s", seed = 1,
  expect = { no_deadlock = "holds", mutual_exclusion = "holds" },
}
