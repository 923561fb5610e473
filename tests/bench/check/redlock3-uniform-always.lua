-- make bench: Redlock over N=3 masters, two clients, a budget of 1 crash(es) of any node
-- (restarting after 200ms, persistence "always"), network delay { "1ms", "2ms" }.
-- The same problem is modelled in Promela (tests/bench/redlock.pml) and run by SPIN beside it.
return {
  name = "bench: redlock3-uniform-always",
  about = [[Redlock N=3; c1 and c2 each see a minority of the masters directly and share the
rest; the explorer crashes any master at any instant of the first 2.5 s.]],
  protocol = "redlock", mode = "redlock",
  nodes = { "A", "B", "C" },
  persistence = "always",
  lease = "10s", wait = "30s",
  network = { delay = { "1ms", "2ms" } },
  options = { preset = "redlock-rb" },
  clients = { { name = "c1", work = "9s" }, { name = "c2", start = "2s", work = "1s" } },
  faults = { { at = 0, partition = { { "c1", "A" }, { "c2", "C" } }, duration = "30s" } },
  duration = "30s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = { crash = { targets = { "A", "B", "C" }, params = { "200ms" } } }, max_faults = 1, horizon = "2500ms" },
}
