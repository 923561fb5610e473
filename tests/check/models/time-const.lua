-- time-const: a deliberately broken lock for the model checker's tests. A holds the lock; B
-- asks the server for its clock with TIME (cfg.options.via = "script": inside an EVAL) and
-- enters without the lock when the microseconds read end in 007 — a value that depends on
-- where in its delay window B's request lands, to the µs, as Redis's TIME answers.
local M = {}
M.OPTIONS = { via = "command" }
function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local lock = {}
  function lock.acquire(wait_ms, lease_ms)
    if ctx:name() == "A" then
      return ctx:call(node, "SET", cfg.lock, "A", "NX", "PX", lease_ms) == "OK"
    end
    local t
    if cfg.options.via == "script" then
      t = ctx:eval(node, "./time-const-script.lua", {}, {})
    else
      t = ctx:call(node, "TIME")
    end
    ctx:log("TIME " .. t[1] .. " " .. t[2])
    if tonumber(t[2]) % 1000 == 7 then return true end -- the bug
    return false, "lock busy"
  end
  function lock.release()
    ctx:call(node, "DEL", cfg.lock)
    return true
  end
  return lock
end
return M
