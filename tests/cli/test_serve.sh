#!/usr/bin/env bash
# Tests of `locklab serve`: fake Redis nodes on loopback TCP ports, driven by redis-cli and by
# python3 raw sockets. Usage and option errors; SET/GET, EVAL of a lock script from
# lua/redis/, PTTL after LOCKLAB ADVANCE (--clock manual), a pipelined batch, inline
# commands, pub/sub; bad RESP (each answered with redis-server 7.0.15's protocol error, the
# connection closed, the server still serving another client); a client that never reads
# and one that floods its query buffer (closed at the limits, the server goes on); 1,000
# connections opening and closing; LOCKLAB CRASH / RESTART with each persistence;
# replicas of a scenario; the history (LOCKLAB HISTORY, --json); --clock wall; node redlock
# and ioredis from npm beside a redis-server, and under LOCKLAB ADVANCE / CRASH; SIGTERM
# stops it cleanly (exit 0, no sanitizer report). Servers are stopped at the end whatever
# happens. Readiness and every wait are bounded polling loops, never a time threshold.
# Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/cli/serve_lib.sh serve

cli() { redis-cli -p "$PORT" "$@"; }

# ---- usage ----
"$LL" serve --help >"$tmp/help" 2>&1
check "serve --help exits 0" 0 "$?"
grep -q '^usage: locklab serve' "$tmp/help" && ok || bad "serve --help prints usage"
for args in "--port 0" "--port 70000" "--clock fast" "--nodes 0" "--nodes 65" "--bogus 1" "--persistence rdb" \
    "--output-buffer-limit 12xb" "--query-buffer-limit 10" "extra" "--port" "--nodes 2 --scenario single-basic" \
    "--scenario no-such-scenario"; do
    # shellcheck disable=SC2086
    "$LL" serve $args >"$tmp/o" 2>"$tmp/e"
    check "serve $args: exit" 2 "$?"
    if [ "$(wc -l <"$tmp/e")" -eq 1 ] && grep -q '^locklab: serve' "$tmp/e"; then ok; else bad "serve $args: one-line error"; cat "$tmp/e"; fi
done
"$LL" --help | grep '^  serve ' >/dev/null && ok || bad "locklab --help lists serve"

# ---- one server, manual clock, two nodes ----
start_serve main 2 --nodes 2 --clock manual --json "$tmp/history.jsonl" --output-buffer-limit 1mb \
    --query-buffer-limit 2mb || { bad "the server does not start"; echo "$pass passed, $fail failed"; exit 1; }
P2=$((PORT + 1))

check "SET" OK "$(cli set k v)"
check "GET" v "$(cli get k)"
check "the second node is another keyspace" "" "$(redis-cli -p "$P2" get k)"
check "TIME at the scenario epoch" "1700000000" "$(cli time | head -1)"

lock=$("$LL" scripts body redisson/lock@HEAD)
check "EVAL of redisson/lock: acquired (nil)" "" "$(cli eval "$lock" 1 myLock 30000 client-A:1)"
check "EVAL of redisson/lock: B is refused with the PTTL" 30000 "$(cli eval "$lock" 1 myLock 30000 client-B:1)"
check "PTTL before ADVANCE" 30000 "$(cli pttl myLock)"
check "LOCKLAB ADVANCE" OK "$(cli locklab advance 10000)"
check "PTTL after ADVANCE 10000" 20000 "$(cli pttl myLock)"
check "LOCKLAB TIME" 1700000010000 "$(cli locklab time)"
cli locklab advance 20001 >/dev/null
check "the lease ran out" -2 "$(cli pttl myLock)"
check "B acquires" "" "$(cli eval "$lock" 1 myLock 30000 client-B:1)"
# Keys of a database other than 0 (SELECT) expire at their deadlines in the world's own
# expiry, as database 0's do, not in a pass of serve's own after it: ADVANCE past both, and
# database 9's key, due first, expires first (its `expired` event comes first).
MAINPORT=$PORT MAINPID=$PID
start_serve dbexp 1 --clock manual || bad "the server for database 9's expiry does not start"
dbexp=$(python3 - "$PORT" <<'PYEOF'
import socket, sys
def conn():
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1]))); s.settimeout(10); return s
pending = {}
def values(s, n):
    """The next n values s receives (RESP lines that are not a bulk's or an array's header)."""
    out = []
    while len(out) < n:
        buf = pending.get(s, b"")
        while b"\r\n" not in buf:
            buf += s.recv(65536)
        line, pending[s] = buf.split(b"\r\n", 1)
        if not line.startswith((b"$", b"*")):
            out.append(line.decode())
    return "|".join(out)
def run(s, cmds):
    s.sendall("".join(c + "\r\n" for c in cmds).encode())
    return values(s, len(cmds))
sub, c = conn(), conn()
sub.sendall(b"psubscribe __keyevent@*__:expired\r\n")
print(values(sub, 3))
print(run(c, ["config set notify-keyspace-events Ex", "select 9", "set e9 1 px 50", "set f9 1 px 300", "set g9 1",
              "select 0", "set e0 1 px 100", "locklab advance 101", "select 9", "dbsize", "locklab advance 200",
              "dbsize", "config set notify-keyspace-events ''"]))
print(values(sub, 12))
PYEOF
)
check "database 9's keys expire at their deadlines, in the world's expiry" \
    "psubscribe|__keyevent@*__:expired|:1
+OK|+OK|+OK|+OK|+OK|+OK|+OK|+OK|+OK|:2|+OK|:1|+OK
pmessage|__keyevent@*__:expired|__keyevent@9__:expired|e9|pmessage|__keyevent@*__:expired|__keyevent@0__:expired|e0|pmessage|__keyevent@*__:expired|__keyevent@9__:expired|f9" "$dbexp"
stop_serve dbexp
PORT=$MAINPORT PID=$MAINPID
check "ADVANCE of a negative time" "ERR ms must be a whole number" "$(cli locklab advance -5 | cut -c1-29)"
check "LOCKLAB without a subcommand" "ERR wrong number of arguments for 'locklab' command" "$(cli locklab)"
check "an unknown subcommand" "ERR unknown subcommand 'bogus'. Try LOCKLAB HELP." "$(cli locklab bogus)"
check "LOCKLAB HELP" "LOCKLAB <subcommand> [<arg> [value] [opt] ...]. Subcommands are:" "$(cli locklab help | head -1)"
check "an unknown command" "ERR unknown command 'nosuch', with args beginning with: 'a' " "$(cli nosuch a)"

# a pipelined batch through redis-cli --pipe: 1,000 INCRs in one write
for _ in $(seq 1 1000); do printf '*2\r\n$4\r\nINCR\r\n$3\r\nctr\r\n'; done >"$tmp/pipe"
cli --pipe <"$tmp/pipe" >"$tmp/pipe.out" 2>&1
grep -q 'errors: 0, replies: 1000' "$tmp/pipe.out" && ok || bad "redis-cli --pipe: $(cat "$tmp/pipe.out")"
check "the batch ran in order" 1000 "$(cli get ctr)"

# raw sockets: inline commands, a pipelined mix, pub/sub, bad RESP, limits
cat >"$tmp/raw.py" <<'EOF'
import socket, sys
port = int(sys.argv[1])
fails = 0

def conn():
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(20)
    return s

def read_exactly(s, n):
    out = b""
    while len(out) < n:
        try:
            d = s.recv(n - len(out))
        except socket.timeout:
            return out + b"<timeout>"
        if not d:
            break
        out += d
    return out

def read_to_eof(s):
    out = b""
    while True:
        try:
            d = s.recv(65536)
        except ConnectionResetError:
            return out + b"<RST>"
        if not d:
            return out + b"<EOF>"
        out += d

def clip(x):
    return x[:200] if isinstance(x, (bytes, str)) else x

def expect(what, want, got):
    global fails
    if want != got:
        fails += 1
        print("FAIL: %s: expected %r, got %r" % (what, clip(want), clip(got)))
    else:
        print("ok")

# inline commands, and RESP and inline mixed in one write
s = conn()
s.sendall(b'PING\r\nSET il "a b"\r\nGET il\n*2\r\n$4\r\nECHO\r\n$3\r\nx\0y\r\nECHO \'q\'\r\n')
want = b'+PONG\r\n+OK\r\n$3\r\na b\r\n$3\r\nx\0y\r\n$1\r\nq\r\n'
expect("inline and RESP pipelined", want, read_exactly(s, len(want)))
s.sendall(b"QUIT\r\nPING\r\n")
expect("QUIT answers OK and closes", b"+OK\r\n<EOF>", read_to_eof(s))

# pub/sub between two connections
sub, pub = conn(), conn()
sub.sendall(b"SUBSCRIBE ch\r\n")
want = b"*3\r\n$9\r\nsubscribe\r\n$2\r\nch\r\n:1\r\n"
expect("SUBSCRIBE", want, read_exactly(sub, len(want)))
pub.sendall(b"PUBLISH ch hello\r\n")
expect("PUBLISH reaches one subscriber", b":1\r\n", read_exactly(pub, 4))
want = b"*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$5\r\nhello\r\n"
expect("the message", want, read_exactly(sub, len(want)))
sub.close()

# bad RESP: redis-server 7.0.15's replies, byte for byte, and the connection closed
bad = [
    (b"*abc\r\n", b"invalid multibulk length"),
    (b"*2147483648\r\n", b"invalid multibulk length"),
    (b"*99999999999999999999\r\n", b"invalid multibulk length"),
    (b"*01\r\n", b"invalid multibulk length"),
    (b"* 1\r\n", b"invalid multibulk length"),
    (b"*1\r\nPING\r\n", b"expected '$', got 'P'"),
    (b"*1\r\n\r\n", b"expected '$', got ' '"),
    (b"*1\r\n\xff\r\n", b"expected '$', got '\xff'"),
    (b"*1\r\n$abc\r\n", b"invalid bulk length"),
    (b"*1\r\n$-1\r\n", b"invalid bulk length"),
    (b"*1\r\n$04\r\nPING\r\n", b"invalid bulk length"),
    (b"*1\r\n$536870913\r\n", b"invalid bulk length"),
    (b"*1\r\n$1073741824\r\n", b"invalid bulk length"),
    (b"*1\r\n$99999999999\r\n", b"invalid bulk length"),
    (b'set a "b\r\n', b"unbalanced quotes in request"),
    (b"a" * 70000, b"too big inline request"),
    (b"*" + b"1" * 70000, b"too big mbulk count string"),
    (b"*1\r\n$" + b"1" * 70000, b"too big bulk count string"),
    (b"PING\r\n*1\r\n$4\r\nPING\r\n*x\r\n", b"invalid multibulk length"),
]
other = conn()
for data, err in bad:
    s = conn()
    s.sendall(data)
    pre = b"+PONG\r\n+PONG\r\n" if data.startswith(b"PING") else b""
    expect("bad RESP %r" % data[:24], pre + b"-ERR Protocol error: " + err + b"\r\n<EOF>", read_to_eof(s))
    s.close()
# binary garbage is read as inline commands, as Redis reads it (its replies, byte for byte)
for data, want in [
    (bytes(range(1, 256)), b"-ERR unknown command '\x01\x02\x03\x04\x05\x06\x07\x08', with args beginning with: \r\n"),
    (b"\xff\xfe garbage\r\n", b"-ERR unknown command '\xff\xfe', with args beginning with: 'garbage' \r\n"),
]:
    s = conn()
    s.sendall(data)
    expect("binary garbage %r" % data[:8], want, read_exactly(s, len(want)))
    s.close()
other.sendall(b"PING\r\n")
expect("another client is still served", b"+PONG\r\n", read_exactly(other, 7))

# what is not an error: a negative or zero count is no command, the two bytes after a bulk
# are not checked
s = conn()
s.sendall(b"*-5\r\n*0\r\n*1\r\n$4\r\nPINGxx*1\r\n$4\r\nPING\r\n")
expect("empty requests and unchecked bulk ends", b"+PONG\r\n+PONG\r\n", read_exactly(s, 14))
s.close()

