-- matrix: Kubernetes Lease (client-go leaderelection) under "leader-cut" (locklab matrix; the table is ../table.lua).
return {
  name = "Kubernetes Lease (client-go leaderelection): the leader is cut off in a minority with the waiter",
  about = [[
The servers are a three-member etcd cluster behind the API server: the leader n1 and two
followers. At 1 s a partition puts the leader n1 and the waiter B on one side, the two
followers and the holder A on the other, for 40 s; the majority elects n1r1. A works on the
majority's side and stops at 5.1 s. B's API server sits with the old etcd leader, which can
commit nothing: B's reads of the Lease time out, the last record it saw is A's, and it gives up
at 33 s with "lease held by A". No split brain, but the minority is unavailable for as long as
the cut lasts, which the checker's bound (twice the LeaseDuration) counts as a deadlock.

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
  nodes = 1, replicas = 2,          -- a three-member cluster: the leader n1, followers n1r1, n1r2
  replication = { lag = {"50ms", "100ms"}, down_after = "1s", detection = "500ms", commit = "quorum" },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", partition = { { "n1", "B" }, { "n1r1", "n1r2", "A" } }, duration = "40s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "violated" },
}
