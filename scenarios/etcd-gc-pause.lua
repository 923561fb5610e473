-- etcd-gc-pause: Kleppmann's GC pause against etcd's Mutex, without fencing.
return {
  name = "etcd's Mutex: a GC pause outlives the session (no fencing)",
  about = [[
Martin Kleppmann, "How to do distributed locking" (2016): a client that pauses longer than its
lease comes back believing it holds the lock, and no lock service can stop it. etcd's Mutex
(clientv3/concurrency/mutex.go, v3.4) holds its key under a session lease that a goroutine of
the same process keeps alive (clientv3/lease.go: a keep-alive every TTL/3); a stop-the-world
pause stops that goroutine too, and nothing in the Mutex watches the session afterwards.

A holds the lock and freezes at 1 s for 12 s. Its lease (10 s) runs out at 10 s; the lessor,
which looks every 500 ms (lease/lessor.go runLoop), revokes it at 10.5 s and deletes A's key.
B's watch reports the DELETE and B takes the lock and writes. A wakes at 13 s and, still
inside what it believes is its critical section, writes at 15 s: the resource accepts it,
since nothing tells it that A's lock is gone. Mutual exclusion and the resource's safety are
both violated. The same run with fencing = true (etcd-gc-pause-fencing) keeps the resource
safe with the lock key's revision as the token.]],
  protocol = "etcd-mutex",
  server = "etcd",
  nodes = 1,
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,       work = "15s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "1s", gc_pause = "A", duration = "12s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated" },
}
