-- matrix: Consul lock (session, lock-delay) under "server-restart" (locklab matrix; the table is ../table.lua).
return {
  name = "Consul lock (session, lock-delay): the leader crashes and restarts empty",
  about = [[
The servers are three (the leader n1, followers n1r1, n1r2; writes commit on a majority, as
Raft does). n1 crashes at 1 s and restarts at 3 s, empty, rejoining as a follower; B starts at
4 s.

The session and the key were committed on a majority; the promoted follower has them, and
"the TTL is renewed ... on leader failover". A's renewals reach it, and B gets the lock after
A's release.

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
  nodes = 1, replicas = 2,          -- a three-member cluster: the leader n1, followers n1r1, n1r2
  replication = { lag = {"50ms", "100ms"}, down_after = "1s", detection = "500ms", commit = "quorum" },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "4s", work = "8s" },
  },
  faults = {
    { at = "1s", crash = "n1" },
    { at = "3s", restart = "n1" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
