-- matrix: Redisson fenced (watchdog) under "server-restart" (locklab matrix; the table is ../table.lua).
return {
  name = "Redisson fenced (watchdog): the server crashes and restarts empty",
  about = [[
Redis master n1 crashes at 1 s and restarts at 2 s with nothing saved (persistence none: no AOF
fsync), so it forgets the lock A holds ("Distributed Locks with Redis", "Performance, crash
recovery and fsync").

The design: Redisson's RedissonFencedLock (3.19.0+, #4684) taken without a lease (the
watchdog); its token goes with every write, and the resource rejects a token lower than one it
has accepted (lua/clients/redisson-fenced.lua; fencing tokens: Kleppmann 2016).]],
  protocol = "redisson-fenced",
  nodes = 1,
  fencing = true,
  lease = false, wait = "60s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "45s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", crash = "n1" },
    { at = "2s", restart = "n1" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds" },
}
