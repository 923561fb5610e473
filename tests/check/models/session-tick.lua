-- session-tick.lua — a deliberately broken lock for the model checker's tests, on ZooKeeper:
-- X enters at once, and Z enters without the lock whenever the ephemeral node /ka still
-- exists. Y opens a session (4 s), creates /ka, and pings once after a random 1970-1990 ms.
-- ZooKeeper expires sessions on its 2 s tick: the default schedule's ping leaves Y's session
-- on the 6 s tick, with X's, and a late one moves it to the 8 s tick. The ping changes no
-- expiry the node has pending (X's is as early), and the server does not say which request
-- set a session's deadline: the reductions must count the ping as reading the clock
-- (sim/node.c, node_schedule_expiry; tests/cli/test_check.sh).
local M = {}

M.SERVER = "zookeeper"
M.OPTIONS = {}

function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local lock = {}

  function lock.acquire(wait_ms, lease_ms)
    local me = ctx:name()
    ctx:call(node, "connect", 4000)
    if me == "X" then return true end
    if me == "Y" then
      ctx:call(node, "create", "/ka", "", "ephemeral")
      ctx:sleep(1970, 1990)
      ctx:call(node, "ping")
      return false, "lock busy"
    end
    if ctx:call(node, "exists", "/ka") then return true end -- the bug
    return false, "lock busy"
  end

  function lock.release()
    return true
  end

  return lock
end

return M
