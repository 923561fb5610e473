-- matrix: SET NX PX + compare-and-delete under "reenter" (locklab matrix; the table is ../table.lua).
return {
  name = "SET NX PX + compare-and-delete: the holder takes the lock again",
  about = [[
No fault. A takes the lock and, holding it, takes it again, as a method that holds the lock
calls another that takes it and releases it when it returns (../reenter-model.lua: the inner
acquire may wait 1 s); A then works on under its first hold, and B waits its turn. A
re-entrant lock counts the holds and frees the lock at the last release; a lock that is a
plain key cannot tell its holder from a stranger, and one that lets its holder in again
without counting frees itself at the inner release, while A still works.

The design: The Redis documentation's single-instance lock ("Distributed Locks with Redis",
"Correct Implementation with a Single Instance"): SET key random NX PX ttl, released by a
compare-and-delete script (lua/clients/distlock.lua).]],
  protocol = "../reenter-model.lua",
  nodes = 1,
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  options = { design = "distlock" },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds", reentrancy = "violated" },
}
