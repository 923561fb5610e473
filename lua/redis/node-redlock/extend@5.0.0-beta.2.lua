-- node-redlock/extend@5.0.0-beta.2: node-redlock extend: SET PX again on every key that still holds my value
--
-- Source:   node-redlock (https://github.com/mike-marcacci/node-redlock), file src/index.ts,
--           the constant EXTEND_SCRIPT (lines 29-44).
-- Version:  tag v5.0.0-beta.2 (commit 54de94cfd7e3), npm "redlock" 5.0.0-beta.2; the same
--           bytes from v5.0.0-alpha.0 to master (afe5cf92c824).
-- Licence:  MIT, Copyright (c) 2015 Mike Marcacci (LICENSE in the repository). The body below
--           is copied unchanged.
--
-- KEYS:     KEYS[1..n] = the resources (locklab: one)
-- ARGV:     ARGV[1] = the lock value, ARGV[2] = the new duration ms
-- Returns:  #KEYS = extended everywhere; 0 = some key is missing or holds another value
--
-- What it does:
--   If every key holds my value, SET it again with PX duration (a fresh TTL); else 0.
--
-- The body below the marker is the library's string, byte for byte (its leading newline and
-- indentation included).
-- locklab:body

  -- Return 0 if an entry exists with a *different* lock value.
  for i, key in ipairs(KEYS) do
    if redis.call("get", key) ~= ARGV[1] then
      return 0
    end
  end

  -- Update the entry for each provided key.
  for i, key in ipairs(KEYS) do
    redis.call("set", key, ARGV[1], "PX", ARGV[2])
  end

  -- Return the number of entries updated.
  return #KEYS
