-- matrix: etcd concurrency.Mutex, revision fenced under "late-release" (locklab matrix; the table is ../table.lua).
return {
  name = "etcd concurrency.Mutex, revision fenced: the holder's release is delayed past the lease",
  about = [[
From 4.9 s, 100 ms before A's work ends, a cut between A and the server holds A's messages for
7.1 s. Over TCP (network.partitions = "tcp") A's release, sent at 5 s, is retransmitted with
Linux's backoff (200 ms doubling) and lands at 17.6 s, 12.6 s after it was sent, past the 10 s
lease; A's client gave up waiting long before. A's keep-alives are held with it: the lease
expires at 14 s and etcd deletes A's key, and B takes the lock; A's late delete names its own
key, lock/<A's lease>, and deletes nothing of B's.

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
  network = { delay = {"1ms", "5ms"}, partitions = "tcp" },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "4900ms", partition = { { "A" }, { "n1", "B" } }, duration = "7100ms" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
