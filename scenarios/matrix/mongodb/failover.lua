-- matrix: MongoDB findAndModify under "failover" (locklab matrix; the table is ../table.lua).
return {
  name = "MongoDB findAndModify: failover with asynchronous replication",
  about = [[
A replica set: the primary n1 and one secondary fed asynchronously (lag 50-100 ms). The lock
is written with writeConcern w: 1 (the default before MongoDB 5.0), acknowledged by the
primary alone. n1 crashes at 20 ms, after A's findAndModify and before the secondary had it;
the secondary is elected 1 s later without the document ("Rollbacks During Replica Set
Failover": w: 1 writes not yet replicated are rolled back). B starts at 2 s and gets the lock
while A works. With writeConcern "majority" (the default since 5.0) A's write would not have
been acknowledged before the secondary had it.

The design: the comparison table's MongoDB lock (lua/clients/mongo-findandmodify.lua): the
atomic findAndModify with upsert on the document {_id: lock} ($setOnInsert: the owner), whose
returned owner tells whether the lock is ours; a delete of our document releases it (the
MongoDB manual, "findAndModify"). No expiry; writes with writeConcern w: 1.]],
  protocol = "mongo-findandmodify",
  server = "mongodb",
  nodes = 1, replicas = 1,
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
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds" },
}
