-- matrix: Redlock (5 masters) under "late-release" (locklab matrix; the table is ../table.lua).
return {
  name = "Redlock (5 masters): the holder's release is delayed past the lease",
  about = [[
From 4.9 s, 100 ms before A's work ends, a cut between A and the five masters holds A's
messages for 7.1 s. Over TCP (network.partitions = "tcp") A's release, sent at 5 s, is
retransmitted with Linux's backoff (200 ms doubling) and lands at 17.6 s, 12.6 s after it was
sent, past the 10 s lease; A's client gave up waiting long before. The leases ran out at 10 s
and B took the lock; the late unlock script finds B's value on every master and deletes
nothing.

The design: Redlock over five independent masters ("Distributed Locks with Redis", "The Redlock
Algorithm"; lua/clients/redlock.lua with redlock-rb's numbers).]],
  protocol = "redlock",
  mode = "redlock", nodes = { "n1", "n2", "n3", "n4", "n5" },
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"}, partitions = "tcp" },
  options = { retry_count = 1000 },  -- B keeps trying for its whole wait, as in the other rows (redlock-rb: 3 attempts)
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "4900ms", partition = { { "A" }, { "n1", "n2", "n3", "n4", "n5", "B" } }, duration = "7100ms" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
