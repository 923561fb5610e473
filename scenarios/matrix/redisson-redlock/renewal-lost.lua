-- matrix: Redisson RedLock (5, watchdog) under "renewal-lost" (locklab matrix; the table is ../table.lua).
return {
  name = "Redisson RedLock (5, watchdog): the lease's renewals are lost while the holder works",
  about = [[
From 1 s to 41 s every message between A and the five masters is lost (a drop on A's link
alone: B reaches the servers as usual) while A works on its 45 s job. A sends nothing else
while it works, so what is lost is exactly its watchdogs' renewals: its process, its writes to
the resource and, after 41 s, its release are untouched. The renewals of all five sub-locks'
watchdogs are lost; the 30 s leases run out at 30 s on every master and B takes the lock, while
A works on until 45 s (Redisson #3636).

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
    { at = "1s", drop = { "A", "n1" }, probability = 1, duration = "40s" },
    { at = "1s", drop = { "A", "n2" }, probability = 1, duration = "40s" },
    { at = "1s", drop = { "A", "n3" }, probability = 1, duration = "40s" },
    { at = "1s", drop = { "A", "n4" }, probability = 1, duration = "40s" },
    { at = "1s", drop = { "A", "n5" }, probability = 1, duration = "40s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds" },
}
