-- A lock granted to a waiter that stopped awaiting it (the fake PostgreSQL's parked reply as
-- an event the search orders). B waits in the server with pg_advisory_lock under a 2 s
-- lock_timeout and stops awaiting the reply 1 s after that (pg-advisory-blocking.lua's own
-- bound). A frees the lock at about 1.9 s: the server grants it to B at once, but B's link
-- carries the reply in 1-1500 ms. When it takes longer than B's remaining patience, B gives up
-- while its session, still open, holds the lock: C, who asks at 4 s, waits for nobody until
-- its own lock_timeout (5 s). The default schedule (every delay 1 ms) holds; one deviation, the
-- grant's reply landing after B's bound (3.1 s), violates. Requests time out after 10 s, so
-- that only the pg_advisory_lock's own bound decides.
return {
  name = "check: a pg_advisory_lock granted after its waiter gave up",
  about = [[A holds for 1.9 s; B waits in the server (lock_timeout 2 s, its own bound 3 s) over a
1-1500 ms link; C asks at 4 s and waits up to 5 s; no_deadlock's bound 2 s.]],
  protocol = "pg-advisory-blocking", server = "postgresql", nodes = 1,
  lease = false, wait = "2s", timeout = "10s",
  network = { delay = "1ms" },
  links = { { from = "B", to = "n1", delay = { "1ms", "1500ms" } } },
  clients = {
    { name = "A", work = "1900ms" },
    { name = "B", start = "100ms", work = "50ms" },
    { name = "C", start = "4s", work = "50ms", wait = "5s" },
  },
  options = { deadlock_bound = "2s" },
  duration = "20s",
  expect = { no_deadlock = "holds" },
  explore = { max_faults = 0 },
}
