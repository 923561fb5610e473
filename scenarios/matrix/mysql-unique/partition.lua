-- matrix: MySQL unique index (INSERT / DELETE) under "partition" (locklab matrix; the table is ../table.lua).
return {
  name = "MySQL unique index (INSERT / DELETE): the holder is partitioned",
  about = [[
At 1 s a partition cuts A off from the server for 40 s (B still reaches it). A finishes its 5 s
of work; its release cannot arrive.

A's client gives up on its DELETE after the 3 s timeout and does not send it again. Over TCP the cut loses nothing: the segment waits in A's socket and is retransmitted, each
retransmission twice as late as the one before (200 ms, 400 ms, ... at most 120 s apart), until
the cut heals or TCP gives up after tcp_retries2 = 15 of them ("a hypothetical timeout of 924.6
seconds", Linux ip-sysctl; network.partitions = "tcp"). The cut heals at 41 s; the next
retransmission after it, 51 s after the first sending at 5 s, delivers it at 56 s.
The DELETE runs then, the row goes, and B, who waits up to 90 s, takes the lock 51 s late: no
deadlock. A cut longer than TCP's 924.6 s resets the connection instead, and the row stays as
after a crash.

The design: the comparison table's MySQL lock (lua/clients/mysql-unique.lua): a table whose
primary key (a unique index) is the lock's name; an INSERT takes the lock, the duplicate-key
error 1062 means it is taken (retry later), a DELETE of the caller's own row releases it. The
row has no expiry: the design has no lease.]],
  protocol = "mysql-unique",
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
