-- matrix: MongoDB findAndModify + TTL index under "clock-jump" (locklab matrix; the table is ../table.lua).
return {
  name = "MongoDB findAndModify + TTL index: the server's clock jumps forward",
  about = [[
At 1 s n1's clock jumps forward by 15 s (an NTP step, an administrator).

The TTL monitor compares expireAt with the server's wall clock, which now reads 15 s ahead:
A's document counts as expired from then on. The monitor sleeps 60 s between passes on a
steady clock, so the jump does not move its passes; where they fall against the clients
depends on when the server started. Here it started 57 s before them (server_options.
ttl_monitor_first = 3 s): the pass at 3 s deletes A's document while A works, and B takes
the lock. Every lock taken after the jump with a 10 s lease is "expired" on arrival, and goes
at the next pass. With no pass while A works (the server started with the clients: the first
pass at 60 s) nothing would go wrong here.

The design: the comparison table's MongoDB lock with an expiry (lua/clients/mongo-findandmodify.lua,
options.expiry): the lock document carries expireAt = acquire time + the 10 s lease, and the
collection a TTL index on it; "The background task that removes expired documents runs every
60 seconds" (the MongoDB manual, "TTL Indexes", "Timing of the Delete Operation"), so the
lock frees up to a minute after its expiry. The holder does not renew it.]],
  protocol = "mongo-findandmodify",
  server = "mongodb",
  nodes = 1, server_options = { ttl_monitor_first = "3s" },
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
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds" },
}
