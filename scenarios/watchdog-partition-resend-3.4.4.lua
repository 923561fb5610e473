-- watchdog-partition-resend-3.4.4: the same partition, with a release that never resends.
return {
  name = "a 5 s partition costs the lock when the renewal is never resent (Redisson 3.4.4)",
  about = [[
The run of watchdog-partition-resend with scripts = "redisson@3.4.4". Before 3.10.0 Redisson
did not resend a command whose reply timed out: the timer fails it with "Redis server response
timeout (3000 ms) occured for command" (org/redisson/command/CommandAsyncService.java@3.4.4:
641-648; retryAttempts = 3 and retryInterval = 1500 applied only to getting a connection). The
resend came with commit 1a08db75b in 3.10.0 (#1695, #1748).

A's renewal at 10 s is lost in the partition (9 s to 14 s); at 13 s it fails, the watchdog
logs "Can't update lock lock expiration" and, its entry removed from expirationRenewalMap,
never renews again (RedissonLock.java@3.4.4:214-221). The lock lapses at 30 s, B takes it while
A is still working: mutual exclusion is violated — where Redisson 3.43, resending at 14.5 s,
keeps it (locklab compare watchdog-partition-resend --scripts redisson@3.4.4 --scripts
redisson@3.43.0).]],
  protocol = "redisson",
  scripts = "redisson@3.4.4",
  nodes = 1,
  lease = false, wait = "60s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,       work = "45s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "9s", partition = { { "A" }, { "n1", "B" } }, duration = "5s" },
  },
  duration = "90s", seed = 1,
  expect = { mutual_exclusion = "violated", no_deadlock = "holds" },
}
