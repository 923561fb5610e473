-- matrix: MongoDB findAndModify + TTL index under "partition" (locklab matrix; the table is ../table.lua).
return {
  name = "MongoDB findAndModify + TTL index: the holder is partitioned",
  about = [[
At 1 s a partition cuts A off from the server for 40 s (B still reaches it). A finishes its 5 s
of work; its release cannot arrive.

A's client gives up on its delete after the 3 s timeout and does not send it again. Over TCP the cut loses nothing: the segment waits in A's socket and is retransmitted, each
retransmission twice as late as the one before (200 ms, 400 ms, ... at most 120 s apart), until
the cut heals or TCP gives up after tcp_retries2 = 15 of them ("a hypothetical timeout of 924.6
seconds", Linux ip-sysctl; network.partitions = "tcp"). The cut heals at 41 s; the next
retransmission after it, 51 s after the first sending at 5 s, delivers it at 56 s.
The delete runs then, before the TTL monitor's pass at 60 s would have deleted the expired
document; B gets the lock at 56 s, 46 s after the document's expiry at 10 s: a late release,
which the checker's bound (twice the lease, 20 s) counts as a deadlock.

The design: the comparison table's MongoDB lock with an expiry (lua/clients/mongo-findandmodify.lua,
options.expiry): the lock document carries expireAt = acquire time + the 10 s lease, and the
collection a TTL index on it; "The background task that removes expired documents runs every
60 seconds" (the MongoDB manual, "TTL Indexes", "Timing of the Delete Operation"), so the
lock frees up to a minute after its expiry. The holder does not renew it.]],
  protocol = "mongo-findandmodify",
  server = "mongodb",
  nodes = 1,
  lease = "10s", wait = "90s",
  network = { delay = {"1ms", "5ms"}, partitions = "tcp" },
  options = { expiry = true },
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
