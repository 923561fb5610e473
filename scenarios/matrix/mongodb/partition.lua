-- matrix: MongoDB findAndModify under "partition" (locklab matrix; the table is ../table.lua).
return {
  name = "MongoDB findAndModify: the holder is partitioned",
  about = [[
At 1 s a partition cuts A off from the server for 40 s (B still reaches it). A finishes its 5 s
of work; its release cannot arrive.

A's client gives up on its delete after the 3 s timeout and does not send it again. Over TCP the cut loses nothing: the segment waits in A's socket and is retransmitted, each
retransmission twice as late as the one before (200 ms, 400 ms, ... at most 120 s apart), until
the cut heals or TCP gives up after tcp_retries2 = 15 of them ("a hypothetical timeout of 924.6
seconds", Linux ip-sysctl; network.partitions = "tcp"). The cut heals at 41 s; the next
retransmission after it, 51 s after the first sending at 5 s, delivers it at 56 s.
The delete runs then, and B, who waits up to 90 s, takes the lock 51 s late: no deadlock. A cut
longer than TCP's 924.6 s resets the connection instead, and the document stays as after a
crash.

The design: the comparison table's MongoDB lock (lua/clients/mongo-findandmodify.lua): the
atomic findAndModify with upsert on the document {_id: lock} ($setOnInsert: the owner), whose
returned owner tells whether the lock is ours; a delete of our document releases it (the
MongoDB manual, "findAndModify"). No expiry; writes with the server's default write concern.]],
  protocol = "mongo-findandmodify",
  server = "mongodb",
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
