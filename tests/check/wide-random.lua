-- A wide ctx:random (issue 33, "words that match the proof"): A waits a random 0-9999 ms, more
-- values than the search tries whole (4096, evenly spaced); the lock is correct, so no
-- violation is found, but the search sampled: each property's line says "no violation found
-- (not a proof: values sampled)", and check exits 4.
return {
  name = "check: a ctx:random range wider than the search tries whole",
  about = [[A correct one-try lock; A waits a random 0-9999 ms first, B asks at 5 s.]],
  protocol = "./models/wide-random.lua", nodes = 1, lease = "1s", wait = "1ms",
  network = { delay = "1ms" },
  clients = { { name = "A", work = "500ms" }, { name = "B", start = "5s", work = "500ms" } },
  duration = "12s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
