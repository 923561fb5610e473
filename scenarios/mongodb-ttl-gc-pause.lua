-- mongodb-ttl-gc-pause: the TTL monitor deletes a paused holder's lock.
return {
  name = "MongoDB findAndModify lock with a TTL index: a GC pause outlives the lease",
  about = [[
The findAndModify lock with a TTL-indexed expireAt (lease 30 s), under Martin Kleppmann's GC
pause ("How to do distributed locking", 2016): A takes the lock at 0 and is frozen from 1 s to
81 s. Its document expires at 30 s and the TTL monitor deletes it at its pass at 60 s ("The
background task that removes expired documents runs every 60 seconds", the MongoDB manual,
"TTL Indexes", www.mongodb.com/docs/manual/core/index-ttl/). B's findAndModify then inserts
the lock document, and when A wakes it goes on writing, not knowing its lock is gone: the
monitor's lateness does not save A, it only delays B.]],
  protocol = "mongo-findandmodify",
  server = "mongodb",
  options = { expiry = true },
  nodes = 1,
  lease = "30s", wait = "90s",
  clients = {
    { name = "A", start = 0,       work = "85s" },
    { name = "B", start = "100ms", work = "5s" },
  },
  faults = {
    { at = "1s", gc_pause = "A", duration = "80s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", no_deadlock = "holds" },
}
