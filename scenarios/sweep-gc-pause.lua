-- sweep-gc-pause: a GC pause right after acquiring, for `locklab sweep --vary gc_pause=...`.
return {
  name = "GC pause right after acquiring (single instance), for sweeps",
  about = [[
gc-pause-single arranged for a sweep of the pause length (locklab sweep sweep-gc-pause
--vary gc_pause=0:20s:1s). Client A acquires the lock with a 10 s lease and needs only 1 s
inside its critical section, but a GC pause freezes it 20 ms after it entered. While the pause
is shorter than what remains of the lease, A wakes up, finishes and releases, and B (polling
every 50-200 ms since 100 ms) gets the lock afterwards: mutual exclusion holds. Once the pause
outlasts the lease, the key expires under the sleeping A, B acquires and enters, and A wakes
up inside its critical section and writes: mutual exclusion and resource safety are violated.
The violation rate steps from 0 to 1 at the lease; near it, B's random retry delay decides.
As written (a 12 s pause) the run is a violation.]],
  protocol = "distlock",
  nodes = 1,
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,       work = "1s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "20ms", gc_pause = "A", duration = "12s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated" },
}
