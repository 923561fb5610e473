-- mongodb-two-members-no-election: a primary and one secondary cannot elect a new primary.
return {
  name = "MongoDB: two members, the primary dies, and no secondary can be elected",
  about = [[
A replica set of two members: the primary n1 and one secondary. "The voting majority of a
replica set is 1 plus half the number of voting members, rounded down" (the MongoDB manual,
"Default MongoDB Read Concerns/Write Concerns"): of two members that is two, so when n1
crashes at 20 ms the secondary alone cannot be elected, and the set has no primary. A's
findAndModify (the default write concern, w: "majority": both members) ran on n1 but was never
answered, and every later attempt, A's and B's, finds no primary: nobody holds the lock, and
B gives up after its 30 s wait. Mutual exclusion holds because nothing can be written at all;
a three-member set (scenarios/matrix/mongodb/failover.lua) elects a secondary and goes on.]],
  protocol = "mongo-findandmodify",
  server = "mongodb",
  nodes = 1, replicas = 1,
  lease = false, wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  replication = { lag = {"50ms", "100ms"}, down_after = "1s", detection = "500ms" },
  clients = {
    { name = "A", start = 0,       work = "5s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "20ms", crash = "n1" },
  },
  duration = "40s", seed = 3,
  expect = { mutual_exclusion = "holds" },
}
