-- matrix: MongoDB findAndModify under "failover" (locklab matrix; the table is ../table.lua).
return {
  name = "MongoDB findAndModify: failover with asynchronous replication",
  about = [[
A replica set of three members as MongoDB recommends it (primary-secondary-secondary),
replicating asynchronously (lag 50-100 ms). The lock is written with the default write
concern, w: "majority" since MongoDB 5.0 ("Default MongoDB Read Concerns/Write Concerns"):
answered once a majority of the members has it. n1 crashes at 20 ms, after running A's
findAndModify and before either secondary had it, so A has no answer. A secondary, with the
other's vote, is elected 1 s later without the document; A's retry takes the lock there, and
B, starting at 2 s, waits for it. With w: 1 (the default before 5.0) A would have been told it
held the lock and B would have had it too: scenarios/mongodb-w1-failover.lua ("Rollbacks
During Replica Set Failover").

The design: the comparison table's MongoDB lock (lua/clients/mongo-findandmodify.lua): the
atomic findAndModify with upsert on the document {_id: lock} ($setOnInsert: the owner), whose
returned owner tells whether the lock is ours; a delete of our document releases it (the
MongoDB manual, "findAndModify"). No expiry; writes with the server's default write concern.]],
  protocol = "mongo-findandmodify",
  server = "mongodb",
  nodes = 1, replicas = 2,
  replication = { lag = {"50ms", "100ms"}, down_after = "1s", detection = "500ms" },
  lease = false, wait = "90s",     -- no lease: the design has none
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "2s", work = "8s" },
  },
  faults = {
    { at = "20ms", crash = "n1" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
