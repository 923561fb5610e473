-- matrix: etcd concurrency.Mutex under "renewal-lost" (locklab matrix; the table is ../table.lua).
return {
  name = "etcd concurrency.Mutex: the lease's renewals are lost while the holder works",
  about = [[
From 1 s to 41 s every message between A and the server is lost (a drop on A's link alone: B
reaches the servers as usual) while A works on its 45 s job. A sends nothing else while it
works, so what is lost is exactly its keep-alives of its session's lease: its process, its
writes to the resource and, after 41 s, its release are untouched. A's keep-alives are lost;
the lease expires at 10.5 s and etcd deletes A's key; B takes the lock, while A works on: the
Mutex never looks at its session's Done channel (etcd #10811).

The design: etcd's own lock recipe, concurrency.Mutex of the Go client v3.4 over a
concurrency.Session (lua/clients/etcd-mutex.lua; clientv3/concurrency/mutex.go): the
session's lease (10 s, kept alive by the client every third of its TTL) carries the lock key
lock/<lease id>, put by a transaction if it is not there; the key with the lowest
create_revision holds the lock, and a waiter watches the newest key older than its own for its
deletion. When the lease expires, etcd deletes the key.]],
  protocol = "etcd-mutex",
  server = "etcd",
  lease = "10s", wait = "90s",     -- lease: the session's TTL
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "45s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", drop = { "A", "n1" }, probability = 1, duration = "40s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds" },
}
