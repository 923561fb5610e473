-- A clock value carried through a node: A writes its deadline (its clock plus the lease) into
-- the lock's value; B reads it and compares it with its own clock (the timestamp lock of the
-- SETNX page's old "Handling deadlocks" section). B takes the lock over only if that comparison
-- says the deadline has passed while A still works: where B's GET lands in its window.
return {
  name = "check: a clock value carried through a node",
  about = [[A holds a 100 ms timestamp lock and works 150 ms; B tries once over a 1-200 ms link.]],
  protocol = "./models/stamp-carry.lua", nodes = 1, lease = "100ms", wait = "1ms", network = { delay = "1ms" },
  links = { { from = "B", to = "n1", delay = { "1ms", "200ms" } } },
  clients = { { name = "A", work = "150ms" }, { name = "B", start = "10ms", work = "50ms" } },
  duration = "2s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
