-- make bench: Redisson's fair lock (RedissonFairLock) with a holder and three waiters queued
-- behind it, 1-2 ms delay windows, no fault: every order of the queue's messages. No Promela
-- model of it.
return {
  name = "bench: fair lock, three waiters",
  about = [[C1 holds 1 s; C2, C3, C4 ask at 100, 200 and 300 ms and queue: whatever the delays,
the queue serves them one at a time.]],
  protocol = "redisson-fair",
  nodes = 1, lease = "10s", wait = "30s",
  network = { delay = { "1ms", "2ms" } },
  clients = { { name = "C1", work = "1s" }, { name = "C2", start = "100ms", work = "1s" },
              { name = "C3", start = "200ms", work = "1s" }, { name = "C4", start = "300ms", work = "1s" } },
  duration = "15s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = { crash = { targets = { "C1", "C2", "C3", "C4" } } }, max_faults = 0 },
}
