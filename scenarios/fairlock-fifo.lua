-- fairlock-fifo: Redisson's fair lock grants in the order the clients asked.
local clients = {}
for i = 1, 5 do
  clients[i] = { name = "C" .. i, start = (i - 1) * 100, work = "1s" }
end
return {
  name = "fair lock: five clients are served in queue order",
  about = [[
RedissonFairLock (Redisson's RedissonFairLock.java: tryLockInnerAsync and unlockInnerAsync):
C1 takes the lock; C2..C5 ask 100 ms apart, find it taken and join the FIFO queue
redisson_lock_queue:{lock}, each with a deadline in redisson_lock_timeout:{lock} (the tail's
deadline + wait). Each waiter subscribes to its OWN channel redisson_lock__channel:{lock}:<id>
and sleeps for the ttl the script returned. When the holder unlocks, the script publishes only
to the queue head's channel: C2 wakes, and only C2 may take the free lock (a non-head that
polls is told to wait). The lock goes C1, C2, C3, C4, C5, each 1 s, with no one jumping the
queue.]],
  protocol = "redisson-fair",
  nodes = 1,
  lease = "10s", wait = "30s",
  network = { delay = { "1ms", "5ms" } },
  clients = clients,
  duration = "30s", seed = 1,
  expect = { mutual_exclusion = "holds", fairness = "holds", no_deadlock = "holds" },
}
