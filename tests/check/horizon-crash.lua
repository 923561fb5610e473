-- A crash of a node whose next event is past the horizon: n1 (no persistence) has its last
-- event before the 1 s horizon at 1 ms (A's SET) and its next at 1.201 s (B's one try). A
-- crash that restarts n1 empty 300 ms later breaks mutual exclusion when it lands between
-- the two, early enough (before ~0.9 s) that the restart comes before B's SET: the search
-- must land it in n1's last gap with its shift reaching back past the horizon's end.
return {
  name = "check: a crash in its target's last gap before the horizon",
  about = [[A holds the lock 3 s; n1 crashes once in the first 1 s and restarts empty after
300 ms; B tries once at 1.2 s.]],
  protocol = "distlock", nodes = 1, persistence = "none", lease = "10s", wait = "30s",
  network = { delay = "1ms" },
  clients = { { name = "A", work = "3s" }, { name = "B", start = "1200ms", wait = "1ms", work = "100ms" } },
  duration = "5s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = { crash = { targets = { "n1" }, params = { "300ms" } } }, max_faults = 1, horizon = "1s" },
}
