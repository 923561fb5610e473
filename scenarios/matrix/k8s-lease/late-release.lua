-- matrix: Kubernetes Lease (client-go leaderelection) under "late-release" (locklab matrix; the table is ../table.lua).
return {
  name = "Kubernetes Lease (client-go leaderelection): the holder's release is delayed past the lease",
  about = [[
From 4.9 s, 100 ms before A's work ends, a cut between A and the server holds A's messages for
7.1 s. Over TCP (network.partitions = "tcp") A's release, sent at 5 s, is retransmitted with
Linux's backoff (200 ms doubling) and lands at 17.6 s, 12.6 s after it was sent, past the 10 s
lease; A's client gave up waiting long before. client-go sends nothing to release a Lease
unless ReleaseOnCancel is set: A just stops renewing. B takes the Lease over at 16.8 s, a
LeaseDuration after the last change it saw; nothing of A's lands late.

The design: leader election on a Kubernetes Lease as client-go's tools/leaderelection does
it (lua/clients/k8s-leaderelection.lua, leaderelection.go): LeaseDuration 10 s, RenewDeadline
6.666 s, RetryPeriod 2 s. The API server never expires a Lease; each candidate takes it over
once it has seen the record unchanged for LeaseDuration by its own clock, with an Update
guarded by resourceVersion. The package says of itself: "This implementation does not
guarantee that only one client is acting as a leader (a.k.a. fencing)".]],
  protocol = "k8s-leaderelection",
  server = "kubernetes",
  lease = "10s", wait = "30s",     -- lease: LeaseDuration (RenewDeadline 6.666 s, RetryPeriod 2 s)
  network = { delay = {"1ms", "5ms"}, partitions = "tcp" },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "4900ms", partition = { { "A" }, { "n1", "B" } }, duration = "7100ms" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
