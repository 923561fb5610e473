-- matrix: SET NX PX + compare-and-delete under "waiter-gives-up" (locklab matrix; the table is ../table.lua).
return {
  name = "SET NX PX + compare-and-delete: a waiter gives up",
  about = [[
No fault in the servers or the network: B waits only 2 s and gives up while A holds the lock; C
arrives at 3 s with the usual wait. Whatever B leaves behind (a subscription, a queue entry, a
lock taken on some masters) must not block C or let it in early.

The design: The Redis documentation's single-instance lock ("Distributed Locks with Redis",
"Correct Implementation with a Single Instance"): SET key random NX PX ttl, released by a
compare-and-delete script (lua/clients/distlock.lua).]],
  protocol = "distlock",
  nodes = 1,
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s", wait = "2s" },
    { name = "C", start = "3s", work = "8s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
