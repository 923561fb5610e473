-- redlock-drift-within-factor: node clocks run 0.5 % fast; the drift allowance is 1 % of the TTL.
return {
  name = "Redlock: node clocks 0.5 % fast, within the 1 % drift allowance",
  about = [[
The Redis documentation's timing assumption ("Is the algorithm asynchronous?"):
processes have no synchronized clocks, but local time advances at about the same rate, "with
a small margin of error compared to the auto-release time of the lock"; the client subtracts
a clock-drift allowance from the validity (redlock-rb: 1 % of the TTL + 2 ms, 102 ms for 10 s).

All five masters' clocks run 0.5 % fast, so a key set with PX 10000 expires after only
about 9950 ms of true time. Client 1 acquires with a validity of about 9870 ms and works for
9840 ms, inside its validity, as the algorithm requires. At 5 s client 1 is cut off from
every node, so its release cannot arrive: the keys must expire on their own. Client 2 polls
from 9.5 s (50 ms after each failed attempt) and gets the lock when a majority of keys has
expired, at about 9.95 s, after client 1 has left at about 9.87 s: the drift allowance covered
the fast clocks and mutual exclusion holds. redlock-drift-beyond-factor is the same run with clocks 3 % fast.]],
  protocol = "redlock",
  mode = "redlock",
  nodes = { "A", "B", "C", "D", "E" },
  clock = { drift = 0.005 },
  lease = "10s", wait = "30s",
  network = { delay = { "1ms", "5ms" } },
  options = { preset = "redis-docs", retry_count = 20, retry_delay = 50 },
  clients = {
    { name = "c1", start = 0,      work = "9840ms" },
    { name = "c2", start = "9.5s", work = "1s" },
  },
  faults = {
    { at = "5s", partition = { { "c1" }, { "A", "B", "C", "D", "E", "c2" } }, duration = "25s" },
  },
  duration = "30s", seed = 1,
  expect = { mutual_exclusion = "holds" },
}
