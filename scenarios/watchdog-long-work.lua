-- watchdog-long-work: no lease, 45 s of work; the watchdog keeps the lock alive.
return {
  name = "the watchdog keeps a lock alive through long work",
  about = [[
Redisson's lock() / tryLock(wait) without a lease (the "lock watchdog" of the Redisson
documentation; RedissonBaseLock.java, scheduleExpirationRenewal): the lock script sets the lock
with internalLockLeaseTime = lockWatchdogTimeout = 30 s, and a watchdog timer renews it every
lockWatchdogTimeout / 3 = 10 s ("if the hash still has my field, PEXPIRE 30000") for as long as
the holder runs. A works for 45 s, longer than the 30 s timeout: the watchdog renews at 10, 20,
30 and 40 s, so the lock never lapses. B, which finds the lock taken, subscribes to
redisson_lock__channel:{lock} and waits on it for min(ttl, time left) at a time; each time the
wait runs out it re-tries and gets a fresh PTTL back (the renewals keep pushing it out). A's
unlock deletes the lock and publishes 0, which wakes B at once. Mutual exclusion holds.]],
  protocol = "redisson",
  nodes = 1,
  lease = false, wait = "60s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,       work = "45s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  duration = "90s", seed = 1,
  expect = { mutual_exclusion = "holds", no_deadlock = "holds" },
}
