-- redisson-fair.lua — Redisson's RedissonFairLock, the client side, step by step after the Java
-- source (RedissonLock.tryLock(waitTime, leaseTime, unit) and the RedissonFairLock overrides;
-- redisson/src/main/java/org/redisson/RedissonFairLock.java at the tags the scripts name, and
-- the issues and pull requests cited below).
--
--   acquire(wait, lease) = tryLock(waitTime = wait, leaseTime = lease):
--     ttl = tryAcquire()                -- the fair acquire script, EVAL_LONG branch
--     nil -> acquired                   -- (no lease: start the watchdog)
--     time left <= 0 -> acquireFailed, return false
--     subscribe to MY channel redisson_lock__channel:{lock}:<lockName>  (per thread: the
--       unlock script publishes only to the queue head's channel)
--     loop: ttl = tryAcquire(); nil -> acquired
--           wait on my channel for ttl if 0 <= ttl < time left, else for the whole time left
--           time left <= 0 -> acquireFailed, return false
--     finally unsubscribe
--   release() = unlock(): the fair unlock script; nil -> IllegalMonitorStateException
--
-- The script returns how long to wait. Nobody publishes when a lease simply runs out, so a
-- waiter that is told a long wait sleeps that long even if the lock is free much sooner: the
-- ttl the script hands back is the whole story of #4705 (fairlock-lease-timeout scenarios).
--
-- The scores in redisson_lock_timeout:{lock} are deadlines on the CLIENTS' clocks
-- (currentTime = System.currentTimeMillis() in Java, ctx:now() here); the scripts compare them
-- with the caller's now. Client clock skew therefore moves queue deadlines.
--
-- Which Java behaviour goes with which script text (ctx:script tells the text):
--   acquire@3.4.4   ARGV = [lease, lockName, now + threadWaitTime, now]; threadWaitTime 5000
--   acquire@3.11.1  ARGV = [lease, lockName, threadWaitTime, now]; threadWaitTime 5000
--                   (tryLock's waitTime is NOT the wait slot before 3.13.3, #2883)
--   acquire@3.31.0, acquire@HEAD
--                   ARGV = [lease, lockName, wait, now]; wait = waitTime if > 0 (3.13.3, 3.17.1)
--                   else threadWaitTime = 300000 (60000*5 from 3.13.3; fairLockWaitTimeout 3.46.0)
--   acquire-failed@3.4.4 [lockName]; @3.5.5 [lockName, threadWaitTime]; @HEAD [lockName, wait]
--   unlock@3.11.1   KEYS = [lock, queue, timeouts, channel], ARGV = [0, lease, lockName, now]
--   unlock@HEAD     + KEYS[5] latch redisson_unlock_latch:{lock}:<requestId>,
--                   ARGV[5] = "PUBLISH", ARGV[6] = latch TTL; the latch is DELeted afterwards
--   renew@3.43.0 returns 1/0 and a failed call stops the watchdog; renew@HEAD (batched
--                LockTask) returns {1}/{0} and the shared task keeps running after an error
-- The acquire@3.11.1 text also serves releases 3.13.3 to 3.30.x, whose Java side already
-- passes tryLock's waitTime; a scenario for those releases says so with
-- options.redisson_version (e.g. "3.20.0").
--
-- How commands are sent (resends per release, the replica sync with WAIT from 3.12.5, the
-- NoSyncedSlavesException retry) is redisson.lua's executor, with its list of remaining
-- simplifications; the fair lock's own: the acquire script and unlock are never resent from
-- 3.37.0 (syncedEvalNoRetry, RedissonFairLock.java@3.43.0:80, 240), acquireFailed not from
-- 3.37.0 to 4.6.x (evalWriteSyncedNoRetryAsync) and again from 4.7.0 (syncedEvalWithRetry,
-- RedissonFairLock.java@HEAD:76; #5019). An error of tryLock's first tryAcquire propagates
-- without acquireFailed in every release; from 4.7.0 a RedisResponseTimeoutException in the wait
-- loop is caught, acquireFailed, false (RedissonLock.java@HEAD:276-280).
-- Remaining simplifications of this model: the renewal uses internalLockLeaseTime as sent
-- (Redisson's batched HEAD task sends lockWatchdogTimeout: the same unless a lease was given);
-- the HEAD latch TTL takes the EqualJitterDelay at its 2000 ms cap (Redisson draws 1000-2000 ms):
-- the latch key may live up to 4 s longer, and it is deleted right after anyway.
--
-- Options (scenario `options = { ... }`):
--   thread_wait_time        threadWaitTime ms (default per version, above)
--   lock_watchdog_timeout   Config.lockWatchdogTimeout ms (30000); renewals every 1/3 of it
--   redisson_version        the Java release (default: the scenario's `scripts` version)
--   retry_attempts, retry_interval   BaseConfig, overriding the release's (redisson.lua)
--   skip_unlock             SCENARIO DEVICE, not Redisson behaviour: release() does nothing
--                           and returns true, for "the holder never unlocks" (#4705's test)
local redisson = require("redisson")

local M = {}

-- redisson.lua's: RedissonObject.prefixName, "3.11.1" < "3.31.0" < "HEAD", "x@3.4.4" -> "3.4.4"
local prefix_name, version_before, version_of = redisson.prefix_name, redisson.version_before,
                                                redisson.version_of

-- The scenario options this model reads (checked before a run: another key, or another
-- type, is an error at the scenario).
M.OPTIONS = {
  redisson_version = "string",        -- the Java release (default: the scenario's `scripts`)
  retry_attempts = "integer",         -- BaseConfig.retryAttempts (redisson.lua, by version)
  retry_interval = "integer",         -- ms between resends (redisson.lua, by version)
  thread_wait_time = "integer",       -- ms (5000 before 3.13.3, else 300000)
  lock_watchdog_timeout = "integer",  -- ms (30000)
  skip_unlock = "boolean",            -- a scenario device: the holder never unlocks
}

function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local opt = cfg.options or {}
  local name = cfg.lock
  local queue_name = prefix_name("redisson_lock_queue", name)       -- threadsQueueName
  local timeout_set_name = prefix_name("redisson_lock_timeout", name) -- timeoutSetName
  local channel_name = prefix_name("redisson_lock__channel", name)   -- getChannelName()
  local lock_name = ctx:id()                                         -- getLockName(threadId)
  local uuid, thread_id = lock_name:match("^(.*):([^:]*)$")

  -- the scripts this scenario selects, and the Java release they stand for
  local acquire_id = ctx:script("redisson-fair/acquire")
  local failed_id = ctx:script("redisson-fair/acquire-failed")
  local unlock_id = ctx:script("redisson-fair/unlock")
  local renew_id = ctx:script("redisson/renew")
  local java = redisson.java_version(cfg)
  local exec = redisson.executor(ctx, cfg, java)     -- RedisExecutor's resends, by release
  local wait_arg_is_waittime = not version_before(java, "3.13.3")          -- #2883
  local thread_wait_time = opt.thread_wait_time
      or (version_before(java, "3.13.3") and 5000 or 300000)
  local watchdog_timeout = opt.lock_watchdog_timeout or 30000
  local internal_lock_lease_time = watchdog_timeout                  -- RedissonLock field
  local renewal = 0          -- bumped to stop the current watchdog (cancelExpirationRenewal)
  local lock = {}

  -- tryLockInnerAsync's `wait`: threadWaitTime, or (3.13.3+) tryLock's waitTime when > 0.
  local function wait_slot(wait_time)
    if wait_arg_is_waittime and wait_time and wait_time > 0 then return wait_time end
    return thread_wait_time
  end

  -- tryAcquire -> tryLockInnerAsync(..., EVAL_LONG): nil = acquired, else the ttl to wait;
  -- nil, err when Redis failed or did not answer
  local unlock_inner        -- below (release)
  local function try_acquire(wait_time, lease)
    -- ServiceManager.execute(tryAcquireAsync): again after a NoSyncedSlavesException, which
    -- handleNoSync answered with an unlock (redisson.lua, replica sync)
    return exec:retry_no_sync("tryAcquire", function()
      local current_time = ctx:now()
      local wait = wait_slot(wait_time)
      local argv
      if version_of(acquire_id) == "3.4.4" then
        argv = { lease, lock_name, current_time + wait, current_time }
      else
        argv = { lease, lock_name, wait, current_time }
      end
      local ttl, err = exec:synced_eval("fair acquire script", exec.scripts_no_retry, node,
                                        "redisson-fair/acquire", { name, queue_name, timeout_set_name }, argv)
      if err and exec.handle_no_sync and exec:is_no_sync(err) then
        ctx:log("the acquire script ran but no replica acknowledged it: unlocking (handleNoSync)")
        unlock_inner()
      end
      return ttl, err
    end)
  end

  -- acquireFailedAsync: leave the queue (and, by version, shift those behind me)
  local function acquire_failed(wait_time, why)
    local argv = { lock_name }
    local v = version_of(failed_id)
    if v == "3.5.5" then argv[2] = thread_wait_time
    elseif v ~= "3.4.4" then argv[2] = wait_slot(wait_time) end
    ctx:log("%s: acquireFailed leaves the queue (%s)", why or "wait budget spent", failed_id)
    exec:synced_eval("acquireFailed script", exec.acquire_failed_no_retry, node, "redisson-fair/acquire-failed",
                     { queue_name, timeout_set_name }, argv)
  end

  -- the watchdog: renew every lockWatchdogTimeout/3 while I hold the lock, the next round
  -- scheduled when the last one completes (RenewalTask.run -> schedule(), also after an error;
  -- before 3.44.0 renewExpiration() stopped on an error)
  local function schedule_expiration_renewal()
    renewal = renewal + 1
    local mine = renewal
    local batched = version_of(renew_id) ~= "3.43.0"
    ctx:spawn(function()
      while true do
        ctx:sleep(watchdog_timeout / 3)
        if renewal ~= mine then return end
        local res, err = exec:synced_eval("watchdog renewal", false, node, "redisson/renew", { name },
          { internal_lock_lease_time, lock_name })
        if renewal ~= mine then return end
        if err then
          ctx:log("watchdog: renewal failed (%s)%s", err,
            batched and "; the shared task tries again" or "; renewal stops")
          if not batched then return end
        else
          if batched then res = res[1] end
          if res ~= 1 then
            ctx:log("watchdog: the lock is no longer mine; renewal stops")
            return
          end
          ctx:log("watchdog: lease renewed to %d ms", internal_lock_lease_time)
        end
      end
    end)
  end

  -- tryAcquireAsync's epilogue: remember the lease, or start the watchdog
  local function acquired(lease_ms)
    if lease_ms then internal_lock_lease_time = lease_ms
    else schedule_expiration_renewal() end
    return true
  end

  -- A Redis error or timeout inside tryLock: the exception propagates to the caller, leaving
  -- my queue entry behind (#5019). Since 4.7.0 a RedisResponseTimeoutException in the wait
  -- loop (sub given) is caught: acquireFailed, return false (RedissonLock.java@HEAD:276-280);
  -- the first tryAcquire, before the subscription, is outside that try: its error still
  -- propagates without acquireFailed, and so does any other error in the loop.
  local function failed_by_error(err, wait_ms, sub)
    if sub and err == "timeout" and not version_before(java, "4.7.0") then
      ctx:log("the acquire script timed out in the wait loop: since 4.7.0 tryLock calls acquireFailed")
      acquire_failed(wait_ms, "since 4.7.0, on RedisResponseTimeoutException")
      ctx:unsubscribe(sub)
      return false, redisson.exception(err)
    end
    ctx:log("the acquire script failed (%s): tryLock throws; my queue entry stays behind", err)
    if sub then ctx:unsubscribe(sub) end
    return false, redisson.exception(err)
  end

  function lock.acquire(wait_ms, lease_ms)
    local lease = lease_ms or internal_lock_lease_time
    local time = wait_ms
    local current = ctx:now()
    local ttl, err = try_acquire(wait_ms, lease)
    if err then return failed_by_error(err, wait_ms) end
    if ttl == nil then return acquired(lease_ms) end
    time = time - (ctx:now() - current)
    if time <= 0 then
      acquire_failed(wait_ms)
      return false, "wait budget spent"
    end
    ctx:log("queued; the script says wait %d ms", ttl)

    current = ctx:now()
    local sub, serr = ctx:subscribe(node, channel_name .. ":" .. lock_name)
    if not sub then
      ctx:log("subscribe failed (%s)", tostring(serr))
      acquire_failed(wait_ms, "no subscription")
      return false, serr or "subscribe failed"
    end
    local function give_up()
      acquire_failed(wait_ms)
      ctx:unsubscribe(sub)
      return false, "wait budget spent"
    end
    time = time - (ctx:now() - current)
    if time <= 0 then return give_up() end

    while true do
      local current_time = ctx:now()
      ttl, err = try_acquire(wait_ms, lease)
      if err then return failed_by_error(err, wait_ms, sub) end
      if ttl == nil then
        ctx:unsubscribe(sub)
        return acquired(lease_ms)
      end
      time = time - (ctx:now() - current_time)
      if time <= 0 then return give_up() end

      current_time = ctx:now()
      local how_long
      if ttl >= 0 and ttl < time then
        how_long = ttl
        ctx:log("still queued; the script says wait %d ms", ttl)
      else
        how_long = time
        ctx:log("still queued; the script says %d ms, %s: waiting the %d ms left", ttl,
          ttl < 0 and "negative" or "no less than the time left", time)
      end
      local msg = ctx:wait(sub, how_long)
      if msg then ctx:log("woken by an unlock message; re-polling")
      else ctx:log("no message; re-polling") end
      time = time - (ctx:now() - current_time)
      if time <= 0 then return give_up() end
    end
  end

  -- unlockInnerAsync (fair) and, on success, the latch's DEL: res, err
  unlock_inner = function()
    local keys = { name, queue_name, timeout_set_name, channel_name }
    local argv = { 0, internal_lock_lease_time, lock_name, ctx:now() }
    local latch
    if version_of(unlock_id) ~= "3.11.1" then
      -- RedissonBaseLock.unlockInnerAsync: requestId = generateId(); latch TTL =
      -- (timeout + retryDelay(retryAttempts)) * retryAttempts, the EqualJitterDelay taken at
      -- its 2000 ms cap, retryAttempts = 4 (3.48.0+); (timeout + retryInterval) * 3 before
      local request_id = string.format("%08x%08x", ctx:unique(0, 0x7fffffff),
        ctx:unique(0, 0x7fffffff))
      latch = prefix_name("redisson_unlock_latch", name) .. ":" .. request_id
      keys[5] = latch
      argv[5] = "PUBLISH"
      local _, delay = exec.retry_delay(exec.attempts)    -- retryInterval, or the jitter's cap
      argv[6] = math.max((cfg.timeout + delay) * exec.attempts, 1)
    end
    local res, err = exec:synced_eval("unlock script", exec.scripts_no_retry, node, "redisson-fair/unlock", keys, argv)
    -- then DEL the latch (thenApply: on success only; Java fires it without waiting; a model
    -- coroutine spawned here would die with the workload before sending it, so it is sent in
    -- line)
    if latch and not err then exec:call("unlock latch DEL", node, "DEL", latch) end
    return res, err
  end

  -- unlockInnerAsync (fair): nil -> IllegalMonitorStateException, 0 -> still held, 1 -> gone
  function lock.release()
    if opt.skip_unlock then
      ctx:log("skip_unlock: the holder never unlocks (scenario device); the lease runs out")
      return true
    end
    local res, err = exec:retry_no_sync("unlock", unlock_inner)
    -- cancelExpirationRenewal(threadId, res): the watchdog stops, the lease resets
    renewal = renewal + 1
    if err then return false, redisson.exception(err) end
    if res == nil then
      return false, "IllegalMonitorStateException: attempt to unlock lock, not locked by "
        .. "current thread by node id: " .. uuid .. " thread-id: " .. thread_id
    end
    if res ~= 0 then internal_lock_lease_time = watchdog_timeout end   -- null or true (#5623)
    if res == 0 then ctx:log("unlocked one hold; still held (re-entered)") end
    if res == 1 then ctx:log("unlocked; the script wakes only the queue head, on its own channel") end
    return true
  end

  return lock
end

return M
