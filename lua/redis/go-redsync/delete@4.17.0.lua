-- go-redsync/delete@4.17.0: go-redsync unlock: delete if mine; -1 if the key is gone
--
-- Source:   go-redsync (https://github.com/go-redsync/redsync), file scripts.go, the
--           variable deleteScript (lines 5-14).
-- Version:  tag v4.17.0 (commit 79f6ba24a8bf).
-- Licence:  BSD, Copyright (c) 2023, Mahmud Ridwan; all rights reserved; the conditions and
--           disclaimer are LICENSE in the repository. The body below is copied unchanged.
--
-- KEYS:     KEYS[1] = the mutex name (lock key)
-- ARGV:     ARGV[1] = the mutex value (16 random bytes, base64)
-- Returns:  1 = deleted; 0 = holds another value; -1 = absent (redsync: ErrLockAlreadyExpired)
--
-- What it does:
--   Compare-and-delete, telling apart a key that is gone (-1) from one held by another (0).
--
-- The body below the marker is the library's string, byte for byte (its leading newline and
-- indentation included).
-- locklab:body

	local val = redis.call("GET", KEYS[1])
	if val == ARGV[1] then
		return redis.call("DEL", KEYS[1])
	elseif val == false then
		return -1
	else
		return 0
	end
