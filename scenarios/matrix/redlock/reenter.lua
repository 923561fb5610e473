-- matrix: Redlock (5 masters) under "reenter" (locklab matrix; the table is ../table.lua).
return {
  name = "Redlock (5 masters): the holder takes the lock again",
  about = [[
No fault. A takes the lock and, holding it, takes it again, as a method that holds the lock
calls another that takes it and releases it when it returns (../reenter-model.lua: the inner
acquire may wait 1 s); A then works on under its first hold, and B waits its turn. A
re-entrant lock counts the holds and frees the lock at the last release; a lock that is a
plain key cannot tell its holder from a stranger, and one that lets its holder in again
without counting frees itself at the inner release, while A still works.

The design: Redlock over five independent masters ("Distributed Locks with Redis", "The Redlock
Algorithm"; lua/clients/redlock.lua with redlock-rb's numbers).]],
  protocol = "../reenter-model.lua",
  mode = "redlock", nodes = { "n1", "n2", "n3", "n4", "n5" },
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  options = { design = "redlock" },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds", reentrancy = "violated" },
}
