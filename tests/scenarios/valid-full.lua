-- valid-full.lua — a test fixture that sets every field of a scenario (tests/test_scenario.c
-- checks each value). Not a lesson: see scenarios/ for those.
local second = 1000

return {
  name = "every field",
  about = [==[
Exercises every field the loader knows, with [[nested]] brackets in a long string
and "quotes", so that line numbers after it must still be right.]==],
  protocol = "redlock",
  mode = "redlock",
  nodes = { "A", "B", "C" },
  replicas = 1,
  persistence = "everysec",
  restart_delay = "2s",
  clock = { offset = "-1s", drift = 0.001 },
  per_node = {
    B = { persistence = "always", restart_delay = false },
    Cr1 = { clock = { drift = -0.002 } },   -- offset stays the all-nodes one
    ["A"] = { restart_delay = 500 },
  },
  lease = "8s", wait = 5 * second, timeout = "250ms",
  network = { delay = { exponential = "2ms" }, loss = 0.01 },
  links = {
    { from = "X", to = "A", delay = { "10ms", "20ms" }, loss = 0.5 },
    { from = "B", to = "Y" },
  },
  replication = { lag = "40ms", down_after = "3s", detection = 1500 },
  clients = {
    { name = "X", start = 0, work = "1.5s", rounds = 3, think = "100ms" },
    { name = "Y", start = "100ms", work = 250.5, rounds = 1, wait = "2s", lease = false,
      clock = { offset = 20, drift = 0.05 } },
    { name = "Z", lease = "none" },
  },
  faults = {
    { at = "1s", gc_pause = "X", duration = "12s" },
    { at = "2s", crash = "C" },
    { at = "2s", crash = "Z" },
    { at = "3s", restart = "C" },
    { at = "4s", clock_jump = "B", by = "-20s" },
    { at = "4s", clock_jump = "Y", by = 1500 },
    { at = "5s", drift = "Ar1", rate = 0.05 },
    { at = "6s", partition = { { "X", "A" }, { "Y", "B", "C" } }, duration = "5s" },
    { at = "7s", failover = "A" },
    { at = "8s", drop = { "X", "A" }, probability = 0.5 },
    { at = "9s", drop = { "Y", "B" }, probability = 1, duration = "1s" },
  },
  duration = "1m", seed = 42,
  fencing = true,
  scripts = "redisson@3.11.1",
  lock = "orders",
  expect = { mutual_exclusion = "violated", no_deadlock = "holds" },
  options = { preset = "redlock-rb", drift_factor = 0.01, extend = true },
  explore = {
    faults = {
      gc_pause = { "X", "Y" },
      clock_jump = { targets = { "A" }, params = { "-5s", "5s" } },
      drift = { targets = { "B" }, params = { 0.01, 0.1 } },
      crash = { targets = { "C" }, params = { 0, "20s" } },
    },
    max_faults = 2, horizon = "30s", max_depth = 500,
  },
}
