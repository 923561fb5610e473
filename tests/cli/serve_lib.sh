# tests/cli/serve_lib.sh — what the tests of `locklab serve` share (test_serve.sh,
# test_serve_tracking.sh); sourced from the tree's root as `. tests/cli/serve_lib.sh NAME`.
# Sets LL, tmp (a fresh /tmp/locklab-NAME.XXXXXX), the pass and fail counts, pids (the
# servers still running: all stopped at exit) and the helpers below. Not a test itself.
LL=${LOCKLAB:-./locklab}
tmp=$(mktemp -d "/tmp/locklab-$1.XXXXXX")
pids=()
# Servers still running (each removed once stopped, so no id is signalled after its
# process is gone).
forget() {
    local keep=() q
    for q in "${pids[@]}"; do [ "$q" = "$1" ] || keep+=("$q"); done
    pids=("${keep[@]}")
}
cleanup() {
    local q
    for q in "${pids[@]}"; do kill -TERM "$q" 2>/dev/null && wait "$q" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# check DESCRIPTION EXPECTED ACTUAL
check() {
    if [ "$2" == "$3" ]; then ok; else bad "$1: expected [$2], got [$3]"; fi
}

# Polls until cmd succeeds, at most n times (a bound, not a time limit: each try is quick).
wait_for() {
    local n=$1
    shift
    for _ in $(seq 1 "$n"); do
        "$@" && return 0
        sleep 0.05
    done
    return 1
}

# started NAME PID: 0 once the server says it is ready, 1 once it has exited.
started() {
    for _ in $(seq 1 2400); do
        grep -q '; ready$' "$tmp/$1.out" 2>/dev/null && return 0
        kill -0 "$2" 2>/dev/null || return 1
        sleep 0.05
    done
    return 1
}

# start_serve NAME NODES [options...]: starts `locklab serve` on free ports of 7400-7499,
# trying others when a port is taken; sets PORT and PID. Its output goes to $tmp/NAME.out
# and $tmp/NAME.err.
start_serve() {
    local name=$1 nodes=$2
    shift 2
    for _ in $(seq 1 40); do
        local port=$((7400 + RANDOM % (101 - nodes)))
        "$LL" serve --port "$port" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
        local pid=$!
        pids+=("$pid")
        if started "$name" "$pid"; then
            PORT=$port
            PID=$pid
            return 0
        fi
        kill "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        forget "$pid"
        grep -q 'cannot listen' "$tmp/$name.err" || { cat "$tmp/$name.err"; return 1; }
    done
    return 1
}

# stop_serve NAME: SIGTERM, then exit 0, the closing line, and nothing from the sanitizers.
stop_serve() {
    local name=$1
    kill -TERM "$PID"
    wait "$PID"
    check "$name: exit status after SIGTERM" 0 "$?"
    forget "$PID"
    grep -q '^locklab serve: stopped after [0-9]* commands*$' "$tmp/$name.out" && ok || bad "$name: no closing line"
    if grep -q 'Sanitizer\|runtime error' "$tmp/$name.err"; then bad "$name: sanitizer report"; head -30 "$tmp/$name.err"; else ok; fi
}


# start_redis [OPTION...]: a real redis-server 7.0.15 on a free port of 7500-7599 (with these
# options besides), one whose process id INFO confirms (another test may race us for the
# port); sets rport ("" when none started) and RPID.
start_redis() {
    rport=""
    local p rpid
    for p in $(seq 7500 7599); do
        redis-cli -p "$p" ping >/dev/null 2>&1 && continue
        redis-server --port "$p" --bind 127.0.0.1 --save '' --appendonly no --dir "$tmp" --daemonize no \
            --logfile "$tmp/redis.log" "$@" &
        rpid=$!
        pids+=("$rpid")
        if wait_for 100 redis-cli -p "$p" ping >/dev/null 2>&1 &&
            [ "$(redis-cli -p "$p" info server | tr -d '\r' | sed -n 's/^process_id://p')" = "$rpid" ]; then
            rport=$p
            RPID=$rpid
            return 0
        fi
        kill "$rpid" 2>/dev/null; wait "$rpid" 2>/dev/null; forget "$rpid"
    done
    return 1
}

# same_bytes NAME WHAT SANITY [serve options...]: runs $tmp/NAME.py against the redis-server
# of start_redis and a fresh `locklab serve`; passes when SANITY (a shell test of what
# redis-server sent, $tmp/NAME.redis, so that a run that did nothing cannot pass) holds and
# the two outputs are the same bytes.
same_bytes() {
    local name=$1 what=$2 sanity=$3
    shift 3
    [ -n "$rport" ] || return 0
    start_serve "$name" 1 "$@" || { bad "the $what server does not start"; return 0; }
    python3 "$tmp/$name.py" "$rport" >"$tmp/$name.redis" 2>&1
    python3 "$tmp/$name.py" "$PORT" >"$tmp/$name.serve" 2>&1
    if eval "$sanity" && cmp -s "$tmp/$name.redis" "$tmp/$name.serve"; then ok; else
        bad "$what: redis-server and locklab serve differ"
        diff "$tmp/$name.redis" "$tmp/$name.serve" | head -30
    fi
    stop_serve "$name"
}
