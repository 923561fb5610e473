-- redlock.lua — Redlock, the Redis documentation's lock over N independent masters
-- ("Distributed Locks with Redis", section "The Redlock Algorithm";
-- redis.io/docs/latest/develop/use/patterns/distributed-locks/).
--
-- To acquire, the client:
--   1. gets the current time in milliseconds;
--   2. tries to take the lock in all N instances sequentially, with the same key and random
--      value, using a per-instance timeout that is small next to the TTL ("if the auto-release
--      time is 10 seconds, the timeout could be in the ~ 5-50 milliseconds range"), so that a
--      dead node costs little;
--   3. computes the time elapsed since step 1; the lock is acquired if and only if it was
--      taken in the majority of the instances (N/2+1) and the elapsed time is less than the
--      lock validity time;
--   4. the validity is the TTL minus the elapsed time, minus the clock drift
--      (drift = TTL * 0.01 + 2 ms in redlock-rb, the reference implementation);
--   5. if it failed (fewer than N/2+1 locks, or validity <= 0) it unlocks ALL instances,
--      even those it believes it did not lock, and retries after a random delay.
-- To release, it runs the compare-and-delete script on every instance.
-- To extend ("Making the algorithm more reliable: Extending the lock"), it sends a
-- compare-and-PEXPIRE script to all instances and counts the lock as extended only if a
-- majority extended it within the validity time; the number of extensions must be bounded.
--
-- NO FENCING TOKEN: Redlock has none (Martin Kleppmann's main objection in "How to do
-- distributed locking", 2016; antirez answers in "Is Redlock safe?", 2016); acquire returns
-- plain `true`, so a resource with `fencing = true` cannot fence Redlock clients.
--
-- What is modelled and what is not:
--   * Sequential SETs, as the docs' step 2 says. The docs add that ideally a client
--     multiplexes (sends to all N at once); go-redsync and node-redlock do. Sequential
--     requests make `elapsed` larger and validity smaller, never the reverse.
--   * Every preset runs THIS algorithm (validity > 0 checked after each attempt). A preset
--     only changes the numbers: attempts, retry delay, drift, per-node timeout.
--   * The per-node timeout is the ctx:eval timeout; a reply that arrives later is ignored,
--     although the SET may have succeeded on that node: that is why step 5 unlocks ALL nodes.
--   * The scenario's `wait` also bounds the retries (a caller's patience); real libraries
--     only count attempts.
--
-- Options (scenario `options = { ... }`; each overrides the preset):
--   preset        "redlock-rb" (default) | "redlock-py" | "node-redlock" | "go-redsync"
--   retry_count   attempts in all (the first one included)
--   retry_delay   ms between attempts; with retry_jitter, uniform in delay ± jitter
--   retry_jitter  ms
--   drift_factor  the clock-drift allowance as a fraction of the TTL
--   drift_ms      the constant added to the drift (2 ms: Redis's expiry precision + 1)
--   node_timeout  ms to wait for each node's reply
--   auto_extend   true: a second coroutine extends the lock extend_before ms before its
--                 validity ends (node-redlock's automaticExtensionThreshold, 500 ms)
--   extend_before ms; max_extensions: how many times at most (default 10)
local M = {}

-- The options above, as checked before a run (another key, or another type, is an error at
-- the scenario): a type, or the list of the values a string may take.
M.OPTIONS = {
  preset = { "redlock-rb", "redlock-py", "node-redlock", "go-redsync" },
  retry_count = "integer", retry_delay = "integer", retry_jitter = "integer",
  drift_factor = "number", drift_ms = "number", node_timeout = "integer",
  auto_extend = "boolean", extend_before = "integer", max_extensions = "integer",
}

-- The public clients' defaults, read in each client's source (named below):
local PRESETS = {
  -- antirez/redlock-rb, the reference implementation linked from the docs:
  -- DefaultRetryCount = 3 (`@retry_count.times`), sleep(rand(@retry_delay)) with 200,
  -- drift = (ttl * ClockDriftFactor).to_i + 2 with 0.01.
  ["redlock-rb"]   = { retry_count = 3, delay_min = 0, delay_max = 199,
                       drift_factor = 0.01, drift_ms = 2, node_timeout = 50 },
  -- SPSCommerce/redlock-py: retry_count = 3 (`while retry < self.retry_count`),
  -- time.sleep(0.2), drift = int(ttl * 0.01) + 2.
  ["redlock-py"]   = { retry_count = 3, delay_min = 200, delay_max = 200,
                       drift_factor = 0.01, drift_ms = 2, node_timeout = 50 },
  -- mike-marcacci/node-redlock: retryCount 10 (so 11 attempts), retryDelay 200 ±
  -- retryJitter 100, drift = round(0.01 * duration) + 2, automaticExtensionThreshold 500.
  ["node-redlock"] = { retry_count = 11, delay_min = 100, delay_max = 300,
                       drift_factor = 0.01, drift_ms = 2, node_timeout = 50, extend_before = 500 },
  -- go-redsync/redsync: tries 32, delay rand(50..250), driftFactor 0.01 (no constant),
  -- timeoutFactor 0.05 (the per-round timeout is 0.05 * expiry; default expiry 8 s).
  ["go-redsync"]   = { retry_count = 32, delay_min = 50, delay_max = 249,
                       drift_factor = 0.01, drift_ms = 0, node_timeout_factor = 0.05 },
}

-- The settings: the preset's numbers, overridden by the scenario's options.
local function settings(options, ttl)
  local name = options.preset or "redlock-rb"
  local p = PRESETS[name]
  assert(p, "redlock: unknown preset '" .. tostring(name) ..
         "' (redlock-rb, redlock-py, node-redlock, go-redsync)")
  local s = { preset = name }
  for k, v in pairs(p) do s[k] = v end
  if options.retry_count then s.retry_count = options.retry_count end
  if options.retry_delay then
    local jitter = options.retry_jitter or 0
    s.delay_min, s.delay_max = math.max(0, options.retry_delay - jitter), options.retry_delay + jitter
  end
  if options.drift_factor then s.drift_factor = options.drift_factor end
  if options.drift_ms then s.drift_ms = options.drift_ms end
  if options.node_timeout then s.node_timeout = options.node_timeout
  elseif s.node_timeout_factor then s.node_timeout = s.node_timeout_factor * ttl end
  s.auto_extend = options.auto_extend or false
  s.extend_before = options.extend_before or s.extend_before or 500
  s.max_extensions = options.max_extensions or 10
  return s
end

function M.new(ctx, cfg)
  local nodes = ctx:nodes()
  local key = cfg.lock
  local quorum = #nodes // 2 + 1                 -- N/2+1
  local s                                         -- settings, once the TTL is known
  local value                                     -- my random value while I hold the lock
  local valid_until                               -- the instant my validity ends
  local generation = 0                            -- bumped on release: stops the extender
  local lock = {}

  -- The clock-drift allowance. To drop it (and watch what breaks), make this return 0.
  local function clock_drift(ttl) return math.floor(ttl * s.drift_factor) + s.drift_ms end

  -- One round of `script` on every node in order; returns how many answered `ok`.
  local function on_all_nodes(script, args, ok)
    local n, answers = 0, {}
    for _, node in ipairs(nodes) do
      local reply, err = ctx:eval(node, script, { key }, args, s.node_timeout)
      if reply == ok then n = n + 1 end
      answers[#answers + 1] = node .. ":" .. (reply ~= nil and tostring(reply) or err or "nil")
    end
    return n, table.concat(answers, " ")
  end

  local function unlock_all(why)
    local n = on_all_nodes("distlock/release", { value }, 1)
    ctx:log("%s: compare-and-delete on all %d nodes (%d still held my value)", why, #nodes, n)
    return n
  end

  -- Steps 1-4 once: returns the validity in ms if the lock is mine, else nil.
  local function try_once(ttl, attempt)
    local start = ctx:instant()                                        -- step 1
    local granted, answers = on_all_nodes("distlock/acquire", { value, ttl }, "OK")  -- step 2
    -- Steps 3-4: validity = TTL - elapsed - drift > 0, i.e. my clock still reads before
    -- start + TTL - drift. (ctx:before's second value, the ms to spare, is the validity; it
    -- is for the log only: the model checker follows the decision through its margin.)
    local valid_end = start + ttl - clock_drift(ttl)
    local in_time, validity = ctx:before(valid_end)
    local elapsed = ttl - clock_drift(ttl) - tonumber(validity)        -- for the log
    local ok = granted >= quorum and in_time
    ctx:log("attempt %d of %d: %d of %d nodes granted the lock (need %d) [%s]; " ..
            "validity %s ms (TTL %d - elapsed %d - drift %d)%s",
            attempt, s.retry_count, granted, #nodes, quorum, answers, validity, ttl, elapsed,
            clock_drift(ttl), ok and "" or granted < quorum and ": no majority" or ": validity used up")
    if ok then
      valid_until = valid_end
      return validity
    end
    unlock_all("attempt failed")                                       -- step 5
    return nil
  end

  -- Extension: the same majority and validity rule, with compare-and-PEXPIRE.
  local function extend(ttl)
    local start = ctx:instant()
    local extended = on_all_nodes("distlock/extend", { value, ttl }, 1)
    local new_end = start + ttl - clock_drift(ttl)
    local in_time, validity = ctx:before(new_end)                      -- validity > 0
    local elapsed = ttl - clock_drift(ttl) - tonumber(validity)        -- for the log
    local ok = extended >= quorum and in_time and ctx:before(valid_until)  -- in time
    ctx:log("extension: %d of %d nodes extended the lock; validity %s ms (TTL %d - elapsed %d - drift %d)%s",
            extended, #nodes, validity, ttl, elapsed, clock_drift(ttl),
            ok and "" or ": FAILED, the lock may be lost")
    if ok then valid_until = new_end end
    return ok
  end

  -- node-redlock style auto-extension, in a coroutine of its own.
  local function extender(ttl, gen)
    for _ = 1, s.max_extensions do
      ctx:sleep(math.max(0, (valid_until - s.extend_before) - ctx:instant()))
      if gen ~= generation then return end
      if not extend(ttl) then return end
    end
  end

  function lock.acquire(wait_ms, ttl)
    assert(ttl, "redlock needs a lease (the TTL): set lease in the scenario")
    s = s or settings(cfg.options, ttl)
    local give_up = ctx:instant() + wait_ms
    value = ctx:name() .. ":" .. ctx:unique(0, 999999999)     -- the same on every node
    for attempt = 1, s.retry_count do
      local validity = try_once(ttl, attempt)
      if validity then
        ctx:log("ACQUIRED on a majority: the lock is mine for %s ms (no fencing token)", validity)
        if s.auto_extend then ctx:spawn(extender, ttl, generation) end
        return true
      end
      if attempt == s.retry_count then break end
      local delay = ctx:random(s.delay_min, s.delay_max)                 -- random retry delay
      if not ctx:before(give_up - delay) then
        ctx:log("the wait budget (%d ms) would run out before the next attempt", wait_ms)
        return false, "wait budget spent"
      end
      ctx:log("retrying in %d ms", delay)
      ctx:sleep(delay)
    end
    return false, string.format("no majority in %d attempts", s.retry_count)
  end

  function lock.release()
    generation = generation + 1
    local n = unlock_all("release")
    value, valid_until = nil, nil
    if n >= quorum then return true end
    return false, string.format("only %d of %d nodes still held my value", n, #nodes)
  end

  return lock
end

return M
