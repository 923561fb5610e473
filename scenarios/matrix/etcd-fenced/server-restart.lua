-- matrix: etcd concurrency.Mutex, revision fenced under "server-restart" (locklab matrix; the table is ../table.lua).
return {
  name = "etcd concurrency.Mutex, revision fenced: the leader crashes and restarts empty",
  about = [[
A three-member cluster (leader n1, followers n1r1 and n1r2); etcd answers a write only once
Raft has committed it on a majority of the members (etcd documentation, "API guarantees";
replication.commit = "quorum"). The leader crashes at 1 s with nothing on its disk
(persistence none, as the Redis rows' restart); 1 s later a follower leads, and at 3 s n1
comes back empty and rejoins as a follower, synchronised from the new leader. The leases and
the lock keys were committed on a majority before their clients were told, so the new leader
has them, and it refreshes every lease to its TTL plus the election timeout (lease/lessor.go
Promote): nobody's lease expires for the crash, and the lock passes on only when its holder
deletes its key.

B comes at 4 s, once the clients know the new leader, not 100 ms after A as in the other
columns: the simulated client moves its requests to the new leader but not a watch it had on
the crashed one (scenarios/etcd-leader-failover.lua, "Not shown"), so a waiter that watched
n1 would wait in vain, where clientv3 resumes its watch on another member from the revision
it had reached.

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
  nodes = 1, replicas = 2,          -- a three-member cluster: the leader n1, followers n1r1, n1r2
  replication = { lag = {"50ms", "100ms"}, down_after = "1s", detection = "500ms", commit = "quorum" },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "4s", work = "8s" },
  },
  faults = {
    { at = "1s", crash = "n1" },
    { at = "3s", restart = "n1" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