# a client that never reads: closed once its replies pass --output-buffer-limit (1mb)
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.connect(("127.0.0.1", port))
big = b"x" * 100000
s.sendall(b"*3\r\n$3\r\nSET\r\n$3\r\nbig\r\n$%d\r\n%s\r\n" % (len(big), big))
closed = False
try:
    for i in range(20000):
        s.sendall(b"*2\r\n$3\r\nGET\r\n$3\r\nbig\r\n" * 10)
except (BrokenPipeError, ConnectionResetError):
    closed = True
if not closed:
    # every request got into the socket before the close reached it (a loaded machine): the
    # close then shows as the end of the replies, long before 200,000 of them (20 GB)
    s.settimeout(60)
    got = 0
    try:
        while got < 50 * 1000 * 1000:
            b = s.recv(1 << 16)
            if not b:
                closed = True
                break
            got += len(b)
    except (BrokenPipeError, ConnectionResetError):
        closed = True
    except socket.timeout:
        pass
s.close()
expect("the non-reading client is closed before 200,000 replies (20 GB)", True, closed)
other.sendall(b"STRLEN big\r\n")
expect("the server goes on", b":100000\r\n", read_exactly(other, 9))

# a query buffer past --query-buffer-limit (2mb): closed without a reply
s = conn()
try:
    s.sendall(b"*3\r\n$3\r\nSET\r\n$4\r\nhuge\r\n$10000000\r\n" + b"y" * 3000000)
    got = read_to_eof(s)
except (BrokenPipeError, ConnectionResetError):
    got = b"<RST>"
expect("a query buffer over the limit is closed", True, got in (b"<EOF>", b"<RST>"))
other.sendall(b"EXISTS huge\r\n")
expect("nothing was set", b":0\r\n", read_exactly(other, 4))

# 1,000 connections opening and closing
for i in range(1000):
    s = conn()
    s.sendall(b"PING\r\n")
    if read_exactly(s, 7) != b"+PONG\r\n":
        fails += 1
        print("FAIL: connection %d" % i)
        break
    s.close()
else:
    print("ok")
other.close()
sys.exit(1 if fails else 0)
EOF
python3 "$tmp/raw.py" "$PORT" >"$tmp/raw.out" 2>&1
pass=$((pass + $(grep -c '^ok$' "$tmp/raw.out")))
fail=$((fail + $(grep -c '^FAIL' "$tmp/raw.out")))
grep -v '^ok$' "$tmp/raw.out"
grep -q 'output buffer over 1048576 bytes' "$tmp/main.err" && ok || bad "the output-limit close is logged"
grep -q 'query buffer over 2097152 bytes' "$tmp/main.err" && ok || bad "the query-limit close is logged"
conns() { cli locklab nodes | head -1 | sed 's/.*connections=//'; }
wait_for 2400 [ "$(conns)" = 1 ] && ok || bad "all 1,000 connections are gone: $(conns) left"

# COMMAND COUNT is what COMMAND LIST lists but the subcommands ("config|get": Redis 7.0
# counts only the commands and lists both); redis-cli --scan (SCAN to the end) sees every
# key once, here 1,000 of them
check "COMMAND COUNT = COMMAND LIST's commands" "$(cli command list | grep -vc '|')" "$(cli command count)"
cli command list | grep -qx 'client|pause' && ok || bad "COMMAND LIST has client|pause"
cli command list | grep -qx getex && ok || bad "COMMAND LIST has GETEX"
for i in $(seq 1 1000); do printf 'SET scan:%d x\r\n' "$i"; done | cli >/dev/null
check "SCAN reaches every key once" 1000 "$(cli --scan --pattern 'scan:*' | sort -u | wc -l)"
check "and no key twice" 1000 "$(cli --scan --pattern 'scan:*' | wc -l)"

# MULTI/EXEC/WATCH per connection, two redis-cli sessions: session A watches a key, another
# connection writes it, A's EXEC answers a null array (redis-cli prints "(nil)"); A's next
# transaction, its watches cleared by that EXEC, runs; a key written by another connection
# while A is in MULTI (not watched) does not stop A's queue
lines_in() { [ "$(wc -l <"$1" 2>/dev/null || echo 0)" -ge "$2" ]; }
cli set wk before >/dev/null
mkfifo "$tmp/a.in"
redis-cli -p "$PORT" --no-raw <"$tmp/a.in" >"$tmp/a.out" 2>&1 &
apid=$!
exec 7>"$tmp/a.in"
echo "watch wk" >&7
wait_for 2400 lines_in "$tmp/a.out" 1 || bad "session A answers WATCH"
check "another connection writes the watched key" OK "$(cli set wk other)"
printf 'multi\nset wk mine\nexec\n' >&7
wait_for 2400 lines_in "$tmp/a.out" 4 || bad "session A answers its transaction"
check "the other connection's write stands" other "$(cli get wk)"
printf 'multi\nincr tx:n\n' >&7
wait_for 2400 lines_in "$tmp/a.out" 6 || bad "session A queues"
check "a second connection is not in A's transaction" 5 "$(cli set tx:n 4 >/dev/null; cli incr tx:n)"
printf 'exec\n' >&7
exec 7>&-
wait "$apid"
check "session A: WATCH, a failed EXEC, then a transaction that runs" \
    "$(printf 'OK\nOK\nQUEUED\n(nil)\nOK\nQUEUED\n1) (integer) 6')" "$(cat "$tmp/a.out")"
check "a transaction left open by a closed connection is gone" "" "$(cli get tx:open; printf 'multi\nincr tx:open\n' | cli >/dev/null; cli get tx:open)"

# crash and restart, persistence none: the data is gone, the port refused meanwhile
check "SET on n2" OK "$(redis-cli -p "$P2" set k2 v2)"
check "LOCKLAB CRASH n2" OK "$(cli locklab crash n2)"
redis-cli -p "$P2" ping >/dev/null 2>&1 && bad "a crashed node still answers" || ok
check "a crash of a crashed node" "ERR node 'n2' is down already" "$(cli locklab crash n2)"
check "a node that is not there" "ERR no node named 'n9' (LOCKLAB NODES lists them)" "$(cli locklab crash n9)"
check "LOCKLAB NODES says down" "n2 127.0.0.1:$P2 down master" "$(cli locklab nodes | sed -n 2p | cut -d' ' -f1-4)"
check "LOCKLAB RESTART n2" OK "$(cli locklab restart n2)"
check "persistence none lost the key" "" "$(redis-cli -p "$P2" get k2)"
check "a node crashing itself answers first" OK "$(redis-cli -p "$P2" locklab crash n2)"
cli locklab restart n2 >/dev/null

# a partition: the node's clients wait (a bounded read sees nothing), then HEAL lets through
# what they sent; a paused connection waits for ADVANCE; a node's clock jumps alone
cat >"$tmp/faults.py" <<'EOF'
import socket, subprocess, sys
port, p2 = int(sys.argv[1]), int(sys.argv[2])
def ctl(*args):
    return subprocess.run(["redis-cli", "-p", str(p2), "locklab"] + list(args), capture_output=True, text=True).stdout.strip()
def expect(what, want, got):
    print("ok" if want == got else "FAIL: %s: expected %r, got %r" % (what, want, got))
def ran(word):
    # whether the server has run "ECHO word" yet, by its own history (no timing involved)
    return ('\\"ECHO\\" \\"%s\\"' % word) in ctl("history", "100")
s = socket.create_connection(("127.0.0.1", port))
s.settimeout(60)
s.sendall(b"PING\r\n")
expect("before the partition", b"+PONG\r\n", s.recv(7))
expect("PARTITION n1", "OK", ctl("partition", "n1"))
s.sendall(b"ECHO during\r\n")
expect("nothing crosses a partition", False, ran("during"))
mine = [l.split()[0] for l in ctl("clients").split("\n") if "node=n1" in l and "partitioned" in l]
expect("CLIENTS shows it partitioned", 1, len(mine))
expect("still nothing", False, ran("during"))
expect("HEAL n1", "OK", ctl("heal", "n1"))
s.settimeout(60)
expect("what was sent during the partition runs after it", b"$6\r\nduring\r\n", s.recv(12))
expect("and the history shows it", True, ran("during"))
expect("PAUSE-CLIENT", "OK", ctl("pause-client", mine[0], "500"))
s.sendall(b"ECHO paused\r\n")
expect("a paused connection is not read", False, ran("paused"))
expect("ADVANCE 499", "OK", ctl("advance", "499"))
expect("still paused", False, ran("paused"))
expect("ADVANCE 1", "OK", ctl("advance", "1"))
s.settimeout(60)
expect("the pause ends", b"$6\r\npaused\r\n", s.recv(12))
expect("PAUSE-CLIENT of no one", "ERR no connection 'c99999' (LOCKLAB CLIENTS lists them)", ctl("pause-client", "c99999", "5"))
before = int(ctl("time"))
expect("JUMP n2 -5000", "OK", ctl("jump", "n2", "-5000"))
expect("n2's clock jumped back", before - 5000, int(ctl("time")))
expect("JUMP n2 back", "OK", ctl("jump", "n2", "5000"))
# clocks are bounded: a JUMP before 1970 or an ADVANCE past the year 5138 is refused, so
# repeated ones never overflow (the audit's 9,224 ADVANCEs of 1e12 ms wrapped the clock)
expect("JUMP n2 -1e12", "OK", ctl("jump", "n2", "-1000000000000"))
expect("JUMP before 0", "ERR the clock of node 'n2' would leave 0..100000000000000 ms (1970 to the year 5138): refused",
       ctl("jump", "n2", "-1000000000000"))
expect("the clock did not move", before - 1000000000000, int(ctl("time")))
expect("JUMP back", "OK", ctl("jump", "n2", "1000000000000"))
EOF
python3 "$tmp/faults.py" "$PORT" "$P2" >"$tmp/faults.out" 2>&1
pass=$((pass + $(grep -c '^ok$' "$tmp/faults.out")))
fail=$((fail + $(grep -c -v '^ok$' "$tmp/faults.out")))
grep -v '^ok$' "$tmp/faults.out"

# a real client library: redis-py's redis.lock.Lock (Debian python3-redis) acquires, is
# refused, extends, and loses its lease when LOCKLAB ADVANCE moves time past it; a crash of
# the node (persistence none) drops the lock for the next client
pyredis=""
for py in /usr/bin/python3 python3; do
    if "$py" -c 'import redis' 2>/dev/null; then pyredis=$py; break; fi
done
if [ -z "$pyredis" ]; then
    bad "redis-py is not installed (Debian python3-redis; make deps installs it)"
else
    cat >"$tmp/pylock.py" <<'EOF'
import redis, sys
port, p2 = int(sys.argv[1]), int(sys.argv[2])
r, ctl = redis.Redis(port=port), redis.Redis(port=p2)
def expect(what, want, got):
    print("ok" if want == got else "FAIL: %s: expected %r, got %r" % (what, want, got))
lock, other = r.lock("res", timeout=10), r.lock("res", timeout=10)
expect("redis-py acquires", True, lock.acquire(blocking=False))
expect("a second Lock is refused", False, other.acquire(blocking=False))
expect("the lease", 10000, r.pttl("res"))
expect("extend by 5 s", True, lock.extend(5))
expect("the lease after extend", 15000, r.pttl("res"))
expect("ADVANCE 15001", b"OK", r.execute_command("LOCKLAB", "ADVANCE", 15001))
expect("the lease ran out under the client", False, lock.owned())
try:
    lock.release()
    expect("release of an expired lock fails", "LockNotOwnedError", "released")
except redis.exceptions.LockNotOwnedError:
    expect("release of an expired lock fails", 1, 1)
