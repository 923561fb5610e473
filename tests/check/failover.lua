-- Can a master crash lose a lock under asynchronous replication?
return {
  name = "check: a master crash with asynchronous replication",
  about = [[The explorer crashes n1 at some instant of the first 200 ms.]],
  protocol = "distlock", nodes = 1, replicas = 1, lease = "10s", wait = "30s",
  network = { delay = "2ms" },
  replication = { lag = "50ms", down_after = "1s", detection = "500ms" },
  clients = { { name = "A", work = "5s" }, { name = "B", start = "100ms", work = "1s" } },
  duration = "30s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = { crash = { "n1" } }, max_faults = 1, horizon = "200ms" },
}
