-- redlock-rb/unlock@HEAD: redlock-rb unlock: delete the key only if it holds my value
--
-- Source:   antirez's redlock-rb (https://github.com/antirez/redlock-rb), the reference
--           implementation linked from the Redis documentation; file redlock.rb, the
--           constant UnlockScript (lines 7-12), sent by unlock_instance (lines 38-44) with EVAL.
-- Version:  HEAD (commit 2af803d83073, 2021; unversioned, the README points to the gem).
-- Licence:  BSD, Copyright (c) 2014-2015, Salvatore Sanfilippo; all rights reserved; the
--           conditions and disclaimer are LICENSE in the repository. The body below is copied
--           unchanged.
--
-- KEYS:     KEYS[1] = the resource (lock key)
-- ARGV:     ARGV[1] = the lock value (20 random bytes in base 32)
-- Returns:  1 = deleted (it was mine); 0 = not mine any more, or already expired
--
-- What it does:
--   Compare-and-delete, the Redis documentation's release script.
--
-- The body below the marker is the library's string, byte for byte (its leading newline and
-- indentation included).
-- locklab:body

    if redis.call("get",KEYS[1]) == ARGV[1] then
        return redis.call("del",KEYS[1])
    else
        return 0
    end