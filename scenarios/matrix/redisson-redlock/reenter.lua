-- matrix: Redisson RedLock (5, watchdog) under "reenter" (locklab matrix; the table is ../table.lua).
return {
  name = "Redisson RedLock (5, watchdog): the holder takes the lock again",
  about = [[
No fault. A takes the lock and, holding it, takes it again, as a method that holds the lock
calls another that takes it and releases it when it returns (../reenter-model.lua: the inner
acquire may wait 1 s); A then works on under its first hold, and B waits its turn. A
re-entrant lock counts the holds and frees the lock at the last release; a lock that is a
plain key cannot tell its holder from a stranger, and one that lets its holder in again
without counting frees itself at the inner release, while A still works.

The design: Redisson's RedissonRedLock over five masters, without a lease: each RedissonLock
keeps its own watchdog (lua/clients/redisson-redlock.lua).

Re-entrancy is not judged here, though the story shows it: A's second acquire takes all five
holds again (each master's hash counts 2), the inner release counts them down to 1 (which the model's log calls "0 released
a hold of mine": it counts only the masters where the key went), and the
outer one frees the lock on every master at 45 s. The checker's re-entrancy test reads a
release that deletes the key on one master and then sends the same unlock to the next as a
release that had more holds to undo (model/monitor.c, reentrancy_step): a multi-master
release is outside what it can tell.]],
  protocol = "../reenter-model.lua",
  mode = "redlock", nodes = { "n1", "n2", "n3", "n4", "n5" },
  lease = false, wait = "60s",
  network = { delay = {"1ms", "5ms"} },
  options = { design = "redisson-redlock" },
  clients = {
    { name = "A", start = 0, work = "45s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
