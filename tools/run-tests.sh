#!/usr/bin/env bash
# The body of `make test`: every suite, each reporting "N passed, N failed"; the totals are
# printed last, and any failure fails the run.
set -uo pipefail
cd "$(dirname "$0")/.."

total_pass=0
total_fail=0
failed_suites=()

# Runs a suite command, echoes its output, and adds the last "N passed, N failed" line it
# printed to the totals. A suite that exits non-zero without such a line counts as 1 failure.
suite() {
    local name=$1
    shift
    echo "== $name"
    local out rc t0=$SECONDS
    out=$("$@" 2>&1)
    rc=$?
    printf '%s\n' "$out"
    echo "   ($((SECONDS - t0)) s)"
    local line
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
    if [ "$rc" -ne 0 ]; then failed_suites+=("$name"); fi
}

suite "unit tests (ASan + UBSan)" tools/run-unit.sh build/san/tests/test_*

if ls tests/transcripts/*.txt >/dev/null 2>&1; then
    suite "script semantics transcripts" tools/run-transcripts.sh build/san/locklab tests/transcripts/*.txt
fi

suite "command line" env LOCKLAB=build/san/locklab tests/cli/test_cli.sh
suite "locklab redis at a terminal (tmux)" env LOCKLAB=build/san/locklab tests/cli/test_tty.sh
suite "sweep command line" env LOCKLAB=build/san/locklab tests/cli/test_sweep.sh
suite "matrix command line" env LOCKLAB=build/san/locklab tests/cli/test_matrix.sh
suite "Redlock libraries: retry schedules, compare --options" env LOCKLAB=build/san/locklab tests/cli/test_redlock.sh
suite "locklab serve over TCP (redis-cli, raw sockets)" env LOCKLAB=build/san/locklab tests/cli/test_serve.sh
suite "CLIENT TRACKING in locklab serve, byte for byte against redis-server" env LOCKLAB=build/san/locklab tests/cli/test_serve_tracking.sh
suite "hostile clients of locklab serve: the 2026-12 audit's reproducers, runaway scripts against redis-server" \
    env LOCKLAB=build/san/locklab tests/cli/test_serve_reliab.sh
suite "model checker" env LOCKLAB=./locklab tests/cli/test_check.sh
# Time and randomness reach a run only through sim/README.md's table; two runs, two processes, one seed: the same bytes
suite "sources of nondeterminism (sim/README.md's table)" env LOCKLAB=build/san/locklab tests/cli/test_nondet.sh
# tools/slurm-check.sh on a Slurm cluster of one node that the test starts (slurm-wlm, munge)
suite "model checker as a Slurm array job (a real slurmctld and slurmd)" env LOCKLAB=./locklab tests/cli/test_slurm.sh
# The checker's "holds" against random runs of generated problems (tests/soundness.c).
suite "model checker soundness (generated problems vs random runs)" env SOUNDNESS_TIME=0.3 build/opt/tests/soundness 300 60
# The reduction of time against every value of the windows (tests/orders.c): every order a
# run shows, the search runs
suite "model checker orders (every value of the windows vs the search)" env ORDERS_TIME=3 build/opt/tests/orders 30
suite "hostile input: scenario files, models, file names, full disks" env LOCKLAB=build/san/locklab tests/cli/test_reliab.sh
suite "verdicts never depend on names (every actor of the library renamed)" env LOCKLAB=./locklab python3 tests/cli/test_rename.py
suite "pictures (gnuplot, SVG, HTML in headless Chromium)" env LOCKLAB=build/san/locklab tests/html/test_html.sh
# make playground (WebAssembly, web/) and the page in headless Chromium, byte for byte with ./locklab
suite "the playground in headless Chromium (same bytes as the native binary)" env LOCKLAB=./locklab python3 tests/web/test_playground.py
suite "the playground as a course (layouts, responsiveness, lessons) in headless Chromium" env LOCKLAB=./locklab python3 tests/web/test_course.py

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
    suite "differential test against redis-server, through locklab serve" \
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

echo
if [ "${#failed_suites[@]}" -gt 0 ]; then
    echo "failed suites: ${failed_suites[*]}"
fi
echo "total: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ] && [ "${#failed_suites[@]}" -eq 0 ]
