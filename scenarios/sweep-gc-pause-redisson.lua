-- sweep-gc-pause-redisson: sweep-gc-pause with Redisson's reentrant lock, for `locklab sweep`.
return {
  name = "GC pause right after acquiring (Redisson, lease 10 s), for sweeps",
  about = [[
sweep-gc-pause with Redisson's RedissonLock and an explicit 10 s lease (so no watchdog renews
it): locklab sweep sweep-gc-pause-redisson --vary gc_pause=0:20s:500ms. A takes the lock and
is frozen by a GC pause 20 ms later. A waiting Redisson client does not poll at random: it
waits on the lock's channel for the PTTL the script returned, so it tries again exactly when
the lease ends. The violation rate therefore steps from 0 to 1 sharply at the lease (10 s),
where the distlock version's random retries blur it. As written (a 12 s pause) the run is a
violation.]],
  protocol = "redisson",
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
