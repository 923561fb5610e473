#!/usr/bin/env bash
# The body of `make test`: every suite, each reporting "N passed, N failed"; the totals are
# printed last, and any failure fails the run.
#
# The suites are independent (each in a temporary folder of its own, its servers on ports it
# finds free), so they run TEST_LANES at a time (default 2: the CI machine's cores; 1 runs
# them one after the other). Each writes into a file of its own; its output is printed whole,
# in the order they are listed below, as soon as it and every suite before it are done, with
# its wall time and the processor time it used ("(N s, M s CPU)"). Those marked --early are
# the longest: one of them is always running while any is left (the other suites start in the
# order listed), so that the last to finish is a short one and the output still comes as the
# run goes.
# (One block, which bash reads whole before it runs: a change to this file while make test
# runs does not reach the run.)
{
set -uo pipefail
cd "$(dirname "$0")/.."

lanes=${TEST_LANES:-2}
[[ $lanes =~ ^[1-9][0-9]?$ ]] || { echo "run-tests: TEST_LANES is a number of suites at a time (1-99), not '$lanes'" >&2; exit 2; }
work=$(mktemp -d /tmp/locklab-run-tests.XXXXXX)
# job control: each suite in a process group of its own, so that an interrupted run stops
# every process of the suites it was running (and a suite's processes take SIGINT, which
# background jobs without job control ignore)
set -m
running=()
stop_running() {
    local p
    for p in "${running[@]}"; do kill -TERM -- "-$p" 2>/dev/null; done
    wait 2>/dev/null
}
trap 'stop_running; rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

names=()
early=()
# suite [--early] NAME COMMAND...: a suite, run later (--early: one of the longest).
suite() {
    local i=${#names[@]}
    early[$i]=0
    [ "$1" = --early ] && { early[$i]=1; shift; }
    names+=("$1")
    shift
    printf '%q ' "$@" >"$work/$i.cmd"
}

suite "unit tests (ASan + UBSan)" tools/run-unit.sh build/san/tests/test_*
# each fuzz target on its seed corpus and a fixed number of seeded mutations (tests/fuzz/driver.c)
suite "fuzz targets: corpus and seeded mutations (ASan + UBSan)" tools/fuzz.sh build/san/fuzz/fuzz_*

if ls tests/transcripts/*.txt >/dev/null 2>&1; then
    suite "script semantics transcripts" tools/run-transcripts.sh build/san/locklab tests/transcripts/*.txt
fi

suite "command line" env LOCKLAB=build/san/locklab tests/cli/test_cli.sh
suite "locklab redis at a terminal (tmux)" env LOCKLAB=build/san/locklab tests/cli/test_tty.sh
suite "sweep command line" env LOCKLAB=build/san/locklab tests/cli/test_sweep.sh
suite --early "matrix command line" env LOCKLAB=build/san/locklab tests/cli/test_matrix.sh
suite "Redlock libraries: retry schedules, compare --options" env LOCKLAB=build/san/locklab tests/cli/test_redlock.sh
suite "locklab serve over TCP (redis-cli, raw sockets)" env LOCKLAB=build/san/locklab tests/cli/test_serve.sh
suite "CLIENT TRACKING in locklab serve, byte for byte against redis-server" env LOCKLAB=build/san/locklab tests/cli/test_serve_tracking.sh
suite "hostile clients of locklab serve: the 2026-12 audit's reproducers, runaway scripts against redis-server" \
    env LOCKLAB=build/san/locklab tests/cli/test_serve_reliab.sh
suite --early "model checker" env LOCKLAB=./locklab tests/cli/test_check.sh
# Time and randomness reach a run only through sim/README.md's table; two runs, two processes, one seed: the same bytes
suite "sources of nondeterminism (sim/README.md's table)" env LOCKLAB=build/san/locklab tests/cli/test_nondet.sh
# tools/slurm-check.sh on a Slurm cluster of one node that the test starts (slurm-wlm, munge)
suite --early "model checker as a Slurm array job (a real slurmctld and slurmd)" env LOCKLAB=./locklab tests/cli/test_slurm.sh
# The checker's "holds" against random runs of generated problems (tests/soundness.c).
suite --early "model checker soundness (generated problems vs random runs)" env SOUNDNESS_TIME=0.3 build/opt/tests/soundness 300 60
# The reduction of time against every value of the windows (tests/orders.c): every order a
# run shows, the search runs
suite --early "model checker orders (every value of the windows vs the search)" env ORDERS_TIME=3 build/opt/tests/orders 45
suite --early "hostile input: scenario files, models, file names, full disks" env LOCKLAB=build/san/locklab tests/cli/test_reliab.sh
suite "verdicts never depend on names (every actor of the library renamed)" env LOCKLAB=./locklab python3 tests/cli/test_rename.py
suite --early "pictures (gnuplot, SVG, HTML in headless Chromium)" env LOCKLAB=build/san/locklab tests/html/test_html.sh
# make playground (WebAssembly, web/) and the page in headless Chromium, byte for byte with ./locklab
suite --early "the playground in headless Chromium (same bytes as the native binary)" env LOCKLAB=./locklab python3 tests/web/test_playground.py
suite --early "the playground as a course (layouts, responsiveness, lessons) in headless Chromium" env LOCKLAB=./locklab python3 tests/web/test_course.py

if ls scenarios/*.lua >/dev/null 2>&1; then
    suite "scenario library" tools/run-scenarios.sh build/san/locklab scenarios/*.lua
fi

if ls tests/transcripts/*.txt >/dev/null 2>&1; then
    # The same transcripts on a real redis-server whose wall clock is pinned to the REPL's
    # virtual time (tools/fakeclock.c): real server, transcript and fake agree three ways.
    suite "transcripts against redis-server (pinned clock)" \
        python3 tools/transcript-from-redis.py --check --locklab ./locklab tests/transcripts/*.txt
fi

if [ -f tests/diff/redisdiff.py ]; then
    suite "differential test against redis-server" python3 tests/diff/redisdiff.py --locklab ./locklab
    suite --early "differential test against redis-server, through locklab serve" \
        python3 tests/diff/redisdiff.py --locklab ./locklab --serve
    # every entry point of bit, struct, cmsgpack and cjson at its boundary numbers, under
    # ASan+UBSan: a report aborts the fake side, which is a mismatch (issue 37, N6)
    suite "script libraries at their boundaries against redis-server, ASan+UBSan build" \
        python3 tests/diff/redisdiff.py --locklab build/san/locklab --cases tests/diff/cases/scriptlib-bounds.txt
fi

if [ -f tests/diff/zookeeper/zkdiff.py ]; then
    suite "differential test against ZooKeeper 3.8" /usr/bin/python3 tests/diff/zookeeper/zkdiff.py --locklab ./locklab
fi
if [ -f tests/diff/mysql/mysqldiff.py ]; then
    suite "differential test against mariadb-server" /usr/bin/python3 tests/diff/mysql/mysqldiff.py --locklab ./locklab
fi
if [ -f tests/diff/postgresql/pgdiff.py ]; then
    suite "differential test against PostgreSQL 15" /usr/bin/python3 tests/diff/postgresql/pgdiff.py --locklab ./locklab
fi
if [ -f tests/diff/etcd/etcddiff.py ]; then
    suite "differential test against etcd 3.4" python3 tests/diff/etcd/etcddiff.py --locklab ./locklab
fi

# run_suite I: runs suite I into $work/I.out, then writes $work/I.done: its exit status, its
# wall time and the processor time (user and system) of its processes, as `times` counts it.
run_suite() {
    local i=$1 t0=$SECONDS rc cpu
    eval "$(cat "$work/$i.cmd")" >"$work/$i.out" 2>&1 </dev/null
    rc=$?
    times >"$work/$i.times" # (not in $(...): a subshell's children are not the suite)
    cpu=$(awk 'function s(t) { split(t, a, "m"); return a[1] * 60 + a[2] }
               NR == 2 { printf "%d", s($1) + s($2) + 0.5 }' "$work/$i.times")
    echo "$rc $((SECONDS - t0)) $cpu" >"$work/$i.tmp" && mv "$work/$i.tmp" "$work/$i.done"
}

total_pass=0
total_fail=0
failed_suites=()

# report I: prints suite I's output and adds the last "N passed, N failed" line it printed to
# the totals. A suite that exits non-zero without such a line counts as 1 failure.
report() {
    local i=$1 rc secs cpu out line
    read -r rc secs cpu <"$work/$i.done"
    echo "== ${names[$i]}"
    out=$(cat "$work/$i.out")
    printf '%s\n' "$out"
    echo "   ($secs s, $cpu s CPU)"
    line=$(printf '%s\n' "$out" | grep -E '^([A-Za-z-]+: )?[0-9]+ passed, [0-9]+ failed' | tail -n 1)
    if [ -n "$line" ]; then
        local p f
        p=$(echo "$line" | sed -E 's/^([A-Za-z-]+: )?([0-9]+) passed.*/\2/')
        f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
        total_pass=$((total_pass + p))
        total_fail=$((total_fail + f))
        if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then total_fail=$((total_fail + 1)); fi
    elif [ "$rc" -ne 0 ]; then
        total_fail=$((total_fail + 1))
    fi
    if [ "$rc" -ne 0 ]; then failed_suites+=("${names[$i]}"); fi
}

# next_suite: sets i to the suite to start next, -1 when none is left: the first long one not
# started when no long one is running, else the first not started.
declare -A index_of
started=()
next_suite() {
    local j p long_running=0
    for p in "${running[@]}"; do [ "${early[${index_of[$p]}]}" -eq 1 ] && long_running=1; done
    i=-1
    if [ $long_running -eq 0 ]; then
        for j in "${!names[@]}"; do [ -z "${started[$j]:-}" ] && [ "${early[$j]}" -eq 1 ] && { i=$j; return; }; done
    fi
    for j in "${!names[@]}"; do [ -z "${started[$j]:-}" ] && { i=$j; return; }; done
}
printed=0
t_start=$SECONDS
while [ "$printed" -lt "${#names[@]}" ]; do
    while [ "${#running[@]}" -lt "$lanes" ]; do
        next_suite
        [ "$i" -ge 0 ] || break
        started[$i]=1
        run_suite "$i" &
        running+=("$!")
        index_of[$!]=$i
    done
    ended=""
    wait -n -p ended
    if [ -n "$ended" ]; then
        keep=()
        for p in "${running[@]}"; do [ "$p" = "$ended" ] || keep+=("$p"); done
        running=("${keep[@]}")
        i=${index_of[$ended]}
        # a runner that died before writing its end (killed): the suite failed
        [ -f "$work/$i.done" ] || { echo "the suite's runner ended without a result" >>"$work/$i.out"; echo "1 0 0" >"$work/$i.done"; }
    fi
    while [ "$printed" -lt "${#names[@]}" ] && [ -f "$work/$printed.done" ]; do
        report "$printed"
        printed=$((printed + 1))
    done
done

echo
if [ "${#failed_suites[@]}" -gt 0 ]; then
    echo "failed suites: ${failed_suites[*]}"
fi
echo "suites: ${#names[@]}, $lanes at a time, $((SECONDS - t_start)) s"
echo "total: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ] && [ "${#failed_suites[@]}" -eq 0 ]
exit $?
}
