-- mongodb-findandmodify-holder-crash: without expiry, a crashed holder's document stays.
return {
  name = "MongoDB findAndModify lock without expiry: a crashed holder locks everyone out",
  about = [[
The comparison table's MongoDB lock (lua/clients/mongo-findandmodify.lua): findAndModify with
upsert inserts the lock document if there is none, and returns it (the MongoDB manual,
findAndModify, www.mongodb.com/docs/manual/reference/command/findAndModify/); delete releases.
The table's verdict: "no automatic expiry". A takes the lock and crashes 1 s later; its
document stays, and B retries for 90 s in vain: a deadlock, until an operator deletes the
document. With a TTL index (mongodb-ttl-holder-crash) the lock frees, but late.]],
  protocol = "mongo-findandmodify",
  server = "mongodb",
  nodes = 1,
  lease = false, wait = "90s",
  clients = {
    { name = "A", start = 0,       work = "2s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "1s", crash = "A" },
  },
  duration = "120s", seed = 1,
  expect = { no_deadlock = "violated", mutual_exclusion = "holds" },
}
