-- unlock-after-expiry: the lease ran out before the unlock (Redisson #2018), HEAD scripts.
return {
  name = "unlock after the lease ran out throws (Redisson #2018, HEAD)",
  about = [[
Redisson #2018, "RLock.unlock method returns true if lock doesn't exist": the old unlock
script began with "if the lock does not exist: PUBLISH 0, return 1", so unlocking a lock whose
lease had run out looked like a normal release. Commit fc58dd0b2 (3.10.6) removed that prelude:
the script now answers nil when my field is not in the hash, and unlock() throws
IllegalMonitorStateException ("attempt to unlock lock, not locked by current thread by node id:
... thread-id: 1"); RedissonLockTest.testExpire asserts it. A takes the lock with a 5 s lease
and works for 8 s: the lease runs out at 5 s, and A's unlock at 8 s throws, so A learns that
its critical section was not protected for its last 3 s. Nobody else wanted the lock, so
mutual exclusion and release safety hold; the lesson is in A's release line. Compare
unlock-after-expiry-3.4.4, the same run with the 3.4.4 scripts, where the unlock says 1.]],
  protocol = "redisson",
  nodes = 1,
  lease = "5s", wait = "10s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "8s" },
  },
  duration = "20s", seed = 1,
  expect = { mutual_exclusion = "holds", release_safety = "holds" },
}
