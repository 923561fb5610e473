-- error at line 13: faults[1].partition[2][1]: 'A' is in two groups
-- A test fixture (tests/test_scenario.c): an actor may be in only one group of a partition.
return {
  name = "partition", about = "A is on both sides.", protocol = "distlock",
  clients = { { name = "A" }, { name = "B" } },
  duration = "10s",
  faults = {
    {
      at = "1s",
      duration = "2s",
      partition = {
        { "A", "n1" },
        { "A", "B" },
      },
    },
  },
}
