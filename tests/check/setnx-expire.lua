-- Can a client crash leave the lock unobtainable? (SETNX then EXPIRE)
return {
  name = "check: a crash against SETNX + EXPIRE",
  about = [[The explorer crashes A at some instant of its first 50 ms.]],
  protocol = "setnx-expire", nodes = 1, lease = "10s", wait = "30s",
  network = { delay = "5ms" },
  clients = { { name = "A", work = "1s" }, { name = "B", start = "100ms", work = "1s" } },
  duration = "60s",
  expect = { no_deadlock = "holds" },
  explore = { faults = { crash = { "A" } }, max_faults = 1, horizon = "50ms" },
}
