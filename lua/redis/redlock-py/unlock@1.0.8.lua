-- redlock-py/unlock@1.0.8: redlock-py unlock: delete the key only if it holds my value
--
-- Source:   redlock-py (https://github.com/SPSCommerce/redlock-py), file
--           redlock/__init__.py, Redlock.unlock_script (lines 43-48), sent by unlock_instance
--           (lines 78-82) with EVAL.
-- Version:  1.0.8 (setup.py; commit 42ef49106cc3, the newest).
-- Licence:  MIT, Copyright (c) 2014 SPS Commerce, Inc. The body below is copied unchanged.
--
-- KEYS:     KEYS[1] = the resource (lock key)
-- ARGV:     ARGV[1] = the lock value (22 random letters and digits)
-- Returns:  1 = deleted (it was mine); 0 = not mine any more, or already expired
--
-- What it does:
--   Compare-and-delete; the same bytes as antirez's redlock-rb UnlockScript.
--
-- The body below the marker is the library's string, byte for byte (its leading newline and
-- indentation included).
-- locklab:body

    if redis.call("get",KEYS[1]) == ARGV[1] then
        return redis.call("del",KEYS[1])
    else
        return 0
    end