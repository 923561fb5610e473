-- watchdog-gives-up-3.43: after its resends, 3.43's watchdog stops; HEAD's tries again.
return {
  name = "the renewal's resends run out: Redisson 3.43's watchdog stops for good",
  about = [[
What happens when a renewal fails after all its resends differs by release. Up to 3.43.x the
per-lock watchdog (RedissonBaseLock.renewExpiration) logs "Can't update lock {} expiration" and
removes its entry from EXPIRATION_RENEWAL_MAP: it never renews again (RedissonBaseLock.java
@3.43.0:118-155, the error branch at 138-145). From 3.44.0 one shared RenewalTask logs "Can't
update locks {} expiration" and schedules itself again lockWatchdogTimeout / 3 later
(renewal/RenewalTask.java@HEAD:170-183).

A takes the lock without a lease, with lockWatchdogTimeout = 90 s (renewals every 30 s), and works
for 120 s. A partition cuts A off from n1 from 29 s to 50 s. The renewal at 30 s and its three
resends (3000 ms timeout + 1500 ms each, RedisExecutor.java@3.43.0:445-461: 34.5 s, 39 s,
43.5 s) are all lost; at 46.5 s the watchdog gives up. The partition heals at 50 s, but nothing
renews the lock again: it lapses at 90 s, B takes it while A still works. Mutual exclusion is
violated. At HEAD the task tries again 30 s after its last failure, before the lock lapses, and A
keeps it: locklab compare watchdog-gives-up-3.43 --scripts redisson@3.43.0 --scripts HEAD]],
  protocol = "redisson",
  scripts = "redisson@3.43.0",
  nodes = 1,
  lease = false, wait = "120s",
  options = { lock_watchdog_timeout = 90000 },
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,       work = "120s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "29s", partition = { { "A" }, { "n1", "B" } }, duration = "21s" },
  },
  duration = "150s", seed = 1,
  expect = { mutual_exclusion = "violated", no_deadlock = "holds" },
}
