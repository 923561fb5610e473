-- pg-advisory-xact.lua — PostgreSQL's transaction-level advisory lock: a transaction block
-- that takes pg_try_advisory_xact_lock(key), polled, works, and ends with COMMIT, which is
-- the release (PostgreSQL 15 documentation, 13.3.5 "Advisory Locks": "Transaction-level
-- lock requests ... are automatically released at the end of the transaction, and there is
-- no explicit unlock operation"; 9.27.10 "Advisory Lock Functions"):
--
--   acquire:  BEGIN
--             SELECT pg_try_advisory_xact_lock(KEY) AS got  -- true: mine, false: busy
--             (given up: ROLLBACK)
--   release:  COMMIT                                       -- the lock goes with the transaction
--
-- The lock lives as long as the transaction: a holder that crashes loses its connection,
-- the server rolls the transaction back, and the lock frees at once; an error inside the
-- transaction aborts it and frees the lock at that moment, while the client may still think
-- it holds it (the next statement says 25P02). Through PgBouncer in transaction pooling the
-- recipe stays safe, since the server connection is the client's for the whole transaction
-- (www.pgbouncer.org/features.html: "a server connection is assigned to a client only during
-- a transaction"). Being held open for the whole critical section is its cost: a long
-- transaction holds back VACUUM and a pool's connection.
--
-- Against the fake PostgreSQL (server = "postgresql"; checked against PostgreSQL 15 by
-- tests/diff/postgresql/cases/transaction.txt).
--
-- Options: key — the lock's bigint key (default: a hash of the lock's name, pg-advisory.lua).
--
-- Simplifications and their effect:
-- - pg_advisory_xact_lock(KEY) would wait inside the server; the fake cannot defer a reply,
--   so this model polls pg_try_advisory_xact_lock every 50-200 ms inside its open
--   transaction (a waiter gets the lock up to 200 ms late).
-- - A second acquire through the same connection (a nested method) joins the open
--   transaction (BEGIN warns, the lock counts), and its release commits the whole
--   transaction: the recipe has no nesting of its own (a savepoint does not release the
--   lock either).
local M = {}

M.SERVER = "postgresql"
M.OPTIONS = { key = "integer" }

function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local key = require("pg-advisory").key(cfg)
  ctx:lock_unit("key", "advisory/" .. key) -- the lock, as the fake names it (pg_locks' advisory lock)
  local lock = {}

  function lock.acquire(wait_ms, lease_ms)
    local deadline = ctx:instant() + wait_ms
    local tag, err = ctx:call(node, "BEGIN")
    if not tag then return false, "BEGIN failed: " .. tostring(err) end
    while true do
      local rows, e = ctx:call(node, "SELECT pg_try_advisory_xact_lock(" .. key .. ") AS got")
      if rows and rows[1].got == true then return true end
      if not rows then ctx:log("pg_try_advisory_xact_lock failed: %s", tostring(e)) end
      if not ctx:before(deadline) then
        ctx:call(node, "ROLLBACK")
        return false, "lock busy"
      end
      ctx:sleep(50, 200)
    end
  end

  function lock.release()
    local tag, err = ctx:call(node, "COMMIT")
    if not tag then return false, err end
    if tag ~= "COMMIT" then return false, "the transaction had failed: " .. tag end
    return true
  end

  return lock
end

return M
