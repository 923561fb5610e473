-- redlock-gem.lua — the maintained Ruby Redlock, the redlock gem 2.0.6 (rubygems "redlock",
-- the fork antirez's README points to); `protocol = "redlock"` with `preset = "redlock-gem"`
-- loads it (or `protocol = "redlock-gem"` directly).
--
-- Library:  https://github.com/leandromoreira/redlock-rb, file lib/redlock/client.rb at tag
--           2.0.6 (commit f176e5748a41); line numbers below are that file's. The Redis client
--           is redis-client (>= 0.14.1, redlock.gemspec line 21).
-- Scripts:  redlock-gem/lock@2.0.6 (LOCK_SCRIPT, lib/redlock/scripts.rb lines 16-20: SET PX if
--           the key is absent OR ALREADY HOLDS MY VALUE) and redlock-gem/unlock@2.0.6
--           (UNLOCK_SCRIPT, lines 5-11), sent with EVALSHA (RedisInstance#lock and #unlock,
--           lines 203-219).
--
-- What it does (try_lock_instances and lock_instances, lines 266-328):
--   * retry_count + 1 tries (DEFAULT_RETRY_COUNT = 3: 4 tries, lines 22 and 268); before each
--     try but the first it sleeps retry_delay + rand(retry_jitter) ms = 200 + 0..49 ms
--     (lines 273 and 286-298); no sleep after the last.
--   * a try: the lock script on every server IN TURN (count, line 306), an exception counting
--     as a failure and kept; validity = ttl - elapsed - drift with drift = (ttl * 0.01).to_i
--     + 2 (lines 314 and 361-366), elapsed on the MONOTONIC clock (Process::CLOCK_MONOTONIC,
--     lines 30-36; ctx:monotonic()): a step of the wall clock changes nothing.
--   * success when locked >= quorum and validity >= 0 (line 316: zero is enough);
--     otherwise unlock on every server (errors ignored), and when errors >= quorum raise
--     LockAcquisitionError (lines 321-324), which try_lock_instances keeps and re-raises
--     after the last try (lines 277-281).
--   * unlock (lines 104-106): the unlock script on every server, errors ignored; it returns
--     nothing useful.
--   * Timeout: redis_timeout 0.1 s (DEFAULT_REDIS_TIMEOUT, line 21) for every command
--     (redis-client's read timeout; it does not resend a command that timed out).
--
-- Remaining simplifications, and their effect:
--   * EVALSHA of a script the node has not cached answers NOSCRIPT, and the gem loads its
--     three scripts (SCRIPT LOAD each) and tries again (recover_from_script_flush, lines
--     247-263): four more round trips to each node on first use and after a restart. The
--     model sends EVAL at once: its elapsed time is shorter by those round trips.
--   * The scenario's `wait` is not used: the library counts tries only.
local M = {}

M.OPTIONS = {
  preset = { "redlock-gem" },
  retry_count = "integer", retry_delay = "integer", retry_jitter = "integer",
  drift_factor = "number", node_timeout = "integer",
}

-- DEFAULT_REDIS_TIMEOUT, DEFAULT_RETRY_COUNT (+ 1: tries), DEFAULT_RETRY_DELAY,
-- DEFAULT_RETRY_JITTER, CLOCK_DRIFT_FACTOR (lines 21-25).
M.DEFAULTS = { node_timeout = 100, retry_count = 4, retry_delay = 200, retry_jitter = 50, drift_factor = 0.01 }

local seq = require("redlock-seq")

function M.new(ctx, cfg)
  local s = seq.settings(M.DEFAULTS, cfg.options)
  local c = seq.client(ctx, cfg, s.node_timeout)
  local value
  local lock = {}

  function lock.acquire(_, ttl)
    assert(ttl, "redlock-gem needs a lease (the ttl): set lease in the scenario")
    value = ctx:name() .. ":" .. ctx:unique(0, 999999999)              -- SecureRandom.uuid
    local drift = math.floor(ttl * s.drift_factor) + 2
    local last_error = false
    for try = 1, s.retry_count do
      if try > 1 then ctx:sleep(s.retry_delay, s.retry_delay + math.max(0, s.retry_jitter - 1)) end
      local start = ctx:monotonic()
      local n, errors, answers = c.round(ctx.send_eval, "redlock-gem/lock@2.0.6", { c.key }, { value, ttl, "yes" })
      local elapsed = ctx:monotonic() - start
      local validity = ttl - elapsed - drift
      local ok = n >= c.quorum and validity >= 0
      c.log("try", try, s.retry_count, n, answers, validity, ttl, elapsed, drift, ", monotonic clock", ok)
      if ok then
        ctx:log("ACQUIRED on a majority: valid for %d ms (no fencing token)", validity)
        return true
      end
      c.unlock_all("redlock-gem/unlock@2.0.6", value)
      if #errors >= c.quorum then
        last_error = true
        ctx:log("LockAcquisitionError: %d of %d nodes failed (kept; raised after the last try)", #errors, #c.nodes)
      end
    end
    if last_error then return false, "LockAcquisitionError: too many Redis errors prevented lock acquisition" end
    return false, string.format("no majority in %d tries (lock returned false)", s.retry_count)
  end

  function lock.release()
    c.unlock_all("redlock-gem/unlock@2.0.6", value)
    value = nil
    return true
  end

  return lock
end

return M
