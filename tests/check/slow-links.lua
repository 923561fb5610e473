-- Redlock over three masters with 1-100 ms links (one of 1-300 ms) and the 50 ms request
-- timeout: when most messages are slow, every attempt times out on a majority and nobody
-- holds the lock for longer than the deadlock bound (twice the lease) while B keeps trying.
-- Almost any random schedule shows it; the systematic search needs a dozen delays off their
-- first values, which iterative deepening reaches only after a very long time. So check finds
-- it among the random schedules it runs after the first level (--probes), and with --probes 0
-- does not within a few thousand paths (tests/cli/test_check.sh).
return {
  name = "check: Redlock over slow links",
  about = [[Redlock, 1-100 ms links: no_deadlock fails when most messages are slow.]],
  protocol = "redlock", mode = "redlock",
  nodes = 3, lease = "200ms", wait = "1ms",
  network = { delay = { "1ms", "100ms" } },
  links = { { from = "B", to = "n1", delay = { "1ms", "300ms" } } },
  clients = { { name = "A", work = "228ms" }, { name = "B", start = "98ms", work = "138ms" } },
  duration = "1s",
  expect = { mutual_exclusion = "holds", no_deadlock = "holds" },
  explore = { faults = {}, max_faults = 0 },
}
