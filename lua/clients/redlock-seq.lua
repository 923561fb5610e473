-- redlock-seq.lua — what the Redlock libraries that ask the masters one after another share
-- (redlock-rb.lua, redlock-gem.lua, redlock-py.lua): not a protocol model itself, a helper
-- they require(). Each library's own file says which of its lines these steps follow.
local S = {}

-- The settings: the library's defaults, overridden by the scenario's options (node-redlock.lua
-- and go-redsync.lua take theirs here too).
function S.settings(defaults, options)
  local s = {}
  for k, v in pairs(defaults) do s[k] = v end
  for k, v in pairs(options) do s[k] = v end
  return s
end

-- A client of the library against the scenario's masters: its nodes, key and quorum, and
-- `request`: one request (ctx.send or ctx.send_eval and its arguments) waited for `timeout`
-- ms at most (nil: as long as it takes, a client without a socket timeout); a request that
-- times out is given up, its late reply ignored.
function S.client(ctx, cfg, timeout)
  local c = { nodes = ctx:nodes(), key = cfg.lock }
  c.quorum = #c.nodes // 2 + 1
  function c.request(node, send, ...)
    send(ctx, node, ...)
    local _, reply, err = ctx:receive(timeout)
    if err == "timeout" then ctx:abandon("timeout") end
    return reply, err
  end
  -- One round over every node in turn: how many answered `granted`, the errors ("node:
  -- error" strings; a timeout is one), and the answers for the trace.
  function c.round(send, ...)
    local n, errors, answers = 0, {}, {}
    for _, node in ipairs(c.nodes) do
      local reply, err = c.request(node, send, ...)
      if reply == "OK" then n = n + 1 elseif err then errors[#errors + 1] = node .. ": " .. err end
      answers[#answers + 1] = node .. ":" .. (reply ~= nil and tostring(reply) or err or "nil")
    end
    return n, errors, table.concat(answers, " ")
  end
  -- The unlock script on every node in turn, its replies and errors ignored.
  function c.unlock_all(script, value)
    for _, node in ipairs(c.nodes) do c.request(node, ctx.send_eval, script, { c.key }, { value }) end
  end
  -- The trace line of an attempt.
  function c.log(word, attempt, attempts, n, answers, validity, ttl, elapsed, drift, clock, ok)
    ctx:log("%s %d of %d: %d of %d nodes granted the lock (need %d) [%s]; validity %d ms " ..
            "(TTL %d - elapsed %d - drift %d%s)%s", word, attempt, attempts, n, #c.nodes, c.quorum,
            answers, validity, ttl, elapsed, drift, clock or "",
            ok and "" or n < c.quorum and ": no majority" or ": validity used up")
  end
  return c
end

return S
