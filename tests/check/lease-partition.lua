-- A partition of a Kubernetes Lease holder that must land in a gap (issue 33's base case, one
-- fault): client-go's leader election (LeaseDuration 10 s, RenewDeadline 6.666 s, RetryPeriod
-- 2 s); A leads from the start and works 20 s, B polls from 100 ms. A 4 s partition cutting A
-- off from the API server makes two leaders only where it keeps A's renewals failing past
-- RenewDeadline and B sees the record unchanged for LeaseDuration: starting between about
-- 1.013 s and 2 s (with seed 1's jitters), not at the start nor at 3 s. Pinned,
-- { at = "1500ms", partition = { { "A" }, { "n1", "B" } }, duration = "4s" } shows it.
-- lease-partition-pause.lua adds a GC pause of B to the budget.
return {
  name = "check: a partition of a Kubernetes Lease holder inside a gap",
  about = [[client-go leader election on a Lease (10 s); A leads and works 20 s; one 4 s partition of A within the first 5 s; B polls from 100 ms.]],
  protocol = "k8s-leaderelection", server = "kubernetes", nodes = 1, lease = "10s", wait = "30s",
  network = { delay = "2ms" },
  clients = { { name = "A", work = "20s" }, { name = "B", start = "100ms", work = "8s" } },
  duration = "40s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = { partition = { targets = { "A" }, params = { "4s" } } }, max_faults = 1, horizon = "5s" },
}
