-- matrix: Redisson fenced (watchdog) under "holder-crash" (locklab matrix; the table is ../table.lua).
return {
  name = "Redisson fenced (watchdog): the holder crashes",
  about = [[
A crashes at 1 s inside its critical section and never releases. The lock has to come free by
itself for B: the watchdog dies with A, so the last 30 s lease runs out.

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
    { at = "1s", crash = "A" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
