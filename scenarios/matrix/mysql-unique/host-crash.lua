-- matrix: MySQL unique index (INSERT / DELETE) under "host-crash" (locklab matrix; the table is ../table.lua).
return {
  name = "MySQL unique index (INSERT / DELETE): the holder's host crashes",
  about = [[
At 1 s A's host vanishes (power loss, a kernel panic, a killed VM: crash with host = true): no
FIN, no RST. The servers learn of it only when their TCP keepalive gives up on the connection,
about 2 h 11 min with Linux's defaults, far beyond this run. No expiry, as after a process
crash: the lock stays, and B waits out its 90 s.

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
    { at = "1s", crash = "A", host = true },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "violated" },
}
