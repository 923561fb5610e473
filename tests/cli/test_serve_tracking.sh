#!/usr/bin/env bash
# CLIENT TRACKING (client-side caching) in `locklab serve`, byte for byte against a real
# redis-server 7.0.15: tests/cli/tracking.py runs one sequence of commands on several raw
# connections of each server — REDIRECT to a RESP2 subscriber of __redis__:invalidate and to a
# RESP3 connection, a RESP3 connection's own pushes after its replies (in MULTI/EXEC and
# scripts too), BCAST with prefixes, NOLOOP, OPTIN/OPTOUT with CLIENT CACHING, the redirect
# gone (tracking-redir-broken), FLUSHALL/FLUSHDB's nulls, CLIENT REPLY OFF, RESET, expiry,
# the errors, CLIENT TRACKINGINFO/GETREDIR, CLIENT INFO's flags and INFO's figures — and the
# two outputs must be the same bytes. Servers are stopped at the end whatever happens;
# readiness is a bounded polling loop, never a time threshold. Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
LL=${LOCKLAB:-./locklab}
tmp=$(mktemp -d /tmp/locklab-tracking.XXXXXX)
pids=()
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

wait_for() {
    local n=$1
    shift
    for _ in $(seq 1 "$n"); do
        "$@" && return 0
        sleep 0.05
    done
    return 1
}

# A real redis-server on a free port of 7500-7599 (one whose process id INFO confirms).
rport=""
for p in $(seq 7500 7599); do
    redis-cli -p "$p" ping >/dev/null 2>&1 && continue
    redis-server --port "$p" --bind 127.0.0.1 --save '' --appendonly no --dir "$tmp" --daemonize no \
        --logfile "$tmp/redis.log" &
    rpid=$!
    pids+=("$rpid")
    if wait_for 100 redis-cli -p "$p" ping >/dev/null 2>&1 &&
        [ "$(redis-cli -p "$p" info server | tr -d '\r' | sed -n 's/^process_id://p')" = "$rpid" ]; then
        rport=$p
        break
    fi
    kill "$rpid" 2>/dev/null
    wait "$rpid" 2>/dev/null
done
[ -n "$rport" ] && ok || bad "no redis-server to compare with"

# locklab serve --clock wall on a free port of 7400-7499 (its "ready" line seen).
sport=""
spid=""
for _ in $(seq 1 40); do
    port=$((7400 + RANDOM % 100))
    "$LL" serve --port "$port" --clock wall >"$tmp/serve.out" 2>"$tmp/serve.err" &
    spid=$!
    for _ in $(seq 1 2400); do
        grep -q '; ready$' "$tmp/serve.out" 2>/dev/null && break
        kill -0 "$spid" 2>/dev/null || break
        sleep 0.05
    done
    if grep -q '; ready$' "$tmp/serve.out"; then
        pids+=("$spid")
        sport=$port
        break
    fi
    kill "$spid" 2>/dev/null
    wait "$spid" 2>/dev/null
done
[ -n "$sport" ] && ok || bad "locklab serve does not start"

if [ -n "$rport" ] && [ -n "$sport" ]; then
    python3 tests/cli/tracking.py "$rport" >"$tmp/redis.txt" 2>&1
    [ $? -eq 0 ] && ok || { bad "the sequence fails against redis-server"; tail -5 "$tmp/redis.txt"; }
    python3 tests/cli/tracking.py "$sport" >"$tmp/serve.txt" 2>&1
    [ $? -eq 0 ] && ok || { bad "the sequence fails against locklab serve"; tail -5 "$tmp/serve.txt"; }
    # what the real server sent is what the sequence is about (so that an empty run cannot pass)
    n=$(grep -c 'invalidate' "$tmp/redis.txt")
    [ "$n" -ge 30 ] && ok || bad "redis-server sent invalidations on only $n steps"
    grep -q "tracking-redir-broken" "$tmp/redis.txt" && ok || bad "no tracking-redir-broken from redis-server"
    if cmp -s "$tmp/redis.txt" "$tmp/serve.txt"; then ok; else
        bad "CLIENT TRACKING over raw sockets: redis-server and locklab serve differ"
        diff "$tmp/redis.txt" "$tmp/serve.txt" | head -30
    fi
    kill -TERM "$spid"
    wait "$spid"
    rc=$?
    pids=("$rpid") # serve is gone: not signalled again
    [ "$rc" -eq 0 ] && ok || bad "serve's exit status after SIGTERM: $rc"
    if grep -q 'Sanitizer\|runtime error' "$tmp/serve.err"; then bad "sanitizer report"; head -30 "$tmp/serve.err"; else ok; fi
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
