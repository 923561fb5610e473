-- Redlock over three masters, both clients asking at once (every message 1-2 ms), and one
-- crash of any master within the first 2.5 s, restarting past the lease (no fsync: empty).
-- The bench's row 9c (tools/bench-check.sh). A client's retry sleeps whole ms of its clock,
-- so its next SET moves a ms at a time with the reading that set the sleep: where the
-- windows below the root on that reading's chain can carry it to its next ms alone, the
-- root need not walk there a µs at a time (model/reduce.c, order_crossing_later): every path
-- with at most 2 deviations is searched in about 3,400 paths, where it took more than
-- 300,000 when each such reading made the root's next value one µs away.
return {
  name = "redlock, two clients at once, one crash",
  about = [[Redlock (N=3): c1 and c2 ask at once over 1-2 ms links; any master may crash once.]],
  protocol = "redlock", mode = "redlock",
  nodes = { "A", "B", "C" },
  persistence = "none",
  lease = "10s", wait = "30s",
  network = { delay = { "1ms", "2ms" } },
  options = { preset = "redis-docs" },
  clients = { { name = "c1", work = "9s" }, { name = "c2", work = "1s" } },
  duration = "30s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = { crash = { targets = { "A", "B", "C" }, params = { "11s" } } }, max_faults = 1, horizon = "2500ms" },
}
