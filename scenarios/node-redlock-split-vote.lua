-- node-redlock-split-vote: three clients split the votes; node-redlock never gives its keys back.
local nodes, links = { "A", "B", "C" }, {}
for c = 1, 3 do
  for n = 1, 3 do
    links[#links + 1] = { from = "c" .. c, to = nodes[n], delay = c == n and "1ms" or "20ms" }
  end
end
return {
  name = "node-redlock: a split vote that never resolves",
  about = [[
The Redis documentation's "Retry on Failure": when several clients try at once, "it may
happen that no one wins"; the remedy is that "clients that fail to acquire the majority of
locks release the (partially) acquired locks ASAP", and retry after a random delay, so that
the next round can have a winner.

node-redlock 5.0.0-beta.2 does neither of the two things the remedy needs. Its retry loop
(_execute, src/index.ts lines 418-468) sleeps and tries again WITHOUT releasing what the
failed attempt got; and its acquire script (lines 12-27) votes against whenever the key
exists, its own value included. Three clients each sit next to one of three masters (1 ms)
and far from the others (20 ms); all start at once. Each gets its own master and is refused
by the two others: one vote for, two against, a failed attempt. From then on every attempt of
every client is refused by all three masters, its own key too, for the 10 s the keys live;
only after 11 attempts (about 2.2 s) does each release and throw ExecutionError (lines
330-339). For that whole window nobody holds the lock while all three keep trying: no_deadlock,
judged here with a bound of 2 s (options.deadlock_bound, read by the checker), is violated.
Later rounds split less often, as the releases land at different moments, but every split
costs a whole retry window.

Under the documentation's algorithm (locklab compare node-redlock-split-vote --options
preset=redis-docs --options preset=node-redlock) each client asks the masters one after
another, unlocks all three after a failed attempt and retries 0-199 ms later: the
clients take turns and no_deadlock holds.]],
  protocol = "redlock",
  mode = "redlock",
  nodes = nodes,
  lease = "10s", wait = "30s",
  network = { delay = { "1ms", "5ms" } },
  links = links,
  options = { preset = "node-redlock", deadlock_bound = "2s" },
  clients = {
    { name = "c1", start = 0, work = "1s", rounds = 20 },
    { name = "c2", start = 0, work = "1s", rounds = 20 },
    { name = "c3", start = 0, work = "1s", rounds = 20 },
  },
  duration = "40s", seed = 1,
  expect = { no_deadlock = "violated" },
}
