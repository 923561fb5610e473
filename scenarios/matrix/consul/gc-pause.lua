-- matrix: Consul lock (session, lock-delay) under "gc-pause" (locklab matrix; the table is ../table.lua).
return {
  name = "Consul lock (session, lock-delay): the holder's GC pause outlives the lease",
  about = [[
At 4 s, 1 s before its work is done, inside its critical section, A stops for a GC pause of 12
s (longer than the 10 s lease), then finishes, writes to the resource and releases (Martin
Kleppmann, "How to do distributed locking", 2016).

A's last renewal was at 0 s and its next due at 5 s; the pause delays it to 16 s, but the
session would expire only at 20 s (twice the TTL): A renews in time, and the lock held. A
pause of more than about 15 s would lose it, and then the lock-delay, not A, would keep B
out for 15 s more.

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
    { at = "4s", gc_pause = "A", duration = "12s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
