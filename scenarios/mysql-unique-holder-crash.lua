-- mysql-unique-holder-crash: the unique-index lock has no expiry.
return {
  name = "MySQL unique-index lock: a crashed holder locks everyone out",
  about = [[
The comparison table's MySQL lock (lua/clients/mysql-unique.lua): a row whose primary key is
the lock's name, INSERT to acquire (ERROR 1062 "Duplicate entry" when it is taken), DELETE to
release. The table's own verdict: "no automatic expiry, so a crashed holder deadlocks". A
takes the lock and crashes 1 s later, before its DELETE; the row stays (a row is data, not part of A's session; the duplicate is error 1062, ER_DUP_ENTRY,
dev.mysql.com/doc/mysql-errors/8.0/en/server-error-reference.html). B retries for 90 s and never
gets the lock: nothing but an operator's DELETE would free it. Compare
mysql-getlock-holder-crash, where the lock belongs to the connection.]],
  protocol = "mysql-unique",
  server = "mysql",
  nodes = 1,
  lease = false, wait = "90s",
  clients = {
    { name = "A", start = 0,       work = "2s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "1s", crash = "A" },
  },
  duration = "120s", seed = 1,
  expect = { no_deadlock = "violated", mutual_exclusion = "holds" },
}
