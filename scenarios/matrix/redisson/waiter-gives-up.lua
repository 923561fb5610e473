-- matrix: Redisson lock() (watchdog) under "waiter-gives-up" (locklab matrix; the table is ../table.lua).
return {
  name = "Redisson lock() (watchdog): a waiter gives up",
  about = [[
No fault in the servers or the network: B waits only 2 s and gives up while A holds the lock; C
arrives at 3 s with the usual wait. Whatever B leaves behind (a subscription, a queue entry, a
lock taken on some masters) must not block C or let it in early.

The design: Redisson's RedissonLock taken with lock(), no lease: the watchdog renews its 30 s
lease every 10 s while the holder lives (lua/clients/redisson.lua; the Redisson documentation,
lockWatchdogTimeout).]],
  protocol = "redisson",
  nodes = 1,
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
