-- matrix: MySQL GET_LOCK() under "server-restart" (locklab matrix; the table is ../table.lua).
return {
  name = "MySQL GET_LOCK(): the server crashes and restarts",
  about = [[
MySQL n1 crashes at 1 s and restarts at 2 s with its tables (persistence = "always", as
InnoDB's redo log keeps them), but a user-level lock is not data: it lives in the server's
memory and belongs to a connection, so the restarted server holds none. A does not know: it
learns that its connection is gone only at its next statement (its RELEASE_LOCK at 5 s finds
nothing). B's GET_LOCK on the restarted server returns 1 while A still works.

The design: MySQL's user-level lock (lua/clients/mysql-getlock.lua): GET_LOCK(name, 0), polled,
and RELEASE_LOCK(name). The lock belongs to the session that took it and is "released
explicitly by executing RELEASE_LOCK() or implicitly when your session terminates (either
normally or abnormally)" (MySQL 8.0 Reference Manual, "Locking Functions"). It lives in the
server's memory only: it is neither written to disk nor replicated.]],
  protocol = "mysql-getlock",
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
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds" },
}
