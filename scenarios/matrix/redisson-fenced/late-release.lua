-- matrix: Redisson fenced (watchdog) under "late-release" (locklab matrix; the table is ../table.lua).
return {
  name = "Redisson fenced (watchdog): the holder's release is delayed past the lease",
  about = [[
From 44.9 s, 100 ms before A's 45 s job ends, a cut between A and the server holds A's messages
for 15.1 s. Over TCP (network.partitions = "tcp") A's unlock, sent at 45 s, is retransmitted
with Linux's backoff and lands at 70.4 s, after its lease; A's client gave up waiting at 48 s,
and Redisson stopped the watchdog with it. B waits up to 90 s here. The lease (renewed last at
40 s) runs out at 70 s and B takes the lock; the late unlock script finds B's owner field, not
A's, and deletes nothing.

The design: Redisson's RedissonFencedLock (3.19.0+, #4684) taken without a lease (the
watchdog); its token goes with every write, and the resource rejects a token lower than one it
has accepted (lua/clients/redisson-fenced.lua; fencing tokens: Kleppmann 2016).]],
  protocol = "redisson-fenced",
  nodes = 1,
  fencing = true,
  lease = false, wait = "90s",
  network = { delay = {"1ms", "5ms"}, partitions = "tcp" },
  clients = {
    { name = "A", start = 0, work = "45s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "44900ms", partition = { { "A" }, { "n1", "B" } }, duration = "15100ms" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
