-- distlock/extend@redis-docs: single-instance extend: PEXPIRE the key only if it still holds my value
--
-- Source:   Redis documentation, "Distributed Locks with Redis"
--           (https://redis.io/docs/latest/develop/use/patterns/distributed-locks/;
--           redis/redis-doc docs/manual/patterns/distributed-locks.md), section
--           "Making the algorithm more reliable: Extending the lock": lock extension
--           (compare-and-pexpire).
--
-- KEYS:     KEYS[1] = resource (lock) key
-- ARGV:     ARGV[1] = the random value this client set, ARGV[2] = new TTL ms
-- Returns:  1 = extended (it was mine); 0 = not mine any more, or already expired
--
-- What it does:
--   The docs describe extension in prose only ("a Lua script to all the instances that
--   extends the TTL of the key if the key exists and its value is still the random value
--   the client assigned"). This text is ours, written like the release script; the same
--   form is used by several Redlock clients (redlock-py, node-redlock).
-- locklab:body
if redis.call("get",KEYS[1]) == ARGV[1] then
    return redis.call("pexpire",KEYS[1],ARGV[2])
else
    return 0
end
