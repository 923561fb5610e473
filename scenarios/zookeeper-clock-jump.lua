-- zookeeper-clock-jump: the server's wall clock jumps; ZooKeeper's sessions do not notice.
return {
  name = "ZooKeeper lock: the server's clock jumps 30 s ahead, and no session expires",
  about = [[
A holds Curator's InterProcessMutex (a 10 s session); B waits. At 2 s an operator (or NTP)
steps the server's wall clock 30 s ahead. ZooKeeper measures sessions with
Time.currentElapsedTime() (System.nanoTime(): a monotonic clock; ZooKeeper 3.8's
SessionTrackerImpl and ExpiryQueue), so no session expires and A keeps its lock: mutual
exclusion holds. Redis expires keys by the wall clock (mstime(); Kleppmann 2016): the same
jump on a Redis master frees the lock at once (scenarios/redlock-clock-jump.lua, the matrix's
clock column).]],
  server = "zookeeper",
  protocol = "curator-mutex",
  lease = "10s", wait = "30s",
  clients = {
    { name = "A", start = 0,       work = "5s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "2s", clock_jump = "n1", by = "30s" },
  },
  duration = "40s", seed = 1,
  expect = { mutual_exclusion = "holds", no_deadlock = "holds" },
}
