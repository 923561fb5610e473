-- A no_deadlock stretch whose start a fault moves: A holds the lock (10 s lease) and crashes
-- once in the first 6 s; B waits from 500 ms until the lease runs out. The stretch (B waits,
-- no live client holds) runs from the crash or B's start, whichever is later, to B's
-- acquire at ~10.05 s: it outlasts the 9.5 s bound only if A crashes before ~0.55 s, long
-- before A's next event (the end of its work at 5 s). The bound is a margin between two
-- true instants (model/prop_no_deadlock.c) that the crash's instant uses up.
return {
  name = "check: a holder's crash that starts a long wait",
  about = [[A takes the lock with a 10 s lease and works 5 s; one crash of A in the first 6 s; B
waits from 500 ms; no_deadlock's bound 9.5 s.]],
  protocol = "distlock", nodes = 1, lease = "10s", wait = "30s",
  network = { delay = "1ms" },
  clients = { { name = "A", work = "5s" }, { name = "B", start = "500ms", work = "100ms" } },
  options = { deadlock_bound = "9500ms" },
  duration = "30s",
  expect = { no_deadlock = "holds" },
  explore = { faults = { crash = { targets = { "A" } } }, max_faults = 1, horizon = "6s" },
}
