-- a deadline moved to database 1 and back
return {
  name = "check: a deadline moved to database 1 and back",
  about = [[A regression of the deadline reduction (tests/cli/test_check.sh): the reduced search must find what --delays extremes finds.]],
  protocol = "./models/deadline-moved-db.lua", nodes = 1, lease = "10s", wait = "30s",
  network = { delay = "1ms" },
  clients = { { name = "X", work = "3s" }, { name = "Y" }, { name = "Z", start = "1005ms" } },

  duration = "5s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
