-- matrix: etcd concurrency.Mutex, revision fenced under "host-crash" (locklab matrix; the table is ../table.lua).
return {
  name = "etcd concurrency.Mutex, revision fenced: the holder's host crashes",
  about = [[
At 1 s A's host vanishes (power loss, a kernel panic, a killed VM: crash with host = true): no
FIN, no RST. The servers learn of it only when their TCP keepalive gives up on the connection,
about 2 h 11 min with Linux's defaults, far beyond this run. The lease never depended on the
connection: it expires 10 s after A's last keep-alive, as after a process crash, and B takes
the lock.

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
    { at = "1s", crash = "A", host = true },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
