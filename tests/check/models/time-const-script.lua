return redis.call("TIME")
