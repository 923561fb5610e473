-- matrix: Kubernetes Lease (client-go leaderelection) under "server-restart" (locklab matrix; the table is ../table.lua).
return {
  name = "Kubernetes Lease (client-go leaderelection): the leader crashes and restarts empty",
  about = [[
The API server's store is a three-member etcd cluster (the leader n1, followers n1r1, n1r2;
writes commit on a majority). n1 crashes at 1 s and restarts at 3 s, empty, rejoining as a
follower; B starts at 4 s.

The Lease was committed on a majority, so the promoted member has it with its
resourceVersion; A's renewals go on against it, and B waits until A's lease runs out.

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
    { name = "B", start = "4s", work = "8s" },
  },
  faults = {
    { at = "1s", crash = "n1" },
    { at = "3s", restart = "n1" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
