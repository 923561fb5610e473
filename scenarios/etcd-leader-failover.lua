-- etcd-leader-failover: the leader crashes inside the replication lag; Raft's quorum keeps the lock safe.
return {
  name = "etcd lock: the leader crashes, a follower takes over, nobody is told a lost write",
  about = [[
Three etcd members (n1 the leader, two followers); A holds etcd's concurrency.Mutex. The
leader crashes at 1 s; a follower is elected 2 s later and refreshes every lease (lessor
Promote: TTL plus the election timeout), so A's lease and its lock key survive, and B, who
comes at 4 s, waits for A's key and gets the lock when A releases it: mutual exclusion holds.
etcd answers a write only once Raft has committed it on a majority of the members (etcd
documentation, "API guarantees"; here replication.commit = "quorum"): a crash inside the
replication lag cannot take back what a client was told, where Redis's asynchronous
replication can (tests: test_world_quorum_commit_survives_a_failover).

Not shown: a waiter whose watch stream sat on the crashed leader. The simulated client moves
its requests to the new leader but not its watch, so such a waiter would wait in vain; a real
clientv3 re-establishes its watches on the new connection (if it notices the old one broke,
which without gRPC keep-alives it may not: etcd issue #8980).]],
  server = "etcd",
  protocol = "etcd-mutex",
  nodes = 1, replicas = 2,
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  replication = { lag = {"50ms", "100ms"}, down_after = "2s", detection = "500ms", commit = "quorum" },
  clients = {
    { name = "A", start = 0,       work = "10s" },
    { name = "B", start = "4s",    work = "1s" },
  },
  faults = {
    { at = "1s", crash = "n1" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", no_deadlock = "holds" },
}
