-- mysql-getlock-server-crash: the server forgets its user-level locks when it restarts.
return {
  name = "MySQL GET_LOCK: a server restart frees a lock its holder still uses",
  about = [[
User-level locks live in the server's memory and belong to connections (MySQL 8.0 Reference
Manual, "Locking Functions", dev.mysql.com/doc/refman/8.0/en/locking-functions.html); they are not written anywhere, so a server that crashes
and restarts holds none. A takes the lock with GET_LOCK and works for 5 s; the server crashes
at 1 s and is back at 2 s (its tables survive: persistence = "always", as InnoDB's redo log
keeps them). A's connection is gone, but A learns that only at its next statement; B's
GET_LOCK on the restarted server returns 1 while A is still inside its critical section.]],
  protocol = "mysql-getlock",
  server = "mysql",
  nodes = 1,
  persistence = "always", restart_delay = "1s",
  lease = false, wait = "30s",
  clients = {
    { name = "A", start = 0,       work = "5s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "1s", crash = "n1" },
  },
  duration = "30s", seed = 1,
  expect = { mutual_exclusion = "violated", no_deadlock = "holds" },
}
