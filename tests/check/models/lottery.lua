-- lottery.lua — a deliberately broken lock for the model checker's tests: the clients put
-- their names in a set, and each asks the server for a random member of it (SRANDMEMBER, in a
-- script run by EVALSHA, or as a plain command with options.plain); a client that draws its
-- own name takes the lock without further ado. Two draws from the one server generator: which
-- client gets which draw is the order of the two requests at the node, and nothing else — the
-- two scripts write no key, but each advances the node's generator, so they do not commute
-- (issue 33). One try per acquire.
local M = {}

M.OPTIONS = { plain = "boolean", draw_at = "integer" }

local DRAW = "return redis.call('SRANDMEMBER', KEYS[1])"

function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local lock = {}

  function lock.acquire(wait_ms, lease_ms)
    ctx:call(node, "SADD", "tickets", "A", "B")
    local drawn
    local sha
    if not cfg.options.plain then sha = ctx:call(node, "SCRIPT", "LOAD", DRAW) end
    -- options.draw_at: the draw waits until this client's clock reads that many ms past the
    -- run's start (every clock reads 1700000000000 ms then: sim/world.h, WORLD_EPOCH_MS)
    local at = cfg.options.draw_at and 1700000000000 + cfg.options.draw_at
    if at and ctx:now() < at then ctx:sleep(at - ctx:now()) end
    if cfg.options.plain then
      drawn = ctx:call(node, "SRANDMEMBER", "tickets")
    else
      drawn = ctx:call(node, "EVALSHA", sha, 1, "tickets")
    end
    if drawn == ctx:name() then return true end -- the bug: another may draw its own name too
    return false, "lost the draw (" .. tostring(drawn) .. ")"
  end

  function lock.release()
    return true
  end

  return lock
end

return M
