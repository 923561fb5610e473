-- A partition that heals while a request crosses its cut (issue 33: a partition's start and
-- end are ordered against the messages that cross its cut, not against every step). A holds
-- the lock (50 ms lease) and works 200 ms; B asks once at 98.2 ms over a 1-3 ms link; a 1 ms
-- partition cuts B off from n1 from 99 ms to 100 ms. B's SET NX, sent before the cut, is
-- dropped where it lands inside it (B gives up), and takes the expired lock while A works
-- where it lands after the heal. Only where B's delivery falls against the partition's end
-- decides it; the first value of the window lands inside. `locklab run
-- tests/check/partition-heal-window.lua --seed 3` lands it after the heal (violated), --seed
-- 1 inside the partition (holds).
return {
  name = "check: a partition healing while a request crosses its cut",
  about = [[A holds a 50 ms lock and works 200 ms; B asks once at 98.2 ms over a 1-3 ms link; a 1 ms partition cuts B off from n1 at 99 ms.]],
  protocol = "distlock", nodes = 1, lease = "50ms", wait = "1ms",
  network = { delay = "1ms" },
  links = { { from = "B", to = "n1", delay = { "1ms", "3ms" } } },
  clients = { { name = "A", work = "200ms" }, { name = "B", start = "98200us", work = "10ms" } },
  faults = { { at = "99ms", partition = { { "B" }, { "n1" } }, duration = "1ms" } },
  duration = "1s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
