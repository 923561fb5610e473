-- The server's clock read with TIME, to the µs (issue 33). A's TIME request reaches n1 at
-- 1.3 ms and A writes "its reading + 100 ms + 1 µs" (101.301 ms) into the lock as its
-- deadline; A then works 150 ms. B starts at 100 ms, reads TIME over a 1-1.9 ms link and
-- takes the lock over (GETSET) when its reading is past that deadline: where B's TIME lands
-- in its window decides it — after 101.301 ms B enters while A works. No order of events
-- differs across that window, and the whole-ms reading is 101 ms throughout it: only a
-- reading at the resolution TIME answers (µs) tells the two halves apart.
-- `locklab run tests/check/server-time-us.lua --seed 1` lands B's TIME at 101.571 ms (past the
-- deadline: violated once TIME answers in µs), --seed 2 at 101.271 ms (before it: holds).
-- Today the simulated TIME answers the whole ms (sim/redis/commands.c, cmd_time: the node's ms
-- clock × 1000): A's stamp is 101.001 ms, B reads 101.000 ms, and every run holds.
return {
  name = "check: the server's clock read with TIME, to the µs",
  about = [[A holds a 100 ms lock stamped with n1's TIME (µs) and works 150 ms; B reads TIME at about 101 ms and takes over if the stamp has passed.]],
  protocol = "./models/server-stamp.lua", nodes = 1, lease = "100ms", wait = "1ms", network = { delay = "1300us" },
  links = { { from = "B", to = "n1", delay = { "1ms", "1900us" } } },
  clients = { { name = "A", work = "150ms" }, { name = "B", start = "100ms", work = "20ms" } },
  duration = "1s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
