-- matrix: Redlock (5 masters) under "client-clock" (locklab matrix; the table is ../table.lua).
return {
  name = "Redlock (5 masters): the holder's clock jumps forward",
  about = [[
At 1 s A's clock jumps forward by 15 s, past the 10 s lease, while A works (an NTP step, an
administrator). Redlock reads the client's clock only while acquiring (the validity: the TTL
less the time the majority took, and the drift); A had taken the lock before the jump, and the
masters count the TTL on their own clocks: nothing changes. A jump during the acquisition would
shorten (forward) or lengthen (backward) the validity A computes.

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
    { at = "1s", clock_jump = "A", by = "15s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
