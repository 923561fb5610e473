-- The server's clock read with TIME inside a script, to the µs (issue 33): server-time-us.lua
-- with the reading, the SETNX, the comparison and the takeover in one EVAL (redis.call('TIME'),
-- models/server-stamp.lua's options.script). A's script runs at 1.3 ms and stamps the lock
-- 101.301 ms; B's runs somewhere in 101.0-101.9 ms and takes the lock over past the stamp.
-- `locklab run tests/check/server-time-us-script.lua --seed 1` lands B's EVAL at 101.571 ms
-- (violated once TIME answers in µs), --seed 2 at 101.271 ms (holds). Today TIME answers the
-- whole ms (sim/redis/commands.c, cmd_time) and every run holds.
return {
  name = "check: the server's clock read with TIME in a script, to the µs",
  about = [[A holds a 100 ms lock stamped in a script with n1's TIME (µs) and works 150 ms; B's script reads TIME at about 101 ms and takes over if the stamp has passed.]],
  protocol = "./models/server-stamp.lua", options = { script = true }, nodes = 1, lease = "100ms", wait = "1ms",
  network = { delay = "1300us" },
  links = { { from = "B", to = "n1", delay = { "1ms", "1900us" } } },
  clients = { { name = "A", work = "150ms" }, { name = "B", start = "100ms", work = "20ms" } },
  duration = "1s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
