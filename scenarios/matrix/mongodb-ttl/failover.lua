-- matrix: MongoDB findAndModify + TTL index under "failover" (locklab matrix; the table is ../table.lua).
return {
  name = "MongoDB findAndModify + TTL index: failover with asynchronous replication",
  about = [[
A replica set: the primary n1 and one secondary fed asynchronously (lag 50-100 ms). The lock
is written with writeConcern w: 1 (the default before MongoDB 5.0), acknowledged by the
primary alone. n1 crashes at 20 ms, after A's findAndModify and before the secondary had it;
the secondary is elected 1 s later without the document ("Rollbacks During Replica Set
Failover": w: 1 writes not yet replicated are rolled back). B starts at 2 s and gets the lock
while A works. With writeConcern "majority" (the default since 5.0) A's write would not have
been acknowledged before the secondary had it.

The design: the comparison table's MongoDB lock with an expiry (lua/clients/mongo-findandmodify.lua,
options.expiry): the lock document carries expireAt = acquire time + the 10 s lease, and the
collection a TTL index on it; "The background task that removes expired documents runs every
60 seconds" (the MongoDB manual, "TTL Indexes", "Timing of the Delete Operation"), so the
lock frees up to a minute after its expiry. The holder does not renew it.]],
  protocol = "mongo-findandmodify",
  server = "mongodb",
  nodes = 1, replicas = 1,
  replication = { lag = {"50ms", "100ms"}, down_after = "1s", detection = "500ms" },
  lease = "10s", wait = "90s",
  network = { delay = {"1ms", "5ms"} },
  options = { expiry = true },
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
