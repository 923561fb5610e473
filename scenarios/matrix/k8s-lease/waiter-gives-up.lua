-- matrix: Kubernetes Lease (client-go leaderelection) under "waiter-gives-up" (locklab matrix; the table is ../table.lua).
return {
  name = "Kubernetes Lease (client-go leaderelection): a waiter gives up",
  about = [[
No fault in the servers or the network: B waits only 2 s and gives up while A holds the lock; C
arrives at 3 s with the usual wait. Whatever B leaves behind must not block C or let it in
early.

B only read the Lease: a candidate that gives up writes nothing.

The design: leader election on a Kubernetes Lease as client-go's tools/leaderelection does
it (lua/clients/k8s-leaderelection.lua, leaderelection.go): LeaseDuration 10 s, RenewDeadline
6.666 s, RetryPeriod 2 s. The API server never expires a Lease; each candidate takes it over
once it has seen the record unchanged for LeaseDuration by its own clock, with an Update
guarded by resourceVersion. The package says of itself: "This implementation does not
guarantee that only one client is acting as a leader (a.k.a. fencing)".]],
  protocol = "k8s-leaderelection",
  server = "kubernetes",
  lease = "10s", wait = "30s",     -- lease: LeaseDuration (RenewDeadline 6.666 s, RetryPeriod 2 s)
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s", wait = "2s" },
    { name = "C", start = "3s", work = "8s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
