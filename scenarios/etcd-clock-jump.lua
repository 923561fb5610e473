-- etcd-clock-jump: the server's wall clock jumps; etcd's leases do not notice.
return {
  name = "etcd lock: the server's clock jumps 30 s ahead, and no lease expires",
  about = [[
A holds etcd's concurrency.Mutex (a session lease of 10 s, kept alive every TTL/3); B waits.
At 2 s the server's wall clock is stepped 30 s ahead. etcd's lessor measures leases with Go's
monotonic clock (lease/lessor.go: time.Now() carries a monotonic reading, and expiry compares
with it), so no lease expires and A keeps the lock: mutual exclusion holds. Redis expires keys
by the wall clock (Kleppmann 2016): the same jump on a Redis master frees a lock at once.]],
  server = "etcd",
  protocol = "etcd-mutex",
  lease = "10s", wait = "30s",
  clients = {
    { name = "A", start = 0,       work = "5s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "2s", clock_jump = "n1", by = "30s" },
  },
  duration = "40s", seed = 1,
  expect = { mutual_exclusion = "holds", no_deadlock = "holds" },
}
