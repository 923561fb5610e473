-- set-nx-del.lua — an atomic acquire, but a careless release (the Redis documentation,
-- "Distributed Locks with Redis": "Using just DEL is not safe as a client may remove another
-- client's lock"):
--
--   acquire:  SET key value NX PX ttl     -- atomic: the lock and its lease together
--   release:  DEL key                     -- deletes the key whoever holds it now!
--
-- If a client's work outlives its lease, the key expires and another client takes the lock;
-- when the first one finishes, its plain DEL removes the *other* client's lock, and a third
-- client can walk in. The fix is to delete only if the key still holds my value
-- (distlock.lua's compare-and-delete script).
local M = {}

-- The scenario options this model reads: none (another key is an error at the scenario).
M.OPTIONS = {}

function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local key = cfg.lock
  local lock = {}

  function lock.acquire(wait_ms, lease_ms)
    assert(lease_ms, "set-nx-del needs a lease: set lease in the scenario")
    local deadline = ctx:instant() + wait_ms  -- an instant: see ctx:before
    local value = ctx:name() .. ":" .. ctx:unique(0, 999999999)
    while true do
      local ok = ctx:call(node, "SET", key, value, "NX", "PX", lease_ms)
      if ok == "OK" then return true end
      if not ctx:before(deadline) then return false, "lock busy" end
      ctx:sleep(50, 200)
    end
  end

  function lock.release()
    ctx:call(node, "DEL", key)     -- no check: this is the bug
    return true
  end

  return lock
end

return M
