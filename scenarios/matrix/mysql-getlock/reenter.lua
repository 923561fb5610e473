-- matrix: MySQL GET_LOCK() under "reenter" (locklab matrix; the table is ../table.lua).
return {
  name = "MySQL GET_LOCK(): the holder takes the lock again",
  about = [[
No fault. A takes the lock and, holding it, takes it again, as a method that holds the lock
calls another that takes it and releases it when it returns (../reenter-model.lua: the inner
acquire may wait 1 s); A then works on under its first hold, and B waits its turn. A
re-entrant lock counts the holds and frees the lock at the last release; a lock that is a
plain key cannot tell its holder from a stranger, and one that lets its holder in again
without counting frees itself at the inner release, while A still works.

MySQL 5.7 and later (and MariaDB 10.0.2+) let a session take the same lock again and count the
holds: "It is possible for a given session to acquire multiple locks for the same name ...
each lock acquired must be released" (MySQL 8.0 Reference Manual, "Locking Functions"). The
inner RELEASE_LOCK counts down; the lock frees at A's last one.

The design: MySQL's user-level lock (lua/clients/mysql-getlock.lua): GET_LOCK(name, 0), polled,
and RELEASE_LOCK(name). The lock belongs to the session that took it and is "released
explicitly by executing RELEASE_LOCK() or implicitly when your session terminates (either
normally or abnormally)" (MySQL 8.0 Reference Manual, "Locking Functions"). It lives in the
server's memory only: it is neither written to disk nor replicated.]],
  protocol = "../reenter-model-mysql.lua",
  server = "mysql",
  nodes = 1,
  lease = false, wait = "90s",     -- no lease: the design has none
  network = { delay = {"1ms", "5ms"} },
  options = { design = "mysql-getlock" },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds", reentrancy = "holds" },
}
