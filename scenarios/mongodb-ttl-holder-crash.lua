-- mongodb-ttl-holder-crash: a TTL index frees a dead holder's lock, up to a minute late.
return {
  name = "MongoDB findAndModify lock with a TTL index: a crashed holder's lock frees, late",
  about = [[
The findAndModify lock with an expiry field: the lock document carries expireAt = acquire
time + the 30 s lease, and the collection a TTL index on it (expireAfterSeconds: 0). A takes
the lock at 0 and crashes at 1 s. Its document expires at 30 s, but "The TTL index does not
guarantee that expired data is deleted immediately upon expiration ... The background task
that removes expired documents runs every 60 seconds" (the MongoDB manual, "TTL Indexes",
"Timing of the Delete Operation", www.mongodb.com/docs/manual/core/index-ttl/). The TTL
monitor's first pass is 60 s after the server started (server_options.ttl_monitor, the
ttlMonitorSleepSecs parameter): the document goes then, 30 s after its expiry, and B gets
the lock about 60 s in. No deadlock (the checker's bound is twice the lease, 60 s), but a
lease here is a lower bound only: expiry is late by up to one period of the monitor.]],
  protocol = "mongo-findandmodify",
  server = "mongodb",
  server_options = { ttl_monitor = "60s" },
  options = { expiry = true },
  nodes = 1,
  lease = "30s", wait = "90s",
  clients = {
    { name = "A", start = 0,       work = "2s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "1s", crash = "A" },
  },
  duration = "120s", seed = 1,
  expect = { no_deadlock = "holds", mutual_exclusion = "holds" },
}
