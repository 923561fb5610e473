-- A ZooKeeper session kept alive by a ping that changes no pending expiry: its deadline moves
-- from one tick to the next when the ping comes late, though nothing the node has scheduled
-- moves with it.
return {
  name = "check: a session expired on ZooKeeper's tick",
  about = [[Y's session (4 s) holds the ephemeral /ka and is pinged once at about 2 s; it
expires at the 6 s tick with X's, or at the 8 s tick if the ping came after 2 s; Z enters
without the lock if /ka is still there at 6.1 s. The search must find the path where Y's ping
comes late.]],
  protocol = "./models/session-tick.lua", server = "zookeeper", nodes = 1, lease = "10s", wait = "30s",
  network = { delay = "1ms" },
  clients = { { name = "X", work = "9s" }, { name = "Y", start = "10ms" }, { name = "Z", start = "6100ms" } },
  duration = "10s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
