-- A GC pause of a Kubernetes Lease holder that must land in a gap (issue 33's base case, one
-- fault): client-go's leader election (LeaseDuration 10 s, RenewDeadline 6.666 s, RetryPeriod
-- 2 s); A leads from the start and works 5 s, B polls from 100 ms. A 9 s pause of A makes two
-- leaders only if it starts in the gap just after one of A's renewals (about 2 s: B then takes
-- the Lease over while A is frozen and A wakes inside its work); elsewhere it does not.
-- Pinned, { at = "2010ms", gc_pause = "A", duration = "9s" } shows it with seed 1's jitters
-- (at 2000 ms or 2050 ms it holds).
-- lease-pause-drift.lua adds a drift of B's clock to the budget.
return {
  name = "check: a GC pause of a Kubernetes Lease holder inside its gap",
  about = [[client-go leader election on a Lease (10 s); A leads and works 5 s; one 9 s GC pause of A within the first 5 s; B polls from 100 ms.]],
  protocol = "k8s-leaderelection", server = "kubernetes", nodes = 1, lease = "10s", wait = "30s",
  network = { delay = "2ms" },
  clients = { { name = "A", work = "5s" }, { name = "B", start = "100ms", work = "8s" } },
  duration = "40s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = { gc_pause = { targets = { "A" }, params = { "9s" } } }, max_faults = 1, horizon = "5s" },
}
