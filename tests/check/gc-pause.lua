-- Only a budget: can one GC pause of A (12 s, longer than the 10 s lease) break mutual exclusion?
return {
  name = "check: a GC pause against the single-instance lock",
  about = [[The explorer places one 12 s GC pause of A anywhere in the first 6 s.]],
  protocol = "distlock", nodes = 1, lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  clients = { { name = "A", work = "5s" }, { name = "B", start = "100ms", work = "1s" } },
  duration = "40s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = { gc_pause = { targets = { "A" }, params = { "12s" } } }, max_faults = 1, horizon = "6s" },
}
