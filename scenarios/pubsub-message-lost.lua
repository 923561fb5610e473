-- pubsub-message-lost: the unlock message to the waiter is lost; the ttl timeout saves it.
return {
  name = "the unlock message is lost; the waiter re-polls after the ttl",
  about = [[
Redisson's waiters do not rely on pub/sub alone (RedissonLock.java, tryLock): after a
failed attempt the lock script returns the lock's PTTL, and the waiter blocks on its
subscription's semaphore for at most min(ttl, time left) ("if (ttl >= 0 && ttl < time)
latch.tryAcquire(ttl) else latch.tryAcquire(time)"), then tries again whether or not a message
came. Pub/sub is fire-and-forget: a message that does not reach a subscriber is gone. Here A
holds the lock with a 10 s lease and releases it after 2 s; the link from n1 to B drops
everything for 200 ms around that unlock, so B never hears the PUBLISH 0. B sleeps on until
its timeout (the ttl it was given, about 9.9 s), re-tries, and takes the free lock: about 8 s
late, but no deadlock. (With a watchdog lock the same loss would cost up to 30 s; a lost message
is why the wait is bounded by the ttl, and why `lock()` without any wait still polls.)]],
  protocol = "redisson",
  nodes = 1,
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,       work = "2s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "1900ms", drop = { "n1", "B" }, probability = 1, duration = "200ms" },
  },
  duration = "30s", seed = 1,
  expect = { mutual_exclusion = "holds", no_deadlock = "holds" },
}
