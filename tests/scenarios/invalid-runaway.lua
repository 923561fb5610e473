-- error: scenario took too long to evaluate
-- A test fixture (tests/test_scenario.c): evaluation has an instruction budget.
local n = 0
while n >= 0 do n = n + 1 end
return { name = "never" }
