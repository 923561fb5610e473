-- A counter-example found and minimised by `locklab check random-race-math.lua`:
-- mutual_exclusion is violated. Replay it exactly with
--     locklab run out/random-race-math-counterexample.lua --choices out/random-race-math-counterexample.choices
-- This file wraps the original scenario, pins the faults the search placed, and
-- drops its explore table.
local scenario = (function()
return {
  name = "check: the server's random generator (math)",
  about = [[B and C draw at once; C enters when it draws what the first draw gives.]],
  protocol = "./models/random-race.lua", nodes = 1, lease = "10s", wait = "1ms",
  network = { delay = "1ms" },
  options = { draw = "math", first = "840486" },
  clients = { { name = "A", work = "500ms" }, { name = "B", start = "10ms", work = "100ms" }, { name = "C", start = "10ms", work = "100ms" } },
  duration = "2s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}

end)()
scenario.name = scenario.name .. " (counter-example)"
scenario.explore = nil
scenario.faults = scenario.faults or {}
local pinned = {
}
for i = 1, #pinned do scenario.faults[#scenario.faults + 1] = pinned[i] end
scenario.duration = "200ms" -- as short as it still shows the violation
scenario.expect = { mutual_exclusion = "violated" }
return scenario
