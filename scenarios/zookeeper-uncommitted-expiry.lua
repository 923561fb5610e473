-- zookeeper-uncommitted-expiry: nobody sees a session expiry that a majority does not have.
return {
  name = "ZooKeeper: the leader expires a session and crashes before a majority has it",
  about = [[
A three-server ensemble (replication.commit = "quorum"). A holds Curator's InterProcessMutex and
has a 12 s GC pause from 4 s; the leader n1 expires A's session at 14 s (a closeSession, which
deletes A's ephemeral lock node) and crashes 20 ms later, before either follower has the
closeSession (the replication lag is 50-100 ms). ZooKeeper applies a transaction to its data
tree, fires its watches and answers reads only once a quorum has logged it (ZooKeeper
Internals, "Guarantees, Properties, and Definitions"; the leader's CommitProcessor): B's watch
on A's node never fires, the follower elected at 15 s still has A's session and node (a new
leader restarts every session's timeout), A wakes at 16 s still holding the lock, and B takes
it only after A's release. Mutual exclusion holds. (Before issue #24 the simulated leader
showed the uncommitted deletion: B acted on it at 14.009 s, and two clients held the lock.)]],
  server = "zookeeper",
  protocol = "curator-mutex",
  lease = "10s", wait = "60s",
  network = { delay = {"1ms", "5ms"} },
  nodes = 1, replicas = 2,
  replication = { lag = {"50ms", "100ms"}, down_after = "1s", detection = "500ms", commit = "quorum" },
  clients = {
    { name = "A", start = 0, work = "20s" },
    { name = "B", start = "1s", work = "8s" },
  },
  faults = {
    { at = "4s", gc_pause = "A", duration = "12s" },
    { at = "14020ms", crash = "n1" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds" },
}
