-- A delay strictly inside its window: B's SET breaks mutual exclusion only when it lands
-- between A's expiry and A's exit. At the window's early end it fails (A's key is there); at
-- its late end it succeeds harmlessly (A has left). Searching the two ends alone says "holds".
return {
  name = "check: a delay strictly inside its window",
  about = [[A's 100 ms lease runs out while it works 150 ms; B tries once over a 1-300 ms link.]],
  protocol = "distlock", nodes = 1, lease = "100ms", wait = "30s", network = { delay = "1ms" },
  links = { { from = "B", to = "n1", delay = { "1ms", "300ms" } } },
  clients = { { name = "A", work = "150ms" }, { name = "B", start = "10ms", wait = "1ms", work = "100ms" } },
  duration = "2s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
