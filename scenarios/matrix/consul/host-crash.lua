-- matrix: Consul lock (session, lock-delay) under "host-crash" (locklab matrix; the table is ../table.lua).
return {
  name = "Consul lock (session, lock-delay): the holder's host crashes",
  about = [[
At 1 s A's host vanishes (power loss, a kernel panic, a killed VM: crash with host = true): no
FIN, no RST. The servers' TCP keepalive would take about 2 h 11 min, but the session does not
wait for it: api.Lock's session has the node's serfHealth check (the agent's default; "By
default, the gossip based failure detector is used as the associated health check. This
failure detector allows Consul to detect when a node that is holding a lock has failed and to
automatically release the lock"), and the host ran that node's agent. Gossip probes it at
1.005 s, it does not answer, it is suspect, and 4.5 s later (memberlist's ProbeTimeout 500 ms
+ suspicion 4 s) it is declared failed: at 5.5 s the session is invalidated and the 15 s
lock-delay starts. B, retrying every 5 s, takes the lock at 20.6 s: 19.6 s after the crash,
just inside the checker's bound of twice the lease (20 s). (With CreateNoChecks, options
no_checks, the TTL alone would free it: at twice the TTL, 20 s, then the lock-delay: 35 s.)

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
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
