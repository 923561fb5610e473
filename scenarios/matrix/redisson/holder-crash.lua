-- matrix: Redisson lock() (watchdog) under "holder-crash" (locklab matrix; the table is ../table.lua).
return {
  name = "Redisson lock() (watchdog): the holder crashes",
  about = [[
A crashes at 1 s inside its critical section and never releases. The lock has to come free by
itself for B: the watchdog dies with A, so the last 30 s lease runs out.

The design: Redisson's RedissonLock taken with lock(), no lease: the watchdog renews its 30 s
lease every 10 s while the holder lives (lua/clients/redisson.lua; the Redisson documentation,
lockWatchdogTimeout).]],
  protocol = "redisson",
  nodes = 1,
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
