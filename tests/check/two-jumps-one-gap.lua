-- Two faults in one gap of their target: n1's clock jumps forward 300 ms twice between A's
-- SET (1 ms) and B's (24 ms), nothing of n1 happening in between; together they run out A's
-- 500 ms lease and B takes the lock while A works. One jump is not enough. The search lands
-- faults at the instants of their target's events, and may land several at one instant (two
-- jumps just before B's SET are the same as two anywhere in that gap); with only one fault an
-- instant it said "holds" (a generated problem of tests/soundness.c showed it).
return {
  name = "check: two clock jumps in one gap of their node",
  about = [[distlock, 500 ms lease; n1's clock may jump +300 ms twice before B's try at 23 ms.]],
  protocol = "distlock", nodes = 1, lease = "500ms", wait = "1ms",
  network = { delay = "1ms" },
  clients = { { name = "A", work = "573ms" }, { name = "B", start = "23ms", work = "390ms" } },
  duration = "1s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = { clock_jump = { targets = { "n1" }, params = { "300ms" } } }, max_faults = 2, horizon = "67ms" },
}
