-- watchdog-partition-resend: Redisson 3.43 resends a renewal that timed out, and keeps the lock.
return {
  name = "a 5 s partition heals before the renewal's resends run out (Redisson 3.43)",
  about = [[
Redisson resends a command whose reply does not come within `timeout` (3000 ms): in 3.15.2 to
3.47.x up to retryAttempts = 3 times, retryInterval = 1500 ms after each timeout
(org/redisson/command/RedisExecutor.java@3.43.0:445-461, isResendAllowed at 478;
config/BaseConfig.java@3.43.0:62-64). The watchdog's renewal is such a command
(RedissonBaseLock.renewExpirationAsync → commandExecutor.syncedEval, RedissonBaseLock.java
@3.43.0:179); only when the last resend has timed out does renewExpiration log "Can't update
lock {} expiration" and stop for good (RedissonBaseLock.java@3.43.0:143-145).

A takes the lock without a lease (30 s, renewed every 10 s) and works for 45 s. A partition cuts
A off from n1 from 9 s to 14 s. The renewal sent at 10 s is lost; at 13 s its reply is overdue
and at 14.5 s Redisson sends it again, after the partition healed: the lock is renewed to 30 s
and A keeps it. B, which has been waiting, takes it only after A's unlock. Mutual exclusion
holds. The same run with no resend (Redisson before 3.10.0: the response timeout fails the
command at once, CommandAsyncService.java@3.4.4:641-648) loses the lock at 30 s:
locklab compare watchdog-partition-resend --scripts redisson@3.4.4 --scripts redisson@3.43.0]],
  protocol = "redisson",
  scripts = "redisson@3.43.0",
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
  expect = { mutual_exclusion = "holds", no_deadlock = "holds" },
}
