-- etcd-waiter-gives-up: a waiter in the middle of the queue gives up; the queue mends itself.
return {
  name = "etcd's Mutex: a waiter gives up, the next one waits on the holder instead",
  about = [[
etcd's Mutex queues waiters by the create_revision of their keys, each watching the key just
before its own (clientv3/concurrency/key.go, waitDeletes, v3.4). A waiter that gives up — its
context ends — deletes its own key on the way out (mutex.go Lock: "release lock key if wait
failed", m.Unlock). The waiter behind it sees that DELETE, asks again for the newest key older
than its own (WithLastCreate, WithMaxCreateRev), finds the holder's, and watches that one: the
queue mends itself, and the watch guarantees that no deletion is missed (a watch from a
revision replays the history from there: etcd v3.4 documentation, "etcd3 API",
https://etcd.io/docs/v3.4/learning/api/#watch-api).

A holds the lock for 5 s. B asks at 0.1 s but waits at most 2 s; C asks at 0.2 s and waits
behind B. At 2.1 s B's wait runs out: its Lock ends with "context deadline exceeded" and
deletes lock/<B's lease>. C's watch reports it; C finds A's key older than its own and
watches it; at 5 s A releases and C holds the lock.]],
  protocol = "etcd-mutex",
  server = "etcd",
  nodes = 1,
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,       work = "5s" },
    { name = "B", start = "100ms", work = "1s", wait = "2s" },
    { name = "C", start = "200ms", work = "1s" },
  },
  duration = "30s", seed = 1,
  expect = { mutual_exclusion = "holds", no_deadlock = "holds" },
}
