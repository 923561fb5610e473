-- mysql-getlock-gc-pause: a paused holder keeps its GET_LOCK lock.
return {
  name = "MySQL GET_LOCK: a GC pause does not lose the lock",
  about = [[
MySQL's user-level lock belongs to the holder's session: "A lock obtained with GET_LOCK() is
released explicitly by executing RELEASE_LOCK() or implicitly when your session terminates"
(MySQL 8.0 Reference Manual, "Locking Functions",
dev.mysql.com/doc/refman/8.0/en/locking-functions.html). A stop-the-world pause of the holder
(Martin Kleppmann, "How to do distributed locking", 2016) does not end its session: the
connection stays open, and the lock stays A's for the 20 s of the pause. B waits and gets the
lock once A releases it: mutual exclusion holds, at the price of B's wait. (A session the
server does close while its client is stalled — wait_timeout, 8 hours by default — would
release the lock under it as a lease would.)]],
  protocol = "mysql-getlock",
  server = "mysql",
  nodes = 1,
  lease = false, wait = "90s",
  clients = {
    { name = "A", start = 0,       work = "25s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "1s", gc_pause = "A", duration = "20s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", no_deadlock = "holds" },
}
