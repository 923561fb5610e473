-- zookeeper-basic: Curator's InterProcessMutex among three clients, nothing going wrong.
return {
  name = "ZooKeeper lock (Curator InterProcessMutex): three clients take turns",
  about = [[
Three clients lock the same path with Curator's InterProcessMutex. Each creates an
ephemeral sequential node under /locks/lock, lists the children, and holds the lock when its
node has the lowest sequence number; the others each watch the node just before their own
(getData with a watch) and wait for its NodeDeleted event, so a release wakes exactly one
waiter — no herd. The lock is granted in the order of the sequence numbers. Sources: the
ZooKeeper recipe "Locks" (zookeeper.apache.org/doc/r3.8.0/recipes.html, section "Locks"),
which Curator implements (curator.apache.org, "Shared Reentrant Lock"; LockInternals.java).]],
  server = "zookeeper",
  protocol = "curator-mutex",
  lease = "10s",                    -- the session timeout the clients ask for
  wait = "30s",
  clients = {
    { name = "A", start = 0,       work = "2s", rounds = 2, think = "500ms" },
    { name = "B", start = "10ms",  work = "2s", rounds = 2, think = "500ms" },
    { name = "C", start = "20ms",  work = "2s", rounds = 2, think = "500ms" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", no_deadlock = "holds" },
}
