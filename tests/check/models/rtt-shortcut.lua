-- rtt-shortcut.lua — a deliberately broken lock for the model checker's tests: a client that
-- times a round trip to the node and, when it took 4 ms or more, skips the lock altogether.
-- Whether it does depends on the clock's value alone (no order of events changes), through
-- ctx:before: the search must explore the late ends of the two delays where together they
-- can use up the margin (tests/cli/test_check.sh).
local M = {}

M.OPTIONS = { shortcut_ms = "integer" }

function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local key = cfg.lock
  local lock = {}

  function lock.acquire(wait_ms, lease_ms)
    local t0 = ctx:instant()
    ctx:call(node, "PING")
    if not ctx:before(t0 + (cfg.options.shortcut_ms or 4)) then return true end -- the bug
    if ctx:call(node, "SET", key, ctx:name(), "NX", "PX", lease_ms) == "OK" then return true end
    return false, "lock busy" -- one try: no retry loop to multiply the paths
  end

  function lock.release()
    ctx:call(node, "DEL", key)
    return true
  end

  return lock
end

return M
