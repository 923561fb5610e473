-- redisson-restart-refused-3.4.4: a restarting Redis refuses connections, and Redisson retries them.
return {
  name = "Redis restarts: refused connections are retried, the lock is kept (Redisson 3.4.4)",
  about = [[
Redis's process dies at 9.9 s and is back 2 s later with its data (appendfsync always). Its
host stays up and resets every connection meanwhile (down = "refuses"). A's watchdog renews at
10 s: the connection is refused, and Redisson tries again retryInterval (1500 ms) later, up to
retryAttempts (3) times, in every release, 3.4.4 included (CommandAsyncService.java@3.4.4: the
retry timer re-sends while no connection was obtained; RedisExecutor.scheduleRetryTimeout in
3.12+): the retry at 13 s finds Redis back, the lease is renewed, and B waits its turn.

Against a host that is gone (down = "silent", scenarios/redisson-restart-silent-3.4.4.lua) the
same renewal waits out its 3 s response timeout, which 3.4.4 never resends: the watchdog stops,
the lock lapses at 30 s and B takes it from A.]],
  protocol = "redisson",
  scripts = "redisson@3.4.4",
  nodes = 1, persistence = "always", restart_delay = "2s",
  down = "refuses",
  lease = false, wait = "60s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,       work = "45s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "9900ms", crash = "n1" },
  },
  duration = "90s", seed = 1,
  expect = { mutual_exclusion = "holds", no_deadlock = "holds" },
}
