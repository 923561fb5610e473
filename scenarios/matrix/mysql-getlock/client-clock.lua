-- matrix: MySQL GET_LOCK() under "client-clock" (locklab matrix; the table is ../table.lua).
return {
  name = "MySQL GET_LOCK(): the holder's clock jumps forward",
  about = [[
At 1 s A's clock jumps forward by 15 s, while A works (an NTP step, an administrator). The lock
has no time in it (no lease, no expiry): nothing changes.

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
    { at = "1s", clock_jump = "A", by = "15s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
