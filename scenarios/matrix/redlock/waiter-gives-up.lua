-- matrix: Redlock (5 masters) under "waiter-gives-up" (locklab matrix; the table is ../table.lua).
return {
  name = "Redlock (5 masters): a waiter gives up",
  about = [[
No fault in the servers or the network: B waits only 2 s and gives up while A holds the lock; C
arrives at 3 s with the usual wait. Whatever B leaves behind (a subscription, a queue entry, a
lock taken on some masters) must not block C or let it in early.

The design: Redlock over five independent masters ("Distributed Locks with Redis", "The Redlock
Algorithm"; lua/clients/redlock.lua with redlock-rb's numbers).]],
  protocol = "redlock",
  mode = "redlock", nodes = { "n1", "n2", "n3", "n4", "n5" },
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  options = { retry_count = 1000 },  -- B keeps trying for its whole wait, as in the other rows (redlock-rb: 3 attempts)
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s", wait = "2s" },
    { name = "C", start = "3s", work = "8s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
