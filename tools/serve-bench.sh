#!/usr/bin/env bash
# tools/serve-bench.sh — part of `make bench`: `locklab serve` over TCP beside a real
# redis-server (the anchor), both driven by redis-benchmark in the same run on this machine.
#
# Every figure is measured, none assumed. This script starts a redis-server (--save ''
# --appendonly no) and `locklab serve --clock wall` on free loopback ports in 7600-7699,
# and stops them afterwards, also on failure. On each it runs redis-benchmark (50
# connections, N requests, keys drawn from 100,000): SET, GET, and EVALSHA of the Redisson
# lock script (redisson/lock@HEAD, loaded with SCRIPT LOAD first; each call acquires or
# re-enters a random lock for 30 s), unpipelined (-P 1: a request, then its reply) and
# pipelined (-P 16). locklab serve runs with its defaults (the history kept in memory, the
# last 100,000 records) and again with --history-max 0, which records nothing.
#
# Then the seconds of writes to values up to 512 MB (tools/serve-bench-large.py), and memory:
# a million keys set on a fresh server of each kind, the resident memory each key takes.
# Prints tables: measurement | locklab | redis-server | ratio (locklab / redis-server).
# No target: the figure says how far a real client's view of the fake is from Redis's.
# Exit 0 when everything ran; 3 when something could not. Environment: SERVE_BENCH_N
# (default 50000) requests per run, SERVE_BENCH_KEYS (default 1000000) keys for the memory
# figure, SERVE_BENCH_REPS (default 3) runs of each, the median
# reported (the machine is shared: single runs vary by 2x); LOCKLAB another binary.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 3
export LOCKLAB_HOME=$PWD

LL=${LOCKLAB:-./locklab}
N=${SERVE_BENCH_N:-50000}
REPS=${SERVE_BENCH_REPS:-3}
tmp=$(mktemp -d /tmp/locklab-serve-bench.XXXXXX) || exit 3
pids=()

