-- matrix: etcd concurrency.Mutex, revision fenced under "reenter" (locklab matrix; the table is ../table.lua).
return {
  name = "etcd concurrency.Mutex, revision fenced: the holder takes the lock again",
  about = [[
No fault. A takes the lock and, holding it, takes it again, as a method that holds the lock
calls another that takes it and releases it when it returns (../reenter-model.lua: the inner
acquire may wait 1 s; same_object: both methods use the one Mutex of the one session, as a Go
program keeps it); A then works on under its first hold, and B waits its turn. The second
Lock finds its own key already there (the transaction's Else branch) and the key is the
oldest, so it succeeds at once; but the Mutex counts nothing, and the inner Unlock deletes the
key: B takes the lock while A still works, and A's own Unlock at 5 s finds no key. etcd's documentation does not call the Mutex
re-entrant. The checker sees it as the servers saw it: the model says its lock is the keys
under lock/ (ctx:lock_unit), and A's own delete of its key while it holds the lock twice
violates reentrancy.

The design: etcd's own lock recipe, concurrency.Mutex of the Go client v3.4 over a
concurrency.Session (lua/clients/etcd-mutex.lua; clientv3/concurrency/mutex.go): the
session's lease (10 s, kept alive by the client every third of its TTL) carries the lock key
lock/<lease id>, put by a transaction if it is not there; the key with the lowest
create_revision holds the lock, and a waiter watches the newest key older than its own for its
deletion. When the lease expires, etcd deletes the key.
Fencing: each holder sends its key's create_revision, and the resource rejects a token lower
than one it has accepted: "The revision serves as a global logical clock" (etcd v3.4
documentation, "etcd3 API", "Revisions"; Kleppmann 2016).]],
  protocol = "../reenter-model-etcd.lua",
  server = "etcd",
  fencing = true,
  lease = "10s", wait = "30s",     -- lease: the session's TTL
  network = { delay = {"1ms", "5ms"} },
  options = { design = "etcd-mutex", same_object = true },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds", reentrancy = "violated" },
}
