-- PEXPIREAT: a deadline fixed by the request, not by when it ran
return {
  name = "check: PEXPIREAT: a deadline fixed by the request, not by when it ran",
  about = [[A regression of the deadline reduction (tests/cli/test_check.sh): the reduced search must find what --delays extremes finds.]],
  protocol = "./models/deadline-absolute.lua", nodes = 1, lease = "10s", wait = "30s",
  network = { delay = "1ms" },
  clients = { { name = "X", work = "3s" }, { name = "Y", start = "10ms" } },
  duration = "5s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
