-- matrix: MongoDB findAndModify + TTL index under "reenter" (locklab matrix; the table is ../table.lua).
return {
  name = "MongoDB findAndModify + TTL index: the holder takes the lock again",
  about = [[
No fault. A takes the lock and, holding it, takes it again, as a method that holds the lock
calls another that takes it and releases it when it returns (../reenter-model.lua: the inner
acquire may wait 1 s); A then works on under its first hold, and B waits its turn. A
re-entrant lock counts the holds and frees the lock at the last release; a lock that is a
plain key cannot tell its holder from a stranger, and one that lets its holder in again
without counting frees itself at the inner release, while A still works.

findAndModify returns the document with A's owner, so the recipe takes the lock again at
once, but it does not count: the inner method's delete removes the document, and B takes the
lock while A still works. The checker sees it as the server saw it: the model says its lock is
a document of locklab_locks (ctx:lock_unit), and A's own delete of it while it holds the lock
twice violates reentrancy.

The design: the comparison table's MongoDB lock with an expiry (lua/clients/mongo-findandmodify.lua,
options.expiry): the lock document carries expireAt = acquire time + the 10 s lease, and the
collection a TTL index on it; "The background task that removes expired documents runs every
60 seconds" (the MongoDB manual, "TTL Indexes", "Timing of the Delete Operation"), so the
lock frees up to a minute after its expiry. The holder does not renew it.]],
  protocol = "../reenter-model-mongodb.lua",
  server = "mongodb",
  nodes = 1,
  lease = "10s", wait = "90s",
  network = { delay = {"1ms", "5ms"} },
  options = { design = "mongo-findandmodify", expiry = true },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds", reentrancy = "violated" },
}
