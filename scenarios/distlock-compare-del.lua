-- distlock-compare-del: the same timing, with a safe release.
return {
  name = "compare-and-delete: a safe release, but the lease is still too short",
  about = [[
The same timing as set-nx-del-unsafe-release, with the Redis documentation's lock: the value
is random and the release deletes the key only if it still holds that value ("Distributed
Locks with Redis", "Correct Implementation with a Single Instance"). A's late release finds B's
value and deletes nothing, so release safety holds and C waits its turn. But A's work (15 s)
still outlives its 10 s lease: from 10 s to 15 s A and B are both inside. A safe release does
not make a lease long enough; only a lease longer than the work (or a watchdog, or fencing)
does.]],
  protocol = "distlock",
  nodes = 1,
  lease = "10s", wait = "60s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,       work = "15s" },
    { name = "B", start = "100ms", work = "10s" },
    { name = "C", start = "12s",   work = "1s" },
  },
  duration = "60s", seed = 1,
  expect = { release_safety = "holds", mutual_exclusion = "violated" },
}
