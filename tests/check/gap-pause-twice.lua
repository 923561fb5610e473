-- gap-pause.lua with a budget of two pauses (issue 33): the one pause in A's gap suffices, as
-- with a budget of one (found in 3 paths); with two, the search walks placements of the
-- second pause whose results do not differ (not finished in 60 s today).
return {
  name = "check: two GC pauses, one inside its target's gap",
  about = [[A holds a 500 ms lease from 2 ms and works 400 ms; up to two 200 ms GC pauses of A within the first second; B tries once at 550 ms.]],
  protocol = "distlock", nodes = 1, lease = "500ms", wait = "1ms",
  network = { delay = "1ms" },
  clients = { { name = "A", work = "400ms" }, { name = "B", start = "550ms", work = "100ms" } },
  duration = "2s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = { gc_pause = { targets = { "A" }, params = { "200ms" } } }, max_faults = 2, horizon = "1s" },
}
