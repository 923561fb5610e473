#!/usr/bin/env bash
# tools/bench.sh — `make bench`: the fake Redis's lock-script throughput and memory, each
# measured beside a real redis-server (the anchor) in the same run, on this machine.
#
# Every figure is measured, none assumed: build/opt/tests/bench_locks runs the workload in
# process (through server_exec) and, as a pipelined RESP client, against a redis-server that
# this script starts on a free loopback port in 7300-7399 (--save '' --appendonly no) and
# stops afterwards, also on failure. See tests/bench_locks.c for the workload.
#
# Prints a table: measurement | locklab | redis-server | ratio | target | met?
# Exit 0 when everything ran, targets met or not (the table says which); 3 when something
# could not run. Environment: BENCH_REPS (default 5) repetitions, the median is reported;
# BENCH_BIN another bench_locks binary.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 3
export LOCKLAB_HOME=$PWD

BIN=${BENCH_BIN:-build/opt/tests/bench_locks}
REPS=${BENCH_REPS:-5}
TARGET_RATE=1000000   # script executions per second, in process
TARGET_RATIO=5        # locklab / redis-server
TARGET_MB=256         # peak resident memory holding 1M locks

tmp=$(mktemp -d /tmp/locklab-bench.XXXXXX) || exit 3
redis_pid=""
redis_port=""

