-- unlock-failed-watchdog-3.4.4: an unlock that fails leaves 3.4.4's watchdog renewing forever.
return {
  name = "a failed unlock leaves the watchdog renewing: nobody gets the lock again (Redisson 3.4.4)",
  about = [[
A holds a Redisson lock taken with lock() (the watchdog renews its 30 s lease every 10 s) and
unlocks at 5 s, while it is cut off from Redis (4.9 s to 8.9 s): the unlock times out. A's
process lives on (it does other work for two minutes), and with it the watchdog's timer. In
Redisson 3.4.4 the watchdog's renewal task is cancelled only when the unlock succeeds
(RedissonLock.unlock@3.4.4, cancelExpirationRenewal after the script's reply), so it goes on
renewing once the partition heals: the lock of a client that has let go never expires, and B
waits for ever — a deadlock. Redisson 3.8.1 cancels the renewal whatever the unlock's outcome
(issue #1602): locklab compare unlock-failed-watchdog-3.4.4 --scripts redisson@3.4.4
--scripts redisson@3.11.1 shows the lock lapsing at 30 s and B taking it.]],
  protocol = "redisson",
  scripts = "redisson@3.4.4",
  nodes = 1,
  lease = false, wait = "150s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,       work = "5s", rounds = 2, think = "120s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "4900ms", partition = { { "A" }, { "n1", "B" } }, duration = "4s" },
  },
  duration = "180s", seed = 1,
  expect = { mutual_exclusion = "holds", no_deadlock = "violated" },
}
