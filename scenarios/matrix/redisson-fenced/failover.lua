-- matrix: Redisson fenced (watchdog) under "failover" (locklab matrix; the table is ../table.lua).
return {
  name = "Redisson fenced (watchdog): failover with asynchronous replication",
  about = [[
n1 has a replica fed asynchronously (lag 50-100 ms). n1 crashes at 20 ms, after A's lock
reached it and before it reached the replica; the replica is promoted 1 s later without the
lock ("Distributed Locks with Redis", "Why Failover-based Implementations Are Not Enough"). B
starts at 2 s, once the clients have learned of the new master.

Redisson sends the lock script with WAIT 1 1000 when the master has a replica (3.12.5+), waits
for the WAIT's answer before answering (3.14.1+, #3253), fails when no replica acknowledged
(3.17.5+) and then unlocks and retries (3.20+; RedissonBaseLock, syncedEval and handleNoSync):
A is not told it holds a lock the replica lacks, and the failover takes nothing from it.
scenarios/failover-redisson-wait.lua shows 3.14.0 losing it.

The design: Redisson's RedissonFencedLock (3.19.0+, #4684) taken without a lease (the
watchdog); its token goes with every write, and the resource rejects a token lower than one it
has accepted (lua/clients/redisson-fenced.lua; fencing tokens: Kleppmann 2016).]],
  protocol = "redisson-fenced",
  nodes = 1,
  fencing = true,
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
