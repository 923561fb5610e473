-- matrix: ZooKeeper (Curator), czxid fenced under "failover" (locklab matrix; the table is ../table.lua).
return {
  name = "ZooKeeper (Curator), czxid fenced: the leader crashes inside the replication lag",
  about = [[
A three-server ensemble (leader n1, followers n1r1 and n1r2) whose followers are 50-100 ms
behind. The leader crashes at 300 ms, after A's lock node reached it (its session was
committed earlier) and before a follower had the node; a follower leads 1 s later. Unlike
Redis's asynchronous replication, a ZooKeeper write is acknowledged only once a majority has
logged it (ZooKeeper Internals, "Guarantees, Properties, and Definitions"; here
replication.commit = "quorum"): A was told nothing the crash could take away. Its request
times out, its client reconnects to the new leader with the same session (which the new
leader has) and creates its node again, behind B's: B, starting at 2 s, holds the lock
first, and A gets it when B releases.

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
    { name = "B", start = "2s", work = "8s" },
  },
  faults = {
    { at = "300ms", crash = "n1" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
