-- matrix: MongoDB findAndModify + TTL index under "gc-pause" (locklab matrix; the table is ../table.lua).
return {
  name = "MongoDB findAndModify + TTL index: the holder's GC pause",
  about = [[
At 4 s, 1 s before its work is done, inside its critical section, A stops for a GC pause of 12
s (longer than the 10 s lease of the lease designs), then finishes, writes to the resource and
releases (Martin Kleppmann, "How to do distributed locking", 2016).

A's document expires at 10 s, during the pause. The TTL monitor deletes it at its next pass:
mongod's TTL thread sleeps ttlMonitorSleepSecs (60 s) on a steady clock between passes, so
where its passes fall against the clients depends on when the server started. Here it started
48 s before them (server_options.ttl_monitor_first = 12 s): the pass at 12 s deletes A's
document, B takes the lock, and A wakes at 16 s and writes on. The pause outlives the lock's
real lease, its expiry plus the wait for the next pass (0 to 60 s). With the pass at 60 s
(the server started with the clients) the document would still be there at 16 s and nothing
would go wrong, by luck of the phase (scenarios/mongodb-ttl-gc-pause.lua: an 80 s pause).

The design: the comparison table's MongoDB lock with an expiry (lua/clients/mongo-findandmodify.lua,
options.expiry): the lock document carries expireAt = acquire time + the 10 s lease, and the
collection a TTL index on it; "The background task that removes expired documents runs every
60 seconds" (the MongoDB manual, "TTL Indexes", "Timing of the Delete Operation"), so the
lock frees up to a minute after its expiry. The holder does not renew it.]],
  protocol = "mongo-findandmodify",
  server = "mongodb",
  nodes = 1, server_options = { ttl_monitor_first = "12s" },
  lease = "10s", wait = "90s",
  network = { delay = {"1ms", "5ms"} },
  options = { expiry = true },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "4s", gc_pause = "A", duration = "12s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds" },
}
