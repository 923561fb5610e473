-- matrix: MySQL GET_LOCK() under "partition" (locklab matrix; the table is ../table.lua).
return {
  name = "MySQL GET_LOCK(): the holder is partitioned",
  about = [[
At 1 s a partition cuts A off from the server for 40 s (B still reaches it). A finishes its 5 s
of work; its release cannot arrive.

The server frees a user-level lock only when the session ends, and a silent connection ends
only after wait_timeout (8 hours by default). A's RELEASE_LOCK is lost in the partition and
its client gives up on it after 3 s but keeps the connection (the simulated client never
closes one), so the lock stays with A's idle session and B waits in vain.
(The simulator drops what a partition cuts and its clients never close a connection; over TCP
the RELEASE_LOCK might still arrive when the cut heals, at 41 s, or a driver that closed the
connection after the timeout would end the session then, freeing the lock 36 s late.)

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
    { at = "1s", partition = { { "A" }, { "n1", "B" } }, duration = "40s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "violated" },
}
