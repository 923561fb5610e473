-- matrix: Kubernetes Lease (client-go leaderelection) under "late-release" (locklab matrix; the table is ../table.lua).
return {
  name = "Kubernetes Lease (client-go leaderelection): the holder's last renewal is delayed past the lease",
  about = [[
client-go sends no release unless ReleaseOnCancel is set (it is not by default): the request of
A's that a delay can carry past its lease is a renewal. From 3.9 s a cut between A and the API
server holds A's messages for 8.1 s; over TCP (network.partitions = "tcp") the renewal A sends
at 4 s, an Update of the Lease at resourceVersion 4, is retransmitted with Linux's backoff and
lands at 16.6 s. A stops at 5 s and sends nothing more. B takes the Lease over at 14.4 s, a
LeaseDuration after the last change it saw; A's late Update names a resourceVersion that is no
longer current, and the API server refuses it with 409 Conflict (optimistic concurrency: "the
object has been modified"). Without that check, the late renewal would have written A back as
the holder while B leads.

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
    { at = "3900ms", partition = { { "A" }, { "n1", "B" } }, duration = "8100ms" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
