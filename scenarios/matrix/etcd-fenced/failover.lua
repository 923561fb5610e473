-- matrix: etcd concurrency.Mutex, revision fenced under "failover" (locklab matrix; the table is ../table.lua).
return {
  name = "etcd concurrency.Mutex, revision fenced: the leader crashes inside the replication lag",
  about = [[
A three-member cluster (leader n1, followers n1r1 and n1r2) whose followers are 50-100 ms
behind. The leader crashes at 100ms, after A's lock transaction reached it and before a
follower had it; a follower leads 1 s later. Unlike Redis's asynchronous replication, etcd
answers a write only once Raft has committed it on a majority (etcd documentation, "API
guarantees"; here replication.commit = "quorum"): A's transaction gets no answer, and its
Lock fails after the 3 s timeout (clientv3 would retry it on another member; the simulated
client, which knows one endpoint, does not). A was told nothing the crash could take away.
B starts at 2 s and takes the lock from the new leader, which never had A's key.

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
    { name = "B", start = "2s", work = "8s" },
  },
  faults = {
    { at = "100ms", crash = "n1" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
