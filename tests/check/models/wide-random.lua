-- wide-random.lua — a correct one-try lock (SET NX PX, a compare-and-delete release) whose
-- client A first waits a random 0-9999 ms drawn with ctx:random: a range wider than the 4096
-- values the model checker tries whole, so it tries 4096 evenly spaced ones and says its
-- answer is not a proof (tests/cli/test_check.sh, tests/check/wide-random.lua).
local M = {}

M.OPTIONS = {}

local RELEASE = [[
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
]]

function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local me = tostring(ctx:unique(1, 1000000000))
  local lock = {}

  function lock.acquire(wait_ms, lease_ms)
    if ctx:name() == "A" then ctx:sleep(ctx:random(0, 9999)) end
    if ctx:call(node, "SET", cfg.lock, me, "NX", "PX", lease_ms) == "OK" then return true end
    return false, "lock busy"
  end

  function lock.release()
    ctx:call(node, "EVAL", RELEASE, 1, cfg.lock, me)
    return true
  end

  return lock
end

return M
