-- node-redlock/release@5.0.0-beta.2: node-redlock release: delete the keys that still hold my value, count them
--
-- Source:   node-redlock (https://github.com/mike-marcacci/node-redlock), file src/index.ts,
--           the constant RELEASE_SCRIPT (lines 46-58).
-- Version:  tag v5.0.0-beta.2 (commit 54de94cfd7e3), npm "redlock" 5.0.0-beta.2; the same
--           bytes from v5.0.0-alpha.0 to master (afe5cf92c824).
-- Licence:  MIT, Copyright (c) 2015 Mike Marcacci (LICENSE in the repository). The body below
--           is copied unchanged.
--
-- KEYS:     KEYS[1..n] = the resources (locklab: one)
-- ARGV:     ARGV[1] = the lock value
-- Returns:  how many keys held my value and were deleted (node-redlock votes for only when all were)
--
-- What it does:
--   DEL each key that still holds my value; count them.
--
-- The body below the marker is the library's string, byte for byte (its leading newline and
-- indentation included).
-- locklab:body

  local count = 0
  for i, key in ipairs(KEYS) do
    -- Only remove entries for *this* lock value.
    if redis.call("get", key) == ARGV[1] then
      redis.pcall("del", key)
      count = count + 1
    end
  end

  -- Return the number of entries removed.
  return count