expect("the other acquires", True, other.acquire(blocking=False))
expect("CRASH n1", b"OK", ctl.execute_command("LOCKLAB", "CRASH", "n1"))
try:
    other.extend(5)
    expect("a crashed node refuses the client", "ConnectionError", "extended")
except redis.exceptions.ConnectionError:
    expect("a crashed node refuses the client", 1, 1)
expect("RESTART n1", b"OK", ctl.execute_command("LOCKLAB", "RESTART", "n1"))
third = r.lock("res", timeout=10)
expect("after the restart (persistence none) a third acquires", True, third.acquire(blocking=False))
expect("and the second no longer owns it", False, other.owned())
p = r.pipeline(transaction=False)
p.set("pa", 1).incr("pa").get("pa").expire("pa", 100).ttl("pa")
expect("a pipeline", [True, 2, b"2", True, 100], p.execute())
p = r.pipeline()
p.set("tx", 1).incr("tx").get("tx")
expect("a transaction: pipeline() wraps it in MULTI/EXEC", [True, 2, b"2"], p.execute())
r2 = redis.Redis(port=port)
with r.pipeline() as p:
    p.watch("tx")
    r2.set("tx", 10)
    p.multi()
    p.incr("tx")
    try:
        p.execute()
        expect("a watched key written by another connection", "WatchError", "executed")
    except redis.exceptions.WatchError:
        expect("a watched key written by another connection", 1, 1)
expect("the other write stands", b"10", r.get("tx"))
expect("transaction() retries after a WatchError", [11], r.transaction(lambda p: (p.multi(), p.incr("tx")), "tx"))
p = r.pipeline()
p.set("tx", "x").incr("tx").get("tx")
try:
    p.execute()
    expect("a runtime error inside EXEC", "ResponseError", "none")
except redis.exceptions.ResponseError as e:
    expect("a runtime error inside EXEC", True, "not an integer" in str(e))
expect("the commands around it ran", b"x", r.get("tx"))
EOF
    "$pyredis" "$tmp/pylock.py" "$PORT" "$P2" >"$tmp/pylock.out" 2>&1
    pass=$((pass + $(grep -c '^ok$' "$tmp/pylock.out")))
    fail=$((fail + $(grep -c -v '^ok$' "$tmp/pylock.out")))
    grep -v '^ok$' "$tmp/pylock.out"
fi

# the history: LOCKLAB HISTORY and the JSONL file
cli set hk hv >/dev/null
# the last four records: SET, the key it changed (the world's key_set), the disconnect of its
# redis-cli, the connect of this one
h=$(cli locklab history 4 | head -1)
check "LOCKLAB HISTORY 4" '{"t":45502.000,"ev":"exec","actor":"n1","local":1700000045502,"peer":"c' "${h:0:71}"
echo "$h" | grep -q '"text":"\\"set\\" \\"hk\\" \\"hv\\"","reply":"OK"}$' && ok ||
    bad "the history has the command and its reply: $h"
check "LOCKLAB HISTORY RESET" OK "$(cli locklab history reset)"
check "then the RESET is the first record" '"text":"\"locklab\" \"history\" \"reset\"","reply":"OK"}' \
    "$(cli locklab history | head -1 | sed 's/.*,"text"/"text"/')"
stop_serve main
python3 - "$tmp/history.jsonl" >"$tmp/json.out" 2>&1 <<'EOF'
import json, sys
evs = [json.loads(line) for line in open(sys.argv[1])]
kinds = {e["ev"] for e in evs}
need = {"connect", "disconnect", "exec", "protocol_error", "fault", "node_down", "node_up"}
assert need <= kinds, need - kinds
assert any(e["ev"] == "exec" and e.get("text") == '"set" "k" "v"' and e.get("reply") == "OK" for e in evs)
assert all(set(e) <= {"t", "ev", "actor", "local", "peer", "text", "reply", "text_b64", "reply_b64", "deadline",
                      "fault", "fault_id", "by", "duration", "probability", "restart_after", "rate", "lost", "why",
                      "label", "label_b64", "kept"} for e in evs)
# the world's own events: a key's change with its deadline, faults typed as a scenario's
assert any(e["ev"] == "key_set" and e.get("text") == "k" for e in evs)
assert any(e["ev"] == "fault" and e.get("fault") == "crash" and "fault_id" in e for e in evs)
# the schema's strings (docs/history.md): bytes that are not UTF-8 as U+FFFD, and exactly in *_b64
import base64
pe = [e for e in evs if e["ev"] == "protocol_error" and "text_b64" in e]
assert pe and base64.b64decode(pe[0]["text_b64"]).endswith(b"got '\xff'"), pe[:1]
print(len(evs))
EOF
[ $? -eq 0 ] && ok || bad "the --json history: $(cat "$tmp/json.out")"

# the history's bound (--history-max 100): kept in chunks, the oldest dropped whole, and
# always exactly the last 100 records shown, in order, after 1,000 INCRs (each an exec and
# the world's key_set: the last 50 of them)
start_serve histmax 1 --clock manual --history-max 100 || bad "the history-max server does not start"
python3 - "$PORT" >"$tmp/histmax.out" 2>&1 <<'EOF'
import json, socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1]))); s.settimeout(30)
s.sendall(b"".join(b"*2\r\n$4\r\nINCR\r\n$3\r\nctr\r\n" for _ in range(1000)))
got = b""
while got.count(b"\r\n") < 1000: got += s.recv(65536)
s.sendall(b"*2\r\n$7\r\nLOCKLAB\r\n$7\r\nHISTORY\r\n")
got = b""
while not got.startswith(b"*") or got.count(b"\r\n") < 1 + 2 * int(got[1:got.index(b"\r\n")]): got += s.recv(65536)
lines = got.split(b"\r\n")[1:-1]
recs = [json.loads(lines[i]) for i in range(1, len(lines), 2)]
replies = [int(r["reply"]) for r in recs if r["ev"] == "exec"]
sets = [r["reply"] for r in recs if r["ev"] == "key_set"]
print(len(recs), replies[0], replies[-1], replies == list(range(replies[0], 1001)), sets[-1])
EOF
check "--history-max 100 after 1,000 INCRs: the last 100 records, in order" \
    '100 951 1000 True "1000"' "$(cat "$tmp/histmax.out")"
stop_serve histmax

# ---- persistence always and everysec; a scenario's replicas ----
start_serve always 2 --clock manual --nodes 2 --persistence always || bad "the always server does not start"
redis-cli -p "$((PORT + 1))" set k v px 60000 >/dev/null
cli locklab crash n2 >/dev/null
cli locklab advance 1000 >/dev/null
cli locklab restart n2 >/dev/null
check "always keeps the key, its TTL on the clock" 59000 "$(redis-cli -p "$((PORT + 1))" pttl k)"
stop_serve always
start_serve everysec 2 --clock manual --nodes 2 --persistence everysec || bad "the everysec server does not start"
P2=$((PORT + 1))
redis-cli -p "$P2" set before 1 >/dev/null
cli locklab advance 1000 >/dev/null
redis-cli -p "$P2" set after 1 >/dev/null
cli locklab crash n2 >/dev/null
cli locklab restart n2 >/dev/null
check "everysec keeps the last whole second" "1:0" "$(redis-cli -p "$P2" exists before):$(redis-cli -p "$P2" exists after)"
stop_serve everysec
# A scenario's world, served: failover-async-replication's replication lag (50-100 ms), its
# crash of n1 at 20 ms and its failover (down_after 1 s), as `locklab run` plays them.
start_serve replicas 2 --clock manual --scenario failover-async-replication || bad "the scenario server does not start"
check "nodes from the scenario" "n1 n1r1" "$(cli locklab nodes | cut -d' ' -f1 | tr '\n' ' ' | sed 's/ $//')"
cli set k v px 5000 >/dev/null
check "the replica has not the key yet (the lag)" "" "$(redis-cli -p "$((PORT + 1))" get k)"
check "the replica refuses writes" "READONLY You can't write against a read only replica." "$(redis-cli -p "$((PORT + 1))" set x y)"
redis-cli -p "$((PORT + 1))" locklab advance 1500 >/dev/null
check "the scenario's crash of n1 at 20 ms, and the failover" "n1 down master|n1r1 up master" \
    "$(redis-cli -p "$((PORT + 1))" locklab nodes | awk '{ print $1, $3, $4 }' | tr '\n' '|' | sed 's/|$//')"
check "the write had not reached n1r1: lost" 0 "$(redis-cli -p "$((PORT + 1))" exists k)"
stop_serve replicas
start_serve replicas2 2 --clock manual --nodes 1 --replicas 1 || bad "the --replicas server does not start"
cli set k v px 5000 >/dev/null
cli locklab advance 10 >/dev/null
check "the replica has the key once the lag passed" v "$(redis-cli -p "$((PORT + 1))" get k)"
cli locklab advance 4991 >/dev/null
check "the master's expiry reaches the replica" "" "$(redis-cli -p "$((PORT + 1))" get k)"
stop_serve replicas2

# ---- wall clock ----
start_serve wall 1 --clock wall || bad "the wall-clock server does not start"
now=$(date +%s)
t=$(cli time | head -1)
[ $((t - now)) -le 86400 ] && [ $((now - t)) -le 86400 ] && ok || bad "--clock wall: TIME $t is not today ($now)"
# TIME has microseconds: of 5 readings, one not a whole millisecond (all five are with
# odds of 1e-15; the ms clock answered only whole ones)
us=$(for _ in 1 2 3 4 5; do cli time | tail -1; done | awk '$1 % 1000 { n++ } END { print n + 0 }')
[ "$us" -ge 1 ] && ok || bad "--clock wall: TIME's microseconds are whole milliseconds"
cli set k v px 1000000000 >/dev/null
p=$(cli pttl k)
[ "$p" -gt 0 ] && [ "$p" -le 1000000000 ] && ok || bad "--clock wall: PTTL $p"
cli locklab advance 100000000 >/dev/null
p2=$(cli pttl k)
[ "$p2" -le $((p - 100000000)) ] && ok || bad "--clock wall: ADVANCE jumps the clock ($p then $p2)"
stop_serve wall
# A script running long: past busy-reply-threshold other clients get -BUSY; SCRIPT KILL
# ends it (a loop around a 30 MB string.find too: audit D05), not once it has written
# (UNKILLABLE); SIGTERM still stops the server. Every wait is a bounded poll.
start_serve busy 1 --clock wall || bad "the busy server does not start"
cat >"$tmp/busy.py" <<'EOF'
import socket, sys, time
port = int(sys.argv[1])
BUSY = b"-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.\r\n"
def conn():
    s = socket.create_connection(("127.0.0.1", port)); s.settimeout(120); return s
def ask(s, line):
    s.sendall(line.encode() + b"\r\n")
    return s.recv(65536)
def expect(what, want, got):
    print("ok" if want == got else "FAIL: %s: expected %r, got %r" % (what, want, got))
def until_busy():
    for _ in range(600):
        got = ask(conn(), "ping")
        if got != b"+PONG\r\n":
            return got
        time.sleep(0.02)
    return None
a = conn()
expect("CONFIG SET busy-reply-threshold", b"+OK\r\n", ask(a, "config set busy-reply-threshold 100"))
for name, script in (("a spinning loop", "while true do end"),
                     ("a loop of 30 MB string.find", "local s=string.rep('a',3e7) while true do s:find('b',1,true) end")):
    e = conn()
    e.sendall(b"eval \"" + script.encode() + b"\" 0\r\n")
    expect("%s: other clients get BUSY" % name, BUSY, until_busy())
    expect("%s: FUNCTION KILL does not end an EVAL" % name, BUSY, ask(conn(), "function kill"))
    expect("%s: SCRIPT KILL" % name, b"+OK\r\n", ask(conn(), "script kill"))
    expect("%s: the EVAL is answered" % name, True, e.recv(1000).startswith(b"-ERR Script killed by user with SCRIPT KILL..."))
    expect("%s: then the server answers" % name, b"+PONG\r\n", ask(conn(), "ping"))
