-- mysql-getlock.lua — MySQL's user-level lock: GET_LOCK(name, timeout) / RELEASE_LOCK(name),
-- held by the session (the connection) that took it (MySQL 8.0 Reference Manual, "Locking
-- Functions", dev.mysql.com/doc/refman/8.0/en/locking-functions.html; MariaDB Knowledge Base,
-- mariadb.com/kb/en/get_lock/):
--
--   acquire:  SELECT GET_LOCK('lock', 0) AS got      -- 1: mine, 0: busy, NULL: error
--   release:  SELECT RELEASE_LOCK('lock') AS released -- 1: released, 0: not mine, NULL: none
--
-- "A lock obtained with GET_LOCK() is released explicitly by executing RELEASE_LOCK() or
-- implicitly when your session terminates (either normally or abnormally)" (the manual): a
-- holder that crashes loses its connection, and the lock frees at once — no deadlock, where
-- the unique-index table (mysql-unique.lua) keeps its row for ever. The lock is not data: it
-- is not written to the binary log, so a replica does not have it, and a server that
-- crashes or fails over forgets it while its holder may still be working (mutual exclusion
-- lost, with no error until that holder's next statement on its dead connection). A holder
-- whose connection merely stalls (a GC pause, a partition) keeps the lock: the server only
-- frees it when the TCP connection is seen closed (for a silent peer: wait_timeout, 8 hours
-- by default).
--
-- Against the fake MySQL (server = "mysql"; checked against MariaDB 10.11 by
-- tests/diff/mysql/cases/getlock.txt).
--
-- Simplifications and their effect:
-- - The real recipe waits inside the server: GET_LOCK(name, wait_seconds) blocks until the
--   lock frees or the time is up. The fake cannot defer a reply (server_kind.h has no
--   deferred reply), so this model polls GET_LOCK(name, 0) every 50-200 ms: a waiter gets the
--   lock up to 200 ms after it frees rather than at once, and sends more statements. Who
--   holds the lock when is otherwise the same.
-- - Re-entrance (a session's second GET_LOCK counts; the fake models it) is not used: one
--   acquire, one release per round.
local M = {}

M.SERVER = "mysql"
M.OPTIONS = {}

local function lit(s)
  return "'" .. s:gsub("\\", "\\\\"):gsub("'", "''") .. "'"
end

function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local name = lit(cfg.lock)
  ctx:lock_unit("key", "user_lock:" .. cfg.lock) -- the lock, as the fake names it (a user-level lock)
  local lock = {}

  function lock.acquire(wait_ms, lease_ms)
    local deadline = ctx:now() + wait_ms
    while true do
      local rows, err = ctx:call(node, "SELECT GET_LOCK(" .. name .. ", 0) AS got")
      if rows and rows[1].got == 1 then return true end
      if not rows then ctx:log("GET_LOCK failed: %s", tostring(err)) end
      if ctx:now() >= deadline then return false, "lock busy" end
      ctx:sleep(50, 200)
    end
  end

  function lock.release()
    local rows, err = ctx:call(node, "SELECT RELEASE_LOCK(" .. name .. ") AS released")
    if not rows then return false, err end
    if rows[1].released ~= 1 then return false, "not held by this session" end
    return true
  end

  return lock
end

return M
