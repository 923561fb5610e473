-- The server's clock read with TIME inside a script (issue 33): server-time.lua with the
-- reading, the SETNX, the comparison and the takeover in one EVAL (redis.call('TIME')). B's
-- script takes the lock over when it runs between A's stamp (about 101 ms) and A's DEL (about
-- 152 ms): a clock value, not an order of events, decides it.
return {
  name = "check: the server's clock read with TIME in a script",
  about = [[A holds a 100 ms lock stamped in a script with n1's TIME and works 150 ms; B's script, over a 1-200 ms link, takes over if the stamp has passed.]],
  protocol = "./models/server-stamp.lua", options = { script = true }, nodes = 1, lease = "100ms", wait = "1ms",
  network = { delay = "1ms" },
  links = { { from = "B", to = "n1", delay = { "1ms", "200ms" } } },
  clients = { { name = "A", work = "150ms" }, { name = "B", start = "10ms", work = "50ms" } },
  duration = "2s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
