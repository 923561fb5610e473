-- matrix: MongoDB findAndModify + TTL index under "client-clock" (locklab matrix; the table is ../table.lua).
return {
  name = "MongoDB findAndModify + TTL index: the holder's clock is 15 s behind when it locks",
  about = [[
At 0 s, just before A locks, A's clock steps back by 15 s (an NTP step, an administrator, a
host that booted with a wrong clock). This design reads the holder's clock at one moment only:
when it locks, writing expireAt = its clock + the lease; the TTL monitor then judges expireAt
by the server's clock. A's document says it expired 5 s before it was written, and the
monitor's first pass, at 3 s (server_options.ttl_monitor_first; a pass every 60 s falls inside
a 5 s job one time in twelve), deletes it while A works: B takes the lock beside A, and A's
last write lands after B's. (A clock that jumps forward after A locked changes nothing here:
the design has already read it; one that is ahead when A locks makes the lock outlive its
lease, which is the holder-crash column's lesson.)

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
    { name = "A", start = "10ms", work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "0s", clock_jump = "A", by = "-15s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds" },
}
