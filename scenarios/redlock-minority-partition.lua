-- redlock-minority-partition: two of five masters unreachable; Redlock carries on.
return {
  name = "Redlock: two of five masters cut off",
  about = [[
The fault tolerance Redlock is designed for ("Distributed Locks with Redis": "Liveness
property B: Fault tolerance. As long as the majority of Redis nodes are up, clients are able
to acquire and release locks"). Five masters A-E; for the whole run D and E are partitioned
away from every client. Each attempt still reaches A, B and C, a majority of 3: the SETs to D
and E time out after the 50 ms per-node timeout, which only shortens the validity by about
100 ms. Three clients take turns for three rounds each (retrying up to 50 times, 0-200 ms
apart, so that none gives up while another works). Mutual exclusion holds, and the lock never
stays stuck while nobody holds it (no_deadlock holds).]],
  protocol = "redlock",
  mode = "redlock",
  nodes = { "A", "B", "C", "D", "E" },
  lease = "10s", wait = "30s",
  network = { delay = { "1ms", "5ms" } },
  options = { preset = "redis-docs", retry_count = 50 },
  clients = {
    { name = "c1", start = 0,      work = "1s", rounds = 3 },
    { name = "c2", start = "10ms", work = "1s", rounds = 3 },
    { name = "c3", start = "20ms", work = "1s", rounds = 3 },
  },
  faults = {
    { at = 0, partition = { { "D", "E" }, { "A", "B", "C", "c1", "c2", "c3" } }, duration = "60s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", no_deadlock = "holds" },
}
