-- matrix: Redlock (5 masters) under "server-restart" (locklab matrix; the table is ../table.lua).
return {
  name = "Redlock (5 masters): the server crashes and restarts empty",
  about = [[
Redis master n1 crashes at 1 s and restarts at 2 s with nothing saved (persistence none: no AOF
fsync), so it forgets the lock A holds ("Distributed Locks with Redis", "Performance, crash
recovery and fsync"). n1 is one of five masters; the other four still hold A's lock.

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
    { at = "1s", crash = "n1" },
    { at = "2s", restart = "n1" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
