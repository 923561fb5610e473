-- redlock-crash-restart-delayed: the documentation's remedy without persistence.
return {
  name = "Redlock: a crashed node stays down longer than the TTL",
  about = [[
The remedy the Redis documentation gives for redlock-crash-restart-nofsync without any
persistence ("Performance, crash recovery and fsync"): "we just need to make an
instance, after a crash, unavailable for at least a bit more than the max TTL we use", so that
every lock it knew about has expired before it takes part again ("delayed restarts").

Same world as redlock-crash-restart-nofsync: five masters A-E, client 1 only reaches A, B, C,
client 2 only C, D, E; client 1 locks A, B, C and works for 9 s of its 9.8 s validity. C crashes
at 1 s, but now restarts only after restart_delay = 11 s (TTL 10 s + 1 s), at 12 s. Until
then client 2 gets D and E and nothing else, two of five, no majority; it unlocks what it got
and retries every second. When C is back, client 1's lock has long expired and client 1 has
left: client 2 locks C, D, E alone, and mutual exclusion holds. The price is availability:
the lock could not be taken for 10 s. (Client 2 retries every 1 s, up to 20 times, instead of
redlock-rb's 3 attempts 0-200 ms apart, so the run shows when it gets the lock.)]],
  protocol = "redlock",
  mode = "redlock",
  nodes = { "A", "B", "C", "D", "E" },
  persistence = "none",
  per_node = { C = { restart_delay = "11s" } },
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
  },
  duration = "30s", seed = 1,
  expect = { mutual_exclusion = "holds" },
}
