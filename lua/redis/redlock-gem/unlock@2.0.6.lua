-- redlock-gem/unlock@2.0.6: redlock gem unlock: delete the key only if it holds my value
--
-- Source:   the redlock gem (https://github.com/leandromoreira/redlock-rb), file
--           lib/redlock/scripts.rb, the heredoc UNLOCK_SCRIPT (lines 5-11); sent with EVALSHA by
--           lib/redlock/client.rb (RedisInstance#unlock, lines 211-219).
-- Version:  gem 2.0.6 (tag 2.0.6, commit f176e5748a41).
-- Licence:  BSD, Copyright (c) 2014-2015 Salvatore Sanfilippo, Leandro Moreira, Malte Rohde;
--           all rights reserved; the conditions and disclaimer are LICENSE in the repository.
--           The body below is copied unchanged.
--
-- KEYS:     KEYS[1] = the resource (lock key)
-- ARGV:     ARGV[1] = the lock value
-- Returns:  1 = deleted (it was mine); 0 = not mine any more, or already expired
--
-- What it does:
--   Compare-and-delete, as the Redis documentation's release script.
--
-- The body below the marker is the library's string, byte for byte (its leading newline and
-- indentation included).
-- locklab:body
      if redis.call("get",KEYS[1]) == ARGV[1] then
        return redis.call("del",KEYS[1])
      else
        return 0
      end
