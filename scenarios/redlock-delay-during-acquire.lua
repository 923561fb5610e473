-- redlock-delay-during-acquire: slow replies eat into the validity, and Redlock accounts for it.
local nodes = { "A", "B", "C", "D", "E" }
local links = {}
for i = 1, 5 do links[i] = { from = "c1", to = nodes[i], delay = "70ms" } end
return {
  name = "Redlock: a slow acquisition shortens the validity",
  about = [[
Steps 3 and 4 of the Redlock algorithm ("Distributed Locks with Redis"): the client measures
the time elapsed since it sampled its clock before the first SET, and its lock is valid only
for TTL - elapsed - drift. The keys were set at different moments, but none earlier than that
first sample, so the first key to expire lives at least that long ("MIN_VALIDITY = TTL -
(T2 - T1) - CLOCK_DRIFT", "Safety arguments").

Client 1's links to all five masters are slow (70 ms each way), and its per-node timeout is
raised to 200 ms so that the slow nodes still count (with the docs' 5-50 ms they would all time
out). Acquiring takes about 700 ms, so client 1's validity is only about 9.2 s, not 9.9 s; it
works 9.1 s, within it, and leaves at about 9.8 s. At 5 s client 1 is cut off from every node,
so its release cannot arrive and the keys must expire on their own: the strictest test of the
arithmetic. Its third key (C, set at about 0.35 s) expires at about 10.35 s; client 2, polling
from 9.5 s, gets the lock only then, after client 1 has left. Mutual exclusion holds.
A model that forgot to subtract the elapsed time would have let client 1 work until about
10.6 s (try it: copy redlock.lua and drop "- elapsed" from the validity line).]],
  protocol = "redlock",
  mode = "redlock",
  nodes = nodes,
  lease = "10s", wait = "30s",
  network = { delay = { "1ms", "5ms" } },
  links = links,
  options = { preset = "redis-docs", node_timeout = 200, retry_count = 40, retry_delay = 20 },
  clients = {
    { name = "c1", start = 0,      work = "9100ms" },
    { name = "c2", start = "9.5s", work = "1s" },
  },
  faults = {
    { at = "5s", partition = { { "c1" }, { "A", "B", "C", "D", "E", "c2" } }, duration = "25s" },
  },
  duration = "30s", seed = 1,
  expect = { mutual_exclusion = "holds" },
}
