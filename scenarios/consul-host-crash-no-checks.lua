-- consul-host-crash-no-checks: a vanished host's Consul lock, with and without the node's
-- serfHealth check.
return {
  name = "Consul lock: a vanished host's session without health checks lasts 2 x TTL",
  about = [[
Consul's lock as its Go API takes it (lua/clients/consul-lock.lua; api/lock.go), but with its
session made as Session().CreateNoChecks makes it (options no_checks): a 10 s TTL and nothing
else. At 1 s A's host vanishes while A holds the lock (crash with host = true: no FIN, no RST).

api.Lock's own session has the node's serfHealth check (agent/session_endpoint.go: "Default
the session to our node + serf check"): gossip declares the vanished node failed about 4.5 s
after its first failed probe, the session goes, and after the 15 s lock-delay B has the lock
19.6 s after the crash (scenarios/matrix/consul/host-crash.lua). Without the check only the TTL
ends the session, at twice its value after the last renewal ("Consul will not expire the
session before the TTL is reached, but it is allowed to delay the expiration past the TTL"):
at 20 s; then the lock-delay: B takes the lock at 35 s, 34 s after the crash, which the
checker's bound (twice the lease) counts as a deadlock. What CreateNoChecks buys is the other
side: api/lock.go says it is "NOT safe to assume that the lock is held until Unlock() unless
the Session is specifically created without any associated health checks".]],
  protocol = "consul-lock",
  server = "consul",
  lease = "10s", wait = "90s",     -- lease: the session TTL; lock-delay 15 s
  network = { delay = {"1ms", "5ms"} },
  options = { no_checks = true },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", crash = "A", host = true },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "violated" },
}
