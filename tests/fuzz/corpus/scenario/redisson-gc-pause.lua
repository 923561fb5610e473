return {
  name = "seed", about = "a seed of the fuzz corpus", protocol = "redisson", lease = "10s", wait = "5s",
  clients = { { name = "A", work = "2s" }, { name = "B", start = "100ms" } },
  faults = { { at = "1s", gc_pause = "A", duration = "12s" } },
  duration = "30s",
}
