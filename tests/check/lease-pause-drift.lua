-- lease-pause.lua with a budget of two faults, a 9 s GC pause of A or B's clock running 5 %
-- fast from some instant on (issue 33): the pause in A's gap alone suffices (found in 8 paths
-- with a budget of one); with two, not finished in 60 s today.
return {
  name = "check: a GC pause of a Kubernetes Lease holder inside its gap, and a drift",
  about = [[client-go leader election on a Lease (10 s); A leads and works 5 s; up to two faults within the first 5 s: a 9 s GC pause of A, B's clock 5 % fast; B polls from 100 ms.]],
  protocol = "k8s-leaderelection", server = "kubernetes", nodes = 1, lease = "10s", wait = "30s",
  network = { delay = "2ms" },
  clients = { { name = "A", work = "5s" }, { name = "B", start = "100ms", work = "8s" } },
  duration = "40s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = { gc_pause = { targets = { "A" }, params = { "9s" } }, drift = { targets = { "B" }, params = { 0.05 } } }, max_faults = 2, horizon = "5s" },
}