cleanup() {
    local p
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 3' INT TERM HUP

fail() {
    echo "serve-bench: $*" >&2
    exit 3
}

for t in redis-server redis-cli redis-benchmark; do command -v "$t" >/dev/null || fail "$t is not installed"; done
[ -x "$LL" ] || fail "$LL is missing (run make bench)"

free_port() {
    local p
    for p in $(seq "$1" 7699); do
        redis-cli -p "$p" ping >/dev/null 2>&1 && continue
        timeout 1 bash -c ": </dev/tcp/127.0.0.1/$p" 2>/dev/null && continue
        echo "$p"
        return 0
    done
    return 1
}

# ready PORT PID: the server answering on PORT is process PID (INFO server's process_id).
ready() {
    local i
    for i in $(seq 200); do
        kill -0 "$2" 2>/dev/null || return 1
        [ "$(redis-cli -p "$1" info server 2>/dev/null | tr -d '\r' | sed -n 's/^process_id://p')" = "$2" ] && return 0
        sleep 0.05
    done
    return 1
}

# start KIND [options]: starts a server on a free port; sets PORT and SPID.
start() {
    local kind=$1 p
    shift
    for _ in 1 2 3 4 5; do
        p=$(free_port "${next_port:-7600}") || return 1
        if [ "$kind" = redis ]; then
            redis-server --port "$p" --bind 127.0.0.1 --save '' --appendonly no --dir "$tmp" \
                --logfile "$tmp/redis.log" --daemonize no &
        else
            "$LL" serve --port "$p" --clock wall "$@" >"$tmp/serve-$p.out" 2>"$tmp/serve-$p.err" &
        fi
        SPID=$!
        pids+=("$SPID")
        if ready "$p" "$SPID"; then
            PORT=$p
            next_port=$((p + 1))
            return 0
        fi
        kill "$SPID" 2>/dev/null
        wait "$SPID" 2>/dev/null
    done
    return 1
}

body=$("$LL" scripts body redisson/lock@HEAD) || fail "cannot read redisson/lock@HEAD"

# one PORT PIPELINE ARGS...: requests per second of one redis-benchmark run.
one() {
    local port=$1 pipe=$2
    shift 2
    redis-benchmark -p "$port" -c 50 -n "$N" -r 100000 -P "$pipe" --csv "$@" 2>/dev/null |
        awk -F'"' 'NR > 1 && $4 != "" { print int($4); exit }'
}

# The three servers run side by side; each measurement takes its REPS runs in turn on each
# (redis, serve, serve0, redis, ...), so that a change in the machine's load falls on all
# three alike, and the median of each is kept.
kinds=(redis serve serve0)
declare -A port sha
for kind in "${kinds[@]}"; do
    case $kind in
    redis) start redis ;;
    serve) start serve ;;
    serve0) start serve --history-max 0 ;;
    esac || fail "cannot start $kind"
    port[$kind]=$PORT
    sha[$kind]=$(printf '%s' "$body" | redis-cli -p "$PORT" -x script load | tr -d '\r')
    [ ${#sha[$kind]} -eq 40 ] || fail "$kind: SCRIPT LOAD answered '${sha[$kind]}'"
done
for pipe in 1 16; do
    for t in set get evalsha; do
        for r in $(seq "$REPS"); do
            for kind in "${kinds[@]}"; do
                if [ "$t" = evalsha ]; then
                    v=$(one "${port[$kind]}" "$pipe" evalsha "${sha[$kind]}" 1 'lock:__rand_int__' 30000 'client-1:1')
                else
                    v=$(one "${port[$kind]}" "$pipe" -t "$t")
                fi
                [ -n "$v" ] || fail "$kind: redis-benchmark printed no figure for $t -P $pipe"
                echo "$v" >>"$tmp/$kind.${t}_$pipe"
            done
        done
    done
done

val() { sort -n "$tmp/$2.$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
commas() { printf '%s' "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|[,.]\)/\1,\2\3/' -e 'ta'; }
row() { printf '%-52s %14s %14s %7s\n' "$@"; }

echo
echo "locklab serve beside redis-server over loopback TCP (redis-benchmark, 50 connections, $(commas "$N") requests, median of $REPS)"
row "measurement (requests/s)" "locklab" "redis-server" "ratio"
for pipe in 1 16; do
    for t in set get evalsha; do
        name=$(echo "$t" | tr a-z A-Z)
        [ "$t" = evalsha ] && name="EVALSHA redisson/lock@HEAD"
        rd=$(val "${t}_$pipe" redis)
        for kind in serve serve0; do
            ll=$(val "${t}_$pipe" "$kind")
            label="$name, -P $pipe"
            [ "$kind" = serve0 ] && label="  ... locklab serve --history-max 0"
            row "$label" "$(commas "$ll")" "$(commas "$rd")" "$(awk "BEGIN { printf \"%.2fx\", $ll / $rd }")"
        done
    done
done

# Writes to large values (issue 37, N1): seconds for one client, each server in turn, the
# median of REPS runs (tools/serve-bench-large.py says what each line measures).
for r in $(seq "$REPS"); do
    for kind in redis serve; do
        python3 tools/serve-bench-large.py "${port[$kind]}" >>"$tmp/large.$kind" || fail "$kind: the large-value run failed"
    done
done
echo
echo "writes to large values, one client (seconds, median of $REPS; lower is better)"
row "measurement (s)" "locklab" "redis-server" "ratio"
while IFS= read -r name; do
    med() { grep -F "$name " "$tmp/large.$1" | awk '{ print $NF }' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
    ll=$(med serve)
    rd=$(med redis)
    row "$name" "$ll" "$rd" "$(awk "BEGIN { printf \"%.2fx\", $ll / $rd }")"
done < <(awk '{ $NF = ""; sub(/ $/, ""); print }' "$tmp/large.redis" | awk '!seen[$0]++')
# Memory per key: SERVE_BENCH_KEYS (default 1,000,000) SETs of key:N -> value:N through
# redis-cli --pipe into a fresh server of each kind; the process's resident memory (RSS,
# /proc) after, less before, per key. The same keys and values on each; INFO's used_memory is
# each server's own estimate (jemalloc's on redis-server, the store's on serve), so RSS is the
# figure compared.
K=${SERVE_BENCH_KEYS:-1000000}
python3 -c '
import sys
w = sys.stdout.buffer.write
for i in range(int(sys.argv[1])):
    k = b"key:%d" % i; v = b"value:%d" % i
    w(b"*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n" % (len(k), k, len(v), v))' "$K" >"$tmp/keys.resp" ||
    fail "cannot write the SETs"
rss() { awk '/^VmRSS/ { print $2 * 1024 }' "/proc/$1/status"; }
declare -A perkey
for kind in "${kinds[@]}"; do
    case $kind in
    redis) start redis ;;
    serve) start serve ;;
    serve0) start serve --history-max 0 ;;
    esac || fail "cannot start $kind for the memory measurement"
    before=$(rss "$SPID")
    redis-cli -p "$PORT" --pipe <"$tmp/keys.resp" >"$tmp/pipe.$kind" 2>&1 || fail "$kind: redis-cli --pipe failed"
    grep -q "errors: 0, replies: $K" "$tmp/pipe.$kind" || fail "$kind: $(tail -1 "$tmp/pipe.$kind")"
    [ "$(redis-cli -p "$PORT" dbsize | tr -d '\r')" = "$K" ] || fail "$kind: DBSIZE is not $K"
    after=$(rss "$SPID")
    perkey[$kind]=$(awk "BEGIN { printf \"%.1f\", ($after - $before) / $K }")
    kill "$SPID" 2>/dev/null
    wait "$SPID" 2>/dev/null
done
echo
echo "memory per key: $(commas "$K") SETs of key:N -> value:N, resident memory after less before, per key"
row "measurement (bytes/key)" "locklab" "redis-server" "ratio"
row "RSS per key (history on: the last 100,000 records)" "${perkey[serve]}" "${perkey[redis]}" \
    "$(awk "BEGIN { printf \"%.2fx\", ${perkey[serve]} / ${perkey[redis]} }")"
row "  ... locklab serve --history-max 0" "${perkey[serve0]}" "${perkey[redis]}" \
    "$(awk "BEGIN { printf \"%.2fx\", ${perkey[serve0]} / ${perkey[redis]} }")"
