-- redlock-gc-pause: Kleppmann's process pause, against Redlock.
return {
  name = "Redlock: the holder pauses longer than its validity",
  about = [[
Martin Kleppmann, "How to do distributed locking" (2016): a client
acquires the lock, then a stop-the-world GC pause freezes it for longer than the lock's
validity; the keys expire, another client acquires the lock and writes to the storage, and
when the first client wakes up it still believes it holds the lock and writes too. Redlock's
majority and validity arithmetic cannot help: the pause happens after the check, and Redlock
gives the storage no fencing token to reject the late write with. (antirez's reply, "Is
Redlock safe?" (2016), answers that every lock with automatic release shares this problem.)

go-redsync 4.17.0's defaults (mutex.go, redsync.go: 8 s expiry, drift 1 % with no
constant, 32 tries 50-249 ms apart, each try sent to all masters at once under a deadline of
5 % of the expiry), five masters A-E. Client 1 acquires with a validity
of about 7.9 s and starts 3 s of work; at 1 s a 10 s GC pause freezes it. Client 2 arrives at
7.5 s, is refused while the keys live, and gets all five when they expire at about 8 s. Client
1 resumes at 11 s, inside its critical section, while client 2 is still working: mutual
exclusion and the resource are both violated.]],
  protocol = "redlock",
  mode = "redlock",
  nodes = { "A", "B", "C", "D", "E" },
  lease = "8s", wait = "30s",
  network = { delay = { "1ms", "5ms" } },
  options = { preset = "go-redsync" },
  clients = {
    { name = "c1", start = 0,      work = "3s" },
    { name = "c2", start = "7.5s", work = "5s" },
  },
  faults = {
    { at = "1s", gc_pause = "c1", duration = "10s" },
  },
  duration = "30s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated" },
}
