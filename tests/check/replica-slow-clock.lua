-- A deadline set on the master and kept by a replica whose clock runs at half speed: once the
-- replica is promoted, a request that arrives later by d moves the key's expiry by 2d, not d.
return {
  name = "check: a replicated deadline on a slower clock",
  about = [[Y sets ka (PX 980) after a random 5-25 ms; n1 crashes at 500 ms and n1r1, whose
clock runs at half speed, is promoted at 900 ms: ka expires there at about 1.97 s, or 40 ms
later if Y's SET came 20 ms later; Z enters without the lock if ka is still there at 2 s. The
search must find the path where Y wakes late.]],
  protocol = "./models/deadline-passed.lua", nodes = 1, replicas = 1, lease = "10s", wait = "30s",
  network = { delay = "1ms" },
  per_node = { n1r1 = { clock = { drift = -0.5 } } },
  replication = { lag = "1ms", detection = "1ms", down_after = "100s" },
  clients = { { name = "X", work = "4s" }, { name = "Y" }, { name = "Z", start = "2000ms" } },
  faults = { { at = "500ms", crash = "n1" }, { at = "900ms", failover = "n1" } },
  duration = "5s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
