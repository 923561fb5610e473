-- distlock/release@redis-docs: single-instance release: delete the key only if it still holds my value
--
-- Source:   Redis documentation, "Distributed Locks with Redis"
--           (https://redis.io/docs/latest/develop/use/patterns/distributed-locks/;
--           redis/redis-doc docs/manual/patterns/distributed-locks.md), section
--           "Correct Implementation with a Single Instance": the release script
--           (compare-and-delete).
--
-- KEYS:     KEYS[1] = resource (lock) key
-- ARGV:     ARGV[1] = the random value this client set
-- Returns:  1 = deleted (it was mine); 0 = not mine any more, or already expired
--
-- What it does:
--   GET the key; if it equals my value, DEL it (returns 1); otherwise return 0.
--   A plain DEL could remove a lock that expired and was taken by another client.
-- locklab:body
if redis.call("get",KEYS[1]) == ARGV[1] then
    return redis.call("del",KEYS[1])
else
    return 0
end
