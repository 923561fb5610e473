-- deadline-absolute: a deliberately broken lock for the model checker's tests: Z enters
-- once key "ka" is gone; Y gives it an absolute deadline (PEXPIREAT), which does not move with
-- Y's request (store_set_expire_fixed).
local M = {}
M.OPTIONS = {}
function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local key = cfg.lock
  local lock = {}
  function lock.acquire(wait_ms, lease_ms)
    local me = ctx:name()
    if me == "X" then
      ctx:call(node, "SET", "ka", "1")
      if ctx:call(node, "SET", key, me, "NX", "PX", lease_ms) == "OK" then return true end
    elseif me == "Y" then
      ctx:sleep(5, 25)
      ctx:call(node, "PEXPIREAT", "ka", 1700000000990)
      ctx:sleep(970)
      local v = ctx:call(node, "GET", "ka")
      ctx:log("GET ka: " .. tostring(v))
      if type(v) ~= "string" then return true end -- the bug
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
