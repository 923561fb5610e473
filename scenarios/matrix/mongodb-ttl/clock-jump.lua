-- matrix: MongoDB findAndModify + TTL index under "clock-jump" (locklab matrix; the table is ../table.lua).
return {
  name = "MongoDB findAndModify + TTL index: the server's clock jumps forward",
  about = [[
At 1 s n1's clock jumps forward by 15 s (an NTP step, an administrator).

The TTL monitor compares expireAt with the server's clock, which now reads 15 s ahead: A's
document counts as expired from then on. The monitor's next pass is at 60 s, after A's
release at 5 s, so nothing happens here; a pass while A works would have deleted its lock.

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
    { at = "1s", clock_jump = "n1", by = "15s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
