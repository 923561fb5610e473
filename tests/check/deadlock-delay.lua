-- A property decided by a delay's length: no_deadlock bounds how long a client may wait for a
-- free lock (options.deadlock_bound). A's acquire travels a 1-300 ms link: it waits past the
-- 200 ms bound only when its request is slow enough, which no order of events tells apart —
-- the search must compare the wait's length with the bound (model/reduce.c, its margin).
return {
  name = "check: a wait that outlasts its bound over a slow link",
  about = [[A alone; its SET travels 1-300 ms; the bound is 200 ms.]],
  protocol = "distlock", nodes = 1, lease = "1s", wait = "30s", network = { delay = "1ms" },
  links = { { from = "A", to = "n1", delay = { "1ms", "300ms" } } },
  clients = { { name = "A", work = "50ms" } },
  options = { deadlock_bound = "200ms" },
  duration = "2s",
  expect = { no_deadlock = "holds" },
  explore = { max_faults = 0 },
}
