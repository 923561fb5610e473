-- failover-redisson-wait: the Redis docs' failover example, with Redisson 3.43's WAIT.
return {
  name = "failover with Redisson's replica sync (WAIT, 3.14.1+)",
  about = [[
The failover of failover-async-replication ("Distributed Locks with Redis", "Why Failover-based
Implementations Are Not Enough": the master crashes before the lock reaches the replica), run
with Redisson 3.43 against a master with one replica. Since 3.12.5 Redisson sends its lock,
unlock and renewal scripts as a batch with WAIT <replicas> 1000 (RedissonLock.java@3.12.5:342-
379, #2669), since 3.14.1 it answers the caller only once the WAIT has answered (#3253,
RedissonLock.java@3.14.1:346-364; CommandAsyncService.syncedEval@3.43.0), since 3.17.5 it fails
with "None of slaves were synced" when no replica acknowledged (checkLockSyncedSlaves, default
true; RedissonBaseLock.java@3.17.5:223-227), and since 3.20 it unlocks first (handleNoSync,
RedissonBaseLock.java@3.43.0:397-398).

A's lock script runs on n1 at 1 ms; n1 crashes at 20 ms, before the change reached n1r1 (lag
50-100 ms). A's WAIT is never answered: A does not take the lock, where the plain SET NX client
of failover-async-replication was told OK and entered. The batch is resent after 3 s + 1.5 s
(RedisExecutor.java@3.43.0:445-461), by then to the promoted n1r1, whose own replica (n1) is
down: WAIT answers 0, A unlocks again and retries 1.5 s later (ServiceManager.execute@3.43.0:
531-556), after re-reading connected_slaves (0) with INFO, without WAIT. A and B then take the
lock in turn. Mutual exclusion holds: an acknowledged WAIT closes the docs' crash window. It
does not make Redis consistent (wait.md: "it is possible to still lose a write synchronously
replicated"): failover-redisson-one-of-two. Before 3.14.1 the crash costs the lock as in the
docs: 3.12.5-3.14.0 send the WAIT too, but the caller's future is the script's own, completed
when the script's reply is read (RedissonLock.evalWriteAsync@3.14.0:345-352 returns it without
waiting for the batch; CommandDecoder.completeResponse), so A enters before the WAIT could
answer: locklab compare failover-redisson-wait --scripts redisson@3.14.0 --scripts
redisson@3.14.1 (3.14.1 does not resend a batch with WAIT, so both clients give up after the
crash instead of retrying on the promoted replica as 3.15.1+ does).]],
  protocol = "redisson",
  scripts = "redisson@3.43.0",
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
  expect = { mutual_exclusion = "holds", no_deadlock = "holds" },
}
