-- matrix: ZooKeeper (Curator), czxid fenced under "renewal-lost" (locklab matrix; the table is ../table.lua).
return {
  name = "ZooKeeper (Curator), czxid fenced: the lease's renewals are lost while the holder works",
  about = [[
From 1 s to 41 s every message between A and the server is lost (a drop on A's link alone: B
reaches the servers as usual) while A works on its 45 s job. A sends nothing else while it
works, so what is lost is exactly its pings, which keep its session: its process, its writes to
the resource and, after 41 s, its release are untouched. A's pings go unanswered; the server
expires A's session 10 s after the last one it had (at 12 s, on a tick) and deletes A's node;
B's watch fires and B takes the lock, while A works on: InterProcessMutex does not listen to
the connection state (Curator, "Error handling"). B's czxid is higher, so the resource refuses
A's late writes.

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
  lease = "10s", wait = "90s",     -- lease: the session timeout the client asks for
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "45s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", drop = { "A", "n1" }, probability = 1, duration = "40s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
