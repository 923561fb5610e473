-- matrix: Redisson fenced (watchdog) under "clock-jump" (locklab matrix; the table is ../table.lua).
return {
  name = "Redisson fenced (watchdog): a server's clock jumps forward",
  about = [[
At 1 s n1's clock jumps forward by 35 s, past the 30 s lease (an NTP step, an administrator).
Redis keeps a key's expiry as an absolute time on its own clock, so A's key there expires at
once (Kleppmann 2016, on Redlock's timing assumptions).

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
    { at = "1s", clock_jump = "n1", by = "35s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
