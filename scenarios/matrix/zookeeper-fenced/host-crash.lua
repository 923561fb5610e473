-- matrix: ZooKeeper (Curator), czxid fenced under "host-crash" (locklab matrix; the table is ../table.lua).
return {
  name = "ZooKeeper (Curator), czxid fenced: the holder's host crashes",
  about = [[
At 1 s A's host vanishes (power loss, a kernel panic, a killed VM: crash with host = true): no
FIN, no RST. The servers learn of it only when their TCP keepalive gives up on the connection,
about 2 h 11 min with Linux's defaults, far beyond this run. A ZooKeeper session never depended
on the connection: the server expires it 10 s after A's last ping, as after a process crash,
and B takes the lock.

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
    { at = "1s", crash = "A", host = true },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
