-- error at line 11: faults[2].restart: 'B' is a client, but restart needs a node
-- A test fixture (tests/test_scenario.c): a fault's target must be the right kind of actor.
local clients = { { name = "A" }, { name = "B" } }

return {
  name = "restart a client", about = "Only nodes restart.", protocol = "distlock",
  clients = clients,
  duration = "10s",
  faults = {
    { at = "1s", crash = "B" },
    { at = "2s", restart = "B" },
  },
}
