-- setnx-expire-crash: the lock that is never released.
return {
  name = "SETNX then EXPIRE: a crash in between locks everyone out",
  about = [[
The naive lock "SETNX, then EXPIRE" is two commands, so it is not atomic. Client A's SETNX
succeeds; A crashes before its EXPIRE is sent (here: while the SETNX reply is still on its way
back). The key stays with no TTL, and B waits for its whole budget in vain: the lock can never
be obtained again. SET key value NX PX ttl does both in one atomic command (the Redis SET
command documentation, redis.io/docs/latest/commands/set/: NX and PX since 2.6.12).]],
  protocol = "setnx-expire",
  nodes = 1,
  lease = "10s", wait = "30s",
  network = { delay = "5ms" },      -- constant, so the crash lands between the two commands
  clients = {
    { name = "A", start = 0,       work = "1s" },
    { name = "B", start = "100ms", work = "1s" },
  },
  faults = {
    { at = "7ms", crash = "A" },    -- SETNX ran at 5 ms; its reply would arrive at 10 ms
  },
  duration = "60s", seed = 1,
  expect = { no_deadlock = "violated", mutual_exclusion = "holds" },
}
