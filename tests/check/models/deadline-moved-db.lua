-- deadline-moved-db: a deliberately broken lock for the model checker's tests: Z enters while
-- key "ka" exists; X moves ka to database 1 and back, and the deadline it carries was set by
-- Y's request (a deadline leaving database 0 is a reading; coming back, fixed by no step).
local M = {}
M.OPTIONS = {}
function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local key = cfg.lock
  local lock = {}
  function lock.acquire(wait_ms, lease_ms)
    local me = ctx:name()
    if me == "X" then
      ctx:call(node, "SET", "kc", "1", "PX", 500)
      local ok = ctx:call(node, "SET", key, me, "NX", "PX", lease_ms)
      ctx:sleep(100)
      ctx:log("MOVE: %s", tostring(ctx:call(node, "MOVE", "ka", 1)))
      ctx:call(node, "SELECT", 1)
      ctx:log("MOVE back: %s", tostring(ctx:call(node, "MOVE", "ka", 0)))
      ctx:call(node, "SELECT", 0)
      if ok == "OK" then return true end
    elseif me == "Y" then
      ctx:sleep(5, 25)
      ctx:call(node, "SET", "ka", "1", "PX", 980)
    else
      local v = ctx:call(node, "GET", "ka")
      ctx:log("GET ka: " .. tostring(v))
      if type(v) == "string" then return true end -- the bug
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
