-- matrix: ZooKeeper (Curator InterProcessMutex) under "leader-cut" (locklab matrix; the table is ../table.lua).
return {
  name = "ZooKeeper (Curator InterProcessMutex): the leader is cut off in a minority with the waiter",
  about = [[
The servers are a three-member ensemble: the leader n1 and two followers. At 2 s (B asks at 1
s, once A holds the lock) a partition puts the leader n1 and the waiter B on one side, the two
followers and the holder A on the other, for 40 s; the majority elects n1r1. A's client moves
to the new leader and deletes its node there at 6.6 s. B's side has no quorum: the old leader
can commit nothing and, once the majority has elected another, stops leading (it loses its
followers and goes back to looking: it expires no session and answers ConnectionLoss), B's session cannot be kept on the majority, and B waits without the lock,
free since 6.6 s, until it gives up with ConnectionLoss after the cut. No split brain, but the
minority is unavailable for as long as the cut lasts, which the checker's bound (twice the
session) counts as a deadlock.

The design: Apache Curator's InterProcessMutex over ZooKeeper 3.8 (lua/clients/curator-mutex.lua):
an ephemeral sequential node under the lock path, the lowest number holds the lock, a waiter
watches the node just before its own (ZooKeeper's recipe "Locks", zookeeper.apache.org/doc/
r3.8.0/recipes.html; curator.apache.org, "Shared Reentrant Lock"). The session (10 s, kept
alive by the client's pings every third of it) is the lock's lease: its ephemeral node goes
when the server expires it.]],
  server = "zookeeper",
  protocol = "curator-mutex",
  lease = "10s", wait = "30s",     -- lease: the session timeout the client asks for
  network = { delay = {"1ms", "5ms"} },
  nodes = 1, replicas = 2,          -- a three-server ensemble: the leader n1, followers n1r1, n1r2
  replication = { lag = {"50ms", "100ms"}, down_after = "1s", detection = "500ms", commit = "quorum" },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "1s", work = "8s" },
  },
  faults = {
    { at = "2s", partition = { { "n1", "B" }, { "n1r1", "n1r2", "A" } }, duration = "40s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "violated" },
}
