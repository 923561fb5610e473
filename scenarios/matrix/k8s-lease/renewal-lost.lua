-- matrix: Kubernetes Lease (client-go leaderelection) under "renewal-lost" (locklab matrix; the table is ../table.lua).
return {
  name = "Kubernetes Lease (client-go leaderelection): the lease's renewals are lost while the holder works",
  about = [[
From 1 s to 41 s every message between A and the server is lost (a drop on A's link alone: B
reaches the servers as usual) while A works on its 45 s job. A sends nothing else while it
works, so what is lost is exactly its renewals of the Lease (every RetryPeriod): its process,
its writes to the resource and, after 41 s, its release are untouched. A's renewals of the
Lease are lost; B, which has seen the record unchanged for a LeaseDuration, takes the Lease
over at 11.8 s. A's elector gives up leading after RenewDeadline, but work that does not watch
its context goes on until 45 s.

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
    { at = "1s", drop = { "A", "n1" }, probability = 1, duration = "40s" },
  },
  duration = "90s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds" },
}
