-- etcd-partitioned-holder: the holder loses etcd, keeps working.
return {
  name = "etcd's Mutex: the holder is cut off from etcd and keeps working",
  about = [[
Redisson issue #3636 asked it of Redis ("Worker1 loses connection to Redis instance, while
access to everything else still works and it continues operation"); etcd's Mutex answers the
same way. Its session's keep-alives (clientv3/lease.go) go unanswered; the client keeps
sending one every 500 ms until the lease's deadline passes, then stops for good — but the
Mutex does not look at its session (clientv3/concurrency/mutex.go, v3.4), so A's code never
learns. On the server side the lease simply runs out: "A lease expires if the etcd cluster does
not receive a keepAlive within a given TTL period" (etcd v3.4 documentation, "etcd3 API",
https://etcd.io/docs/v3.4/learning/api/#lease-api).

A takes the lock (lease 10 s) and works for 30 s. At 2 s a partition cuts A off from n1 (B
still reaches it) for 20 s. A's lease expires about 10 s after its last answered keep-alive
(at 0 s), at 10.5 s the lessor revokes it and B's watch sees A's key deleted: B holds the lock
while A, which never heard, is still in its critical section. Mutual exclusion is violated;
when the partition heals, A's release deletes a key that is no longer there.]],
  protocol = "etcd-mutex",
  server = "etcd",
  nodes = 1,
  lease = "10s", wait = "40s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,       work = "30s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "2s", partition = { { "A" }, { "n1", "B" } }, duration = "20s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "violated", no_deadlock = "holds" },
}
