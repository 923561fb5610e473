-- matrix: Redlock (5 masters) under "partition" (locklab matrix; the table is ../table.lua).
return {
  name = "Redlock (5 masters): the holder is partitioned",
  about = [[
At 1 s a partition cuts A off from Redis for 40 s (B still reaches it). A finishes its 5 s of
work inside its lease; its release cannot arrive, so the lock waits for its lease to run out
before B gets it.

The design: Redlock over five independent masters ("Distributed Locks with Redis", "The Redlock
Algorithm"; lua/clients/redlock.lua with redlock-rb's numbers).]],
  protocol = "redlock",
  mode = "redlock", nodes = { "n1", "n2", "n3", "n4", "n5" },
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  options = { retry_count = 1000 },  -- B keeps trying for its whole wait, as in the other rows (redlock-rb: 3 attempts)
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", partition = { { "A" }, { "n1", "n2", "n3", "n4", "n5", "B" } }, duration = "40s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
