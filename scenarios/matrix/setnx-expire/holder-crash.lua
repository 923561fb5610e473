-- matrix: Redis SETNX + EXPIRE under "holder-crash" (locklab matrix; the table is ../table.lua).
return {
  name = "Redis SETNX + EXPIRE: the holder crashes",
  about = [[
A crashes at 7 ms: its SETNX has run, its EXPIRE is not sent yet (constant 5 ms delays put the
crash in that gap). This is the comparison table's own warning (../table.lua): SETNX and
EXPIRE are two steps; if the first succeeds and the second never happens, the key has no TTL
and nobody can take the lock again.

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
    { at = "7ms", crash = "A" },    -- SETNX ran at 5 ms; EXPIRE was to follow its reply at 10 ms
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "violated" },
}
