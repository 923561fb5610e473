-- reenter-model.lua — any lock design of the matrix, taken twice by the same client: the question
-- "is it re-entrant?" asked the same way of every design, without changing its model.
--
-- A re-entrant lock lets the thread that holds it take it again (a method holding the lock
-- calls another that takes it too, and releases it when it returns) and counts the holds:
-- only the last unlock frees it. A lock that lets its holder in again without counting frees
-- itself at the inner method's unlock, while the outer one still works under it.
-- Java's ReentrantLock does; Redisson's RedissonLock does (the hash field of the owner counts
-- the holds: RedissonLock.java, tryLockInnerAsync). A lock that is a plain key with a value,
-- as SET NX and SETNX make, cannot tell its holder from anyone else: the second acquire finds
-- the key taken and waits, as a stranger would, until its wait runs out.
--
--   acquire:  outer.acquire(wait, lease)             -- the outer hold
--             inner.acquire(reenter_wait, lease)     -- the inner method's hold, same client
--             inner failed: release the outer hold (the caller's finally), and report
--             "re-entry failed" with the outcome "reentry_failed", which the checker's
--             reentrancy property judges
--             inner.release()                        -- the inner method returns
--             then the outer method's critical section (the workload's work)
--   release:  outer.release()
--
-- Options (scenario `options`): design — the model under test, a name of lua/clients/
-- (distlock, setnx-expire, set-nx-del, redisson, redisson-fenced, redlock, redisson-redlock,
-- and any model added later); reenter_wait — ms the inner acquire may wait (1000: a short
-- tryLock, so a non-re-entrant lock fails quickly instead of blocking its own holder for
-- its whole wait); same_object — true: the inner method takes the very lock object the
-- outer one holds, as with a Curator InterProcessMutex or a Go concurrency.Mutex kept in a
-- field (two objects would each open their own ZooKeeper or etcd session, which one process
-- does not do; Redisson's getLock objects share the client's id instead). Any other option
-- goes to the design unchanged, if the wrapper declares it
-- (reenter-model-mongodb.lua declares the MongoDB lock's expiry); the others run with their
-- defaults.
--
-- A model names the kind of server it speaks to (M.SERVER); this one speaks to Redis. For a
-- design on another kind, the scenario names reenter-model-<kind>.lua, which is this model
-- with that kind's name (reenter-model-mysql.lua, reenter-model-mongodb.lua, ...).
local M = {}

M.OPTIONS = {
  design = "string",
  reenter_wait = "integer",
  same_object = "boolean",
}

function M.new(ctx, cfg)
  local opts = cfg.options or {}
  assert(opts.design, "reenter-model.lua needs options.design: the model under test (e.g. \"distlock\")")
  local design = require(opts.design)
  local design_cfg = {}
  for k, v in pairs(cfg) do design_cfg[k] = v end
  design_cfg.options = {}
  for k, v in pairs(opts) do
    if k ~= "design" and k ~= "reenter_wait" and k ~= "same_object" then design_cfg.options[k] = v end
  end
  -- Two lock objects on the same lock, as two methods each make their own (Redisson's
  -- getLock returns a new RLock each time; what makes re-entry work is the owner id, the
  -- client's and thread's, which both share): a failed inner attempt cannot disturb what
  -- the outer one holds.
  local outer = design.new(ctx, design_cfg)
  local inner = opts.same_object and outer or design.new(ctx, design_cfg)
  local reenter_wait = opts.reenter_wait or 1000
  local lock = {}

  function lock.acquire(wait_ms, lease_ms)
    local ok, token = outer.acquire(wait_ms, lease_ms)
    if not ok then return false, token end
    ctx:log("takes the lock again, holding it (re-entry), waiting at most %d ms", reenter_wait)
    local again, why = inner.acquire(reenter_wait, lease_ms)
    if not again then
      outer.release()
      return false, "re-entry failed: " .. tostring(why or "not acquired"), "reentry_failed"
    end
    if type(why) == "number" then token = why end
    ctx:lock_unit("reentered") -- for the checker: A holds the lock twice now
    ctx:log("the inner method returns: releases its hold, and the outer one works on")
    local freed, how = inner.release()
    if not freed then ctx:log("the inner release failed: %s", tostring(how)) end
    ctx:lock_unit("inner_released") -- ... and once again: the outer hold is still open
    return true, token
  end

  function lock.release()
    return outer.release()
  end

  return lock
end

return M
