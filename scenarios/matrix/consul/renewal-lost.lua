-- matrix: Consul lock (session, lock-delay) under "renewal-lost" (locklab matrix; the table is ../table.lua).
return {
  name = "Consul lock (session, lock-delay): the lease's renewals are lost while the holder works",
  about = [[
From 1 s to 41 s every message between A and the server is lost (a drop on A's link alone: B
reaches the servers as usual) while A works on its 45 s job. A sends nothing else while it
works, so what is lost is exactly its renewals of its session: its process, its writes to the
resource and, after 41 s, its release are untouched. A's session renewals are lost, and
so are the gossip probes of A's node (the same link): its serfHealth check, which api.Lock's
session has, goes critical 4.5 s after the probe at 1.0 s, Consul invalidates the session at
5.5 s (before its TTL would, at 20 s) and the lock-delay keeps the key from B until 20.5 s; B
takes it then, while A, which does not watch leaderCh, works until 45 s (api/lock.go: "an
application must be able to handle the lock being lost").

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
    { at = "1s", drop = { "A", "n1" }, probability = 1, duration = "40s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds" },
}
