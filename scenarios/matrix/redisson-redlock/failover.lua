-- matrix: Redisson RedLock (5, watchdog) under "failover" (locklab matrix; the table is ../table.lua).
return {
  name = "Redisson RedLock (5, watchdog): failover with asynchronous replication",
  about = [[
n1 has a replica fed asynchronously (lag 50-100 ms). n1 crashes at 20 ms, after A's lock
reached it and before it reached the replica; the replica is promoted 1 s later without the
lock ("Distributed Locks with Redis", "Why Failover-based Implementations Are Not Enough"). B
starts at 2 s, once the clients have learned of the new master. n1 is one of five masters, each
with its replica.

The design: Redisson's RedissonRedLock over five masters, without a lease: each RedissonLock
keeps its own watchdog (lua/clients/redisson-redlock.lua).]],
  protocol = "redisson-redlock",
  mode = "redlock", nodes = { "n1", "n2", "n3", "n4", "n5" },
  replicas = 1,
  replication = { lag = {"50ms", "100ms"}, down_after = "1s", detection = "500ms" },
  lease = false, wait = "60s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "45s" },
    { name = "B", start = "2s", work = "8s" },
  },
  faults = {
    { at = "20ms", crash = "n1" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
