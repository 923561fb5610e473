-- matrix: Redisson fenced (watchdog) under "renewal-lost" (locklab matrix; the table is ../table.lua).
return {
  name = "Redisson fenced (watchdog): the lease's renewals are lost while the holder works",
  about = [[
From 1 s to 41 s every message between A and the server is lost (a drop on A's link alone: B
reaches the servers as usual) while A works on its 45 s job. A sends nothing else while it
works, so what is lost is exactly its watchdog's renewals: its process, its writes to the
resource and, after 41 s, its release are untouched. A's watchdog renewals (every 10 s) are
lost and time out; the 30 s lease runs out at 30 s and B takes the lock, while A, whom nothing
tells, works on until 45 s: "alive" is not "reachable" (Redisson #3636). B's fencing token is
higher, so the resource refuses A's late writes.

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
    { at = "1s", drop = { "A", "n1" }, probability = 1, duration = "40s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
