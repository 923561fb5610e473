-- Redlock over three masters: B asks 12 ms after A, while A's requests are still on their way
-- (every message 1-2 ms), finds A's key on each master, and gives up after one attempt; A's
-- 100 ms lease runs out while it works 122 ms. No fault. Only the critical sections' ends are
-- compared across clients for mutual_exclusion, so B's attempt, its failed SET NX and its end
-- are ordered only where they meet A's steps at the same master: the search is exhausted in
-- a few paths (with every client step ordered against every other, it did not finish in
-- 60 s), and mutual exclusion holds, since B never retries.
return {
  name = "redlock, a late contender that gives up",
  about = [[Redlock (N=3): B tries once, 12 ms after A; exhausted.]],
  protocol = "redlock", mode = "redlock",
  nodes = 3, lease = "100ms", wait = "1ms",
  network = { delay = { "1ms", "2ms" } },
  clients = { { name = "A", work = "122ms" }, { name = "B", start = "12ms", work = "105ms" } },
  duration = "1s",
  timeout = "97ms",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = {}, max_faults = 0 },
}
