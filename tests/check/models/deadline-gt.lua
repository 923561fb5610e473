-- deadline-gt: a deliberately broken lock for the model checker's tests: Z enters while key
-- "ka" exists, and Y's PEXPIRE ... GT decides by comparing its new deadline with the one X's
-- request set (sim/redis/commands.c, expire_generic: a deadline read).
local M = {}
M.OPTIONS = {}
function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local key = cfg.lock
  local lock = {}
  function lock.acquire(wait_ms, lease_ms)
    local me = ctx:name()
    if me == "X" then
      ctx:call(node, "SET", "ka", "1", "PX", 1000)
      if ctx:call(node, "SET", key, me, "NX", "PX", lease_ms) == "OK" then return true end
      return false, "busy"
    elseif me == "Y" then
      ctx:log("PEXPIRE GT: " .. tostring(ctx:call(node, "PEXPIRE", "ka", 985, "GT")))
      return false, "busy"
    else
      local v = ctx:call(node, "GET", "ka")
      ctx:log("GET ka: " .. tostring(v))
      if v and v ~= ctx.NIL and type(v) == "string" then return true end
      return false, "busy"
    end
  end
  function lock.release()
    ctx:call(node, "DEL", key)
    return true
  end
  return lock
end
return M
