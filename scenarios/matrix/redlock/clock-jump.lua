-- matrix: Redlock (5 masters) under "clock-jump" (locklab matrix; the table is ../table.lua).
return {
  name = "Redlock (5 masters): a server's clock jumps forward",
  about = [[
At 1 s n1's clock jumps forward by 15 s, past the 10 s lease (an NTP step, an administrator).
Redis keeps a key's expiry as an absolute time on its own clock, so A's key there expires at
once (Kleppmann 2016, on Redlock's timing assumptions). n1 is one of five masters.

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
    { at = "1s", clock_jump = "n1", by = "15s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
