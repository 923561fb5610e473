#!/usr/bin/env bash
# Command-line tests of `locklab sweep`: usage, the one-line errors and exit codes of bad
# input (exit 2) and unwritable outputs (exit 3, nothing half-written), gnuplot missing,
# determinism (byte-identical table and CSV), the CSV beside the plot, and the step of the
# violation rate at the lease. Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/cli/lib.sh sweep
export LOCKLAB_HOME=${LOCKLAB_HOME:-$PWD}

expect_exit 0 "sweep --help" -- "$LL" sweep --help
grep -q '^usage: locklab sweep' "$tmp/out" && grep -q 'gc_pause' "$tmp/out" && ok || bad "--help lists the parameters"
"$LL" --help | grep '^  sweep ' >/dev/null && ok || bad "sweep is in locklab --help"

# Bad input: exit 2, one line naming the problem.
bad_input() {
    local what=$1 needle=$2
    shift 2
    expect_exit 2 "$what" -- "$LL" sweep "$@"
    one_line_err "$what" "$needle"
}
bad_input "no scenario" "which scenario?"
bad_input "no --vary" "add --vary" gc-pause-single
bad_input "a missing scenario" "no scenario file or built-in scenario named 'nope'" nope --vary gc_pause=1s:2s:1s
bad_input "a parameter the scenario lacks" "the scenario has no gc_pause fault" redlock-basic --vary gc_pause=1s:5s:1s
bad_input "an unknown parameter" "unknown parameter 'pause'" gc-pause-single --vary pause=1s:5s:1s
printf '%s\n' "return { name = 'pd', about = 'per-node drift', protocol = 'distlock', mode = 'redlock'," \
    "  nodes = 3, per_node = { n2 = { clock = { drift = 0.05 } } }, clients = { { name = 'A' } }, duration = '5s' }" \
    >"$tmp/pinned-drift.lua"
bad_input "drift over a per-node drift" "vary per_node.n2.drift instead" "$tmp/pinned-drift.lua" --vary drift=0:0.02:0.01
expect_exit 0 "per_node.n2.drift over a per-node drift" -- "$LL" sweep "$tmp/pinned-drift.lua" --vary per_node.n2.drift=0:0.02:0.01 --runs 2
# a server kind's option: where the MongoDB TTL monitor's passes fall against the clients
# (issue #24): only a pass inside A's pause, after its document's expiry, gives B the lock
expect_exit 0 "server_options.ttl_monitor_first" -- "$LL" sweep scenarios/matrix/mongodb-ttl/gc-pause.lua \
    --vary server_options.ttl_monitor_first=5s:12s:7s --runs 2 --csv "$tmp/ttl.csv"
