-- redlock-gem/lock@2.0.6: redlock gem lock: SET PX if absent or already mine
--
-- Source:   the redlock gem (https://github.com/leandromoreira/redlock-rb), file
--           lib/redlock/scripts.rb, the heredoc LOCK_SCRIPT (lines 16-20); sent with EVALSHA by
--           lib/redlock/client.rb (RedisInstance#lock, lines 203-209).
-- Version:  gem 2.0.6 (tag 2.0.6, commit f176e5748a41).
-- Licence:  BSD, Copyright (c) 2014-2015 Salvatore Sanfilippo, Leandro Moreira, Malte Rohde;
--           all rights reserved; the conditions and disclaimer are LICENSE in the repository.
--           The body below is copied unchanged.
--
-- KEYS:     KEYS[1] = the resource (lock key)
-- ARGV:     ARGV[1] = the lock value (SecureRandom.uuid), ARGV[2] = ttl ms, ARGV[3] = "yes" (allow a new lock; "no" with extend_only_if_locked)
-- Returns:  OK = set; nil = held by another value (or absent with ARGV[3] = "no")
--
-- What it does:
--   SET the key with PX ttl if it does not exist (and a new lock is allowed) or if it
--   already holds MY value: a late earlier attempt of mine, or an extension, is refreshed.
--
-- The body below the marker is the library's string, byte for byte (its leading newline and
-- indentation included).
-- locklab:body
      if (redis.call("exists", KEYS[1]) == 0 and ARGV[3] == "yes") or redis.call("get", KEYS[1]) == ARGV[1] then
        return redis.call("set", KEYS[1], ARGV[1], "PX", ARGV[2])
      end
