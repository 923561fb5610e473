-- matrix: MongoDB findAndModify under "server-restart" (locklab matrix; the table is ../table.lua).
return {
  name = "MongoDB findAndModify: the server crashes and restarts",
  about = [[
mongod n1 crashes at 1 s and restarts at 2 s. With journaling (always on since MongoDB 6.1)
the journal is flushed every 100 ms (storage.journal.commitIntervalMs; the manual, "Journaling"),
so a document written a second before the crash is recovered at restart: persistence =
"always" stands for it here, where the Redis rows restart empty. A's lock document survives;
B gets the lock after A's delete.

The design: the comparison table's MongoDB lock (lua/clients/mongo-findandmodify.lua): the
atomic findAndModify with upsert on the document {_id: lock} ($setOnInsert: the owner), whose
returned owner tells whether the lock is ours; a delete of our document releases it (the
MongoDB manual, "findAndModify"). No expiry; writes with writeConcern w: 1.]],
  protocol = "mongo-findandmodify",
  server = "mongodb",
  nodes = 1,
  persistence = "always",
  lease = false, wait = "90s",     -- no lease: the design has none
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", crash = "n1" },
    { at = "2s", restart = "n1" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
