-- matrix: Redisson fenced (watchdog) under "partition" (locklab matrix; the table is ../table.lua).
return {
  name = "Redisson fenced (watchdog): the holder is partitioned",
  about = [[
At 1 s a partition cuts A off from Redis for 45 s (B still reaches it) while A works on its
45 s job, the long work a watchdog is for. A's renewals fail; the lease lapses 30 s after the last
one; B takes the lock while A still works (Redisson #3636).

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
    { at = "1s", partition = { { "A" }, { "n1", "B" } }, duration = "45s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
