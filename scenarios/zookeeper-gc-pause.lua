-- zookeeper-gc-pause: a GC pause longer than the session, without fencing.
return {
  name = "ZooKeeper lock: a GC pause outlives the session; nothing stops the late write",
  about = [[
A holds Curator's InterProcessMutex with a 6 s session (its heartbeat pings every third of
it) and freezes for 15 s inside its critical section. Its pings stop, so ZooKeeper expires the
session at the first tick boundary past 6 s of silence (SessionTrackerImpl's ExpiryQueue) and
deletes A's ephemeral lock node; B's watch on it fires (NodeDeleted) and B takes the lock. A
wakes up still "holding" it: InterProcessMutex does not watch the connection state, and
Curator's documentation leaves that to the application (curator.apache.org, "Error handling":
"it is strongly recommended that you add a ConnectionStateListener and watch for SUSPENDED and
LOST state changes"). No lock service can stop a paused client: mutual exclusion is violated.
Nothing here fences the resource, so A's late write is accepted too: resource safety is
violated. zookeeper-gc-pause-fencing sends the czxid of the holder's lock node, the zxid of the
node's creation, which grows with every write to ZooKeeper (ZooKeeper Programmer's Guide,
"ZooKeeper Stat Structure" and "Time in ZooKeeper": zxids are totally ordered), as a fencing
token, and the resource refuses A's late write (Kleppmann, "How to do distributed locking",
2016).]],
  server = "zookeeper",
  protocol = "curator-mutex",
  fencing = false,
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
  expect = { mutual_exclusion = "violated", resource_safety = "violated" },
}
