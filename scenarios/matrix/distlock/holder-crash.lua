-- matrix: SET NX PX + compare-and-delete under "holder-crash" (locklab matrix; the table is ../table.lua).
return {
  name = "SET NX PX + compare-and-delete: the holder crashes",
  about = [[
A crashes at 1 s inside its critical section and never releases. The lock has to come free by
itself for B: the 10 s lease runs out.

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
    { at = "1s", crash = "A" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
