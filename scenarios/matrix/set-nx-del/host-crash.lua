-- matrix: SET NX PX + DEL under "host-crash" (locklab matrix; the table is ../table.lua).
return {
  name = "SET NX PX + DEL: the holder's host crashes",
  about = [[
At 1 s A's host vanishes (power loss, a kernel panic, a killed VM: crash with host = true): no
FIN, no RST. The servers learn of it only when their TCP keepalive gives up on the connection,
about 2 h 11 min with Linux's defaults, far beyond this run. The lock never depended on the
connection: the 10 s lease runs out, as after a process crash, and B takes the lock.

The design: SET key value NX PX ttl, one atomic command, released with a plain DEL
(lua/clients/set-nx-del.lua).]],
  protocol = "set-nx-del",
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
