-- matrix: etcd concurrency.Mutex under "client-clock" (locklab matrix; the table is ../table.lua).
return {
  name = "etcd concurrency.Mutex: the holder's clock jumps forward",
  about = [[
At 1 s A's clock jumps forward by 15 s, past the 10 s lease, while A works (an NTP step, an
administrator). The lease's TTL is counted by the etcd leader; the client's keep-alive loop
runs on Go's monotonic clock readings: nothing changes.

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
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", clock_jump = "A", by = "15s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
