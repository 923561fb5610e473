-- Server randomness inside scripts (issue 33): A and B each put {A, B} in a set, load one
-- script, and at 50 ms by their clocks draw a member with SRANDMEMBER inside EVALSHA; a client
-- that draws its own name takes the lock (models/lottery.lua). n1's generator gives its draws
-- in order ("B", then "A"): whoever's script runs first gets "B". Every delay is 1 ms, so both
-- scripts reach n1 at 51 ms, and which runs first is the order of two simultaneous events:
-- when B's does, both win. Neither script writes a key, yet they do not commute — each
-- advanced the node's generator. `locklab run tests/check/srandmember-eval.lua --seed 1` shows
-- it (B draws "B", A draws "A"); --seed 3 runs A's first (both lose). Today check says "No
-- violation exists within these bounds" after 1 path (exit 0).
return {
  name = "check: SRANDMEMBER inside two racing scripts",
  about = [[A and B draw from one set through n1's generator, in scripts that write nothing and reach n1 at the same instant; their order decides who wins.]],
  protocol = "./models/lottery.lua", options = { draw_at = 50 }, nodes = 1, lease = "100ms", wait = "1ms",
  network = { delay = "1ms" },
  clients = { { name = "A", work = "50ms" }, { name = "B", start = "20ms", work = "50ms" } },
  duration = "1s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
