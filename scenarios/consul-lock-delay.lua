-- consul-lock-delay: a dead holder's Consul lock comes free after twice the TTL plus the
-- lock-delay.
return {
  name = "Consul lock: a crashed holder's lock frees after 2 x TTL + lock-delay",
  about = [[
Consul's lock as its Go API takes it (lua/clients/consul-lock.lua; api/lock.go): a session
with a 10 s TTL, renewed every 5 s, the default 15 s lock-delay, and KV acquire with the
session. A crashes at 1 s holding the lock. Consul "will not expire the session before the
TTL is reached, but it is allowed to delay the expiration past the TTL": the leader's timer
runs twice the TTL, so the session is invalidated at 20 s and the key released. Then "Consul
prevents any of the previously held locks from being re-acquired for the lock-delay interval"
(Consul documentation, "Sessions and distributed locks overview"): B's acquires at 20, 25 and
30 s answer false, and B gets the lock at 35 s.

Safety holds; the price is 34 s without a holder, which the checker's deadlock bound (twice
the 10 s lease) reports. The lock-delay is there "to allow the potentially still live leader
to detect the invalidation and stop processing requests"; a holder that is only cut off, not
dead, and does not watch its leaderCh works on past it (scenarios/matrix/consul/partition.lua).]],
  protocol = "consul-lock",
  server = "consul",
  nodes = 1,
  lease = "10s", wait = "90s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,       work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", crash = "A" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", no_deadlock = "violated" },
}
