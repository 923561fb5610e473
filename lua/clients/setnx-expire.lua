-- setnx-expire.lua — the naive lock in two commands, from before SET had its NX and PX options
-- (Redis 2.6.12; see the SET command documentation, redis.io/docs/latest/commands/set/):
--
--   acquire:  SETNX key value        -- 1 = mine
--             EXPIRE key ttl         -- a second, separate command
--   release:  DEL key
--
-- The two steps are not atomic: a client that crashes after SETNX and before EXPIRE leaves a
-- key with no TTL, and nobody can ever take the lock again (a deadlock). `SET key value NX PX
-- ttl` (set-nx-del.lua, distlock.lua) does both in one command.
local M = {}

-- The scenario options this model reads: none (another key is an error at the scenario).
M.OPTIONS = {}

function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local key = cfg.lock
  local lock = {}

  function lock.acquire(wait_ms, lease_ms)
    assert(lease_ms, "setnx-expire needs a lease: set lease in the scenario")
    local deadline = ctx:instant() + wait_ms  -- an instant: see ctx:before
    while true do
      local won = ctx:call(node, "SETNX", key, ctx:name())
      if won == 1 then
        -- The gap: if this client dies here, the key never gets its TTL.
        ctx:call(node, "EXPIRE", key, math.ceil(lease_ms / 1000))
        return true
      end
      if not ctx:before(deadline) then return false, "lock busy" end
      ctx:sleep(50, 200)
    end
  end

  function lock.release()
    ctx:call(node, "DEL", key)
    return true
  end

  return lock
end

return M
