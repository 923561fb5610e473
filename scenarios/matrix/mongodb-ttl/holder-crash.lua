-- matrix: MongoDB findAndModify + TTL index under "holder-crash" (locklab matrix; the table is ../table.lua).
return {
  name = "MongoDB findAndModify + TTL index: the holder crashes",
  about = [[
A crashes at 1 s inside its critical section and never releases. The lock has to come free by
itself for B, who waits up to 90 s.

A's document expires at 10 s (expireAt), but the TTL monitor deletes expired documents only
on its passes, every 60 s (ttlMonitorSleepSecs; the server started with the clients, so its
first pass is at 60 s): the document goes at 60 s, 50 s after its expiry, and B gets the lock
then. This is the delay the manual documents ("the TTL index does not guarantee that expired
data is deleted immediately upon expiration": up to a period late), not a lock that never
frees; but it is five times the lease, and the checker's bound (twice the lease, 20 s) counts
it as a deadlock. Where the pass falls depends on when the server started: had it started 48
s earlier (server_options.ttl_monitor_first = "12s") B would have had the lock at 12 s.

The design: the comparison table's MongoDB lock with an expiry (lua/clients/mongo-findandmodify.lua,
options.expiry): the lock document carries expireAt = acquire time + the 10 s lease, and the
collection a TTL index on it; "The background task that removes expired documents runs every
60 seconds" (the MongoDB manual, "TTL Indexes", "Timing of the Delete Operation"), so the
lock frees up to a minute after its expiry. The holder does not renew it.]],
  protocol = "mongo-findandmodify",
  server = "mongodb",
  nodes = 1,
  lease = "10s", wait = "90s",
  network = { delay = {"1ms", "5ms"} },
  options = { expiry = true },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", crash = "A" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "violated" },
}
