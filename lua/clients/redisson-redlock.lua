-- redisson-redlock.lua — Redisson's RedissonRedLock: one RedissonLock per master, taken by
-- RedissonMultiLock.tryLock with a tolerance for failed locks. Source: Redisson's
-- org.redisson.RedissonMultiLock and org.redisson.RedissonRedLock
-- (redisson/src/main/java/org/redisson/, HEAD; RedissonRedLock is @Deprecated since 3.12.5).
--
--   RedissonRedLock(lock1 .. lockN), each an RLock on a different master:
--     failedLocksLimit()         = N - (N/2 + 1)           -- 2 of 5 may fail
--     calcLockWaitTime(remain)   = max(remain / N, 1)      -- each lock gets a share of the wait
--     unlock()                   = unlockInner(locks)      -- unlock all, ignore exceptions
--
--   RedissonMultiLock.tryLock(waitTime, leaseTime):
--     newLeaseTime = leaseTime == -1 ? -1 : (waitTime == -1 ? leaseTime : 2 * waitTime)
--     remainTime = waitTime; lockWaitTime = calcLockWaitTime(remainTime)
--     failedLocksLimit = failedLocksLimit(); acquiredLocks = []
--     for lock in locks (an iterator that can be rewound):
--       acquired = lock.tryLock(min(lockWaitTime, remainTime), newLeaseTime)
--                  (RedisResponseTimeoutException: unlockInner([lock]), not acquired)
--       if acquired: acquiredLocks.add(lock)
--       else if N - |acquiredLocks| == failedLocksLimit(): break          -- enough: success
--       else if failedLocksLimit == 0:                                      -- too many failed
--         unlockInner(acquiredLocks); if waitTime == -1: return false
--         failedLocksLimit = failedLocksLimit(); acquiredLocks = []; rewind to the first lock
--       else failedLocksLimit--
--       remainTime -= elapsed; if remainTime <= 0: unlockInner(acquiredLocks); return false
--     if leaseTime != -1: expire every acquired lock to leaseTime
--     return true
--
-- Differences from the Redis docs' Redlock (redlock.lua), which are the lesson:
--   * no validity check: no "TTL - elapsed - drift", the lease is simply applied at the end;
--   * each lock is first taken with a lease of 2 * waitTime, the real lease comes afterwards
--     with an expire on every acquired lock;
--   * a busy lock is not skipped: tryLock on it subscribes and waits (pub/sub) for its share
--     of the wait time, and a node that does not answer costs the request timeout (3 s by
--     default, the scenario's `timeout`) and another one for the unlock that follows;
--   * on too many failures, it starts again from the first lock until the wait runs out.
--   * The final expire is sent here as a plain PEXPIRE per lock (Redisson sends it through
--     RedissonExpirable.expireAsync); the effect on the key is the same.
-- Each sub-lock is the RedissonLock of redisson.lua (its tryLock, pub/sub wait, watchdog and
-- unlock in the scenario's script version, its commands resent as its release does), pointed at
-- one master. No fencing token. A sub-lock is unlocked after its tryLock only when tryLock
-- THREW a RedisResponseTimeoutException (catch clause, RedissonMultiLock.java@HEAD:340-345); a
-- tryLock that caught the timeout in its wait loop and returned false (4.7.0+) is not.
-- The final expire is a writeAsync per lock, resent on a timeout.
-- Remaining simplifications: the sub-locks are tried one after the other, as the synchronous
-- tryLock does (the async variant sends in parallel); see redisson.lua for the executor's.
local redisson = require("redisson")

local M = {}

-- The scenario options: each lock is a RedissonLock, so redisson.lua's watchdog timeout.
M.OPTIONS = {
  lock_watchdog_timeout = "integer",
  redisson_version = redisson.OPTIONS.redisson_version,
  retry_attempts = redisson.OPTIONS.retry_attempts,
  retry_interval = redisson.OPTIONS.retry_interval,
}

function M.new(ctx, cfg)
  local nodes = ctx:nodes()
  local n = #nodes
  local locks = {}                                   -- new RedissonRedLock(lock1, ..., lockN)
  for i, node in ipairs(nodes) do
    locks[i] = redisson.create(ctx, cfg)
    locks[i].node = node                             -- the same name, on master i
  end
  local acquired_locks = {}

  local function failed_locks_limit() return n - (n // 2 + 1) end       -- RedissonRedLock
  local function calc_lock_wait_time(remain) return math.max(remain // n, 1) end

  -- unlockInner(locks): unlock each, wait for it, ignore exceptions.
  local function unlock_inner(list)
    for _, lock in ipairs(list) do lock:unlock() end
  end

  local function names(list)
    local t = {}
    for i, lock in ipairs(list) do t[i] = lock.node end
    return #t > 0 and table.concat(t, ",") or "none"
  end

  -- RedissonMultiLock.tryLock(waitTime, leaseTime). The workload always gives a wait time;
  -- lease nil stands for leaseTime -1 (each sub-lock then runs its watchdog).
  local function try_lock(wait, lease)
    local new_lease = nil
    if lease then new_lease = wait * 2 end           -- 2 * waitTime, the real lease comes last
    local time = ctx:now()
    local remain = wait
    local lock_wait = calc_lock_wait_time(remain)
    local failed_limit = failed_locks_limit()
    acquired_locks = {}
    local i = 1
    while i <= n do
      local lock = locks[i]
      -- catch (RedisResponseTimeoutException e): unlockInner([lock]) — only an exception
      -- tryLock threw; a tryLock that caught the timeout itself and returned false (4.7.0+,
      -- in its wait loop) is not unlocked (RedissonMultiLock.java@HEAD:340-345)
      local ok, why, thrown = lock:try_lock(math.min(lock_wait, remain), new_lease)
      if not ok and thrown and why:find("RedisResponseTimeoutException", 1, true) then
        unlock_inner({ lock })
      end
      if ok then
        acquired_locks[#acquired_locks + 1] = lock
        ctx:log("RedLock: locked %s (lease %d ms); %d of %d held", lock.node, new_lease or -1,
                #acquired_locks, n)
      else
        ctx:log("RedLock: could not lock %s (%s)", lock.node, tostring(why))
        if n - #acquired_locks == failed_locks_limit() then
          ctx:log("RedLock: %d of %d held (%s): enough, %d may fail", #acquired_locks, n,
                  names(acquired_locks), failed_locks_limit())
          break
        end
        if failed_limit == 0 then
          ctx:log("RedLock: too many failures: unlocking %s and starting again", names(acquired_locks))
          unlock_inner(acquired_locks)
          failed_limit = failed_locks_limit()
          acquired_locks = {}
          i = 0                                      -- rewind the iterator
        else
          failed_limit = failed_limit - 1
        end
      end
      remain = remain - (ctx:now() - time)
      time = ctx:now()
      if remain <= 0 then
        ctx:log("RedLock: wait time used up: unlocking %s", names(acquired_locks))
        unlock_inner(acquired_locks)
        return false, "wait time used up"
      end
      i = i + 1
    end
    if lease then                                    -- expireAsync(leaseTime) on each
      for _, lock in ipairs(acquired_locks) do lock.exec:call("expire", lock.node, "PEXPIRE", lock.name, lease) end
      ctx:log("RedLock: ACQUIRED on %s; lease set to %d ms on each (no validity check, no fencing token)",
              names(acquired_locks), lease)
    end
    return true
  end

  local lock = {}
  function lock.acquire(wait_ms, lease_ms) return try_lock(wait_ms, lease_ms) end

  -- RedissonRedLock.unlock(): unlockInner(locks) on ALL the locks, not only those acquired.
  function lock.release()
    local released = 0
    for _, l in ipairs(locks) do
      local ok, res = l:unlock()
      if ok and res == 1 then released = released + 1 end
    end
    ctx:log("RedLock: unlock on all %d masters, %d released a hold of mine", n, released)
    if released >= n // 2 + 1 then return true end
    return false, string.format("only %d of %d masters still held my lock", released, n)
  end

  return lock
end

return M
