-- Only a budget: can one forward clock jump of C break Redlock over A-E?
return {
  name = "check: a clock jump against Redlock",
  about = [[The explorer makes C's clock jump 11 s forward at some instant of the first 2.5 s.]],
  protocol = "redlock", mode = "redlock",
  nodes = { "A", "B", "C", "D", "E" },
  lease = "10s", wait = "30s",
  network = { delay = "2ms" },
  options = { preset = "redis-docs" },
  clients = { { name = "c1", work = "9s" }, { name = "c2", start = "2s", work = "1s" } },
  faults = { { at = 0, partition = { { "c1", "A", "B" }, { "c2", "D", "E" } }, duration = "30s" } },
  duration = "30s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = { clock_jump = { targets = { "C" }, params = { "11s" } } }, max_faults = 1, horizon = "2500ms" },
}
