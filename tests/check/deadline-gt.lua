-- PEXPIRE GT: the new deadline against the old one
return {
  name = "check: PEXPIRE GT: the new deadline against the old one",
  about = [[A regression of the deadline reduction (tests/cli/test_check.sh): the reduced search must find what --delays extremes finds.]],
  protocol = "./models/deadline-gt.lua", nodes = 1, lease = "10s", wait = "30s",
  network = { delay = "1ms" },
  links = { { from = "Y", to = "n1", delay = { "1ms", "20ms" } } },
  clients = { { name = "X", work = "3s" }, { name = "Y", start = "10ms" }, { name = "Z", start = "1005ms" } },
  duration = "5s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