# a subscriber that never reads is closed past 32 MB of output (Redis's pubsub limit; D06)
sub = conn()
sub.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
sub.sendall(b"subscribe big\r\n")
for _ in range(200):
    if ask(a, "pubsub numsub big") == b"*2\r\n$3\r\nbig\r\n:1\r\n":
        break
    time.sleep(0.01)
pub, got, big = conn(), [], b"y" * (1 << 20)
for _ in range(40):
    pub.sendall(b"*3\r\n$7\r\npublish\r\n$3\r\nbig\r\n$%d\r\n%s\r\n" % (len(big), big))
    got.append(pub.recv(100))
expect("a subscriber that never reads is dropped past 32 MB", (b":1\r\n", b":0\r\n"), (got[0], got[-1]))
# MULTI runs while a script is busy (Redis's allow-busy); a command queued then gets BUSY
# and marks the transaction: EXEC answers EXECABORT (Redis's multi.tcl "script timeout")
e, m = conn(), conn()
e.sendall(b"eval \"while true do end\" 0\r\n")
expect("busy again", BUSY, until_busy())
expect("MULTI while busy", b"+OK\r\n", ask(m, "multi"))
expect("INCR while busy, in MULTI", BUSY, ask(m, "incr xx"))
expect("SCRIPT KILL", b"+OK\r\n", ask(conn(), "script kill"))
expect("the EVAL is answered", True, e.recv(1000).startswith(b"-ERR Script killed by user with SCRIPT KILL..."))
expect("EXEC after a refused command", b"-EXECABORT Transaction discarded because of previous errors.\r\n", ask(m, "exec"))
expect("SCRIPT KILL with no script", b"-NOTBUSY No scripts in execution right now.\r\n", ask(a, "script kill"))
expect("FUNCTION LOAD", b"$4\r\nspin\r\n",
       ask(a, "function load \"#!lua name=spin\\nredis.register_function('spin', function() while true do end end)\""))
e = conn()
e.sendall(b"fcall spin 0\r\n")
expect("a function: BUSY names FUNCTION KILL", BUSY.replace(b"SCRIPT KILL", b"FUNCTION KILL"), until_busy())
expect("SCRIPT KILL does not end a function", BUSY.replace(b"SCRIPT KILL", b"FUNCTION KILL"), ask(conn(), "script kill"))
expect("FUNCTION KILL", b"+OK\r\n", ask(conn(), "function kill"))
expect("the FCALL is answered", True, e.recv(1000).startswith(b"-ERR Script killed by user with SCRIPT KILL... script: spin, on @user_function:2."))
e = conn()
e.sendall(b"eval \"redis.call('set', 'w', 1) while true do end\" 0\r\n")
expect("a writing script: BUSY", BUSY, until_busy())
expect("SCRIPT KILL once it has written", True, ask(conn(), "script kill").startswith(b"-UNKILLABLE Sorry the script already executed write commands"))
EOF
python3 "$tmp/busy.py" "$PORT" >"$tmp/busy-py.out" 2>&1
pass=$((pass + $(grep -c '^ok$' "$tmp/busy-py.out")))
fail=$((fail + $(grep -c -v '^ok$' "$tmp/busy-py.out")))
grep -v '^ok$' "$tmp/busy-py.out"
stop_serve busy

# Out of file descriptors (ulimit -n 64, 100 connections): accepting pauses and resumes, one
# line said, no spinning (audit D07: 190,000 lines a second); the server still answers.
eok=1
for _ in $(seq 1 40); do # a free port, as start_serve finds one
    eport=$((7400 + RANDOM % 100))
    (ulimit -n 64 && exec "$LL" serve --port "$eport" >"$tmp/emfile.out" 2>"$tmp/emfile.err") &
    epid=$!
    pids+=("$epid")
    started emfile "$epid" && { eok=0; break; }
    kill "$epid" 2>/dev/null
    wait "$epid" 2>/dev/null
    forget "$epid"
done
if [ "$eok" -eq 0 ]; then
    python3 - "$eport" <<'EOF'
import socket, sys, time
s = []
for _ in range(100):
    try:
        s.append(socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5))
    except OSError:
        pass
time.sleep(1)
EOF
    # once per episode (an accept that works between two ends one): a few lines, never the
    # thousands a second of a listener that spins
    said=$(grep -c 'cannot accept a connection: Too many open files' "$tmp/emfile.err")
    [ "$said" -ge 1 ] && [ "$said" -le 10 ] && ok || bad "out of descriptors: said $said times (1 to 10 expected)"
    check "out of descriptors: then it answers again" PONG "$(redis-cli -p "$eport" ping)"
    kill -TERM "$epid"
    wait "$epid"
    check "out of descriptors: exit status after SIGTERM" 0 "$?"
else
    bad "the server under ulimit -n 64 does not start"
fi
forget "$epid"

# --requirepass: every command (LOCKLAB ones too) waits for AUTH; HELLO's AUTH option
# (audit D15). Protected mode: without a password, a client from another address of this
# host than loopback gets Redis's DENIED line (skipped when the host has no other address).
start_serve auth 1 --clock manual --requirepass s3cret || bad "the --requirepass server does not start"
check "NOAUTH before AUTH, LOCKLAB included" "NOAUTH Authentication required.|NOAUTH Authentication required." \
    "$(printf 'ping\nlocklab crash n1\n' | cli | sed '/^$/d' | tr '\n' '|' | sed 's/|$//')"
check "AUTH wrong, AUTH default wrong, AUTH right" \
    "WRONGPASS invalid username-password pair or user is disabled.|WRONGPASS invalid username-password pair or user is disabled.|OK|PONG" \
    "$(printf 'auth nope\nauth default nope\nauth s3cret\nping\n' | cli | sed '/^$/d' | tr '\n' '|' | sed 's/|$//')"
check "HELLO without AUTH, HELLO AUTH right" "NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO <proto> AUTH <user> <pass> option can be used to authenticate the client and select the RESP protocol version at the same time|server|redis" \
    "$(printf 'hello 2\nhello 2 auth default s3cret\n' | cli | sed '/^$/d' | head -3 | tr '\n' '|' | sed 's/|$//')"
check "AUTH without a password configured (Redis's text)" \
    "ERR AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?" \
    "$("$LL" redis <<<'auth x' | sed 's/^(error) //')"
stop_serve auth
other=$(python3 -c 'import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
try:
    s.connect(("192.0.2.1", 9)); a = s.getsockname()[0]
    print("" if a.startswith("127.") else a)
except OSError:
    print("")')
if [ -n "$other" ]; then
    start_serve protected 1 --bind 0.0.0.0 || bad "the --bind 0.0.0.0 server does not start"
    check "protected mode: a client from $other is refused" "DENIED Redis is running in protected mode" \
        "$(redis-cli -h "$other" -p "$PORT" ping 2>&1 | cut -c1-41)"
    check "protected mode: loopback is served" PONG "$(cli ping)"
    stop_serve protected
else
    echo "SKIP: protected mode: this host has no address but loopback"
fi

# ADVANCE up to the bound of the clocks, and no further (no overflow however many)
start_serve bounds 1 --clock manual || bad "the bounds server does not start"
# OBJECT IDLETIME: whole seconds since the key was last used; TYPE, EXISTS, TTL and
# OBJECT itself look without touching it (Redis's LOOKUP_NOTOUCH), GET touches it
check "OBJECT IDLETIME after 5 s, then a GET, then 3 s of TYPE, EXISTS, TTL" "OK|OK|5|v|0|OK|string|1|-1|3" \
    "$(printf 'set idle v\nlocklab advance 5000\nobject idletime idle\nget idle\nobject idletime idle\nlocklab advance 3000\ntype idle\nexists idle\nttl idle\nobject idletime idle\n' |
        cli | tr '\n' '|' | sed 's/|$//')"
for _ in $(seq 1 98); do echo "locklab advance 1000000000000"; done | cli >"$tmp/bounds.out"
check "98 ADVANCEs of 1e12 ms" 98 "$(grep -c '^OK$' "$tmp/bounds.out")"
check "ADVANCE past the bound" "ERR the clock of node 'n1' would pass 100000000000000 ms (the year 5138): refused" \
    "$(cli locklab advance 1000000000000)"
check "TIME on the manual clock" "$(($(cli locklab time) / 1000))|0" "$(cli time | tr '\n' '|' | sed 's/|$//')"
stop_serve bounds

# ---- a real redis-server beside it: the same bytes for the same requests ----
start_redis
[ -n "$rport" ] && ok || bad "no redis-server to compare with"

# pub/sub over raw sockets, byte for byte against redis-server: SUBSCRIBE and PSUBSCRIBE
# confirmations, message and pmessage, what a subscribed connection may not run (Redis's
# error, with a container's subcommand), PING there, PUBSUB NUMPAT / NUMSUB / CHANNELS,
# PUNSUBSCRIBE and UNSUBSCRIBE with and without names, shard channels (SSUBSCRIBE, SPUBLISH,
# smessage), RESET. Each step's output is read up to
# the reply to a PING sent after it (which a subscribed connection may send).
cat >"$tmp/pubsub.py" <<'PYEOF'
import socket, sys
port = int(sys.argv[1])
def conn():
    s = socket.create_connection(("127.0.0.1", port)); s.settimeout(5); return s
def send(s, *words):
    out = b"*%d\r\n" % len(words)
    for w in words:
        w = w.encode()
        out += b"$%d\r\n%s\r\n" % (len(w), w)
    s.sendall(out)
def upto(s, marker):
    """What s receives before the reply to PING marker (a bulk, or ["pong", marker])."""
    send(s, "ping", marker)
    data, end = b"", b"\r\n" + marker.encode() + b"\r\n"
    while not data.endswith(end):
        data += s.recv(65536)
    cut = data.rindex(b"$%d\r\n" % len(marker))
    if data[:cut].endswith(b"$4\r\npong\r\n"):
        cut -= len(b"*2\r\n$4\r\npong\r\n")
    return data[:cut]
a, b = conn(), conn()
steps = [(a, ("psubscribe", "news.*", "h?llo")), (a, ("subscribe", "news.a")), (a, ("get", "x")),
         (a, ("pubsub", "numpat")), (a, ("client", "id")), (a, ("ping",)), (a, ("ping", "hi")),
         (b, ("publish", "news.a", "m1")), (b, ("publish", "hello", "m2")), (b, ("publish", "none", "m3")),
         (b, ("pubsub", "numpat")), (b, ("pubsub", "numsub", "news.a", "zz")), (b, ("pubsub", "channels")),
         (b, ("pubsub", "channels", "x*")), (a, ("punsubscribe", "h?llo")), (a, ("punsubscribe",)),
         (a, ("unsubscribe",)), (a, ("unsubscribe",)), (a, ("punsubscribe",)), (a, ("ping",)),
         (a, ("ssubscribe", "s1")), (a, ("get", "x")), (b, ("spublish", "s1", "m4")), (b, ("publish", "s1", "m5")),
         (b, ("pubsub", "shardnumsub", "s1", "s2")), (b, ("pubsub", "shardchannels")), (a, ("sunsubscribe",)),
         (a, ("subscribe", "z")), (a, ("psubscribe", "y*")), (a, ("reset",)), (a, ("get", "x")),
         (b, ("pubsub", "numpat"))]
