-- matrix: Consul lock (session, lock-delay) under "waiter-gives-up" (locklab matrix; the table is ../table.lua).
return {
  name = "Consul lock (session, lock-delay): a waiter gives up",
  about = [[
No fault in the servers or the network: B waits only 2 s and gives up while A holds the lock; C
arrives at 3 s with the usual wait. Whatever B leaves behind must not block C or let it in
early.

B stops renewing the session it made when it gives up, and destroys it when its renewal
loop next wakes (RenewPeriodic's doneCh); it held no key, so no lock-delay follows.

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
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s", wait = "2s" },
    { name = "C", start = "3s", work = "8s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
