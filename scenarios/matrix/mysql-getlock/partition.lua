-- matrix: MySQL GET_LOCK() under "partition" (locklab matrix; the table is ../table.lua).
return {
  name = "MySQL GET_LOCK(): the holder is partitioned",
  about = [[
At 1 s a partition cuts A off from the server for 40 s (B still reaches it). A finishes its 5 s
of work; its release cannot arrive.

A's client gives up on its RELEASE_LOCK after 3 s but keeps the connection. Over TCP the cut loses nothing: the segment waits in A's socket and is retransmitted, each
retransmission twice as late as the one before (200 ms, 400 ms, ... at most 120 s apart), until
the cut heals or TCP gives up after tcp_retries2 = 15 of them ("a hypothetical timeout of 924.6
seconds", Linux ip-sysctl; network.partitions = "tcp"). The cut heals at 41 s; the next
retransmission after it, 51 s after the first sending at 5 s, delivers it at 56 s.
RELEASE_LOCK runs then and B takes the lock 51 s late: no deadlock. A cut longer than TCP's
924.6 s would reset the connection, and the server, whose session ends with it, would free
the lock then; a silent client host (no FIN, no reset) keeps it until the server's TCP
keepalive (about 2 h 11 min with Linux's defaults) or wait_timeout (8 hours) ends the session.

The design: MySQL's user-level lock (lua/clients/mysql-getlock.lua): GET_LOCK(name, 0), polled,
and RELEASE_LOCK(name). The lock belongs to the session that took it and is "released
explicitly by executing RELEASE_LOCK() or implicitly when your session terminates (either
normally or abnormally)" (MySQL 8.0 Reference Manual, "Locking Functions"). It lives in the
server's memory only: it is neither written to disk nor replicated.]],
  protocol = "mysql-getlock",
  server = "mysql",
  nodes = 1,
  lease = false, wait = "90s",     -- no lease: the design has none
  network = { delay = {"1ms", "5ms"}, partitions = "tcp" },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", partition = { { "A" }, { "n1", "B" } }, duration = "40s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
