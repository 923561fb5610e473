-- matrix: MongoDB findAndModify + TTL index under "server-restart" (locklab matrix; the table is ../table.lua).
return {
  name = "MongoDB findAndModify + TTL index: the server crashes and restarts",
  about = [[
mongod n1 crashes at 1 s and restarts at 2 s. With journaling (always on since MongoDB 6.1)
the journal is flushed every 100 ms (storage.journal.commitIntervalMs; the manual, "Journaling"),
so a document written a second before the crash is recovered at restart: persistence =
"always" stands for it here, where the Redis rows restart empty. A's lock document survives;
B gets the lock after A's delete.

The design: the comparison table's MongoDB lock with an expiry (lua/clients/mongo-findandmodify.lua,
options.expiry): the lock document carries expireAt = acquire time + the 10 s lease, and the
collection a TTL index on it; "The background task that removes expired documents runs every
60 seconds" (the MongoDB manual, "TTL Indexes", "Timing of the Delete Operation"), so the
lock frees up to a minute after its expiry. The holder does not renew it.]],
  protocol = "mongo-findandmodify",
  server = "mongodb",
  nodes = 1,
  persistence = "always",
  lease = "10s", wait = "90s",
  network = { delay = {"1ms", "5ms"} },
  options = { expiry = true },
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
