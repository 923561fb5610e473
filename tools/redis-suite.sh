#!/usr/bin/env bash
# redis-suite.sh — Redis 7.0.15's own test suite against `locklab serve` and against a
# redis-server 7.0.15, run the way Redis's own CI runs it against an external server
# (.github/workflows/external.yml of the 7.0.15 tag), unit by unit, serve beside redis-server.
# Not part of `make test` (an hour or more, and the suite is not vendored): run by hand.
#
#   tools/redis-suite.sh [--pass debug|nodebug|both] [--all] SUITE_DIR [UNIT ...]
#
# SUITE_DIR is an unpacked Redis 7.0.15 source tree (it has `runtest` and tests/): Debian's
# source package (`apt-get source redis` with a deb-src line), or `git archive 7.0.15` of
# github.com/redis/redis. This script fetches nothing.
#
# The two passes are Redis's two external-server CI jobs, with the same runner flags for both
# servers:
#   debug    `./runtest --host H --port P --tags -slow` (job test-external-standalone; its
#            redis-server runs with --enable-debug-command, --enable-protected-configs and
#            --enable-module-command yes, as there)
#   nodebug  `--tags "-slow -needs:debug"` (job test-external-nodebug; a plain redis-server)
# serve is started alike (`locklab serve --clock wall`, with --enable-debug-command yes in the
# debug pass as redis-server is there). Added to both passes, on both servers: --tags
# -needs:repl, the tests that read the replication stream (SYNC; serve does not speak the
# replication protocol), counted as [ignore] in the logs. UNITs default to every entry
# of the runner's own list (`all_tests` in tests/test_helper.tcl), in its order; the runner in
# external mode leaves out by itself the tests tagged external:skip (most integration/ units).
# What differs from the CI job, and why: one fresh server per unit and per pass (the CI job
# runs all units against one server; a unit that ends early then cannot change the next),
# `--timeout 240` (a hang costs 4 minutes rather than 20), the runner's --baseport at random
# (other runs may hold its ports), --clients 1 (what the runner uses anyway in external mode).
#
# Units serve cannot run are listed below (out_of_scope) with their reason; they are not run
# (against either server) unless named on the command line or --all is given, and the
# output lists them. Tests of the units that are run which use what serve leaves out are
# skipped by name (the runner's --skiptest) on both servers, listed below (skip_tests) with
# their reason, and counted in the output. Nothing else is left out; a test the suite itself
# defines only for some servers (jemalloc's: suite_only below) is said with its reason.
#
# Output, per pass: a table, one row per unit — tests passed ([ok]) / failed ([err]) on
# redis-server and on serve, and a note when the unit raised an [exception], hit the runner's
# [TIMEOUT], or ended early (no `[done]` line) on either server — then the tests redis-server
# passed that serve failed, and those it did not reach, and the totals. Logs in $OUT (default
# build/redis-suite/PASS/). Exit 0 when, in every pass, serve passed every test redis-server
# passed and no unit ended early on either server; 1 otherwise; 2 on bad usage.
set -uo pipefail
cd "$(dirname "$0")/.."
usage() {
    echo "usage: tools/redis-suite.sh [--pass debug|nodebug|both] [--all] SUITE_DIR [UNIT ...]" >&2
    echo "  SUITE_DIR: a Redis 7.0.15 source tree with runtest (apt-get source redis)" >&2
    exit 2
}
passes=(debug nodebug) all=0
while [ $# -gt 0 ]; do
    case $1 in
    --pass) [ $# -ge 2 ] || usage
        case $2 in debug | nodebug) passes=("$2") ;; both) passes=(debug nodebug) ;; *) usage ;; esac
        shift 2 ;;
    --all) all=1; shift ;;
    -h | --help) usage ;;
    -*) echo "redis-suite: unknown option '$1'" >&2; usage ;;
    *) break ;;
    esac
