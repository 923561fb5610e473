-- matrix: MySQL GET_LOCK() under "host-crash" (locklab matrix; the table is ../table.lua).
return {
  name = "MySQL GET_LOCK(): the holder's host crashes",
  about = [[
At 1 s A's host vanishes (power loss, a kernel panic, a killed VM: crash with host = true): no
FIN, no RST. The servers learn of it only when their TCP keepalive gives up on the connection,
about 2 h 11 min with Linux's defaults, far beyond this run. GET_LOCK lives as long as the
session, and the session as long as its connection, which the server still believes open: B
waits out its 90 s (scenarios/mysql-getlock-host-crash.lua). A process crash frees the lock at
once (the "crash" column).

The design: MySQL's user-level lock (lua/clients/mysql-getlock.lua): GET_LOCK(name, 0), polled,
and RELEASE_LOCK(name). The lock belongs to the session that took it and is "released
explicitly by executing RELEASE_LOCK() or implicitly when your session terminates (either
normally or abnormally)" (MySQL 8.0 Reference Manual, "Locking Functions"). It lives in the
server's memory only: it is neither written to disk nor replicated.]],
  protocol = "mysql-getlock",
  server = "mysql",
  nodes = 1,
  lease = false, wait = "90s",     -- no lease: the design has none
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", crash = "A", host = true },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "violated" },
}
