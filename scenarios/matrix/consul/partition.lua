-- matrix: Consul lock (session, lock-delay) under "partition" (locklab matrix; the table is ../table.lua).
return {
  name = "Consul lock (session, lock-delay): the holder is partitioned",
  about = [[
At 1 s a partition cuts A off from the servers for 40 s (B still reaches them). A renews its
session as a watchdog does, so it is given a watchdog's job: 45 s of work.

A's renewals fail; its RenewPeriodic gives up at 12 s. Sooner than the TTL, the cut stops the
gossip of A's node, whose serfHealth check api.Lock's session has: suspect at the probe at
1.0 s, declared failed 4.5 s later (memberlist's ProbeTimeout + suspicion), and at 5.5 s the
leader invalidates the session; the lock-delay holds the key until 20.5 s, and B takes it
then, while A, which does not obey leaderCh, still works until 45 s: the lock-delay is "not a
bulletproof method". (With no_checks, CreateNoChecks, the TTL alone: invalidated at 20 s, B at
35 s; the same violation.)

The design: Consul's lock as its Go API takes it (lua/clients/consul-lock.lua; api/lock.go):
a session with a 10 s TTL, renewed every 5 s, and the default 15 s lock-delay; KV acquire of
the key with the session, a waiter polling the key and retrying 5 s after a refused acquire.
Consul invalidates a session whose TTL ran out (its timer runs twice the TTL: "Consul will
not expire the session before the TTL is reached, but it is allowed to delay the expiration
past the TTL"), releases its keys, and "prevents any of the previously held locks from being
re-acquired for the lock-delay interval" (Consul documentation, "Sessions and distributed
locks overview"). B may wait 90 s: a dead holder's lock comes free only after 2 x TTL plus
the lock-delay.]],
  protocol = "consul-lock",
  server = "consul",
  lease = "10s", wait = "90s",     -- lease: the session TTL; lock-delay 15 s
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "45s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", partition = { { "A" }, { "n1", "B" } }, duration = "40s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds" },
}
