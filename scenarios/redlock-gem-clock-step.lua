-- redlock-gem-clock-step: the client's clock is stepped back while it acquires; a monotonic clock is not fooled.
return {
  name = "redlock gem: a clock step during acquisition does not fool a monotonic clock",
  about = [[
Step 3 of the Redis documentation's Redlock measures how long the acquisition took, and the
lock is valid for TTL - elapsed - drift. The documentation does not say which clock: a wall
clock can be stepped by NTP or by hand (Kleppmann, "How to do distributed locking", 2016, on
clock jumps), and then the elapsed time it gives is wrong.

Client 1 asks three masters in turn; its SETs reach A, B and C within 5 ms, and then a 12 s
GC pause freezes it before it reads C's reply. While it is frozen its wall clock is stepped
back by 12 s. The keys expire at 10 s and client 2, retrying, takes the lock. Client 1 wakes
at 12 s with three OKs. The redlock gem 2.0.6 (leandromoreira/redlock-rb,
lib/redlock/client.rb) times the try with Process::CLOCK_MONOTONIC (lines 30-36, 368-371):
12 s elapsed, validity 10000 - 12005 - 102 < 0 (line 316), it unlocks (its value only) and
retries against client 2's keys: mutual exclusion holds. (go-redsync also reads a
monotonic clock, but it asks the three masters at once and has its lock before the pause
begins: the pause then falls in its critical section, the plain redlock-gc-pause.)

A wall clock measures about 5 ms: the documentation's algorithm as the presets model it
(preset redis-docs, antirez's redlock-rb and redlock-py read Time.now / time.time) takes the
lock 2 s after it expired and enters its critical section beside client 2 (locklab compare
redlock-gem-clock-step --options preset=redlock-gem --options preset=redis-docs). Both
clients retry up to 10 times (retry_count = 10) so that client 2 is still trying at 10 s.]],
  protocol = "redlock",
  mode = "redlock",
  nodes = { "A", "B", "C" },
  lease = "10s", wait = "30s",
  network = { delay = "1ms" },
  options = { preset = "redlock-gem", retry_count = 10 },
  clients = {
    { name = "c1", start = 0,      work = "1s" },
    { name = "c2", start = "9.5s", work = "5s" },
  },
  faults = {
    { at = "5ms", gc_pause = "c1", duration = "12s" },
    { at = "6s", clock_jump = "c1", by = "-12s" },
  },
  duration = "30s", seed = 1,
  expect = { mutual_exclusion = "holds" },
}
