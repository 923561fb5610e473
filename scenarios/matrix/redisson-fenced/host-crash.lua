-- matrix: Redisson fenced (watchdog) under "host-crash" (locklab matrix; the table is ../table.lua).
return {
  name = "Redisson fenced (watchdog): the holder's host crashes",
  about = [[
At 1 s A's host vanishes (power loss, a kernel panic, a killed VM: crash with host = true): no
FIN, no RST. The servers learn of it only when their TCP keepalive gives up on the connection,
about 2 h 11 min with Linux's defaults, far beyond this run. The watchdog dies with the host;
the 30 s lease runs out, as after a process crash, and B takes the lock.

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
    { at = "1s", crash = "A", host = true },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
