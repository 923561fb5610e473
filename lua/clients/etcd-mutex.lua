-- etcd-mutex.lua — etcd's own lock recipe: concurrency.Mutex of the Go client v3.4 (etcd-io/etcd
-- at v3.4.23, the version of Debian's etcd-server), over a concurrency.Session, against the
-- fake etcd (sim/etcd/, server = "etcd").
--
-- Files followed, line by line where it matters:
--   clientv3/concurrency/session.go  NewSession: Grant(ttl) with defaultSessionTTL = 60 s
--                                    (WithTTL), then KeepAlive(ctx, id) for the session's life
--   clientv3/lease.go                the keep-alive loops: sendKeepAliveLoop wakes every 500 ms
--                                    (retryConnWait) and sends a LeaseKeepAliveRequest for every
--                                    lease whose nextKeepAlive has passed; recvKeepAlive: TTL <= 0
--                                    closes the keep-alive, else nextKeepAlive = now + TTL/3 and
--                                    deadline = now + TTL; deadlineLoop, every second, closes a
--                                    keep-alive whose deadline passed (the first deadline:
--                                    firstKeepAliveTimeout, 5 s); a closed keep-alive is never
--                                    sent again: the session is over, and nobody is told
--   clientv3/concurrency/mutex.go    Lock: myKey = pfx/<lease id in hex>; one Txn
--                                    If(CreateRevision(myKey) = 0) Then(Put(myKey, "", lease),
--                                    Get(pfx, WithFirstCreate)) Else(Get(myKey), Get(pfx,
--                                    WithFirstCreate)); myRev = header.revision, or myKey's
--                                    create_revision when the key was there; the lock is mine if
--                                    the oldest key is mine (or there is none); else
--                                    waitDeletes(pfx, myRev - 1), and on its error Unlock.
--                                    Unlock: Delete(myKey).
--   clientv3/concurrency/key.go      waitDeletes: Get(pfx, WithLastCreate, WithMaxCreateRev(rev))
--                                    — the newest key older than mine — and waitDelete on it:
--                                    Watch(key, WithRev(header.revision)) until a DELETE event;
--                                    again until no older key is left.
--
-- Version 3.4's Lock returns success as soon as no older key is left, without checking that its
-- own key still exists: a waiter whose session expired while it waited "acquires" a lock it
-- does not hold (v3.5.0 added the check: commit b14c7cd44, "concurrency: make lock more
-- reliable", returning ErrSessionExpired; etcd issues #10111 and #19597 discuss the gap).
-- Nothing in the Mutex watches the session: a holder whose lease expired (a GC pause longer
-- than the TTL, a partition) goes on believing it holds the lock. The fencing token, when the
-- scenario sets fencing = true, is the lock key's create_revision (myRev): etcd's revisions only
-- grow, so a later holder always has a larger one.
--
-- Scenario settings: the session's TTL is the scenario's lease rounded up to whole seconds
-- (concurrency.WithTTL(seconds); etcd raises a TTL under its minimum, 2 s by default); lease =
-- false leaves the default, 60 s. The lock's prefix is cfg.lock ("lock": keys lock/<id>). wait
-- is Lock's context: when it runs out, waitDeletes ends with "context deadline exceeded" and
-- Lock deletes its key.
--
-- Simplifications, each with its effect:
--   * One Session per client, made at its first acquire and kept for every round (an
--     application usually makes one per process). A session whose lease expired is not
--     replaced: the next Lock fails with "etcdserver: requested lease not found".
--   * An RPC that gets no answer within the scenario's timeout fails the Lock (or the Unlock)
--     with "timeout"; the Go client would retry some failures on another endpoint. With one
--     node there is no other endpoint.
--   * A broken connection (the node crashed, a partition) is noticed when a keep-alive of this
--     client gets no answer within the scenario's timeout, where gRPC would see the stream
--     break at once for a crashed process: a waiter re-creates its watch up to a keep-alive
--     interval plus a timeout later (then, as the Go watcher does, from its revision, so a
--     deletion that happened meanwhile is still seen).
--   * The deadline loop runs on the sender's 500 ms ticks at 1 s intervals rather than on a
--     goroutine of its own; both are polls of the same deadline, so a closed keep-alive is
--     noticed at the same 1 s granularity.
local M = {}

M.SERVER = "etcd"
-- session_ttl: the session's TTL in seconds (overrides the scenario's lease)
M.OPTIONS = { session_ttl = "integer" }

local RETRY_CONN_WAIT = 500 -- clientv3/lease.go retryConnWait
local FIRST_KEEPALIVE_TIMEOUT = 5000 -- lease.go defaultTTL, the first keep-alive's deadline

