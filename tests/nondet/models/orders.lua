-- orders.lua — a model that prints everything Lua itself could make differ between two runs
-- of one scenario and seed (tests/cli/test_nondet.sh runs it in two processes and compares
-- the bytes): the iteration order of string keys (Lua hashes strings with a seed made at
-- each start, unless the build fixes it: tools/lua.mk), the names tostring gives tables and
-- functions (their addresses, unless the sandbox names them), and what is refused because
-- no name can make it repeat (tables as keys of pairs, string.format's %p).
local M = {}
M.OPTIONS = {}
function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local lock = {}
  function lock.acquire(wait_ms, lease_ms)
    local t = {}
    for i = 1, 40 do t["key" .. i] = i end
    local order = {}
    for k in pairs(t) do order[#order + 1] = k end
    ctx:log("string keys: %s", table.concat(order, ","))
    ctx:log("in a script: %s", ctx:eval(node, "./orders-script.lua", {}, {}))
    local a, f = {}, function() end
    ctx:log("names: %s %s %s", tostring(a), tostring(f), tostring(a))
    local ok, err = pcall(string.format, "%p", a)
    ctx:log("%%p: %s %s", tostring(ok), tostring(err):gsub("^.-: ", ""))
    local keyed = { [a] = 1, [f] = 2 }
    ok, err = pcall(function() for _ in pairs(keyed) do end end)
    ctx:log("table keys: %s %s", tostring(ok), tostring(err):gsub("^.-: ", ""))
    return ctx:call(node, "SET", cfg.lock, ctx:name(), "NX", "PX", lease_ms) == "OK"
  end
  function lock.release()
    ctx:call(node, "DEL", cfg.lock)
    return true
  end
  return lock
end
return M
