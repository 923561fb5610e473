-- matrix: MongoDB findAndModify under "client-clock" (locklab matrix; the table is ../table.lua).
return {
  name = "MongoDB findAndModify: the holder's clock jumps forward",
  about = [[
At 1 s A's clock jumps forward by 15 s, while A works (an NTP step, an administrator). The lock
has no time in it (no lease, no expiry): nothing changes.

The design: the comparison table's MongoDB lock (lua/clients/mongo-findandmodify.lua): the
atomic findAndModify with upsert on the document {_id: lock} ($setOnInsert: the owner), whose
returned owner tells whether the lock is ours; a delete of our document releases it (the
MongoDB manual, "findAndModify"). No expiry; writes with writeConcern w: 1.]],
  protocol = "mongo-findandmodify",
  server = "mongodb",
  nodes = 1,
  lease = false, wait = "90s",     -- no lease: the design has none
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", clock_jump = "A", by = "15s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
