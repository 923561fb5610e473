-- k8s-lease-renewal-fails: client-go's leader election stops leading, the work does not.
return {
  name = "Kubernetes Lease: the renewals fail while the leader keeps working",
  about = [[
Leader election on a Kubernetes Lease as client-go's tools/leaderelection does it
(lua/clients/k8s-leaderelection.lua): LeaseDuration 10 s, RenewDeadline 6.666 s, RetryPeriod
2 s. A becomes leader and starts a 45 s job; at 1 s a partition cuts it off from the API
server for 40 s. Its renew loop keeps trying and, RenewDeadline after its last success, gives
up and calls OnStoppedLeading. B, polling, has seen the Lease unchanged for LeaseDuration by
its own clock and takes it over with an Update on the current resourceVersion.

The job itself never looked at the context that OnStoppedLeading cancels, so A works on
beside B: "This implementation does not guarantee that only one client is acting as a leader
(a.k.a. fencing)" (leaderelection.go). client-go's own example exits the process in
OnStoppedLeading; a controller that only logs it is this run.]],
  protocol = "k8s-leaderelection",
  server = "kubernetes",
  nodes = 1,
  lease = "10s", wait = "60s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,       work = "45s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", partition = { { "A" }, { "n1", "B" } }, duration = "40s" },
  },
  duration = "90s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", no_deadlock = "holds" },
}
