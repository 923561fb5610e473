-- stamp-carry.lua — the lock with a timestamp in its value, as the SETNX page of the Redis
-- documentation once described it ("Handling deadlocks": SETNX lock.foo <current Unix time +
-- lock timeout + 1>; a client that finds the lock taken GETs the value and, if that time has
-- passed by its own clock, takes the lock over with GETSET). The page itself later warned that
-- the pattern is unsafe; here it is a test of the model checker: a clock value written by one
-- client into a key and compared, later, with another client's clock. Whether B takes over
-- depends on the two readings' values, through a node: the search must branch on the order
-- of B's reading against A's deadline (tests/soundness.c). One try per acquire, no retry loop.
local M = {}

M.OPTIONS = {}

function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local key = cfg.lock
  local lock = {}

  function lock.acquire(wait_ms, lease_ms)
    local expires = ctx:now() + lease_ms + 1
    if ctx:call(node, "SETNX", key, tostring(expires)) == 1 then return true end
    local held = tonumber(ctx:call(node, "GET", key))
    if held and ctx:now() > held then
      local old = tonumber(ctx:call(node, "GETSET", key, tostring(ctx:now() + lease_ms + 1)))
      if old and ctx:now() > old then return true end -- taken over a lock that had expired
    end
    return false, "lock busy"
  end

  function lock.release()
    ctx:call(node, "DEL", key)
    return true
  end

  return lock
end

return M
