-- go-redsync.lua — the Go Redlock client go-redsync/redsync v4.17.0; `protocol = "redlock"`
-- with `preset = "go-redsync"` loads it (or `protocol = "go-redsync"` directly).
--
-- Library:  https://github.com/go-redsync/redsync, files mutex.go and redsync.go at tag
--           v4.17.0 (commit 79f6ba24a8bf); line numbers below are theirs. The Redis client is
--           go-redis v9 through redis/goredis/v9/goredis.go (the README's example).
-- Scripts:  SET name value PX|EX expiry NX (go-redis SetNX: PX, or EX when the expiry is whole
--           seconds) for Lock; go-redsync/delete@4.17.0 (deleteScript, scripts.go lines 5-14)
--           for the release.
--
-- What it does (Mutex.lockContext, mutex.go lines 75-134):
--   * tries = 32 (redsync.go line 33); before each try but the first it waits
--     delayFunc = rand.Intn(250 - 50) + 50 ms, 50 to 249 (redsync.go lines 11-14 and 34-36;
--     WithRetryDelay makes it fixed: option retry_delay). No wait after the last try.
--   * a try sends SETNX to EVERY node at once (actOnPoolsAsync, lines 269-321, one goroutine
--     per pool) under a context whose deadline is expiry * timeoutFactor (0.05: 400 ms for
--     the 8 s default expiry, line 107): a reply later than that is an error. It waits for
--     every node (failFast is off by default), counts the OKs, then until = now + expiry -
--     elapsed - expiry * driftFactor (0.01, no constant; line 115); the lock is held when
--     n >= quorum and now is before until (line 116). Times are Go's time.Now() with its
--     MONOTONIC reading (now.Sub(start), now.Before(until)): a step of the wall clock does
--     not change them (ctx:monotonic()).
--   * a failed try releases on every node at once under the same deadline (lines 121-127).
--   * Unlock (lines 136-150) runs the delete script on every node at once, with no deadline
--     of its own: go-redis's ReadTimeout, 3 s by default (go-redis options.go), bounds each
--     request; it reports success when a quorum deleted.
--
-- Remaining simplifications, and their effect:
--   * go-redis resends a command whose read timed out, up to MaxRetries = 3 times with an
--     8-512 ms backoff, unless the context is done. In Lock the round's deadline (400 ms) is
--     long past by then, so nothing changes; in Unlock (no deadline) the library waits up to
--     about 4 x 3 s for a node that does not answer, the model 3 s.
--   * EVALSHA first, then EVAL on NOSCRIPT (goredis.go Eval): the model sends EVAL at once
--     (one round trip less on first use of the delete script).
--   * Extend, Valid, TryLock and the options shuffle, failFast and setNXOnExtend are not
--     modelled (the workload never calls them; the defaults are off).
--   * The scenario's `wait` is not used: the library counts tries only.
local M = {}

M.OPTIONS = {
  preset = { "go-redsync" },
  retry_count = "integer", retry_delay = "integer", drift_factor = "number", timeout_factor = "number",
}

-- NewMutex, redsync.go lines 30-41 (the expiry is the scenario's lease); go-redis's
-- ReadTimeout bounds each request of Unlock.
M.DEFAULTS = { retry_count = 32, drift_factor = 0.01, timeout_factor = 0.05, unlock_timeout = 3000 }

function M.new(ctx, cfg)
  local s = require("redlock-seq").settings(M.DEFAULTS, cfg.options)
  local nodes = ctx:nodes()
  local key = cfg.lock
  local quorum = #nodes // 2 + 1
  local value
  local lock = {}

  -- actOnPoolsAsync: one request per node at once, every reply awaited until the deadline
  -- (ms from now); returns how many replies `ok` accepts, and the answers for the trace.
  local function on_all_nodes(send, timeout, ok)
    local node_of, answers, n, left = {}, {}, 0, #nodes
    for _, node in ipairs(nodes) do node_of[send(node)] = node end
    local deadline = ctx:monotonic() + timeout
    local got = {}
    while left > 0 do
      local id, reply, err = ctx:receive(math.max(0, deadline - ctx:monotonic()))
      if not id then
        ctx:abandon("timeout")
        break
      end
      got[node_of[id]] = reply ~= nil and tostring(reply) or err or "nil"
      if ok(reply) then n = n + 1 end
      left = left - 1
    end
    for _, node in ipairs(nodes) do
      answers[#answers + 1] = node .. ":" .. (got[node] or "context deadline exceeded")
    end
    return n, table.concat(answers, " ")
  end

  local function release_all(timeout)
    return on_all_nodes(function(node)
      return ctx:send_eval(node, "go-redsync/delete@4.17.0", { key }, { value })
    end, timeout, function(r) return r == 1 end)
  end

  function lock.acquire(_, ttl)
    assert(ttl, "go-redsync needs a lease (the mutex's expiry): set lease in the scenario")
    value = ctx:name() .. ":" .. ctx:unique(0, 999999999)             -- genValue
    local timeout = ttl * s.timeout_factor
    local drift = math.floor(ttl * s.drift_factor)
    local unit, amount = "PX", ttl                                     -- go-redis usePrecise
    if ttl % 1000 == 0 then unit, amount = "EX", ttl // 1000 end
    for try = 1, s.retry_count do
      if try > 1 then
        if s.retry_delay then ctx:sleep(s.retry_delay) else ctx:sleep(50, 249) end
      end
      local start = ctx:monotonic()
      local n, answers = on_all_nodes(function(node)
        return ctx:send(node, "SET", key, value, unit, amount, "NX")
      end, timeout, function(r) return r == "OK" end)
      local elapsed = ctx:monotonic() - start
      local validity = ttl - elapsed - drift
      local ok = n >= quorum and validity > 0
      ctx:log("try %d of %d: %d of %d nodes granted the lock (need %d) [%s]; validity %d ms " ..
              "(expiry %d - elapsed %d - drift %d, monotonic clock)%s", try, s.retry_count, n,
              #nodes, quorum, answers, validity, ttl, elapsed, drift,
              ok and "" or n < quorum and ": no majority" or ": validity used up")
      if ok then
        ctx:log("ACQUIRED on a majority: valid for %d ms (no fencing token)", validity)
        return true
      end
      release_all(timeout)
    end
    return false, string.format("ErrFailed: no majority in %d tries", s.retry_count)
  end

  function lock.release()
    local n = release_all(s.unlock_timeout)
    value = nil
    if n >= quorum then return true end
    return false, string.format("only %d of %d nodes deleted my value", n, #nodes)
  end

  return lock
end

return M
