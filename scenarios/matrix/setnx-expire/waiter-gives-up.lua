-- matrix: Redis SETNX + EXPIRE under "waiter-gives-up" (locklab matrix; the table is ../table.lua).
return {
  name = "Redis SETNX + EXPIRE: a waiter gives up",
  about = [[
No fault in the servers or the network: B waits only 2 s and gives up while A holds the lock; C
arrives at 3 s with the usual wait. Whatever B leaves behind (a subscription, a queue entry, a
lock taken on some masters) must not block C or let it in early.

The design: The naive lock: SETNX key value, then EXPIRE key ttl as a second command; released
with a plain DEL (lua/clients/setnx-expire.lua).]],
  protocol = "setnx-expire",
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
