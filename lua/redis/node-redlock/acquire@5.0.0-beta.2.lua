-- node-redlock/acquire@5.0.0-beta.2: node-redlock acquire: 0 if any key exists (its own value too), else SET PX on every key
--
-- Source:   node-redlock (https://github.com/mike-marcacci/node-redlock), file src/index.ts,
--           the constant ACQUIRE_SCRIPT (lines 12-27).
-- Version:  tag v5.0.0-beta.2 (commit 54de94cfd7e3), npm "redlock" 5.0.0-beta.2; the same
--           bytes from v5.0.0-alpha.0 to master (afe5cf92c824).
-- Licence:  MIT, Copyright (c) 2015 Mike Marcacci (LICENSE in the repository). The body below
--           is copied unchanged.
--
-- KEYS:     KEYS[1..n] = the resources (locklab: one, the lock key)
-- ARGV:     ARGV[1] = the lock value (16 random bytes, hex), ARGV[2] = duration ms
-- Returns:  #KEYS = set on every key (a vote for); 0 = some key exists (a vote against)
--
-- What it does:
--   Refuses when ANY of the keys exists, whatever its value: a key this client set itself
--   (an earlier attempt whose reply came late) counts against it too. Otherwise SET each key
--   with PX duration. Unlike SET NX it never refreshes a key of its own.
--
-- The body below the marker is the library's string, byte for byte (its leading newline and
-- indentation included).
-- locklab:body

  -- Return 0 if an entry already exists.
  for i, key in ipairs(KEYS) do
    if redis.call("exists", key) == 1 then
      return 0
    end
  end

  -- Create an entry for each provided key.
  for i, key in ipairs(KEYS) do
    redis.call("set", key, ARGV[1], "PX", ARGV[2])
  end

  -- Return the number of entries added.
  return #KEYS
