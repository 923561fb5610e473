-- etcd-uncommitted-expiry: nobody sees a lease revocation that a majority does not have.
return {
  name = "etcd: the leader revokes a lease and crashes before a majority has it",
  about = [[
A three-member cluster (replication.commit = "quorum"). A holds concurrency.Mutex and has a 12
s GC pause from 4 s; the leader n1 revokes A's lease at 14 s (deleting A's lock key) and
crashes 20 ms later, before either follower has the revocation (the replication lag is 50-100
ms). Raft applies an entry, and etcd answers reads and sends watch events, only once a
majority has it: "A read will never return data that has not been made durable" (etcd's "API
guarantees"). B's watch never sees the deletion; the member elected at 15 s still has A's
lease (and refreshes it: lessor.Promote) and key, A's keep-alive at 16 s finds its lease
alive, and B takes the lock only after A's Unlock. Mutual exclusion holds. (Before issue #24
the simulated leader showed the uncommitted deletion, and two clients held the lock.)]],
  server = "etcd",
  protocol = "etcd-mutex",
  lease = "10s", wait = "60s",
  network = { delay = {"1ms", "5ms"} },
  nodes = 1, replicas = 2,
  replication = { lag = {"50ms", "100ms"}, down_after = "1s", detection = "500ms", commit = "quorum" },
  clients = {
    { name = "A", start = 0, work = "20s" },
    { name = "B", start = "1s", work = "8s" },
  },
  faults = {
    { at = "4s", gc_pause = "A", duration = "12s" },
    { at = "14020ms", crash = "n1" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds" },
}
