-- go-redsync/touch@4.17.0: go-redsync extend: PEXPIRE if mine
--
-- Source:   go-redsync (https://github.com/go-redsync/redsync), file scripts.go, the
--           variable touchScript (lines 26-32).
-- Version:  tag v4.17.0 (commit 79f6ba24a8bf).
-- Licence:  BSD, Copyright (c) 2023, Mahmud Ridwan; all rights reserved; the conditions and
--           disclaimer are LICENSE in the repository. The body below is copied unchanged.
--
-- KEYS:     KEYS[1] = the mutex name (lock key)
-- ARGV:     ARGV[1] = the mutex value, ARGV[2] = expiry ms
-- Returns:  1 = extended; 0 = not mine any more, or already expired
--
-- What it does:
--   PEXPIRE the key if it still holds my value (Mutex.Extend).
--
-- The body below the marker is the library's string, byte for byte (its leading newline and
-- indentation included).
-- locklab:body

	if redis.call("GET", KEYS[1]) == ARGV[1] then
		return redis.call("PEXPIRE", KEYS[1], ARGV[2])
	else
		return 0
	end