check "the TTL monitor's phase decides the pause" python3 - "$tmp/ttl.csv" <<'PY'
import csv, sys
rows = {r["label"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert rows["5s"]["mutual_exclusion_violated"] == "0", rows
assert rows["12s"]["mutual_exclusion_violated"] == "2", rows
PY
bad_input "an option the server lacks" "the mongodb server has the options ttl_monitor, ttl_monitor_first" \
    scenarios/matrix/mongodb-ttl/gc-pause.lua --vary server_options.bogus=1s:2s:1s
bad_input "an option out of its range" "is from 1 to 3600000 ms" scenarios/matrix/mongodb-ttl/gc-pause.lua \
    --vary server_options.ttl_monitor=0:2s:1s
bad_input "FROM > TO" "FROM 15s is greater than TO 5s" gc-pause-single --vary gc_pause=15s:5s:1s
bad_input "STEP 0" "the step 0 is not positive" gc-pause-single --vary gc_pause=1s:5s:0
bad_input "STEP < 0" "is not positive" gc-pause-single --vary gc_pause=1s:5s:-1s
bad_input "too many points" "more than 10000" gc-pause-single --vary gc_pause=0:100s:1ms
bad_input "not a range" "is not FROM:TO:STEP" gc-pause-single --vary gc_pause=1s:5s
bad_input "not NAME=RANGE" "is not NAME=FROM:TO:STEP" gc-pause-single --vary gc_pause
bad_input "a bad duration" "bad duration" gc-pause-single --vary gc_pause=1s:5x:1s
bad_input "runs 0" "--runs takes a whole number from 1" gc-pause-single --vary gc_pause=1s:2s:1s --runs 0
bad_input "runs not a number" "--runs takes a whole number" gc-pause-single --vary gc_pause=1s:2s:1s --runs many
bad_input "a bad seed" "--seed takes a whole number" gc-pause-single --vary gc_pause=1s:2s:1s --seed -1
bad_input "a plot that is not png/svg" "name a .png or .svg file" gc-pause-single --vary gc_pause=1s:2s:1s --plot "$tmp/x.pdf"
bad_input "an unknown option" "unknown option '--bogus'" gc-pause-single --vary gc_pause=1s:2s:1s --bogus
bad_input "two --vary" "one --vary at a time" gc-pause-single --vary gc_pause=1s:2s:1s --vary lease=1s:2s:1s
bad_input "a value impossible for the scenario" "lease=0: the lease must be longer than 0" gc-pause-single --vary lease=0:2s:1s
bad_input "nodes in a named redlock" "nodes can vary only when it gives a count" redlock-basic --vary nodes=3:7:2
bad_input "fault 0" "number them from 1" gc-pause-single --vary "faults[0].duration=1s:2s:1s"
bad_input "a fault index past INT_MAX" "number them from 1" gc-pause-single --vary "faults[99999999999].duration=1s:2s:1s"
bad_input "a duration too large" "is too large" gc-pause-single --vary gc_pause=1s:1000000h:100000h
bad_input "a seed with a space" "--seed takes a whole number" gc-pause-single --vary gc_pause=1s:2s:1s --seed " -1"
# Every client with its own lease: varying the scenario's would change nothing.
sed 's/work = "15s" }/work = "15s", lease = "10s" }/; s/work = "1s" }/work = "1s", lease = "10s" }/' \
    scenarios/gc-pause-single.lua >"$tmp/ownlease.lua"
bad_input "a lease every client overrides" "every client sets its own lease" "$tmp/ownlease.lua" --vary lease=1s:2s:1s
# Every run a model error: no result, not a table of zeros with exit 0.
printf 'return { name = "x", about = "y", protocol = "distlock", lease = false,\n  clients = {{ name = "A" }}, duration = "1s" }\n' >"$tmp/modelerr.lua"
bad_input "every run a model error" "every run ended in a client model error" "$tmp/modelerr.lua" --vary work=1s:2s:1s --runs 2

# gnuplot missing: exit 2, says how to install it, before running anything.
mkdir -p "$tmp/bin"
for tool in sh cat rm mv; do ln -sf "$(command -v $tool)" "$tmp/bin/$tool"; done
expect_exit 2 "gnuplot missing" -- env PATH="$tmp/bin" "$(realpath "$LL")" sweep gc-pause-single --vary gc_pause=1s:2s:1s --plot "$tmp/g.png"
one_line_err "gnuplot missing" "apt-get install gnuplot-nox"
[ ! -e "$tmp/g.png" ] && [ ! -e "$tmp/g.csv" ] && ok || bad "gnuplot missing: something was written"

# Unwritable outputs: exit 3, nothing half-written. (A read-only directory stops only
# non-root users; a directory that is a file, or an output that is a directory, stops all.)
touch "$tmp/afile"
mkdir -p "$tmp/adir" "$tmp/ro"
expect_exit 3 "csv under a file" -- "$LL" sweep gc-pause-single --vary gc_pause=1s:2s:1s --runs 2 --csv "$tmp/afile/x.csv"
one_line_err "csv under a file" "cannot write '$tmp/afile/x.csv'"
expect_exit 3 "csv in a missing directory" -- "$LL" sweep gc-pause-single --vary gc_pause=1s:2s:1s --runs 2 --csv "$tmp/none/x.csv"
one_line_err "csv in a missing directory" "No such file or directory"
expect_exit 3 "csv onto a directory" -- "$LL" sweep gc-pause-single --vary gc_pause=1s:2s:1s --runs 2 --csv "$tmp/adir"
one_line_err "csv onto a directory" "cannot write '$tmp/adir'"
[ -z "$(ls -A "$tmp/adir")" ] && ! ls "$tmp" | grep -q '\.tmp\.' && ok || bad "a failed write left a temporary file"
if command -v gnuplot >/dev/null; then
    mkdir -p "$tmp/adir/d.svg"   # now the plot's name is taken by a directory
    expect_exit 3 "plot onto a directory" -- "$LL" sweep gc-pause-single --vary gc_pause=1s:2s:1s --runs 2 --plot "$tmp/adir/d.svg" --csv "$tmp/adir/d.csv"
    one_line_err "plot onto a directory" "cannot write '$tmp/adir/d.svg'"
    [ -z "$(ls -A "$tmp/adir/d.svg")" ] && ! ls "$tmp/adir" | grep -q '\.tmp\.' && ok || bad "a failed plot left a temporary file"
fi
if [ "$(id -u)" -ne 0 ]; then
    chmod a-w "$tmp/ro"
    expect_exit 3 "a read-only directory" -- "$LL" sweep gc-pause-single --vary gc_pause=1s:2s:1s --runs 2 --csv "$tmp/ro/x.csv"
    [ -z "$(ls -A "$tmp/ro")" ] && ok || bad "a read-only directory got files"
fi

# Determinism: the same arguments give byte-identical table and CSV; another seed, other runs.
args=(sweep-gc-pause --vary gc_pause=9.9s:10.3s:100ms --runs 40)
"$LL" sweep "${args[@]}" --csv "$tmp/a.csv" >"$tmp/a.txt" 2>"$tmp/a.err"
"$LL" sweep "${args[@]}" --csv "$tmp/b.csv" >"$tmp/b.txt" 2>"$tmp/b.err"
cmp -s "$tmp/a.txt" "$tmp/b.txt" && cmp -s "$tmp/a.csv" "$tmp/b.csv" && ok || bad "the same sweep twice differs"
# stderr is not a terminal: no bar (no carriage return, no escape), at most the plain progress
# lines, one every 5 s (whether this sweep lasts that long depends on the machine; a sweep long
# enough to always print one would be too slow for make test, so the line itself is not tested).
! grep -q "$(printf '[\r\033]')" "$tmp/a.err" && ! grep -qv '^locklab sweep: [0-9]*/[0-9]* runs, ' "$tmp/a.err" && ok ||
    bad "stderr is not a terminal, yet it holds more than progress lines: $(head -c 200 "$tmp/a.err" | cat -A)"
"$LL" sweep "${args[@]}" --seed 99 --csv "$tmp/c.csv" >/dev/null 2>&1
cmp -s "$tmp/a.csv" "$tmp/c.csv" && bad "--seed 99 changed nothing" || ok
ls "$tmp" | grep -q '\.tmp\.' && bad "a temporary file was left behind" || ok

# The step at the lease: no violation at 9s, all runs violated at 11s.
expect_exit 0 "a sweep runs" -- "$LL" sweep sweep-gc-pause --vary gc_pause=9s:11s:2s --runs 20 --csv "$tmp/step.csv"
grep -q '^9,9s,20,0,0,20,' "$tmp/step.csv" && grep -q '^11,11s,20,0,20,20,' "$tmp/step.csv" && ok ||
    bad "the rate does not step at the lease: $(cat "$tmp/step.csv")"
grep -qE '^ +9s +20 +0/20  0\.000 \[0\.000, 0\.161\]' "$tmp/out" && ok || bad "the table row for 9s: $(cat "$tmp/out")"

# The plot: a PNG and an SVG, the CSV beside it by default.
if command -v gnuplot >/dev/null; then
    expect_exit 0 "a PNG plot" -- "$LL" sweep sweep-gc-pause --vary gc_pause=8s:12s:1s --runs 10 --plot "$tmp/p.png"
    [ "$(head -c 4 "$tmp/p.png" | tail -c 3)" = "PNG" ] && ok || bad "the plot is not a PNG"
    [ -s "$tmp/p.csv" ] && ok || bad "no CSV beside the plot"
    expect_exit 0 "an SVG plot" -- "$LL" sweep redlock-drift-within-factor --vary drift=0:0.03:0.01 --runs 3 --plot "$tmp/p.svg" --csv "$tmp/other.csv"
    grep -q '<svg' "$tmp/p.svg" && grep -q 'redlock-drift-within-factor' "$tmp/p.svg" && ok || bad "the SVG lacks the title"
    [ -s "$tmp/other.csv" ] && [ ! -e "$tmp/p.csv.tmp" ] && ok || bad "--csv beside an SVG"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
