-- matrix: MongoDB findAndModify + TTL index under "late-release" (locklab matrix; the table is ../table.lua).
return {
  name = "MongoDB findAndModify + TTL index: the holder's release is delayed past the lease",
  about = [[
From 4.9 s, 100 ms before A's work ends, a cut between A and the server holds A's messages for
7.1 s. Over TCP (network.partitions = "tcp") A's release, sent at 5 s, is retransmitted with
Linux's backoff (200 ms doubling) and lands at 17.6 s, 12.6 s after it was sent, past the 10 s
lease; A's client gave up waiting long before. The document's expireAt passed at 10 s, and the
TTL monitor's pass at 12 s (server_options.ttl_monitor_first; one pass a minute) deletes it: B
takes the lock at 12 s. A's delete lands at 17.6 s while B holds it, and deletes nothing: it
names A's owner ({_id, owner}), and the document is B's. (Had no pass come before 17.6 s, A's
delete would have found its own document: nothing late.)

The design: the comparison table's MongoDB lock with an expiry (lua/clients/mongo-findandmodify.lua,
options.expiry): the lock document carries expireAt = acquire time + the 10 s lease, and the
collection a TTL index on it; "The background task that removes expired documents runs every
60 seconds" (the MongoDB manual, "TTL Indexes", "Timing of the Delete Operation"), so the
lock frees up to a minute after its expiry. The holder does not renew it.]],
  protocol = "mongo-findandmodify",
  server = "mongodb",
  nodes = 1, server_options = { ttl_monitor_first = "12s" },
  lease = "10s", wait = "90s",
  network = { delay = {"1ms", "5ms"}, partitions = "tcp" },
  options = { expiry = true },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "4900ms", partition = { { "A" }, { "n1", "B" } }, duration = "7100ms" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
