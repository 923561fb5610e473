-- A GC pause that must land inside a gap of its target (issue 33's base case, one fault): A
-- takes the lock at 2 ms under a 500 ms lease and works 400 ms, no event of A in between; B
-- tries once at 550 ms. A 200 ms pause of A breaks mutual exclusion only if it starts after
-- about 351 ms (it then holds A's exit past 550 ms, the lease gone and B in): the instants that
-- violate lie in A's gap between 2 ms and 402 ms. Pinned, { at = "353ms", gc_pause = "A",
-- duration = "200ms" } shows it. The gap-pause-*.lua problems add a second or third fault to
-- the budget: the one pause still suffices.
return {
  name = "check: a GC pause inside its target's gap",
  about = [[A holds a 500 ms lease from 2 ms and works 400 ms; one 200 ms GC pause of A within the first second; B tries once at 550 ms.]],
  protocol = "distlock", nodes = 1, lease = "500ms", wait = "1ms",
  network = { delay = "1ms" },
  clients = { { name = "A", work = "400ms" }, { name = "B", start = "550ms", work = "100ms" } },
  duration = "2s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = { gc_pause = { targets = { "A" }, params = { "200ms" } } }, max_faults = 1, horizon = "1s" },
}
