-- The same budget against the fenced lock: the resource must never accept a stale write.
return {
  name = "check: a GC pause against the fenced lock",
  about = [[With fencing tokens the late write of a paused holder is rejected, wherever the pause lands.]],
  protocol = "redisson-fenced", nodes = 1, lease = "10s", wait = "30s", fencing = true,
  network = { delay = "2ms" },
  clients = { { name = "A", work = "5s" }, { name = "B", start = "100ms", work = "1s" } },
  duration = "40s",
  expect = { resource_safety = "holds" },
  explore = { faults = { gc_pause = { targets = { "A" }, params = { "12s" } } }, max_faults = 1, horizon = "2s" },
}
