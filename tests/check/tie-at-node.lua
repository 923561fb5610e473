-- Two requests at one node at the same instant, found while writing issue 33's problems: A and
-- B wake at 50 ms (their clocks) and send SET NX over 1 ms links; both reach n1 at 51 ms, in the
-- order their wake-ups ran (a "simultaneous events" decision at 50 ms). A enters even when its
-- SET failed (models/tie-first.lua): mutual exclusion breaks when B's SET runs first.
-- `locklab run tests/check/tie-at-node.lua --seed 1` shows it (B's SET first); --seed 3 runs
-- A's first and holds. Today check says "No violation exists within these bounds" after 1 path
-- (exit 0): the order of the two SETs at n1 is never tried, though the first changes what the
-- second does (a SET NX that found the key taken changed nothing, but would have, run first).
return {
  name = "check: two SET NX at one node at one instant",
  about = [[A and B send SET NX at 50 ms over 1 ms links; A enters even without the lock; B's SET first breaks mutual exclusion.]],
  protocol = "./models/tie-first.lua", options = { at = 50 }, nodes = 1, lease = "100ms", wait = "1ms",
  network = { delay = "1ms" },
  clients = { { name = "A", work = "50ms" }, { name = "B", start = "20ms", work = "50ms" } },
  duration = "1s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
