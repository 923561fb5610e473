-- single-basic: the correct single-instance lock, with nothing going wrong.
return {
  name = "three clients share a single-instance lock",
  about = [[
The Redis documentation's lock on one Redis node ("Correct Implementation with a Single
Instance" in "Distributed Locks with Redis"): SET key my_random_value NX PX 10000 to acquire, a
compare-and-delete script to release, a random delay before each retry. Three clients take
turns for three rounds each; nothing fails, so mutual exclusion holds. This is the baseline the
other scenarios break.]],
  protocol = "distlock",
  nodes = 1,
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,      work = "1s", rounds = 3 },
    { name = "B", start = "10ms", work = "1s", rounds = 3 },
    { name = "C", start = "20ms", work = "1s", rounds = 3 },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds" },
}
