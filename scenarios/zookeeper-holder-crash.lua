-- zookeeper-holder-crash: the holder dies; its session expires and the lock frees itself.
return {
  name = "ZooKeeper lock: the holder crashes, the lock frees itself when its session expires",
  about = [[
A holds Curator's InterProcessMutex and crashes inside its critical section without
releasing. Its TCP connection is gone but its session is not: ZooKeeper ends a session only
when the client closes it or when nothing reached the server for the session timeout
(ZooKeeper Programmer's Guide, "ZooKeeper Sessions": "the ZooKeeper cluster ... will expire
the session"; ephemeral nodes "exist as long as the session that created the znode is
active"). With a 10 s session, the leader expires A's session at the first tick boundary past
10 s of silence, deletes A's ephemeral lock node, and fires the NodeDeleted watch B set on it:
B takes the lock about 10 s after the crash. Unlike a lock without expiry (a row of a unique
index, a Redis key without a TTL), a crashed holder cannot lock everyone out; unlike a lease,
nothing ends a live holder's hold while its heartbeats arrive.]],
  server = "zookeeper",
  protocol = "curator-mutex",
  lease = "10s",                    -- the session timeout asked for; no_deadlock's bound is 2x
  wait = "30s",
  clients = {
    { name = "A", start = 0,       work = "20s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "2s", crash = "A" },
  },
  duration = "40s", seed = 1,
  expect = { mutual_exclusion = "holds", no_deadlock = "holds" },
}
