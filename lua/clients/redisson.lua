-- redisson.lua — Redisson's reentrant lock, RedissonLock (org.redisson.RedissonLock and its base
-- class RedissonBaseLock), client side, followed step by step.
--
-- Library: Redisson (github.com/redisson/redisson), releases 3.4.4 to HEAD (4.7.0-62,
-- 66863978b). The release a run stands for is the scenario's `scripts` version (3.4.4 ..
-- 3.43.0, or HEAD), or options.redisson_version (for 3.44.0 .. 4.7.0, whose scripts are HEAD's).
-- Sources, under redisson/src/main/java/org/redisson/, read at the tags named: RedissonLock.java
-- (tryLock, subscribe + semaphore, unlock; 3.4.4, 3.11.1, 3.43.0, HEAD), RedissonBaseLock.java
-- (the watchdog 3.15.0-3.43.x, unlockInnerAsync and the latch, handleNoSync, evalWriteAsync with
-- syncSlaves at 3.15.0/3.16.7/3.17.0/3.17.5/3.20.0; RedissonLock.evalWriteAsync at 3.12.4/3.12.5/
-- 3.14.0/3.14.1, with CommandBatchService and CommandDecoder at 3.14.0), renewal/RenewalTask.java and LockTask.java (watchdog from
-- 3.44.0), command/RedisExecutor.java (3.12.0+) and CommandAsyncService.java (resends before
-- 3.12.0; syncedEval at HEAD), command/RedisCommonBatchExecutor.java, connection/
-- ServiceManager.java (execute: retry on NoSyncedSlavesException), config/BaseConfig.java,
-- Config.java and EqualJitterDelay.java (defaults), CHANGELOG.md.
--
-- Remaining simplifications, and their effect:
--   * a node that is down never answers unless the scenario says down = "refuses" (then the
--     connection is refused one round trip later and the executor retries it as
--     scheduleRetryTimeout does); the retry timer runs from the refusal, not from the start of
--     the attempt: each retry comes one round trip later than Redisson's;
--   * the script-and-WAIT batch goes as two requests, one after the other (Redisson pipelines
--     them in one write): one network round trip more per synced command (3.14.1+; in
--     3.12.5-3.14.0 both go at once, as in Redisson);
--   * 3.12.5-3.14.0: once the script has answered, nobody waits for the batch; a batch whose
--     WAIT then times out is not resent here (Redisson resends it, the script included, and
--     ignores what the second script answers): a lock re-taken on a promoted master by that
--     resend is not shown;
--   * availableSlaves starts as the scenario's replica count (Redisson reads connected_slaves
--     with INFO first, and probes WAIT/WAITAOF support once): the first synced command saves
--     those round trips; after a surprising count INFO is read as Redisson does;
--   * 3.14.1-3.19.x also re-read connected_slaves with INFO (they had it from the connection
--     manager's view of the replicas): the same count in these scenarios;
--   * the unlock latch's DEL is awaited (Redisson fires it and goes on): unlock() returns one
--     round trip later, later still if the DEL has to be resent;
--   * 3.48.0+: the unlock latch lives (timeout + 2000 ms) x 4, the upper end of Redisson's
--     draw (retryDelay.calcDelay(4) is 1000..2000 ms): the latch only stops a resent unlock
--     from running twice, and no scenario resends one 16 s or more after the first; a random
--     draw here would make the model checker try each of its 1001 values;
--   * the timeout error is RedisResponseTimeoutException in every release (before 3.10.0 it
--     was a RedisTimeoutException): only the text differs;
--   * subscribing waits at most the request timeout for the confirmation (Redisson: the wait
--     time left); a subscription that cannot be confirmed fails sooner when much wait is left.
--
--   tryLock(waitTime, leaseTime):                                 RedissonLock.tryLock
--     ttl = tryAcquire(leaseTime)              -- the lock script: nil = mine, else its PTTL
--     if ttl == nil: return true
--     time -= elapsed; if time <= 0: acquireFailed; return false
--     subscribe(redisson_lock__channel:{name})  -- wait at most `time` for the confirmation
--     try:
--       time -= elapsed; if time <= 0: acquireFailed; return false
--       loop:
--         ttl = tryAcquire(leaseTime); if ttl == nil: return true
--         time -= elapsed; if time <= 0: acquireFailed; return false
--         latch.tryAcquire(ttl >= 0 and ttl < time ? ttl : time)  -- an unlock message or the timeout
--         time -= elapsed; if time <= 0: acquireFailed; return false
--     finally: unsubscribe
--
--   tryAcquire(leaseTime):                                        RedissonLock.tryAcquireAsync
--     leaseTime > 0: lock script with the lease; internalLockLeaseTime = leaseTime
--     otherwise:     lock script with internalLockLeaseTime (= lockWatchdogTimeout, 30000),
--                    then scheduleExpirationRenewal: the watchdog
--
--   watchdog: every lockWatchdogTimeout / 3 (10 s) the renewal script: "if I still hold it,
--     PEXPIRE it to lockWatchdogTimeout"; 0 (not mine any more) cancels it; unlock cancels it.
--
--   unlock(): the unlock script; nil → IllegalMonitorStateException; 0 → still held (count
--     decremented); 1 → deleted and PUBLISH 0 to the channel, which wakes one waiter.
--
-- The module exports its pieces (create, facade, prefix_name, the Lock methods) so that
-- redisson-fenced.lua can replace the acquire script and keep the rest.
--
-- Options (scenario `options`): lock_watchdog_timeout (ms, default 30000, Config.java);
-- reentrant = N: acquire takes the lock N times (re-entry) and release unlocks N times;
-- redisson_version (the Java release), retry_attempts / retry_interval (BaseConfig, override
-- the release's), check_lock_synced_slaves (Config.checkLockSyncedSlaves, true).
local M = {}

-- The scenario options this model reads (checked before a run: another key, or another
-- type, is an error at the scenario). redisson-fenced and redisson-redlock add theirs.
M.OPTIONS = {
  lock_watchdog_timeout = "integer",  -- ms (30000)
  reentrant = "integer",              -- holds per acquisition (1)
  redisson_version = "string",        -- the Java release (default: the scenario's `scripts`)
  check_lock_synced_slaves = "boolean", -- Config.checkLockSyncedSlaves (true, 3.17.0+)
  retry_attempts = "integer",         -- BaseConfig.retryAttempts (by version: 3, or 4 from 3.48.0)
  retry_interval = "integer",         -- ms between resends, a ConstantDelay (by version)
}

M.UNLOCK_MESSAGE = 0               -- LockPubSub.UNLOCK_MESSAGE = 0L
M.LOCK_WATCHDOG_TIMEOUT = 30000    -- Config.lockWatchdogTimeout, "Default is 30000 milliseconds"

-- RedissonObject.prefixName: prefix:{name}, or prefix:name when name already has a hash tag.
function M.prefix_name(prefix, name)
  if string.find(name, "{", 1, true) then return prefix .. ":" .. name end
  return prefix .. ":{" .. name .. "}"
end

-- "redisson/unlock@HEAD" -> "HEAD"
function M.version_of(script_id)
  return string.match(script_id, "@(.+)$")
end

-- How a Java caller would see a failed request: the exception tryLock/unlock throws.
function M.exception(err)
  if type(err) == "string" and err:find("^%a[%w.]*Exception: ") then return err end
  if err == "timeout" then
    return "RedisResponseTimeoutException: Redis server response timeout occured"
  end
  return "RedisException: " .. tostring(err)
end

---------------------------------------------------------------------------------------------
-- How Redisson sends a command: the resends of RedisExecutor (org/redisson/command/
-- RedisExecutor.java from 3.12.0; CommandAsyncService.java before), by release. A command
-- whose reply has not come within `timeout` (BaseConfig.timeout, 3000 ms: the scenario's
-- `timeout`) is sent again, up to retryAttempts times, each resend retryDelay.calcDelay(attempt)
-- after the timeout; after the last one the caller gets RedisResponseTimeoutException.
--
--   before 3.10.0   no resend: the response timeout fails the command at once
--                   (CommandAsyncService.java@3.4.4:641-648, RedisTimeoutException);
--                   retryAttempts = 3 / retryInterval = 1500 apply to getting a connection only
--   3.10.0-3.15.1   3 resends, at once (commit 1a08db75b, #1695 #1748;
--                   CommandAsyncService.java@3.11.1:912-926, RedisExecutor.java@3.12.0:315-331)
--   3.15.2-3.47.x   3 resends, retryInterval = 1500 ms after the timeout (CHANGELOG 3.15.2:
--                   "retryInterval isn't used for next attempt if Redis client didn't send
--                   response"; RedisExecutor.java@3.43.0:445-461, BaseConfig.java@3.43.0:62-64)
--   3.48.0-HEAD     4 resends, retryDelay = EqualJitterDelay(1000 ms, 2 s) (BaseConfig.java
--                   @HEAD:62-67; RedisExecutor.java@HEAD:177 takes calcDelay(attempt) when an
--                   attempt starts, 467-484 resends after it): calcDelay(0) = 500..1000 ms,
--                   calcDelay(n >= 1) = 1000..2000 ms (EqualJitterDelay.java@HEAD:51-75:
--                   half of min(1000 * 2^n, 2000) plus a random part up to the other half),
--                   drawn here through the world's chooser (ctx:sleep(lo, hi))
-- Not every command may be resent (isResendAllowed, RedisExecutor.java@HEAD:500): from 3.37.0
-- the lock and unlock scripts go through syncedEvalNoRetry (commit 85be4d67a; RedissonLock
-- .java@3.43.0:219, 345), and the fair lock's acquireFailed too until 4.7.0 (RedissonFairLock
-- .java@4.6.0:76; syncedEvalWithRetry from 4.7.0, #5019): a resent lock script would count a
-- second hold. Renewals (syncedEval: RedissonBaseLock.java@3.43.0:179, renewal/LockTask.java
-- @HEAD:82), expire and the unlock latch's DEL (writeAsync) are resent in every release.

-- "3.11.1" < "3.31.0" < "HEAD": numeric part by part; a label counts as newest.
function M.version_before(v, than)
  if not v:match("^%d") then return false end
  local a, b = {}, {}
  for n in v:gmatch("%d+") do a[#a + 1] = tonumber(n) end
  for n in than:gmatch("%d+") do b[#b + 1] = tonumber(n) end
  for i = 1, math.max(#a, #b) do
    local x, y = a[i] or 0, b[i] or 0
    if x ~= y then return x < y end
  end
  return false
end

-- The Java release a run stands for: options.redisson_version, else the scenario's `scripts`
-- version ("HEAD" by default).
function M.java_version(cfg)
  local o = cfg.options or {}
  return tostring(o.redisson_version or cfg.scripts or "HEAD")
end

local Executor = {}
Executor.__index = Executor

-- The executor of one client, for the release `java` (options retry_attempts and
-- retry_interval override the release's defaults).
function M.executor(ctx, cfg, java)
  local o = cfg.options or {}
  local before = function(v) return M.version_before(java, v) end
  local ex = setmetatable({ ctx = ctx, java = java, timeout = cfg.timeout }, Executor)
  ex.resend = not before("3.10.0")
  ex.attempts = before("3.48.0") and 3 or 4
  if before("3.15.2") then ex.delay = function() return 0, 0 end
  elseif before("3.48.0") then ex.delay = function() return 1500, 1500 end
  else                                          -- EqualJitterDelay(1000, 2000).calcDelay
    ex.delay = function(attempt)
      local exp = attempt >= 1 and 2000 or 1000
      return exp // 2, exp
    end
  end
  if o.retry_attempts then ex.attempts = o.retry_attempts; ex.resend = true end
  if o.retry_interval then
    local i = o.retry_interval
    ex.delay = function() return i, i end
  end
  -- between connection attempts, NoSyncedSlavesException retries and in the unlock latch's
  -- TTL: retryInterval (1500 ms, or the option) before 3.48.0, where a resend may come at
  -- once; retryDelay, as for a resend, from 3.48.0
  if before("3.48.0") and not o.retry_interval then ex.retry_delay = function() return 1500, 1500 end
  else ex.retry_delay = ex.delay end
  ex.scripts_no_retry = not before("3.37.0")    -- lock and unlock: syncedEvalNoRetry
  ex.acquire_failed_no_retry = not before("3.37.0") and before("4.7.0")
  -- replica sync (below), by release:
  --   before 3.12.5   none: the scripts go alone
  --   3.12.5-3.14.0   "unawaited": WAIT goes with every lock, unlock and renewal script
  --                   (commit 60b261f93, #2669), but the caller is answered by the script's
  --                   own reply, not by the batch (RedissonLock.evalWriteAsync@3.14.0:345-352)
  --   3.14.1-3.16.6   "ignore": the answer waits for the batch, WAIT's count is not looked at
  --                   (commit 4f1a5c364, #3253); the batch is not resent in 3.14.1-3.15.0
  --                   (RedisCommonBatchExecutor.isResendAllowed, removed by 46cbb2e18, #3419)
  --   3.16.7-3.16.8   "exact": fails unless every replica acknowledged (#3994;
  --                   RedissonBaseLock.java@3.16.7:234, `!= availableSlaves`)
  --   3.17.0-3.17.4   "all": fails when fewer than all did (`< availableSlaves`, behind
  --                   checkLockSyncedSlaves: RedissonBaseLock.java@3.17.0:229-233)
  --   3.17.5-         "any": fails when none did ("None of slaves were synced",
  --                   RedissonBaseLock.java@3.17.5:223-227; CHANGELOG 3.17.5)
  --   3.20.0-         and the lock script's effect is undone (handleNoSync), the caller
  --                   retrying from 3.20.1
  ex.replicas = cfg.replicas or {}                 -- the scenario's: a master/slave config
  ex.available = {}                                -- MasterSlaveEntry.availableSlaves, per node
  for k, v in pairs(ex.replicas) do ex.available[k] = v end
  if before("3.12.5") then ex.sync = "none"
  elseif before("3.14.1") then ex.sync = "unawaited"
  elseif before("3.16.7") then ex.sync = "ignore"
  elseif before("3.17.0") then ex.sync = "exact"
  elseif o.check_lock_synced_slaves == false then ex.sync = "ignore"
  elseif before("3.17.5") then ex.sync = "all"
  else ex.sync = "any" end
  ex.sync_batch_resend = not before("3.15.1")
  ex.handle_no_sync = not before("3.20.0")
  ex.nosync_retry = not before("3.20.1")
  return ex
end

-- NoSyncedSlavesException (3.47.0+; IllegalStateException("None of slaves were synced") from
-- 3.17.5): CommandAsyncService.java@HEAD:1222-1226.
function Executor:no_sync_error()
  if M.version_before(self.java, "3.47.0") then
    return "IllegalStateException: None of slaves were synced"
  end
  return "NoSyncedSlavesException: None of slaves were synced. Try to increase slavesSyncTimeout "
      .. "setting or set checkLockSyncedSlaves = false."
end

function Executor:is_no_sync(err)
  return type(err) == "string" and err:find("None of slaves were synced", 1, true) ~= nil
end

-- A lock, unlock or renewal script on a master with replicas, as 3.12.5+ sends it: a batch
-- of the script and WAIT <replicas> 1000 (RedissonLock.createCommandBatchService@3.12.5:369-
-- 379, BatchOptions.syncSlaves(availableSlaves, 1 s); RedissonBaseLock.evalWriteAsync@3.15.0:
-- 205-235; CommandAsyncService.syncedEval@HEAD:1095-1232).
--   3.12.5-3.14.0: the caller's future is the script's own, completed when its reply is
--   decoded (CommandDecoder.completeResponse); the WAIT is on the wire but nobody waits for it.
--   3.14.1 on: the caller is answered when the whole batch is (response timeout = timeout +
--   1000: RedisCommonBatchExecutor.java@3.14.1:68-70), and the batch is one command for the
--   executor: not resent in 3.14.1-3.15.0, resent on a timeout from 3.15.1 even where the
--   script alone would not be. Then, by release (M.executor): the count ignored, or a failure
--   unless all ("Only k of n slaves were synced", the script's effect left in place), or
--   unless any ("None of slaves were synced") acknowledged. Without replicas (or before
--   3.12.5) the script is sent alone, as `no_retry` says.
function Executor:synced_eval(what, no_retry, node, script, keys, args)
  local ctx = self.ctx
  if self.sync == "none" or (self.replicas[node] or 0) == 0 then
    return self:eval(what, no_retry, node, script, keys, args)
  end
  local replicas = self.available[node]
  if replicas == nil then
    -- availableSlaves unknown (-1): INFO ALL, connected_slaves (CommandAsyncService.java@HEAD:1176-1195)
    local info, ierr = self:call("INFO ALL", node, "INFO", "ALL")
    if ierr then return nil, ierr end
    replicas = tonumber(string.match(info or "", "connected_slaves:(%d+)")) or 0
    self.available[node] = replicas
  end
  if replicas == 0 then
    -- a batch without WAIT (BatchOptions.sync(0, ...)): resent on a timeout like any batch
    return self:eval(what, false, node, script, keys, args)
  end
  if self.sync == "unawaited" then
    -- script and WAIT in one write; the script's reply answers; the WAIT is left to itself
    return self:send(string.format("%s + WAIT %d 1000", what, replicas), no_retry, function()
      local sid = ctx:send_eval(node, script, keys, args)
      ctx:send(node, "WAIT", replicas, 1000)
      while true do
        local id, v, e = ctx:receive(self.timeout)
        if id == nil then ctx:abandon("timeout"); return nil, "timeout" end
        if id == sid then
          ctx:abandon()                           -- the WAIT: nobody waits for its answer
          return v, e
        end
      end
    end)
  end
  local synced
  local resend_ok = self.sync_batch_resend
  local box, err = self:send(string.format("%s + WAIT %d 1000", what, replicas), not resend_ok, function()
    local res, e = ctx:eval(node, script, keys, args, self.timeout + 1000)
    if e then return nil, e end
    local n, we = ctx:call(node, "WAIT", replicas, 1000)
    if we then return nil, we end
    synced = n
    return { res }
  end)
  if err then return nil, err end
  -- another count than expected: read connected_slaves again next time (@HEAD:1218-1220)
  if synced ~= replicas then self.available[node] = nil end
  if (self.sync == "all" and synced < replicas) or (self.sync == "exact" and synced ~= replicas) then
    ctx:log("%s: WAIT: %d of %d replicas acknowledged", what, synced, replicas)
    return nil, string.format("IllegalStateException: Only %d of %d slaves were synced", synced, replicas)
  end
  if self.sync == "any" and synced == 0 then
    ctx:log("%s: WAIT %d 1000 answered 0: no replica acknowledged", what, replicas)
    return nil, self:no_sync_error()
  end
  return box[1]
end

-- ServiceManager.execute(supplier) (3.20.1+): the whole operation again after a
-- NoSyncedSlavesException, up to retryAttempts times, retryInterval (3.43.0,
-- ServiceManager.java@3.43.0:531-556) or retryDelay.calcDelay(attempt) (HEAD,
-- ServiceManager.java@HEAD:621-651) apart. op() returns res, err.
function Executor:retry_no_sync(what, op)
  local ctx = self.ctx
  local attempt = 0
  while true do
    local res, err = op()
    if not (err and self:is_no_sync(err)) or not self.nosync_retry or attempt >= self.attempts then
      return res, err
    end
    attempt = attempt + 1
    local lo, hi = self.retry_delay(attempt)
    ctx:log("%s: none of the replicas synced; again in %s ms (attempt %d of %d)", what,
            hi > lo and string.format("%d..%d", lo, hi) or string.format("%d", lo), attempt, self.attempts)
    if hi > lo then ctx:sleep(lo, hi) else ctx:sleep(lo) end
  end
end

-- Sends one command through `attempt_fn` (which sends it once and returns its reply or nil,
-- err) and resends it on a response timeout as the release does, unless `no_retry`.
-- `what` names it in the log. Returns the reply, or nil, err.
function Executor:send(what, no_retry, attempt_fn)
  local ctx = self.ctx
  local attempt, conn_attempt = 0, 0
  while true do
    local res, err = attempt_fn()
    if err == "connection refused" then
      -- No connection (a scenario with down = "refuses": the server process is dead, its host
      -- resets the connection): the attempt's retry timer (scheduleRetryTimeout) tries again,
      -- retryInterval (1500 ms) or, from 3.48.0, retryDelay.calcDelay(attempt) after the
      -- attempt began, up to retryAttempts times, in every release and for every command,
      -- the lock scripts included (no reply was lost, so nothing can count twice). Then the
      -- caller gets the connection's exception.
      if conn_attempt >= self.attempts then
        ctx:log("%s: RedisConnectionException: Unable to connect to Redis server after %d retry attempts",
                what, conn_attempt)
        return nil, err
      end
      local lo, hi = self.retry_delay(conn_attempt)
      conn_attempt = conn_attempt + 1
      ctx:log("%s: connection refused; retrying in %s ms (attempt %d of %d)", what,
              hi > lo and string.format("%d..%d", lo, hi) or string.format("%d", lo), conn_attempt, self.attempts)
      if hi > lo then ctx:sleep(lo, hi) else ctx:sleep(lo) end
      goto continue
    end
    if err ~= "timeout" then return res, err end
    if not self.resend or no_retry or attempt >= self.attempts then
      if attempt > 0 then
        ctx:log("%s: Redis server response timeout (%d ms) occurred after %d of %d retry attempts",
                what, self.timeout, attempt, self.attempts)
      end
      return nil, err
    end
    local lo, hi = self.delay(attempt)
    attempt = attempt + 1
    if hi > lo then
      ctx:log("%s: no reply within %d ms; resending in %d..%d ms (attempt %d of %d)",
              what, self.timeout, lo, hi, attempt, self.attempts)
      ctx:sleep(lo, hi)
    else
      ctx:log("%s: no reply within %d ms; resending%s (attempt %d of %d)", what, self.timeout,
              lo > 0 and string.format(" in %d ms", lo) or "", attempt, self.attempts)
      if lo > 0 then ctx:sleep(lo) end
    end
    ::continue::
  end
end

-- EVAL of a library script through the executor.
function Executor:eval(what, no_retry, node, script, keys, args)
  local ctx = self.ctx
  return self:send(what, no_retry, function() return ctx:eval(node, script, keys, args) end)
end

-- A plain command through the executor (writeAsync: always resendable).
function Executor:call(what, node, ...)
  local ctx, args = self.ctx, table.pack(...)
  return self:send(what, false, function() return ctx:call(node, table.unpack(args, 1, args.n)) end)
end

local Lock = {}
Lock.__index = Lock
M.Lock = Lock

-- new RedissonLock(commandExecutor, name): one per client. The fields mirror the Java ones.
function M.create(ctx, cfg)
  local opts = cfg.options or {}
  local self = setmetatable({}, Lock)
  self.ctx = ctx
  self.cfg = cfg
  self.node = ctx:nodes()[1]
  self.name = cfg.lock                                         -- getRawName()
  self.channel = M.prefix_name("redisson_lock__channel", cfg.lock) -- getChannelName()
  self.lock_name = ctx:id()                                    -- getLockName(threadId) = id:threadId
  self.id, self.thread_id = string.match(self.lock_name, "^(.*):(%d+)$")
  self.watchdog_timeout = opts.lock_watchdog_timeout or M.LOCK_WATCHDOG_TIMEOUT
  self.internal_lease = self.watchdog_timeout                  -- internalLockLeaseTime
  self.renewal = nil        -- the watchdog's entry (EXPIRATION_RENEWAL_MAP / LockEntry)
  self.java = M.java_version(cfg)
  self.exec = M.executor(ctx, cfg, self.java)
  return self
end

-- RedissonLock.tryLockInnerAsync: the lock script, EVAL_LONG.
-- Returns true (acquired or re-entered) | false, ttl (held by another; PTTL, -1 = no TTL)
--       | nil, err (no answer, or an error reply).
function Lock:try_lock_inner(lease)
  local ttl, err = self.exec:synced_eval("lock script", self.exec.scripts_no_retry, self.node, "redisson/lock",
                                         { self.name }, { lease, self.lock_name })
  if err then return nil, err end
  if ttl == nil then return true end
  return false, ttl
end

-- RedissonLock.tryAcquireAsync(waitTime, leaseTime, unit, threadId): the script with the
-- caller's lease, or with internalLockLeaseTime and then the watchdog.
-- Returns as try_lock_inner (plus whatever else it returned, e.g. a fencing token).
function Lock:try_acquire(lease)
  local ok, v = self.exec:retry_no_sync("tryAcquire", function()
    local a, b = self:try_lock_inner(lease or self.internal_lease)
    if a == nil and self.exec.handle_no_sync and self.exec:is_no_sync(b) then
      -- handleNoSync (3.20.0+; RedissonBaseLock.java@3.43.0:397-398): unlock what the script
      -- took, then throw (the unlock's own outcome is not looked at)
      self.ctx:log("the lock script ran but no replica acknowledged it: unlocking it again (handleNoSync)")
      self:unlock_inner()
    end
    return a, b
  end)
  if ok then
    if lease then
      self.internal_lease = lease                 -- internalLockLeaseTime = unit.toMillis(leaseTime)
    else
      self:schedule_expiration_renewal()
    end
  end
  return ok, v
end

-- How long to wait on the subscription's semaphore (RedissonLock.tryLock):
--   if (ttl >= 0 && ttl < time) latch.tryAcquire(ttl) else latch.tryAcquire(time)
function Lock:latch_timeout(ttl, time)
  if ttl >= 0 and ttl < time then return ttl end
  return time
end

-- RedissonLock.acquireFailed: a no-op for the plain lock (RedissonFairLock overrides it).
function Lock:acquire_failed()
end

-- RedissonLock.tryLock(waitTime, leaseTime, unit): true[, token] | false, reason[, thrown]
-- (thrown: tryLock threw the exception named in reason instead of returning false)
function Lock:try_lock(wait, lease)
  local ctx = self.ctx
  local time = wait
  local current = ctx:now()
  local ok, v = self:try_acquire(lease)
  if ok then return true, v end
  if ok == nil then return false, M.exception(v), true end   -- thrown to the caller

  time = time - (ctx:now() - current)
  if time <= 0 then
    self:acquire_failed()
    return false, "lock busy (ttl " .. v .. " ms) and no wait time left"
  end

  current = ctx:now()
  local sub, err = ctx:subscribe(self.node, self.channel)
  if not sub then                                -- subscribeFuture.get(time) failed
    self:acquire_failed()
    return false, "could not subscribe to " .. self.channel .. ": " .. M.exception(err)
  end
  ctx:log("the lock is held by another (ttl %d ms): subscribed to %s", v, self.channel)
  local result, why, thrown = self:wait_for_unlock(sub, time - (ctx:now() - current), lease)
  ctx:unsubscribe(sub)                           -- finally { unsubscribe(...) }
  return result, why, thrown
end

-- The while (true) loop of tryLock, inside try/finally; `time` is the budget left.
function Lock:wait_for_unlock(sub, time, lease)
  local ctx = self.ctx
  if time <= 0 then
    self:acquire_failed()
    return false, "wait budget spent while subscribing"
  end
  while true do
    local current = ctx:now()
    local ok, v = self:try_acquire(lease)
    if ok then return true, v end
    if ok == nil then
      -- 4.7.0+ (#5019, RedissonLock.java@HEAD:276-280): a RedisResponseTimeoutException here
      -- is caught: acquireFailed, return false. Any other error, and any error before 4.7.0,
      -- propagates from tryLock (no acquireFailed; the finally block unsubscribes).
      if v == "timeout" and not M.version_before(self.java, "4.7.0") then
        self:acquire_failed()
        return false, M.exception(v)
      end
      return false, M.exception(v), true
    end
    local ttl = v
    time = time - (ctx:now() - current)
    if time <= 0 then
      self:acquire_failed()
      return false, "wait budget spent (lock still held, ttl " .. ttl .. " ms)"
    end

    current = ctx:now()
    local t = self:latch_timeout(ttl, time)
    ctx:log("waiting up to %d ms for an unlock message (lock ttl %d ms, wait budget left %d ms)",
            t, ttl, time)
    local msg = ctx:wait(sub, t)
    if msg then
      ctx:log("woken by an unlock message (%s) after %d ms; trying again", msg, ctx:now() - current)
    else
      ctx:log("no unlock message within %d ms; trying again", t)
    end
    time = time - (ctx:now() - current)
    if time <= 0 then
      self:acquire_failed()
      return false, "wait budget spent"
    end
  end
end

---------------------------------------------------------------------------------------------
-- The watchdog (RedissonBaseLock.scheduleExpirationRenewal / renewExpiration up to 3.43.x;
-- renewal.LockTask + RenewalTask since 3.44.0).

-- scheduleExpirationRenewal(threadId): the first hold creates the entry and starts the timer;
-- a re-entrant hold only counts itself in (ExpirationEntry / LockEntry.addThreadId).
function Lock:schedule_expiration_renewal()
  local entry = self.renewal
  if entry then
    entry.holds = entry.holds + 1
    return
  end
  entry = { holds = 1 }
  self.renewal = entry
  self.ctx:spawn(function() self:watchdog(entry) end)
end

-- cancelExpirationRenewal(threadId, unlockResult): one hold fewer; the timer stops with the
-- last one. `all` (threadId == null) stops it outright. internalLockLeaseTime goes back to
-- the watchdog timeout when the unlock result is null or true (3.27.2, #5623).
function Lock:cancel_expiration_renewal(unlock_result, all)
  local entry = self.renewal
  if entry then
    entry.holds = entry.holds - 1
    if all or entry.holds <= 0 then
      entry.cancelled = true
      self.renewal = nil
    end
  end
  if unlock_result == nil or unlock_result == 1 then self.internal_lease = self.watchdog_timeout end
end

-- One renewal: the renewal script of the selected version. Both forms take
-- KEYS = {lock}, ARGV = {lease, lockName} for a single lock:
--   3.43.0 (renewExpirationAsync, per lock): returns 1 | 0;
--   HEAD (LockTask, batched up to lockWatchdogBatchSize = 100 locks; this client has one):
--        returns {1} | {0}.
-- Returns true (renewed) | false (not mine any more) | nil, err.
function Lock:renew_expiration(batched)
  local res, err = self.exec:synced_eval("watchdog renewal", false, self.node, "redisson/renew", { self.name },
                                         { self.watchdog_timeout, self.lock_name })
  if err then return nil, err end
  if batched then return res[1] == 1 end
  return res == 1
end

-- The watchdog's timer, as a coroutine of this client (a GC pause freezes it too).
--   3.43.0 renewExpiration: newTimeout(lockWatchdogTimeout / 3); on completion:
--     error -> log.error("Can't update lock {} expiration"); EXPIRATION_RENEWAL_MAP.remove:
--              the watchdog STOPS for good;
--     true  -> renewExpiration() again;  false -> cancelExpirationRenewal(null).
--   HEAD RenewalTask.run: every lockWatchdogTimeout / 3; on completion:
--     error -> log.error("Can't update locks {} expiration"); schedule(): it KEEPS TRYING;
--     a lock whose result is 0 -> cancelExpirationRenewal(name, null).
function Lock:watchdog(entry)
  local ctx = self.ctx
  local batched = M.version_of(ctx:script("redisson/renew")) == "HEAD"
  local period = self.watchdog_timeout // 3
  while true do
    ctx:sleep(period)
    if entry.cancelled then return end           -- unlocked: the timeout was cancelled
    local renewed, err = self:renew_expiration(batched)
    if entry.cancelled then return end
    if renewed == nil then
      if batched then
        ctx:log("watchdog: Can't update locks [%s] expiration (%s); will try again in %d ms",
                self.name, M.exception(err), period)
      else
        ctx:log("watchdog: Can't update lock %s expiration (%s); the watchdog stops",
                self.name, M.exception(err))
        entry.cancelled = true                   -- EXPIRATION_RENEWAL_MAP.remove(getEntryName())
        if self.renewal == entry then self.renewal = nil end
        return
      end
    elseif renewed then
      ctx:log("watchdog renewed the lease to %d ms", self.watchdog_timeout)
    else
      ctx:log("watchdog: the lock is no longer mine (renewal returned 0); renewal cancelled")
      self:cancel_expiration_renewal(false, true)
      return
    end
  end
end

---------------------------------------------------------------------------------------------
-- unlock()

-- ServiceManager.generateId(): 16 random bytes, hex.
function Lock:generate_id()
  local parts = {}
  for i = 1, 4 do parts[i] = string.format("%08x", self.ctx:unique(0, 0xffffffff)) end
  return table.concat(parts)
end

-- RedissonBaseLock.unlockInnerAsync(threadId): how long the unlock latch lives. 3.24.0-3.47.x:
--   (timeout + retryInterval) * retryAttempts = (3000 + 1500) * 3  (RedissonBaseLock.java@3.43.0:348)
-- 3.48.0+: (timeout + retryDelay.calcDelay(retryAttempts)) * retryAttempts, with BaseConfig
-- timeout (here the scenario's request timeout), retryAttempts = 4 and retryDelay =
-- EqualJitterDelay(1 s, 2 s): at attempt 4 the delay is capped at 2000 ms, of which half is
-- fixed and half random, so 1000..2000 ms (RedissonBaseLock.java@HEAD:222-235).
function M.latch_timeout(ctx, cfg, exec)
  local _, hi = exec.retry_delay(exec.attempts)
  return math.max((cfg.timeout + hi) * exec.attempts, 1)   -- the draw's upper end (see the header)
end

function Lock:unlock_latch_timeout()
  return M.latch_timeout(self.ctx, self.cfg, self.exec)
end

-- RedissonLock.unlockInnerAsync in the selected version's calling convention.
-- Returns the script's answer (1, 0 or nil) or nil, err.
function Lock:unlock_inner(request_id)
  local ctx = self.ctx
  if M.version_of(ctx:script("redisson/unlock")) == "HEAD" then
    -- 3.24.0+: KEYS = {name, channel, latch}, ARGV = {0, internalLockLeaseTime, lockName,
    -- publish command, latch timeout}. PUBLISH: no sharded pub/sub outside a cluster.
    local latch = M.prefix_name("redisson_unlock_latch", self.name) .. ":" .. (request_id or self:generate_id())
    local res, err = self.exec:synced_eval("unlock script", self.exec.scripts_no_retry, self.node,
      "redisson/unlock", { self.name, self.channel, latch },
      { M.UNLOCK_MESSAGE, self.internal_lease, self.lock_name, "PUBLISH", self:unlock_latch_timeout() })
    if not err then
      -- thenApply: writeAsync(DEL latch), resent on a timeout like any writeAsync. Redisson
      -- does not wait for this DEL; here unlock() does (one round trip more), so that the DEL
      -- is not lost when the workload ends right after the release and the latch key does
      -- not linger for its 16-20 s.
      self.exec:call("unlock latch DEL", self.node, "DEL", latch)
    end
    return res, err
  end
  -- 3.4.4 and 3.10.6-3.23.x: KEYS = {name, channel}, ARGV = {0, internalLockLeaseTime, lockName}
  return self.exec:synced_eval("unlock script", self.exec.scripts_no_retry, self.node, "redisson/unlock",
                               { self.name, self.channel }, { M.UNLOCK_MESSAGE, self.internal_lease, self.lock_name })
end

-- RedissonLock.unlock() -> unlockAsync0: run the script, cancelExpirationRenewal(threadId,
-- opStatus) whatever happened, then throw on an error or on null.
-- Returns true, 1|0 | false, reason.
function Lock:unlock()
  -- unlockAsync: ServiceManager.execute(() -> unlockAsync0(...)), again after a
  -- NoSyncedSlavesException (RedissonBaseLock.java@3.43.0:284-286); at HEAD with the same
  -- requestId, so the latch answers a repeat
  local request_id = nil
  if self.exec.sync == "any" and (self.exec.replicas[self.node] or 0) > 0
     and M.version_of(self.ctx:script("redisson/unlock")) == "HEAD" then
    request_id = self:generate_id()            -- one requestId for every attempt
  end
  local res, err = self.exec:retry_no_sync("unlock", function() return self:unlock_inner(request_id) end)
  if M.version_before(self.java, "3.8.1") then
    -- before 3.8.1 (#1602, commit f5e3618b3) unlock() cancelled the renewal only when the
    -- script returned true (RedissonLock.java@3.4.4:363-370): after a failed unlock the
    -- watchdog goes on renewing a lock its holder has given up on
    if res == 1 then self:cancel_expiration_renewal(res, true)
    elseif err and self.renewal then
      self.ctx:log("the unlock failed (%s): before 3.8.1 (#1602) the watchdog keeps renewing the lock",
                   M.exception(err))
    end
  else
    self:cancel_expiration_renewal(res)
  end
  if err then return false, M.exception(err) end
  if res == nil then
    local why = "IllegalMonitorStateException: attempt to unlock lock, not locked by current thread"
             .. " by node id: " .. self.id .. " thread-id: " .. self.thread_id
    self.ctx:log("the unlock script returned nil: this lock is not mine (any more), so unlock() throws")
    return false, why
  end
  return true, res
end

---------------------------------------------------------------------------------------------
-- The object workload.lua drives: acquire = tryLock(wait, lease) (N times with `reentrant`),
-- release = unlock() (as many times).
function M.facade(self, cfg)
  local ctx = self.ctx
  local holds = (cfg.options or {}).reentrant or 1
  local lock = {}

  function lock.acquire(wait_ms, lease_ms)
    local ok, token = self:try_lock(wait_ms, lease_ms)
    if not ok then return false, token end
    for n = 2, holds do                          -- re-entry: the same hash field, count n
      local again, t = self:try_lock(wait_ms, lease_ms)
      if not again then return false, "re-entry failed: " .. tostring(t), "reentry_failed" end
      token = t
      ctx:log("re-entered the lock: hold count %d", n)
      ctx:lock_unit("reentered")
    end
    return true, token
  end

  function lock.release()
    for n = holds, 1, -1 do
      local ok, res = self:unlock()
      if not ok then return false, res end
      if res == 0 then ctx:log("unlock: hold count now %d, the lock stays mine", n - 1) end
      if n > 1 then ctx:lock_unit("inner_released") end
    end
    return true
  end

  return lock
end

function M.new(ctx, cfg)
  return M.facade(M.create(ctx, cfg), cfg)
end

return M
