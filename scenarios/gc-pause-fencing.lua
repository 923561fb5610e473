-- gc-pause-fencing: Kleppmann's GC pause again, now with fencing tokens 33 and 34.
return {
  name = "GC pause outlives the lease, but the fencing token stops the late write",
  about = [[
Martin Kleppmann, "How to do distributed locking" (2016): "client 1
acquires the lease and gets a token of 33, but then it goes into a long pause and the lease
expires. Client 2 acquires the lease, gets a token of 34 (the number always increases), and then
sends its write to the storage service, including the token of 34. Later, client 1 comes back
to life and sends its write to the storage service, including its token value 33. However, the
storage server remembers that it has already processed a write with a higher token number (34),
and so it rejects the request with token 33."

The lock is Redisson's RedissonFencedLock (3.19.0+, #4684): the acquire script INCRs
redisson_lock_token:{lock} with every acquisition and returns {-1, token}. The option
token_start = 32 sets the counter first (SET ... NX), so the tokens really are 33 and 34.
A takes the lock with a 10 s lease and freezes for 12 s inside its critical section; B, which
waited on the lock's channel for the PTTL the script returned (a lease that simply runs out
publishes nothing), takes it at 10 s with token 34 and writes. A wakes up and writes with 33:
the resource refuses it. Both were inside their critical sections at once, so mutual exclusion
is still violated (no lock can stop a paused client); the resource stays safe.]],
  protocol = "redisson-fenced",
  fencing = true,
  nodes = 1,
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,       work = "15s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "1s", gc_pause = "A", duration = "12s" },
  },
  options = { token_start = 32 },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "holds" },
}
