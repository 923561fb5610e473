-- redlock-rb.lua — antirez's redlock-rb, the reference implementation the Redis
-- documentation linked for Redlock (2014); `protocol = "redlock"` with `preset = "redlock-rb"`
-- loads it (or `protocol = "redlock-rb"` directly). The maintained gem is redlock-gem.lua.
--
-- Library:  https://github.com/antirez/redlock-rb, file redlock.rb at commit 2af803d83073
--           (unversioned; its README points to the maintained gem); line numbers below are
--           that file's. The Redis client is redis-rb of the time (3.0.x,
--           https://github.com/redis/redis-rb, lib/redis/client.rb at tag v3.0.7).
-- Scripts:  the plain command SET resource val NX PX ttl (lock_instance, line 32), and
--           redlock-rb/unlock@HEAD (UnlockScript, lines 7-12, by EVAL in unlock_instance,
--           lines 38-44).
--
-- What it does (Redlock#lock, lines 55-83):
--   * DefaultRetryCount = 3 attempts (line 4), each: start = Time.now in ms (the wall clock:
--     ctx:now()); SET on every server IN TURN, counting the true replies (any exception
--     counts as false, lines 31-35); validity = ttl - elapsed - drift, drift =
--     (ttl * 0.01).to_i + 2 (lines 63-67); success when n >= quorum and validity > 0.
--   * else the unlock script on every server (errors ignored), then, as after every failed
--     attempt including the last, sleep(rand(DefaultRetryDelay = 200)) ms (line 80): 0 to
--     199 ms. After 3 attempts it returns false.
--   * unlock (lines 85-89): the unlock script on every server, errors ignored; it returns
--     nothing, so the caller cannot tell whether it released.
--   * Timeout: Redis.new(:url) keeps redis-rb's default :timeout => 5.0 s (client.rb line 14)
--     for every read: a node that does not answer costs 5 s — with a 10 s TTL, two such nodes
--     use up the validity of every attempt. redis-rb does not retry a read that timed out
--     (TimeoutError is not a ConnectionError, errors.rb lines 21-35; ensure_connected,
--     client.rb lines 293-317).
--
-- Remaining simplifications, and their effect:
--   * After a timeout redis-rb drops the connection, and the next command to that node opens
--     a new one: a connect to an unreachable host also waits 5 s, to a dead process on a live
--     host it fails at once. The model waits 5 s per request in both cases (the simulated
--     network gives silence): the same for a host, slower for a dead process.
--   * The scenario's `wait` is not used: the library counts attempts only.
local M = {}

M.OPTIONS = {
  preset = { "redlock-rb" },
  retry_count = "integer", retry_delay = "integer", drift_factor = "number", node_timeout = "integer",
}

-- DefaultRetryCount, DefaultRetryDelay, ClockDriftFactor (lines 4-6); redis-rb's :timeout.
M.DEFAULTS = { retry_count = 3, retry_delay = 200, drift_factor = 0.01, node_timeout = 5000 }

local seq = require("redlock-seq")

function M.new(ctx, cfg)
  local s = seq.settings(M.DEFAULTS, cfg.options)
  local c = seq.client(ctx, cfg, s.node_timeout)
  local value
  local lock = {}

  function lock.acquire(_, ttl)
    assert(ttl, "redlock-rb needs a lease (the ttl): set lease in the scenario")
    value = ctx:name() .. ":" .. ctx:unique(0, 999999999)
    local drift = math.floor(ttl * s.drift_factor) + 2
    for attempt = 1, s.retry_count do
      local start = ctx:now()
      local n, _, answers = c.round(ctx.send, "SET", c.key, value, "NX", "PX", ttl)
      local elapsed = ctx:now() - start
      local validity = ttl - elapsed - drift
      local ok = n >= c.quorum and validity > 0
      c.log("attempt", attempt, s.retry_count, n, answers, validity, ttl, elapsed, drift, nil, ok)
      if ok then
        ctx:log("ACQUIRED on a majority: valid for %d ms (no fencing token)", validity)
        return true
      end
      c.unlock_all("redlock-rb/unlock@HEAD", value)
      ctx:sleep(0, s.retry_delay - 1)                  -- sleep(rand(@retry_delay)/1000)
    end
    return false, string.format("no majority in %d attempts (lock returned false)", s.retry_count)
  end

  function lock.release()
    c.unlock_all("redlock-rb/unlock@HEAD", value)
    value = nil
    return true
  end

  return lock
end

return M
