-- A random sleep on a drifting client clock: B's clock runs at half speed, so its 20-60 ms
-- retry sleep (its own ms) lasts 40-120 ms of true time. A's 100 ms lease runs out at 101 ms
-- and A leaves at 105 ms; B's retries land inside those 4 ms only for a few sleep values, and
-- only if the search measures the window in true time (about 4% of seeded runs violate: 8 of
-- seeds 1-200). B's 60 ms wait (its own clock) leaves it about two retries.
return {
  name = "check: a retry sleep on a drifting clock",
  about = [[A's 100 ms lease runs out while it works 103 ms; B, whose clock runs at half speed,
retries every 20-60 ms of its own clock for 60 ms of it.]],
  protocol = "distlock", nodes = 1, lease = "100ms", wait = "30s", network = { delay = "1ms" },
  options = { retry_min = 20, retry_max = 60 },
  clients = { { name = "A", work = "103ms" },
              { name = "B", start = "10ms", wait = "60ms", work = "100ms", clock = { drift = -0.5 } } },
  duration = "2s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
