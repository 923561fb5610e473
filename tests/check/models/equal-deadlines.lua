-- equal-deadlines.lua — a deliberately broken lock for the model checker's tests: Z enters
-- without the lock whenever key "ka" still exists. X sets "kb" (PX 1000) and then takes the
-- lock for good; Y, 10 ms later, sets "ka" (PX 990): on the default schedule both deadlines
-- fall on the same millisecond and one expiry removes both keys before Z looks. Only Y's
-- request arriving late moves "ka"'s deadline past Z's GET: the reductions must see that the
-- expiry caused by X's SET does not carry "ka"'s deadline (sim/node.c, node_schedule_expiry;
-- tests/cli/test_check.sh).
local M = {}

M.OPTIONS = {}

function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local key = cfg.lock
  local lock = {}

  function lock.acquire(wait_ms, lease_ms)
    local me = ctx:name()
    if me == "X" then
      ctx:call(node, "SET", "kb", "1", "PX", 1000)
      if ctx:call(node, "SET", key, me, "NX", "PX", lease_ms) == "OK" then return true end
    elseif me == "Y" then
      ctx:call(node, "SET", "ka", "1", "PX", 990)
    elseif type(ctx:call(node, "GET", "ka")) == "string" then
      return true -- the bug
    end
    return false, "lock busy" -- one try: no retry loop to multiply the paths
  end

  function lock.release()
    ctx:call(node, "DEL", key)
    return true
  end

  return lock
end

return M
