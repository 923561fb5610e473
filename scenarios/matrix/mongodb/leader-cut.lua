-- matrix: MongoDB findAndModify under "leader-cut" (locklab matrix; the table is ../table.lua).
return {
  name = "MongoDB findAndModify: the leader is cut off in a minority with the waiter",
  about = [[
The servers are a three-member replica set: the leader n1 and two followers. At 1 s a partition
puts the leader n1 and the waiter B on one side, the two followers and the holder A on the
other, for 40 s; the majority elects n1r1. A's driver moves to the new primary and deletes its
document there at 5.2 s. B's findAndModify on the old primary cannot be acknowledged by a
majority (w: "majority"); B retries until the cut heals and gets the lock at 43 s. No split
brain; a long wait, within the 60 s the checker allows a design without expiry.

The design: the comparison table's MongoDB lock (lua/clients/mongo-findandmodify.lua): the
atomic findAndModify with upsert on the document {_id: lock} ($setOnInsert: the owner), whose
returned owner tells whether the lock is ours; a delete of our document releases it (the
MongoDB manual, "findAndModify"). No expiry; writes with writeConcern w: 1.]],
  protocol = "mongo-findandmodify",
  server = "mongodb",
  nodes = 1, replicas = 2,
  replication = { lag = {"50ms", "100ms"}, down_after = "1s", detection = "500ms" },
  lease = false, wait = "90s",     -- no lease: the design has none
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", partition = { { "n1", "B" }, { "n1r1", "n1r2", "A" } }, duration = "40s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
