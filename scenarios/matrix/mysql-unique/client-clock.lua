-- matrix: MySQL unique index (INSERT / DELETE) under "client-clock" (locklab matrix; the table is ../table.lua).
return {
  name = "MySQL unique index (INSERT / DELETE): the holder's clock jumps forward",
  about = [[
At 1 s A's clock jumps forward by 15 s, while A works (an NTP step, an administrator). The lock
has no time in it (no lease, no expiry): nothing changes.

The design: the comparison table's MySQL lock (lua/clients/mysql-unique.lua): a table whose
primary key (a unique index) is the lock's name; an INSERT takes the lock, the duplicate-key
error 1062 means it is taken (retry later), a DELETE of the caller's own row releases it. The
row has no expiry: the design has no lease.]],
  protocol = "mysql-unique",
  server = "mysql",
  nodes = 1,
  lease = false, wait = "90s",     -- no lease: the design has none
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", clock_jump = "A", by = "15s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
