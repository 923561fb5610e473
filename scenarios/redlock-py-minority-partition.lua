-- redlock-py-minority-partition: two of five masters unreachable; redlock-py waits for them forever.
return {
  name = "redlock-py: two of five masters cut off, and no socket timeout",
  about = [[
The fault Redlock is designed to tolerate ("Distributed Locks with Redis": "As long as the
majority of Redis nodes are up, clients are able to acquire and release locks"), which the
documentation's algorithm survives with its small per-instance timeout
(redlock-minority-partition: the SETs to the cut-off nodes time out after 50 ms).

redlock-py 1.0.8 (SPSCommerce, redlock/__init__.py) asks the servers one after another
(lines 102-107) through the redis-py clients it builds from the connection list (lines
54-57); unless that list sets a socket_timeout, redis-py's default is none, and it waits for a
reply as long as it takes. Five masters A-E; D and E are
partitioned away from every client for the whole run. Client 1 sets the key on A, B and C,
then waits for D, which never answers; clients 2 and 3 are refused by A, B and C and wait for
D too. Nobody holds the lock and all three wait, for the rest of the run: no_deadlock is
violated (the bound is twice the 10 s TTL), where the documentation's algorithm holds
(locklab compare redlock-py-minority-partition --options preset=redis-docs --options
preset=redlock-py). With a socket_timeout (options.node_timeout = 50) redlock-py holds too.]],
  protocol = "redlock",
  mode = "redlock",
  nodes = { "A", "B", "C", "D", "E" },
  lease = "10s", wait = "30s",
  network = { delay = { "1ms", "5ms" } },
  options = { preset = "redlock-py" },
  clients = {
    { name = "c1", start = 0,      work = "1s", rounds = 3 },
    { name = "c2", start = "10ms", work = "1s", rounds = 3 },
    { name = "c3", start = "20ms", work = "1s", rounds = 3 },
  },
  faults = {
    { at = 0, partition = { { "D", "E" }, { "A", "B", "C", "c1", "c2", "c3" } }, duration = "60s" },
  },
  duration = "60s", seed = 1,
  expect = { no_deadlock = "violated" },
}
