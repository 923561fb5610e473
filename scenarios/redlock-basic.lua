-- redlock-basic: Redlock over five independent masters, with nothing going wrong.
return {
  name = "three clients share a Redlock over five masters",
  about = [[
The Redlock algorithm of the Redis documentation ("Distributed Locks with Redis",
redis.io/docs/latest/develop/use/patterns/distributed-locks/) with N = 5 independent masters
A-E and a 10 s TTL: a client samples its clock, sends SET lock <random> NX PX 10000 to each
master in turn with a 50 ms per-node timeout, and holds the lock only if at least N/2+1 = 3
masters said OK and the validity TTL - elapsed - drift (drift = 1 % of the TTL + 2 ms) is still
positive; otherwise it unlocks all five and retries after a random delay. Three clients take
turns for three rounds each. Nothing fails, so mutual exclusion holds: this is the baseline the
other redlock-* scenarios break. The retry count is raised from redlock-rb's 3 so that a client
outlasts the others' 1 s turns instead of giving up.]],
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
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds" },
}
