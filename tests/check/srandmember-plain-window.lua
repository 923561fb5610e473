-- srandmember-eval-window.lua with plain SRANDMEMBER commands instead of scripts: the two draws are
-- ordered at n1 (each advances its generator), and the order where B draws first is found.
return {
  name = "check: SRANDMEMBER by two racing clients, over a window",
  about = [[A and B draw from one set through n1's generator; the order of the two SRANDMEMBERs decides who wins.]],
  protocol = "./models/lottery.lua", options = { draw_at = 50, plain = true }, nodes = 1, lease = "100ms", wait = "1ms",
  network = { delay = "1ms" },
  links = { { from = "A", to = "n1", delay = { "1ms", "5ms" } } },
  clients = { { name = "A", work = "50ms" }, { name = "B", start = "20ms", work = "50ms" } },
  duration = "1s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
