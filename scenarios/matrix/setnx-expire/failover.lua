-- matrix: Redis SETNX + EXPIRE under "failover" (locklab matrix; the table is ../table.lua).
return {
  name = "Redis SETNX + EXPIRE: failover with asynchronous replication",
  about = [[
n1 has a replica fed asynchronously (lag 50-100 ms). n1 crashes at 20 ms, after A's lock
reached it and before it reached the replica; the replica is promoted 1 s later without the
lock ("Distributed Locks with Redis", "Why Failover-based Implementations Are Not Enough"). B
starts at 2 s, once the clients have learned of the new master.

The design: The naive lock: SETNX key value, then EXPIRE key ttl as a second command; released
with a plain DEL (lua/clients/setnx-expire.lua).]],
  protocol = "setnx-expire",
  nodes = 1,
  replicas = 1,
  replication = { lag = {"50ms", "100ms"}, down_after = "1s", detection = "500ms" },
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "2s", work = "8s" },
  },
  faults = {
    { at = "20ms", crash = "n1" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "violated", no_deadlock = "holds" },
}