# keyspace notifications' class n ("new": a key made), beside g, $, l, s: its place among a
# command's events (RENAME's and MOVE's first), a key overwritten or made again, "An" read back
steps += [(b, ("del", "nk1", "nk2", "nk3", "nk4", "nk5", "nl", "ns")), (b, ("select", "9")), (b, ("del", "nk5")),
          (b, ("select", "0")), (a, ("psubscribe", "__key*")),
          (b, ("config", "set", "notify-keyspace-events", "KEng$ls")), (b, ("config", "get", "notify-keyspace-events")),
          (b, ("set", "nk1", "v")), (b, ("set", "nk1", "w")), (b, ("mset", "nk2", "1", "nk3", "2")),
          (b, ("rename", "nk1", "nk4")), (b, ("rename", "nk2", "nk3")), (b, ("copy", "nk3", "nk5")),
          (b, ("copy", "nk4", "nk5", "replace")), (b, ("move", "nk5", "9")), (b, ("rpush", "nl", "a", "b")),
          (b, ("lmove", "nl", "nl2", "left", "right")), (b, ("smove", "nx", "ns", "m")), (b, ("sadd", "ns", "m")),
          (b, ("incr", "nk6")), (b, ("del", "nk4", "nk3", "nl", "nl2", "ns", "nk6")),
          (b, ("config", "set", "notify-keyspace-events", "An")), (b, ("config", "get", "notify-keyspace-events")),
          (b, ("config", "set", "notify-keyspace-events", "")), (b, ("select", "9")), (b, ("del", "nk5")), (b, ("select", "0")),
          (a, ("punsubscribe",))]
for i, (s, words) in enumerate(steps):
    send(s, *words)
    print(repr(words), repr(upto(s, "mark%d" % i)))
    if s is b:
        print("  the subscriber then:", repr(upto(a, "after%d" % i)))
PYEOF
same_bytes pubsub "pub/sub over raw sockets" '[ "$(wc -l <"$tmp/pubsub.redis")" -ge 50 ]' --clock manual

# CLIENT UNBLOCK (TIMEOUT, ERROR, the default) of each blocking command, its refusals, and
# the replies serve answers itself (a timeout's null, WAIT's count, UNBLOCKED, AUTH's, QUIT),
# in RESP2 and after HELLO 3, byte for byte against redis-server. Each wait is seen through
# INFO's blocked_clients (a bounded poll); ids are printed as "id" (they differ).
cat >"$tmp/unblock.py" <<'PYEOF'
import socket, sys, time
port = int(sys.argv[1])
def conn():
    s = socket.create_connection(("127.0.0.1", port)); s.settimeout(10); return s
def send(s, *words):
    out = b"*%d\r\n" % len(words)
    for w in words:
        w = w.encode()
        out += b"$%d\r\n%s\r\n" % (len(w), w)
    s.sendall(out)
class Reader:
    def __init__(self, s): self.s, self.buf = s, b""
    def line(self):
        while b"\r\n" not in self.buf: self.buf += self.s.recv(65536)
        l, self.buf = self.buf.split(b"\r\n", 1)
        return l + b"\r\n"
    def take(self, n):
        while len(self.buf) < n: self.buf += self.s.recv(65536)
        d, self.buf = self.buf[:n], self.buf[n:]
        return d
    def reply(self):
        """One whole RESP2 or RESP3 reply, its bytes as they came."""
        l = self.line()
        t, body = l[:1], l[1:-2]
        if t in b"$=!" and body != b"-1" and body != b"?": return l + self.take(int(body) + 2)
        if t in b"*>~%|" and body != b"-1":
            n = int(body) * (2 if t in b"%|" else 1)
            return l + b"".join(self.reply() for _ in range(n))
        return l
a, b = conn(), conn()
ra, rb = Reader(a), Reader(b)
def ask(r, s, *words):
    send(s, *words)
    return r.reply()
bid = ask(rb, b, "client", "id")[1:-2].decode()
def blocked(n):
    for _ in range(400):
        info = ask(ra, a, "info", "clients").decode()
        if "blocked_clients:%d\r\n" % n in info: return True
        time.sleep(0.01)
    return False
def show(what, data):
    print(what.replace(repr(bid), "'id'"), repr(data))
# each with T where its timeout goes: 0 to wait, and then 10 ms
pops = [("blpop", "l", "T"), ("brpop", "l", "T"), ("blmpop", "T", "1", "l", "right"),
        ("blmove", "l", "m", "left", "right", "T"), ("brpoplpush", "l", "m", "T"), ("bzpopmin", "z", "T"),
        ("bzpopmax", "z", "T"), ("bzmpop", "T", "1", "z", "min"), ("wait", "1", "T")]
def timeout(pop, t):
    return tuple(t if w == "T" else w for w in pop)
for proto in ("2", "3"):
    for s, r in ((a, ra), (b, rb)):
        ask(r, s, "hello", proto)
    for pop in pops:
        for how in ((), ("timeout",), ("ERROR",)):
            send(b, *timeout(pop, "0"))
            print(proto, pop[0], how, "blocked:", blocked(1))
            show("  unblock:", ask(ra, a, "client", "unblock", bid, *how))
            show("  the blocked one gets:", rb.reply())
        show("  a timeout of 10 ms:", ask(rb, b, *timeout(pop, "10" if pop[0] == "wait" else "0.01")))
    send(b, "blpop", "l", "0")
    print(proto, "blocked again:", blocked(1))
    for words in (("asd",), (bid, "foo"), ("asd", "foo"), (bid, "error", "x"), ("0",), ("-1",),
                  ("99999999999999999999",), ()):
        show("  client unblock %r:" % (words,), ask(ra, a, "client", "unblock", *words))
    show("  client unblock of itself:", ask(ra, a, "client", "unblock", ask(ra, a, "client", "id")[1:-2].decode()))
    send(a, "multi"); send(a, "client", "unblock", bid); send(a, "client", "unblock", bid, "error"); send(a, "exec")
    show("  two in one MULTI:", b"".join(ra.reply() for _ in range(4)))
    show("  the blocked one gets:", rb.reply())
    show("  and goes on:", ask(rb, b, "ping"))
    for words in (("auth", "x"), ("auth", "a", "b", "c"), ("quit",)):
        show("  %r:" % (words,), ask(rb, b, *words))
    b = conn()
    rb = Reader(b)
    bid = ask(rb, b, "client", "id")[1:-2].decode()
PYEOF
same_bytes unblock "CLIENT UNBLOCK and RESP3 replies over raw sockets" \
    '[ "$(grep -c "blocked: True" "$tmp/unblock.redis")" -eq 54 ]' --clock wall

# INFO's commandstats and errorstats of blocking commands, against redis-server: a blocked
# command is one call however many writes it sees before it is served (Redis counts it
# when it blocks); CLIENT UNBLOCK fails it (TIMEOUT too), and ERROR counts
# errorstat_UNBLOCKED and fails the CLIENT UNBLOCK that sent it (Redis 7.0's clientCommand,
# updateStatsOnUnblock). CONFIG RESETSTAT starts them from nothing. INFO's own line is left
# out (the polls vary), and the usec fields.
cat >"$tmp/blockstats.py" <<'PYEOF'
import re, socket, sys, time
port = int(sys.argv[1])
def conn():
    s = socket.create_connection(("127.0.0.1", port)); s.settimeout(10); return s
def send(s, *words):
    s.sendall(b"*%d\r\n" % len(words) + b"".join(b"$%d\r\n%s\r\n" % (len(w), w) for w in (x.encode() for x in words)))
def reply(s):
    data = b""
    while not data.endswith(b"\r\n") or (data[:1] == b"$" and data.count(b"\r\n") < 2 and not data.startswith(b"$-1")):
        data += s.recv(65536)
    return data
def ask(s, *words):
    send(s, *words)
    return reply(s)
def blocked(s, n):
    for _ in range(400):
        if b"blocked_clients:%d\r\n" % n in ask(s, "info", "clients"): return True
        time.sleep(0.01)
    return False
a, b = conn(), conn()
ask(a, "flushall")
bid = ask(b, "client", "id")[1:-2].decode()
ask(a, "config", "resetstat")
send(b, "blpop", "l", "0")                      # served after three other writes
print("blpop blocked:", blocked(a, 1))
ask(a, "set", "x", "1"); ask(a, "lpush", "other", "1"); ask(a, "sadd", "s", "1"); ask(a, "rpush", "l", "v")
print("blpop gets:", reply(b))
print("brpop times out:", ask(b, "brpop", "l", "0.01"))
for cmd, how in ((("blmove", "l", "m", "left", "right", "0"), ()), (("bzpopmin", "z", "0"), ("error",)),
                 (("wait", "1", "0"), ("error",)), (("blmpop", "0", "1", "l", "left"), ("timeout",))):
    send(b, *cmd)
    print(cmd[0], "blocked:", blocked(a, 1), "unblock", how, ask(a, "client", "unblock", bid, *how), "gets", reply(b))
for section in ("commandstats", "errorstats"): # Redis lists them in its dict's order: sorted here
    lines = ask(a, "info", section).decode().split("\r\n")[1:]
    for line in sorted(l for l in lines if ":" in l and not l.startswith("cmdstat_info:")):
        print(re.sub(r"usec=[0-9]+,usec_per_call=[0-9.]+,", "", line))
PYEOF
same_bytes blockstats "INFO commandstats/errorstats of blocked commands" \
    'grep -q "^cmdstat_blpop:calls=1,rejected_calls=0,failed_calls=0$" "$tmp/blockstats.redis"' --clock wall

# INFO stats' total_error_replies, errorstats and commandstats against redis-server, as
# Redis 7.0.15 counts them (networking.c, afterErrorReply; script.c, scriptCall): every error
# reply, one in EXEC's array or at any depth of a script's too; a redis.call's or pcall's
# error once, when its command replies, even if the script returns it or catches it (the
# call that returns it failed once for each, ERR_REPLY_FLAG_NO_STATS_UPDATE); a script's
# arguments refused before any command ran, then counted as the script's error; the
# commands a script calls in commandstats (refused: rejected_calls). Then CONFIG RESETSTAT:
# total_error_replies, total_connections_received and total_commands_processed from 0
# (resetServerStats; the RESETSTAT itself counted once it ends), a new connection counted.
cat >"$tmp/errstats.py" <<'PYEOF'
import re, socket, sys
port = int(sys.argv[1])
def conn():
    s = socket.create_connection(("127.0.0.1", port)); s.settimeout(10); return s
def send(s, *words):
    s.sendall(b"*%d\r\n" % len(words) + b"".join(b"$%d\r\n%s\r\n" % (len(w), w) for w in (x.encode() for x in words)))
class Reader:
    def __init__(self, s): self.s, self.buf = s, b""
    def line(self):
        while b"\r\n" not in self.buf: self.buf += self.s.recv(65536)
        l, self.buf = self.buf.split(b"\r\n", 1)
        return l
    def reply(self):
        l = self.line()
        if l[:1] in (b"$",) and int(l[1:]) >= 0:
            n = int(l[1:])
            while len(self.buf) < n + 2: self.buf += self.s.recv(65536)
            d, self.buf = self.buf[:n], self.buf[n + 2:]
            return l + b"\r\n" + d + b"\r\n"
        if l[:1] == b"*" and int(l[1:]) >= 0:
            return l + b"\r\n" + b"".join(self.reply() for _ in range(int(l[1:])))
        return l + b"\r\n"
a = conn(); ra = Reader(a)
m = conn(); rm = Reader(m)   # INFO on a connection of its own: a's may be in MULTI
def ask(*words):
    send(a, *words); return ra.reply()
def info(section):
    send(m, "info", section)
    return dict(l.split(":", 1) for l in rm.reply().decode().split("\r\n")[1:] if ":" in l)
def total():
    return info("stats")["total_error_replies"]
