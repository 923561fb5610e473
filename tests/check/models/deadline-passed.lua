-- deadline-passed.lua — a deliberately broken lock for the model checker's tests: Z enters
-- without the lock whenever key "ka" still exists. X sets "kc" (PX 700), whose expiry is the
-- one the node has pending, and then takes the lock for good; Y, after a random 5-25 ms, sets
-- "ka" (PX 980). The scenarios take the node away before either deadline and bring the data
-- back (a restart, a promotion) just after "ka"'s deadline on the default schedule: the node
-- then finds both deadlines passed and expires them at once. Only Y waking late puts "ka"'s
-- deadline after that instant: the reductions must see that "passed" compared the clock with
-- the deadline Y's SET set (sim/node.c, node_schedule_expiry; tests/cli/test_check.sh).
-- replica-slow-clock.lua uses it too: there the promoted replica's clock runs at another rate
-- than the master's, so the expiry does not move by as much as the SET (node.c, cross_clock).
local M = {}

M.OPTIONS = {}

function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local key = cfg.lock
  local lock = {}

  function lock.acquire(wait_ms, lease_ms)
    local me = ctx:name()
    if me == "X" then
      ctx:call(node, "SET", "kc", "1", "PX", 700)
      if ctx:call(node, "SET", key, me, "NX", "PX", lease_ms) == "OK" then return true end
    elseif me == "Y" then
      ctx:sleep(5, 25)
      ctx:call(node, "SET", "ka", "1", "PX", 980)
    elseif type(ctx:call(node, "GET", "ka")) == "string" then
      return true -- the bug
    end
    return false, "lock busy" -- one try: no retry loop to multiply the paths
  end

  function lock.release()
    ctx:call(node, "DEL", key)
    return true
  end

  return lock
end

return M
