-- set-nx-del-unsafe-release: a plain DEL removes somebody else's lock.
return {
  name = "SET NX PX with a plain DEL: releasing someone else's lock",
  about = [[
The lock the Redis documentation warns against ("Distributed Locks with Redis": "Using just
DEL is not safe as a client may remove another client's lock"): the acquire is atomic
(SET NX PX), but the release is a plain DEL. A's work (15 s) outlives its 10 s lease; the key
expires and B takes the lock. At 15 s A finishes and its DEL deletes B's lock, so C, who has
been waiting, acquires it while B is still working: B and C are both inside. Release safety is
violated (A removed a lock it did not own), and so is mutual exclusion. Compare
distlock-compare-del, where the compare-and-delete script refuses A's release.]],
  protocol = "set-nx-del",
  nodes = 1,
  lease = "10s", wait = "60s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,       work = "15s" },
    { name = "B", start = "100ms", work = "10s" },
    { name = "C", start = "12s",   work = "1s" },
  },
  duration = "60s", seed = 1,
  expect = { release_safety = "violated", mutual_exclusion = "violated" },
}