ask("flushall"); ask("function", "flush")
ask("config", "resetstat")
print("after resetstat:", total())
steps = [
    ("set", "s", "abc"), ("incr", "s"), ("nosuchcommand",), ("get",), ("lpush", "s", "x"),
    ("multi",), ("incr", "s"), ("lpush", "s", "x"), ("set", "t", "1"), ("exec",),
    ("multi",), ("get",), ("exec",),
    ("eval", "return redis.call('incr','s')", "0"),
    ("eval", "return redis.pcall('incr','s')", "0"),
    ("eval", "redis.pcall('incr','s'); return 1", "0"),
    ("eval", "return {1, {err='nested one'}, redis.pcall('incr','s'), {{err='deeper x'}}}", "0"),
    ("eval", "error('boom')", "0"),
    ("eval", "return {err='MYERR x'}", "0"),
    ("eval", "return {err='x'}", "0"),
    ("eval", "return {err='" + "A" * 30 + " x'}", "0"),
    ("eval", "return {err='" + "B" * 31 + " x'}", "0"),
    ("eval", "return redis.pcall('nosuch')", "0"),
    ("eval", "redis.pcall('nosuch'); redis.pcall('eval','return 1', '0'); redis.pcall('get'); return 2", "0"),
    ("eval", "return redis.call()", "0"),
    ("eval", "redis.call('set', 'k', 'v') return redis.call('get', 'k')", "0"),
    ("eval_ro", "return redis.pcall('set', 'k', 'v')", "0"),
    ("eval", "return redis.pcall('config', 'get', 'maxmemory')", "0"),
    ("eval", "return redis.pcall('config', 'nosuch')", "0"),
    ("eval", "return redis.call('get', {})", "0"),
    ("eval", "local ok, e = pcall(redis.call, 'incr', 's') return e", "0"),
    ("eval", "local ok, e = pcall(redis.call, 'incr', 's') error(e)", "0"),
    ("eval", "return redis.error_reply('MINE one')", "0"),
    ("eval", "return redis.status_reply('fine')", "0"),
    ("eval", "return 1 +", "0"),
    ("evalsha", "f" * 40, "0"),
    ("eval", "return 1", "-1"),
    ("fcall", "nosuch", "0"),
    ("function", "load", "#!lua name=lib\nredis.register_function('f', function(k, a) redis.pcall('incr', 's') return redis.call('incr', 's') end)\nredis.register_function('g', function(k, a) return {err='FN failed'} end)"),
    ("fcall", "f", "0"), ("fcall", "g", "0"), ("fcall_ro", "f", "0"),
    ("function", "load", "#!lua name=bad\nreturn 1"),
    ("subscribe", "ch"),
]
for w in steps:
    r = ask(*w)
    print(repr(w)[:70], r[:60], total())
print("subscribed, get:", ask("get", "s"), total())
ask("reset")
send(m, "info", "errorstats")
for l in sorted(rm.reply().decode().split("\r\n")[1:]):
    if l: print(l)
send(m, "info", "commandstats")
for l in sorted(rm.reply().decode().split("\r\n")[1:]):
    if l.startswith("cmdstat_"):
        print(re.sub(r"usec=[0-9]+,usec_per_call=[0-9.]+,", "", l))
ask("config", "resetstat")
st = info("stats")
print("after resetstat:", {k: st[k] for k in ("total_connections_received", "total_commands_processed", "total_error_replies")})
b = conn(); rb = Reader(b); send(b, "ping"); rb.reply(); b.close()
st = info("stats")
print("a new connection:", {k: st[k] for k in ("total_connections_received", "total_commands_processed", "total_error_replies")})
ask("function", "flush")
PYEOF
same_bytes errstats "INFO total_error_replies, errorstats, commandstats, CONFIG RESETSTAT" \
    'grep -q "^a new connection: {.total_connections_received.: .1., .total_commands_processed.: .3." "$tmp/errstats.redis" &&
     grep -q "^cmdstat_eval:calls=22,rejected_calls=1,failed_calls=18$" "$tmp/errstats.redis"' --clock wall

# What Redis's own test suite reads of a connection (issue 39), byte for byte against
# redis-server: CLIENT REPLY SKIP then ON answers +OK (Redis's test client waits for it);
# CLIENT KILL's USER filter (the default user, or "No such user"); CLIENT INFO and LIST name
# a subcommand (cmd=client|info) and count the query buffer as Redis does (qbuf=26 for the
# CLIENT INFO it holds); the fields of the allocator and the addresses are masked. Then
# cmsgpack.pack of {x=<table>, y=5}, 20 times, on fresh connections: Redis's Lua 5.1 packs y
# first (the suite's 'cmsgpack can pack and unpack circular references').
cat >"$tmp/introspect.py" <<'PYEOF'
import re, socket, sys
port = int(sys.argv[1])
def conn():
    s = socket.create_connection(("127.0.0.1", port)); s.settimeout(10); return s
def send(s, *words):
    out = b"*%d\r\n" % len(words)
    for w in words:
        w = w.encode() if isinstance(w, str) else w
        out += b"$%d\r\n%s\r\n" % (len(w), w)
    s.sendall(out)
def upto(s, end):
    buf = b""
    while not buf.endswith(end):
        d = s.recv(65536)
        if not d: return buf + b"<closed>"
        buf += d
    return buf
mask = re.compile(rb"(id|addr|laddr|fd|age|idle|qbuf-free|argv-mem|rbs|rbp|tot-mem)=[^ ]*")
a = conn()
a.sendall(b"CLIENT REPLY SKIP\r\nCLIENT REPLY ON\r\nPING\r\n")
print("SKIP;ON;PING:", repr(upto(a, b"+PONG\r\n")))
a.sendall(b"CLIENT REPLY SKIP\r\nPING x\r\nPING y\r\n")
print("SKIP;PING x;PING y:", repr(upto(a, b"y\r\n")))
a.sendall(b"CLIENT REPLY OFF\r\nCLIENT REPLY SKIP\r\nPING z\r\nCLIENT REPLY ON\r\nPING w\r\n")
print("OFF;SKIP;PING z;ON;PING w:", repr(upto(a, b"w\r\n")))
b = conn()
for words in (("client", "kill", "user", "nosuchuser"), ("client", "kill", "skipme", "no", "id", "999999", "user", "default"),
              ("client", "kill", "user", "default", "type", "pubsub"), ("client", "kill", "user"),
              ("client", "kill", "user", "Default")):
    send(b, *words)
    print(words, repr(upto(b, b"\r\n")))
send(b, "client", "info")
print("client info:", repr(mask.sub(rb"\1=*", upto(b, b"\n\r\n").split(b"\r\n", 1)[1])))
send(b, "client", "list", "type", "normal")
lines = upto(b, b"\n\r\n").split(b"\r\n", 1)[1].split(b"\n")
print("client list:", [mask.sub(rb"\1=*", l) for l in lines if l])
send(b, "config", "get", "port")
upto(b, b"%d\r\n" % port)
send(b, "client", "info")
print("after CONFIG GET:", re.findall(rb"cmd=[^ ]*", upto(b, b"\n\r\n")))
send(b, "client", "id")
bid = upto(b, b"\r\n")[1:-2].decode()
send(a, "client", "kill", "user", "default", "id", bid)
print("kill user default id <the other>:", repr(upto(a, b"\r\n")), "the other:", repr(upto(b, b"<never>")))
S = 'local a = {x=nil,y=5} local b = {x=a} a["x"] = b local e = cmsgpack.pack(a) local h = "" for i = 1, 8 do h = h .. string.format("%02x", string.byte(e, i)) end return h'
got = []
for i in range(20):
    c = conn()
    send(c, "eval", S, "0")
    r = b""
    while r.count(b"\r\n") < 2: r += c.recv(100)
    got.append(r.split(b"\r\n")[1].decode())
    c.close()
print("cmsgpack circular, 20 fresh connections:", sorted(set(got)), len(got))
for S in ('return cmsgpack.pack({b=1, a=2, c=3})', 'return cmsgpack.pack({1, 2, 3, x=1, [10]=5, [2.5]=1, [true]=2, [-3]=4})',
          'local t = {} t.b = 1 t.a = 2 t.c = nil t.d = 3 return cmsgpack.pack(t)'):
    send(a, "eval", S, "0")
    head = b""
    while not head.endswith(b"\r\n"): head += a.recv(1)
    body = b""
    while len(body) < int(head[1:]) + 2: body += a.recv(65536)
    print(S, repr(head + body))
PYEOF
same_bytes introspect "CLIENT REPLY SKIP/ON, CLIENT KILL USER, CLIENT INFO's cmd= and qbuf=, cmsgpack's key order" \
    'grep -q "^SKIP;ON;PING: b.+OK....+PONG" "$tmp/introspect.redis" &&
     grep -q "qbuf=26 .*cmd=client|info" "$tmp/introspect.redis" &&
     grep -q "^cmsgpack circular, 20 fresh connections: ..82a17905a17881a1.. 20$" "$tmp/introspect.redis"' --clock wall

# CONFIG SET of the port (issue 39; the suite's 'CONFIG SET rollback on apply error'), byte
# for byte against redis-server: a port another socket holds fails to apply, and every
# parameter set with it (maxmemory, client-query-buffer-limit) keeps its value; the checks
# of the values come first (a port past 65535, a limit under 1 MiB); a free port is listened
# on, the old one closed, the connection that asked kept; then back to the first port.
cat >"$tmp/configport.py" <<'PYEOF'
import re, socket, sys
port = int(sys.argv[1])
def conn(p):
    s = socket.create_connection(("127.0.0.1", p)); s.settimeout(10); return s
def cmd(s, *words):
    out = b"*%d\r\n" % len(words)
    for w in words:
        w = str(w).encode()
        out += b"$%d\r\n%s\r\n" % (len(w), w)
    s.sendall(out)
    r = b""
    while not r.endswith(b"\r\n") or (r[:1] == b"*" and r.count(b"\r\n") < 1 + 2 * int(r[1:r.index(b"\r\n")])):
        d = s.recv(65536)
        if not d: return b"<closed>"
        r += d
    return hide(r, port, b"<port>")
def hide(r, n, name):
    """A port as a whole number only (a port of 7418 is also inside 1073741824)."""
    return re.sub(rb"(?<![0-9])%d(?![0-9])" % n, name, r)
def free():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p
held = socket.socket(); held.bind(("127.0.0.1", 0)); held.listen(1)
hp = held.getsockname()[1]
a = conn(port)
for words in (("maxmemory", 10000001, "port", hp, "client-query-buffer-limit", "10m"),
              ("client-query-buffer-limit", "10m", "port", hp), ("port", 70000), ("port", "x"),
              ("client-query-buffer-limit", 100), ("client-query-buffer-limit", "2mb", "port", port)):
    print(words[::2], hide(cmd(a, "config", "set", *words), hp, b"<held>"))
    print(" ", cmd(a, "config", "get", "maxmemory"), cmd(a, "config", "get", "client-query-buffer-limit"),
          cmd(a, "config", "get", "port"))
np = free()
print("to a free port:", cmd(a, "config", "set", "port", np), "the same connection:", cmd(a, "ping"),
      "CONFIG GET:", hide(cmd(a, "config", "get", "port"), np, b"<new>"))
try:
    conn(port); print("the old port: accepted")
except OSError as e:
    print("the old port:", type(e).__name__)
b = conn(np)
print("the new port:", cmd(b, "ping"), "back:", cmd(b, "config", "set", "port", port, "client-query-buffer-limit", "1gb"))
print("the first port again:", cmd(conn(port), "ping"))
PYEOF
same_bytes configport "CONFIG SET port and its rollback" \
    'grep -q "possibly related to argument .port.) - Unable to listen on this port" "$tmp/configport.redis" &&
     grep -q "^to a free port: b.+OK.r.n. the same connection: b.+PONG" "$tmp/configport.redis"' --clock wall

# DEBUG called from a script once DEBUG SET-DISABLE-DENY-SCRIPTS 1 allows it (issue 39; the
# suite's 'test RESP<lua>/<client> <type> protocol parsing' and 'Script block the time during
# execution'), byte for byte against a redis-server started with --enable-debug-command yes:
# refused before and after; DEBUG PROTOCOL of each RESP3 type through redis.setresp(2|3) to
# a RESP2 and a RESP3 connection (big numbers and verbatim strings as Lua tables and back,
# an attribute dropped); a big number holding CR LF; DEBUG SLEEP inside a script, the time
# standing still until it ends (a key set with PX 1 still exists after 10 ms).
cat >"$tmp/debugscript.py" <<'PYEOF'
import socket, sys
port = int(sys.argv[1])
s = socket.create_connection(("127.0.0.1", port)); s.settimeout(10)
buf = b""
def line():
    global buf
    while b"\r\n" not in buf: buf += s.recv(65536)
    l, buf = buf.split(b"\r\n", 1)
    return l + b"\r\n"
