-- matrix: Consul lock (session, lock-delay) under "gc-pause" (locklab matrix; the table is ../table.lua).
return {
  name = "Consul lock (session, lock-delay): the holder's GC pause outlives the lease",
  about = [[
At 4 s, 1 s before its work is done, inside its critical section, A stops for a GC pause of 40
s, then finishes, writes to the resource and releases (Martin Kleppmann, "How to do
distributed locking", 2016).

The lease Consul counts is not the 10 s TTL: its leader invalidates a session only at twice
the TTL after the last renewal ("Consul will take the conservative approach of internally
multiplying the TTL by 2x", hashicorp/consul PR #524), and then the 15 s lock-delay keeps
everyone out. So a pause has to outlive 2 x TTL + lock-delay to let B in: A's last renewal was
at 0 s, the session goes at 20 s, the key frees at 35 s and B, polling every 5 s, takes it
then. A wakes at 44 s believing it holds the lock and writes beside B. (A 12 s pause, the other
rows' figure, never reaches Consul's effective lease: A renews at 16 s, in time.) The
documentation calls the lock-delay "not a bulletproof method"; api/lock.go: "It is NOT safe to
assume that the lock is held until Unlock()".

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
    { at = "4s", gc_pause = "A", duration = "40s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds" },
}
