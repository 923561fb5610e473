-- matrix: MongoDB findAndModify + TTL index under "failover" (locklab matrix; the table is ../table.lua).
return {
  name = "MongoDB findAndModify + TTL index: failover with asynchronous replication",
  about = [[
A replica set of three members as MongoDB recommends it (primary-secondary-secondary),
replicating asynchronously (lag 50-100 ms). The lock is written with the default write
concern, w: "majority" since MongoDB 5.0 ("Default MongoDB Read Concerns/Write Concerns"):
answered once a majority of the members has it. A's createIndexes (the TTL index) is answered
so at 79 ms; n1 crashes at 100 ms, after running A's findAndModify (at 83 ms) and before either
secondary had it, so A has no answer. A secondary, with the
other's vote, is elected 1 s later without the document; B, starting at 2 s, takes the lock
there, and A, whose request timed out at 3 s, retries and waits for B. With w: 1 (the default before 5.0) A would have been told it
held the lock and B would have had it too: scenarios/mongodb-w1-failover.lua ("Rollbacks
During Replica Set Failover").

The design: the comparison table's MongoDB lock with an expiry (lua/clients/mongo-findandmodify.lua,
options.expiry): the lock document carries expireAt = acquire time + the 10 s lease, and the
collection a TTL index on it; "The background task that removes expired documents runs every
60 seconds" (the MongoDB manual, "TTL Indexes", "Timing of the Delete Operation"), so the
lock frees up to a minute after its expiry. The holder does not renew it.]],
  protocol = "mongo-findandmodify",
  server = "mongodb",
  nodes = 1, replicas = 2,
  replication = { lag = {"50ms", "100ms"}, down_after = "1s", detection = "500ms" },
  lease = "10s", wait = "90s",
  network = { delay = {"1ms", "5ms"} },
  options = { expiry = true },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "2s", work = "8s" },
  },
  faults = {
    { at = "100ms", crash = "n1" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
