-- matrix: Kubernetes Lease (client-go leaderelection) under "reenter" (locklab matrix; the table is ../table.lua).
return {
  name = "Kubernetes Lease (client-go leaderelection): the holder takes the lock again",
  about = [[
No fault. A takes the lock and, holding it, takes it again, as a method that holds the lock
calls another that takes it and releases it when it returns (../reenter-model.lua: the inner
acquire may wait 1 s); A then works on under its first hold, and B waits its turn.

The inner elector has A's identity: it reads the Lease, finds itself the holder, and renews
it. Nothing counts the holds, but nothing is released either (ReleaseOnCancel is off by
default), so A keeps the lease and B waits for it to run out after A's release.

The design: leader election on a Kubernetes Lease as client-go's tools/leaderelection does
it (lua/clients/k8s-leaderelection.lua, leaderelection.go): LeaseDuration 10 s, RenewDeadline
6.666 s, RetryPeriod 2 s. The API server never expires a Lease; each candidate takes it over
once it has seen the record unchanged for LeaseDuration by its own clock, with an Update
guarded by resourceVersion. The package says of itself: "This implementation does not
guarantee that only one client is acting as a leader (a.k.a. fencing)".]],
  protocol = "../reenter-model-kubernetes.lua",
  server = "kubernetes",
  lease = "10s", wait = "30s",     -- lease: LeaseDuration (RenewDeadline 6.666 s, RetryPeriod 2 s)
  network = { delay = {"1ms", "5ms"} },
  options = { design = "k8s-leaderelection" },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds", reentrancy = "holds" },
}
