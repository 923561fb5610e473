-- make bench: Redlock over N=5 masters, two clients, a budget of 2 crash(es) of any node
-- (restarting after 11s, persistence "none"), network delay "2ms".
-- The same problem is modelled in Promela (tests/bench/redlock.pml) and run by SPIN beside it.
return {
  name = "bench: redlock5-constant-2crashes",
  about = [[Redlock N=5; c1 and c2 each see a minority of the masters directly and share the
rest; the explorer crashes any master at any instant of the first 2.5 s.]],
  protocol = "redlock", mode = "redlock",
  nodes = { "A", "B", "C", "D", "E" },
  persistence = "none",
  lease = "10s", wait = "30s",
  network = { delay = "2ms" },
  options = { preset = "redlock-rb" },
  clients = { { name = "c1", work = "9s" }, { name = "c2", start = "2s", work = "1s" } },
  faults = { { at = 0, partition = { { "c1", "A", "B" }, { "c2", "D", "E" } }, duration = "30s" } },
  duration = "30s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = { crash = { targets = { "A", "B", "C", "D", "E" }, params = { "11s" } } }, max_faults = 2, horizon = "2500ms" },
}
