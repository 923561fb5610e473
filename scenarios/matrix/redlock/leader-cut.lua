-- matrix: Redlock (5 masters) under "leader-cut" (locklab matrix; the table is ../table.lua).
return {
  name = "Redlock (5 masters): the leader is cut off in a minority with the waiter",
  about = [[
Redlock has no leader: five independent masters. At 1 s a partition puts n1, n2 and the waiter
B on one side, n3, n4, n5 and the holder A on the other, for 40 s. A still holds a majority and
releases at 5 s; B reaches two masters, never a majority, and cannot lock while the cut lasts:
its 30 s wait runs out. The documentation says so: "we pay an availability penalty equal to TTL
time on network partitions" ("Liveness arguments"); here the penalty is the whole cut.

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
    { at = "1s", partition = { { "n1", "n2", "B" }, { "n3", "n4", "n5", "A" } }, duration = "40s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "violated" },
}
