-- matrix: Redisson fenced (watchdog) under "waiter-gives-up" (locklab matrix; the table is ../table.lua).
return {
  name = "Redisson fenced (watchdog): a waiter gives up",
  about = [[
No fault in the servers or the network: B waits only 2 s and gives up while A holds the lock; C
arrives at 3 s with the usual wait. Whatever B leaves behind (a subscription, a queue entry, a
lock taken on some masters) must not block C or let it in early.

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
    { name = "B", start = "100ms", work = "8s", wait = "2s" },
    { name = "C", start = "3s", work = "8s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
