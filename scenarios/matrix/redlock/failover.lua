-- matrix: Redlock (5 masters) under "failover" (locklab matrix; the table is ../table.lua).
return {
  name = "Redlock (5 masters): failover with asynchronous replication",
  about = [[
n1 has a replica fed asynchronously (lag 50-100 ms). n1 crashes at 20 ms, after A's lock
reached it and before it reached the replica; the replica is promoted 1 s later without the
lock ("Distributed Locks with Redis", "Why Failover-based Implementations Are Not Enough"). B
starts at 2 s, once the clients have learned of the new master. n1 is one of five masters, each
with its replica.

The design: Redlock over five independent masters ("Distributed Locks with Redis", "The Redlock
Algorithm"; lua/clients/redlock.lua with redlock-rb's numbers).]],
  protocol = "redlock",
  mode = "redlock", nodes = { "n1", "n2", "n3", "n4", "n5" },
  replicas = 1,
  replication = { lag = {"50ms", "100ms"}, down_after = "1s", detection = "500ms" },
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  options = { retry_count = 1000 },  -- B keeps trying for its whole wait, as in the other rows (redlock-rb: 3 attempts)
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "2s", work = "8s" },
  },
  faults = {
    { at = "20ms", crash = "n1" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
