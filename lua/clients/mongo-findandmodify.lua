-- mongo-findandmodify.lua — the comparison table's MongoDB lock: one document per lock, taken
-- with the atomic findAndModify (the usual comparison table of distributed locks, its second row: "lock: run the atomic
-- findAndModify command to find the document and add it if it does not exist; unlock: delete
-- the document"; weakness: "no automatic expiry").
--
--   acquire:  db.runCommand({ findAndModify: "locklab_locks",
--                             query: { _id: "lock" },
--                             update: { $setOnInsert: { owner: "A" [, expireAt: <date>] } },
--                             upsert: true, new: true })
--             -- value.owner == "A": inserted now, mine; another owner: held, retry later
--   release:  db.runCommand({ delete: "locklab_locks",
--                             deletes: [ { q: { _id: "lock", owner: "A" }, limit: 1 } ] })
--
-- The MongoDB manual, findAndModify (www.mongodb.com/docs/manual/reference/command/
-- findAndModify/): it "modifies and returns a single document"; with upsert and no match it
-- inserts one, and with new: true returns it. $setOnInsert only writes when the upsert inserts
-- ("$setOnInsert", reference/operator/update/setOnInsert/), so a held lock's document is left
-- as it is and comes back with its holder's owner. _id is unique, so two upserts cannot both
-- insert.
--
-- Options:
--   expiry = true   the lock document carries expireAt = the client's clock + the lease (a
--                   BSON date), and the collection a TTL index on it (createIndexes with
--                   expireAfterSeconds: 0, sent once by each client): a holder that dies stops
--                   blocking the others once the TTL monitor deletes its document — "The
--                   background task that removes expired documents runs every 60 seconds"
--                   ("TTL Indexes", core/index-ttl/, "Timing of the Delete Operation"), so up to
--                   a minute after expireAt. The holder does not renew: a lease shorter than the
--                   work lets another client in.
--   expiry = false  (default) the table's design: no expiry, a crashed holder deadlocks.
--   write_concern = "default" (default): no writeConcern in the commands, so the server's
--                   implicit default applies: { w: "majority" } since MongoDB 5.0 ("Default
--                   MongoDB Read Concerns/Write Concerns"), answered once a majority of the
--                   replica set has the write;
--                   "w:majority": the same, asked for explicitly;
--                   "w:1": { w: 1 }, the default before 5.0: acknowledged by the primary alone,
--                   so a failover before the write replicates rolls it back ("Rollbacks During
--                   Replica Set Failover", core/replica-set-rollbacks/).
--
-- Against the fake mongod (server = "mongodb"; sim/mongo/, after the MongoDB 7.0 manual).
--
-- Simplifications and their effect:
-- - The owner is the client's name (a deployment uses a host + thread id or a UUID): unique per
--   client, as it must be.
-- - A reply that never comes counts as a failed attempt and is retried; findAndModify's answer
--   (the document and its owner) tells the retry that the lock is already its own, so this
--   recipe recovers where the MySQL table (mysql-unique.lua) cannot.
local M = {}

M.SERVER = "mongodb"
M.OPTIONS = { expiry = "boolean", write_concern = { "default", "w:majority", "w:1" } }

local COLL = "locklab_locks"

-- A JSON string.
local function jstr(s)
  return '"' .. s:gsub('[%c"\\]', function(c)
    if c == '"' or c == "\\" then return "\\" .. c end
    return string.format("\\u%04x", c:byte())
  end) .. '"'
end

function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local expiry = cfg.options.expiry == true
  local wc = cfg.options.write_concern or "default"
  local concern = ({ default = "", ["w:majority"] = ', "writeConcern": {"w": "majority"}',
                     ["w:1"] = ', "writeConcern": {"w": 1}' })[wc]
  local name, me = jstr(cfg.lock), jstr(ctx:name())
  ctx:lock_unit("prefix", COLL .. "/") -- the lock is a document of the collection (_id = cfg.lock)
  local lock = {}
  local indexed = false

  local function ensure_index()
    if indexed or not expiry then return end
    local res = ctx:call(node, '{"createIndexes": "' .. COLL .. '", "indexes": [{"key": {"expireAt": 1}, ' ..
      '"name": "expireAt_1", "expireAfterSeconds": 0}]' .. concern .. '}')
    indexed = res ~= nil
  end

  function lock.acquire(wait_ms, lease_ms)
    assert(lease_ms or not expiry, "mongo-findandmodify with expiry needs a lease: set lease in the scenario")
    local deadline = ctx:now() + wait_ms
    while true do
      ensure_index()
      local fields = '"owner": ' .. me
      if expiry then fields = fields .. ', "expireAt": {"$date": ' .. (ctx:now() + lease_ms) .. '}' end
      local res, err = ctx:call(node, '{"findAndModify": "' .. COLL .. '", "query": {"_id": ' .. name ..
        '}, "update": {"$setOnInsert": {' .. fields .. '}}, "upsert": true, "new": true' .. concern .. '}')
      if res and res.value and res.value.owner == ctx:name() then return true end
      if not res then ctx:log("findAndModify failed: %s", tostring(err)) end
      if ctx:now() >= deadline then return false, "lock busy" end
      ctx:sleep(50, 200)
    end
  end

  function lock.release()
    local res, err = ctx:call(node, '{"delete": "' .. COLL .. '", "deletes": [{"q": {"_id": ' .. name ..
      ', "owner": ' .. me .. '}, "limit": 1}]' .. concern .. '}')
    if not res then return false, err end
    if res.n ~= 1 then return false, "the document was not ours (or gone)" end
    return true
  end

  return lock
end

return M
