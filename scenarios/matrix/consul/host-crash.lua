-- matrix: Consul lock (session, lock-delay) under "host-crash" (locklab matrix; the table is ../table.lua).
return {
  name = "Consul lock (session, lock-delay): the holder's host crashes",
  about = [[
At 1 s A's host vanishes (power loss, a kernel panic, a killed VM: crash with host = true): no
FIN, no RST. The servers learn of it only when their TCP keepalive gives up on the connection,
about 2 h 11 min with Linux's defaults, far beyond this run. The session is not renewed: Consul
invalidates it at twice its TTL and the lock-delay follows, as after a process crash: B takes
the lock at 35 s, past the checker's bound of twice the lease.

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
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", crash = "A", host = true },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "violated" },
}
