-- matrix: Redis SETNX + EXPIRE under "host-crash" (locklab matrix; the table is ../table.lua).
return {
  name = "Redis SETNX + EXPIRE: the holder's host crashes",
  about = [[
At 7 ms, between SETNX and EXPIRE, A's host vanishes (power loss, a kernel panic, a killed VM:
crash with host = true): no FIN, no RST. The servers learn of it only when their TCP keepalive
gives up on the connection, about 2 h 11 min with Linux's defaults, far beyond this run. The
key has no expiry yet, as after a process crash: it stays, and B waits out its 30 s.

The design: The naive lock: SETNX key value, then EXPIRE key ttl as a second command; released
with a plain DEL (lua/clients/setnx-expire.lua).]],
  protocol = "setnx-expire",
  nodes = 1,
  lease = "10s", wait = "30s",
  network = { delay = "5ms" },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "7ms", crash = "A", host = true },    -- SETNX ran at 5 ms; EXPIRE was to follow its reply at 10 ms
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "violated" },
}
