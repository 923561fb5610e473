-- A fault whose only violating instants lie in its target's last gap before the horizon: A
-- takes the lock at 2 ms and its next event is the end of its work at 9.5 s, far past the 6 s
-- horizon. A 5 s GC pause of A breaks mutual exclusion only if it lands after ~5.05 s (it then
-- holds A's exit past the lease's end at 10 s and B's next retry); a sweep of pinned instants
-- shows it holding at 5.04 s and violated from 5.1 s to 6 s. No event of A is due anywhere in
-- that interval: the search must land the pause in A's last gap (sim/world.c, PHASE_LATE,
-- with the gap as the instant's shift), not only at A's events.
return {
  name = "check: a GC pause whose instants lie in its target's last gap",
  about = [[A holds the lock from 2 ms and works 9.5 s under a 10 s lease; one 5 s GC pause of A
anywhere in the first 6 s; B tries from 100 ms on.]],
  protocol = "distlock", nodes = 1, lease = "10s", wait = "30s",
  network = { delay = "1ms" },
  clients = { { name = "A", work = "9500ms" }, { name = "B", start = "100ms", work = "1s" } },
  duration = "40s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = { gc_pause = { targets = { "A" }, params = { "5s" } } }, max_faults = 1, horizon = "6s" },
}
