-- pg-advisory.lua — PostgreSQL's session-level advisory lock: pg_try_advisory_lock(key),
-- polled, and pg_advisory_unlock(key), held by the session (the backend) that took it
-- (PostgreSQL 15 documentation, 13.3.5 "Advisory Locks" and 9.27.10 "Advisory Lock
-- Functions", www.postgresql.org/docs/15/explicit-locking.html#ADVISORY-LOCKS):
--
--   acquire:  SELECT pg_try_advisory_lock(KEY) AS got        -- true: mine, false: busy
--   release:  SELECT pg_advisory_unlock(KEY) AS released     -- true; false: not mine
--
-- "Once acquired at session level, an advisory lock is held until explicitly released or
-- the session ends"; "if a session already holds a given advisory lock, additional requests
-- by it will always succeed", and each must be released. A holder that crashes loses its
-- connection and its session, and the lock frees at once. The lock lives in the server's
-- shared memory only: it is never WAL-logged, so a standby promoted by a failover and a
-- restarted server have none, while the holder, until its next statement, does not know.
--
-- Through a connection pooler the session is not the client's. PgBouncer with
-- pool_mode = transaction assigns a server connection "to a client only during a
-- transaction", and its feature map lists session-level advisory locks as never compatible
-- with transaction pooling (www.pgbouncer.org/features.html); server connections are reused
-- last-in first-out (pgbouncer.ini, server_round_robin = 0). The lock then belongs to
-- whichever backend ran the statement: the next client handed that backend finds the lock
-- "already held" — by its own session — and pg_try_advisory_lock says true to it too. A
-- scenario puts the pool in front of the server with server_options = { pgbouncer_pool = N }
-- (scenarios/postgresql-pgbouncer-session-lock.lua); this recipe is unchanged, which is the
-- trap.
--
-- Against the fake PostgreSQL (server = "postgresql"; checked against PostgreSQL 15 by
-- tests/diff/postgresql/cases/session.txt, and through a real pgbouncer by pgbouncer.txt).
--
-- Options: key — the lock's bigint key (default: a hash of the lock's name, as applications
-- derive one, e.g. with hashtext()).
--
-- Simplifications and their effect:
-- - The usual recipe waits inside the server: SELECT pg_advisory_lock(KEY) blocks until the
--   lock frees (bounded by lock_timeout or statement_timeout); that is pg-advisory-blocking.lua
--   (the matrix's row postgresql-blocking). This model polls pg_try_advisory_lock every
--   50-200 ms, as applications that do not want a statement to wait do: a waiter gets the
--   lock up to 200 ms after it frees rather than at once.
-- - Re-entrance (counted; the fake models it) is not used: one acquire, one release a round.
local M = {}

M.SERVER = "postgresql"
M.OPTIONS = { key = "integer" }

-- A key from the lock's name: a 31-bit string hash (any stable one does; PostgreSQL's own
-- hashtext is not reproduced).
function M.key(cfg)
  local opts = cfg.options or {}
  if opts.key then return opts.key end
  local h = 5381
  for i = 1, #cfg.lock do h = (h * 33 + cfg.lock:byte(i)) % 2147483647 end
  return h
end

-- Releases the session lock on key: true, or false and why (pg-advisory-blocking.lua too).
function M.unlock(ctx, node, key)
  local rows, err = ctx:call(node, "SELECT pg_advisory_unlock(" .. key .. ") AS released")
  if not rows then return false, err end
  if rows[1].released ~= true then return false, "not held by this session" end
  return true
end

function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local key = M.key(cfg)
  ctx:lock_unit("key", "advisory/" .. key) -- the lock, as the fake names it (pg_locks' advisory lock)
  local lock = {}

  function lock.acquire(wait_ms, lease_ms)
    local deadline = ctx:instant() + wait_ms
    while true do
      local rows, err = ctx:call(node, "SELECT pg_try_advisory_lock(" .. key .. ") AS got")
      if rows and rows[1].got == true then return true end
      if not rows then ctx:log("pg_try_advisory_lock failed: %s", tostring(err)) end
      if not ctx:before(deadline) then return false, "lock busy" end
      ctx:sleep(50, 200)
    end
  end

  function lock.release() return M.unlock(ctx, node, key) end

  return lock
end

return M
