return {
  name = "seed", about = "ZooKeeper with a leader crash", server = "zookeeper", protocol = "curator-mutex",
  lease = "10s", wait = "30s", nodes = 1, replicas = 2,
  replication = { lag = {"50ms", "100ms"}, down_after = "1s", detection = "500ms", commit = "quorum" },
  clients = { { name = "A", work = "5s" }, { name = "B", start = "2s", work = "8s" } },
  faults = { { at = "300ms", crash = "n1" } }, duration = "60s", seed = 227,
}
