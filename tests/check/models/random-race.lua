-- random-race: a deliberately broken lock for the model checker's tests. A fills a set and
-- takes the lock; B and C each draw from the server's generator at once — SRANDMEMBER as a
-- command, inside a script, or a script's math.random (cfg.options.draw) — and C enters
-- without the lock when it draws what the first draw of the run gives. Which of the two
-- racing draws comes first is the only thing that decides it: two scripts that change no key
-- still advance the server's generator, so they do not commute.
local M = {}
M.OPTIONS = { draw = "command", first = "" }
function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local lock = {}
  local function draw()
    if cfg.options.draw == "script" then return ctx:eval(node, "./random-race-member.lua", { "pool" }, {}) end
    if cfg.options.draw == "math" then return ctx:eval(node, "./random-race-math.lua", {}, {}) end
    return ctx:call(node, "SRANDMEMBER", "pool")
  end
  function lock.acquire(wait_ms, lease_ms)
    if ctx:name() == "A" then
      ctx:call(node, "SADD", "pool", "a", "b", "c", "d", "e", "f")
      -- the scripts in the cache before B and C run them (a cached script that changes no
      -- key is the case the checker once took as commuting)
      ctx:eval(node, "./random-race-member.lua", { "empty" }, {})
      ctx:eval(node, "./random-race-math.lua", {}, {})
      return ctx:call(node, "SET", cfg.lock, "A", "NX", "PX", lease_ms) == "OK"
    end
    local v = draw()
    ctx:log("drew " .. tostring(v))
    if ctx:name() == "C" and tostring(v) == cfg.options.first then return true end -- the bug
    return false, "lock busy"
  end
  function lock.release()
    ctx:call(node, "DEL", cfg.lock)
    return true
  end
  return lock
end
return M
