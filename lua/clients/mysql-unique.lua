-- mysql-unique.lua — the comparison table's MySQL lock: a table whose primary key (a unique
-- index) is the lock's name. The design of the table (the usual comparison table of distributed locks, its first row: "1. add
-- a unique index to a table 2. lock: run an INSERT; if it errors, locking failed 3. unlock:
-- run a DELETE"), as every blog version of it writes it:
--
--   CREATE TABLE locklab_lock (resource VARCHAR(64) NOT NULL, owner VARCHAR(64) NOT NULL,
--                              PRIMARY KEY (resource))
--   acquire:  INSERT INTO locklab_lock (resource, owner) VALUES ('lock', 'A')
--             -- OK: mine; ERROR 1062 (23000) Duplicate entry: held, retry later
--   release:  DELETE FROM locklab_lock WHERE resource = 'lock' AND owner = 'A'
--
-- Against the fake MySQL (server = "mysql"; sim/mysql/, checked against MariaDB 10.11 by
-- tests/diff/mysql/cases/unique-lock.txt). What the design lacks, as the article's table says:
-- the row has no expiry, so a holder that crashes (or is cut off for good) before its DELETE
-- leaves the row behind and every other client waits for ever: a deadlock, until an operator
-- deletes the row. It is not re-entrant either: the same owner's second INSERT is a
-- duplicate too. The owner column makes the release delete only the caller's own row (the
-- article's version deletes by resource alone: then a client can release another's lock).
--
-- Simplifications and their effect:
-- - Each client creates the table (CREATE TABLE IF NOT EXISTS) before its first INSERT, where
--   a deployment creates it once: one more statement per client, nothing else.
-- - The owner is the client's name (a deployment uses host + thread id): unique per client,
--   as it must be.
-- - A reply that never comes (a timeout) counts as a failed INSERT and is retried: if the
--   INSERT did run, the retry gets 1062 and the client waits for a row that is its own (the
--   design has no way to tell; a SELECT of the owner would).
local M = {}

M.SERVER = "mysql"
M.OPTIONS = {}

local TABLE = "locklab_lock"

-- A string literal: quotes doubled, backslashes escaped (MySQL's default sql_mode).
local function lit(s)
  return "'" .. s:gsub("\\", "\\\\"):gsub("'", "''") .. "'"
end

function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local name, me = lit(cfg.lock), lit(ctx:name())
  ctx:lock_unit("prefix", TABLE .. "/") -- the lock is a row of the table (resource = cfg.lock)
  local lock = {}
  local created = false

  local function ensure_table()
    if created then return end
    local res = ctx:call(node, "CREATE TABLE IF NOT EXISTS " .. TABLE ..
      " (resource VARCHAR(64) NOT NULL, owner VARCHAR(64) NOT NULL, PRIMARY KEY (resource))")
    created = res ~= nil
  end

  function lock.acquire(wait_ms, lease_ms)
    local deadline = ctx:now() + wait_ms
    while true do
      ensure_table()
      local res, err = ctx:call(node, "INSERT INTO " .. TABLE .. " (resource, owner) VALUES (" ..
        name .. ", " .. me .. ")")
      if res then return true end
      ctx:log("INSERT refused: %s", tostring(err))
      if ctx:now() >= deadline then return false, "lock busy" end
      ctx:sleep(50, 200)
    end
  end

  function lock.release()
    local res, err = ctx:call(node, "DELETE FROM " .. TABLE .. " WHERE resource = " .. name ..
      " AND owner = " .. me)
    if not res then return false, err end
    if res.affected_rows == 0 then return false, "the row was not ours (or gone)" end
    return true
  end

  return lock
end

return M
