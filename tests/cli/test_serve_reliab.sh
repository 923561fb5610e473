#!/usr/bin/env bash
# Hostile clients of `locklab serve` (issue 37, the reliability audit of 2026-12): each
# reproducer of the audit's defects/ that needs a server, and runaway scripts as Redis handles
# them, byte for byte against a real redis-server 7.0.15 where the exchange has no timing in
# it. Waits are bounded by counts (each try quick), never asserted as durations. Prints
# "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/cli/serve_lib.sh serve-reliab
cli() { redis-cli -p "$PORT" "$@"; }
start_redis || echo "SKIP: no redis-server: the byte-for-byte comparisons are skipped"

# ---- N6: one EVAL of bit.tohex(x, -2^31) killed every node (SIGSEGV) ----
start_serve n6 2 --nodes 2 || bad "the server does not start"
check "N6: bit.tohex(1, -2^31) over TCP" "00000001" "$(cli eval 'return bit.tohex(1, -2147483648)' 0)"
check "N6: the server still answers" PONG "$(cli ping)"
stop_serve n6

# ---- N10: on one node, LOCKLAB PARTITION n1 could never be healed (nothing is read from a
# partitioned node's connections, HEAL included): the last reachable node is not cut off ----
start_serve n10 1 || bad "the one-node server does not start"
check "N10: partitioning the only node is refused" \
    "ERR partitioning 'n1' would leave no node to send LOCKLAB HEAL to: keep one reachable (serve --nodes 2 or more)" \
    "$(timeout 20 redis-cli -p "$PORT" locklab partition n1)"
check "N10: it still answers" PONG "$(timeout 20 redis-cli -p "$PORT" ping)"
stop_serve n10
start_serve n10b 2 --nodes 2 || bad "the two-node server does not start"
P2=$((PORT + 1))
check "N10: with two nodes, n1 can be cut off" OK "$(cli locklab partition n1)"
check "N10: but not n2 then" "ERR partitioning 'n2' would leave no node to send LOCKLAB HEAL to: keep one reachable (serve --nodes 2 or more)" \
    "$(timeout 20 redis-cli -p "$P2" locklab partition n2)"
check "N10: HEAL through n2" OK "$(timeout 20 redis-cli -p "$P2" locklab heal)"
check "N10: n1 answers again" PONG "$(timeout 20 redis-cli -p "$PORT" ping)"
stop_serve n10b

# ---- N4: with --requirepass, RESET kept the connection authenticated; Redis logs it out ----
cat >"$tmp/n4.py" <<'EOF'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.settimeout(20)
def ask(raw, lines):
    s.sendall(raw)
    got = b""
    while got.count(b"\r\n") < lines:
        part = s.recv(65536)
        if not part: break
        got += part
    return got
print(ask(b"RESET\r\nPING\r\n", 2))
print(ask(b"AUTH s3cret\r\nRESET\r\nPING\r\n", 3))
print(ask(b"AUTH s3cret\r\nPING\r\nRESET x\r\nMULTI\r\nRESET\r\nPING\r\n", 6))
EOF
if [ -n "$rport" ]; then
    redis-cli -p "$rport" config set requirepass s3cret >/dev/null
    same_bytes n4 "N4: RESET logs out" 'grep -q NOAUTH "$tmp/n4.redis"' --requirepass s3cret
    redis-cli -p "$rport" -a s3cret --no-auth-warning config set requirepass "" >/dev/null
fi

