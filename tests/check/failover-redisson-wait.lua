-- Can a master crash lose a Redisson 3.43 lock, which waits for its replica (WAIT)?
return {
  name = "check: a master crash under Redisson's replica sync (WAIT)",
  about = [[tests/check/failover.lua with Redisson 3.43, whose lock script is followed by
WAIT 1 1000 (redisson.lua, replica sync): the explorer crashes n1 at some instant of the
first 200 ms. A lock is taken only once the replica acknowledged it, so no crash loses it.]],
  protocol = "redisson", scripts = "redisson@3.43.0",
  nodes = 1, replicas = 1, lease = "10s", wait = "30s",
  network = { delay = "2ms" },
  replication = { lag = "50ms", down_after = "1s", detection = "500ms" },
  clients = { { name = "A", work = "5s" }, { name = "B", start = "100ms", work = "1s" } },
  duration = "30s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = { crash = { "n1" } }, max_faults = 1, horizon = "200ms" },
}
