-- server-stamp.lua — the timestamp lock of stamp-carry.lua with the server's clock instead of
-- the client's: a client reads the time with TIME (seconds and microseconds, Redis's TIME
-- command) and writes "its reading + the lease" into the lock's value; a client that finds the
-- lock taken reads TIME again and takes the lock over with GETSET when that deadline has
-- passed. Whether it does depends on the value TIME answers, that is on where in its delay
-- window the request lands, not on any order of events: a test of the model checker
-- (tests/cli/test_check.sh, tests/soundness.c). With options.script, the reading and the
-- comparison are done inside one EVAL (redis.call('TIME') in a script). One try per acquire.
local M = {}

M.OPTIONS = { script = "boolean" }

local TAKE = [[
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
if redis.call('SETNX', KEYS[1], tostring(now + tonumber(ARGV[1]) * 1000 + 1)) == 1 then return 1 end
local held = tonumber(redis.call('GET', KEYS[1]))
if held and now > held then
  redis.call('SET', KEYS[1], tostring(now + tonumber(ARGV[1]) * 1000 + 1))
  return 1
end
return 0
]]

function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  local key = cfg.lock
  local lock = {}

  local function server_us()
    local t = ctx:call(node, "TIME")
    if type(t) ~= "table" then return nil end
    return tonumber(t[1]) * 1000000 + tonumber(t[2])
  end

  function lock.acquire(wait_ms, lease_ms)
    if cfg.options.script then
      return ctx:call(node, "EVAL", TAKE, 1, key, lease_ms) == 1 or false, "lock busy"
    end
    local now = server_us()
    if not now then return false, "no time" end
    if ctx:call(node, "SETNX", key, tostring(now + lease_ms * 1000 + 1)) == 1 then return true end
    local held = tonumber(ctx:call(node, "GET", key))
    if held and now > held then
      local old = tonumber(ctx:call(node, "GETSET", key, tostring(now + lease_ms * 1000 + 1)))
      if old and old == held then return true end -- took over a lock that had expired
    end
    return false, "lock busy"
  end

  function lock.release()
    ctx:call(node, "DEL", key)
    return true
  end

  return lock
end

return M
