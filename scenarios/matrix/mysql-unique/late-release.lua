-- matrix: MySQL unique index (INSERT / DELETE) under "late-release" (locklab matrix; the table is ../table.lua).
return {
  name = "MySQL unique index (INSERT / DELETE): the holder's release is delayed past the lease",
  about = [[
From 4.9 s, 100 ms before A's work ends, a cut between A and the server holds A's messages for
7.1 s. Over TCP (network.partitions = "tcp") A's release, sent at 5 s, is retransmitted with
Linux's backoff (200 ms doubling) and lands at 17.6 s, 12.6 s after it was sent, past the 10 s
lease; A's client gave up waiting long before. No lease: the lock stays until A's delete lands
at 17.6 s, and B gets it then: late, not unsafe.

The design: the comparison table's MySQL lock (lua/clients/mysql-unique.lua): a table whose
primary key (a unique index) is the lock's name; an INSERT takes the lock, the duplicate-key
error 1062 means it is taken (retry later), a DELETE of the caller's own row releases it. The
row has no expiry: the design has no lease.]],
  protocol = "mysql-unique",
  server = "mysql",
  nodes = 1,
  lease = false, wait = "90s",     -- no lease: the design has none
  network = { delay = {"1ms", "5ms"}, partitions = "tcp" },
  clients = {
    { name = "A", start = 0, work = "5s" },
    { name = "B", start = "100ms", work = "8s" },
  },
  faults = {
    { at = "4900ms", partition = { { "A" }, { "n1", "B" } }, duration = "7100ms" },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", resource_safety = "holds", release_safety = "holds", no_deadlock = "holds" },
}
