-- matrix: etcd concurrency.Mutex under "gc-pause" (locklab matrix; the table is ../table.lua).
return {
  name = "etcd concurrency.Mutex: the holder's GC pause outlives the lease",
  about = [[
At 4 s, 1 s before its work is done, inside its critical section, A stops for a GC pause of 12
s, longer than its 10 s lease: its keep-alives stop (they are a goroutine of the paused
process), the lease expires, etcd deletes A's key, and B's watch fires: B takes the lock. A
wakes believing it still holds it — nothing in the v3.4 Mutex watches the session — writes to
the resource and releases (Kleppmann 2016).

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
    { at = "4s", gc_pause = "A", duration = "12s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds" },
}
