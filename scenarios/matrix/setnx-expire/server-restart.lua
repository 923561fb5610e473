-- matrix: Redis SETNX + EXPIRE under "server-restart" (locklab matrix; the table is ../table.lua).
return {
  name = "Redis SETNX + EXPIRE: the server crashes and restarts empty",
  about = [[
Redis master n1 crashes at 1 s and restarts at 2 s with nothing saved (persistence none: no AOF
fsync), so it forgets the lock A holds ("Distributed Locks with Redis", "Performance, crash
recovery and fsync").

The design: The naive lock: SETNX key value, then EXPIRE key ttl as a second command; released
with a plain DEL (lua/clients/setnx-expire.lua).]],
  protocol = "setnx-expire",
  nodes = 1,
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", crash = "n1" },
    { at = "2s", restart = "n1" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "violated", no_deadlock = "holds" },
}
