-- zookeeper-server-restart: the server crashes and restarts; sessions and the lock survive.
return {
  name = "ZooKeeper lock: the server crashes and restarts, the holder keeps its lock",
  about = [[
A holds Curator's InterProcessMutex (10 s session); at 2 s the ZooKeeper server crashes and
comes back 3 s later. ZooKeeper writes every transaction to its log and syncs it before it
answers (zoo.cfg forceSync, "yes" by default: ZooKeeper Administrator's Guide, "Advanced
Configuration"), so the restarted server has the tree and the sessions (persistence =
"always" here). It rebuilds its session tracker from them, each session starting a full
timeout anew (SessionTrackerImpl's constructor), so the clients that reconnect in time keep
their sessions: A's reconnects with its session id, keeps its ephemeral lock node, and B's
client carries its watch on A's node over with SetWatches. When A releases, B's watch fires
and B takes the lock: mutual exclusion holds, and nobody waits on a lock that no one holds.
Compare failover-async-replication, where Redis loses an acknowledged lock.]],
  server = "zookeeper",
  protocol = "curator-mutex",
  persistence = "always", restart_delay = "3s",
  lease = "10s", wait = "30s",
  clients = {
    { name = "A", start = 0,       work = "10s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "2s", crash = "n1" },
  },
  duration = "40s", seed = 1,
  expect = { mutual_exclusion = "holds", no_deadlock = "holds" },
}
