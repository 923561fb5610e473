-- matrix: etcd concurrency.Mutex, revision fenced under "clock-jump" (locklab matrix; the table is ../table.lua).
return {
  name = "etcd concurrency.Mutex, revision fenced: the server's clock jumps forward",
  about = [[
At 1 s the server's wall clock jumps forward by 15 s, past the 10 s lease (an NTP step, an
administrator). etcd's lessor measures leases with Go's time.Now(), whose monotonic reading
a wall-clock step does not move (lease/lessor.go; Go's time package, "Monotonic Clocks"), so
no lease expires and A keeps its lock, where Redis, which expires keys by its wall clock,
frees it.

The design: etcd's own lock recipe, concurrency.Mutex of the Go client v3.4 over a
concurrency.Session (lua/clients/etcd-mutex.lua; clientv3/concurrency/mutex.go): the
session's lease (10 s, kept alive by the client every third of its TTL) carries the lock key
lock/<lease id>, put by a transaction if it is not there; the key with the lowest
create_revision holds the lock, and a waiter watches the newest key older than its own for its
deletion. When the lease expires, etcd deletes the key.
Fencing: each holder sends its key's create_revision, and the resource rejects a token lower
than one it has accepted: "The revision serves as a global logical clock" (etcd v3.4
documentation, "etcd3 API", "Revisions"; Kleppmann 2016).]],
  protocol = "etcd-mutex",
  server = "etcd",
  fencing = true,
  lease = "10s", wait = "30s",     -- lease: the session's TTL
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", clock_jump = "n1", by = "15s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
