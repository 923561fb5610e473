-- node-redlock-gc-pause-acquire: a GC pause while the votes come in; node-redlock keeps the lock.
return {
  name = "node-redlock: a GC pause during acquisition gives the lock to two clients",
  about = [[
A stop-the-world pause (Kleppmann, "How to do distributed locking", 2016) that falls inside
the acquisition rather than after it. The Redis documentation's step 3 is there for exactly
this: the client measures the time the acquisition took and keeps the lock only if its
validity (TTL - elapsed - drift) is still positive; otherwise it unlocks every node.

node-redlock 5.0.0-beta.2 (src/index.ts) does not check. acquire takes start = Date.now()
(line 305), sends the acquire script to the three masters at once, and as soon as a quorum
has voted for (lines 510-517) returns a Lock whose expiration is start + duration - drift
(lines 316-329) — a moment already past when the replies were processed late. Client 1
sends its three requests at 0 s and is frozen at 1 ms for 12 s, with its replies on their way.
Its keys expire at about 10 s; client 2, which started at 9 s and retries every 200 +/- 100
ms (lines 449-457), takes the lock at about 10 s and works 5 s. Client 1 wakes at 12 s, counts
three votes for, and enters its critical section although its lock expired 2 s before:
mutual exclusion is violated.

The same faults under the documentation's algorithm hold (locklab compare
node-redlock-gc-pause-acquire --options preset=redis-docs --options preset=node-redlock):
client 1 wakes with 12 s elapsed, a negative validity, unlocks and gives up. go-redsync
(preset go-redsync) holds too: it times the try on the monotonic clock and refuses.]],
  protocol = "redlock",
  mode = "redlock",
  nodes = { "A", "B", "C" },
  lease = "10s", wait = "30s",
  network = { delay = { "1ms", "5ms" } },
  options = { preset = "node-redlock" },
  clients = {
    { name = "c1", start = 0,    work = "1s" },
    { name = "c2", start = "9s", work = "5s" },
  },
  faults = {
    { at = "1ms", gc_pause = "c1", duration = "12s" },
  },
  duration = "30s", seed = 1,
  expect = { mutual_exclusion = "violated" },
}
