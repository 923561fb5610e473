-- timer-tie.lua — a lock for the model checker's tests (tests/orders.c): each client makes one
-- round trip to the node (a write of its own key), then sleeps options.ms ms of its clock and
-- sends one SET NX PX (a lease shorter than the work breaks it, as SET NX PX does); client C
-- sends its SET as it starts. The sleep ends on a whole ms of the client's clock, so where the
-- first reply lands in its ms decides the ms the SET leaves in: two clients' SETs meet at the
-- node at one µs, or a whole ms apart, by a µs of a reply's delay, and pass C's between the
-- two (tests/orders.c's near_ms_problem; model/reduce.c: a step that moves in whole ms). One
-- try per acquire.
local M = {}

M.OPTIONS = { ms = "integer" }

function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local lock = {}

  function lock.acquire(wait_ms, lease_ms)
    if ctx:name() ~= "C" then
      ctx:call(node, "SET", cfg.lock .. ":" .. ctx:name(), 1)
      ctx:sleep(cfg.options.ms or 3)
    end
    if ctx:call(node, "SET", cfg.lock, ctx:name(), "NX", "PX", lease_ms) == "OK" then return true end
    return false, "lock busy"
  end

  function lock.release()
    ctx:call(node, "DEL", cfg.lock)
    return true
  end

  return lock
end

return M
