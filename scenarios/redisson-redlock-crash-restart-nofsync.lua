-- redisson-redlock-crash-restart-nofsync: the same crash-restart flaw in Redisson's RedLock.
return {
  name = "RedissonRedLock: a node restarts empty and two clients hold the lock",
  about = [[
The crash-restart counter-example of the Redis documentation ("Performance, crash recovery
and fsync"; see redlock-crash-restart-nofsync), run against a second, different
implementation: Redisson's RedissonRedLock (RedissonRedLock.java, RedissonMultiLock.java). It
takes one RedissonLock (a hash, the Redisson lock script) per master, in order; up to
N - (N/2+1) = 2 of 5 may fail; each gets max(wait/N, 1) ms of the wait and is first taken with
a lease of 2 x wait (60 s), and only at the end is the real 10 s lease applied to every
acquired lock with an expire. There is no validity check (no TTL - elapsed - drift).

Five masters A-E; client 1 only reaches A, B, C and client 2 only C, D, E (C, in no group of
the partition, is reachable by both). The request timeout is 100 ms (Redisson's `timeout`,
3 s by default, shortened so the story stays short): a lock on an unreachable master fails
with RedisResponseTimeoutException, and RedissonMultiLock sends an unlock there too. Client 1
locks A, B, C; at D it has 3 of 5 and stops. C crashes at 1 s and restarts empty at 1.2 s (no
persistence); client 2 starts at 2 s, fails on A and B (2 failures allowed), locks C, D, E,
and both clients are inside the critical section: mutual exclusion is violated, as with the
docs' algorithm. Redisson deprecated RedissonRedLock in 3.12.5.]],
  protocol = "redisson-redlock",
  mode = "redlock",
  nodes = { "A", "B", "C", "D", "E" },
  persistence = "none",
  lease = "10s", wait = "30s", timeout = "100ms",
  network = { delay = { "1ms", "5ms" } },
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
