-- matrix: ZooKeeper (Curator InterProcessMutex) under "partition" (locklab matrix; the table is ../table.lua).
return {
  name = "ZooKeeper (Curator InterProcessMutex): the holder is partitioned",
  about = [[
At 1 s a partition cuts A off from the ZooKeeper server for 40 s (B still reaches it) while A
works on a 45 s job. A's session is kept alive by the client's pings (ClientCnxn) as a
watchdog keeps a lease alive, so A gets the watchdog rows' long job, not a job shorter than
the session. The pings cannot arrive: the server expires A's session about 10 s after the last
one (at its next tick), deletes A's node, B's watch fires and B takes the lock while A works
on. InterProcessMutex does not listen to the connection; Curator leaves that to its user:
"If a SUSPENDED state is reported you cannot be certain that you still hold the lock unless
you subsequently receive a RECONNECTED state" (Curator, "Shared Reentrant Lock", "Error
Handling").
A's last write, at 45 s, reaches the resource after B's.

The design: Apache Curator's InterProcessMutex over ZooKeeper 3.8 (lua/clients/curator-mutex.lua):
an ephemeral sequential node under the lock path, the lowest number holds the lock, a waiter
watches the node just before its own (ZooKeeper's recipe "Locks", zookeeper.apache.org/doc/
r3.8.0/recipes.html; curator.apache.org, "Shared Reentrant Lock"). The session (10 s, kept
alive by the client's pings every third of it) is the lock's lease: its ephemeral node goes
when the server expires it.]],
  server = "zookeeper",
  protocol = "curator-mutex",
  lease = "10s", wait = "90s",     -- lease: the session timeout the client asks for
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0, work = "45s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "1s", partition = { { "A" }, { "n1", "B" } }, duration = "40s" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "violated", resource_safety = "violated", release_safety = "holds", no_deadlock = "holds" },
}
