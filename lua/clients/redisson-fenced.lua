-- redisson-fenced.lua — Redisson's RedissonFencedLock (org.redisson.RedissonFencedLock, since
-- 3.19.0, #4684; redisson/src/main/java/org/redisson/RedissonFencedLock.java): a RedissonLock
-- whose every acquisition or re-entry also increments a token counter,
-- redisson_lock_token:{name}. The holder sends the token with every write, and the resource
-- accepts a token only if it is at least the highest it has seen (fencing tokens: Martin
-- Kleppmann, "How to do distributed locking", 2016; 33 is refused once 34 has written).
--
--   tryLockAndGetToken(waitTime, leaseTime)   -> the token, or null when the wait ran out
--     the same loop as RedissonLock.tryLock (subscribe, wait min(ttl, time left), retry),
--     with the token form of the script: {-1, token} = mine, {pttl, -1} = held by another.
--   unlock and the watchdog are RedissonLock's (redisson.lua).
--
-- Commands are sent as redisson.lua's executor does (resends per release, WAIT with replicas):
-- the fenced lock's acquire script goes through the same syncedEvalNoRetry as RedissonLock's
-- (RedissonFencedLock.java@HEAD:107). Its simplifications are redisson.lua's.
--
-- Option token_start = N: before its first acquisition each client runs
-- SET redisson_lock_token:{name} N NX, so the counter starts at N as if N acquisitions had
-- happened before the scenario (the first client's NX wins; the next token is N + 1).
local redisson = require("redisson")

local M = {}

-- The scenario options: redisson.lua's, and token_start.
M.OPTIONS = { token_start = "integer" }
for k, v in pairs(redisson.OPTIONS) do M.OPTIONS[k] = v end

function M.new(ctx, cfg)
  local self = redisson.create(ctx, cfg)
  local token_start = (cfg.options or {}).token_start
  local started = false
  -- new RedissonFencedLock: tokenName = prefixName("redisson_lock_token", getRawName())
  self.token_name = redisson.prefix_name("redisson_lock_token", cfg.lock)

  -- RedissonFencedLock.tryLockInnerAsync(leaseTime, unit, threadId): EVAL_LONG_LIST,
  -- KEYS = {name, tokenName}, ARGV = {lease, lockName}.
  -- Returns true, token | false, ttl | nil, err (as redisson.lua's try_lock_inner).
  function self:try_lock_inner(lease)
    if token_start and not started then
      started = true
      local set = ctx:call(self.node, "SET", self.token_name, token_start, "NX")
      if set == "OK" then
        ctx:log("token counter %s starts at %d (as if %d locks had been taken before)",
                self.token_name, token_start, token_start)
      end
    end
    local res, err = self.exec:synced_eval("lock script", self.exec.scripts_no_retry, self.node,
                                           "redisson-fenced/acquire", { self.name, self.token_name },
                                           { lease, self.lock_name })
    if err then return nil, err end
    if res[1] == -1 then return true, res[2] end
    return false, res[1]
  end

  -- tryLockAsync (the fenced lock's own loop): t = time; if (ttl < time) t = ttl — unlike
  -- RedissonLock.tryLock there is no ttl >= 0 guard, so a lock without a TTL (-1) makes the
  -- waiter poll at once.
  function self:latch_timeout(ttl, time)
    if ttl < time then return math.max(ttl, 0) end
    return time
  end

  return redisson.facade(self, cfg)
end

return M
