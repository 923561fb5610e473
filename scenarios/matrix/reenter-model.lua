-- reenter-model.lua — any lock design of the matrix, taken twice by the same client: the question
-- "is it re-entrant?" asked the same way of every design, without changing its model.
--
-- A re-entrant lock lets the thread that holds it take it again (a method holding the lock
-- calls another that takes it too) and counts the holds: only the last unlock frees it.
-- Java's ReentrantLock does; Redisson's RedissonLock does (the hash field of the owner counts
-- the holds: RedissonLock.java, tryLockInnerAsync). A lock that is a plain key with a value,
-- as SET NX and SETNX make, cannot tell its holder from anyone else: the second acquire finds
-- the key taken and waits, as a stranger would, until its wait runs out.
--
--   acquire:  outer.acquire(wait, lease)             -- the outer hold
--             inner.acquire(reenter_wait, lease)     -- the inner hold, by the same client
--             inner failed: release the outer hold (the caller's finally), and report
--             "re-entry failed", which the checker's reentrancy property judges
--   release:  inner.release(), then outer.release()
--
-- Options (scenario `options`): design — the model under test, a name of lua/clients/
-- (distlock, setnx-expire, set-nx-del, redisson, redisson-fenced, redlock, redisson-redlock,
-- and any model added later); reenter_wait — ms the inner acquire may wait (1000: a short
-- tryLock, so a non-re-entrant lock fails quickly instead of blocking its own holder for
-- its whole wait). The design's own options cannot be passed through: it runs with its
-- defaults.
local M = {}

M.OPTIONS = {
  design = "string",
  reenter_wait = "integer",
}

function M.new(ctx, cfg)
  local opts = cfg.options or {}
  assert(opts.design, "reenter-model.lua needs options.design: the model under test (e.g. \"distlock\")")
  local design = require(opts.design)
  local design_cfg = {}
  for k, v in pairs(cfg) do design_cfg[k] = v end
  design_cfg.options = {}
  -- Two lock objects on the same lock, as two methods each make their own (Redisson's
  -- getLock returns a new RLock each time; what makes re-entry work is the owner id, the
  -- client's and thread's, which both share): a failed inner attempt cannot disturb what
  -- the outer one holds.
  local outer = design.new(ctx, design_cfg)
  local inner = design.new(ctx, design_cfg)
  local reenter_wait = opts.reenter_wait or 1000
  local lock = {}

  function lock.acquire(wait_ms, lease_ms)
    local ok, token = outer.acquire(wait_ms, lease_ms)
    if not ok then return false, token end
    ctx:log("takes the lock again, holding it (re-entry), waiting at most %d ms", reenter_wait)
    local again, why = inner.acquire(reenter_wait, lease_ms)
    if not again then
      outer.release()
      return false, "re-entry failed: " .. tostring(why or "not acquired")
    end
    if type(why) == "number" then token = why end
    return true, token
  end

  function lock.release()
    local ok, why = inner.release()
    if not ok then return false, why end
    return outer.release()
  end

  return lock
end

return M
