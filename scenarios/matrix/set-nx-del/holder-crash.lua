-- matrix: SET NX PX + DEL under "holder-crash" (locklab matrix; the table is ../table.lua).
return {
  name = "SET NX PX + DEL: the holder crashes",
  about = [[
A crashes at 1 s inside its critical section and never releases. The lock has to come free by
itself for B: the 10 s lease runs out.

The design: SET key value NX PX ttl, one atomic command, released with a plain DEL
(lua/clients/set-nx-del.lua).]],
  protocol = "set-nx-del",
  nodes = 1,
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", crash = "A" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
