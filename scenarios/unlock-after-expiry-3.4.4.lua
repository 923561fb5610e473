-- unlock-after-expiry-3.4.4: the same expired unlock with the 3.4.4 scripts: silence.
return {
  name = "unlock after the lease ran out succeeds silently (Redisson 3.4.4, before #2018)",
  about = [[
The run of unlock-after-expiry with scripts = "redisson@3.4.4", the unlock script of
RedissonLock.java at tag redisson-3.4.4: "if (redis.call('exists', KEYS[1]) == 0) then
redis.call('publish', KEYS[2], ARGV[1]); return 1; end; ...". A takes the lock with a 5 s lease
and works for 8 s; at 8 s the lock is long gone, the script publishes an unlock message for a
lock nobody released and answers 1, and unlock() returns normally: A never learns that its
lease ran out under it. This is Redisson #2018 ("RLock.unlock method returns true if lock
doesn't exist"), fixed in 3.10.6 by removing the prelude; with the HEAD scripts the same unlock
throws IllegalMonitorStateException (unlock-after-expiry).
`locklab compare unlock-after-expiry --scripts 3.4.4 --scripts HEAD` shows both.]],
  protocol = "redisson",
  scripts = "redisson@3.4.4",
  nodes = 1,
  lease = "5s", wait = "10s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "8s" },
  },
  duration = "20s", seed = 1,
  expect = { mutual_exclusion = "holds", release_safety = "holds" },
}
