-- etcd-server-crash-restart: the etcd server crashes and restarts; nothing held is lost.
return {
  name = "etcd's Mutex: the server crashes and restarts with its data",
  about = [[
etcd writes every change to its write-ahead log and fsyncs it before the change commits
(etcd v3.4 FAQ, https://etcd.io/docs/v3.4/faq/: a leader waiting on a slow fsync "can't
commit any new proposals; it's waiting on the slow disk"), so a restarted member has every
key it acknowledged: persistence = "always". Its leases come back too, and a member that leads
again refreshes every one of them to its TTL plus the election timeout (lease/lessor.go
Promote, called by etcdserver/server.go with electionTimeout()), so a crash does not make
leases expire under their holders.

A holds the lock (lease 10 s) and works for 15 s; B waits, watching A's key. n1 crashes at
2 s and restarts at 7 s, its leases promoted to expire at 18 s. Meanwhile keep-alives go
unanswered and the clients send one every 500 ms (clientv3/lease.go); A's session had its last
answer at about 0 s and would give up at 10 s, but the keep-alive it sends at 7 s is answered
(TTL 10). B's watch went with the crashed process: B makes it again from the same revision
once the server answers, and when A deletes its key at 15 s, B holds the lock. Mutual
exclusion holds, and nothing deadlocks.]],
  protocol = "etcd-mutex",
  server = "etcd",
  nodes = 1,
  persistence = "always",
  lease = "10s", wait = "40s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,       work = "15s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "2s", crash = "n1" },
    { at = "7s", restart = "n1" },
  },
  duration = "60s", seed = 1,
  expect = { mutual_exclusion = "holds", no_deadlock = "holds" },
}
