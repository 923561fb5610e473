-- matrix: Consul lock (session, lock-delay) under "holder-crash" (locklab matrix; the table is ../table.lua).
return {
  name = "Consul lock (session, lock-delay): the holder crashes",
  about = [[
A crashes at 1 s inside its critical section and never releases. The lock has to come free by
itself for B, who waits up to 90 s.

A's session is never renewed; the leader invalidates it at 20 s (twice the 10 s TTL) and
releases the key, but the lock-delay keeps it from B until 35 s: B's acquires at 20, 25 and
30 s are refused. The lock is free 34 s after the crash, which the checker's bound (twice the
lease) counts as a deadlock; it is the documented price of the lock-delay.

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
    { at = "1s", crash = "A" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "violated" },
}