function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local opts = cfg.options or {}
  local ttl = opts.session_ttl or (cfg.lease and math.ceil(cfg.lease / 1000)) or 60
  local pfx = cfg.lock .. "/" -- NewMutex(s, pfx): pfx + "/"
  ctx:lock_unit("prefix", pfx) -- the lock is the keys under the prefix; each holder's is its own
  local session = nil
  local my_key, my_rev = nil, -1
  local conn_epoch = 0 -- requests of this client left without an answer: its connection broke
  local lock = {}

  -- lease.go recvKeepAlive, for one answer of the keep-alive stream.
  local function send_keepalive(s)
    local resp, err = ctx:call(node, "LEASE_KEEPALIVE", s.id)
    if err == "timeout" then conn_epoch = conn_epoch + 1 end
    if not resp or s.closed then return end
    if resp.TTL <= 0 then
      s.closed = true
      ctx:log("session lease %x: keep-alive answered TTL %d: the lease is gone, keep-alives stop", s.id, resp.TTL)
      return
    end
    local now = ctx:now()
    s.next_keepalive = now + resp.TTL * 1000 // 3
    s.deadline = now + resp.TTL * 1000
  end

  -- lease.go sendKeepAliveLoop and deadlineLoop.
  local function keepalive_loop(s)
    local ticks = 0
    while not s.closed do
      local now = ctx:now()
      ticks = ticks + 1
      if ticks % 2 == 0 and s.deadline < now then
        s.closed = true
        ctx:log("session lease %x: no keep-alive answer before its deadline; keep-alives stop", s.id)
        return
      end
      if s.next_keepalive < now then ctx:spawn(send_keepalive, s) end
      ctx:sleep(RETRY_CONN_WAIT)
    end
  end

  -- session.go NewSession
  local function new_session()
    local resp, err = ctx:call(node, "LEASE_GRANT", ttl)
    if not resp then return nil, err end
    local s = { id = resp.ID, closed = false, next_keepalive = ctx:now() - 1,
                deadline = ctx:now() + FIRST_KEEPALIVE_TIMEOUT }
    ctx:log("session: lease %x granted, TTL %d s, kept alive every TTL/3", s.id, resp.TTL)
    ctx:spawn(keepalive_loop, s)
    return s
  end

  local function remaining(deadline)
    return deadline - ctx:now()
  end

  -- key.go waitDelete: watch the key from rev until a DELETE event. The Go watcher re-creates
  -- a watch whose stream broke, from where it was (watcher.go: resume from the last revision
  -- received + 1); here a broken connection is seen as a request of this client left without
  -- an answer (conn_epoch), and the watch is made again from rev, whose history the server
  -- replays. The wait is polled every 500 ms for that: the polls send nothing.
  local function wait_delete(key, rev, deadline)
    while true do
      if remaining(deadline) <= 0 then return nil, "context deadline exceeded" end
      local epoch = conn_epoch
      local sub = ctx:subscribe(node, "key " .. key .. " from " .. rev)
      if sub then
        while conn_epoch == epoch do
          local left = remaining(deadline)
          if left <= 0 then
            ctx:unsubscribe(sub)
            return nil, "context deadline exceeded"
          end
          local ev = ctx:wait(sub, math.min(left, RETRY_CONN_WAIT))
          if ev and ev:sub(1, 7) == "DELETE " then
            ctx:unsubscribe(sub)
            return true
          end
        end
        ctx:unsubscribe(sub)
        ctx:log("the connection to etcd broke: watches %s again from revision %d", key, rev)
      else
        ctx:sleep(RETRY_CONN_WAIT) -- no answer: the watcher tries again
      end
    end
  end

  -- key.go waitDeletes: until no key of the prefix older than max_create_rev is left.
  local function wait_deletes(max_create_rev, deadline)
    while true do
      local resp, err = ctx:call(node, "GET", pfx, "LAST_CREATE", "MAX_CREATE", max_create_rev)
      if not resp then return nil, err end
      if #resp.kvs == 0 then return resp.header end
      local last = resp.kvs[1]
      ctx:log("waits for the deletion of %s (create_revision %d, before mine, %d)", last.key,
              last.create_revision, my_rev)
      local ok, werr = wait_delete(last.key, resp.header.revision, deadline)
      if not ok then return nil, werr end
    end
  end

  local function token()
    if cfg.fencing then return my_rev end
    return nil
  end

  -- mutex.go Unlock
  local function unlock()
    local _, err = ctx:call(node, "DEL", my_key)
    if err then return false, err end
    my_key, my_rev = "\0", -1
    return true
  end

  -- mutex.go Lock (v3.4.23)
  function lock.acquire(wait_ms)
    local deadline = ctx:now() + wait_ms
    if not session then
      local s, err = new_session()
      if not s then return false, err end
      session = s
    end
    my_key = string.format("%s%x", pfx, session.id)
    local resp, err = ctx:call(node, "TXN",
      "IF", "CREATE", my_key, "=", 0,
      "THEN", "PUT", my_key, "", "LEASE", session.id, "GET", pfx, "FIRST_CREATE",
      "ELSE", "GET", my_key, "GET", pfx, "FIRST_CREATE")
    if not resp then return false, err end
    my_rev = resp.header.revision
    if not resp.succeeded then my_rev = resp.responses[1].response_range.kvs[1].create_revision end
    local owner = resp.responses[2].response_range.kvs
    if #owner == 0 or owner[1].create_revision == my_rev then return true, token() end
    local _, werr = wait_deletes(my_rev - 1, deadline)
    if werr then
      unlock()
      return false, werr
    end
    return true, token()
  end

  function lock.release()
    return unlock()
  end

  return lock
end

return M
