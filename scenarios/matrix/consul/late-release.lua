-- matrix: Consul lock (session, lock-delay) under "late-release" (locklab matrix; the table is ../table.lua).
return {
  name = "Consul lock (session, lock-delay): the holder's release is delayed past the lease",
  about = [[
From 4.9 s, 100 ms before A's work ends, a cut between A and the server holds A's messages for
20 s. Over TCP (network.partitions = "tcp") A's release, sent at 5 s, is retransmitted with
Linux's backoff (200 ms doubling) and lands at 30.4 s, 25.4 s after it was sent; A's client
gave up waiting at 8 s. The cut also stops the gossip of A's node, whose serfHealth check
api.Lock's session has: suspect at the probe at 5.0 s, declared failed 4.5 s later, and at
9.5 s Consul invalidates the session, frees the key and starts the 15 s lock-delay. A's
release (a KV PUT with ?release) lands on the invalidated session at 30.4 s and is refused
(500 invalid session): it can take nothing from anyone. B, refused inside the lock-delay,
takes the lock at 24.6 s. (A cut of 7 s, as the other rows have, would let the release land at
17.6 s on a session still alive: nothing late.)

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
  network = { delay = {"1ms", "5ms"}, partitions = "tcp" },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "4900ms", partition = { { "A" }, { "n1", "B" } }, duration = "20s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
