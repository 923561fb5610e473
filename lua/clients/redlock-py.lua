-- redlock-py.lua — SPSCommerce's redlock-py 1.0.8 (PyPI "redlock-py"), the Python Redlock
-- client the Redis documentation lists; `protocol = "redlock"` with `preset = "redlock-py"`
-- loads it (or `protocol = "redlock-py"` directly).
--
-- Library:  https://github.com/SPSCommerce/redlock-py, file redlock/__init__.py at commit
--           42ef49106cc3 (version 1.0.8 in setup.py, the newest); line numbers below are that
--           file's.
-- Scripts:  the plain command SET resource value PX ttl NX (lock_instance, line 76, through
--           redis-py's StrictRedis.set), and redlock-py/unlock@1.0.8 (unlock_script, lines
--           43-48, by EVAL in unlock_instance, lines 78-82).
--
-- What it does (Redlock.lock, lines 88-122):
--   * retry_count attempts (default 3, line 40), each: start = int(time.time() * 1000)
--     (the wall clock: ctx:now()); SET on every server IN TURN, counting True replies and
--     collecting every RedisError (an error reply such as READONLY, a lost connection);
--     validity = int(ttl - elapsed - drift), drift = int(ttl * 0.01) + 2 (line 95).
--   * validity > 0 and n >= quorum: if ANY server raised an error, it raises
--     MultipleRedlockException (lines 110-112) — without unlocking: the keys it set on the
--     majority stay until they expire, and the caller has no lock to release them with.
--     Otherwise it returns the Lock.
--   * else it runs the unlock script on every server (errors are logged and swallowed,
--     lines 78-82), and sleeps retry_delay (0.2 s, fixed, line 41) — after the last attempt
--     too (line 121) — and returns False after retry_count attempts.
--   * unlock (lines 124-132) runs the unlock script on every server; unlock_instance
--     swallows its own errors, so it never raises.
--   * No socket timeout: redis-py's StrictRedis waits for a reply as long as it takes
--     (socket_timeout=None) unless the caller configured one (option node_timeout). A server
--     behind a partition blocks the whole call, however many others answered.
--
-- Remaining simplifications, and their effect:
--   * A dead Redis process on a live host refuses connections at once (ConnectionError, a
--     RedisError): with the scenario's down = "refuses" the model gets "connection refused"
--     and counts the node as failed; with the default down = "silent" it waits, as the library
--     does on a dead or unreachable host. redis-py's one retry after a ConnectionError is not
--     modelled: it would fail the same way against a refusing host.
--   * The scenario's `wait` is not used: the library counts attempts only.
local M = {}

M.OPTIONS = {
  preset = { "redlock-py" },
  retry_count = "integer", retry_delay = "integer", drift_factor = "number", node_timeout = "integer",
}

-- default_retry_count, default_retry_delay, clock_drift_factor (lines 40-42)
M.DEFAULTS = { retry_count = 3, retry_delay = 200, drift_factor = 0.01 }

local seq = require("redlock-seq")

function M.new(ctx, cfg)
  local s = seq.settings(M.DEFAULTS, cfg.options)
  local c = seq.client(ctx, cfg, s.node_timeout)
  local value
  local lock = {}

  function lock.acquire(_, ttl)
    assert(ttl, "redlock-py needs a lease (the ttl): set lease in the scenario")
    value = ctx:name() .. ":" .. ctx:unique(0, 999999999)
    local drift = math.floor(ttl * s.drift_factor) + 2
    for attempt = 1, s.retry_count do
      local start = ctx:now()
      local n, errors, answers = c.round(ctx.send, "SET", c.key, value, "PX", ttl, "NX")  -- redis-py set(nx=True, px=ttl)
      local elapsed = ctx:now() - start
      local validity = ttl - elapsed - drift
      local ok = validity > 0 and n >= c.quorum
      c.log("attempt", attempt, s.retry_count, n, answers, validity, ttl, elapsed, drift, nil, ok)
      if ok then
        if #errors > 0 then
          ctx:log("MultipleRedlockException (%s): raised with the lock taken on a majority, " ..
                  "which it does not unlock (redlock/__init__.py lines 110-112)", table.concat(errors, "; "))
          return false, "MultipleRedlockException: " .. table.concat(errors, " :: ")
        end
        ctx:log("ACQUIRED on a majority: valid for %d ms (no fencing token)", validity)
        return true
      end
      c.unlock_all("redlock-py/unlock@1.0.8", value)
      ctx:log("attempt failed: unlock script sent to all %d nodes; sleeping %d ms", #c.nodes, s.retry_delay)
      ctx:sleep(s.retry_delay)
    end
    return false, string.format("no majority in %d attempts (lock returned False)", s.retry_count)
  end

  function lock.release()
    c.unlock_all("redlock-py/unlock@1.0.8", value)
    value = nil
    return true
  end

  return lock
end

return M