# ---- N1: every write rendered the whole value for the history (a 10 MB SETRANGE: 50 MB of
# --json; one near 512 MB: minutes with every client waiting, SIGTERM not acted on). A
# large value is now recorded by its length and what the write did (APPEND, SETRANGE, SETBIT,
# BITFIELD: the bytes written and where, their digest past 32 bytes), any other write by its
# digest; APPEND, SETRANGE, SETBIT and BITFIELD grow the string in place ----
start_serve n1 1 --json "$tmp/n1.jsonl" || bad "the --json server does not start"
check "N1: SETRANGE k 10000000 x" 10000001 "$(cli setrange k 10000000 x)"
check "N1: 100 one-byte APPENDs" 10000101 "$(for _ in $(seq 100); do echo 'append k y'; done | cli | tail -n 1)"
check "N1: SETBIT past the end" 0 "$(cli setbit k 80001000 1)"
check "N1: the bytes are right" "$(printf 'xyyy\n10000126')" "$(cli getrange k 10000000 10000003; cli strlen k)"
check "N1: GETBIT" 1 "$(cli getbit k 80001000)"
check "N1: a key of its own is untouched" OK "$(cli set small v)"
check "N1: BITFIELD across the value" "$(printf '0\n121')" "$(cli bitfield k set u8 8 255 set u8 80000008 7)"
check "N1: SETRANGE of 40 bytes" 10000126 "$(cli setrange k 20 0123456789012345678901234567890123456789)"
check "N1: a large SET" OK "$(cli set whole "$(printf 'abc%.0s' $(seq 2000))")"
check "N1: EXPIRE of a large value" 1 "$(cli expire whole 1000)"
check "N1: the same large SET again" OK "$(cli set whole "$(printf 'abc%.0s' $(seq 2000))")"
stop_serve n1
size=$(stat -c %s "$tmp/n1.jsonl")
[ "$size" -lt 1000000 ] && ok || bad "N1: --json is $size bytes after 102 writes to a 10 MB value"
# each write by what it did; a whole value by its first bytes and its digest (XXH3-64 of
# the 6,000 bytes 'abc' x 2,000: python3 -c "import xxhash" is not a dependency, so the digest
# is checked for being the same at two SETs of that value, and different from another's)
n1rec() { grep -F "\"text\":\"$1\"" "$tmp/n1.jsonl" | grep -F '"ev":"key_set"' | sed -n "$2p" | sed 's/.*"reply":"//; s/"}$//'; }
check "N1: SETRANGE recorded by what it wrote" '(10000001 bytes; wrote 1 at 10000000: \"x\")' "$(n1rec k 1)"
check "N1: the 100th APPEND" '(10000101 bytes; wrote 1 at 10000100: \"y\")' "$(n1rec k 101)"
check "N1: SETBIT" '(10000126 bytes; wrote 1 at 10000125: \"\\x80\")' "$(n1rec k 102)"
check "N1: BITFIELD, the bytes from its lowest to its highest bit" '(10000126 bytes; wrote 10000001 at 1, digest ' \
    "$(n1rec k 103 | cut -c1-45)"
check "N1: SETRANGE of 40 bytes, by their digest" '(10000126 bytes; wrote 40 at 20, digest ' "$(n1rec k 104 | cut -c1-40)"
whole=$(n1rec whole 1)
check "N1: a large SET: its start, length, digest" '\"abcabcabcabcabcabcabcabcabcabcab\"... (6000 bytes, digest ' "$(echo "$whole" | cut -c1-60)"
[ "$(echo "$whole" | grep -oE 'digest [0-9a-f]{16}\)$' | wc -l)" -eq 1 ] && ok || bad "N1: no 16-digit digest in: $whole"
check "N1: EXPIRE, by what it did" '(6000 bytes; unchanged)' "$(n1rec whole 2)"
check "N1: the same value, the same digest" "$whole" "$(n1rec whole 3)"
[ "$(n1rec k 104 | grep -o 'digest.*')" != "$(n1rec k 103 | grep -o 'digest.*')" ] && ok || bad "N1: two writes, one digest"
# a value near Redis's 512 MB limit: another client is answered once the command has ended,
# and SIGTERM ends the server
start_serve n1b 1 --history-max 0 || bad "the server does not start"
check "N1: SETRANGE near 512 MB" 536870001 "$(timeout 120 redis-cli -p "$PORT" setrange big 536870000 x)"
check "N1: PING after it" PONG "$(timeout 60 redis-cli -p "$PORT" ping)"
check "N1: SETBIT 4294967295" 0 "$(timeout 120 redis-cli -p "$PORT" setbit big 4294967295 1)"
stop_serve n1b

# ---- runaway scripts as Redis handles them: no instruction budget in serve; past
# busy-reply-threshold others get BUSY; SCRIPT KILL / FUNCTION KILL end a read-only one;
# after a write, UNKILLABLE, and SHUTDOWN NOSAVE ends it with the server (the node) ----
cat >"$tmp/busy.py" <<'EOF'
import socket, sys, time
port = int(sys.argv[1])
def conn():
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(60)
    return s
def cmd(*a):
    return b"*%d\r\n" % len(a) + b"".join(b"$%d\r\n%s\r\n" % (len(x), x) for x in a)
def line(s):
    got = b""
    while not got.endswith(b"\r\n"):
        part = s.recv(1)
        if not part: return got + b"<closed>"
        got += part
    return got
