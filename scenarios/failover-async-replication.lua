-- failover-async-replication: a lock lost in a failover.
return {
  name = "failover loses the lock (asynchronous replication)",
  about = [[
The Redis documentation on why a master with a replica is not enough ("Distributed Locks with
Redis", "Why Failover-based Implementations Are Not Enough"): "Client A
acquires the lock in the master. The master crashes before the write to the key is
transmitted to the replica. The replica gets promoted to master. Client B acquires the lock to
the same resource A already holds a lock for. SAFETY VIOLATION!" Here the replication lag is
50-100 ms and the master crashes 20 ms after A's SET; the replica is promoted after
down_after (1 s) and clients learn of it 500 ms later.]],
  protocol = "distlock",
  nodes = 1, replicas = 1,
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  replication = { lag = {"50ms", "100ms"}, down_after = "1s", detection = "500ms" },
  clients = {
    { name = "A", start = 0,       work = "5s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "20ms", crash = "n1" },
  },
  duration = "30s", seed = 3,
  expect = { mutual_exclusion = "violated" },
}
