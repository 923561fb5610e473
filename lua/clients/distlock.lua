-- distlock.lua — the single-instance lock of the Redis documentation ("Distributed Locks with
-- Redis", the "Correct Implementation with a Single Instance";
-- redis.io/docs/latest/develop/use/patterns/distributed-locks/):
--
--   acquire:  SET resource my_random_value NX PX ttl     -- only if absent, with a lease
--   release:  compare-and-delete script                   -- only if it still holds my value
--   retry:    after a random delay, until the wait budget runs out
--
-- The random value makes the release safe: a client whose lease ran out cannot delete the
-- lock that another client took since. Nothing stops it from still *working*, though: that
-- is the lesson of the GC-pause scenarios.
local M = {}

-- The scenario options this model reads (checked before a run: another key, or another
-- type, is an error at the scenario).
M.OPTIONS = {
  retry_min = "integer",   -- ms, the shortest pause between attempts (50)
  retry_max = "integer",   -- ms, the longest (200)
}

function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local key = cfg.lock
  local retry_min = cfg.options.retry_min or 50     -- ms
  local retry_max = cfg.options.retry_max or 200    -- ms
  local value                                       -- my random value while I hold the lock
  local lock = {}

  function lock.acquire(wait_ms, lease_ms)
    assert(lease_ms, "distlock needs a lease: set lease in the scenario")
    local deadline = ctx:instant() + wait_ms  -- an instant: see ctx:before
    value = ctx:name() .. ":" .. ctx:unique(0, 999999999)   -- unique enough: my name + a random number
    while true do
      local ok, err = ctx:call(node, "SET", key, value, "NX", "PX", lease_ms)
      if ok == "OK" then return true end
      if not ctx:before(deadline) then return false, err or "lock busy" end
      ctx:sleep(retry_min, retry_max)
      if not ctx:before(deadline) then return false, "wait budget spent" end
    end
  end

  function lock.release()
    local deleted, err = ctx:eval(node, "distlock/release", { key }, { value })
    value = nil
    if deleted == 1 then return true end
    return false, err or "the lock was no longer mine"
  end

  return lock
end

return M
