#!/usr/bin/env bash
# Hostile input (issue 27, the reliability audit of 2026-11): what a scenario file, a model, a
# file name or a full disk does to locklab. Each probe must end by itself with the right exit
# code and one line on stderr, run no command, lose no result silently, and (run under the
# ASan+UBSan build) raise no sanitizer report. No wall-clock assertion anywhere: a probe that
# hangs is what `timeout` (generous, for a loaded machine) catches. Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/cli/lib.sh reliab
export LOCKLAB_HOME=${LOCKLAB_HOME:-$PWD}
LL_ABS=$(realpath "$LL")
mnt=""
trap '[ -n "$mnt" ] && umount "$mnt" 2>/dev/null; chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT

# no_sanitizer WHAT: stderr ($tmp/err) holds no sanitizer report
no_sanitizer() {
    if grep -qE 'runtime error|Sanitizer|LeakSanitizer' "$tmp/err"; then bad "$1: sanitizer report"; sed 's/^/    /' "$tmp/err" | head -5; else ok; fi
}
# bounded CODE WHAT NEEDLE -- command...: exit CODE within a (generous) timeout, one line, no report
bounded() {
    local want=$1 what=$2 needle=$3
    shift 4
    expect_exit "$want" "$what" -- timeout -k 5 120 "$@"
    one_line_err "$what" "$needle"
    no_sanitizer "$what"
}

