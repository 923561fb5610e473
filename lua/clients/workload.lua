-- workload.lua — what every client does, whatever its protocol: for each round, acquire the
-- lock, work inside the critical section, release it. The protocol model (`lock`) decides
-- how to acquire and release; this file only strings the steps together and records them,
-- so the checker can judge the run.
--
--   lock.acquire(wait_ms, lease_ms) -> true[, token]   or   false, reason[, outcome]
--   lock.release()                  -> true            or   false, reason
--
-- reason is words for the trace; outcome is what the checker reads: "reentry_failed" when
-- the holder's own re-entrant acquire failed, else "gave_up" (the default).
--   ctx:critical(work_ms, token)    -- enter, write to the resource, hold, write, leave
return function(ctx, lock, cfg)
  for round = 1, cfg.rounds do
    ctx:record("acquire")
    local ok, token, outcome = lock.acquire(cfg.wait, cfg.lease)
    if ok then
      if type(token) ~= "number" then token = nil end
      ctx:record("acquired", token)
      ctx:critical(cfg.work, token)
      ctx:record("release")
      local released, why = lock.release()
      ctx:record("released", released and "released" or tostring(why or "not released"),
                 released and "released" or "not_released")
    else
      ctx:record("acquire_failed", tostring(token or "gave up"), outcome or "gave_up")
    end
    if round < cfg.rounds and cfg.think > 0 then ctx:sleep(cfg.think) end
  end
end
