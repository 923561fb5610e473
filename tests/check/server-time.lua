-- The server's clock read with TIME (issue 33): A holds a 100 ms timestamp lock whose deadline
-- is n1's TIME reading plus the lease, and works 150 ms; B reads TIME over a 1-200 ms link and
-- takes the lock over if its reading is past A's deadline while A still works. Only where B's
-- TIME request lands in its window decides it (B's reading between A's deadline and A's DEL):
-- no order of events differs between a landing at 11 ms and one at 120 ms.
return {
  name = "check: the server's clock read with TIME",
  about = [[A holds a 100 ms lock stamped with n1's TIME and works 150 ms; B tries once over a 1-200 ms link.]],
  protocol = "./models/server-stamp.lua", nodes = 1, lease = "100ms", wait = "1ms", network = { delay = "1ms" },
  links = { { from = "B", to = "n1", delay = { "1ms", "200ms" } } },
  clients = { { name = "A", work = "150ms" }, { name = "B", start = "10ms", work = "50ms" } },
  duration = "2s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
