-- redlock-clock-jump: a node's clock jumps forward and its lock expires early.
return {
  name = "Redlock: a clock jump on one node gives the lock to two clients",
  about = [[
Martin Kleppmann, "How to do distributed locking" (2016), on Redlock's timing assumptions:
"1. Client 1 acquires lock on nodes A, B, C. Due to a network issue, D and E cannot be
reached. 2. The clock on node C jumps forward, causing the lock to expire. 3. Client 2
acquires lock on nodes C, D, E. Due to a network issue, A and B cannot be reached. 4. Clients
1 and 2 now both believe they hold the lock." Redis keeps a key's expiry as an absolute time on
its own clock, so a forward jump (an NTP step, an administrator setting the time) expires it at
once. The Redis documentation's safety argument ("Is the algorithm asynchronous?") assumes
clocks that run at about the same rate and never jump.

Five masters A-E; client 1 only reaches A, B, C and client 2 only C, D, E (a partition that
leaves C reachable by both). Client 1 locks A, B, C and works for 9 s. At 1 s C's clock jumps
forward by 11 s, past the 10 s TTL: C's copy of the lock expires. Client 2 starts at 2 s, locks
C, D, E, and both clients are inside the critical section: mutual exclusion is violated.]],
  protocol = "redlock",
  mode = "redlock",
  nodes = { "A", "B", "C", "D", "E" },
  lease = "10s", wait = "30s",
  network = { delay = { "1ms", "5ms" } },
  options = { preset = "redis-docs" },
  clients = {
    { name = "c1", start = 0,    work = "9s" },
    { name = "c2", start = "2s", work = "1s" },
  },
  faults = {
    { at = 0, partition = { { "c1", "A", "B" }, { "c2", "D", "E" } }, duration = "30s" },
    { at = "1s", clock_jump = "C", by = "11s" },
  },
  duration = "30s", seed = 1,
  expect = { mutual_exclusion = "violated" },
}
