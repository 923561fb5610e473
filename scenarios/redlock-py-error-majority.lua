-- redlock-py-error-majority: one node answers an error; redlock-py gives up with the majority held.
return {
  name = "redlock-py: one error reply strands a majority lock",
  about = [[
The Redis documentation's Redlock counts an instance that fails like one that refused: "the
client should try to unlock all the instances" only when it could not lock a majority, and
a majority is enough to hold the lock.

redlock-py 1.0.8 (SPSCommerce, redlock/__init__.py) collects every RedisError of an attempt
and, when the attempt WON — n >= quorum and validity > 0 — raises MultipleRedlockException if
there was any error at all (lines 110-112), without unlocking: the caller gets an exception
and no Lock to release, while the majority's keys stay for the whole TTL.

Three masters A, B, C, each with a replica. At 0 s C is failed over (as Sentinel does after a
manual SENTINEL FAILOVER): C becomes a replica of Cr1, and clients learn the new master only
after the 1 s detection delay. Client 1 sends SET lock NX PX 10000 to A, B and C in turn: A
and B say OK, C answers "READONLY You can't write against a read only replica" — a
redis.exceptions.ResponseError. Two of three is a majority, so redlock-py raises. Client 2,
which starts at 0.5 s and retries every 200 ms (retry_count = 60, the constructor's argument,
instead of 3), is refused by A and B until their keys expire at 10 s: for 9.5 s nobody holds
the lock and a client keeps trying. no_deadlock (with a
bound of 5 s, options.deadlock_bound, read by the checker) is violated.

The documentation's algorithm holds on the same faults (locklab compare
redlock-py-error-majority --options preset=redis-docs --options preset=redlock-py): client 1
holds the lock with A and B, works its second and releases it, and client 2 gets it next.]],
  protocol = "redlock",
  mode = "redlock",
  nodes = { "A", "B", "C" },
  replicas = 1,
  lease = "10s", wait = "30s",
  network = { delay = { "1ms", "5ms" } },
  options = { preset = "redlock-py", retry_count = 60, deadlock_bound = "5s" },
  clients = {
    { name = "c1", start = 0,      work = "1s" },
    { name = "c2", start = "500ms", work = "1s" },
  },
  faults = {
    { at = 0, failover = "C" },
  },
  duration = "20s", seed = 1,
  expect = { no_deadlock = "violated" },
}
