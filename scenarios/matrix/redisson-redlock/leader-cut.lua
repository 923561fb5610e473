-- matrix: Redisson RedLock (5, watchdog) under "leader-cut" (locklab matrix; the table is ../table.lua).
return {
  name = "Redisson RedLock (5, watchdog): the leader is cut off in a minority with the waiter",
  about = [[
Redisson's RedLock has no leader: five independent masters. At 1 s a partition puts n1, n2 and
the waiter B on one side, n3, n4, n5 and the holder A on the other, for 40 s. A's watchdogs
keep its sub-locks on n3, n4, n5 (those on n1 and n2 run out at 30 s), a majority still; B can
never reach one, waits, and takes the lock when A releases at 45 s, after the cut has healed.

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
    { at = "1s", partition = { { "n1", "n2", "B" }, { "n3", "n4", "n5", "A" } }, duration = "40s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
