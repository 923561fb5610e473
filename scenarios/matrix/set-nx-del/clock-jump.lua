-- matrix: SET NX PX + DEL under "clock-jump" (locklab matrix; the table is ../table.lua).
return {
  name = "SET NX PX + DEL: a server's clock jumps forward",
  about = [[
At 1 s n1's clock jumps forward by 15 s, past the 10 s lease (an NTP step, an administrator).
Redis keeps a key's expiry as an absolute time on its own clock, so A's key there expires at
once (Kleppmann 2016, on Redlock's timing assumptions).

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
    { at = "1s", clock_jump = "n1", by = "15s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "violated", no_deadlock = "holds" },
}
