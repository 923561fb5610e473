-- consul-lock-delay-failover: the lock-delay survives a leader's crash, since every server
-- sets its own when it applies the invalidation.
return {
  name = "Consul lock: the lock-delay outlives the leader that set it",
  about = [[
Consul's lock as its Go API takes it (lua/clients/consul-lock.lua; api/lock.go) on three
servers: the leader n1 and two followers. A crashes at 1 s holding the lock; the leader
invalidates its session at 20 s (twice the TTL after the last renewal) and releases the key,
and the 15 s lock-delay begins. At 25 s the leader crashes; the followers elect n1r1 at 26 s.
B asks for the lock at 27 s. (A waiter already polling when the leader crashed would see its
read fail, and Lock returns "failed to read lock" at once: api/lock.go.)

The lock-delay is not replicated data: it is "tracked in memory" on every server, set when
the server applies the invalidation from the Raft log, by its own clock (hashicorp/consul,
agent/consul/state/session.go, deleteSessionTxn: "now := time.Now()", then
lockDelay.SetExpiration(key, now, delay)), and only the leader consults its own before it
lets an acquire into the log (kvs_endpoint.go; state/delay.go: "only the opinion of the
leader is respected"). So n1r1, which applied the invalidation a few milliseconds after n1,
refuses B's acquires at 27 and 32 s, until its own entry runs out at about 35 s, and B gets
the lock at its next try, at 37 s, as with one server (scenarios/consul-lock-delay.lua). A new leader
without the entry would have let B in at 27 s, inside the delay the documentation promises
("Consul prevents any of the previously held locks from being re-acquired for the lock-delay
interval").]],
  protocol = "consul-lock",
  server = "consul",
  nodes = 1, replicas = 2,          -- a three-server cluster: the leader n1, followers n1r1, n1r2
  replication = { lag = {"50ms", "100ms"}, down_after = "1s", detection = "500ms", commit = "quorum" },
  lease = "10s", wait = "90s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,       work = "5s" },
    { name = "B", start = "27s",   work = "8s" },
  },
  faults = {
    { at = "1s", crash = "A" },
    { at = "25s", crash = "n1" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", no_deadlock = "holds" },
}
