-- matrix: SET NX PX + compare-and-delete under "clock-jump" (locklab matrix; the table is ../table.lua).
return {
  name = "SET NX PX + compare-and-delete: a server's clock jumps forward",
  about = [[
At 1 s n1's clock jumps forward by 15 s, past the 10 s lease (an NTP step, an administrator).
Redis keeps a key's expiry as an absolute time on its own clock, so A's key there expires at
once (Kleppmann 2016, on Redlock's timing assumptions).

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
    { at = "1s", clock_jump = "n1", by = "15s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds" },
}
