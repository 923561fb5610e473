-- wait-ack.lua — a lock for the model checker's tests (tests/orders.c): a client takes the
-- lock with SET NX PX, then asks that the replica has it (WAIT 1 options.wait ms); it enters
-- only when the write reached the replica in time, else it deletes its key and gives up.
-- Whether the WAIT's timeout (a deadline of the node's clock, in whole ms: sim/node_acks.c)
-- comes before the replica's acknowledgement, and where the other clients' requests fall
-- against it, are orders the search must run. One try per acquire.
local M = {}

M.OPTIONS = { wait = "integer" }

function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local lock = {}

  function lock.acquire(wait_ms, lease_ms)
    if ctx:call(node, "SET", cfg.lock, ctx:name(), "NX", "PX", lease_ms) ~= "OK" then return false, "lock busy" end
    if ctx:call(node, "WAIT", 1, cfg.options.wait or 1) == 1 then return true end
    ctx:call(node, "DEL", cfg.lock)
    return false, "not on the replica in time"
  end

  function lock.release()
    ctx:call(node, "DEL", cfg.lock)
    return true
  end

  return lock
end

return M
