-- etcd-holder-crash: the holder dies; its session lease frees the lock after the TTL.
return {
  name = "etcd's Mutex: the holder crashes, the lease frees the lock",
  about = [[
The comparison of distributed locks asks of every design what happens when the holder dies
without releasing. etcd's answer is the lease: "Leases are a mechanism for detecting client
liveness. The cluster grants leases with a time-to-live. A lease expires if the etcd cluster
does not receive a keepAlive within a given TTL period" (etcd v3.4 documentation, "etcd3 API",
https://etcd.io/docs/v3.4/learning/api/#lease-api). The Mutex's key is attached to the
holder's session lease, so when the lease expires the key goes with it.

A takes the lock at once (its session's lease: 10 s) and crashes at 2 s, inside its critical
section. Its last keep-alive answered at about 0 s (the next was due at 3.3 s). The lease
expires 10 s after that answer; the lessor, looking every 500 ms, revokes it at 10.5 s and
deletes lock/<A's lease>. B, waiting on a watch of A's key since 0.1 s, sees the DELETE and
holds the lock: no deadlock, and no overlap, since A is dead.]],
  protocol = "etcd-mutex",
  server = "etcd",
  nodes = 1,
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,       work = "5s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "2s", crash = "A" },
  },
  duration = "40s", seed = 1,
  expect = { mutual_exclusion = "holds", no_deadlock = "holds" },
}
