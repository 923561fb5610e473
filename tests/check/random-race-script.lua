return {
  name = "check: the server's random generator (script)",
  about = [[B and C draw at once; C enters when it draws what the first draw gives.]],
  protocol = "./models/random-race.lua", nodes = 1, lease = "10s", wait = "1ms",
  network = { delay = "1ms" },
  options = { draw = "script", first = "b" },
  clients = { { name = "A", work = "500ms" }, { name = "B", start = "10ms", work = "100ms" }, { name = "C", start = "10ms", work = "100ms" } },
  duration = "2s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
