-- zookeeper-leader-failover: the leader crashes; a follower takes over with the sessions.
return {
  name = "ZooKeeper lock: the leader crashes, a follower takes over with every session",
  about = [[
One ZooKeeper leader (n1) with two followers; A takes Curator's InterProcessMutex (10 s
session), B waits. The leader crashes early; a follower becomes the leader 2 s later. The
sessions are in the replicated database, and a new leader starts every session's timeout
afresh (ZooKeeper 3.8's source: the new leader's SessionTrackerImpl is built from the
database's sessions and their timeouts, and its constructor tracks each one, a full timeout
from now), so A's and B's clients, which reconnect with their
session ids, find their sessions alive; A still holds its ephemeral lock node, whose creation
was replicated. B's client carries its watch over (SetWatches) and B gets the lock once A
releases it: mutual exclusion holds through the crash of the leader. The zxids of the new
leader start a new epoch, so a later lock node's czxid is still larger.

A write is acknowledged only once a quorum has logged it (ZooKeeper Internals, "Guarantees,
Properties, and Definitions"; here replication.commit = "quorum": the leader holds each reply
until a majority of the three servers has the write). The leader crashes at 40 ms, inside the
50-100 ms replication lag: A's session was never acknowledged, so A was never told anything
it could lose, and mutual exclusion holds. With commit = "async" (Redis's replication) the
same crash gives the lock to two clients.]],
  server = "zookeeper",
  protocol = "curator-mutex",
  nodes = 1, replicas = 2,
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  replication = { lag = {"50ms", "100ms"}, down_after = "2s", detection = "500ms", commit = "quorum" },
  clients = {
    { name = "A", start = 0,       work = "10s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "40ms", crash = "n1" },
  },
  duration = "40s", seed = 1,
  expect = { mutual_exclusion = "holds", no_deadlock = "holds" },
}
