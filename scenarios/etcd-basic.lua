-- etcd-basic: etcd's concurrency.Mutex among three clients, nothing going wrong.
return {
  name = "etcd's Mutex: three clients take turns",
  about = [[
etcd's lock recipe is concurrency.Mutex of its Go client (clientv3/concurrency/mutex.go,
v3.4): each client puts a key lock/<its lease ID> under its session's lease, in a transaction
that also reads the oldest key of the prefix ("WithFirstCreate"). The client whose key has the
smallest create_revision holds the lock; every other one watches the deletion of the key just
older than its own ("waitDeletes", clientv3/concurrency/key.go) — a queue in revision order,
with no polling and no thundering herd. The order is etcd's revision: "a global logical
clock, sequentially ordering all updates to the store" (etcd v3.4 documentation, "etcd3 API",
https://etcd.io/docs/v3.4/learning/api/#revisions; watches: #watch-api).

A, B and C ask at 0, 100 and 200 ms; A's transaction creates lock/<A's lease> first, B and C
find A's key older than theirs and wait, B on A's key, C on B's. A releases after 1 s (its
Unlock deletes its key), B's watch reports the DELETE and B holds the lock; then C. Every
client's session keeps its 10 s lease alive meanwhile (a keep-alive every TTL/3).]],
  protocol = "etcd-mutex",
  server = "etcd",
  nodes = 1,
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,       work = "1s" },
    { name = "B", start = "100ms", work = "1s" },
    { name = "C", start = "200ms", work = "1s" },
  },
  duration = "30s", seed = 1,
  expect = { mutual_exclusion = "holds", no_deadlock = "holds" },
}
