-- watchdog-gc-pause: the watchdog lives in the paused process, so it pauses too.
return {
  name = "a GC pause longer than the watchdog timeout",
  about = [[
The watchdog is a timer inside the holder's own process (a Netty timer task in Redisson), so a
stop-the-world pause stops it too. A takes the lock without a lease (30 s, renewed every 10 s)
and works for 45 s; at 5 s a 40 s GC pause freezes it, before the first renewal. The lock
expires at 30 s, B (which has been waiting for min(ttl, time left)) re-tries and takes it.
When A wakes at 45 s its overdue renewal finds the lock gone (B took it and has released it
since; the renewal script returns 0: "not mine") and the watchdog stops, but nothing tells A's
workload, which is inside its critical section already: it writes, and its unlock throws
IllegalMonitorStateException. Redisson's
author on #2665: "If for some reason JVM got freezed for the time interval more than
lockWatchdogTimeout lock will be released." Mutual exclusion is violated.]],
  protocol = "redisson",
  nodes = 1,
  lease = false, wait = "60s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,       work = "45s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "5s", gc_pause = "A", duration = "40s" },
  },
  duration = "90s", seed = 1,
  expect = { mutual_exclusion = "violated", no_deadlock = "holds" },
}
