-- lease-tick.lua — a deliberately broken lock for the model checker's tests, on etcd: X
-- enters at once, and Z enters without the lock whenever key "ka" still exists. Y, after a
-- random 5-25 ms, puts "ka" under a fresh lease (etcd's minimum TTL, 2 s). etcd revokes an
-- expired lease on its lessor's 500 ms tick, so the default schedule's lease is gone at the
-- tick before Z looks, and a late one only at the next: the expiry is not a step that moves
-- with Y's requests. The reductions must see that the tick compares the clock with a deadline
-- of unknown origin (sim/node.c, node_on_expire; tests/cli/test_check.sh).
local M = {}

M.SERVER = "etcd"
M.OPTIONS = {}

function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local lock = {}

  function lock.acquire(wait_ms, lease_ms)
    local me = ctx:name()
    if me == "X" then return true end
    if me == "Y" then
      ctx:sleep(5, 25)
      local resp = ctx:call(node, "LEASE_GRANT", 1)
      ctx:call(node, "PUT", "ka", "1", "LEASE", resp.ID)
      return false, "lock busy"
    end
    local resp = ctx:call(node, "GET", "ka")
    if resp and resp.kvs and #resp.kvs > 0 then return true end -- the bug
    return false, "lock busy"
  end

  function lock.release()
    return true
  end

  return lock
end

return M
