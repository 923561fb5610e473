-- Two crashes whose restarts are ties (issue 33, "a counter-example that does not replay"): two
-- of Redlock's three masters crash and restart empty 100 ms later, and a restart falls on the
-- instant of another event there. The search's crash schedules its restart as the node's own
-- event, ordered against that other one by a "simultaneous events" decision; the written
-- counter-example pins a restart fault, which acts before anything else at its instant. Its
-- choice list held a decision the replay never makes: `locklab run CE.lua --choices CE.choices`
-- exited 2 with "decision 2 is 'simultaneous events' in the file but 'sleep' in this run". The
-- minimiser now runs every path in the file's form (model/shrink.c, pin).
return {
  name = "check: two crashes whose restarts tie with other events",
  about = [[Redlock over three masters without persistence; up to two crashes of any master within 300 ms, each restarting empty 100 ms later; B asks from 20 ms.]],
  protocol = "redlock", mode = "redlock", nodes = 3, lease = "200ms", wait = "150ms",
  network = { delay = "1ms" },
  clients = { { name = "A", work = "150ms" }, { name = "B", start = "20ms", work = "100ms" } },
  duration = "1s",
  expect = { mutual_exclusion = "holds" },
  explore = { faults = { crash = { targets = { "n1", "n2", "n3" }, params = { "100ms" } } }, max_faults = 2, horizon = "300ms" },
}
