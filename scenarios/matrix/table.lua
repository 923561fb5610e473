-- table.lua — the table `locklab matrix` runs: lock designs (rows) under standard situations
-- (columns). Each cell is the scenario <row id>/<column id>.lua beside this file, an ordinary
-- scenario that `locklab run` replays and whose `expect` pins what the cell shows.
--
-- A new design is a new row: a folder of one scenario per column, named after it (copy a row's
-- folder and change its protocol and settings), and an entry in `rows` below with what its
-- source claims. A column that cannot apply to a design goes in the row's not_applicable with
-- the reason. No C, no rebuild.
--
-- claims: what the row's source says, as verdicts: `all` for every column, a column's own
-- table over it, "unsaid" to take an `all` claim back for one column. The matrix marks a cell
-- "=" where the run agrees with a claim, "!" where it contradicts it, and "?" where the run
-- shows a violation the source does not warn of. notes say, for those cells, what happens and
-- who has written about it.
--
-- "The comparison table" is the Chinese comparison of distributed-lock designs (分布式锁对比:
-- MySQL unique index, MongoDB findAndModify, ZooKeeper/Curator, Redis SETNX + EXPIRE, Redis SET
-- NX EX + a Lua compare-and-delete) that is copied from blog to blog with readings of
-- Redisson's source; its words are translated below. Its list of what a lock needs: mutual
-- exclusion; no deadlock even if a holder crashes without unlocking; only the client that
-- locked may unlock; fault tolerance.
return {
  title = "Lock designs under the standard faults",
  about = [[
Every design runs the same workload: A takes the lock and works, B (and, when a waiter gives
up, C) wants it too. Lease designs get a 10 s lease and 5 s of work (ZooKeeper's and etcd's lease is
their 10 s session); watchdog designs (Redisson lock() without a lease) renew a 30 s lease
every 10 s and their job is long (45 s), as a watchdog is meant for, and so do ZooKeeper and
etcd when their holder is cut off or its renewals are lost, since their clients' pings and
keep-alives renew the session as a watchdog renews a lease; designs without expiry
(MySQL, MongoDB without a TTL index) have no lease, and B waits for them up to 90 s. Each column adds one thing
that goes wrong; a replicated server is the one its design is deployed on (Redis, MySQL and
MongoDB with an asynchronous replica, ZooKeeper and etcd as a three-member quorum).

"The comparison table", which the rows' claims cite, is the Chinese comparison of lock designs
("分布式锁对比": a MySQL unique index, MongoDB findAndModify, ZooKeeper with Curator, Redis
SETNX + EXPIRE, Redis SET NX EX with a Lua compare-and-delete) copied from blog to blog with
readings of Redisson's source; its words are translated in scenarios/matrix/table.lua.]],
  properties = { "mutual_exclusion", "resource_safety", "release_safety", "no_deadlock", "reentrancy" },
  columns = {
    { id = "reenter", title = "no fault; the holder takes the lock again", short = "re-enter",
      exercised = { "reentry" } },
    { id = "holder-crash", title = "the holder crashes", short = "crash",
      exercised = { "holder_crashed" } },
    { id = "gc-pause", title = "the holder's GC pause outlives the lease", short = "GC pause",
      exercised = { "lock_lost" } },
    { id = "partition", title = "the holder is cut off from the servers", short = "cut off",
      exercised = { "lock_lost", "message_cut" } },
    { id = "server-restart", title = "a server (a leader) crashes and restarts", short = "restart",
      exercised = { "server_hit" } },
    { id = "failover", title = "the master or leader dies before a replica has the lock", short = "failover",
      exercised = { "server_hit" } },
    { id = "clock-jump", title = "a server's clock jumps forward", short = "clock",
      exercised = { "lock_lost" } },
    { id = "waiter-gives-up", title = "a waiter gives up", short = "give up",
      exercised = { "waiter_gave_up" } },
    { id = "renewal-lost", title = "the holder's lease renewals are lost while it works", short = "renewal",
      exercised = { "lock_lost", "message_cut" } },
    { id = "leader-cut", title = "the leader is cut off in a minority with the waiter", short = "minority",
      exercised = { "message_cut", "lock_lost" } },
    { id = "client-clock", title = "the holder's clock jumps (forward while it works; back before it locks where the design reads it then)", short = "A-clock",
      exercised = { "lock_lost" } },
    { id = "late-release", title = "the holder's release (or last renewal) lands after its lease", short = "delayed",
      exercised = { "late_message" } },
    { id = "host-crash", title = "the holder's host crashes (no FIN, no RST)", short = "host gone",
      exercised = { "holder_crashed" } },
  },
  rows = {
    {
      id = "setnx-expire", title = "Redis SETNX + EXPIRE",
      untouched = {   -- the column's fault cannot reach this lock: the source's reason
        ["client-clock"] = "The lease is Redis's: the key's time to live counts on the server's clock (SET ... PX, EXPIRE), and A's own clock is read nowhere once the lock is taken (\"Distributed Locks with Redis\").",
      },
      source = "the comparison table",
      says = [[Lock: SETNX, and if it succeeds, EXPIRE to set a timeout; unlock: DEL. Simple, the
lightest and fastest. But: SETNX and EXPIRE are two steps, not atomic: if SETNX succeeds and
EXPIRE fails, a deadlock can follow; DEL may delete a lock the current thread does not hold; no
blocking wait, not re-entrant.]],
      claims = {
        reenter = { reentrancy = "violated" },
        ["holder-crash"] = { no_deadlock = "violated" },
        ["gc-pause"] = { release_safety = "violated" },
        ["late-release"] = { release_safety = "violated" },   -- "DEL may delete a lock the current thread does not hold"
        ["host-crash"] = { no_deadlock = "violated" },
      },
      notes = {
        ["gc-pause"] = "Two clients hold the lock, not only a wrong DEL: A works on after its lease (Kleppmann 2016, \"How to do distributed locking\").",
        ["server-restart"] = "A restarted Redis without persistence forgets the lock (\"Distributed Locks with Redis\", \"Performance, crash recovery and fsync\").",
        failover = "The replica is promoted without the lock (\"Distributed Locks with Redis\", \"Why Failover-based Implementations Are Not Enough\").",
        ["clock-jump"] = "Redis expires keys by its own clock; a jump forward frees the lock early (Kleppmann 2016).",
        ["late-release"] = "The late DEL deletes B's key while B works, as the table warns; a third client could then take the lock beside B.",
        ["host-crash"] = "A's host vanishes between SETNX and EXPIRE: the key has no expiry, as after a process crash.",
      },
      not_applicable = {
        ["renewal-lost"] = "No renewal: the lease is set once when the lock is taken, and A sends nothing while it works (a lease the work outlasts is the GC-pause column's lesson).",
        ["leader-cut"] = "One Redis server and no leader: the server on the waiter's side and the holder alone is the \"cut off\" column. Redis with replicas fails over by its Sentinels' vote, which is not modelled here.",
      },
    },
    {
      id = "set-nx-del", title = "SET NX PX + DEL",
      untouched = {   -- the column's fault cannot reach this lock: the source's reason
        ["client-clock"] = "The lease is Redis's: the key's time to live counts on the server's clock (SET ... PX, EXPIRE), and A's own clock is read nowhere once the lock is taken (\"Distributed Locks with Redis\").",
      },
      source = "the Redis documentation",
      says = [["Distributed Locks with Redis": SET resource value NX PX ttl takes the lock atomically,
but "Using just DEL is not safe as a client may remove another client's lock".]],
      claims = {
        ["gc-pause"] = { release_safety = "violated" },
        ["server-restart"] = { release_safety = "unsaid" },
        ["late-release"] = { release_safety = "violated" },
      },
      notes = {
        ["gc-pause"] = "The page's next point: the lease must outlast the work, or two clients hold the lock (Kleppmann 2016 adds: a pause can always outlast it).",
        ["server-restart"] = "\"Performance, crash recovery and fsync\": without persistence a restart forgets the lock.",
        failover = "\"Why Failover-based Implementations Are Not Enough\": the replica is promoted without the lock.",
        ["clock-jump"] = "Redis expires keys by its own clock; a jump forward frees the lock early (Kleppmann 2016).",
        ["late-release"] = "\"Using just DEL is not safe as a client may remove another client's lock\": A's DEL, delayed in the network past its lease, deletes B's key while B works.",
      },
      not_applicable = {
        ["renewal-lost"] = "No renewal: the lease is set once when the lock is taken, and A sends nothing while it works (a lease the work outlasts is the GC-pause column's lesson).",
        ["leader-cut"] = "One Redis server and no leader: the server on the waiter's side and the holder alone is the \"cut off\" column. Redis with replicas fails over by its Sentinels' vote, which is not modelled here.",
      },
    },
    {
      id = "distlock", title = "SET NX PX + compare-and-delete",
      untouched = {   -- the column's fault cannot reach this lock: the source's reason
        ["client-clock"] = "The lease is Redis's: the key's time to live counts on the server's clock (SET ... PX, EXPIRE), and A's own clock is read nowhere once the lock is taken (\"Distributed Locks with Redis\").",
      },
      source = "the comparison table",
      says = [[Lock: SET lock_name random_value EX seconds NX; unlock: a Lua script that deletes the key
only if it still holds random_value. Logically more rigorous; apart from the single-point
problem, using it in production is no big problem. Not re-entrant, no blocking wait. The same
article warns, a few lines on: set the timeout too short and the lock releases itself while A's
business still runs, another thread locks it for B, and a uuid per thread checked on release
"cannot completely avoid" this.]],
      claims = {
        all = { mutual_exclusion = "holds", release_safety = "holds", no_deadlock = "holds" },
        reenter = { reentrancy = "violated" },
        ["gc-pause"] = { mutual_exclusion = "violated" },
        ["server-restart"] = { mutual_exclusion = "unsaid" },
        failover = { mutual_exclusion = "unsaid" },
        ["clock-jump"] = { mutual_exclusion = "unsaid" },
      },
      notes = {
        ["gc-pause"] = "As the article warns of a lease that runs out before the business is done: a GC pause longer than the lease gives the lock to two clients, and the resource takes the paused one's late write (Kleppmann 2016, \"How to do distributed locking\"). Only a fencing token stops it.",
        ["clock-jump"] = "The article says nothing of clocks: the lease is counted on the server's clock, and a jump forward frees the lock while A works (Kleppmann 2016).",
        ["server-restart"] = "\"The single-point problem\" is more than downtime: a restart without persistence forgets the lock (\"Distributed Locks with Redis\", \"Performance, crash recovery and fsync\").",
        failover = "A replica does not fix the single point: it is promoted without the lock (\"Distributed Locks with Redis\", \"Why Failover-based Implementations Are Not Enough\").",
        ["late-release"] = "The case compare-and-delete is for: A's release, delayed past its lease, finds B's value and deletes nothing.",
      },
      not_applicable = {
        ["renewal-lost"] = "No renewal: the lease is set once when the lock is taken, and A sends nothing while it works (a lease the work outlasts is the GC-pause column's lesson).",
        ["leader-cut"] = "One Redis server and no leader: the server on the waiter's side and the holder alone is the \"cut off\" column. Redis with replicas fails over by its Sentinels' vote, which is not modelled here.",
      },
    },
    {
      id = "redisson", title = "Redisson lock() (watchdog)",
      untouched = {   -- the column's fault cannot reach this lock: the source's reason
        ["client-clock"] = "The watchdog's timer counts System.nanoTime() (Netty's HashedWheelTimer), a monotonic clock: a wall-clock jump moves no renewal.",
      },
      source = "the Redisson documentation",
      says = [[RLock is re-entrant. "If Redisson instance which acquired lock crashes then such lock
could hang forever in acquired state. To avoid this Redisson maintains lock watchdog, it
prolongs lock expiration while lock holder Redisson instance is alive" (lockWatchdogTimeout,
30 s). The comparison table's readings of RedissonLock repeat it: the watchdog keeps the lock
from expiring before the business logic is done.]],
      claims = {
        all = { mutual_exclusion = "holds", release_safety = "holds", no_deadlock = "holds" },
        reenter = { reentrancy = "holds" },
        ["server-restart"] = { mutual_exclusion = "unsaid" },
        failover = { mutual_exclusion = "unsaid" },
        ["clock-jump"] = { mutual_exclusion = "unsaid" },
      },
      notes = {
        ["gc-pause"] = "Wrong: the watchdog is a thread of the paused process; it stops with it, the lease runs out, and B takes the lock while A believes it holds it (Kleppmann 2016).",
        partition = "Wrong: \"alive\" is not \"reachable\": the renewals cannot arrive, the lease lapses and A works on without the lock (Redisson issue #3636).",
        ["server-restart"] = "The lock lives in one Redis; a restart without persistence forgets it (\"Distributed Locks with Redis\").",
        failover = "Redisson sends each lock script with WAIT for the replicas (3.12.5+) and answers only once WAIT has (3.14.1+, #3253); since 3.17.5 it fails when none acknowledged, and since 3.20 unlocks and tries again (RedissonBaseLock, syncedEval/handleNoSync): A never holds a lock the replica lacks. It still fails when the master and the acknowledging replica die together (scenarios/failover-redisson-one-of-two.lua); 3.14.0 and older lose it (scenarios/failover-redisson-wait.lua).",
        ["clock-jump"] = "Redis expires keys by its own clock (Kleppmann 2016).",
        ["renewal-lost"] = "Wrong: the process is alive and working, but its renewals do not arrive; the lease lapses and B takes the lock while A works on (Redisson issue #3636).",
        ["client-clock"] = "The watchdog's timer counts System.nanoTime() (Netty's HashedWheelTimer), a monotonic clock: a wall-clock jump moves no renewal.",
      },
      not_applicable = {
        ["leader-cut"] = "One Redis server and no leader: the server on the waiter's side and the holder alone is the \"cut off\" column. Redis with replicas fails over by its Sentinels' vote, which is not modelled here.",
      },
    },
    {
      id = "redisson-fenced", title = "Redisson fenced lock",
      untouched = {   -- the column's fault cannot reach this lock: the source's reason
        ["client-clock"] = "The watchdog's timer counts System.nanoTime() (Netty's HashedWheelTimer), a monotonic clock: a wall-clock jump moves no renewal.",
      },
      source = "Kleppmann 2016",
      says = [[Martin Kleppmann, "How to do distributed locking": every time the lock server grants
the lock it returns a fencing token, a number that increases; the storage server rejects a
write with a token older than one it has already processed, so a client that lost its lock
without knowing cannot do harm. RedissonFencedLock (3.19.0+, #4684) keeps the counter in Redis.]],
      claims = {   -- the lock may be lost (a pause, a delay, a clock); the token keeps the resource safe
        ["gc-pause"] = { mutual_exclusion = "violated", resource_safety = "holds" },
        partition = { mutual_exclusion = "violated", resource_safety = "holds" },
        ["clock-jump"] = { mutual_exclusion = "violated", resource_safety = "holds" },
        ["renewal-lost"] = { mutual_exclusion = "violated", resource_safety = "holds" },
      },
      notes = {
        ["server-restart"] = "The token counter lives in the same Redis: a restart without persistence resets it, the new holder's token is no higher, and the resource cannot tell the clients apart. Kleppmann's tokens come from a consensus service that never goes back.",
        failover = "The lock script and the counter's INCR go with WAIT, awaited (Redisson 3.14.1+; the fenced lock is 3.19.0+): neither is granted before the replica has it, so the promoted replica hands out no used token.",
        ["renewal-lost"] = "The lease lapses while A works, and B's higher token makes the resource refuse A's late writes.",
      },
      not_applicable = {
        ["leader-cut"] = "One Redis server and no leader: the server on the waiter's side and the holder alone is the \"cut off\" column. Redis with replicas fails over by its Sentinels' vote, which is not modelled here.",
      },
    },
    {
      id = "redlock", title = "Redlock (5 masters)",
      untouched = {   -- the column's fault cannot reach this lock: the source's reason
        ["client-clock"] = "Redlock reads the client's clock only while acquiring (the validity, \"Distributed Locks with Redis\"); once A holds the lock, the masters' own clocks count the TTL.",
      },
      source = "the Redis documentation",
      says = [["Distributed Locks with Redis", "The Redlock Algorithm": a lock taken on a majority of N
independent masters within its validity time; "as long as the majority of Redis nodes are up,
clients are able to acquire and release locks". Safety rests on bounded clock drift and on
the client finishing within the validity: the mutual exclusion rule "is guaranteed only as long
as the client holding the lock terminates its work within the lock validity time" ("Is the
Algorithm Asynchronous?").]],
      claims = {
        all = { mutual_exclusion = "holds", no_deadlock = "holds" },
        ["gc-pause"] = { mutual_exclusion = "violated" },
        ["leader-cut"] = { no_deadlock = "violated" },   -- "we pay an availability penalty equal to TTL time on network partitions"
      },
      notes = {
        ["gc-pause"] = "Kleppmann 2016: the pause outlives the validity and Redlock has no fencing token. antirez (\"Is Redlock safe?\", 2016) answers that the client checks the validity after acquiring, and that a pause after that check defeats any lock without tokens.",
        ["clock-jump"] = "One node's jump is outvoted here; with a partition that lets each client reach a different majority, the jump of the one node both majorities share is not (Kleppmann's example): scenarios/redlock-clock-jump.lua.",
        ["server-restart"] = "One restart of five is outvoted here; with a partition that lets each client reach a different majority, the restart without fsync of the one node both share is not (the documentation's own example): scenarios/redlock-crash-restart-nofsync.lua.",
        ["leader-cut"] = "No leader to lose: B, with two of five masters, can never lock while the cut lasts; \"Distributed Locks with Redis\" warns of it: \"we pay an availability penalty equal to TTL time on network partitions, so if there are continuous partitions, we can pay this penalty indefinitely\".",
        ["client-clock"] = "Redlock reads the client's clock only while acquiring (the validity); after that the masters' own clocks count the TTL.",
      },
      not_applicable = {
        ["renewal-lost"] = "No renewal: the lease is set once when the lock is taken, and A sends nothing while it works (a lease the work outlasts is the GC-pause column's lesson).",
      },
    },
    {
      id = "redisson-redlock", title = "Redisson RedLock (5 masters)",
      untouched = {   -- the column's fault cannot reach this lock: the source's reason
        ["client-clock"] = "The multi-lock reads the clock only while acquiring, and the watchdog's timer counts System.nanoTime() (Netty's HashedWheelTimer): a jump while A works moves nothing.",
      },
      notes = {
        ["gc-pause"] = "Each sub-lock's watchdog stops with the paused client (Kleppmann 2016).",
        partition = "The renewals of all five watchdogs cannot arrive (Redisson issue #3636).",
        ["renewal-lost"] = "The renewals of all five watchdogs are lost while the process works on (Redisson issue #3636).",
      },
    },
    {
      id = "mysql-unique", title = "MySQL unique index (INSERT / DELETE)",
      untouched = {   -- the column's fault cannot reach this lock: the source's reason
        ["gc-pause"] = "No lease: the row is the lock until its owner deletes it (the comparison table: no expiry), and a paused process keeps it.",
        ["clock-jump"] = "No expiry: nothing of the lock reads a clock, the server's or anyone's.",
        ["client-clock"] = "No expiry: nothing of the lock reads a clock, the server's or anyone's.",
        ["late-release"] = "No lease: nothing runs out before A's late DELETE lands, and it finds its own row (WHERE owner = A).",
      },
      source = "the comparison table",
      says = [[A table with a unique index; lock: INSERT, an error means the lock is taken;
unlock: DELETE. Uses what the database already has, simple. But: no automatic expiry, so a
risk of deadlock; not re-entrant, no blocking wait; costly on the database, slow.]],
      claims = {
        reenter = { reentrancy = "violated" },
        ["holder-crash"] = { no_deadlock = "violated" },
        ["host-crash"] = { no_deadlock = "violated" },
      },
      notes = {
        ["holder-crash"] = "Nothing removes a dead holder's row: B waits until an operator deletes it.",
        partition = "TCP retransmits A's DELETE until the 40 s cut heals (Linux: backoff doubling to 120 s, giving up after tcp_retries2 = 15, 924.6 s): it arrives at 56 s and frees the lock late. A cut longer than TCP's patience leaves the row as a crash does, the missing expiry again.",
        failover = "MySQL replicates asynchronously by default, so the promoted replica lacks the row A inserted (MySQL 8.0 Reference Manual, \"Replication\").",
        ["host-crash"] = "As after a process crash: nothing removes a dead holder's row.",
      },
      not_applicable = {
        ["renewal-lost"] = "No renewal: the lock stays until it is deleted, and A sends nothing while it works.",
        ["leader-cut"] = "One MySQL server and no election: an asynchronous replica is promoted from outside (the \"failover\" column); the server on the waiter's side and the holder alone is \"cut off\".",
      },
    },
    {
      id = "mysql-getlock", title = "MySQL GET_LOCK()",
      untouched = {   -- the column's fault cannot reach this lock: the source's reason
        ["gc-pause"] = "No lease: the lock is \"released explicitly by executing RELEASE_LOCK() or implicitly when your session terminates\" (MySQL 8.0, \"Locking Functions\"), and a paused process keeps its connection.",
        ["clock-jump"] = "No expiry: GET_LOCK reads no clock (its timeout is a wait, not a lease).",
        ["client-clock"] = "No expiry: GET_LOCK reads no clock (its timeout is a wait, not a lease).",
        ["late-release"] = "No lease: the session keeps the lock until RELEASE_LOCK lands, and it is A's own.",
      },
      source = "the MySQL manual",
      says = [[MySQL 8.0 Reference Manual, "Locking Functions": GET_LOCK(str, timeout) "tries to obtain
a lock with a name given by the string str"; "a lock obtained with GET_LOCK() is released
explicitly by executing RELEASE_LOCK() or implicitly when your session terminates (either
normally or abnormally)"; "it is possible for a given session to acquire multiple locks for
the same name"; the function "is unsafe for statement-based replication".]],
      claims = {
        reenter = { reentrancy = "holds" },
        ["holder-crash"] = { no_deadlock = "holds" },
      },
      notes = {
        ["holder-crash"] = "A's process dies, its connection closes, and the session's lock goes with it at once.",
        partition = "TCP retransmits A's RELEASE_LOCK until the 40 s cut heals: it arrives at 56 s and frees the lock late. Only a client host that vanishes (no FIN, no reset) keeps the session and its lock, until the server's TCP keepalive (about 2 h 11 min with Linux's defaults) or wait_timeout (8 hours).",
        ["server-restart"] = "The lock lives in the server's memory only: the restarted server holds none, and A learns it only at its next statement.",
        failover = "A user-level lock is not data and is never replicated: the promoted replica has no lock at all.",
        ["host-crash"] = "The session ends when the server notices its connection is dead: TCP keepalive (about 2 h 11 min with Linux's defaults) or wait_timeout (8 hours). Until then the lock is held for no one (scenarios/mysql-getlock-host-crash.lua).",
      },
      not_applicable = {
        ["renewal-lost"] = "No renewal: the lock lasts as long as the session's connection, which nothing refreshes while A works (a connection that dies silently is the host-crash column).",
        ["leader-cut"] = "One MySQL server and no election: an asynchronous replica is promoted from outside (the \"failover\" column); the server on the waiter's side and the holder alone is \"cut off\".",
      },
    },
    {
      id = "mongodb", title = "MongoDB findAndModify",
      untouched = {   -- the column's fault cannot reach this lock: the source's reason
        ["gc-pause"] = "No lease: the document is the lock until its owner deletes it (no TTL index), and a paused process keeps it.",
        ["clock-jump"] = "No expiry: without a TTL index nothing of the lock reads a clock.",
        ["client-clock"] = "No expiry: without a TTL index nothing of the lock reads a clock.",
        ["late-release"] = "No lease: nothing runs out before A's late delete lands, and it finds its own document ({_id, owner: A}).",
      },
      source = "the comparison table",
      says = [[Lock: the atomic findAndModify finds the document and creates it if absent; unlock:
delete the document. Easy, much faster than MySQL's unique index. But: most companies run
MySQL and may lack MongoDB staff; no automatic expiry. (The MongoDB manual, "findAndModify":
it "modifies and returns a single document", inserting one on upsert.)]],
      claims = {
        ["holder-crash"] = { no_deadlock = "violated" },
        ["host-crash"] = { no_deadlock = "violated" },
      },
      notes = {
        ["holder-crash"] = "No expiry: a dead holder's document stays, and B waits until an operator deletes it.",
        partition = "TCP retransmits A's delete until the 40 s cut heals: it arrives at 56 s and frees the lock late. A cut longer than TCP's patience (924.6 s) leaves the document as a crash does.",
        reenter = "findAndModify hands the lock back to its owner without counting, so the inner method's delete frees it while A still works: reentrancy is violated. This is the recipe's choice (lua/clients/mongo-findandmodify.lua takes \"the owner is me\" as success); one that took only \"inserted now\" would refuse the re-entry instead, as the MySQL table does.",
        failover = "Under the default write concern since MongoDB 5.0, w: \"majority\", on a three-member set, A is answered only once a secondary has its document, so the elected secondary has it too. With w: 1 (the default before 5.0) the write is rolled back when a secondary takes over (the MongoDB manual, \"Rollbacks During Replica Set Failover\"): scenarios/mongodb-w1-failover.lua.",
        ["host-crash"] = "As after a process crash: no expiry, the document stays.",
        ["leader-cut"] = "The old primary, cut off with B, cannot have B's write acknowledged by a majority (w: \"majority\"); B waits for the cut to heal, within the 60 s the checker allows a design without expiry.",
      },
      not_applicable = {
        ["renewal-lost"] = "No renewal: the lock stays until it is deleted, and A sends nothing while it works.",
      },
    },
    {
      id = "mongodb-ttl", title = "MongoDB findAndModify + TTL index",
      source = "the MongoDB manual",
      says = [["TTL Indexes": "special single-field indexes that MongoDB can use to automatically
remove documents from a collection after a certain amount of time"; but "the TTL index does
not guarantee that expired data is deleted immediately upon expiration": "the background task
that removes expired documents runs every 60 seconds".]],
      claims = {   -- the manual warns that the lock frees up to a pass late
        ["holder-crash"] = { no_deadlock = "violated" },
        ["host-crash"] = { no_deadlock = "violated" },
      },
      notes = {
        ["holder-crash"] = "Not a lock that never frees: the document goes at the TTL monitor's next pass, here 50 s after its expiry, the \"up to 60 s late\" deletion the manual's \"Timing of the Delete Operation\" documents; for a 10 s lease the checker's bound (twice the lease) counts that as a deadlock.",
        ["gc-pause"] = "The lock's real lease is its expiry plus the wait for the TTL monitor's next pass (0 to 60 s, by when the server started): here a pass falls inside the pause. With none there, the lock would survive the pause by luck.",
        ["clock-jump"] = "The TTL monitor judges expireAt by the server's wall clock, which jumped past it: the first pass while A works deletes its lock (here the monitor's rhythm puts one at 3 s).",
        partition = "TCP retransmits A's delete until the 40 s cut heals: it arrives at 56 s, before the TTL monitor's next pass, 46 s after the document's expiry, which the checker's bound (twice the lease) counts as a deadlock.",
        reenter = "findAndModify hands the lock back to its owner without counting, so the inner method's delete frees it while A still works: reentrancy is violated. This is the recipe's choice (lua/clients/mongo-findandmodify.lua takes \"the owner is me\" as success); one that took only \"inserted now\" would refuse the re-entry instead, as the MySQL table does.",
        failover = "Under the default write concern since MongoDB 5.0, w: \"majority\", on a three-member set, A is answered only once a secondary has its document. With w: 1 it is rolled back when a secondary takes over (the MongoDB manual, \"Rollbacks During Replica Set Failover\"): scenarios/mongodb-w1-failover.lua.",
        ["host-crash"] = "As after a process crash: the document goes at the TTL monitor's next pass, the \"up to 60 s late\" deletion the manual documents.",
        ["client-clock"] = "The one design here that reads the holder's wall clock: expireAt is A's clock + the lease when it locks. A clock 15 s behind then writes a document already expired, and the TTL monitor's first pass (3 s here) deletes it while A works; a jump after A locked would change nothing.",
        ["leader-cut"] = "Not a split brain: the old primary, cut off with B, cannot have B's write acknowledged by a majority (w: \"majority\"), and the lock is unavailable on B's side until the cut heals, which the checker's bound (twice the lease) counts as a deadlock.",
      },
      not_applicable = {
        ["renewal-lost"] = "No renewal: expireAt is set once when the lock is taken (the recipe does not extend it), and A sends nothing while it works.",
      },
    },
    {
      id = "zookeeper", title = "ZooKeeper (Curator InterProcessMutex)",
      untouched = {   -- the column's fault cannot reach this lock: the source's reason
        ["clock-jump"] = "ZooKeeper's session expiry counts Time.currentElapsedTime() (System.nanoTime, monotonic): a wall-clock jump moves no session's deadline.",
        ["client-clock"] = "The client's session timers are monotonic too (ClientCnxn, Time.currentElapsedTime): a jump of A's wall clock moves no ping and no timeout.",
      },
      source = "the comparison table and ZooKeeper's recipe",
      says = [[Lock: create an ephemeral sequential node under /lock; the lowest number holds the
lock, any other watches the node just before its own; unlock: delete the node. ZooKeeper keeps
it highly available; Curator has the recipes ready. But: a ZooKeeper cluster to run. The recipe
is ZooKeeper's own ("ZooKeeper Recipes and Solutions", "Locks": "Fully distributed locks that
are globally synchronous, meaning at any snapshot in time no two clients think they hold the
same lock"; Curator's "Shared Reentrant Lock" opens with the same sentence); InterProcessMutex
is "a re-entrant mutex", and an ephemeral node lives "as long as the session that created the
znode is active" (ZooKeeper Programmer's Guide).]],
      claims = {
        all = { mutual_exclusion = "holds" },
        reenter = { reentrancy = "holds" },
        ["holder-crash"] = { no_deadlock = "holds" },
        ["server-restart"] = { no_deadlock = "holds" },
        failover = { no_deadlock = "holds" },
        ["host-crash"] = { no_deadlock = "holds" },
      },
      notes = {
        ["gc-pause"] = "Wrong: the session expires during the pause and B takes the lock, but InterProcessMutex does not watch the connection state, so A wakes and writes on (Curator, \"Error handling\"; Kleppmann 2016).",
        partition = "Wrong: the pings cannot arrive, the session expires while A works, and B takes the lock; Curator's own pages say \"If a SUSPENDED state is reported you cannot be certain that you still hold the lock\", but InterProcessMutex leaves listening for it to its user.",
        ["server-restart"] = "A write is acknowledged once a majority of the ensemble has it, so the new leader has every session and lock node a client was told of (ZooKeeper Internals, \"Guarantees, Properties, and Definitions\").",
        failover = "The leader dies before a follower has A's lock node, but ZooKeeper had not acknowledged it either: A retries with the new leader, where Redis's asynchronous replication loses an acknowledged lock.",
        ["renewal-lost"] = "Wrong: A is alive and working, but its pings do not arrive; the session expires and B takes the lock, and InterProcessMutex does not tell A (Curator, \"Error handling\").",
        ["leader-cut"] = "Not a split brain: the leader cut off with B can commit nothing, and B waits until the cut heals; the minority is unavailable, which the checker's bound (twice the session timeout) counts as a deadlock. A's client moves to the new leader, keeping its session.",
      },
    },
    {
      id = "zookeeper-fenced", title = "ZooKeeper (Curator), czxid fenced",
      untouched = {   -- the column's fault cannot reach this lock: the source's reason
        ["clock-jump"] = "ZooKeeper's session expiry counts Time.currentElapsedTime() (System.nanoTime, monotonic): a wall-clock jump moves no session's deadline.",
        ["client-clock"] = "The client's session timers are monotonic too (ClientCnxn, Time.currentElapsedTime): a jump of A's wall clock moves no ping and no timeout.",
      },
      source = "Kleppmann 2016",
      says = [[Martin Kleppmann, "How to do distributed locking": "if you're using ZooKeeper as lock
service, you can use the zxid or the znode version number as fencing token, and you're in good
shape". Here each holder sends the czxid of its lock node (the zxid of its creation), and the
resource rejects a token lower than one it has accepted.]],
      claims = {   -- the session may be lost (a pause, a cut); the token keeps the resource safe
        all = { resource_safety = "holds" },
        ["gc-pause"] = { mutual_exclusion = "violated" },
        partition = { mutual_exclusion = "violated" },
        ["renewal-lost"] = { mutual_exclusion = "violated" },
      },
      notes = {
        ["server-restart"] = "The czxids the new leader hands out are larger still: its zxids start a new epoch (ZooKeeper Internals, \"Zab\"), so a restart cannot reset the token as it resets a counter kept in a Redis without persistence.",
        ["leader-cut"] = "The minority is unavailable while the cut lasts: B waits, and the checker's bound counts it as a deadlock.",
      },
    },
    {
      id = "etcd", title = "etcd concurrency.Mutex",
      untouched = {   -- the column's fault cannot reach this lock: the source's reason
        ["clock-jump"] = "etcd's lessor counts a lease's expiry on Go's monotonic clock readings: a wall-clock jump moves no deadline.",
        ["client-clock"] = "The client's keep-alives are timed by Go's monotonic clock readings: a jump of A's wall clock moves none.",
      },
      source = "the etcd documentation",
      says = [[clientv3/concurrency (v3.4): "NewSession gets the leased session for a client"; a Mutex
"implements the sync Locker interface with etcd": the lock key lives on the session's lease,
and the oldest key holds the lock. etcd's "API guarantees": linearizable operations, and
"Durability - Any completed operations are durable", since Raft commits a write on a majority
of the members before etcd answers. Since 2020 (after Jepsen's etcd 3.4.3 analysis, etcd
#11457) "Notes on the usage of lock and lease" warns: "the lock APIs cannot be used as mutual
exclusion mechanism by themselves", and contrib/lock's README: "a lease-based lock service
cannot provide mutual exclusion to processes", since "Many factors (e.g. stop-the-world GC
pause of a language runtime) can cause false expiration of a granted lease".]],
      claims = {
        ["gc-pause"] = { mutual_exclusion = "violated" },
        partition = { mutual_exclusion = "violated" },
        ["server-restart"] = { mutual_exclusion = "holds" },
        failover = { mutual_exclusion = "holds" },
        ["renewal-lost"] = { mutual_exclusion = "violated" },
        ["leader-cut"] = { mutual_exclusion = "holds", no_deadlock = "violated" },   -- "Failure modes"
      },
      notes = {
        reenter = "A second Lock through the same Mutex finds its own key and returns at once, counting nothing, so the inner Unlock frees the lock while A still works: reentrancy is violated.",
        ["gc-pause"] = "As etcd's notes warn: the lease expires during the pause and etcd deletes A's key, but nothing in the Mutex watches the session, so A wakes and writes on (Kleppmann 2016).",
        partition = "As etcd's notes warn: the keep-alives cannot arrive, the lease expires while A works, and B takes the lock; the Mutex never looks at its session's Done channel (etcd issue #10811).",
        ["server-restart"] = "Raft answers a write once a majority has it, so the new leader has every lease and key a client was told of, and refreshes the leases (lease/lessor.go, Promote).",
        failover = "The leader dies before a follower has A's key, but etcd had not answered A either: A's Lock fails rather than hold a lock the cluster lost.",
        ["renewal-lost"] = "As etcd's notes warn: the keep-alives do not arrive, the lease expires while A works, and B takes the lock (etcd issue #10811).",
        ["leader-cut"] = "etcd's \"Failure modes\": \"The majority side becomes the available cluster and the minority side is unavailable; there is no “split-brain” in etcd\"; \"The leader on the minority side steps down\". B waits without the lock until its wait runs out, before the cut heals.",
      },
    },
    {
      id = "etcd-fenced", title = "etcd concurrency.Mutex, revision fenced",
      untouched = {   -- the column's fault cannot reach this lock: the source's reason
        ["clock-jump"] = "etcd's lessor counts a lease's expiry on Go's monotonic clock readings: a wall-clock jump moves no deadline.",
        ["client-clock"] = "The client's keep-alives are timed by Go's monotonic clock readings: a jump of A's wall clock moves none.",
      },
      source = "Kleppmann 2016 and the etcd documentation",
      says = [["etcd3 API", "Revisions": "etcd maintains a 64-bit cluster-wide counter, the store
revision, that is incremented each time the key space is modified. The revision serves as a
global logical clock". The lock key's create_revision is the fencing token Kleppmann (2016)
asks of a lock service: the resource rejects a write with a token lower than one it has seen.]],
      claims = {   -- the lease may be lost (a pause, a cut); the token keeps the resource safe
        all = { resource_safety = "holds" },
        ["gc-pause"] = { mutual_exclusion = "violated" },
        partition = { mutual_exclusion = "violated" },
        ["renewal-lost"] = { mutual_exclusion = "violated" },
        ["leader-cut"] = { mutual_exclusion = "holds", no_deadlock = "violated" },   -- "Failure modes"
      },
      notes = {
        reenter = "The inner Unlock frees the lock while A works (reentrancy is violated), but B's key has the higher revision, so A's late write is refused.",
        ["server-restart"] = "The revision goes on from the committed log on the new leader, so a restart cannot reset the token as it resets a counter kept in a Redis without persistence.",
        ["leader-cut"] = "etcd's \"Failure modes\": the minority side is unavailable, with no split brain.",
      },
    },
    -- PostgreSQL advisory locks (issue 24): the session-level lock (polled, and waiting in the
    -- server), the transaction-level lock, and the session-level lock through PgBouncer's
    -- transaction pooling.
    {
      id = "postgresql", title = "PostgreSQL advisory lock (session)",
      untouched = {   -- the column's fault cannot reach this lock: the source's reason
        ["gc-pause"] = "No lease: an advisory lock is held until explicitly released or the session ends (13.3.5), and a paused process's kernel keeps its connection open.",
        ["clock-jump"] = "No expiry: an advisory lock reads no clock.",
        ["client-clock"] = "No expiry: an advisory lock reads no clock.",
        ["late-release"] = "No lease: the lock is held until explicitly released or the session ends, so nothing runs out before A's late release lands, and it is A's own.",
      },
      source = "the PostgreSQL documentation",
      says = [[PostgreSQL 15 documentation, 13.3.5 "Advisory Locks": "Once acquired at session level, an
advisory lock is held until explicitly released or the session ends"; "If a session already
holds a given advisory lock, additional requests by it will always succeed, even if other
sessions are awaiting the lock"; pg_advisory_unlock_all "is implicitly invoked at session end,
even if the client disconnects ungracefully" (9.27.10). 27.4.3 "Hot Standby": "advisory locks
are never WAL logged".]],
      claims = {
        reenter = { reentrancy = "holds" },
        ["holder-crash"] = { no_deadlock = "holds" },
      },
      notes = {
        ["holder-crash"] = "A's process dies, its connection closes, and the session's lock goes with it at once.",
        partition = "Over TCP the cut loses nothing: A's unlock waits in its socket and lands at the first retransmission after the cut heals (56 s), and B, polling, is let in 51 s late. Only a silent host keeps the session (the host-crash column).",
        ["server-restart"] = "The lock lives in the server's shared memory only: the restarted server holds none, and A learns it only at its next statement.",
        failover = "Advisory locks are never WAL-logged (\"Hot Standby\"): the promoted standby has no lock at all.",
        ["host-crash"] = "The backend, and its session's lock, live until the server notices the dead connection: TCP keepalive (tcp_keepalives_idle = 0 takes the system's default, 2 h on Linux); idle_session_timeout is off by default.",
      },
      not_applicable = {
        ["renewal-lost"] = "No renewal: the lock lasts as long as the session's connection, which nothing refreshes while A works (a connection that dies silently is the host-crash column).",
        ["leader-cut"] = "One PostgreSQL server and no election: a standby is promoted from outside (pg_ctl promote, or a tool such as Patroni: the \"failover\" column); the server on the waiter's side and the holder alone is \"cut off\".",
      },
    },
    {
      id = "postgresql-blocking", title = "PostgreSQL advisory lock (session), waiting in the server",
      untouched = {   -- the column's fault cannot reach this lock: the source's reason
        ["gc-pause"] = "No lease: an advisory lock is held until explicitly released or the session ends (13.3.5), and a paused process's kernel keeps its connection open.",
        ["clock-jump"] = "No expiry: an advisory lock reads no clock.",
        ["client-clock"] = "No expiry: an advisory lock reads no clock.",
        ["late-release"] = "No lease: the lock is held until explicitly released or the session ends, so nothing runs out before A's late release lands, and it is A's own.",
      },
      source = "the PostgreSQL documentation",
      says = [[PostgreSQL 15 documentation, 9.27.10 "Advisory Lock Functions": pg_advisory_lock
"Obtains an exclusive session-level advisory lock, waiting if necessary"; 20.11.1 "Statement
Behavior": lock_timeout "Abort any statement that waits longer than the specified amount of time
while attempting to acquire a lock"; 13.3.5 "Advisory Locks": "Once acquired at session level,
an advisory lock is held until explicitly released or the session ends"; pg_advisory_unlock_all
"is implicitly invoked at session end, even if the client disconnects ungracefully". 27.4.3
"Hot Standby": "advisory locks are never WAL logged".]],
      claims = {
        reenter = { reentrancy = "holds" },
        ["holder-crash"] = { no_deadlock = "holds" },
        ["waiter-gives-up"] = { no_deadlock = "holds" },
      },
      notes = {
        ["holder-crash"] = "A's process dies, its connection closes, the session's lock goes, and B, waiting in the server, has it at once.",
        ["waiter-gives-up"] = "B's wait ends with lock_timeout (55P03) and leaves nothing behind.",
        partition = "Over TCP the cut loses nothing: A's unlock lands at the first retransmission after the cut heals (56 s), and B's pg_advisory_lock, waiting in the server, is answered at once. Only a silent host keeps the session (the host-crash column).",
        ["server-restart"] = "B's wait was inside the crashed process: with the crash silent (as in every row), B waits on a dead connection until its own bound and never gets in; the polled row's B asks the restarted server and is let in beside A.",
        failover = "Advisory locks are never WAL-logged (\"Hot Standby\"): the promoted standby has no lock at all.",
        ["host-crash"] = "The backend, and its session's lock, live until the server notices the dead connection: TCP keepalive (2 h on Linux); B's wait ends with its lock_timeout.",
      },
      not_applicable = {
        ["renewal-lost"] = "No renewal: the lock lasts as long as the session's connection, which nothing refreshes while A works (a connection that dies silently is the host-crash column).",
        ["leader-cut"] = "One PostgreSQL server and no election: a standby is promoted from outside (pg_ctl promote, or a tool such as Patroni: the \"failover\" column); the server on the waiter's side and the holder alone is \"cut off\".",
      },
    },
    {
      id = "postgresql-xact", title = "PostgreSQL advisory lock (transaction)",
      untouched = {   -- the column's fault cannot reach this lock: the source's reason
        ["gc-pause"] = "No lease: an advisory lock is released at the end of the transaction (13.3.5), and a paused process's kernel keeps its connection open.",
        ["clock-jump"] = "No expiry: an advisory lock reads no clock.",
        ["client-clock"] = "No expiry: an advisory lock reads no clock.",
        ["late-release"] = "No lease: the lock is released at the end of the transaction, so nothing runs out before A's late release lands, and it is A's own.",
      },
      source = "the PostgreSQL documentation",
      says = [[PostgreSQL 15 documentation, 13.3.5 "Advisory Locks": "Transaction-level lock requests ...
are automatically released at the end of the transaction, and there is no explicit unlock
operation"; additional requests by a session that holds the lock "will always succeed ...
regardless of whether the existing lock hold and new request are at session level or
transaction level". 27.4.3 "Hot Standby": "advisory locks are never WAL logged".]],
      claims = {
        -- "will always succeed" is the re-request's half of re-entrancy; the lock's only
        -- unlock is the end of the transaction, so no claim for the release's half
        ["holder-crash"] = { no_deadlock = "holds" },
      },
      notes = {
        reenter = "The inner acquire counts (\"will always succeed\"), but the lock has no unlock: the inner method's COMMIT ends the whole transaction and frees the lock under A's open outer hold, so reentrancy is violated; the documentation's two sentences together imply it without saying it.",
        ["holder-crash"] = "A's connection closes, the server rolls its transaction back, and the lock goes with it.",
        partition = "Over TCP the cut loses nothing: A's COMMIT lands at the first retransmission after the cut heals (56 s), ends the transaction and frees the lock; B is let in 51 s late.",
        ["server-restart"] = "The crash ends every transaction; the restarted server holds no lock, and A learns it only at its COMMIT.",
        failover = "Advisory locks are never WAL-logged (\"Hot Standby\"): the promoted standby has no lock at all.",
        ["host-crash"] = "The transaction stays open, with its lock, until the server notices the dead connection (TCP keepalive, 2 h on Linux by default); idle_in_transaction_session_timeout is off by default.",
      },
      not_applicable = {
        ["renewal-lost"] = "No renewal: the lock lasts as long as the session's connection, which nothing refreshes while A works (a connection that dies silently is the host-crash column).",
        ["leader-cut"] = "One PostgreSQL server and no election: a standby is promoted from outside (pg_ctl promote, or a tool such as Patroni: the \"failover\" column); the server on the waiter's side and the holder alone is \"cut off\".",
      },
    },
    {
      id = "postgresql-pgbouncer", title = "PostgreSQL session lock via PgBouncer",
      untouched = {   -- the column's fault cannot reach this lock: the source's reason
        ["gc-pause"] = "No lease: an advisory lock is held until explicitly released or the session ends (13.3.5), and a paused process's kernel keeps its connection open.",
        ["clock-jump"] = "No expiry: an advisory lock reads no clock.",
        ["client-clock"] = "No expiry: an advisory lock reads no clock.",
        ["late-release"] = "No lease: the lock is held until explicitly released or the session ends, so nothing runs out before A's late release lands, and it is A's own.",
        ["waiter-gives-up"] = "Nobody waits: through transaction pooling B and C run on the pooled backend whose session holds A's lock and are let in at once (features.html: session-level advisory locks are never compatible with transaction pooling).",
      },
      source = "PgBouncer's documentation",
      says = [[www.pgbouncer.org/features.html: in transaction pooling "a server connection is assigned to
a client only during a transaction. When PgBouncer notices that the transaction is over, the
server will be put back into the pool. This mode breaks a few session-based features of
PostgreSQL"; its SQL feature map marks "Session-level advisory locks" as never compatible
with transaction pooling. pgbouncer.ini, server_round_robin: server connections are reused
"in LIFO (last-in, first-out) manner".]],
      claims = {   -- "never" compatible: the lock excludes no one
        all = { mutual_exclusion = "violated" },
      },
      notes = {
        reenter = "B's first try runs on the pooled backend whose session holds A's lock, and is let in.",
        failover = "As in every column: B is let in on A's pooled backend, and the one lock the two share is freed by whichever unlock comes last (release safety as the checker defines it: a release deleted the lock another client's statement took).",
        ["clock-jump"] = "B is let in on A's pooled backend; B's unlock frees the lock A's statement took (the session counts both holds as its own): release safety violated as the checker defines it, harmless here since A had unlocked.",
        ["holder-crash"] = "B was let in at 100 ms on A's backend; A's crash between transactions closes no server connection, and the lock stays with the pooled backend.",
      },
      not_applicable = {
        ["renewal-lost"] = "No renewal: the lock lasts as long as the session's connection, which nothing refreshes while A works (a connection that dies silently is the host-crash column).",
        ["leader-cut"] = "One PostgreSQL server and no election: a standby is promoted from outside (pg_ctl promote, or a tool such as Patroni: the \"failover\" column); the server on the waiter's side and the holder alone is \"cut off\".",
      },
    },
    -- Kubernetes Lease leader election (issue 24)
    {
      id = "k8s-lease", title = "Kubernetes Lease (client-go)",
      untouched = {   -- the column's fault cannot reach this lock: the source's reason
        ["clock-jump"] = "\"A client only acts on timestamps captured locally\" (leaderelection.go): no candidate compares the API server's clock, nor the renewTime it wrote, with anything.",
        ["client-clock"] = "client-go measures time with Go's monotonic clock readings (isLeaseValid: le.clock.Now()): a jump of A's wall clock moves no decision.",
      },
      source = "client-go's leaderelection",
      says = [[kubernetes/client-go, tools/leaderelection/leaderelection.go: "This implementation does
not guarantee that only one client is acting as a leader (a.k.a. fencing)"; "A client only
acts on timestamps captured locally to infer the state of the leader election"; LeaseDuration
"is the duration that non-leader candidates will wait to force acquire leadership"; "A client
needs to wait a full LeaseDuration without observing a change to the record before it can
attempt to take over"; RenewDeadline "is the duration that the acting master will retry
refreshing leadership before giving up".]],
      unobservable = {
        release_safety = "client-go sends no release by default (ReleaseOnCancel is false): a holder's release changes nothing on the server, so nothing a release could take from another holder.",
      },
      claims = {   -- no fencing: a leader that stops renewing may still act
        ["holder-crash"] = { no_deadlock = "holds" },
        ["gc-pause"] = { mutual_exclusion = "violated", resource_safety = "violated" },
        partition = { mutual_exclusion = "violated", resource_safety = "violated" },
        ["renewal-lost"] = { mutual_exclusion = "violated", resource_safety = "violated" },
        ["host-crash"] = { no_deadlock = "holds" },
      },
      notes = {
        ["gc-pause"] = "The renew loop pauses with A; B takes the Lease over after seeing it unchanged for LeaseDuration, and A wakes and writes on.",
        partition = "A's renewals fail and OnStoppedLeading is called after RenewDeadline, but work that does not watch its context goes on (client-go's examples exit the process there).",
        ["server-restart"] = "The Lease lives in etcd, committed on a majority: the new leader has it, with its resourceVersion.",
        failover = "A's Create was acknowledged only once a majority of etcd had it; B waits a full LeaseDuration.",
        ["renewal-lost"] = "A's renewals fail and OnStoppedLeading is called after RenewDeadline, but work that does not watch its context goes on.",
        ["leader-cut"] = "Not a split brain: B's API server, with the old etcd leader, can read nothing committed, and B gives up when its wait runs out; the minority is unavailable, which the checker's bound (twice the LeaseDuration) counts as a deadlock.",
        ["client-clock"] = "client-go measures time with Go's monotonic clock readings; the renewTime it writes is wall-clock, but no candidate compares it with its own clock.",
        ["late-release"] = "client-go sends no release by default; A's last renewal, held in the network, lands after B's takeover and is refused on its stale resourceVersion (409 Conflict): the API server's optimistic concurrency.",
      },
    },
    -- Consul sessions with lock-delay (issue 24)
    {
      id = "consul", title = "Consul lock (session TTL, lock-delay)",
      untouched = {   -- the column's fault cannot reach this lock: the source's reason
        ["clock-jump"] = "Consul's session timers are Go timers (monotonic; agent/consul/session_ttl.go); no invalidation happens, so the lock-delay table is never consulted.",
        ["client-clock"] = "api.Lock's renewals are timed with time.Since and timers (RenewPeriodic, api/session.go): monotonic readings, which a wall-clock jump does not move.",
      },
      source = "the Consul documentation",
      says = [["Sessions and distributed locks overview": a session is invalidated when its "TTL
expires"; "Consul will not expire the session before the TTL is reached, but it is allowed to
delay the expiration past the TTL"; "By default, the gossip based failure detector is used as
the associated health check. This failure detector allows Consul to detect when a node that is
holding a lock has failed and to automatically release the lock"; on invalidation "any of the
locks held in association with the session are released"; "Consul prevents any of the previously held locks from being
re-acquired for the lock-delay interval ... to allow the potentially still live leader to
detect the invalidation and stop processing requests ... While not a bulletproof method, it
does avoid the need to introduce sleep states into application logic"; "the default is to use
a 15 second delay". api/lock.go: "It is NOT safe to assume that the lock is held until
Unlock() ... an application must be able to handle the lock being lost"; "ErrLockHeld is
returned if we attempt to double lock".]],
      claims = {
        reenter = { reentrancy = "violated" },   -- ErrLockHeld: a Lock is not re-entrant
        ["gc-pause"] = { mutual_exclusion = "violated" },   -- "not a bulletproof method"
        -- the delays are documented: expiry "past the TTL", then the lock-delay
        ["holder-crash"] = { no_deadlock = "violated" },
        partition = { mutual_exclusion = "violated" },   -- "not a bulletproof method"
        ["renewal-lost"] = { mutual_exclusion = "violated" },   -- "not a bulletproof method"
        -- the overview: "This failure detector allows Consul to detect when a node that is
        -- holding a lock has failed and to automatically release the lock"
        ["host-crash"] = { no_deadlock = "holds" },
      },
      notes = {
        ["late-release"] = "The cut is 20 s: it also fails the gossip of A's node, the session (with the node's serfHealth check, as api.Lock makes it) is invalidated at 9.5 s, and the release held in the cut lands at 30.4 s on the dead session and is refused. (With the other rows' 7 s cut the release lands at 17.6 s on a live session: nothing late.)",
        ["holder-crash"] = "Only A's process dies: its host's agent still answers gossip, so only the TTL ends the session, at twice the TTL (20 s), and the lock-delay holds the key 15 s more: free 34 s after the crash, past the checker's bound of twice the lease.",
        ["gc-pause"] = "The pause is 40 s: Consul's leader times a session at twice its TTL (PR #524) and the lock-delay follows, so only a pause past 2 x TTL + lock-delay (35 s) lets B in (a 12 s pause never reaches it); A wakes at 44 s and writes beside B.",
        partition = "The cut fails the gossip of A's node: its serfHealth check (api.Lock's default) invalidates the session at 5.5 s, the lock-delay holds the key until 20.5 s, and B takes it while A, which does not watch leaderCh, works until 45 s (with CreateNoChecks: at 20 s and 35 s, the same violation).",
        reenter = "A Lock is not re-entrant (api/lock.go: ErrLockHeld \"if we attempt to double lock\"); a second Lock, as the inner method makes, has a session of its own and waits like a stranger.",
        ["renewal-lost"] = "A's link loses its gossip too: the node's serfHealth check invalidates the session at 5.5 s, the lock-delay holds the key until 20.5 s, and B takes it while A, which does not watch leaderCh, works until 45 s.",
        ["host-crash"] = "Not as after a process crash: the vanished host runs the node's agent, whose serfHealth check the session has (api.Lock's default); gossip declares it failed 4.5 s after the first failed probe, the session goes at 5.5 s and the lock-delay after it: free 19.5 s after the crash, just inside the checker's bound (20 s). With CreateNoChecks (options no_checks) the TTL alone frees it, at 35 s.",
        ["leader-cut"] = "B's read of the lock key is not answered on the minority's side, and Lock returns \"failed to read lock\" (api/lock.go): B gives up at once instead of waiting.",
      },
    },
  },
}
