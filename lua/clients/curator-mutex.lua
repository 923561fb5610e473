-- curator-mutex.lua — Apache Curator's InterProcessMutex over ZooKeeper (Curator 5.x,
-- curator-recipes/src/main/java/org/apache/curator/framework/recipes/locks/:
-- InterProcessMutex.java, LockInternals.java (attemptLock, internalLockLoop, deleteOurPath),
-- StandardLockInternalsDriver.java (getsTheLock, fixForSorting); the ZooKeeper 3.8 Java
-- client's heartbeat from zookeeper-server/.../ClientCnxn.java (SendThread.run)).
--
-- acquire(time): re-entrant per thread (InterProcessMutex.internalLock: a held lock's
--   lockCount goes up, nothing is sent). Else LockInternals.attemptLock: create
--   <lock path>/_c_<uuid>-lock-<sequence> EPHEMERAL_SEQUENTIAL (withProtection,
--   creatingParentContainersIfNeeded), then internalLockLoop: getChildren of the lock path,
--   sorted by the sequence after "lock-" (fixForSorting); if ours is first, we hold it;
--   else getData(predecessor) with a watch and wait for its event or the time left; a
--   NoNode means the predecessor is gone already: look again. Time up: delete our node
--   (doDelete) and fail. A NoNode for our own node (our session expired meanwhile) retries
--   attemptLock under the retry policy.
-- release(): lockCount down; at 0, delete our node (delete().guaranteed(): retried until it
--   succeeds; NoNode ignored: the node went with an expired session).
-- options.reentrant = N: each round acquires N times and releases N times (nested holds).
--
-- The ZooKeeper client beneath it (ClientCnxn, Curator's RetryLoop and ConnectionState):
--   * connect with the requested session timeout: options.session_timeout, else the
--     scenario's lease (the session is the lease a ZooKeeper lock has), else Curator's
--     default, 60 s (CuratorFrameworkFactory.DEFAULT_SESSION_TIMEOUT_MS); the server
--     negotiates it into [2, 20] ticks;
--   * a background coroutine pings when the connection has been idle for readTimeout / 2,
--     readTimeout = 2/3 of the negotiated timeout (ClientCnxn: readTimeout =
--     negotiatedSessionTimeout * 2 / 3; timeToNextPing = readTimeout / 2 - idleSend -
--     (idleSend > 1000 ? 1000 : 0)): a ping every third of the session timeout;
--   * ConnectionLoss or no reply within the request timeout: reconnect with the same
--     session id and retry; SessionExpired: a new session (Curator recreates the handle)
--     and retry — RetryLoop.shouldRetry retries both — under ExponentialBackoffRetry
--     (options.retry_base_sleep, default 1000 ms; options.max_retries, default 3);
--   * the watch events arrive on the client's subscription "watcher" (the handle's
--     default watcher); after a reconnection with the same session the client subscribes
--     again and sends SetWatches for the data watches it set, from the highest zxid it has
--     seen (ClientCnxn.primeConnection), so an event it missed meanwhile comes at once.
--
-- Fencing (scenario fencing = true): the token is the czxid of our lock node, read with
-- exists() once we hold the lock (the zxid of its creation grows with every write, so a
-- later holder's node has a larger one).
--
-- Simplifications, each with its effect:
--   * the parents of the lock node are created PERSISTENT, not CONTAINER: ZooKeeper's
--     container reaper (every 60 s) would delete an empty lock path; the next create makes
--     it again (creatingParentContainersIfNeeded), so no lock outcome changes;
--   * the node's data is empty (Curator writes the client's IP address): nothing reads it;
--   * the predecessor's events and stale events of earlier watches all just wake the
--     waiter, who looks again — as Curator's notifyAll() does for every event;
--   * no ConnectionStateListener: InterProcessMutex has none, so a holder whose session
--     expires keeps running its critical section (Curator's documentation, "Error handling":
--     the application must watch for SUSPENDED and LOST itself); that is the point of the
--     GC-pause and partition scenarios;
--   * the ZooKeeper client does not time out its own connection at readTimeout (it would
--     then reconnect to another server of the ensemble): requests time out at the
--     scenario's timeout instead, and are retried as a ConnectionLoss;
--   * the highest zxid the client has seen is taken from the Stats it received, not from
--     every reply's header: lower or equal, so SetWatches can only report a change more,
--     which wakes the waiter for one more look;
--   * connection-state events (Disconnected, SyncConnected, Expired), which ZooKeeper's
--     client hands every watcher and so wake Curator's waiter, reach the waiter up to
--     readTimeout / 2 late: the ctx API cannot wake one coroutine from another, so the
--     waiter looks at the connection state that often while it waits.
local M = {}

