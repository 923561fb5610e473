-- pg-advisory-blocking.lua — PostgreSQL's session-level advisory lock taken the usual way:
-- SELECT pg_advisory_lock(key) waits inside the server until the lock is free, bounded by the
-- session's lock_timeout, and pg_advisory_unlock(key) releases it (PostgreSQL 15
-- documentation, 13.3.5 "Advisory Locks", 9.27.10 "Advisory Lock Functions": "If another
-- session already holds a lock on the same resource identifier, this function will wait until
-- the resource becomes available"; 20.11.1 "Statement Behavior": lock_timeout "Abort any
-- statement that waits longer than the specified amount of time while attempting to acquire a
-- lock"):
--
--   acquire:  SET lock_timeout = WAIT_MS
--             SELECT pg_advisory_lock(KEY)       -- '' (void) once the lock is ours;
--                                                -- 55P03 "canceling statement due to lock timeout"
--   release:  SELECT pg_advisory_unlock(KEY) AS released
--
-- Waiters are served in the order they began to wait (checked against PostgreSQL 15 by
-- tests/diff/postgresql/cases/waits.txt). A holder that crashes loses its connection and its
-- session, and the first waiter has the lock at once; a waiter that crashes leaves nothing
-- (its wait goes with its session). pg-advisory.lua is the same lock polled with
-- pg_try_advisory_lock.
--
-- The application's own bound: libpq waits for a reply as long as it takes, so a server that
-- dies or is cut off would hold the waiter forever; this model, as an application with a
-- socket timeout does, stops awaiting the reply 1 s after lock_timeout would have ended the
-- wait (and then gives up: its session, still open, may yet get the lock it no longer awaits,
-- which the next acquire's statement finds held by itself).
--
-- Against the fake PostgreSQL (server = "postgresql").
--
-- Options: key — the lock's bigint key (default: the same hash of the lock's name as
-- pg-advisory.lua, whose key and unlock it shares).
local polled = require("pg-advisory")
local M = {}

M.SERVER = "postgresql"
M.OPTIONS = { key = "integer" }

function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local key = polled.key(cfg)
  ctx:lock_unit("key", "advisory/" .. key) -- the lock, as the fake names it (pg_locks' advisory lock)
  local lock = {}

  function lock.acquire(wait_ms, lease_ms)
    local wait = math.max(1, math.floor(wait_ms))
    local ok, err = ctx:call(node, "SET lock_timeout = " .. wait)
    if not ok then return false, "SET lock_timeout failed: " .. tostring(err) end
    local id = ctx:send(node, "SELECT pg_advisory_lock(" .. key .. ") AS got")
    local got, rows, msg, state = ctx:receive(wait + 1000)
    if not got then
      ctx:abandon("timeout")
      return false, "no reply"
    end
    if rows then return true end
    if state == "55P03" then return false, "lock busy" end
    return false, tostring(msg)
  end

  function lock.release() return polled.unlock(ctx, node, key) end

  return lock
end

return M
