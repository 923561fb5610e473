-- make bench: Redisson's lock with its watchdog (no lease: 30 s, renewed every 10 s), over a
-- master with one replica and automatic failover, Redisson 3.43 (every lock script followed
-- by WAIT: the replica must have it first). Two clients; the explorer crashes the master at
-- any instant of the first 2.5 s; 1-2 ms delay windows. No Promela model of it.
return {
  name = "bench: Redisson watchdog, replica and failover",
  about = [[A holds 12 s (the watchdog renews its 30 s lease at 10 s); B asks at 1 s and waits. The
master may crash at any instant of the first 2.5 s; its replica takes over after 1 s.]],
  protocol = "redisson", scripts = "redisson@3.43.0",
  nodes = 1, replicas = 1, lease = false, wait = "40s",
  network = { delay = { "1ms", "2ms" } },
  replication = { lag = "20ms", down_after = "1s", detection = "500ms" },
  clients = { { name = "A", work = "12s" }, { name = "B", start = "1s", work = "1s" } },
  duration = "40s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = { crash = { targets = { "n1" } } }, max_faults = 1, horizon = "2500ms" },
}
