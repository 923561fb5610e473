-- matrix: SET NX PX + compare-and-delete under "host-crash" (locklab matrix; the table is ../table.lua).
return {
  name = "SET NX PX + compare-and-delete: the holder's host crashes",
  about = [[
At 1 s A's host vanishes (power loss, a kernel panic, a killed VM: crash with host = true): no
FIN, no RST. The servers learn of it only when their TCP keepalive gives up on the connection,
about 2 h 11 min with Linux's defaults, far beyond this run. The lock never depended on the
connection: the 10 s lease runs out, as after a process crash, and B takes the lock.

The design: The Redis documentation's single-instance lock ("Distributed Locks with Redis",
"Correct Implementation with a Single Instance"): SET key random NX PX ttl, released by a
compare-and-delete script (lua/clients/distlock.lua).]],
  protocol = "distlock",
  nodes = 1,
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", crash = "A", host = true },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
