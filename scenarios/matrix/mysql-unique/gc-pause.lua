-- matrix: MySQL unique index (INSERT / DELETE) under "gc-pause" (locklab matrix; the table is ../table.lua).
return {
  name = "MySQL unique index (INSERT / DELETE): the holder's GC pause",
  about = [[
At 4 s, 1 s before its work is done, inside its critical section, A stops for a GC pause of 12
s (longer than the 10 s lease of the lease designs), then finishes, writes to the resource and
releases (Martin Kleppmann, "How to do distributed locking", 2016).

The row has no lease to outlive: A's row stays through the pause, B waits, and A's DELETE at 16 s
hands the lock on. Safe, at the price of the deadlock of the holder-crash column.

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
    { at = "4s", gc_pause = "A", duration = "12s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
