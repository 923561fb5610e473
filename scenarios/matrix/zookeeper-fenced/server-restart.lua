-- matrix: ZooKeeper (Curator), czxid fenced under "server-restart" (locklab matrix; the table is ../table.lua).
return {
  name = "ZooKeeper (Curator), czxid fenced: the leader crashes and restarts empty",
  about = [[
A three-server ensemble (leader n1, followers n1r1 and n1r2); a write is acknowledged once a
majority has logged it (ZooKeeper Internals, "Guarantees, Properties, and Definitions";
replication.commit = "quorum"). The leader crashes at 1 s with nothing on its disk
(persistence none, as the Redis rows' restart); 1 s later a follower leads (the most up to
date one: ZooKeeper's leader election prefers the highest zxid), and at 3 s n1 comes back
empty and rejoins as a follower, synchronised from the new leader. The sessions and the lock
nodes were committed on a majority before their clients were told, so the new leader has
them, and starts each session's timeout afresh (SessionTrackerImpl's constructor); the clients
reconnect with their session ids, the waiter's watch is carried over (SetWatches), and the
lock passes on only when its holder releases it. (With the quorum's replies ~100 ms slower, B,
100 ms behind, takes the lock first here.)

The design: Apache Curator's InterProcessMutex over ZooKeeper 3.8 (lua/clients/curator-mutex.lua):
an ephemeral sequential node under the lock path, the lowest number holds the lock, a waiter
watches the node just before its own (ZooKeeper's recipe "Locks", zookeeper.apache.org/doc/
r3.8.0/recipes.html; curator.apache.org, "Shared Reentrant Lock"). The session (10 s, kept
alive by the client's pings every third of it) is the lock's lease: its ephemeral node goes
when the server expires it.
Fencing: each holder sends the czxid of its lock node (the zxid of the node's creation, which
grows with every write: ZooKeeper Programmer's Guide, "ZooKeeper Stat Structure"), and the
resource rejects a token lower than one it has accepted (Kleppmann 2016).]],
  server = "zookeeper",
  protocol = "curator-mutex",
  fencing = true,
  lease = "10s", wait = "30s",     -- lease: the session timeout the client asks for
  network = { delay = {"1ms", "5ms"} },
  nodes = 1, replicas = 2,          -- a three-server ensemble: the leader n1, followers n1r1, n1r2
  replication = { lag = {"50ms", "100ms"}, down_after = "1s", detection = "500ms", commit = "quorum" },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", crash = "n1" },
    { at = "3s", restart = "n1" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
