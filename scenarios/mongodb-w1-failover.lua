-- mongodb-w1-failover: a lock acknowledged with w: 1 rolls back in a failover.
return {
  name = "MongoDB findAndModify lock with w: 1: rolled back in a failover",
  about = [[
The findAndModify lock on a replica set (a primary and two secondaries, replicating
asynchronously), written with writeConcern { w: 1 } (the default before MongoDB 5.0, and
still the implicit default of a primary-secondary-arbiter set): acknowledged once the primary
has it. "A
rollback reverts write operations on a former primary when the member rejoins its replica set
after a failover. A rollback is necessary only if the primary had accepted write operations
that the secondaries had not successfully replicated before the primary stepped down" (the
MongoDB manual, "Rollbacks During Replica Set Failover",
www.mongodb.com/docs/manual/core/replica-set-rollbacks/; it adds: "To prevent rollbacks of data
that have been acknowledged to the client, use w: majority write concern"). A's lock document
is on the primary only when the primary crashes 20 ms later; a secondary is elected after 1 s
(the two secondaries are a majority of the three members), B's findAndModify inserts the lock
document there, and A and B are both inside. With the default since 5.0, w: "majority", A is
answered only once a secondary has the document, and the crash costs A its answer instead of
its lock: locklab compare mongodb-w1-failover --options write_concern=w:1 --options
write_concern=default.]],
  protocol = "mongo-findandmodify",
  server = "mongodb",
  nodes = 1, replicas = 2,
  options = { write_concern = "w:1" },
  lease = false, wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  replication = { lag = {"50ms", "100ms"}, down_after = "1s", detection = "500ms" },
  clients = {
    { name = "A", start = 0,       work = "5s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "20ms", crash = "n1" },
  },
  duration = "30s", seed = 3,
  expect = { mutual_exclusion = "violated" },
}
