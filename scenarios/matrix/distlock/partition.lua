-- matrix: SET NX PX + compare-and-delete under "partition" (locklab matrix; the table is ../table.lua).
return {
  name = "SET NX PX + compare-and-delete: the holder is partitioned",
  about = [[
At 1 s a partition cuts A off from Redis for 40 s (B still reaches it). A finishes its 5 s of
work inside its lease; its release cannot arrive, so the lock waits for its lease to run out
before B gets it.

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
    { at = "1s", partition = { { "A" }, { "n1", "B" } }, duration = "40s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
