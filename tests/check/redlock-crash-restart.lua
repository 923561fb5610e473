-- Only a budget: can one crash of C (restarting 200 ms later, empty) break Redlock over A-E?
return {
  name = "check: a crash-restart without fsync against Redlock",
  about = [[The nodes A-E and the partition of redlock-crash-restart-nofsync; the explorer
crashes C (restarting after 200 ms) at some instant of the first 2.5 s.]],
  protocol = "redlock", mode = "redlock",
  nodes = { "A", "B", "C", "D", "E" },
  persistence = "none",
  lease = "10s", wait = "30s",
  network = { delay = "2ms" },
  options = { preset = "redis-docs" },
  clients = { { name = "c1", work = "9s" }, { name = "c2", start = "2s", work = "1s" } },
  faults = { { at = 0, partition = { { "c1", "A", "B" }, { "c2", "D", "E" } }, duration = "30s" } },
  duration = "30s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = { crash = { targets = { "C" }, params = { "200ms" } } }, max_faults = 1, horizon = "2500ms" },
}
