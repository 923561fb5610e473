-- A replica promoted after a key's deadline, which it had by replication: the deadline has
-- passed, and the key expires at the promotion; had the request that set it on the master
-- come later, it would live on.
return {
  name = "check: a deadline passed at a promotion",
  about = [[Y sets ka (PX 980) after a random 5-25 ms; n1 crashes at 500 ms and n1r1 is
promoted at 990 ms; Z enters without the lock if ka is still there at 993 ms. The search must
find the path where Y's SET comes late enough for ka to outlive the promotion.]],
  protocol = "./models/deadline-passed.lua", nodes = 1, replicas = 1, lease = "10s", wait = "30s",
  network = { delay = "1ms" },
  replication = { lag = "1ms", detection = "1ms", down_after = "100s" },
  clients = { { name = "X", work = "4s" }, { name = "Y" }, { name = "Z", start = "993ms" } },
  faults = { { at = "500ms", crash = "n1" }, { at = "990ms", failover = "n1" } },
  duration = "5s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