# ---- 1. strings reach gnuplot, a shell or HTML as data, never as code ----
w="$tmp/evil"
mkdir -p "$w"
cat >"$w/s.lua" <<'EOF'
return {
  name = "evil `touch bq-name` $(touch dollar-name) @x 'q' \"dq\" \\ % %s %% <script>alert(1)</script> &amp; EOD",
  about = "about `touch bq-about` $(touch dollar-about) <b>x</b> & ' \" \n!touch nl-about\nEOD",
  protocol = "distlock", lease = "10s",
  clients = { { name = "A", work = "15s" }, { name = "B", start = "100ms" } },
  faults = { { at = "1s", gc_pause = "A", duration = "15s" } },
  duration = "30s",
}
EOF
# the scenario's own file name, the picture's name: backquotes, quotes, $( ), %, a newline and !cmd
evil_file="$w/e\`touch bq-file\`'\"\$(touch dollar-file)%s@x
!touch nl-file
.lua"
cp "$w/s.lua" "$evil_file"
(cd "$w" && expect_exit 1 "special characters: run --plot/--html/--html-static/--spacetime" -- "$LL_ABS" run "$evil_file" -q \
    --plot "p\`touch bq-plot\`\$(touch dollar-plot)'\"
!touch nl-plot
.png" --html h.html --html-static hs.html --spacetime st.svg)
no_sanitizer "special characters: run"
(cd "$w" && expect_exit 1 "special characters: run --plot .svg" -- "$LL_ABS" run "$w/s.lua" -q --plot "q
!touch nl-svg
.svg")
(cd "$w" && expect_exit 0 "special characters: sweep --plot" -- "$LL_ABS" sweep "$evil_file" --vary gc_pause=5s:6s:1s --runs 1 \
    --plot "sw\`touch bq-sweep\`
!touch nl-sweep
.png" --csv sw.csv)
no_sanitizer "special characters: sweep"
# a matrix table of one's own: its title, a column's short name and a row's title (tic
# labels, which gnuplot reads as formats) drawn as written
mkdir -p "$w/mx/distlock"
cp scenarios/matrix/distlock/holder-crash.lua "$w/mx/distlock/"
cat >"$w/mx/table.lua" <<'EOF'
return {
  title = "T `touch bq-title` $(touch dollar-title) 'q' \"dq\" %s %n @x",
  about = "about `touch bq-about`",
  properties = { "mutual_exclusion", "no_deadlock" },
  columns = { { id = "holder-crash", title = "crash `touch bq-col`", short = "`id`%n\"q" } },
  rows = { { id = "distlock", title = "D `touch bq-row` %s %n 'q' \"dq\"", source = "s", says = "x", claims = {}, notes = {} } },
}
EOF
(cd "$w" && expect_exit 0 "special characters: matrix --plot" -- "$LL_ABS" matrix mx/table.lua --plot mx.svg)
no_sanitizer "special characters: matrix"
check "special characters: the matrix's title drawn as written" grep -qF "T \`touch bq-title\` \$(touch dollar-title) 'q' \"dq\" %s %n @x" "$w/mx.svg"
check "special characters: a matrix row's title drawn as written" grep -qF "D \`touch bq-row\` %s %n 'q' \"dq\"" "$w/mx.svg"
ran=$(cd "$w" && ls | grep -E '^(bq|dollar|nl)-' | tr '\n' ' ')
[ -z "$ran" ] && ok || bad "special characters: a command ran (created: $ran)"
png_whole() { [ "$(tail -c 12 "$1" | od -An -tx1 | tr -d ' \n')" = "0000000049454e44ae426082" ]; }
check "special characters: the PNG is whole" png_whole "$w/p\`touch bq-plot\`\$(touch dollar-plot)'\"
!touch nl-plot
.png"
check "special characters: the sweep's PNG is whole" png_whole "$w/sw\`touch bq-sweep\`
!touch nl-sweep
.png"
check "special characters: the SVG ends whole" grep -q '</svg>' "$w/q
!touch nl-svg
.svg"
# the title is drawn as written, quotes and all
check "special characters: the title is drawn as written" grep -qF "evil \`touch bq-name\` \$(touch dollar-name) @x 'q' \"dq\" \\ % %s" "$w/q
!touch nl-svg
.svg"
for f in h.html hs.html; do
    check "special characters: $f escapes the name" grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' "$w/$f"
    check "special characters: $f has no raw <script>alert" sh -c "! grep -qF '<script>alert(1)' '$w/$f'"
done

# ---- 2. a budget the model cannot evade: exit 2, one line naming the model ----
model_scenario() { # DIR BODY-OF-ACQUIRE: a scenario and its model ./m.lua
    mkdir -p "$1"
    printf '%s\n' "local M = {}" "function M.new(ctx, cfg)" "  local node = ctx:nodes()[1]" \
        "  return { acquire = function() $2 return true end, release = function() return true end }" "end" "return M" >"$1/m.lua"
    printf '%s\n' "return { name = 'probe', about = 'probe', protocol = './m.lua', nodes = 1, lease = '10s', wait = '5s'," \
        "  clients = { { name = 'A' }, { name = 'B', start = '10ms' } }, duration = '30s'," \
        "  explore = { faults = { gc_pause = { targets = { 'A' }, params = { '1s' } } }, max_faults = 1 } }" >"$1/s.lua"
}
probe() { # NAME CODE NEEDLE BODY: `locklab run` of a model whose acquire runs BODY
    model_scenario "$tmp/$1" "$4"
    bounded "$2" "$1" "$3" -- "$LL" run "$tmp/$1/s.lua" -q
}
probe budget-loop 2 "m.lua ran 20000000 instructions without waiting" 'while true do end'
probe budget-pcall 2 "m.lua ran 20000000 instructions without waiting" 'while true do pcall(function() while true do end end) end'
probe budget-xpcall 2 "m.lua ran 20000000 instructions without waiting" 'while true do xpcall(function() while true do end end, function(e) return e end) end'
probe budget-recursion 2 "m.lua" 'local function f() return pcall(f) end while true do f() end'
probe budget-gc 2 "a __gc finalizer is not allowed" 'setmetatable({}, { __gc = function() while true do end end })'
probe budget-cheap-c 2 "m.lua ran 20000000 instructions without waiting" 'local s = string.rep("a", 3e7) for i = 1, 3e6 do s:find("b", 1, true) end'
probe budget-concat 2 "m.lua used more than 64 MiB of memory" 'local s = "x" while true do s = s .. s end'
probe budget-memory 2 "m.lua used more than 64 MiB of memory" 'local t = {} for i = 1, 1e9 do t[i] = i end'
probe budget-pattern 2 "budget-pattern/m.lua used up its CPU time in one step" 'local s = string.rep("a", 3000) s:find(string.rep(".-", 20) .. "b")'
probe budget-spawn 2 "more than 10000 requests, spawns and logs in one step" 'for i = 1, 100000 do ctx:spawn(function() ctx:sleep(100000) end) end'
probe budget-send 2 "more than 10000 requests, spawns and logs in one step" 'while true do ctx:send(node, "GET", "k") end'
probe budget-log 2 "more than 10000 requests, spawns and logs in one step" 'while true do ctx:log("x") end'
model_scenario "$tmp/budget-check" 'while true do pcall(function() while true do end end) end'
for jobs in 1 2; do
    expect_exit 2 "check --jobs $jobs: a model's pcall cannot keep the budget" -- timeout -k 5 120 "$LL" check "$tmp/budget-check/s.lua" --jobs $jobs --time 5
    tail -n 1 "$tmp/err" | grep -q "^locklab: .*budget-check/m.lua ran 20000000 instructions without waiting" && ok ||
        bad "check --jobs $jobs: the budget error is the last line"
    no_sanitizer "check --jobs $jobs: a model out of budget"
done
expect_exit 2 "sweep: a model out of budget" -- timeout -k 5 120 "$LL" sweep "$tmp/budget-check/s.lua" --vary lease=1s:2s:1s --runs 1
grep -q "ran 20000000 instructions without waiting" "$tmp/err" && ok || bad "sweep: the budget error is said"
no_sanitizer "sweep: a model out of budget"

# ---- 3. the ctx API's arguments: ranges, durations, sizes ----
probe random-wide 2 "has more than 2^63 - 1 values" 'ctx:random(math.mininteger, math.maxinteger)'
probe random-wide2 2 "has more than 2^63 - 1 values" 'ctx:random(-1, math.maxinteger)'
probe sleep-wide 2 "goes beyond" 'ctx:sleep(0, math.maxinteger)'
probe sleep-inf 2 "ctx:sleep: inf is not a duration" 'ctx:sleep(1/0)'
probe sleep-nan 2 "is not a duration" 'ctx:sleep(0/0)'
probe eval-timeout-inf 2 "ctx:eval: inf is not a duration" 'ctx:eval(node, "distlock/release", {"k"}, {"v"}, 1/0)'
probe receive-inf 2 "ctx:receive: inf is not a duration" 'ctx:send(node, "GET", "k") ctx:receive(1/0)'
probe critical-nan 2 "ctx:critical: -nan is not a duration" 'ctx:critical(0/0)'
probe instant-inf 2 "an instant plus inf" 'local i = ctx:instant() + 1/0'
probe call-table-arg 2 "command arguments must be strings or numbers, not table" 'ctx:call(node, "SET", {}, function() end)'
probe eval-table-arg 2 "script arguments must be strings or numbers, not table" 'ctx:eval(node, "distlock/release", {"k"}, {{}})'
probe call-huge-arg 2 "a request of more than 16 MiB: too large" 'ctx:call(node, "SET", "k", string.rep("x", 20 * 1024 * 1024))'
# a huge sleep is simply beyond the run: it never comes within it
model_scenario "$tmp/sleep-far" 'ctx:sleep(1e300) ctx:log("woke")'
expect_exit 0 "ctx:sleep(1e300) is past the run's end" -- timeout -k 5 120 "$LL" run "$tmp/sleep-far/s.lua" -q
no_sanitizer "ctx:sleep(1e300)"
# a huge log line is cut, with a mark
model_scenario "$tmp/log-huge" 'ctx:log("%s", string.rep("é", 3e6))'
expect_exit 1 "ctx:log of 6 MB" -- timeout -k 5 120 "$LL" run "$tmp/log-huge/s.lua" -q --json "$tmp/log-huge/h.jsonl"
check "ctx:log of 6 MB: cut with a mark" grep -q 'more bytes cut' "$tmp/log-huge/h.jsonl"
check "ctx:log of 6 MB: the history stays small" test "$(wc -c <"$tmp/log-huge/h.jsonl")" -lt 100000
# ASan's leak check: no heap memory left behind by an error out of ctx:call
model_scenario "$tmp/leak" 'ctx:call(node, "SET", "k", {})'
expect_exit 2 "ctx:call error: exit 2" -- env ASAN_OPTIONS=detect_leaks=1 timeout -k 5 120 "$LL" run "$tmp/leak/s.lua" -q
no_sanitizer "ctx:call error: no leak"
# many simultaneous events: each pop no longer takes and puts back every tie
model_scenario "$tmp/spawn-many" 'for i = 1, 5000 do ctx:spawn(function() ctx:sleep(100) end) end'
expect_exit 1 "5000 coroutines at one instant" -- timeout -k 5 300 "$LL" run "$tmp/spawn-many/s.lua" -q
no_sanitizer "5000 coroutines at one instant"

# ---- 4. bounded input ----
mkfifo "$tmp/fifo"
bounded 2 "a FIFO as the scenario" "not a regular file" -- "$LL" run "$tmp/fifo"
bounded 2 "/dev/zero as the scenario" "not a regular file" -- "$LL" run /dev/zero
bounded 2 "/dev/zero as --choices" "not a regular file" -- "$LL" run gc-pause-single --choices /dev/zero
bounded 2 "a FIFO as a transcript" "not a regular file" -- "$LL" redis --check "$tmp/fifo"
for c in 'SCAN 0' 'SORT nokey' 'SORT_RO nokey'; do
    printf '%s\n' "$c" >"$tmp/in"
    expect_exit 0 "$c on an empty database" -- "$LL" redis <"$tmp/in"
    no_sanitizer "$c on an empty database"
done

# locklab kind: meta-lines parsed strictly, the clock bounded, lines bounded, statements in O(n)
printf '%s\n' '.advance 9223372036854775807' '.advance 1e300' '.advance abc' '.client 1e9' '.advance 1000000000000' \
    '.time' >"$tmp/in"
for k in redis zookeeper etcd mysql mongodb; do
    expect_exit 0 "kind $k: .advance extremes" -- timeout -k 5 120 "$LL" kind "$k" <"$tmp/in"
    no_sanitizer "kind $k: .advance extremes"
    [ "$(grep -c '^(error) ' "$tmp/out")" -eq 4 ] && [ "$(tail -n 1 "$tmp/out")" = 2700000000000 ] && ok ||
        bad "kind $k: .advance extremes refused, the clock where it should be"
done
bounded 2 "kind mysql < /dev/zero" "kind: stdin:1: a line of over 1048576 bytes" -- "$LL" kind mysql </dev/zero
python3 -c "print('\"CREATE TABLE t (name VARCHAR(8) NOT NULL, PRIMARY KEY (name))\"')
print('\"DELETE FROM t WHERE ' + ' AND '.join([\"name = 'a'\"] * 20000) + '\"')
print('\"CREATE TABLE u (' + ', '.join('c%d INT' % i for i in range(4097)) + ')\"')" >"$tmp/sql"
expect_exit 0 "kind mysql: 20,000 AND terms, 4,097 columns" -- timeout -k 5 120 "$LL" kind mysql <"$tmp/sql"
no_sanitizer "kind mysql: long statements"
check "kind mysql: 4,097 columns are MariaDB's ERROR 1117" grep -q '^ERROR 1117 (HY000): Too many columns' "$tmp/out"
if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%M' -o "$tmp/rss" timeout -k 5 120 "$LL" kind mysql <"$tmp/sql" >/dev/null 2>&1
    [ "$(tail -n 1 "$tmp/rss")" -lt 262144 ] && ok || bad "kind mysql: long statements: peak memory $(tail -n 1 "$tmp/rss") KB"
fi

# The matrix cell zookeeper/failover under the seeds that broke it: a follower that got A's
# lock node but not its parent's record numbered B's node 0000000000 too, and A's client,
# retrying its create without first looking for its protected node, left that node (of its
# own live session) ahead of everyone's.
for seed in 227 242; do
    expect_exit 0 "zookeeper/failover --seed $seed meets its expectations" -- "$LL" run scenarios/matrix/zookeeper/failover.lua --seed $seed -q
done
"$LL" run scenarios/matrix/zookeeper/failover.lua --seed 227 >"$tmp/zk.txt" 2>&1
check "zookeeper/failover --seed 227: B's node is numbered after A's" grep -q 'getChildren /locks/lock for B → \[_c_[0-9a-f-]*-lock-0000000000, _c_[0-9a-f-]*-lock-0000000001\]' "$tmp/zk.txt"

# ---- 5. writers: a failed write is exit 3, and nothing is left under the final name ----
writers() { # DIR TAG: every writer into DIR (a full file system, or where writes fail)
    local d=$1 tag=$2 name
    for spec in "json:--json" "verdicts:--verdicts" "html:--html" "html-static:--html-static" "plot.png:--plot" \
        "plot.svg:--plot" "spacetime.svg:--spacetime" "choices:--save-choices" "edn:--export knossos" \
        "porcupine.json:--export porcupine" "shiviz.log:--export shiviz"; do
        name=${spec%%:*}
        expect_exit 3 "$tag: run ${spec#*:}" -- "$LL" run gc-pause-single -q ${spec#*:} "$d/out.$name"
        one_line_err "$tag: run ${spec#*:}" "No space left on device"
        [ ! -e "$d/out.$name" ] && ok || bad "$tag: run ${spec#*:} left $d/out.$name"
    done
    expect_exit 3 "$tag: sweep --csv" -- "$LL" sweep sweep-gc-pause --vary gc_pause=5s:6s:1s --runs 1 --csv "$d/s.csv"
    expect_exit 3 "$tag: sweep --plot" -- "$LL" sweep sweep-gc-pause --vary gc_pause=5s:6s:1s --runs 1 --plot "$d/s.png" --csv "$tmp/s.csv"
    [ ! -e "$d/s.png" ] && [ ! -e "$d/s.csv" ] && ok || bad "$tag: sweep left a file"
    expect_exit 3 "$tag: matrix --plot" -- "$LL" matrix --plot "$d/m.svg" --csv "$tmp/m.csv"
    [ ! -e "$d/m.svg" ] && ok || bad "$tag: matrix left a file"
    expect_exit 3 "$tag: check --out" -- "$LL" check tests/check/failover.lua --jobs 1 --out "$d/cx"
    [ ! -e "$d/cx.lua" ] && ok || bad "$tag: check --out left $d/cx.lua"
    [ "$(ls -A "$d" | grep -vc '^filler$')" -eq 0 ] && ok || bad "$tag: temporary files left: $(ls -A "$d")"
}
mkdir -p "$tmp/full"
if mount -t tmpfs -o size=256k tmpfs "$tmp/full" 2>/dev/null; then
    mnt="$tmp/full"
    dd if=/dev/zero of="$mnt/filler" bs=4k >/dev/null 2>&1 # until the file system is full
    writers "$mnt" "full tmpfs"
    umount "$mnt" && mnt=""
else
    echo "note: cannot mount a tmpfs here (not root?): the full-disk writers are tested through /dev/full only"
fi
# serve --json on a full file system stops at once with exit 3: the history is not dropped
# while it serves on (the wait for it to stop is bounded by a count, not a clock threshold)
if command -v redis-cli >/dev/null && mount -t tmpfs -o size=64k tmpfs "$tmp/full" 2>/dev/null; then
    mnt="$tmp/full"
    port=$((21000 + RANDOM % 20000))
    "$LL" serve --port $port --json "$mnt/h.jsonl" >"$tmp/serve.out" 2>"$tmp/serve.err" &
    spid=$!
    for _ in $(seq 300); do redis-cli -p $port PING >/dev/null 2>&1 && break; sleep 0.1; done
    big=$(head -c 2000 /dev/zero | tr '\0' x)
    for _ in $(seq 2000); do redis-cli -p $port SET k "$big" >/dev/null 2>&1 || break; done
    for _ in $(seq 600); do kill -0 $spid 2>/dev/null || break; sleep 0.1; done
    kill $spid 2>/dev/null
    wait $spid
    rc=$?
    [ "$rc" -eq 3 ] && grep -q "cannot write '$mnt/h.jsonl'" "$tmp/serve.err" && ok ||
        bad "serve --json on a full file system: exit $rc, $(tail -n 1 "$tmp/serve.err")"
    umount "$mnt" && mnt=""
fi
# D18r: and no command it answered is missing from the file, which ends with a whole record
# (the records are flushed before the replies go out; a failed write is cut back)
if command -v redis-cli >/dev/null && mount -t tmpfs -o size=64k tmpfs "$tmp/full" 2>/dev/null; then
    mnt="$tmp/full"
    port=$((21000 + RANDOM % 20000))
    "$LL" serve --port $port --json "$mnt/h.jsonl" >"$tmp/serve.out" 2>"$tmp/serve.err" &
    spid=$!
    for _ in $(seq 300); do redis-cli -p $port PING >/dev/null 2>&1 && break; sleep 0.1; done
    python3 - $port >"$tmp/d18r.out" <<'PY'
import socket, sys
s = socket.create_connection(('127.0.0.1', int(sys.argv[1]))); s.settimeout(60)
answered = 0
try:
    for _ in range(200):  # batches of 100, each answered before the next (or never)
        s.sendall(b'INCR k\r\n' * 100); got = b''
        while got.count(b'\r\n') < 100:
            r = s.recv(65536)
            if not r: raise EOFError
            got += r
        answered += 100
except Exception:
    answered += got.count(b'\r\n')
print(answered)
PY
    for _ in $(seq 600); do kill -0 $spid 2>/dev/null || break; sleep 0.1; done
    kill $spid 2>/dev/null
    wait $spid
    rc=$?
    python3 - "$mnt/h.jsonl" "$(cat "$tmp/d18r.out")" >"$tmp/d18r.check" <<'PY'
import json, sys
d = open(sys.argv[1], 'rb').read(); n = 0
for l in d.split(b'\n'):
    if l: n += json.loads(l).get('ev') == 'exec'
answered = int(sys.argv[2])
print('ok' if d.endswith(b'\n') and answered <= n else 'answered %d, recorded %d, ends %r' % (answered, n, d[-30:]))
PY
    [ "$rc" -eq 3 ] && [ "$(cat "$tmp/d18r.check")" = ok ] && ok || bad "D18r: serve --json on a full disk: exit $rc, $(cat "$tmp/d18r.check")"
    umount "$mnt" && mnt=""
fi
# I08: --json on a read-only file system is exit 3 (an I/O error), as serve --help says
if mount -t tmpfs -o ro,size=64k tmpfs "$tmp/full" 2>/dev/null; then
    mnt="$tmp/full"
    bounded 3 "I08: serve --json on a read-only file system" "Read-only file system" -- "$LL" serve --port $((21000 + RANDOM % 20000)) --json "$mnt/h.jsonl"
    umount "$mnt" && mnt=""
fi
# /dev/full: a device is written in place, and its ENOSPC is exit 3
for opt in --json --verdicts --html --html-static --spacetime --save-choices; do
    expect_exit 3 "/dev/full: run $opt" -- "$LL" run gc-pause-single -q $opt /dev/full
    one_line_err "/dev/full: run $opt" "No space left on device"
done

# ---- 7. the second audit (2026-12, issue 37): its reproducers under defects/ ----
# N6: bit.tohex(x, -2^31) negated INT_MIN and copied 2^64-2^31 bytes from an 8-byte buffer
# (SIGSEGV, UBSan's "negation of -2147483648"). redis-server 7.0.15 answers 8 upper-case
# digits, as for any negative count (the boundary values of every library entry point are
# compared with redis-server in tests/diff/cases/scriptlib-bounds.txt).
printf '%s\n' 'EVAL "return bit.tohex(1, -2147483648)" 0' 'EVAL "return bit.tohex(255, 2^31)" 0' \
    'EVAL "return bit.tohex(255, -2^31 - 2^32)" 0' >"$tmp/n6.in"
expect_exit 0 "N6: bit.tohex(x, -2^31) in locklab redis" -- timeout -k 5 120 "$LL" redis <"$tmp/n6.in"
[ "$(tr -d '\r' <"$tmp/out")" = "$(printf '"00000001"\n"000000FF"\n"000000FF"')" ] && ok ||
    bad "N6: bit.tohex(x, -2^31) answered $(tr '\n' ' ' <"$tmp/out")"
no_sanitizer "N6: bit.tohex(x, -2^31)"
model_scenario "$tmp/n6" 'assert(ctx:call(node, "EVAL", "return bit.tohex(1, -2147483648)", 0) == "00000001")'
# (the model's lock is no lock: exit 1 for the verdicts; a failed assert would be exit 2)
expect_exit 1 "N6: bit.tohex(x, -2^31) from a model" -- timeout -k 5 120 "$LL" run "$tmp/n6/s.lua" -q
no_sanitizer "N6: bit.tohex(x, -2^31) from a model"

# N2: outputs went through PATH.tmp.<pid>, opened without O_EXCL: links planted at the coming
# PIDs' names were written through (the victim overwritten) and renamed to PATH. Now the
# temporary file has an unpredictable name made with O_EXCL|O_NOFOLLOW: the same planting
# leaves the victim alone and PATH a regular file. (One Python process plants the links, so
# planting uses up no PIDs.)
mkdir -p "$tmp/n2"
for spec in "json:--json" "verdicts:--verdicts" "html:--html" "svg:--spacetime" "choices:--save-choices" \
    "porcupine:--export porcupine" "checkout:check"; do
    name=${spec%%:*} opt=${spec#*:}
    python3 - "$LL" "$tmp/n2" "$name" "$opt" >"$tmp/n2.out" 2>&1 <<'PY'
import os, subprocess, sys
ll, d, name, opt = sys.argv[1:]
victim = os.path.join(d, 'victim.txt'); open(victim, 'w').write('precious\n')
out = os.path.join(d, 'out.' + name)
if opt == 'check':
    argv = [ll, 'check', 'tests/check/failover.lua', '--jobs', '1', '--out', out]
    targets = [out + '.lua', out + '.choices', out + '.txt']
else:
    argv = [ll, 'run', 'gc-pause-single', '-q'] + opt.split() + [out]
    targets = [out]
n = int(open('/proc/sys/kernel/ns_last_pid').read()); made = []
for t in targets:
    for i in range(n + 1, n + 60):
        p = '%s.tmp.%d' % (t, i); os.symlink(victim, p); made.append(p)
r = subprocess.run(argv, capture_output=True)
bad = []
if open(victim).read() != 'precious\n': bad.append('the victim was overwritten')
for t in targets:
    if os.path.exists(t) and (os.path.islink(t) or not os.path.isfile(t)): bad.append(t + ' is a link')
if not any(os.path.isfile(t) and not os.path.islink(t) for t in targets): bad.append('no output written (exit %d)' % r.returncode)
left = [f for f in os.listdir(d) if f.startswith('.')]
if left: bad.append('temporary files left: %s' % left)
for p in made: os.remove(p)
for t in targets:
    if os.path.lexists(t): os.remove(t)
os.remove(victim)
print('; '.join(bad) if bad else 'ok')
PY
    [ "$(cat "$tmp/n2.out")" = ok ] && ok || bad "N2: planted links at PATH.tmp.<pid>, $opt: $(cat "$tmp/n2.out")"
done

# N3: a model's EVAL of a loop around a 30 MB search ran outside every budget: run went on for
# hours, check ignored --time, SIGINT and SIGTERM. The model's CPU-time net now covers the
# scripts its requests run (exit 2, one line), check's flag and --time end a running script,
# and a worker hears a signal sent to check alone.
mkdir -p "$tmp/n3"
printf '%s\n' "local M = {}" "function M.new(ctx, cfg)" "  local node = ctx:nodes()[1]" \
    "  return { acquire = function() local ok, err = ctx:call(node, 'EVAL', \"local s=string.rep('a',3e7) while true do s:find('b',1,true) end\", 0)" \
    "    ctx:log(tostring(err)) return true end, release = function() return true end }" "end" "return M" >"$tmp/n3/m.lua"
printf '%s\n' "return { name = 'probe', about = 'probe', protocol = './m.lua', nodes = 1, lease = '10s', wait = '5s'," \
    "  clients = { { name = 'A' } }, duration = '30s'," \
    "  explore = { faults = { gc_pause = { targets = { 'A' }, params = { '1s', '2s', '3s', '4s', '5s', '6s' } } }, max_faults = 1 } }" >"$tmp/n3/s.lua"
bounded 2 "N3: run of a model whose EVAL scans 30 MB in a loop" \
    "m.lua made a node run a script (EVAL or FCALL) that used up its CPU time without returning" -- "$LL" run "$tmp/n3/s.lua"
for jobs in 1 2; do
    expect_exit 4 "N3: check --time 2 --jobs $jobs of that model" -- timeout -k 5 300 "$LL" check "$tmp/n3/s.lua" --time 2 --jobs $jobs
    no_sanitizer "N3: check --time --jobs $jobs"
    # SIGINT to check alone (not its process group) once it searches: exit 130, interrupted
    "$LL" check "$tmp/n3/s.lua" --time 0 --jobs $jobs >"$tmp/out" 2>"$tmp/err" &
    cpid=$!
    for _ in $(seq 600); do grep -q "searching" "$tmp/err" && break; sleep 0.1; done
    sleep 0.5
    kill -INT $cpid
    for _ in $(seq 600); do kill -0 $cpid 2>/dev/null || break; sleep 0.1; done
    kill -KILL $cpid 2>/dev/null
    wait $cpid
    rc=$?
    [ $rc -eq 130 ] && grep -q "interrupted after" "$tmp/out" && ok || bad "N3: check --jobs $jobs after SIGINT: exit $rc"
done

# ... and with a second client (the audit's own reproducer, where check ran on for minutes):
# the ended scripts let both in, a violation; once a script was ended the runs no longer show
# what the model does, so it is minimised no further, and its files are written with scripts
# ended as the search's were
sed -i "s/clients = { { name = 'A' } }/clients = { { name = 'A' }, { name = 'B', start = '10ms' } }/" "$tmp/n3/s.lua"
expect_exit 1 "N3: check --time 2 of that model, two clients" -- \
    timeout -k 5 300 "$LL" check "$tmp/n3/s.lua" --time 2 --out "$tmp/n3/ce"
grep -qF 'counter-example (minimising stopped by Ctrl-C or --time' "$tmp/out" && ok ||
    bad "N3: two clients: $(grep 'counter-example' "$tmp/out")"
no_sanitizer "N3: check --time, two clients"

# N5: a model's log text and error messages reached the terminal raw (ESC sequences retitled
# the window, a CR and a newline forged "all expectations met"): control characters are now
# shown as \xHH, in the trace and in the error line.
mkdir -p "$tmp/n5"
printf '%s\n' "local M = {}" "function M.new(ctx, cfg)" "  return { acquire = function()" \
    "    ctx:log('\\27]0;PWNED\\7\\27[2J\\27[31mred\\rlocklab: all expectations met\\nforged line')" \
    "    error('\\27]0;PWN\\7\\27[2Jcleared\\rforged\\nline') end, release = function() return true end }" "end" "return M" >"$tmp/n5/m.lua"
printf '%s\n' "return { name = 'probe', about = 'probe', protocol = './m.lua', nodes = 1, lease = '10s', wait = '5s'," \
    "  clients = { { name = 'A' } }, duration = '5s' }" >"$tmp/n5/s.lua"
expect_exit 2 "N5: a model's log and error with control characters" -- "$LL" run "$tmp/n5/s.lua"
LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$tmp/out" "$tmp/err" && bad "N5: a control character reached the terminal" || ok
grep -qF 'says: \x1b]0;PWNED\x07\x1b[2J\x1b[31mred\x0dlocklab: all expectations met\x0aforged line' "$tmp/out" && ok ||
    bad "N5: the log line is not shown escaped: $(grep says "$tmp/out")"
grep -qF 'locklab: client A: ' "$tmp/err" && grep -qF '\x1b]0;PWN\x07\x1b[2Jcleared\x0dforged\x0aline' "$tmp/err" && ok ||
    bad "N5: the error line is not shown escaped: $(cat "$tmp/err")"
one_line_err "N5: the model's error" "cleared"
# N7: a non-string error object printed "locklab: (null)": now named by its type, with the file
mkdir -p "$tmp/n7"
printf '%s\n' "return { name = 'probe', about = 'probe', protocol = './m.lua', nodes = 1, lease = '10s', wait = '5s'," \
    "  clients = { { name = 'A' } }, duration = '5s' }" >"$tmp/n7/s.lua"
for spec in 'table:error({})' 'nil:error(nil)' 'table:error(setmetatable({}, {__tostring = function() return "x" end}))' 'boolean:error(false)'; do
    echo "${spec#*:}" >"$tmp/n7/m.lua"
    bounded 2 "N7: ${spec#*:}" "$tmp/n7/m.lua: (error object is a ${spec%%:*} value)" -- "$LL" run "$tmp/n7/s.lua" -q
done
printf '%s\n' "local M = {}" "function M.new(ctx) return { acquire = function() error({}) end, release = function() return true end } end" "return M" >"$tmp/n7/m.lua"
bounded 2 "N7: error({}) inside acquire" "client A: (error object is a table value)" -- "$LL" run "$tmp/n7/s.lua" -q
# N8: invalid UTF-8 in a name made the SVGs ill-formed XML: refused at load, FILE:LINE
mkdir -p "$tmp/n8"
printf '%s\n' 'return { name = "probe \xff\xfe", about = "x", protocol = "distlock", nodes = 1, lease = "10s",' \
    '  clients = { { name = "A", work = "1s" }, { name = "B", start = "100ms" } }, duration = "5s" }' >"$tmp/n8/s.lua"
bounded 2 "N8: a name that is not UTF-8" "s.lua:1: name must be UTF-8 text" -- "$LL" run "$tmp/n8/s.lua" -q --spacetime "$tmp/n8/st.svg"
[ ! -e "$tmp/n8/st.svg" ] && ok || bad "N8: an SVG was written"
n8() { printf '%s\n' "return { name = \"probe é ✓ <b> & ]]>\", about = \"$1\", protocol = \"distlock\", nodes = 1, lease = \"10s\"," \
    '  clients = { { name = "A", work = "1s" }, { name = "B", start = "100ms" } }, duration = "5s" }' >"$tmp/n8/s.lua"; }
n8 '\xed\xa0\x80'
bounded 2 "N8: about holding a surrogate" "s.lua:1: about must be UTF-8 text" -- "$LL" run "$tmp/n8/s.lua" -q
n8 x
expect_exit 0 "N8: a UTF-8 name with markup characters" -- "$LL" run "$tmp/n8/s.lua" -q --spacetime "$tmp/n8/st.svg"
python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$tmp/n8/st.svg" && ok || bad "N8: the space-time SVG is not well-formed"
# gnuplot's own SVG keeps a title's "]]>", which XML forbids in text: written "]]&gt;"
if command -v gnuplot >/dev/null; then
    expect_exit 0 "N8: --plot .svg of a name holding ]]>" -- "$LL" run "$tmp/n8/s.lua" -q --plot "$tmp/n8/pl.svg"
    python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$tmp/n8/pl.svg" && ok || bad "N8: gnuplot's SVG is not well-formed"
fi
# D16r: --max-paths 100 --jobs 2 searched 130 paths: the workers now share what is left
for jobs in 1 2; do
    "$LL" check tests/check/redlock-contend.lua --max-paths 100 --jobs $jobs --time 0 --out "$tmp/d16r" >"$tmp/out" 2>"$tmp/err"
    got=$(sed -n 's/^ *systematic search: \([0-9]*\) paths.*/\1/p' "$tmp/out")
    [ -n "$got" ] && [ "$got" -le 100 ] && [ "$got" -ge 50 ] && ok || bad "D16r: --max-paths 100 --jobs $jobs searched ${got:-?} paths"
done

# N9: replies of ctx:send never received piled up across steps outside the 64 MiB cap (500,000:
# 520 MB, time superlinear): each now counts toward the model's cap until received, and
# taking the oldest pending one is O(1)
probe n9-sends 2 "used more than 64 MiB of memory, with the" 'for j = 1, 100 do for i = 1, 5000 do ctx:send(node, "INCR", "k") end ctx:sleep(1) end'
model_scenario "$tmp/n9-received" 'for j = 1, 10 do for i = 1, 5000 do ctx:send(node, "INCR", "k") end for i = 1, 5000 do ctx:receive() end ctx:sleep(1) end'
expect_exit 1 "N9: 50,000 sends, each received (the verdicts: exit 1)" -- timeout -k 5 300 "$LL" run "$tmp/n9-received/s.lua" -q
no_sanitizer "N9: sends received"

# ---- 8. Ctrl-C while `check` minimises (issue 37): the minimiser stops after the run in
# progress and writes the smallest counter-example found by then, saying so; it replays. Each
# run of this scenario computes for a while in every acquire (1-2 s a run here under the
# sanitizers, on a loaded machine), and minimising it takes about 9 runs; SIGINT is sent once
# check says it is minimising (a bounded count of quick polls, no duration asserted), and
# check ends after the run in progress and the runs that confirm and narrate what it has ----
mkdir -p "$tmp/shrink"
cat >"$tmp/shrink/m.lua" <<'EOF'
-- everyone enters (the bug), after a long computation: every run of the scenario is slow
local M = {}
function M.new(ctx, cfg)
  local lock = {}
  function lock.acquire(wait_ms, lease_ms)
    local x = 0
    for i = 1, 100000 do x = x + i % 7 end
    return x >= 0
  end
  function lock.release() return true end
  return lock
end
return M
EOF
cat >"$tmp/shrink/s.lua" <<'EOF'
return {
  name = "minimising cut short",
  about = [[X and Y both enter at once; every acquire computes for a while, so each run is slow.]],
  protocol = "./m.lua", nodes = 1, lease = "10s", wait = "30s",
  network = { delay = "1ms" },
  clients = { { name = "X", rounds = 1000000, work = "100ms", think = "100ms" },
              { name = "Y", rounds = 1000000, work = "100ms", think = "100ms" } },
  duration = "8s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
EOF
timeout -k 120 600 "$LL" check "$tmp/shrink/s.lua" --out "$tmp/shrink/ce" >"$tmp/out" 2>"$tmp/err" &
ck=$!
for _ in $(seq 6000); do grep -q 'minimising it' "$tmp/err" && break; kill -0 $ck 2>/dev/null || break; sleep 0.05; done
kill -INT $ck 2>/dev/null
wait $ck
rc=$?
[ $rc -eq 1 ] && ok || bad "shrink SIGINT: check exited $rc, not 1 (a violation found)"
grep -qF 'minimising it (Ctrl-C stops there and keeps the smallest counter-example so far)' "$tmp/err" && ok ||
    bad "shrink SIGINT: check did not say it was minimising: $(tr '\n' ' ' <"$tmp/err")"
grep -qF 'counter-example (minimising stopped by Ctrl-C or --time: the smallest found by then, not minimised further): 0 fault(s)' \
    "$tmp/out" && ok || bad "shrink SIGINT: the report does not say the minimising was interrupted: $(grep counter-example "$tmp/out")"
no_sanitizer "shrink SIGINT"
# the run was not shortened (the last step would have made it 100-200 ms), and the files replay it
grep -qF 'duration = "8s"' "$tmp/shrink/ce.lua" && ok || bad "shrink SIGINT: $(grep duration "$tmp/shrink/ce.lua")"
expect_exit 0 "shrink SIGINT: the counter-example replays, its violation as expected" -- \
    timeout -k 5 300 "$LL" run "$tmp/shrink/ce.lua" --choices "$tmp/shrink/ce.choices" -q
grep -q 'mutual_exclusion  VIOLATED' "$tmp/out" && ok || bad "shrink SIGINT: the replay shows no violation"

# ---- 6. peak memory of the heaviest probes, under 256 MB (the optimised build's figure
# would be lower still; ASan's shadow memory is counted here) ----
if [ -x /usr/bin/time ]; then
    for p in budget-memory budget-concat call-huge-arg log-huge budget-spawn n9-sends; do
        /usr/bin/time -f '%M' -o "$tmp/rss" timeout -k 5 120 "$LL" run "$tmp/$p/s.lua" -q >/dev/null 2>&1
        kb=$(tail -n 1 "$tmp/rss")
        [ "$kb" -lt 262144 ] && ok || bad "$p: peak memory $kb KB"
    done
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
