-- matrix: etcd concurrency.Mutex under "partition" (locklab matrix; the table is ../table.lua).
return {
  name = "etcd concurrency.Mutex: the holder is partitioned",
  about = [[
At 1 s a partition cuts A off from etcd for 40 s (B still reaches it) while A works on a 45 s
job. The session's lease is kept alive by the client's keep-alives as a watchdog keeps a
lease alive, so A gets the watchdog rows' long job, not a job shorter than the lease. The
keep-alives cannot arrive: etcd revokes the lease about 10 s after the last one, deletes A's
key, B's watch fires and B takes the lock while A works on: nothing in the Mutex looks at the
session (etcd issue #10811, "A mutex lock in concurrency package might be held by two client
if one of them had network issue with ETCD server").
A's last write, at 45 s, reaches the resource after B's.

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
    { at = "1s", partition = { { "A" }, { "n1", "B" } }, duration = "40s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds" },
}
