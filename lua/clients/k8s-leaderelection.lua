-- k8s-leaderelection.lua — leader election on a Kubernetes Lease as client-go's
-- tools/leaderelection does it (kubernetes/client-go, master of July 2026, commit 32ce75a7;
-- leaderelection.go and resourcelock/leaselock.go), the lock every controller and operator
-- takes to be the one active replica. Against the fake API server (server = "kubernetes",
-- sim/k8s/): a Lease there never expires; the clients decide.
--
-- The source, step by step (line numbers of leaderelection.go at that commit):
--   Run (l. 211): acquire, then OnStartedLeading(ctx) in a goroutine (l. 220) and renew.
--   acquire (l. 252): wait.JitterUntilWithContext(tryAcquireOrRenew, RetryPeriod,
--     JitterFactor = 1.2, sliding): a try at once, then every RetryPeriod plus up to 1.2 x
--     RetryPeriod of jitter, until one succeeds.
--   renew (l. 279): every RetryPeriod, wait.PollUntilContextTimeout(RetryPeriod,
--     RenewDeadline, immediate): tryAcquireOrRenew until it succeeds; if none does within
--     RenewDeadline, "Failed to renew lease" and leadership ends (OnStoppedLeading). With
--     ReleaseOnCancel, release (l. 319): holderIdentity "", leaseDurationSeconds 1.
--   tryAcquireOrRenew (l. 444):
--     1. fast path (l. 456): a leader whose lease is still valid by its own observation
--        updates the Lease it last read or wrote, with that object's resourceVersion;
--     2. Get (l. 470); NotFound: Create with itself as holder (l. 476);
--     3. (l. 487) if the record differs from the one last observed, observe it now: the
--        observation time is this client's clock (setObservedRecord, l. 558);
--        if the Lease has a holder, is valid, and the holder is not this client: fail (l. 492);
--     4. (l. 499) keep acquireTime and leaseTransitions when renewing, else transitions + 1;
--        Update (l. 508) with the resourceVersion just read: a concurrent writer makes it 409
--        Conflict, and the try fails.
--   isLeaseValid (l. 548): observedTime + leaseDurationSeconds (the record's) is after now.
-- The package's own header: "This implementation does not guarantee that only one client is
-- acting as a leader (a.k.a. fencing)"; "A client only acts on timestamps captured locally
-- to infer the state of the leader election" — so it tolerates clock skew, but "is not
-- tolerant to arbitrary clock skew rate". Go's time.Now() carries a monotonic reading and
-- After/Add compare by it ("time" package, "Monotonic Clocks"): a client's wall-clock jump
-- moves nothing here; this model uses ctx:monotonic() for observedTime and now.
--
-- Options (milliseconds): lease_duration (the scenario's lease, else 15000, "Core clients
-- default this value to 15 seconds"), renew_deadline (default two thirds of lease_duration:
-- core clients' 10 s of 15), retry_period (2000), release_on_cancel (false, client-go's
-- default). Identity: the client's name.
--
-- Simplifications and their effect:
-- - The leader's work does not watch its context: when renewal fails, OnStoppedLeading is
--   logged and the renew loop ends, but the critical section runs on, as an application that
--   does not exit from OnStoppedLeading would (client-go's example, examples/leader-election/main.go, calls os.Exit(0) there).
-- - A request is not cut off at RenewDeadline's instant: the poll gives up after a try
--   returns past the deadline (a try's request times out after the scenario's timeout).
-- - resourceVersion is compared, as the API server does; the record compared for a change
--   is the Lease's spec (holder, duration, times, transitions), as leaselock.go's Get
--   returns it marshalled.
local M = {}

M.SERVER = "kubernetes"
M.OPTIONS = {
  lease_duration = "integer",
  renew_deadline = "integer",
  retry_period = "integer",
  release_on_cancel = "boolean",
}

function M.CHECK(o)
  local ld = o.lease_duration or 15000
  local rd = o.renew_deadline or (ld * 2 // 3)
  local rp = o.retry_period or 2000
  if ld <= rd then return "lease_duration", "must be greater than renew_deadline (NewLeaderElector)" end
  if rd <= rp * 1.2 then return "renew_deadline", "must be greater than retry_period x 1.2 (NewLeaderElector)" end
end

local JITTER = 1.2

function M.new(ctx, cfg)
  local o = cfg.options or {}
  local lease_duration = o.lease_duration or cfg.lease or 15000
  local renew_deadline = o.renew_deadline or (lease_duration * 2 // 3)
  local retry = o.retry_period or 2000
  local node = ctx:nodes()[1]
  local name = cfg.lock
  ctx:lock_unit("key", "lease/" .. name) -- the lock is the Lease object, as the fake names it
  local me = ctx:name()

  local observed, observed_raw, observed_time -- the record, its spec as read, when (monotonic)
  local cached_rv                             -- ll.lease: the object last read or written
  local leading, cancelled = false, false

  local function record_of(l)
    return { holder = l.holderIdentity or "", duration = l.leaseDurationSeconds,
             acquire = l.acquireTime or -1, renew = l.renewTime or -1, transitions = l.leaseTransitions }
  end
  local function raw(r)
    return table.concat({ r.holder, r.duration, r.acquire, r.renew, r.transitions }, "|")
  end
  local function set_observed(r)
    observed, observed_time = r, ctx:monotonic()
  end
  local function is_leader()
    return observed ~= nil and observed.holder == me
  end
  local function lease_valid(now)
    return observed_time + observed.duration * 1000 > now
  end
  local function words(r)
    return r.holder, r.duration, r.acquire, r.renew, r.transitions
  end

  local function try_acquire_or_renew()
    local wall, now = ctx:now(), ctx:monotonic()
    local rec = { holder = me, duration = lease_duration // 1000, acquire = wall, renew = wall, transitions = 0 }
    -- 1. fast path
    if is_leader() and lease_valid(now) then
      rec.acquire, rec.transitions = observed.acquire, observed.transitions
      local l, why = ctx:call(node, "UPDATE", name, cached_rv, words(rec))
      if l then
        cached_rv = l.resourceVersion
        set_observed(rec)
        return true
      end
      ctx:log("failed to update lease optimistically (%s), falling back to slow path", tostring(why))
    end
    -- 2. obtain or create
    local l, why = ctx:call(node, "GET", name)
    if not l then
      if why ~= "NotFound" then
        ctx:log("error retrieving lease lock: %s", tostring(why))
        return false
      end
      local made, err = ctx:call(node, "CREATE", name, words(rec))
      if not made then
        ctx:log("error initially creating lease lock: %s", tostring(err))
        return false
      end
      cached_rv = made.resourceVersion
      set_observed(rec)
      return true
    end
    cached_rv = l.resourceVersion
    -- 3. check the identity and the time
    local old = record_of(l)
    if raw(old) ~= observed_raw then
      set_observed(old)
      observed_raw = raw(old)
    end
    if old.holder ~= "" and lease_valid(now) and not is_leader() then
      return false
    end
    -- 4. update
    if is_leader() then
      rec.acquire, rec.transitions = old.acquire, old.transitions
    else
      rec.transitions = old.transitions + 1
    end
    local u, err = ctx:call(node, "UPDATE", name, l.resourceVersion, words(rec))
    if not u then
      ctx:log("failed to update lease: %s", tostring(err))
      return false
    end
    cached_rv = u.resourceVersion
    set_observed(rec)
    return true
  end

  local function renew_loop()
    while not cancelled do
      local start = ctx:monotonic()
      local ok = false
      while not cancelled do
        ok = try_acquire_or_renew()
        if ok or ctx:monotonic() - start + retry > renew_deadline then break end
        ctx:sleep(retry)
      end
      if cancelled then return end
      if not ok then
        leading = false
        ctx:log("failed to renew lease %s: timed out waiting for the condition; OnStoppedLeading", name)
        return
      end
      ctx:sleep(retry)
    end
  end

  local lock = {}

  function lock.acquire(wait_ms, lease_ms)
    local budget = ctx:instant() + wait_ms
    cancelled = false
    while true do
      if try_acquire_or_renew() then
        leading = true
        ctx:log("successfully acquired lease %s", name)
        ctx:spawn(renew_loop)
        return true
      end
      if not ctx:before(budget) then return false, "lease held by " .. tostring(observed and observed.holder) end
      ctx:sleep(retry, retry + math.floor(retry * JITTER))
    end
  end

  function lock.release()
    cancelled = true
    local was = leading
    leading = false
    if not o.release_on_cancel then
      return was, (not was) and "leadership already lost" or nil
    end
    -- tryRelease (l. 326), retried on a conflict
    for _ = 1, 10 do
      local l, why = ctx:call(node, "GET", name)
      if not l then return false, why end
      cached_rv = l.resourceVersion
      if not is_leader() then return true end
      local wall = ctx:now()
      local rec = { holder = "", duration = 1, acquire = wall, renew = wall, transitions = l.leaseTransitions }
      local u, err = ctx:call(node, "UPDATE", name, l.resourceVersion, words(rec))
      if u then
        set_observed(rec)
        return true
      end
      if err ~= "Conflict" then return false, err end
    end
    return false, "conflicts"
  end

  return lock
end

return M