done
[ $# -ge 1 ] && [ -x "$1/runtest" ] || usage
suite=$(cd "$1" && pwd)
shift
LL=${LOCKLAB:-./locklab}
REDIS_SERVER=${REDIS_SERVER:-redis-server}
OUT=${OUT:-build/redis-suite}
command -v tclsh >/dev/null || { echo "redis-suite: tclsh is needed (Debian tcl)" >&2; exit 2; }
[ -x "$LL" ] || { echo "redis-suite: no $LL (make locklab)" >&2; exit 2; }

# Units serve cannot run, by decision (README, "How faithful the fake Redis is"): unit ->
# reason. Those the runner skips whole in external mode (external:skip) are not listed: they
# run, with no test, on both servers.
declare -A out_of_scope=(
    [unit/type/stream]="streams are left out of serve (XADD, XREAD, ...)"
    [unit/type/stream-cgroups]="streams are left out of serve (consumer groups)"
    [unit/geo]="GEO commands are left out of serve"
    [unit/hyperloglog]="HyperLogLog (PFADD, PFCOUNT, PFMERGE) is left out of serve"
    [unit/acl]="ACL users are left out of serve (only the default user)"
    [unit/acl-v2]="ACL users and selectors are left out of serve"
    [unit/cluster]="cluster mode is left out of serve"
    [unit/cluster-scripting]="cluster mode is left out of serve"
    [unit/cluster/misc]="cluster mode is left out of serve"
    [unit/cluster/links]="cluster mode is left out of serve"
    [unit/wait]="replicas over the replication protocol (REPLICAOF, PSYNC) are left out of serve"
    [unit/maxmemory]="measures eviction by jemalloc's used_memory and client buffers: serve's maxmemory is its own estimate"
    [unit/client-eviction]="client eviction (maxmemory-clients) is left out of serve"
    [unit/memefficiency]="jemalloc's memory accounting and active defragmentation"
    [unit/replybufsize]="redis-server's reply buffer resizing (CLIENT LIST's rbs, DEBUG REPLYBUFFER): an internal serve has not"
)
# Tests of the units that run which use what serve leaves out: skipped by name on both
# servers (so that both columns count the same tests). name -> reason.
declare -A skip_tests=(
    ["COPY basic usage for stream"]="keyspace: XADD (streams)"
    ["COPY basic usage for stream-cgroups"]="keyspace: XADD, XGROUP, XREADGROUP (streams)"
    ["Keyspace notifications: stream events test"]="pubsub: XGROUP, XADD, XCLAIM (streams)"
    ["Blocking commands ignores the timeout"]="multi: XGROUP, XREAD BLOCK in MULTI (streams)"
    ["MULTI propagation of XREADGROUP"]="multi: XADD, XREADGROUP (streams)"
    ["EVAL - Scripts can't run XREAD and XREADGROUP with BLOCK option"]="scripting: XGROUP, XREAD (streams)"
    ["Script ACL check"]="scripting: ACL SETUSER (ACL users)"
    ["Test special commands are paused by RO"]="pause: PFADD, PFCOUNT (HyperLogLog)"
    ["RESET clears MONITOR state"]="other: MONITOR (left out of serve)"
    ["RESET clears authenticated state"]="other: ACL SETUSER (ACL users)"
    ["MONITOR can log executed commands"]="introspection: MONITOR (left out of serve)"
    ["MONITOR can log commands issued by the scripting engine"]="introspection: MONITOR (left out of serve)"
    ["MONITOR can log commands issued by functions"]="introspection: MONITOR (left out of serve)"
    ["MONITOR supports redacting command arguments"]="introspection: MONITOR (left out of serve)"
    ["MONITOR correctly handles multi-exec cases"]="introspection: MONITOR (left out of serve)"
    ["command stats for GEOADD"]="introspection-2: GEOADD (GEO)"
    ["errors stats for GEOADD"]="introspection-2: GEOADD (GEO)"
    ["lazy free a stream with all types of metadata"]="lazyfree: XADD, XGROUP (streams)"
    ["lazy free a stream with deleted cgroup"]="lazyfree: XADD, XGROUP (streams)"
    ["SLOWLOG - Rewritten commands are logged as their original command"]="slowlog: GEOADD (GEO)"
    ["command stats for MULTI"]="introspection-2: GEOADD (GEO)"
    ["COMMAND GETKEYS XGROUP"]="introspection-2: XGROUP (streams)"
    ["COMMAND LIST FILTERBY PATTERN - list all commands/subcommands"]="introspection-2: expects cluster|help (cluster mode)"
    ["Consistent eval error reporting"]="scripting: GEOADD from a script (GEO)"
    ["GEORADIUS command is marked with movablekeys"]="introspection-2: COMMAND INFO of GEORADIUS (GEO)"
    ["MIGRATE command is marked with movablekeys"]="introspection-2: COMMAND INFO of MIGRATE (left out of serve)"
    ["XREAD command is marked with movablekeys"]="introspection-2: COMMAND INFO of XREAD (streams)"
    ["command stats for scripts"]="introspection-2: GEOADD (GEO)"
    ["Same dataset digest if saving/reloading as AOF?"]="other: BGREWRITEAOF, DEBUG LOADAOF (AOF files: serve's persistence is the world's)"
    ["SCAN: Lazy-expire should not be wrapped in MULTI/EXEC"]="expire: reads the replication stream (SYNC), untagged"
    ["RANDOMKEY: Lazy-expire should not be wrapped in MULTI/EXEC"]="expire: reads the replication stream (SYNC), untagged"
    ["SWAPDB wants to wake blocked client, but the key already expired"]="type/list: reads the replication stream (SYNC), untagged"
    ["MULTI + LPUSH + EXPIRE + DEBUG SLEEP on blocked client, key already expired"]="type/list: reads the replication stream (SYNC), untagged"
)
# Tests the suite itself defines only for some servers, which redis-server then runs and serve
# does not (no tag or --skiptest selects them: they are not counted as skipped), with why.
declare -A suite_only=(
    ["trim on SET with big value"]="defined only where INFO's mem_allocator is jemalloc (tests/unit/type/string.tcl); serve's is libc, as in Redis's own CI job test-ubuntu-libc-malloc (daily.yml, make MALLOC=libc), where it does not exist either"
)

units=("$@")
if [ ${#units[@]} -eq 0 ]; then
    mapfile -t listed < <(sed -n '/^set ::all_tests {/,/^}/p' "$suite/tests/test_helper.tcl" | sed '1d;$d' | tr -d ' \t')
    units=()
    for u in "${listed[@]}"; do
        [ -n "$u" ] || continue
        if [ $all -eq 0 ] && [ -n "${out_of_scope[$u]+x}" ]; then continue; fi
        units+=("$u")
    done
fi
for u in "${units[@]}"; do
    [ -f "$suite/tests/$u.tcl" ] || { echo "redis-suite: no unit '$u' in $suite/tests" >&2; exit 2; }
done
skips=()
for t in "${!skip_tests[@]}"; do skips+=(--skiptest "$t"); done
# The runner's tree: the suite's runtest and tests/, and a src/ with Debian's redis-cli and
# redis-benchmark where the suite has none built (integration/redis-cli runs src/redis-cli,
# as after `make` in Redis's CI).
tree=$suite
if [ ! -x "$suite/src/redis-cli" ]; then
    tree=$(mkdir -p "$OUT" && cd "$OUT" && pwd)/tree
    mkdir -p "$tree/src"
    ln -sfn "$suite/runtest" "$tree/runtest"
    ln -sfn "$suite/tests" "$tree/tests"
    for b in redis-cli redis-benchmark; do
        p=$(command -v "$b") && ln -sfn "$p" "$tree/src/$b"
    done
fi

pids=()
cleanup() {
    local p
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
}
trap cleanup EXIT

free_port() {
    local p
    for _ in $(seq 1 50); do
        p=$((20000 + RANDOM % 20000))
        redis-cli -p "$p" ping >/dev/null 2>&1 || { echo "$p"; return 0; }
    done
    return 1
}

# start KIND PASS: a fresh server on a free port, set in $port and $spid
start() {
    local kind=$1 pass=$2
    for _ in $(seq 1 20); do
        port=$(free_port) || return 1
        if [ "$kind" = serve ] && [ "$pass" = debug ]; then
            "$LL" serve --port "$port" --clock wall --enable-debug-command yes >"$dir/serve.$port.log" 2>&1 &
        elif [ "$kind" = serve ]; then
            "$LL" serve --port "$port" --clock wall >"$dir/serve.$port.log" 2>&1 &
        elif [ "$pass" = debug ]; then
            "$REDIS_SERVER" --port "$port" --save '' --bind 127.0.0.1 --dir "$rdir" --enable-protected-configs yes \
                --enable-debug-command yes --enable-module-command yes >"$dir/redis.$port.log" 2>&1 &
        else
            "$REDIS_SERVER" --port "$port" --save '' --bind 127.0.0.1 --dir "$rdir" >"$dir/redis.$port.log" 2>&1 &
        fi
        spid=$!
        pids+=("$spid")
        for _ in $(seq 1 200); do
            redis-cli -p "$port" ping >/dev/null 2>&1 && return 0
            kill -0 "$spid" 2>/dev/null || break
            sleep 0.05
        done
        stop
    done
    echo "redis-suite: the $kind server does not start" >&2
    return 1
}

stop() {
    local pid=${pids[-1]}
    kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    unset 'pids[-1]'
}

# names LOG STATUS: the test names of the lines "[STATUS]: NAME (N ms)" / "[err]: NAME in FILE"
names() {
    sed -n "s/^\[$2\]: //p" "$1" | sed 's/ ([0-9]* ms)$//; s/ in tests\/[^ ]*\.tcl$//' | sort
}

worse=0
echo "Redis 7.0.15 test suite ($suite), external-server mode; serve: $LL"
if [ ${#out_of_scope[@]} -gt 0 ] && [ $# -eq 0 ]; then
    if [ $all -eq 0 ]; then echo "units not run (serve cannot run them; --all runs them):"; else echo "units serve cannot run (run, not judged):"; fi
    for u in $(printf '%s\n' "${!out_of_scope[@]}" | sort); do printf '  %-24s %s\n' "$u" "${out_of_scope[$u]}"; done
fi
echo "tests skipped by name on both servers:"
while IFS= read -r t; do printf '  %-66s %s\n' "$t" "${skip_tests[$t]}"; done < <(printf '%s\n' "${!skip_tests[@]}" | sort)
for pass in "${passes[@]}"; do
    dir="$OUT/$pass"
    rdir=$(mkdir -p "$dir/redis-dir" && cd "$dir/redis-dir" && pwd) # its RDB and AOF files (DEBUG RELOAD, CONFIG SET appendonly)
    mkdir -p "$dir"
    : >"$dir/table.txt"
    : >"$dir/worse.txt"
    case $pass in debug) tags=(--tags "-slow -needs:repl -needs:save") ;; nodebug) tags=(--tags "-slow -needs:debug -needs:repl -needs:save") ;; esac
    echo
    echo "pass $pass: ./runtest --host 127.0.0.1 --port P --single UNIT --tags \"${tags[1]}\" (+ the skips above)"
    printf '%-34s %-13s %-13s %s\n' "unit" "redis ok/err" "serve ok/err" "notes" | tee -a "$dir/table.txt"
    tro=0 tre=0 tso=0 tse=0 nskip=0
    for unit in "${units[@]}"; do
        declare -A ok=() err=() note=()
        for kind in redis serve; do
            start "$kind" "$pass" || exit 2
            log="$dir/$(echo "$unit" | tr / -).$kind.log"
            for _ in 1 2 3; do
                (cd "$tree" && timeout 3000 ./runtest --host 127.0.0.1 --port "$port" --single "$unit" \
                    --clients 1 --timeout 240 --baseport $((22000 + RANDOM % 8000)) \
                    "${tags[@]}" "${skips[@]}") >"$log" 2>&1
                grep -q "couldn't open socket: address already in use" "$log" || break
            done
            alive=1
            kill -0 "$spid" 2>/dev/null || alive=0
            stop
            sed -i 's/\x1b\[[0-9;]*m//g' "$log" # the runner's colours
            ok[$kind]=$(grep -c '^\[ok\]' "$log")
            err[$kind]=$(grep -c '^\[err\]' "$log")
            n=""
            grep -q '^\[exception\]' "$log" && n+=" exception"
            grep -q '^\[TIMEOUT\]' "$log" && n+=" TIMEOUT"
            grep -q '^Killing still running' "$log" && n+=" killed"
            grep -q "done\]: $unit " "$log" || n+=" ended-early"
            [ $alive -eq 1 ] || n+=" server-died"
            sed -n 's/^\[exception\]: Executing test client: //p; /^\[TIMEOUT\]/{n;p}' "$log" | head -2 |
                cut -c1-160 | sed "s|^|$unit: $kind stopped at: |" >>"$dir/worse.txt"
            note[$kind]=$n
            [ "$kind" = redis ] && nskip=$((nskip + $(grep -c '^\[skip\]' "$log")))
        done
        base="$dir/$(echo "$unit" | tr / -)"
        notes=""
        [ -n "${note[redis]}" ] && notes+="redis:${note[redis]} "
        [ -n "${note[serve]}" ] && notes+="serve:${note[serve]}"
        if [ -n "${note[redis]}${note[serve]}" ]; then worse=1; fi
        # the tests redis-server passed that serve failed, or did not run (a test name may repeat)
        comm -23 <(names "$base.redis.log" ok) <(names "$base.serve.log" ok) >"$base.missing"
        nf=0 nn=0
        while IFS= read -r t; do
            if names "$base.serve.log" err | grep -qxF -- "$t"; then
                echo "$unit: serve fails: $t" >>"$dir/worse.txt"; nf=$((nf + 1))
            else
                why=${suite_only[$t]:+ (${suite_only[$t]})}
                echo "$unit: serve did not run: $t$why" >>"$dir/worse.txt"; nn=$((nn + 1))
            fi
        done <"$base.missing"
        [ $nf -gt 0 ] && { notes+=" ($nf failed that redis passed)"; worse=1; }
        [ $nn -gt 0 ] && notes+=" ($nn redis passed not run on serve)"
        printf '%-34s %5d / %-5d %5d / %-5d %s\n' "$unit" "${ok[redis]}" "${err[redis]}" "${ok[serve]}" "${err[serve]}" "$notes" |
            tee -a "$dir/table.txt"
        tro=$((tro + ok[redis])) tre=$((tre + err[redis])) tso=$((tso + ok[serve])) tse=$((tse + err[serve]))
        unset ok err note
    done
    printf '%-34s %5d / %-5d %5d / %-5d (%d skipped by name)\n' "total" $tro $tre $tso $tse $nskip | tee -a "$dir/table.txt"
    if [ -s "$dir/worse.txt" ]; then
        echo "pass $pass: tests redis-server passed and serve did not:"
        sed 's/^/  /' "$dir/worse.txt"
    fi
done
exit $worse
