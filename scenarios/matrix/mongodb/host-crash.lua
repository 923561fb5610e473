-- matrix: MongoDB findAndModify under "host-crash" (locklab matrix; the table is ../table.lua).
return {
  name = "MongoDB findAndModify: the holder's host crashes",
  about = [[
At 1 s A's host vanishes (power loss, a kernel panic, a killed VM: crash with host = true): no
FIN, no RST. The servers learn of it only when their TCP keepalive gives up on the connection,
about 2 h 11 min with Linux's defaults, far beyond this run. No expiry, as after a process
crash: the lock stays, and B waits out its 90 s.

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
    { at = "1s", crash = "A", host = true },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "violated" },
}