def busy_wait(b):
    # polls (a bounded count of quick tries) until the server says BUSY
    for _ in range(3000):
        b.sendall(cmd(b"PING"))
        r = line(b)
        if r.startswith(b"-BUSY"): return r
        time.sleep(0.01)
    return b"never busy"
setup = conn()
setup.sendall(cmd(b"CONFIG", b"SET", b"busy-reply-threshold", b"100")); print(line(setup))
setup.sendall(cmd(b"FUNCTION", b"LOAD", b"REPLACE", b"#!lua name=spin\nredis.register_function('spin', function() while true do end end)")); print(line(setup))
# an EVAL that loops without writing: BUSY, FUNCTION KILL refused, SCRIPT KILL ends it
a, b = conn(), conn()
a.sendall(cmd(b"EVAL", b"local i = 0 while true do i = i + 1 end", b"0"))
print(busy_wait(b))
b.sendall(cmd(b"FUNCTION", b"KILL")); print(line(b))
b.sendall(cmd(b"GET", b"k")); print(line(b))
b.sendall(cmd(b"SCRIPT", b"KILL")); print(line(b))
print(line(a).split(b" script:")[0])
b.sendall(cmd(b"PING")); print(line(b))
# a function that loops: SCRIPT KILL refused, FUNCTION KILL ends it
a.sendall(cmd(b"FCALL", b"spin", b"0"))
print(busy_wait(b))
b.sendall(cmd(b"SCRIPT", b"KILL")); print(line(b))
b.sendall(cmd(b"FUNCTION", b"KILL")); print(line(b))
print(line(a))
# a script that wrote, then loops: UNKILLABLE to both kills; SHUTDOWN without NOSAVE is BUSY;
# SHUTDOWN NOSAVE closes every connection without a reply
a.sendall(cmd(b"EVAL", b"redis.call('SET', 'w', '1') while true do end", b"0"))
print(busy_wait(b))
b.sendall(cmd(b"SCRIPT", b"KILL")); print(line(b))
b.sendall(cmd(b"FUNCTION", b"KILL")); print(line(b))
b.sendall(cmd(b"SHUTDOWN")); print(line(b))
b.sendall(cmd(b"SHUTDOWN", b"NOSAVE")); print(line(b))
print(line(a))
EOF
if [ -n "$rport" ]; then
    same_bytes busy "runaway scripts: BUSY, SCRIPT KILL, FUNCTION KILL, UNKILLABLE, SHUTDOWN NOSAVE" \
        'grep -q UNKILLABLE "$tmp/busy.redis" && grep -c "<closed>" "$tmp/busy.redis" | grep -q 2'
    start_redis # the real one is gone: SHUTDOWN NOSAVE
fi
# serve's node after SHUTDOWN NOSAVE: down, and LOCKLAB RESTART brings it back (two nodes:
# the other carries the RESTART)
start_serve busy2 2 --nodes 2 || bad "the server does not start"
P2=$((PORT + 1))
python3 - "$PORT" >"$tmp/busy2.out" 2>&1 <<'EOF'
import socket, sys, time
port = int(sys.argv[1])
def conn():
    s = socket.create_connection(("127.0.0.1", port)); s.settimeout(60); return s
def cmd(*a):
    return b"*%d\r\n" % len(a) + b"".join(b"$%d\r\n%s\r\n" % (len(x), x) for x in a)
def line(s):
    got = b""
    while not got.endswith(b"\r\n"):
        part = s.recv(1)
        if not part: return got + b"<closed>"
        got += part
    return got
a, b = conn(), conn()
b.sendall(cmd(b"CONFIG", b"SET", b"busy-reply-threshold", b"100")); line(b)
a.sendall(cmd(b"EVAL", b"redis.call('SET', 'w', '1') while true do end", b"0"))
for _ in range(3000):
    b.sendall(cmd(b"PING"))
    if line(b).startswith(b"-BUSY"): break
    time.sleep(0.01)
b.sendall(cmd(b"SHUTDOWN", b"NOSAVE")); print(line(b).decode()); print(line(a).decode())
EOF
check "SHUTDOWN NOSAVE: both connections closed" "$(printf '<closed>\n<closed>')" "$(cat "$tmp/busy2.out")"
check "SHUTDOWN NOSAVE: the node is down" "n1 127.0.0.1:$PORT down" "$(redis-cli -p "$P2" locklab nodes | head -n 1 | cut -d' ' -f1-3)"
check "LOCKLAB RESTART n1" OK "$(redis-cli -p "$P2" locklab restart n1)"
check "n1 answers again" PONG "$(cli ping)"
stop_serve busy2

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
