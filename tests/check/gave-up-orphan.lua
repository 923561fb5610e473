-- A client that ends while its request or reply is in flight: B's SET and its reply travel a
-- 1-300 ms link (both ways) and B's call times out at 100 ms; with a 1 ms wait B then gives
-- up and finishes. If B's SET has landed (or lands before A's, at 100.5 ms) but its reply is
-- not back by then, the key is B's and nobody's: the late reply, and B's timer if the reply
-- came first, are stale events of a finished client (sim/client_run.c, model/reduce.c). A, trying
-- from 99.5 ms, then waits out the 10 s lease while no live client holds the lock. Whether
-- it does is decided by where in the window the reply lands against B's timeout: a client
-- ending at a time a window decides. About 28% of seeded runs violate (84 of seeds 1-300).
return {
  name = "check: a key left by a client that gave up",
  about = [[B's SET over a 1-300 ms link, a 100 ms request timeout, one try; A tries from 99.5 ms;
no_deadlock's bound 2 s.]],
  protocol = "distlock", nodes = 1, lease = "10s", wait = "30s", timeout = "100ms",
  network = { delay = "1ms" },
  links = { { from = "B", to = "n1", delay = { "1ms", "300ms" } } },
  clients = { { name = "B", wait = "1ms", work = "50ms" }, { name = "A", start = "99500us", work = "50ms" } },
  options = { deadlock_bound = "2s" },
  duration = "20s",
  expect = { no_deadlock = "holds" },
  explore = { max_faults = 0 },
}
