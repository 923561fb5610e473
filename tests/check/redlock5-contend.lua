-- Redlock over five masters, both clients asking at once (every message 1-2 ms): which SET
-- reaches each master first is decided by the two clients' windows together, along chains of
-- ten windows each (a client's requests go one master after the other). An order the last
-- request of a chain can reach alone is reached at the earlier windows' present values
-- (model/reduce.c: the slack below a window that moves a step µs for µs), so each order is
-- searched about once, not once per window up the chain: exhausted, mutual exclusion holds.
return {
  name = "redlock, two clients at once over five masters",
  about = [[Redlock (N=5): A and B ask at once over 1-2 ms links; exhausted.]],
  protocol = "redlock", mode = "redlock",
  nodes = 5, lease = "10s", wait = "30s",
  network = { delay = { "1ms", "2ms" } },
  options = { preset = "redis-docs" },
  clients = { { name = "A", work = "9s" }, { name = "B", work = "1s" } },
  duration = "10s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = {}, max_faults = 0 },
}
