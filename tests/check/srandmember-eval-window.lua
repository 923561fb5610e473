-- Server randomness inside scripts (issue 33): A and B each put {A, B} in a set, load one
-- script, and at 50 ms by their clocks draw a member with SRANDMEMBER inside EVALSHA; a client
-- that draws its own name takes the lock (models/lottery.lua). n1's generator gives its draws
-- in order ("B", then "A"): whoever's script runs first gets "B". B's link is 1 ms, A's 1-5 ms,
-- so A's draw runs at 51-55 ms and B's at 51 ms: when B's runs first, both win. Neither script
-- writes a key, yet they do not commute — each advanced the node's generator.
-- `locklab run tests/check/srandmember-eval.lua --seed 1` shows it (B draws "B", A draws "A").
-- srandmember-eval.lua is the same at one instant. Today check's default probes find this one
-- at random; its systematic search alone (--probes 0) says "holds" in 1125 paths.
return {
  name = "check: SRANDMEMBER inside two racing scripts, over a window",
  about = [[A and B draw from one set through n1's generator, in scripts that write nothing; the order of the two EVALSHAs decides who wins.]],
  protocol = "./models/lottery.lua", options = { draw_at = 50 }, nodes = 1, lease = "100ms", wait = "1ms",
  network = { delay = "1ms" },
  links = { { from = "A", to = "n1", delay = { "1ms", "5ms" } } },
  clients = { { name = "A", work = "50ms" }, { name = "B", start = "20ms", work = "50ms" } },
  duration = "1s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
