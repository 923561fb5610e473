-- matrix: MongoDB findAndModify under "reenter" (locklab matrix; the table is ../table.lua).
return {
  name = "MongoDB findAndModify: the holder takes the lock again",
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

The design: the comparison table's MongoDB lock (lua/clients/mongo-findandmodify.lua): the
atomic findAndModify with upsert on the document {_id: lock} ($setOnInsert: the owner), whose
returned owner tells whether the lock is ours; a delete of our document releases it (the
MongoDB manual, "findAndModify"). No expiry; writes with writeConcern w: 1.]],
  protocol = "../reenter-model-mongodb.lua",
  server = "mongodb",
  nodes = 1,
  lease = false, wait = "90s",     -- no lease: the design has none
  network = { delay = {"1ms", "5ms"} },
  options = { design = "mongo-findandmodify" },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds", reentrancy = "violated" },
}
