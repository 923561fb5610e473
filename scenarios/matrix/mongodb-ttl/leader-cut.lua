-- matrix: MongoDB findAndModify + TTL index under "leader-cut" (locklab matrix; the table is ../table.lua).
return {
  name = "MongoDB findAndModify + TTL index: the leader is cut off in a minority with the waiter",
  about = [[
The servers are a three-member replica set: the leader n1 and two followers. At 1 s a partition
puts the leader n1 and the waiter B on one side, the two followers and the holder A on the
other, for 40 s; the majority elects n1r1. A's driver moves to the new primary and deletes its
document there at 5.3 s. B's findAndModify on the old primary cannot be acknowledged by a
majority (w: "majority"), and B waits until the cut heals. No split brain, but the minority is
unavailable for as long as the cut lasts, which the checker's bound (twice the 10 s lease)
counts as a deadlock.

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
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", partition = { { "n1", "B" }, { "n1r1", "n1r2", "A" } }, duration = "40s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "violated" },
}
