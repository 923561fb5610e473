-- gap-pause.lua with a budget of two faults, a GC pause of A or a crash of n1 restarting after
-- 100 ms (issue 33): the pause in A's gap alone suffices (found in 3 paths with a budget of
-- one); with two, not finished in 60 s today.
return {
  name = "check: a GC pause inside its target's gap, and a crash",
  about = [[A holds a 500 ms lease from 2 ms and works 400 ms; up to two faults: a 200 ms GC pause of A, a crash of n1 restarting after 100 ms within the first second; B tries once at 550 ms.]],
  protocol = "distlock", nodes = 1, lease = "500ms", wait = "1ms",
  network = { delay = "1ms" },
  clients = { { name = "A", work = "400ms" }, { name = "B", start = "550ms", work = "100ms" } },
  duration = "2s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = { gc_pause = { targets = { "A" }, params = { "200ms" } }, crash = { targets = { "n1" }, params = { "100ms" } } }, max_faults = 2, horizon = "1s" },
}
