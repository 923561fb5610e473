-- node-redlock.lua — the Redlock client of Node.js, node-redlock v5 (npm "redlock"
-- 5.0.0-beta.2), as its source does it; `protocol = "redlock"` with `preset = "node-redlock"`
-- loads it (or `protocol = "node-redlock"` directly).
--
-- Library:  https://github.com/mike-marcacci/node-redlock, file src/index.ts at tag
--           v5.0.0-beta.2 (commit 54de94cfd7e3), the newest release on npm; line numbers
--           below are that file's. Master (afe5cf92c824) differs in one point, the option
--           start_per_attempt (#274, #276).
-- Scripts:  node-redlock/acquire|extend|release@5.0.0-beta.2 (lua/redis/node-redlock/), the
--           ACQUIRE_SCRIPT, EXTEND_SCRIPT and RELEASE_SCRIPT constants (lines 12-58).
--
-- What it does, and where it parts from the Redis documentation's algorithm (redlock.lua):
--   * One attempt (_attemptOperation, lines 470-543) sends the script to EVERY node at once
--     and settles at the first quorum of votes (lines 510-524): N/2+1 "for" (the script
--     returned the number of keys), or N/2+1 "against" (it returned anything else, or the
--     request failed: lines 591-617). The other replies are not waited for. When every vote
--     is in and neither side has a quorum (an even N split in half), the promise never
--     settles: the call hangs (so does the model).
--   * ACQUIRE_SCRIPT votes against when the key exists, WHATEVER its value: a key this client
--     set itself in an earlier attempt counts against it too.
--   * _execute (lines 418-468) retries a failed attempt retryCount times (default 10: 11
--     attempts), retryDelay + floor((random*2-1) * retryJitter) ms apart (200 ± 100, lines
--     449-457), WITHOUT unlocking between attempts: the keys a failed attempt did set stay
--     until they expire. Only when every attempt failed does acquire (lines 330-339) run
--     RELEASE_SCRIPT once (retryCount 0) and throw ExecutionError.
--   * It never checks the validity: acquire returns a Lock whose expiration is
--     start + duration - drift (lines 316-329), drift = round(0.01 * duration) + 2, even
--     when that moment is already past (a GC pause, a slow node). start is Date.now() taken
--     once before the FIRST attempt (line 305), so retries shorten the expiration too; on
--     master it is the successful attempt's start (#276; option start_per_attempt).
--   * release (lines 350-364) runs RELEASE_SCRIPT with the default retries (a node that no
--     longer has the key votes against: releasing an expired lock retries 10 times and
--     throws).
--   * extend (lines 369-408) refuses a lock whose expiration has passed, then runs
--     EXTEND_SCRIPT (SET PX again if the key still holds my value) with the same retries,
--     and sets expiration = start + duration - drift.
--   * using (lines 654-763; option auto_extend) acquires, then extends the lock
--     automaticExtensionThreshold (500) ms before its expiration (queue, lines 709-714);
--     when an extension fails while the lock has not yet expired it tries again at once
--     (lines 716-734), else it aborts the routine's signal. A duration not at least 100 ms
--     over the threshold is refused (line 693). After the routine, it waits for an
--     extension in flight and releases.
--   * Clock: Date.now(), the wall clock (ctx:now()): a clock jump moves it.
--   * No per-request timeout: ioredis has no commandTimeout unless one is set (option
--     node_timeout), so a node that never answers costs nothing while a quorum of the
--     others answers, and hangs the call when it does not.
--
-- Remaining simplifications, and their effect:
--   * ioredis first sends EVALSHA and, on NOSCRIPT, EVAL (lines 555-588): one more round trip
--     to each node on first use and after a restart. The model sends EVAL at once: replies
--     come one round trip earlier there.
--   * ioredis queues commands while reconnecting and resends them (enableOfflineQueue,
--     autoResendUnfulfilledCommands); the simulated network drops what a partition or a
--     dead node receives, and nothing is resent: a node that comes back does not get the
--     old request (it would vote then, later than any quorum).
--   * The routine of `using` does not look at its abort signal (node-redlock's README asks
--     it to): the workload works on after a failed extension, as a routine that never
--     checks does. The release waits for an extension in flight by polling every 1 ms.
--   * A jitter wider than the delay: the library clamps a negative delay to 0 (so 0 is
--     likelier); the model draws uniformly in [max(0, delay - jitter), delay + jitter - 1].
--   * The scenario's `wait` is not used: the library counts attempts only.
local M = {}

M.OPTIONS = {
  preset = { "node-redlock" },
  retry_count = "integer", retry_delay = "integer", retry_jitter = "integer",
  drift_factor = "number", node_timeout = "integer", auto_extend = "boolean",
  extend_before = "integer", start_per_attempt = "boolean",
}

-- defaultSettings, lines 105-112 (retry_count counts attempts: retryCount + 1).
M.DEFAULTS = { retry_count = 11, retry_delay = 200, retry_jitter = 100, drift_factor = 0.01,
               extend_before = 500 }

local ACQUIRE = "node-redlock/acquire@5.0.0-beta.2"
local EXTEND = "node-redlock/extend@5.0.0-beta.2"
local RELEASE = "node-redlock/release@5.0.0-beta.2"

function M.new(ctx, cfg)
  local s = require("redlock-seq").settings(M.DEFAULTS, cfg.options)
  local nodes = ctx:nodes()
  local key = cfg.lock
  local quorum = #nodes // 2 + 1
  local held                     -- { value, expiration } while the workload holds the lock
  local generation = 0           -- bumped on release: stops the extender
  local extending = false        -- an extension is in flight
  local lock = {}

  local function drift(ttl) return math.floor(s.drift_factor * ttl + 0.5) + 2 end  -- Math.round

  -- _attemptOperation: the script on every node at once, settled at the first quorum.
  local function attempt(script, args)
    local start = ctx:now()
    local ids, node_of = {}, {}       -- the requests in node order, and their nodes until answered
    for i, node in ipairs(nodes) do
      ids[i] = ctx:send_eval(node, script, { key }, args)
      node_of[ids[i]] = node
    end
    local votes_for, votes_against, answers, waiting, timed_out = 0, 0, {}, #nodes, false
    local deadline = s.node_timeout and start + s.node_timeout
    local function vote(node, ok, what)
      answers[#answers + 1] = node .. ":" .. what
      if ok then votes_for = votes_for + 1 else votes_against = votes_against + 1 end
      waiting = waiting - 1
    end
    while votes_for < quorum and votes_against < quorum do
      if waiting == 0 then
        ctx:log("%d for, %d against of %d [%s]: neither side has a quorum of %d, and " ..
                "node-redlock's attempt never settles (src/index.ts lines 510-530)",
                votes_for, votes_against, #nodes, table.concat(answers, " "), quorum)
        while true do ctx:sleep(3600000) end
      end
      local id, reply, err = ctx:receive(deadline and math.max(0, deadline - ctx:now()))
      if id then
        vote(node_of[id], reply == 1, reply ~= nil and tostring(reply) or err or "nil")
        node_of[id] = nil
      else -- ioredis's commandTimeout: every request still out fails now, in node order
        timed_out = true
        for _, rid in ipairs(ids) do
          if node_of[rid] and votes_for < quorum and votes_against < quorum then
            vote(node_of[rid], false, "timeout")
            node_of[rid] = nil
          end
        end
      end
    end
    ctx:abandon(timed_out and "timeout" or nil)  -- the late votes only fill the attempt's stats
    local ok = votes_for >= quorum
    return ok, start, string.format("%d for, %d against of %d (quorum %d) [%s]", votes_for,
                                    votes_against, #nodes, quorum, table.concat(answers, " "))
  end

  -- _execute: attempts until one has a quorum for, at most retry_count of them.
  local function execute(what, script, args, attempts)
    for n = 1, attempts do
      local ok, start, summary = attempt(script, args)
      ctx:log("%s, attempt %d of %d: %s%s", what, n, attempts, summary, ok and "" or ": against")
      if ok then return true, start end
      if n == attempts then break end
      local lo, hi = s.retry_delay - s.retry_jitter, s.retry_delay + s.retry_jitter - 1
      if hi < lo then hi = lo end
      lo, hi = math.max(0, lo), math.max(0, hi)
      ctx:sleep(lo, hi)
    end
    return false
  end

  -- Redlock.extend (lines 369-408): fails at once if the expiration has passed.
  local function extend(ttl)
    local start0 = ctx:now()
    if held.expiration < ctx:now() then
      return false, "Cannot extend an already-expired lock."
    end
    local ok, start = execute("extend", EXTEND, { held.value, ttl }, s.retry_count)
    if not ok then return false, "ExecutionError" end
    held.expiration = (s.start_per_attempt and start or start0) + ttl - drift(ttl)
    ctx:log("extended: expiration in %d ms", held.expiration - ctx:now())
    return true
  end

  -- using's timer and extend (lines 709-734), until the release bumps the generation.
  local function extender(ttl, gen)
    while true do
      ctx:sleep(math.max(1, held.expiration - ctx:now() - s.extend_before))
      if gen ~= generation then return end
      repeat
        extending = true
        local ok, why = extend(ttl)
        extending = false
        if gen ~= generation then return end
        if not ok and not (held.expiration > ctx:now()) then
          ctx:log("automatic extension failed (%s) after the lock expired: the routine's " ..
                  "signal is aborted, and the routine, which does not look, works on", why)
          return
        end
      until ok
    end
  end

  function lock.acquire(_, ttl)
    assert(ttl, "node-redlock needs a lease (the duration): set lease in the scenario")
    if s.auto_extend and s.extend_before > ttl - 100 then
      error("node-redlock: a lock `duration` must be at least 100ms greater than the " ..
            "`automaticExtensionThreshold` setting (src/index.ts line 693)", 0)
    end
    local value = string.format("%s:%08x%08x", ctx:name(), ctx:unique(0, 0x7fffffff), ctx:unique(0, 0x7fffffff))
    local start0 = ctx:now()                                    -- line 305
    local ok, start = execute("acquire", ACQUIRE, { value, ttl }, s.retry_count)
    if not ok then
      local released = attempt(RELEASE, { value })               -- lines 330-339
      ctx:log("no quorum in %d attempts: released what it may hold (%s), ExecutionError",
              s.retry_count, released and "a quorum released" or "no quorum")
      return false, "ExecutionError: the operation was unable to achieve a quorum during its retry window"
    end
    local expiration = (s.start_per_attempt and start or start0) + ttl - drift(ttl)
    local left = expiration - ctx:now()
    if left > 0 then
      ctx:log("ACQUIRED: the lock expires in %d ms by its expiration (no fencing token)", left)
    else
      ctx:log("ACQUIRED, although its expiration (start + %d - drift %d) passed %d ms ago: " ..
              "node-redlock does not check (src/index.ts lines 316-329)", ttl, drift(ttl), -left)
    end
    held = { value = value, expiration = expiration }
    if s.auto_extend then ctx:spawn(extender, ttl, generation) end
    return true
  end

  function lock.release()
    generation = generation + 1
    while extending do ctx:sleep(1) end     -- using: await the extension in flight
    local value = held.value
    held.expiration = 0                     -- line 355
    local ok = execute("release", RELEASE, { value }, s.retry_count)
    held = nil
    if ok then return true end
    return false, "ExecutionError: no quorum released the lock"
  end

  return lock
end

return M