def take(n):
    global buf
    while len(buf) < n: buf += s.recv(65536)
    d, buf = buf[:n], buf[n:]
    return d
def reply():
    l = line()
    t, body = l[:1], l[1:-2]
    if t in b"$=!" and body != b"-1": return l + take(int(body) + 2)
    if t in b"*~>" and body != b"-1": return l + b"".join(reply() for _ in range(int(body)))
    if t == b"%": return l + b"".join(reply() for _ in range(2 * int(body)))
    if t == b"|": return l + b"".join(reply() for _ in range(2 * int(body))) + reply()
    return l
def cmd(*words):
    out = b"*%d\r\n" % len(words)
    for w in words:
        w = str(w).encode()
        out += b"$%d\r\n%s\r\n" % (len(w), w)
    s.sendall(out)
    return reply()
print("refused:", cmd("eval", "return redis.call('debug', 'protocol', 'bignum')", 0))
print(cmd("debug", "set-disable-deny-scripts", 1))
for proto in (2, 3):
    cmd("hello", proto)
    for lua in (2, 3):
        for t in ("bignum", "map", "set", "double", "null", "verbatim", "true", "false", "attrib"):
            print(lua, proto, t, cmd("eval", "redis.setresp(%d);return redis.call('debug', 'protocol', '%s')" % (lua, t), 0))
    print(proto, "malformed big number", cmd("eval", "return {big_number='123\\r\\n123'}", 0))
    print(proto, "verbatim of a long format", cmd("eval", "return {verbatim_string={format='markdown', string='x'}}", 0))
cmd("hello", 2)
print("sleep:", cmd("eval", "redis.call('SET', 'key', 'value', 'PX', '1') redis.call('DEBUG', 'SLEEP', 0.01) return redis.call('EXISTS', 'key')", 0),
      "after:", cmd("exists", "key"))
print(cmd("debug", "set-disable-deny-scripts", 0))
print("refused again:", cmd("eval", "return redis.call('debug', 'sleep', 0)", 0))
PYEOF
keep_rport=$rport keep_rpid=${RPID:-}
start_redis --enable-debug-command yes
same_bytes debugscript "DEBUG inside scripts (SET-DISABLE-DENY-SCRIPTS)" \
    'grep -q "^3 3 bignum b.(1234567999999999999999999999999999999.r.n.$" "$tmp/debugscript.redis" &&
     grep -q "^sleep: b.:1.r.n. after: b.:0.r.n.$" "$tmp/debugscript.redis" &&
     grep -q "^refused again: b.-ERR This Redis command is not allowed from script" "$tmp/debugscript.redis"' \
    --clock wall --enable-debug-command yes
[ -n "$rport" ] && { kill "$RPID"; wait "$RPID" 2>/dev/null; forget "$RPID"; }
rport=$keep_rport RPID=$keep_rpid

# Under DEBUG SET-DISABLE-DENY-SCRIPTS 1 a script's call has no connection of its own and
# runs while the script engine is busy: what needs either (pub/sub, transactions, blocking,
# HELLO, RESET, a nested EVAL, SCRIPT FLUSH) stays refused, never reaching its handler (a
# script's SUBSCRIBE crashed serve); the server answers after, with no sanitizer report.
start_serve denyoff 1 --clock wall --enable-debug-command yes || bad "the deny-off server does not start"
cli debug set-disable-deny-scripts 1 >/dev/null
for c in "'subscribe','ch'" "'psubscribe','p*'" "'multi'" "'watch','k'" "'blpop','q','0'" "'hello','3'" \
    "'reset'" "'eval','return 1','0'" "'script','flush'" "'function','flush'" "'wait','0','0'"; do
    check "deny-scripts off: redis.call($c) refused" "ERR This Redis command is not allowed from script" \
        "$(cli eval "return redis.call($c)" 0 | cut -c1-49)"
done
check "deny-scripts off: the server answers after" PONG "$(cli ping)"
stop_serve denyoff

# FUNCTION LOAD of a library whose load never ends: Redis's 500 ms load timeout (serve sets
# scripts no instruction budget, so the load is timed on the host's clock), then the
# server answers as before, byte for byte against redis-server.
cat >"$tmp/loadtimeout.py" <<'PYEOF'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1]))); s.settimeout(60)
def cmd(*words):
    out = b"*%d\r\n" % len(words)
    for w in words:
        w = str(w).encode()
        out += b"$%d\r\n%s\r\n" % (len(w), w)
    s.sendall(out)
    r = b""
    while not r.endswith(b"\r\n"): r += s.recv(65536)
    return r
print(cmd("function", "load", "#!lua name=lib\nlocal a = 1\nwhile 1 do a = a + 1 end"))
print(cmd("function", "list"), cmd("ping"))
PYEOF
same_bytes loadtimeout "FUNCTION LOAD's timeout" \
    'grep -q "ERR Error registering functions: ERR FUNCTION LOAD timeout" "$tmp/loadtimeout.redis"' --clock wall

# redis-py's redis.lock.Lock against redis-server and against locklab serve --clock wall:
# the same results, line for line (acquire, refuse, extend, release, a stale release)
cat >"$tmp/pywall.py" <<'PYEOF'
import redis, sys
r = redis.Redis(port=int(sys.argv[1]), client_name="redis-py-test")
print("client name:", r.client_getname())
r.delete("res")
a, b = r.lock("res", timeout=10), r.lock("res", timeout=10)
print("A acquires:", a.acquire(blocking=False))
print("B is refused:", b.acquire(blocking=False))
print("A extends by 10 s:", a.extend(10), 19000 < r.pttl("res") <= 20000)
print("A reacquires (the TTL back to 10 s):", a.reacquire(), 9000 < r.pttl("res") <= 10000)
token = a.local.token
a.release()
print("A releases:", r.exists("res"))
print("B acquires:", b.acquire(blocking=False))
a.local.token = token  # A's lock object as it was before its release: a stale holder
try:
    a.release()
    print("A's stale release: released")
except redis.exceptions.LockNotOwnedError as e:
    print("A's stale release:", type(e).__name__)
print("B owns it:", b.owned())
b.release()
PYEOF
if [ -n "$rport" ] && [ -n "$pyredis" ]; then
    start_serve pywall 1 --clock wall || bad "the wall-clock server for redis-py does not start"
    "$pyredis" "$tmp/pywall.py" "$rport" >"$tmp/pywall.redis" 2>&1
    "$pyredis" "$tmp/pywall.py" "$PORT" >"$tmp/pywall.serve" 2>&1
    if [ "$(grep -c ': ' "$tmp/pywall.redis")" -ge 9 ] && cmp -s "$tmp/pywall.redis" "$tmp/pywall.serve"; then ok; else
        bad "redis-py Lock: redis-server and locklab serve --clock wall differ"
        diff "$tmp/pywall.redis" "$tmp/pywall.serve" | head -20
    fi
    stop_serve pywall
fi

# ---- handshakes, blocking, DROP, FAILOVER, --replicas ----
start_serve conn 4 --clock manual --nodes 2 --replicas 1 || bad "the --replicas server does not start"
P2=$((PORT + 1))
check "--replicas 1: nodes and roles" "n1 master|n1r1 replica-of=n1|n2 master|n2r1 replica-of=n2" \
    "$(cli locklab nodes | awk '{ print $1, $4 }' | tr '\n' '|' | sed 's/|$//')"
check "HELLO 2" "server|redis|version|7.0.15|proto|2|id" "$(cli hello 2 | head -7 | tr '\n' '|' | sed 's/|$//')"
check "HELLO 2 on a replica says its role" "role|replica" "$(redis-cli -p "$P2" hello 2 | sed -n 11,12p | tr '\n' '|' | sed 's/|$//')"
check "HELLO 3: RESP3, a map" "server redis|version 7.0.15|proto 3" "$(cli hello 3 | head -3 | tr '\n' '|' | sed 's/|$//')"
check "HELLO 4: Redis's refusal of a version it does not speak" "NOPROTO unsupported protocol version" "$(cli hello 4)"
check "HELLO 2 SETNAME names the connection" "app" "$(printf 'hello 2 setname app\nclient getname\n' | cli | tail -1)"
info=$(cli info | tr -d '\r')
for field in "redis_version:7.0.15" "redis_mode:standalone" "tcp_port:$PORT" "loading:0" "role:master" \
    "connected_slaves:1" "cluster_enabled:0" "connected_clients:1"; do
    grep -qx "$field" <<<"$info" && ok || bad "INFO has no line $field"
done
rinfo=$(redis-cli -p "$P2" info replication | tr -d '\r')
for field in "role:slave" "master_host:127.0.0.1" "master_port:$PORT" "master_link_status:up"; do
    grep -qx "$field" <<<"$rinfo" && ok || bad "a replica's INFO replication has no line $field"
done
check "RESET ends a transaction at once" "OK|QUEUED|RESET|ERR EXEC without MULTI" \
    "$(printf 'multi\nset reset-k 1\nreset\nexec\n' | cli | sed '/^$/d' | tr '\n' '|' | sed 's/|$//')"
check "CONFIG GET port" "port|$PORT" "$(cli config get port | tr '\n' '|' | sed 's/|$//')"
check "CONFIG SET is remembered for CONFIG GET" "OK|lua-time-limit|300" \
    "$(printf 'config set lua-time-limit 300\nconfig get lua-time-limit\n' | cli | tr '\n' '|' | sed 's/|$//')"
check "CONFIG SET of a setting serve does not implement is refused" \
    "ERR CONFIG SET failed (possibly related to argument 'timeout') - locklab does not implement it: only its current value '0' is accepted|timeout|0" \
    "$(printf 'config set timeout 30\nconfig get timeout\n' | cli | sed '/^$/d' | tr '\n' '|' | sed 's/|$//')"
# CLIENT LIST / INFO / KILL; BLPOP and BRPOP blocking; DROP
cat >"$tmp/clients.py" <<'PYEOF'
import socket, sys, time
port = int(sys.argv[1])
def conn():
    s = socket.create_connection(("127.0.0.1", port)); s.settimeout(5); return s
def ask(s, line):
    s.sendall(line.encode() + b"\r\n")
    data = s.recv(65536)
    while data.startswith(b"$") and len(data) < int(data[1:data.index(b"\r")]) + data.index(b"\n") + 3:
        data += s.recv(65536)
    return data
def expect(what, want, got):
    print("ok" if want == got else "FAIL: %s: expected %r, got %r" % (what, want, got))
def blocked(a, n):
    """Polls INFO until n connections are blocked (a bound, not a time limit): the blocking
    command was sent on another socket and may not have been read yet."""
    for _ in range(200):
        if (b"blocked_clients:%d\r\n" % n) in ask(a, "info clients"):
            return True
        time.sleep(0.02)
    return False
def silent(s, what):
    s.settimeout(0.3)
    try:
        expect(what, None, s.recv(100))
    except socket.timeout:
        print("ok")
    s.settimeout(5)
