-- matrix: ZooKeeper (Curator), czxid fenced under "late-release" (locklab matrix; the table is ../table.lua).
return {
  name = "ZooKeeper (Curator), czxid fenced: the holder's release is delayed past the lease",
  about = [[
From 4.9 s, 100 ms before A's work ends, a cut between A and the server holds A's messages for
7.1 s. Over TCP (network.partitions = "tcp") A's release, sent at 5 s, is retransmitted with
Linux's backoff (200 ms doubling) and lands at 17.6 s, 12.6 s after it was sent, past the 10 s
lease; A's client gave up waiting long before. A's pings are held with it: the server expires
A's session at 14 s and deletes A's node, and B takes the lock; A's late delete names its own
node, gone already, and deletes nothing of B's.

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
  network = { delay = {"1ms", "5ms"}, partitions = "tcp" },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "4900ms", partition = { { "A" }, { "n1", "B" } }, duration = "7100ms" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
