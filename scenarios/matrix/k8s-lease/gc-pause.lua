-- matrix: Kubernetes Lease (client-go leaderelection) under "gc-pause" (locklab matrix; the table is ../table.lua).
return {
  name = "Kubernetes Lease (client-go leaderelection): the holder's GC pause outlives the lease",
  about = [[
At 4 s, 1 s before its work is done, inside its critical section, A stops for a GC pause of 12
s (longer than the 10 s lease), then finishes, writes to the resource and releases (Martin
Kleppmann, "How to do distributed locking", 2016).

A's renew loop is paused with it. B sees the record unchanged for 10 s and takes the Lease
over at about 14 s; A wakes at 16 s and writes on, its OnStoppedLeading not yet called: two
leaders, and the resource cannot tell.

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
    { at = "4s", gc_pause = "A", duration = "12s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds" },
}
