-- Redlock over three masters, both clients asking at once (every message 1-2 ms): which SET
-- reaches each master first is decided by the two clients' windows together. No fault; A
-- keeps the lock 9 s of its 10 s lease, B gives up after its attempts. Searched by orders,
-- two windows whose steps meet at a master would walk up their diagonal a µs at a time (each
-- value of one enables the next of the other); with the later window following the earlier's
-- cone where it is anchored to it, or staying where it is anchored elsewhere (model/reduce.c),
-- the search is exhausted: mutual exclusion holds.
return {
  name = "redlock, two clients at once over every master",
  about = [[Redlock (N=3): A and B ask at once over 1-2 ms links; exhausted.]],
  protocol = "redlock", mode = "redlock",
  nodes = 3, lease = "10s", wait = "30s",
  network = { delay = { "1ms", "2ms" } },
  options = { preset = "redis-docs" },
  clients = { { name = "A", work = "9s" }, { name = "B", work = "1s" } },
  duration = "10s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = {}, max_faults = 0 },
}