M.SERVER = "zookeeper"
M.OPTIONS = {
  session_timeout = "integer",
  retry_base_sleep = "integer",
  max_retries = "integer",
  lock_path = "string",
  reentrant = "integer",
}

local LOCK_NAME = "lock-" -- InterProcessMutex.LOCK_NAME

function M.new(ctx, cfg)
  local opts = cfg.options or {}
  local node = ctx:nodes()[1]
  local requested = opts.session_timeout or cfg.lease or 60000
  local base_sleep = opts.retry_base_sleep or 1000
  local max_retries = opts.max_retries or 3
  local base_path = opts.lock_path or ("/locks/" .. cfg.lock)
  ctx:lock_unit("prefix", base_path .. "/") -- the lock is the children of base_path

  -- ---- the ZooKeeper handle: session, connection, heartbeat ----
  -- state: bumped at every change of the connection's state (Disconnected, SyncConnected,
  -- Expired), the events ZooKeeper's client hands every watcher; watches: the data
  -- watches this handle has set and not yet seen fire; last_zxid: the highest zxid seen.
  local zk = { sid = nil, connected = false, connecting = false, timeout = nil, last_send = 0, sub = nil, beating = false,
               state = 0, watches = {}, last_zxid = 0 }

  local connect -- below

  local function disconnected(err)
    zk.connected = false
    zk.state = zk.state + 1
    if err == "SessionExpired" and zk.sid then
      ctx:log("session 0x%x has expired", zk.sid)
      zk.sid, zk.watches = nil, {}
    end
  end

  -- ClientCnxn.SendThread: ping after readTimeout / 2 of idleness; while the connection is
  -- down, try to connect again (the same session) after a random wait of up to a second.
  local function heartbeat()
    while true do
      local idle = ctx:now() - zk.last_send
      local read_timeout = (zk.timeout or requested) * 2 // 3
      local to_next = read_timeout // 2 - idle - (idle > 1000 and 1000 or 0)
      if not zk.connected then
        ctx:sleep(0, 1000)
        if not zk.connected then connect() end
      elseif to_next <= 0 then
        zk.last_send = ctx:now()
        local ok, err = ctx:call(node, "ping")
        if not ok then disconnected(err) end
      else
        ctx:sleep(to_next)
      end
    end
  end

  -- ClientCnxn's handshake: a new session, or the same one again after a lost connection,
  -- then (primeConnection) SetWatches for the watches set before, from the last zxid seen.
  function connect()
    if zk.connecting then -- the other coroutine is at it: wait for its outcome
      while zk.connecting do ctx:sleep(10) end
      if zk.connected then return true end
      return nil, "ConnectionLoss"
    end
    zk.connecting = true
    local id, timeout
    if zk.sid then id, timeout = ctx:call(node, "connect", requested, string.format("0x%x", zk.sid))
    else id, timeout = ctx:call(node, "connect", requested) end
    if id == nil then
      zk.connecting = false
      if timeout == "SessionExpired" then disconnected(timeout) end
      return nil, timeout
    end
    local again = zk.sid == id
    zk.sid, zk.timeout, zk.connected, zk.last_send = id, timeout, true, ctx:now()
    zk.sub = ctx:subscribe(node, "watcher") or zk.sub
    if again then
      local args = {}
      for path in pairs(zk.watches) do args[#args + 1] = path end
      table.sort(args) -- a deterministic order (the client's is its HashMap's)
      if #args > 0 then
        local words = { "setWatches", zk.last_zxid }
        for _, path in ipairs(args) do words[#words + 1] = "data"; words[#words + 1] = path end
        ctx:call(node, table.unpack(words))
      end
    end
    zk.connecting = false
    zk.state = zk.state + 1
    if not zk.beating then
      zk.beating = true
      ctx:spawn(heartbeat)
    end
    return true
  end

  local function seen(stat)
    if type(stat) == "table" and stat.czxid then
      zk.last_zxid = math.max(zk.last_zxid, stat.czxid, stat.mzxid, stat.pzxid)
    end
  end

  -- Curator's RetryLoop with ExponentialBackoffRetry around attempt(), which makes the
  -- requests of one try: its answer (a value; nil for exists() of nothing), or nil and a
  -- KeeperException.Code's name. A lost connection is retried after a reconnection.
  local function retry_loop(op, attempt)
    local err
    for retry = 0, max_retries do
      if retry > 0 then
        -- ExponentialBackoffRetry.getSleepTimeMs: base * max(1, random.nextInt(1 << (n + 1)))
        ctx:sleep(base_sleep * math.max(1, ctx:random(0, (1 << retry) - 1)))
      end
      local ok
      if zk.connected then ok = true else ok, err = connect() end
      if ok then
        local a, b = attempt()
        if a ~= nil or b == nil then
          seen(op == "getData" and b or a)
          return a, b
        end
        err = b
        if b == "timeout" or b == "ConnectionLoss" or b == "SessionExpired" then disconnected(b)
        else return nil, b end
      end
    end
    return nil, err
  end

  -- One request of the ZooKeeper client, as the connection's last send.
  local function send(op, ...)
    zk.last_send = ctx:now()
    return ctx:call(node, op, ...)
  end

  -- One operation under the retry loop.
  local function call(op, ...)
    local args = table.pack(...)
    return retry_loop(op, function() return send(op, table.unpack(args, 1, args.n)) end)
  end

  -- LockInternals' wait(millisToWait) until its watcher's notifyAll: a watch event, or a
  -- change of the connection's state (which ZooKeeper's client hands to every watcher).
  -- The ctx API cannot wake one coroutine from another, so the waiter looks at the state
  -- at least every readTimeout / 2: it reacts to a state change up to that much later.
  local function wait_for_change(ms)
    local state, deadline = zk.state, ctx:now() + ms
    while true do
      local left = deadline - ctx:now()
      if left <= 0 then return nil end
      local slice = math.min(left, math.max(1, (zk.timeout or requested) // 3))
      local event
      if zk.sub then event = ctx:wait(zk.sub, slice) else ctx:sleep(slice) end
      if event then
        local path = string.match(event, "^%S+ (.*)$")
        if path then zk.watches[path] = nil end
        return event
      end
      if zk.state ~= state then return "state" end
    end
  end

  -- ---- LockInternals ----
  local function sequence_of(name) -- StandardLockInternalsDriver.fixForSorting
    local i, last = 1, nil
    while true do
      local s, e = string.find(name, LOCK_NAME, i, true)
      if not s then break end
      last, i = e, s + 1
    end
    return last and string.sub(name, last + 1) or name
  end

  local function sorted_children()
    local children, err = call("getChildren", base_path)
    if not children then return nil, err end
    table.sort(children, function(a, b) return sequence_of(a) < sequence_of(b) end)
    return children
  end

  -- client.delete().guaranteed().forPath(ourPath), NoNode ignored.
  local function delete_our_path(path)
    while true do
      local ok, err = call("delete", path)
      if ok or err == "NoNode" then return true end
      ctx:sleep(base_sleep)
    end
  end

  -- create().creatingParentContainersIfNeeded().withProtection()
  --   .withMode(EPHEMERAL_SEQUENTIAL).forPath(path): the protected name carries a fresh
  -- UUID, so that after a lost reply the client can find the node it did create. As
  -- CreateBuilderImpl.pathInForeground does it, inside the retry loop: every try after the
  -- first looks for our node first (findProtectedNodeInForeground) and creates only when it
  -- is not there; a NoNode makes the parents (ZKPaths.mkdirs) and creates again at once.
  -- (Creating again without looking would leave the first node, an ephemeral of our live
  -- session, ahead of everyone's: a lock nobody can get.)
  local function create_lock_node()
    local uuid = string.format("%08x-%04x", ctx:unique(0, 0x7fffffff), ctx:unique(0, 0xffff))
    local prefix = "_c_" .. uuid .. "-"
    local path = base_path .. "/" .. prefix .. LOCK_NAME
    local first = true
    local made, err = retry_loop("create", function()
      if not first then
        local children, cerr = send("getChildren", base_path)
        if children == nil and cerr ~= "NoNode" then return nil, cerr end
        for _, name in ipairs(children or {}) do
          if string.sub(name, 1, #prefix) == prefix then return base_path .. "/" .. name end
        end
      end
      first = false
      local a, b = send("create", path, "", "ephemeral_sequential")
      if a == nil and b == "NoNode" then
        local at = ""
        for part in string.gmatch(base_path, "[^/]+") do
          at = at .. "/" .. part
          call("create", at, "", "persistent") -- NodeExists is fine
        end
        a, b = send("create", path, "", "ephemeral_sequential")
      end
      return a, b
    end)
    if made then return made end
    return nil, err or "could not create the lock node"
  end

  -- internalLockLoop: true (held), false (time up: our node deleted), or nil, "NoNode".
  local function internal_lock_loop(start, millis_to_wait, our_path)
    local seq_name = string.sub(our_path, #base_path + 2)
    while true do
      local children, err = sorted_children()
      if not children then
        delete_our_path(our_path)
        return false, err
      end
      local our_index
      for i, name in ipairs(children) do
        if name == seq_name then our_index = i end
      end
      if not our_index then return nil, "NoNode" end -- validateOurIndex: "Sequential path not found"
      if our_index == 1 then return true end        -- ourIndex < maxLeases (1)
      local previous = base_path .. "/" .. children[our_index - 1]
      local data, gerr = call("getData", previous, "watch")
      if data ~= nil then
        zk.watches[previous] = true
        local now = ctx:now()
        millis_to_wait = millis_to_wait - (now - start)
        start = now
        if millis_to_wait <= 0 then
          delete_our_path(our_path) -- doDelete: timed out
          return false, "timed out waiting for " .. children[our_index - 1]
        end
        wait_for_change(millis_to_wait)
      elseif gerr ~= "NoNode" then
        delete_our_path(our_path)
        return false, gerr
      end
      -- NoNode: the predecessor is gone already; look again
    end
  end

  local function attempt_lock(time)
    local start = ctx:now()
    local retry_count = 0
    while true do
      local our_path, err = create_lock_node()
      if not our_path then return nil, err end
      local held, why = internal_lock_loop(start, time - (ctx:now() - start), our_path)
      if held then return our_path end
      if held == false then return nil, why end
      -- NoNodeException: allowRetry(retryCount++, elapsed, sleeper)
      if retry_count >= max_retries then return nil, "our lock node vanished (session expired)" end
      retry_count = retry_count + 1
      ctx:sleep(base_sleep * math.max(1, ctx:random(0, (1 << retry_count) - 1)))
    end
  end

  -- ---- InterProcessMutex ----
  local mutex = {}
  local lock_data = nil -- { path, count, token }: this client's one thread's hold

  function mutex.acquire(wait_ms)
    if lock_data then
      lock_data.count = lock_data.count + 1
      return true, lock_data.token
    end
    local path, err = attempt_lock(wait_ms)
    if not path then return false, err end
    local token
    if cfg.fencing then
      local st = call("exists", path)
      token = st and st.czxid
    end
    lock_data = { path = path, count = 1, token = token }
    return true, token
  end

  function mutex.release()
    if not lock_data then return false, "You do not own the lock: " .. base_path end
    lock_data.count = lock_data.count - 1
    if lock_data.count > 0 then return true end
    local path = lock_data.path
    lock_data = nil
    delete_our_path(path)
    return true
  end

  -- What workload.lua drives: acquire(time) options.reentrant times (default 1) and
  -- release() as many times, as nested calls of one thread would.
  local holds = opts.reentrant or 1
  local lock = {}

  function lock.acquire(wait_ms)
    local ok, token = mutex.acquire(wait_ms)
    if not ok then return false, token end
    for n = 2, holds do
      local again, t = mutex.acquire(wait_ms)
      if not again then return false, "re-entry failed: " .. tostring(t), "reentry_failed" end
      token = t
      ctx:log("re-entered the lock: hold count %d (nothing sent)", n)
      ctx:lock_unit("reentered")
    end
    return true, token
  end

  function lock.release()
    for n = holds, 1, -1 do
      local ok, why = mutex.release()
      if not ok then return false, why end
      if n > 1 then
        ctx:log("release: hold count now %d, the lock stays mine", n - 1)
        ctx:lock_unit("inner_released")
      end
    end
    return true
  end

  return lock
end

return M
