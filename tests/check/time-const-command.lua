-- The server's clock read with TIME (command): B's request lands anywhere in a 1-3 ms window and
-- B enters without the lock when the µs TIME answers end in 007. TIME answers to the µs, and
-- a reading is compared with a constant here, not with another reading: every µs of the
-- window is an order of its own.
return {
  name = "check: the server's TIME to the µs (command)",
  about = [[A holds the lock; B enters when the server's TIME, read as its request lands, ends in 007 µs.]],
  protocol = "./models/time-const.lua", nodes = 1, lease = "10s", wait = "1ms",
  network = { delay = "1ms" },
  links = { { from = "B", to = "n1", delay = { "1ms", "3ms" } } },
  options = { via = "command" },
  clients = { { name = "A", work = "500ms" }, { name = "B", start = "10ms", work = "100ms" } },
  duration = "2s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
