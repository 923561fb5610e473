-- redlock-crash-restart-fsync-always: the documentation's remedy with persistence.
return {
  name = "Redlock: a node restarts but fsync=always kept the lock",
  about = [[
The other remedy of the Redis documentation for redlock-crash-restart-nofsync ("Performance,
crash recovery and fsync"): with AOF and fsync=always every SET is on disk before
Redis replies, so a restarted node still has the keys it granted (and, because expiry is
stored as an absolute time, their TTLs keep running while it is down). The docs warn that this
costs performance, "on par with CP systems".

Same world as redlock-crash-restart-nofsync: five masters A-E with persistence "always",
client 1 only reaches A, B, C, client 2 only C, D, E; client 1 locks A, B, C and works for 9 s.
C crashes at 1 s and restarts at 1.2 s, this time WITH client 1's key. Client 2 gets only D and
E (C answers nil: taken), two of five, and keeps retrying; it gets C, D, E only after client 1
has released the lock at about 9.1 s. Mutual exclusion holds. (Client 2 retries every 1 s, up
to 20 times, instead of redlock-rb's 3 attempts 0-200 ms apart.)]],
  protocol = "redlock",
  mode = "redlock",
  nodes = { "A", "B", "C", "D", "E" },
  persistence = "always",
  lease = "10s", wait = "30s",
  network = { delay = { "1ms", "5ms" } },
  options = { preset = "redis-docs", retry_count = 20, retry_delay = 1000, retry_jitter = 200 },
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
  expect = { mutual_exclusion = "holds" },
}
