-- make bench: Redlock over N=3 masters, two clients, a budget of one crash of any master
-- (restarting after 11 s, past the TTL; persistence "none"), network delay a 1-2 ms window.
-- tools/bench-check.sh derives its variants from this file (constant 2 ms delays; restarts
-- after 200 ms with fsync always, or without fsync; two crashes) and runs each beside SPIN
-- on the same problem in Promela (tests/bench/redlock.pml).
return {
  name = "bench: Redlock N=3",
  about = [[Redlock N=3; c1 and c2 each see a minority of the masters directly and share the
rest; the explorer crashes any master at any instant of the first 2.5 s.]],
  protocol = "redlock", mode = "redlock",
  nodes = { "A", "B", "C" },
  persistence = "none",
  lease = "10s", wait = "30s",
  network = { delay = { "1ms", "2ms" } },
  options = { preset = "redis-docs" },
  clients = { { name = "c1", work = "9s" }, { name = "c2", start = "2s", work = "1s" } },
  faults = { { at = 0, partition = { { "c1", "A" }, { "c2", "C" } }, duration = "30s" } },
  duration = "30s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = { crash = { targets = { "A", "B", "C" }, params = { "11s" } } }, max_faults = 1, horizon = "2500ms" },
}
