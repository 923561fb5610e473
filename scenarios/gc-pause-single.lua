-- gc-pause-single: Kleppmann's GC pause against a single-instance lock.
return {
  name = "GC pause outlives the lease (single instance)",
  about = [[
Martin Kleppmann, "How to do distributed locking" (2016): client A
acquires the lock with a 10 s lease and enters its critical section; a stop-the-world GC pause
freezes it for 12 s. The lease runs out on the server meanwhile, B acquires the lock and writes
to the storage. When A wakes up it does not know its lease is gone and writes too. No lock
protocol alone can prevent this: the resource itself must reject A's late write (fencing
tokens, see gc-pause-fencing).]],
  protocol = "distlock",
  nodes = 1,
  lease = "10s", wait = "30s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,       work = "15s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "1s", gc_pause = "A", duration = "12s" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated" },
}
