-- redlock-drift-beyond-factor: node clocks run 3 % fast; the drift allowance is 1 % of the TTL.
return {
  name = "Redlock: node clocks 3 % fast, beyond the 1 % drift allowance",
  about = [[
The contrast to redlock-drift-within-factor (Redis documentation, "Is the algorithm
asynchronous?"): the safety argument holds only while the clocks' rate error stays
within the drift allowance the client subtracts (redlock-rb: 1 % of the TTL + 2 ms). Kleppmann
("How to do distributed locking", 2016) points out that nothing enforces this bound.

All five masters' clocks run 3 % fast, so a key set with PX 10000 expires after only about
9709 ms of true time, while client 1 believes its lock valid for about 9870 ms and works for
9840 ms. At 5 s client 1 is cut off from every node, so the keys must expire on their own.
Client 2 polls from 9.5 s (50 ms after each failed attempt) and takes a majority at about
9.72 s, while client 1 is still inside its critical section (until about 9.87 s): mutual
exclusion is violated.]],
  protocol = "redlock",
  mode = "redlock",
  nodes = { "A", "B", "C", "D", "E" },
  clock = { drift = 0.03 },
  lease = "10s", wait = "30s",
  network = { delay = { "1ms", "5ms" } },
  options = { preset = "redis-docs", retry_count = 20, retry_delay = 50 },
  clients = {
    { name = "c1", start = 0,      work = "9840ms" },
    { name = "c2", start = "9.5s", work = "1s" },
  },
  faults = {
    { at = "5s", partition = { { "c1" }, { "A", "B", "C", "D", "E", "c2" } }, duration = "25s" },
  },
  duration = "30s", seed = 1,
  expect = { mutual_exclusion = "violated" },
}
