-- A master crash with replicas, its only violating instants before the replica has A's key:
-- A's SET lands on n1 at 2 ms and reaches the replica 50 ms later; a crash of n1 in between
-- loses the key at the failover, and B (from 1.5 s, after the promotion) takes the lock while
-- A works. Pinned crashes: holds at 1 ms and 60 ms, violated at 3, 10, 20 and 40 ms. The 20 ms
-- horizon cuts that interval; n1's next events lie past it.
return {
  name = "check: a master crash before its write is replicated, near the horizon",
  about = [[The explorer crashes n1 once in the first 20 ms; replication lags 50 ms; B tries
from 1.5 s.]],
  protocol = "distlock", nodes = 1, replicas = 1, lease = "10s", wait = "30s",
  network = { delay = "2ms" },
  replication = { lag = "50ms", down_after = "1s", detection = "500ms" },
  clients = { { name = "A", work = "5s" }, { name = "B", start = "1500ms", work = "1s" } },
  duration = "30s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = { crash = { "n1" } }, max_faults = 1, horizon = "20ms" },
}