a, b = conn(), conn()
ask(b, "client setname worker")
ida, idb = int(ask(a, "client id")[1:-2]), int(ask(b, "client id")[1:-2])
lines = ask(a, "client list").split(b"\r\n", 1)[1].decode().splitlines()
expect("CLIENT LIST: both, oldest first", [ida, idb], [int(l.split()[0][3:]) for l in lines if l][-2:])
expect("CLIENT LIST: the name", True, any(("id=%d " % idb) in l and " name=worker " in l for l in lines))
expect("CLIENT INFO: this one", "id=%d" % ida, ask(a, "client info").split(b"\r\n", 1)[1].split()[0].decode())
expect("CLIENT KILL ID", b":1\r\n", ask(a, "client kill id %d" % idb))
expect("the killed connection is closed", b"", b.recv(100))
expect("CLIENT KILL of nobody", b"-ERR No such client\r\n", ask(a, "client kill 1.2.3.4:5"))
b = conn()
b.sendall(b"blpop q 0\r\nget after\r\n")
expect("blocked_clients while BLPOP waits", True, blocked(a, 1))
expect("RPUSH", b":1\r\n", ask(a, "rpush q job"))
got = b""
while not got.endswith(b"$-1\r\n"):
    got += b.recv(100)
expect("BLPOP answered by the push, then the command it pipelined", b"*2\r\n$1\r\nq\r\n$3\r\njob\r\n$-1\r\n", got)
b.sendall(b"brpop q 5\r\n")
expect("blocked again", True, blocked(a, 1))
expect("ADVANCE 4999", b"+OK\r\n", ask(a, "locklab advance 4999"))
silent(b, "still waiting at 4.999 s")
expect("ADVANCE 1", b"+OK\r\n", ask(a, "locklab advance 1"))
expect("BRPOP's timeout on the serve clock", b"*-1\r\n", b.recv(100))
for cmd, push, want in ((b"blmove src dst left right 0", "rpush src x", b"$1\r\nx\r\n"),
                        (b"bzpopmin z 0", "zadd z 1 m", b"*3\r\n$1\r\nz\r\n$1\r\nm\r\n$1\r\n1\r\n")):
    b.sendall(cmd + b"\r\n")
    expect("%s blocks" % cmd.split()[0].decode(), True, blocked(a, 1))
    ask(a, push)
    expect("%s answered by the push" % cmd.split()[0].decode(), want, b.recv(100))
# A MULTI that pushes and then deletes and replaces the key: Redis looks at the key after
# EXEC, finds a string, and keeps the client blocked (no WRONGTYPE); a later push serves it.
b.sendall(b"blpop wq 0\r\n")
expect("BLPOP wq blocks", True, blocked(a, 1))
expect("MULTI LPUSH DEL SET EXEC", b"*3\r\n:1\r\n:1\r\n+OK\r\n",
       ask(a, "multi") and ask(a, "lpush wq x") and ask(a, "del wq") and ask(a, "set wq s") and ask(a, "exec"))
silent(b, "BLPOP stays blocked when the key it waits for is a string after EXEC")
ask(a, "del wq")
ask(a, "rpush wq y")
expect("then a push serves it", b"*2\r\n$2\r\nwq\r\n$1\r\ny\r\n", b.recv(100))
# WAIT: a replica counts once this connection's last write reached it, with the
# replication lag (the network's delay, 1-5 ms: the world's, moved here by ADVANCE)
c = conn()
expect("a write", b"+OK\r\n", ask(c, "set w 1"))
c.sendall(b"wait 1 0\r\n")
expect("WAIT 1 0 blocks until the write reaches the replica", True, blocked(a, 1))
expect("ADVANCE 10, past the lag", b"+OK\r\n", ask(a, "locklab advance 10"))
expect("WAIT answered once the replica has it", b":1\r\n", c.recv(100))
expect("WAIT 1 0 with the replica up and nothing new", b":1\r\n", ask(c, "wait 1 0"))
expect("another connection's writes are not waited for", b":1\r\n", ask(c, "set w2 1") and ask(a, "set w3 1") and ask(a, "locklab advance 10") and ask(c, "wait 1 0"))
expect("CRASH the replica", b"+OK\r\n", ask(a, "locklab crash n1r1"))
b.sendall(b"wait 1 0\r\n")
expect("WAIT 1 0 blocks while the replica is down", True, blocked(a, 1))
expect("RESTART the replica", b"+OK\r\n", ask(a, "locklab restart n1r1"))
expect("WAIT answered once the replica is back", b":1\r\n", b.recv(100))
b.sendall(b"wait 2 50\r\n")
expect("WAIT 2 50 blocks", True, blocked(a, 1))
expect("ADVANCE 50", b"+OK\r\n", ask(a, "locklab advance 50"))
expect("WAIT answers its count at the timeout", b":1\r\n", b.recv(100))
idb = int(ask(b, "client id")[1:-2])
expect("DROP with probability 1", b"+OK\r\n", ask(a, "locklab drop %d 1" % idb))
b.sendall(b"set dropped 1\r\n")
silent(b, "a lost request gets no reply")
expect("and never ran", b":0\r\n", ask(a, "exists dropped"))
expect("DROP 0 ends it", b"+OK\r\n", ask(a, "locklab drop c%d 0" % idb))
expect("then requests run", b"+PONG\r\n", ask(b, "ping"))
expect("DROP for 1000 ms", b"+OK\r\n", ask(a, "locklab drop %d 1 1000" % idb))
b.sendall(b"ping\r\n")
silent(b, "lost while it lasts")
expect("ADVANCE past it", b"+OK\r\n", ask(a, "locklab advance 1000"))
expect("then requests run again", b"+PONG\r\n", ask(b, "ping"))
expect("DROP of a bad probability", b"-ERR probability must be a number from 0 to 1\r\n",
       ask(a, "locklab drop %d 1.5" % idb))
PYEOF
python3 "$tmp/clients.py" "$PORT" >"$tmp/clients.out" 2>&1
pass=$((pass + $(grep -c '^ok$' "$tmp/clients.out")))
fail=$((fail + $(grep -c -v '^ok$' "$tmp/clients.out")))
grep -v '^ok$' "$tmp/clients.out"
check "WAIT on a replica" "ERR WAIT cannot be used with replica instances. Please also note that since Redis 4.0 if a replica is configured to be writable (which is not the default) writes to replicas are just local and are not propagated." \
    "$(redis-cli -p "$P2" wait 0 0)"
# FAILOVER: the replica becomes the master with the data it had received; the old master
# follows it. A write still on its way (the replication lag) is lost, as in the scenarios.
cli set before-failover 1 >/dev/null
cli locklab advance 10 >/dev/null
cli set in-flight 1 >/dev/null
check "FAILOVER of a replica is refused" "ERR node 'n1r1' is a replica: fail over its master" "$(cli locklab failover n1r1)"
check "LOCKLAB FAILOVER n1" OK "$(cli locklab failover n1)"
check "the new master has the data" 1 "$(redis-cli -p "$P2" get before-failover)"
check "a write that had not reached it is lost" 0 "$(redis-cli -p "$P2" exists in-flight)"
check "and takes writes" OK "$(redis-cli -p "$P2" set after-failover 2)"
check "the old master is its replica now" "READONLY You can't write against a read only replica." "$(cli set x 1)"
cli locklab advance 10 >/dev/null
check "and has the new master's writes" 2 "$(cli get after-failover)"
check "LOCKLAB NODES after the failover" "n1 replica-of=n1r1|n1r1 master" \
    "$(cli locklab nodes | head -2 | awk '{ print $1, $4 }' | tr '\n' '|' | sed 's/|$//')"
check "a master without a replica up" "ERR node 'n2' has no replica that is up" \
    "$(cli locklab crash n2r1 >/dev/null; cli locklab failover n2)"
stop_serve conn
for args in "--replicas 5" "--replicas 1 --scenario single-basic" "--nodes 40 --replicas 1"; do
    # shellcheck disable=SC2086
    "$LL" serve $args >"$tmp/o" 2>"$tmp/e"
    check "serve $args: exit" 2 "$?"
done

# ---- real clients from npm: node redlock 5 (on ioredis 5), node-redis 4 and 5, redis-semaphore ----
# Installed by npm into build/npm (tests/clients/package.json pins the versions), never
# committed; skipped only when the npm registry cannot be reached. The same run against a
# redis-server started here and against `locklab serve --clock wall` must print the same
# lines (acquire, refuse, extend, release; pub/sub, BLPOP); then against --clock manual the
# lease runs out under the client on LOCKLAB ADVANCE.
npm_ready() {
    [ -d build/npm/node_modules/redlock ] && [ -d build/npm/node_modules/ioredis ] &&
        [ -d build/npm/node_modules/redis4 ] && [ -d build/npm/node_modules/redis5 ] &&
        [ -d build/npm/node_modules/redis-semaphore ] &&
        cmp -s tests/clients/package.json build/npm/package.json
}
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    bad "node and npm are not installed (Debian nodejs, npm; make deps installs them)"
elif ! npm_ready; then
    mkdir -p build/npm && cp tests/clients/package.json build/npm/package.json &&
        (cd build/npm && npm install --no-audit --no-fund --loglevel=error >"$tmp/npm.log" 2>&1)
fi
if command -v node >/dev/null && ! npm_ready; then
    if ! (cd build/npm 2>/dev/null && timeout 60 npm ping >/dev/null 2>&1); then
        echo "SKIP: node redlock and ioredis: the npm registry cannot be reached to install them"
    else
        bad "npm install of tests/clients/package.json failed: $(tail -3 "$tmp/npm.log")"
    fi
elif command -v node >/dev/null; then
    node_client() { NODE_PATH=$PWD/build/npm/node_modules node tests/clients/redlock.js "$@"; }
    start_serve nodewall 1 --clock wall || bad "the wall-clock server for node does not start"
    for mode in same pubsub; do
        if [ -z "$rport" ]; then bad "no redis-server to compare node redlock with"; break; fi
        node_client "$rport" "$mode" >"$tmp/node-redis.$mode" 2>&1
        node_client "$PORT" "$mode" >"$tmp/node-serve.$mode" 2>&1
        if ! grep -q FAIL "$tmp/node-redis.$mode" && [ "$(wc -l <"$tmp/node-redis.$mode")" -ge 8 ] &&
            cmp -s "$tmp/node-redis.$mode" "$tmp/node-serve.$mode"; then ok; else
            bad "node $mode: redis-server and locklab serve differ"
            diff "$tmp/node-redis.$mode" "$tmp/node-serve.$mode" | head -20
        fi
    done
    # node-redis 4 (scanIterator included) and 5, redis-semaphore's Mutex (tests/clients/noderedis.js)
    if [ -n "$rport" ]; then
        NODE_PATH=$PWD/build/npm/node_modules node tests/clients/noderedis.js "$rport" >"$tmp/nr-redis" 2>&1
        NODE_PATH=$PWD/build/npm/node_modules node tests/clients/noderedis.js "$PORT" >"$tmp/nr-serve" 2>&1
        if ! grep -q FAIL "$tmp/nr-redis" && [ "$(grep -c 'scanIterator finds every key: 120' "$tmp/nr-redis")" -eq 2 ] &&
            [ "$(wc -l <"$tmp/nr-redis")" -ge 27 ] && cmp -s "$tmp/nr-redis" "$tmp/nr-serve"; then ok; else
            bad "node-redis 4, 5 and redis-semaphore: redis-server and locklab serve differ"
            diff "$tmp/nr-redis" "$tmp/nr-serve" | head -20
        fi
    fi
    stop_serve nodewall
    start_serve nodemanual 1 --clock manual || bad "the manual-clock server for node does not start"
    node_client "$PORT" expiry >"$tmp/node-expiry" 2>&1
    check "node redlock: the lease runs out under the client, another acquires, a crash" \
        "client name: redlock-test|A acquires for 10 s: ok|the lease: 10000|LOCKLAB ADVANCE 10001: OK|the lease ran out under A: -2|A's extend: ExecutionError|B acquires: ok|A's release: ExecutionError|B still holds it: true|LOCKLAB CRASH n1: OK|B's extend while n1 is down: ExecutionError" \
        "$(tr '\n' '|' <"$tmp/node-expiry" | sed 's/|$//')"
    # the node is down: stop_serve's closing line still comes
    stop_serve nodemanual
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
