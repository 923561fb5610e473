-- lease-partition.lua with a budget of two faults, a 4 s partition of A or a 1 s GC pause of B
-- (issue 33): the partition in its gap alone suffices. The pause of B, moved back over its
-- gap, was walked a µs at a time (a timer set from a reading of a step that itself moves in
-- whole ms was taken to move with that step's own place in its ms: model/reduce.c, ms_steps):
-- not finished in 147,000 paths; found in about 1,000 now, as with a budget of one.
return {
  name = "check: a partition of a Kubernetes Lease holder inside a gap, and a GC pause",
  about = [[client-go leader election on a Lease (10 s); A leads and works 20 s; up to two faults within the first 5 s: a 4 s partition of A, a 1 s GC pause of B; B polls from 100 ms.]],
  protocol = "k8s-leaderelection", server = "kubernetes", nodes = 1, lease = "10s", wait = "30s",
  network = { delay = "2ms" },
  clients = { { name = "A", work = "20s" }, { name = "B", start = "100ms", work = "8s" } },
  duration = "40s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = { partition = { targets = { "A" }, params = { "4s" } }, gc_pause = { targets = { "B" }, params = { "1s" } } }, max_faults = 2, horizon = "5s" },
}
