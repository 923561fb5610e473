-- zookeeper-reentrant: Curator's InterProcessMutex is re-entrant per thread.
return {
  name = "ZooKeeper lock: InterProcessMutex is re-entrant (three holds, three releases)",
  about = [[
Curator's InterProcessMutex is re-entrant: "the same thread that holds it can acquire it
again" (curator.apache.org, "Shared Reentrant Lock"). InterProcessMutex.internalLock keeps a
LockData per thread with a lockCount: a second acquire() by the holding thread only
increments it, without a request to ZooKeeper, and release() deletes the lock node only when
the count comes back to 0. Here A takes the lock three times (options.reentrant = 3) and
releases it three times; B, watching A's node, gets the lock only after A's third release.
The non-re-entrant variant is Curator's InterProcessSemaphoreMutex.]],
  server = "zookeeper",
  protocol = "curator-mutex",
  lease = "10s", wait = "30s",
  options = { reentrant = 3 },
  clients = {
    { name = "A", start = 0,       work = "2s", rounds = 2 },
    { name = "B", start = "100ms", work = "1s", rounds = 2 },
  },
  duration = "60s", seed = 1,
  expect = { reentrancy = "holds", mutual_exclusion = "holds", no_deadlock = "holds" },
}
