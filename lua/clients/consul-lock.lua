-- consul-lock.lua — Consul's lock recipe as its Go API does it (hashicorp/consul, api/lock.go,
-- Lock/Unlock, and api/session.go, RenewPeriodic), over a session with a TTL and the
-- server's default lock-delay, against the fake Consul (server = "consul", sim/consul/).
--
--   Lock:    session = SESSION_CREATE TTL (DefaultLockSessionTTL "15s"), renewed by
--              RenewPeriodic in the background
--            WAIT: pair = KV_GET key; held by a session: wait for a change (a blocking
--              query), goto WAIT
--            KV_ACQUIRE key value session; false (a lock-delay in effect, or a race): wait
--              DefaultLockRetryTime (5 s), goto WAIT
--            held: a monitor watches the key and closes leaderCh if the session loses it
--   Unlock:  KV_RELEASE key value session, then stop the renewal, which destroys the session
--   RenewPeriodic: every TTL/2 SESSION_RENEW; an error: again every second until TTL has
--            passed since the last renewal, then give up; a 404 (the session is gone):
--            ErrSessionExpired.
--
-- Consul's documentation ("Sessions and distributed locks overview"): a session is
-- invalidated when its "TTL expires", and then "any of the locks held in association with
-- the session are released" (behavior release, the default); "Consul prevents any of the
-- previously held locks from being re-acquired for the lock-delay interval; this is a
-- safeguard inspired by Google's Chubby. The purpose of this delay is to allow the
-- potentially still live leader to detect the invalidation and stop processing requests that
-- may lead to inconsistent state. While not a bulletproof method, it does avoid the need to
-- introduce sleep states into application logic"; "the default is to use a 15 second
-- delay". And api/lock.go on Lock: "It is NOT safe to assume that the lock is held until
-- Unlock() unless the Session is specifically created without any associated health checks.
-- By default Consul sessions prefer liveness over safety and an application must be able to
-- handle the lock being lost."
--
-- The session has the node's serfHealth check, as api.Lock's does: its createSession calls
-- Session().Create, which sends no Checks, and the agent "Default[s] the session to our node +
-- serf check" (agent/session_endpoint.go); "By default, the gossip based failure detector is
-- used as the associated health check" (the overview). The client's host runs that node's
-- agent: a vanished or cut-off host fails its gossip probes and the session goes in seconds
-- (sim/consul/consul.c: memberlist's defaults), then the lock-delay; a crashed or paused
-- process leaves the agent answering, and only the TTL ends its session.
--
-- Options: session_ttl (ms; the scenario's lease, else 15000), lock_delay (ms, 15000),
-- behavior ("release", "delete"), no_checks (true: the session is made as
-- Session().CreateNoChecks makes it, with its TTL alone, as an application that wants the
-- lock safe until Unlock does: api/lock.go's "unless the Session is specifically created
-- without any associated health checks").
--
-- Simplifications and their effect:
-- - Blocking queries are polls: a waiter reads the key again every 100-200 ms instead of
--   being woken by the change; it learns of a release up to 200 ms later.
-- - The monitor (leaderCh) is logged, not obeyed: the critical section does not stop when
--   the session is lost, as an application that ignores leaderCh would not.
local M = {}

M.SERVER = "consul"
M.OPTIONS = { session_ttl = "integer", lock_delay = "integer", behavior = { "release", "delete" },
              no_checks = "boolean" }

local RETRY = 5000 -- DefaultLockRetryTime

function M.new(ctx, cfg)
  local o = cfg.options or {}
  local node = ctx:nodes()[1]
  local key = cfg.lock
  ctx:lock_unit("key", "kv/" .. key) -- the lock is the KV key, as the fake names it
  local ttl = o.session_ttl or cfg.lease or 15000
  local lock_delay = o.lock_delay or 15000
  local behavior = o.behavior or "release"
  local value = ctx:name()
  local session, renewing

  local function renew_periodic(id, state)
    local wait, last, ttl_now = ttl // 2, ctx:monotonic(), ttl
    while true do
      if ctx:monotonic() - last > ttl_now then
        ctx:log("session %s: no renewal for a TTL, giving up (RenewPeriodic returns)", id)
        return
      end
      ctx:sleep(wait)
      if state.done then
        ctx:call(node, "SESSION_DESTROY", id)
        return
      end
      local entry, err = ctx:call(node, "SESSION_RENEW", id)
      if entry then
        ttl_now, wait, last = entry.TTL, entry.TTL // 2, ctx:monotonic()
      elseif err and err:match("not found") then
        ctx:log("session %s expired (ErrSessionExpired): the lock is lost", id)
        return
      else
        wait = 1000
      end
    end
  end

  local lock = {}

  function lock.acquire(wait_ms, lease_ms)
    local budget = ctx:instant() + wait_ms
    local id, err = ctx:call(node, "SESSION_CREATE", ttl, lock_delay, behavior, o.no_checks and "none" or "serfHealth")
    if not id then return false, "failed to create session: " .. tostring(err) end
    session, renewing = id, { done = false }
    local state = renewing
    ctx:spawn(function() renew_periodic(id, state) end)
    while true do
      local pair, gerr = ctx:call(node, "KV_GET", key)
      if gerr then
        state.done = true
        return false, "failed to read lock: " .. tostring(gerr)
      end
      if pair and pair.Session then
        -- held: a blocking query would wake at the change
        if not ctx:before(budget) then state.done = true return false, "lock held" end
        ctx:sleep(100, 200)
      else
        local locked, aerr = ctx:call(node, "KV_ACQUIRE", key, value, id)
        if aerr then
          state.done = true
          return false, "failed to acquire lock: " .. tostring(aerr)
        end
        if locked then return true end
        ctx:log("acquire refused (lock-delay?): retrying in %d ms", RETRY)
        if not ctx:before(budget) then state.done = true return false, "lock-delay" end
        ctx:sleep(RETRY)
      end
    end
  end

  function lock.release()
    local id, state = session, renewing
    session, renewing = nil, nil
    if state then state.done = true end
    local ok, err = ctx:call(node, "KV_RELEASE", key, value, id)
    if ok == nil then return false, "failed to release lock: " .. tostring(err) end
    if not ok then return false, "the session no longer held the lock" end
    return true
  end

  return lock
end

return M
