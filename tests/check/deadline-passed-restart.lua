-- A node restarted from its AOF after a key's deadline: the deadline has passed, and the key
-- expires at the restart; had the request that set it come later, it would live on.
return {
  name = "check: a deadline passed at a restart",
  about = [[Y sets ka (PX 980) after a random 5-25 ms; n1 is down from 500 ms to 1 s and
restarts from its AOF; Z enters without the lock if ka is still there at 1002 ms. The search
must find the path where Y's SET comes late enough for ka to outlive the restart.]],
  protocol = "./models/deadline-passed.lua", nodes = 1, persistence = "always", lease = "10s", wait = "30s",
  network = { delay = "1ms" },
  clients = { { name = "X", work = "4s" }, { name = "Y" }, { name = "Z", start = "1002ms" } },
  faults = { { at = "500ms", crash = "n1" }, { at = "1000ms", restart = "n1" } },
  duration = "5s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
