-- Is a lock that skips itself after a slow round trip (4 ms) safe? Only when both delays of
-- A's PING take their late end: the clock's value decides, not an order of events.
return {
  name = "check: a decision on the clock's value alone",
  about = [[B holds the lock for 1 s; A times a PING (1-2 ms each way) and, if it took 4 ms or
more, enters without the lock. The search must find the one path where it does.]],
  protocol = "./models/rtt-shortcut.lua", nodes = 1, lease = "10s", wait = "30s",
  network = { delay = { "1ms", "2ms" } },
  clients = { { name = "B", work = "1s" }, { name = "A", start = "20ms", work = "100ms" } },
  duration = "5s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
