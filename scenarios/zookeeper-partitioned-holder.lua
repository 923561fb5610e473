-- zookeeper-partitioned-holder: the holder loses ZooKeeper, keeps working.
return {
  name = "ZooKeeper lock: the holder is cut off, its session expires, it keeps working",
  about = [[
A holds Curator's InterProcessMutex (10 s session) and works for 40 s. At 5 s a partition
cuts A off from the ZooKeeper server (B still reaches it) for 20 s. A's pings time out; the
server hears nothing for the session timeout and expires A's session, deleting its ephemeral
lock node; B's watch fires and B takes the lock. A never hears of it while cut off: its
client only learns "Expired" when it reaches the server again (ZooKeeper Programmer's Guide,
"ZooKeeper Sessions"), and InterProcessMutex does not listen to connection states at all —
Curator's documentation asks the application to treat SUSPENDED as "lock possibly lost"
(curator.apache.org, "Error handling"). A keeps working: mutual exclusion is violated. With
fencing (the czxid of the lock node, as in zookeeper-gc-pause-fencing) A's late writes would
be refused.]],
  server = "zookeeper",
  protocol = "curator-mutex",
  lease = "10s",
  wait = "60s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,       work = "40s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "5s", partition = { { "A" }, { "n1", "B" } }, duration = "20s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "violated", no_deadlock = "holds" },
}
