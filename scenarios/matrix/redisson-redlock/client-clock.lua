-- matrix: Redisson RedLock (5, watchdog) under "client-clock" (locklab matrix; the table is ../table.lua).
return {
  name = "Redisson RedLock (5, watchdog): the holder's clock jumps forward",
  about = [[
At 1 s A's clock jumps forward by 35 s, past its 30 s watchdog lease, while A works (an NTP
step, an administrator). Redisson's watchdog schedules its renewals on Netty's timer, which
counts System.nanoTime(), a monotonic clock (and the model's timers run on the monotonic clock
too): the jump moves no renewal, and Redis counts the lease on its own clock. Nothing changes.

The design: Redisson's RedissonRedLock over five masters, without a lease: each RedissonLock
keeps its own watchdog (lua/clients/redisson-redlock.lua).]],
  protocol = "redisson-redlock",
  mode = "redlock", nodes = { "n1", "n2", "n3", "n4", "n5" },
  lease = false, wait = "60s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "45s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", clock_jump = "A", by = "35s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
