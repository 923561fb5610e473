-- partitioned-holder: Redisson #3636, a holder cut off from Redis but not from its work.
return {
  name = "the holder loses Redis, keeps working (Redisson #3636)",
  about = [[
Redisson issue #3636 ("Redis Lock - question about edge case", 2021): "1. Worker1 acquires lock
with time of infinity (until manual release) 2. Worker1 loses connection to Redis instance,
while access to everything else still works and it continues operation on data ... 3. Lock gets
removed from the database, because it expired in 30s (lock watchdog timeout), because of no bump
by watchdog 4. Worker2 has good connection to Redis and is able to acquire the lock ... 6. Both
Worker1 and Worker2 now think they are holding the lock."

A takes the lock without a lease and works for 60 s. At 5 s a partition cuts A off from n1 (B
still reaches it) for 50 s. A's renewal at 10 s times out and is resent 4 times (RedisExecutor,
retryAttempts = 4 with EqualJitterDelay(1 s, 2 s)); at about 30 s the HEAD watchdog
(RenewalTask) logs "Can't update locks ... expiration" and tries again 10 s later (the 3.x
per-lock watchdog gave up after its resends instead). The lock lapses 30 s after its last renewal, B takes
it, and A, which never hears of it, goes on working. The partition heals at 55 s; at 60 s A
leaves its critical section and its unlock throws IllegalMonitorStateException: the first
sign, after the fact, that the lock was lost. Mutual exclusion is violated.]],
  protocol = "redisson",
  nodes = 1,
  lease = false, wait = "60s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,       work = "60s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "5s", partition = { { "A" }, { "n1", "B" } }, duration = "50s" },
  },
  duration = "90s", seed = 1,
  expect = { mutual_exclusion = "violated", no_deadlock = "holds" },
}
