-- zookeeper-gc-pause-fencing: a GC pause longer than the session, with czxid fencing.
return {
  name = "ZooKeeper lock: a GC pause outlives the session; the czxid fences the late write",
  about = [[
A holds Curator's InterProcessMutex with a 6 s session (its heartbeat pings every third of
it) and freezes for 15 s inside its critical section. Its pings stop, so ZooKeeper expires the
session at the first tick boundary past 6 s of silence (SessionTrackerImpl's ExpiryQueue) and
deletes A's ephemeral lock node; B's watch on it fires (NodeDeleted) and B takes the lock. A
wakes up still "holding" it: InterProcessMutex does not watch the connection state, and
Curator's documentation leaves that to the application (curator.apache.org, "Error handling":
"it is strongly recommended that you add a ConnectionStateListener and watch for SUSPENDED and
LOST state changes"). No lock service can stop a paused client: mutual exclusion is violated.
The resource is safe because each holder sends the czxid of its lock node, the zxid of the
node's creation, which grows with every write to ZooKeeper (ZooKeeper Programmer's Guide,
"ZooKeeper Stat Structure" and "Time in ZooKeeper": zxids are totally ordered): B's node was
created after A's, so A's late write carries the smaller token and is refused (Kleppmann,
"How to do distributed locking", 2016).]],
  server = "zookeeper",
  protocol = "curator-mutex",
  fencing = true,
  lease = "6s",                     -- the session timeout asked for (negotiated as is: 4-40 s)
  wait = "30s",
  clients = {
    { name = "A", start = 0,       work = "20s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "1s", gc_pause = "A", duration = "15s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "holds" },
}
