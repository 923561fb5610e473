-- failover-redisson-one-of-two: Redisson 3.17.5+ is content with one replica's acknowledgement.
return {
  name = "one replica of two acknowledged, and a failover loses the lock (Redisson 3.43)",
  about = [[
What Redisson's replica sync (3.14.1+) still risks. It sends the lock script with WAIT
<replicas> 1000, and since 3.17.5 fails only when NO replica acknowledged: "res.getSyncedSlaves()
== 0 && availableSlaves > 0" → "None of slaves were synced" (RedissonBaseLock.java@3.17.5:223-227;
CommandAsyncService.syncedEval, CommandAsyncService.java@HEAD:1222-1226; handleNoSync from 3.20).
3.16.7 to 3.17.4 required all of them ("Only k of n slaves were synced", RedissonBaseLock.java
@3.16.7:234, @3.17.0:229-233). And the Redis docs on WAIT: "it is possible to still lose a write synchronously
replicated to multiple replicas" (wait.md); Sentinel picks the replica with the largest offset
among those it can reach (sentinel.md), not one that acknowledged.

n1 has two replicas; n1r2 is cut off from n1 (a partition between the two only). A's lock
script runs on n1; WAIT 2 1000 answers 1 after its second: n1r1 acknowledged, so A holds the
lock. At 3 s n1 and n1r1 crash together (one rack); n1r2, which never got the lock, is promoted.
B comes at 5 s: on n1r2 its WAIT answers 0 (n1r2 has no replica left), B unlocks, re-reads
connected_slaves (0) with INFO, tries again 1.5 s later without WAIT (ServiceManager.execute,
ServiceManager.java@3.43.0:531-556) and takes the lock while A works: mutual exclusion is
violated. Under 3.17.0 A's tryLock would have thrown ("Only 1 of 2 slaves were synced") and
nobody would have entered: locklab compare failover-redisson-one-of-two --scripts
redisson@3.17.0 --scripts redisson@3.43.0]],
  protocol = "redisson",
  scripts = "redisson@3.43.0",
  nodes = 1, replicas = 2,
  lease = "30s", wait = "60s",
  network = { delay = {"1ms", "5ms"} },
  replication = { lag = {"50ms", "100ms"}, down_after = "1s", detection = "500ms" },
  clients = {
    { name = "A", start = 0,    work = "20s" },
    { name = "B", start = "5s", work = "1s" },
  },
  faults = {
    { at = 0, partition = { { "n1" }, { "n1r2" } }, duration = "60s" },
    { at = "3s", crash = "n1" },
    { at = "3s", crash = "n1r1" },
  },
  duration = "90s", seed = 1,
  expect = { mutual_exclusion = "violated" },
}
