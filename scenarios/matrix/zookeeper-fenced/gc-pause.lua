-- matrix: ZooKeeper (Curator), czxid fenced under "gc-pause" (locklab matrix; the table is ../table.lua).
return {
  name = "ZooKeeper (Curator), czxid fenced: the holder's GC pause outlives the session",
  about = [[
At 4 s, 1 s before its work is done, inside its critical section, A stops for a GC pause of 12
s, longer than its 10 s session: its pings stop (they are a thread of the paused process), the
server expires the session and deletes A's node, B's watch fires and B takes the lock. A wakes
believing it still holds it — InterProcessMutex does not listen to the connection's state, and
Curator leaves that to the application (curator.apache.org, "Error handling": watch for
SUSPENDED and LOST) — writes to the resource and releases (Kleppmann 2016).

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
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "4s", gc_pause = "A", duration = "12s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
