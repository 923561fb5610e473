-- zookeeper-waiter-gives-up: a waiter's time runs out; it deletes its node, the queue heals.
return {
  name = "ZooKeeper lock: a waiter gives up, its node goes, the next waiter moves up",
  about = [[
A holds Curator's InterProcessMutex for 8 s. B asks with acquire(2 s) and C with
acquire(30 s): their nodes queue up behind A's, B watching A's node and C watching B's. B's
time runs out: internalLockLoop's doDelete deletes B's node (LockInternals.java: "timed out -
delete our node"), which fires C's watch; C lists the children again and now watches A's
node. When A releases, C gets the lock. A waiter that gives up leaves nothing behind: no
deadlock, no stale place in the queue (compare fairlock-abandoned-waiters, where Redisson's
fair lock keeps a dead waiter's place until its timeout).]],
  server = "zookeeper",
  protocol = "curator-mutex",
  lease = "10s", wait = "30s",
  clients = {
    { name = "A", start = 0,       work = "8s" },
    { name = "B", start = "100ms", work = "1s", wait = "2s" },
    { name = "C", start = "200ms", work = "1s" },
  },
  duration = "40s", seed = 1,
  expect = { mutual_exclusion = "holds", no_deadlock = "holds" },
}
