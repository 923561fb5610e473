-- srandmember-eval.lua with plain SRANDMEMBER commands instead of scripts: the two draws reach
-- n1 at the same instant, and the order where B draws first must be tried. Today it is not
-- (check: "No violation exists" after 1 path, exit 0), as with tie-at-node.lua: the order of
-- two requests that reach one node at one instant, decided by the order of their clients'
-- simultaneous wake-ups. `locklab run tests/check/srandmember-plain.lua --seed 1` shows it.
return {
  name = "check: SRANDMEMBER by two racing clients",
  about = [[A and B draw from one set through n1's generator, at the same instant; the order of the two SRANDMEMBERs decides who wins.]],
  protocol = "./models/lottery.lua", options = { draw_at = 50, plain = true }, nodes = 1, lease = "100ms", wait = "1ms",
  network = { delay = "1ms" },
  clients = { { name = "A", work = "50ms" }, { name = "B", start = "20ms", work = "50ms" } },
  duration = "1s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
