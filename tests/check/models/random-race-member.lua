return redis.call("SRANDMEMBER", KEYS[1])
