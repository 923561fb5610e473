-- redlock-rb-minority-partition: two of five masters unreachable; redis-rb's 5 s timeout eats the TTL.
return {
  name = "redlock-rb: two of five masters cut off, and a 5 s timeout per node",
  about = [[
The documentation asks for a per-instance timeout "small compared to the total lock
auto-release time": "if the auto-release time is 10 seconds, the timeout could be in the ~
5-50 milliseconds range", so that a node that is down costs little
(redlock-minority-partition holds with 50 ms).

antirez's redlock-rb, the reference implementation the documentation linked (redlock.rb at
2af803d83073), builds its clients with Redis.new(:url => url) (line 17) and so keeps redis-rb's
default timeout of 5 s (lib/redis/client.rb line 14, redis-rb 3.0.x); a read that times out
is not retried. Five masters A-E; D and E are partitioned away from the clients. Every
attempt of client 1 gets A, B and C, then waits 5 s for D and 5 s for E: 10 s elapsed, and
the validity 10000 - 10010 - 102 is negative (lines 66-68). It unlocks all five (another 10 s
waiting for D and E), sleeps 0-199 ms, and after three attempts, about a minute, gives up
(line 82). Client 2 fares the same. For all that time nobody holds the lock while a client
keeps trying: no_deadlock is violated (the bound is twice the TTL).

The documentation's algorithm, and the redlock gem with its 0.1 s timeout, hold on the same
faults (locklab compare redlock-rb-minority-partition --options preset=redis-docs --options
preset=redlock-rb).]],
  protocol = "redlock",
  mode = "redlock",
  nodes = { "A", "B", "C", "D", "E" },
  lease = "10s", wait = "30s",
  network = { delay = { "1ms", "5ms" } },
  options = { preset = "redlock-rb" },
  clients = {
    { name = "c1", start = 0,      work = "1s" },
    { name = "c2", start = "10ms", work = "1s" },
  },
  faults = {
    { at = 0, partition = { { "D", "E" }, { "A", "B", "C", "c1", "c2" } }, duration = "90s" },
  },
  duration = "90s", seed = 1,
  expect = { no_deadlock = "violated" },
}
