-- redlock-crash-restart-nofsync: a master forgets a lock when it restarts without fsync.
return {
  name = "Redlock: a node restarts empty and two clients hold the lock",
  about = [[
The Redis documentation's own counter-example ("Performance, crash recovery and fsync"):
five masters A-E. Client 1 locks A, B and C (a majority) but not D and E. C crashes and
restarts; it had not persisted client 1's key (no persistence, i.e. no fsync), so it comes back
empty. Client 2 then locks C, D and E, another majority, while client 1 still works inside its
critical section: two clients hold the lock, and mutual exclusion is violated. Martin Kleppmann
("How to do distributed locking", 2016) repeats the example as the reason Redlock depends on
persistence or delayed restarts.

As in the literature, the network is arranged so that client 1 only reaches A, B and C and
client 2 only C, D and E (a partition that leaves C, named in no group, reachable by both):
each client's SETs to the nodes it cannot reach time out after the 50 ms per-node timeout.
C crashes at 1 s and restarts at 1.2 s; client 2 starts at 2 s. See
redlock-crash-restart-delayed and redlock-crash-restart-fsync-always for the two remedies.]],
  protocol = "redlock",
  mode = "redlock",
  nodes = { "A", "B", "C", "D", "E" },
  persistence = "none",
  lease = "10s", wait = "30s",
  network = { delay = { "1ms", "5ms" } },
  options = { preset = "redis-docs" },
  clients = {
    { name = "c1", start = 0,    work = "9s" },
    { name = "c2", start = "2s", work = "1s" },
  },
  faults = {
    { at = 0, partition = { { "c1", "A", "B" }, { "c2", "D", "E" } }, duration = "30s" },
    { at = "1s", crash = "C" },
    { at = "1200ms", restart = "C" },
  },
  duration = "30s", seed = 1,
  expect = { mutual_exclusion = "violated" },
}
