-- matrix: Kubernetes Lease (client-go leaderelection) under "partition" (locklab matrix; the table is ../table.lua).
return {
  name = "Kubernetes Lease (client-go leaderelection): the holder is partitioned",
  about = [[
At 1 s a partition cuts A off from the API server for 40 s (B still reaches it). A renews its
lease as a watchdog does, so it is given a watchdog's job: 45 s of work.

A's renewals fail; after RenewDeadline (6.666 s) its renew loop gives up and calls
OnStoppedLeading, but the work does not watch the context and goes on. B takes the Lease over
once it has seen it unchanged for 10 s, and works while A still does: the renewal path failed,
the holder kept working. (client-go's examples exit the process in OnStoppedLeading; an
application that does not is this cell.)

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
    { name = "A", start = 0, work = "45s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", partition = { { "A" }, { "n1", "B" } }, duration = "40s" },
  },
  duration = "90s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds" },
}
