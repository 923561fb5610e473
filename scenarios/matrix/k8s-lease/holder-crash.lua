-- matrix: Kubernetes Lease (client-go leaderelection) under "holder-crash" (locklab matrix; the table is ../table.lua).
return {
  name = "Kubernetes Lease (client-go leaderelection): the holder crashes",
  about = [[
A crashes at 1 s inside its critical section and never releases. The lock has to come free by
itself for B, who waits up to 30 s.

A's renewals stop; B, polling every 2-4.4 s, sees the record unchanged for 10 s by its own
clock and takes the Lease over with an Update, about 11 s after A's last renewal.

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
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", crash = "A" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
