-- matrix: etcd concurrency.Mutex under "leader-cut" (locklab matrix; the table is ../table.lua).
return {
  name = "etcd concurrency.Mutex: the leader is cut off in a minority with the waiter",
  about = [[
The servers are a three-member cluster: the leader n1 and two followers. At 1 s a partition
puts the leader n1 and the waiter B on one side, the two followers and the holder A on the
other, for 40 s; the majority elects n1r1. A's client moves to the new leader and deletes its
key there at 5.2 s. B's side has no quorum: the old leader can commit nothing and, once the
majority has elected another, steps down (it revokes no lease of its own), B's keep-alives
cannot reach the majority, and B waits without the lock, free since 5.2 s, until its wait runs
out. No split brain (etcd's "Failure modes": the minority side is unavailable), but for as long
as the cut lasts, which the checker's bound (twice the lease) counts as a deadlock.

The design: etcd's own lock recipe, concurrency.Mutex of the Go client v3.4 over a
concurrency.Session (lua/clients/etcd-mutex.lua; clientv3/concurrency/mutex.go): the
session's lease (10 s, kept alive by the client every third of its TTL) carries the lock key
lock/<lease id>, put by a transaction if it is not there; the key with the lowest
create_revision holds the lock, and a waiter watches the newest key older than its own for its
deletion. When the lease expires, etcd deletes the key.]],
  protocol = "etcd-mutex",
  server = "etcd",
  lease = "10s", wait = "30s",     -- lease: the session's TTL
  network = { delay = {"1ms", "5ms"} },
  nodes = 1, replicas = 2,          -- a three-member cluster: the leader n1, followers n1r1, n1r2
  replication = { lag = {"50ms", "100ms"}, down_after = "1s", detection = "500ms", commit = "quorum" },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", partition = { { "n1", "B" }, { "n1r1", "n1r2", "A" } }, duration = "40s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "violated" },
}
