-- A fault instant between two events that are not its target's: n1 (no persistence) must
-- crash after A's SET and early enough that its restart, 300 ms later, comes before B's one
-- try at 500 ms; B then finds the lock free while A works. Just before n1's own next event
-- (B's SET) the restart comes too late; the instants that work lie between other actors'
-- events.
return {
  name = "check: a crash whose restart must fall in a gap",
  about = [[A holds the lock 2 s; n1 crashes once and restarts empty after 300 ms; B tries once at 500 ms.]],
  protocol = "distlock", nodes = 1, persistence = "none", lease = "10s", wait = "30s",
  network = { delay = "1ms" },
  clients = { { name = "A", work = "2s" }, { name = "B", start = "500ms", wait = "1ms", work = "100ms" } },
  duration = "3s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = { crash = { targets = { "n1" }, params = { "300ms" } } }, max_faults = 1, horizon = "1s" },
}
