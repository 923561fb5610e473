-- mysql-getlock-host-crash: a holder whose host vanishes keeps its GET_LOCK until the server notices.
return {
  name = "MySQL GET_LOCK: the holder's host vanishes, and its lock outlives it",
  about = [[
As mysql-getlock-holder-crash, but it is A's host that dies (a power loss, a kernel panic, a
VM killed), not only its process: nothing sends a FIN or a reset, so the server's end of A's
connection stays open, and so do A's session and its lock ("released ... implicitly when your
session terminates": MySQL 8.0 Reference Manual, "Locking Functions"). The server learns of a
vanished peer only from TCP keepalive, which mysqld turns on for client connections: with
Linux's defaults the first probe goes after tcp_keepalive_time = 7200 s and the connection is
dropped after tcp_keepalive_probes = 9 unanswered probes tcp_keepalive_intvl = 75 s apart,
about 2 h 11 min (network.keepalive, 7875 s by default), unless wait_timeout (28800 s) ends
the idle session first. B, polling for 90 s, gives up long before: a deadlock for everyone
who wants the lock in the next two hours. (MariaDB's tcp_keepalive_time and a server's sysctl
shorten it: network.keepalive = "30s" frees the lock at 31 s.) The fault is `crash = "A", host
= true`; without `host` it is the process crash, and the lock frees at once
(mysql-getlock-holder-crash).]],
  protocol = "mysql-getlock",
  server = "mysql",
  nodes = 1,
  lease = false, wait = "90s",
  network = { delay = {"1ms", "5ms"} },
  clients = {
    { name = "A", start = 0,       work = "2s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "1s", crash = "A", host = true },
  },
  duration = "120s", seed = 1,
  expect = { mutual_exclusion = "holds", no_deadlock = "violated" },
}
