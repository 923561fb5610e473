-- matrix: SET NX PX + compare-and-delete under "server-restart" (locklab matrix; the table is ../table.lua).
return {
  name = "SET NX PX + compare-and-delete: the server crashes and restarts empty",
  about = [[
Redis master n1 crashes at 1 s and restarts at 2 s with nothing saved (persistence none: no AOF
fsync), so it forgets the lock A holds ("Distributed Locks with Redis", "Performance, crash
recovery and fsync").

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
    { at = "1s", crash = "n1" },
    { at = "2s", restart = "n1" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds" },
}
