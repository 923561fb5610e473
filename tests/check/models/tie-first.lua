-- tie-first.lua — a deliberately broken lock for the model checker's tests: every client waits
-- until its clock reads options.at ms past the run's start (every clock reads 1700000000000 ms
-- then: sim/world.h, WORLD_EPOCH_MS) and sends one SET NX PX; client A enters the critical
-- section even when its SET failed (the bug). So mutual exclusion breaks exactly when B's SET
-- runs before A's at the node: with equal delays and equal wake-ups, the order of two
-- simultaneous events (tests/check/tie-at-node.lua). One try per acquire.
local M = {}

M.OPTIONS = { at = "integer" }

function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local lock = {}

  function lock.acquire(wait_ms, lease_ms)
    local at = 1700000000000 + (cfg.options.at or 50)
    if ctx:now() < at then ctx:sleep(at - ctx:now()) end
    if ctx:call(node, "SET", cfg.lock, ctx:name(), "NX", "PX", lease_ms) == "OK" then return true end
    if ctx:name() == "A" then return true end -- the bug: A enters anyway
    return false, "lock busy"
  end

  function lock.release()
    ctx:call(node, "DEL", cfg.lock)
    return true
  end

  return lock
end

return M
