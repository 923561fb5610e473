-- crash-gap.lua with a budget of two faults, a crash of n1 restarting after 300 ms or a 300 ms
-- GC pause of B (issue 33): the crash in the gap alone suffices (found in 5 paths with a
-- budget of one); with two, not finished in 60 s today. Pinned, { at = "2ms", crash = "n1" },
-- { at = "302ms", restart = "n1" } shows it.
return {
  name = "check: a crash whose restart must fall in a gap, and a GC pause",
  about = [[A holds the lock 2 s; up to two faults within the first second: n1 crashes and restarts empty after 300 ms, or B pauses 300 ms; B tries once at 500 ms.]],
  protocol = "distlock", nodes = 1, persistence = "none", lease = "10s", wait = "30s",
  network = { delay = "1ms" },
  clients = { { name = "A", work = "2s" }, { name = "B", start = "500ms", wait = "1ms", work = "100ms" } },
  duration = "3s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = { crash = { targets = { "n1" }, params = { "300ms" } }, gc_pause = { targets = { "B" }, params = { "300ms" } } }, max_faults = 2, horizon = "1s" },
}
