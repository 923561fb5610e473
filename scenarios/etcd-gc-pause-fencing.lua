-- etcd-gc-pause-fencing: Kleppmann's GC pause against etcd's Mutex, with revision fencing.
return {
  name = "etcd's Mutex: a GC pause outlives the session, the revision fences the late write",
  about = [[
Martin Kleppmann, "How to do distributed locking" (2016), on lease-based locks: a client that
pauses longer than its lease comes back believing it holds the lock. etcd's Mutex is no
exception: its session lease (here 10 s) is kept alive by a goroutine of the same process
(clientv3/lease.go), and a stop-the-world pause stops it too. Nothing in the Mutex watches the
session (clientv3/concurrency/mutex.go, v3.4), so the holder is never told.

etcd gives the remedy Kleppmann asks for, a number that only grows: "etcd maintains a 64-bit
cluster-wide counter, the store revision, that is incremented each time the key space is
modified. The revision serves as a global logical clock" (etcd v3.4 documentation, "etcd3 API",
https://etcd.io/docs/v3.4/learning/api/#revisions). The lock key's create_revision is the
fencing token: a later holder's key was created later, so its revision is larger.

A holds the lock with create_revision 2 and freezes at 1 s for 12 s. Its last keep-alive
renewed the lease at about 0 s; the lease runs out at 10 s and the lessor, which looks every
500 ms (lease/lessor.go runLoop), revokes it at 10.5 s, deleting lock/<A's lease>. B's watch
reports the DELETE; B holds the lock with create_revision 3 and writes. A wakes at 13 s and
writes with 2 at 15 s: the resource, which has seen 3, refuses it. Both were inside their
critical sections at once: mutual exclusion is violated, the resource is safe.]],
  protocol = "etcd-mutex",
  server = "etcd",
  fencing = true,
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
  expect = { mutual_exclusion = "violated", resource_safety = "holds" },
}