stop_redis() {
    if [ -n "$redis_pid" ]; then
        kill "$redis_pid" 2>/dev/null
        wait "$redis_pid" 2>/dev/null
    fi
    redis_pid=""
    redis_port=""
}
cleanup() {
    stop_redis
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 3' INT TERM HUP

fail() {
    echo "bench: $*" >&2
    exit 3
}

port_open() { timeout 1 bash -c ": </dev/tcp/127.0.0.1/$1" 2>/dev/null; }

# Starts a fresh redis-server on the first free port in 7300-7399 and makes sure the server
# answering there is the one we started (another test may race us for the port).
start_redis() {
    local p i
    for p in $(seq 7300 7399); do
        port_open "$p" && continue
        redis-server --port "$p" --bind 127.0.0.1 --save '' --appendonly no --dir "$tmp" \
            --logfile "$tmp/redis-$p.log" --daemonize no &
        redis_pid=$!
        for i in $(seq 100); do
            kill -0 "$redis_pid" 2>/dev/null || break
            if [ "$(redis-cli -p "$p" info server 2>/dev/null | tr -d '\r' |
                sed -n 's/^process_id://p')" = "$redis_pid" ]; then
                redis_port=$p
                return 0
            fi
            sleep 0.05
        done
        stop_redis
    done
    return 1
}

# val KEY FILE: the value of a key=value line.
val() { sed -n "s/^$1=//p" "$2" | tail -n 1; }
# Thousands separators, independent of the locale.
commas() { printf '%s' "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|[,.]\)/\1,\2\3/' -e 'ta'; }
calc() { awk "BEGIN { printf \"$1\", $2 }"; }

[ -x "$BIN" ] || fail "$BIN is missing (run make bench)"
command -v redis-server >/dev/null || fail "redis-server is not installed"
redis_version=$(redis-server --version | sed -n 's/.* v=\([^ ]*\).*/\1/p')
# How busy the machine is before we start: other processes' CPU share over one second.
cpu_sample() { awk '/^cpu / { print $2+$3+$4+$5+$6+$7+$8, $5+$6 }' /proc/stat; }
read -r total0 idle0 <<<"$(cpu_sample)"
sleep 1
read -r total1 idle1 <<<"$(cpu_sample)"
busy_before=$(calc '%.0f' "100 * (1 - ($idle1 - $idle0) / ($total1 - $total0 + 0.000001))")

echo "bench: in process, acquire+unlock over 100,000 names ($REPS repetitions) ..." >&2
"$BIN" script --reps "$REPS" >"$tmp/script.out" || fail "in-process throughput run failed"

echo "bench: redis-server $redis_version, the same workload ..." >&2
start_redis || fail "could not start redis-server on a free port in 7300-7399"
"$BIN" redis-script "$redis_port" --reps "$REPS" --rounds 1 >"$tmp/redis-script.out" ||
    fail "redis-server throughput run failed"
# A cross-check of our client against redis-benchmark (acquire only: it cannot pair the
# unlock with the acquire on the same random name, so re-entries pile up).
sha=$(val lock_sha "$tmp/script.out")
rb=""
command -v redis-benchmark >/dev/null && rb=$(redis-benchmark -p "$redis_port" -q -n 300000 -c 50 -P 16 -r 100000 \
    EVALSHA "$sha" 1 lock:__rand_int__ 30000 8743c9c0-0795-4907-87fd-6c719a6b4586:1 2>/dev/null |
    tr '\r' '\n' | sed -n 's/.*: \([0-9.]*\) requests per second.*/\1/p' | tail -n 1)
stop_redis

echo "bench: the simulation engine ..." >&2
ENGINE=build/opt/tests/bench_engine
[ -x "$ENGINE" ] || fail "$ENGINE is missing (run make bench)"
"$ENGINE" >"$tmp/engine.out" || fail "engine benchmark failed"

# locklab sweep: 20 points x 100 runs of gc-pause-single, table only and with the plot drawn.
echo "bench: locklab sweep gc-pause-single --vary gc_pause=1s:20s:1s --runs 100 ..." >&2
sweep_runs=2000
sweep_time() { # prints the elapsed seconds of one sweep (extra arguments appended)
    local t0 t1
    t0=$(date +%s.%N)
    ./locklab sweep gc-pause-single --vary gc_pause=1s:20s:1s --runs 100 "$@" >/dev/null 2>"$tmp/sweep.err" ||
        fail "locklab sweep failed: $(head -n 1 "$tmp/sweep.err")"
    t1=$(date +%s.%N)
    calc '%.3f' "$t1 - $t0"
}
sweep_s=$(sweep_time)
sweep_plot_s=""
command -v gnuplot >/dev/null && sweep_plot_s=$(sweep_time --plot "$tmp/sweep.png")

echo "bench: memory, 1,000,000 held locks ..." >&2
"$BIN" memory >"$tmp/memory.out" || fail "in-process memory run failed"
start_redis || fail "could not start redis-server on a free port in 7300-7399"
"$BIN" redis-memory "$redis_port" >"$tmp/redis-memory.out" || fail "redis-server memory run failed"
redis_hwm_kb=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$redis_pid/status" 2>/dev/null)
stop_redis

# ---- the table ----
ll_rate=$(val script_per_sec "$tmp/script.out")
rd_rate=$(val redis_script_per_sec "$tmp/redis-script.out")
ratio=$(calc '%.2f' "$ll_rate / $rd_rate")
ll_kb=$(val peak_rss_kb "$tmp/memory.out")
rd_rss=$(val used_memory_rss "$tmp/redis-memory.out")
ll_mb=$(calc '%.1f' "$ll_kb / 1024")
rd_mb=$(calc '%.1f' "$rd_rss / 1048576")
mem_ratio=$(calc '%.2f' "$ll_kb * 1024 / $rd_rss")
met() { if awk "BEGIN { exit !($1) }"; then echo yes; else echo NO; fi; }
met_rate=$(met "$ll_rate >= $TARGET_RATE")
met_ratio=$(met "$ratio >= $TARGET_RATIO")
met_mem=$(met "$ll_kb <= $TARGET_MB * 1024")

row() { printf '%-44s %14s %14s %8s %-22s %s\n' "$@"; }
echo
row "measurement" "locklab" "redis-server" "ratio" "target" "met?"
row "script executions/s (acquire+unlock, median)" "$(commas "$ll_rate")" "$(commas "$rd_rate")" \
    "${ratio}x" ">= $(commas $TARGET_RATE)/s" "$met_rate"
row "" "" "" "" ">= ${TARGET_RATIO}x redis-server" "$met_ratio"
row "peak RSS holding 1,000,000 locks" "$ll_mb MB" "$rd_mb MB" "${mem_ratio}x" "<= $TARGET_MB MB" "$met_mem"
ev_rate=$(val engine_events_per_s "$tmp/engine.out")
runs_s=$(val engine_1000_runs_s "$tmp/engine.out")
runs_rate=$(val engine_runs_per_s "$tmp/engine.out")
eng_mb=$(val engine_peak_rss_mb "$tmp/engine.out")
speedup=$(val engine_speedup_x "$tmp/engine.out")
row "engine events/s (5 distlock clients, 10 min)" "$(commas "$ev_rate")" "-" "${speedup}x real" ">= 500,000/s" "$(met "$ev_rate >= 500000")"
row "1,000 runs of the GC-pause scenario" "${runs_s} s" "-" "" "< 2 s" "$(met "$runs_s < 2")"
row "scenario runs/s (GC-pause, one process)" "$(commas "$runs_rate")" "-" "" ">= 1,000/s" "$(met "$runs_rate >= 1000")"
row "engine peak RSS" "$eng_mb MB" "-" "" "< 64 MB" "$(met "$eng_mb < 64")"
sweep_rate=$(calc '%.0f' "$sweep_runs / $sweep_s")
row "sweep runs/s (gc-pause-single, 20x100)" "$(commas "$sweep_rate")" "-" "" ">= 1,000/s" "$(met "$sweep_rate >= 1000")"
if [ -n "$sweep_plot_s" ]; then
    sweep_plot_rate=$(calc '%.0f' "$sweep_runs / $sweep_plot_s")
    row "  ... with --plot PNG (gnuplot)" "$(commas "$sweep_plot_rate")" "-" "" "plot < 25% of the time" \
        "$(met "$sweep_plot_s - $sweep_s < 0.25 * $sweep_plot_s")"
fi
echo
cat <<EOF
How measured (median of $REPS repetitions; this machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), ${busy_before}% busy before the run):
  throughput  EVALSHA redisson/lock@HEAD then redisson/unlock@HEAD (bodies from lua/redis/ via
              scriptlib; sha $(val lock_sha "$tmp/script.out" | cut -c1-12)... / $(val unlock_sha "$tmp/script.out" | cut -c1-12)...) on each of 100,000 names per round,
              every reply checked (nil, then 1). locklab: one thread, server_exec, manual clock,
              $(commas "$(val script_execs_per_rep "$tmp/script.out")") executions per repetition after a 2-round warm-up;
              runs/s: $(val script_reps "$tmp/script.out" | sed 's/,/, /g').
              redis-server $redis_version: pipelined RESP client (tests/bench/benchkit.h), $(val conns "$tmp/redis-script.out") connections,
              2048 commands in flight each, 200,000 executions per repetition after a 2-round warm-up;
              runs/s: $(val redis_script_reps "$tmp/redis-script.out" | sed 's/,/, /g').
              cross-check, redis-benchmark -c 50 -P 16 -r 100000, acquire only: $(if [ -n "$rb" ]; then echo "$(commas "${rb%.*}")/s"; else echo "not run"; fi).
  engine      tests/bench_engine.c: 5 distlock clients on one node, 1-5 ms delays, 10 simulated
              minutes ($(commas "$(val engine_events "$tmp/engine.out")") scheduler events; best of 3); then 1,000 runs of a 2-client
              GC-pause scenario with seeds 1..1000 in one process, world built and freed each time
              (its Lua compiled once and loaded from the dump after, as sweeps and checks do).
              The "x real" figure is simulated time over wall time.
  sweep       ./locklab sweep gc-pause-single --vary gc_pause=1s:20s:1s --runs 100: 2,000 runs, each world
              built, run, judged and freed, one process; wall time of the whole command, ${sweep_s} s
              (with --plot: ${sweep_plot_s:-not run} s).
  memory      1,000,000 acquire scripts (lease 1 h, owner <uuid>:1, keys lock:0..999999).
              locklab: VmHWM of the process ($(calc '%.1f' "$(val baseline_rss_kb "$tmp/memory.out") / 1024") MB before the locks; store_bytes() says $(calc '%.1f' "$(val store_bytes "$tmp/memory.out") / 1048576") MB).
              redis-server: INFO used_memory_rss ($(calc '%.1f' "$(val baseline_rss_bytes "$tmp/redis-memory.out") / 1048576") MB before; used_memory $(calc '%.1f' "$(val used_memory "$tmp/redis-memory.out") / 1048576") MB; VmHWM $(calc '%.1f' "${redis_hwm_kb:-0} / 1024") MB).
EOF
if [ "$busy_before" -ge 20 ]; then
    echo "note: other processes kept the machine ${busy_before}% busy just before the run; they share the"
    echo "      $(nproc) cores with it, so both absolute figures are depressed (the ratio suffers less)."
fi

# The playground (WebAssembly in headless Chromium) beside ./locklab: its own table
# (tools/bench-web.sh).
tools/bench-web.sh || fail "the playground's bench could not run"

# The model checker beside SPIN: its own table (tools/bench-check.sh).
tools/bench-check.sh || fail "the model checker's bench could not run"

# The balance of a check over 64 pool tasks (a Slurm array's tasks sharing the search)
# beside one process: its own table (tools/bench-shards.sh).
tools/bench-shards.sh || fail "the shards' bench could not run"
exit 0
