-- redlock.lua — Redlock, the Redis documentation's lock over N independent masters
-- ("Distributed Locks with Redis", section "The Redlock Algorithm";
-- redis.io/docs/latest/develop/use/patterns/distributed-locks/), and the door to the models
-- of the libraries that implement it: `options.preset` picks one.
--
--   preset          model                      library, version
--   "redis-docs"    this file (the default)    the documentation's algorithm
--   "redlock-rb"    redlock-rb.lua             antirez/redlock-rb (the reference implementation)
--   "redlock-gem"   redlock-gem.lua            the redlock gem 2.0.6 (leandromoreira/redlock-rb)
--   "redlock-py"    redlock-py.lua             SPSCommerce/redlock-py 1.0.8
--   "node-redlock"  node-redlock.lua           mike-marcacci/node-redlock 5.0.0-beta.2
--   "go-redsync"    go-redsync.lua             go-redsync/redsync 4.17.0
--
-- Each library's file says which source files and lines it follows, where it parts from the
-- documentation, and what it still simplifies; `locklab compare SCENARIO --options
-- preset=redis-docs --options preset=node-redlock` runs the same faults under two of them.
--
-- The documentation's algorithm, to acquire:
--   1. gets the current time in milliseconds;
--   2. tries to take the lock in all N instances sequentially, with the same key and random
--      value, using a per-instance timeout that is small next to the TTL ("if the auto-release
--      time is 10 seconds, the timeout could be in the ~ 5-50 milliseconds range"), so that a
--      dead node costs little;
--   3. computes the time elapsed since step 1; the lock is acquired if and only if it was
--      taken in the majority of the instances (N/2+1) and the elapsed time is less than the
--      lock validity time;
--   4. the validity is the TTL minus the elapsed time, minus the clock drift;
--   5. if it failed (fewer than N/2+1 locks, or validity <= 0) it unlocks ALL instances,
--      even those it believes it did not lock, and retries after a random delay.
-- To release, it runs the compare-and-delete script on every instance.
-- To extend ("Making the algorithm more reliable: Extending the lock"), it sends a
-- compare-and-PEXPIRE script to all instances and counts the lock as extended only if a
-- majority extended it within the validity time; the number of extensions must be bounded.
-- The numbers the documentation leaves open come from antirez's reference implementation
-- (redlock-rb.lua: 3 attempts, a random 0-199 ms delay, drift = 1 % of the TTL + 2 ms); the
-- per-node timeout is the documentation's 50 ms, not redis-rb's 5 s.
--
-- NO FENCING TOKEN: Redlock has none (Martin Kleppmann's main objection in "How to do
-- distributed locking", 2016; antirez answers in "Is Redlock safe?", 2016); acquire returns
-- plain `true`, so a resource with `fencing = true` cannot fence Redlock clients.
--
-- What is modelled and what is not:
--   * Sequential SETs, as the docs' step 2 says. The docs add that ideally a client
--     multiplexes (sends to all N at once); go-redsync and node-redlock do (their presets).
--     Sequential requests make `elapsed` larger and validity smaller, never the reverse.
--   * The per-node timeout is the ctx:eval timeout; a reply that arrives later is ignored,
--     although the SET may have succeeded on that node: that is why step 5 unlocks ALL nodes.
--   * The scenario's `wait` also bounds the retries (a caller's patience); the libraries
--     only count attempts.
--   * The clock is the client's wall clock (ctx:now()): the documentation does not say.
--
-- Options (scenario `options = { ... }`; each overrides the preset's default; a library takes
-- the ones its file declares):
--   preset        "redis-docs" (default) | "redlock-rb" | "redlock-gem" | "redlock-py" |
--                 "node-redlock" | "go-redsync"
--   retry_count   attempts in all (the first one included: node-redlock's retryCount + 1,
--                 the gem's retry_count + 1, go-redsync's tries)
--   retry_delay   ms between attempts; with retry_jitter, as the library draws it (here:
--                 uniform in delay ± jitter)
--   retry_jitter  ms
--   drift_factor  the clock-drift allowance as a fraction of the TTL
--   drift_ms      the constant added to the drift (2 ms: Redis's expiry precision + 1)
--   node_timeout  ms to wait for each node's reply (a library without one waits forever)
--   timeout_factor go-redsync: a try's deadline as a fraction of the expiry (0.05)
--   auto_extend   true: a second coroutine extends the lock extend_before ms before its
--                 validity ends (node-redlock: its `using`, automaticExtensionThreshold 500)
--   extend_before ms; max_extensions: how many times at most (default 10; redis-docs only)
--   start_per_attempt node-redlock: the expiration counts from the successful attempt's
--                 start (master, #276) instead of the first attempt's (5.0.0-beta.2)
local M = {}

-- The options above, as checked before a run (another key, or another type, is an error at
-- the scenario): a type, or the list of the values a string may take. A library's model
-- checks again that it takes the ones given.
M.OPTIONS = {
  preset = { "redis-docs", "redlock-rb", "redlock-gem", "redlock-py", "node-redlock", "go-redsync" },
  retry_count = "integer", retry_delay = "integer", retry_jitter = "integer",
  drift_factor = "number", drift_ms = "number", node_timeout = "integer", timeout_factor = "number",
  auto_extend = "boolean", extend_before = "integer", max_extensions = "integer",
  start_per_attempt = "boolean",
  deadlock_bound = "string",  -- not the model's: no_deadlock's bound (model/check.c), e.g. "2s"
}

-- The library models, by preset.
local LIBRARIES = { ["redlock-rb"] = "redlock-rb", ["redlock-gem"] = "redlock-gem",
                    ["redlock-py"] = "redlock-py", ["node-redlock"] = "node-redlock",
                    ["go-redsync"] = "go-redsync" }

-- The documentation's algorithm: antirez's redlock-rb numbers (DefaultRetryCount = 3,
-- sleep(rand(200)) ms, drift = (ttl * 0.01).to_i + 2) with the documentation's 50 ms
-- per-node timeout.
local DEFAULTS = { retry_count = 3, delay_min = 0, delay_max = 199,
                   drift_factor = 0.01, drift_ms = 2, node_timeout = 50 }

-- The settings: the documentation's numbers, overridden by the scenario's options.
local function settings(options)
  local s = {}
  for k, v in pairs(DEFAULTS) do s[k] = v end
  if options.retry_count then s.retry_count = options.retry_count end
  if options.retry_delay then
    local jitter = options.retry_jitter or 0
    s.delay_min, s.delay_max = math.max(0, options.retry_delay - jitter), options.retry_delay + jitter
  end
  if options.drift_factor then s.drift_factor = options.drift_factor end
  if options.drift_ms then s.drift_ms = options.drift_ms end
  if options.node_timeout then s.node_timeout = options.node_timeout end
  s.auto_extend = options.auto_extend or false
  s.extend_before = options.extend_before or 500
  s.max_extensions = options.max_extensions or 10
  return s
end

-- The options a preset takes: an option of another library is an error at the scenario
-- (sim/client_load.c calls this before the run), not a setting silently ignored.
function M.CHECK(options)
  local preset = options.preset or "redis-docs"
  local takes = { preset = 1, retry_count = 1, retry_delay = 1, retry_jitter = 1, drift_factor = 1,
                  drift_ms = 1, node_timeout = 1, auto_extend = 1, extend_before = 1, max_extensions = 1 }
  if LIBRARIES[preset] then   -- a copy: the library's own OPTIONS stay as they are
    takes = {}
    for k in pairs(require(LIBRARIES[preset]).OPTIONS) do takes[k] = 1 end
  end
  if options.deadlock_bound then takes.deadlock_bound = 1 end  -- the checker's
  local names = {}
  for name in pairs(takes) do names[#names + 1] = name end
  table.sort(names)
  local given = {}
  for k in pairs(options) do given[#given + 1] = k end
  table.sort(given)
  for _, k in ipairs(given) do
    if not takes[k] then
      return k, string.format("is not an option of the %s preset (it takes: %s)", preset, table.concat(names, ", "))
    end
  end
end

function M.new(ctx, cfg)
  local library = LIBRARIES[cfg.options.preset or "redis-docs"]
  if library then
    local L = require(library)
    local options = {}
    for k, v in pairs(cfg.options) do if k ~= "preset" and k ~= "deadlock_bound" then options[k] = v end end
    local c = {}
    for k, v in pairs(cfg) do c[k] = v end
    c.options = options
    return L.new(ctx, c)
  end
  local nodes = ctx:nodes()
  local key = cfg.lock
  local quorum = #nodes // 2 + 1                 -- N/2+1
  local s = settings(cfg.options)
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
    local drift = clock_drift(ttl)
    local valid_end = start + ttl - drift
    local in_time, validity = ctx:before(valid_end)
    local elapsed = ttl - drift - tonumber(validity)                   -- for the log
    local ok = granted >= quorum and in_time
    ctx:log("attempt %d of %d: %d of %d nodes granted the lock (need %d) [%s]; " ..
            "validity %s ms (TTL %d - elapsed %d - drift %d)%s",
            attempt, s.retry_count, granted, #nodes, quorum, answers, validity, ttl, elapsed,
            drift, ok and "" or granted < quorum and ": no majority" or ": validity used up")
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
    local drift = clock_drift(ttl)
    local new_end = start + ttl - drift
    local in_time, validity = ctx:before(new_end)                      -- validity > 0
    local elapsed = ttl - drift - tonumber(validity)                   -- for the log
    local ok = extended >= quorum and in_time and ctx:before(valid_until)  -- in time
    ctx:log("extension: %d of %d nodes extended the lock; validity %s ms (TTL %d - elapsed %d - drift %d)%s",
            extended, #nodes, validity, ttl, elapsed, drift,
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
      -- a random retry delay in [delay_min, delay_max]: a window of the sleep, so that the model
      -- checker tries it by where the retry falls, not at each of its values. The budget is
      -- checked after the sleep: the same attempts give up, a retry delay later.
      ctx:log("retrying in %d to %d ms", s.delay_min, s.delay_max)
      ctx:sleep(s.delay_min, s.delay_max)
      if not ctx:before(give_up) then
        ctx:log("the wait budget (%d ms) ran out before the next attempt", wait_ms)
        return false, "wait budget spent"
      end
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
