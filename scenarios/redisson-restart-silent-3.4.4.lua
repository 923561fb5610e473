-- redisson-restart-silent-3.4.4: the same restart behind a silent host: the renewal times out.
return {
  name = "Redis restarts behind a silent host: the renewal times out, the lock is lost (Redisson 3.4.4)",
  about = [[
The run of redisson-restart-refused-3.4.4 behind a host that says nothing while Redis is down
(down = "silent": the host itself died, or a firewall drops the packets). A's renewal at 10 s
gets no answer; after the 3 s response timeout 3.4.4 fails it without a resend
(CommandAsyncService.java@3.4.4:641-648): the watchdog logs "Can't update lock lock
expiration" and never renews again (RedissonLock.java@3.4.4:214-221). The lock lapses at 30 s
and B takes it while A still works. Where the host refuses the connection instead, the
connection retries reach the restarted Redis and the lock is kept.]],
  protocol = "redisson",
  scripts = "redisson@3.4.4",
  nodes = 1, persistence = "always", restart_delay = "2s",
  down = "silent",
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
  expect = { mutual_exclusion = "violated", no_deadlock = "holds" },
}
