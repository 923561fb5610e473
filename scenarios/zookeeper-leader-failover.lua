-- zookeeper-leader-failover: the leader crashes; a follower takes over with the sessions.
return {
  name = "ZooKeeper lock: the leader crashes, a follower takes over with every session",
  about = [[
One ZooKeeper leader (n1) with two followers; A holds Curator's InterProcessMutex (10 s
session), B waits. At 3 s the leader crashes; a follower becomes the leader 2 s later. The
sessions are in the replicated database, and a new leader starts every session's timeout
afresh (ZooKeeper 3.8's source: the new leader's SessionTrackerImpl is built from the
database's sessions and their timeouts, and its constructor tracks each one, a full timeout
from now), so A's and B's clients, which reconnect with their
session ids, find their sessions alive; A still holds its ephemeral lock node, whose creation
was replicated. B's client carries its watch over (SetWatches) and B gets the lock once A
releases it: mutual exclusion holds through the crash of the leader. The zxids of the new
leader start a new epoch, so a later lock node's czxid is still larger.

What this scenario does not show: locklab's replication is still asynchronous (as for
Redis), while ZooKeeper acknowledges a write only once a quorum has logged it (ZooKeeper
Internals, "Guarantees, Properties, and Definitions"). Here the crash comes long after the
writes reached the followers, where both agree; a crash within the replication lag would
lose an acknowledged lock node here and not in ZooKeeper.]],
  server = "zookeeper",
  protocol = "curator-mutex",
  nodes = 1, replicas = 2,
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  replication = { lag = {"1ms", "5ms"}, down_after = "2s", detection = "500ms" },
  clients = {
    { name = "A", start = 0,       work = "10s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "3s", crash = "n1" },
  },
  duration = "40s", seed = 1,
  expect = { mutual_exclusion = "holds", no_deadlock = "holds" },
}
