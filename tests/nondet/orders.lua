-- Two runs of this scenario with one seed, in two processes, must print the same bytes
-- (tests/cli/test_nondet.sh): what Lua could make differ is fixed or refused.
return {
  name = "nondet: what Lua could make differ between two runs",
  about = [[A client model and a script iterate string keys and name tables; refused: table keys in pairs, %p.]],
  protocol = "./models/orders.lua", nodes = 1, lease = "10s", wait = "1ms",
  clients = { { name = "A", work = "5ms" } },
  duration = "1s",
  expect = { mutual_exclusion = "holds" },
}
