#!/usr/bin/env bash
# tools/bench-check.sh — the model checker in `make bench`, beside its anchor: SPIN on the
# same problems in the same run.
#
# The family: tests/bench/check/redlock3.lua and redlock5.lua (Redlock over 3 or 5 masters,
# two clients, one crash of any master within 2.5 s restarting past the TTL, 1-2 ms delay
# windows, a partition that gives each client its own masters) and their variants, made
# here: constant 2 ms delays; a restart after 200 ms with fsync always, or without fsync;
# two crashes; the partition 1 s only; no partition (both clients share every master), with
# one crash and with two; a third client; two GC pauses of either client instead of the crash (no
# partition). Beyond Redlock, without a Promela model:
# tests/bench/check/redisson-failover.lua (Redisson's watchdog over a master, a replica and
# failover) and fairlock3.lua (the fair lock with three waiters). Each runs as
#   locklab check FILE --jobs 1 --time 60       (one core; no bound but the fault budget)
# and each Redlock problem as tests/bench/redlock.pml, the same problem in Promela with time
# in ms ticks, twice:
#   spin -a -DN=.. -DCRASHES=.. -DRESTART=.. -DPERSIST=.. -DDMIN=.. -DDMAX=.. -DPART_END=..
#        -DCLIENTS=.. [-DEVENT_CRASH=1]; cc -O2 -DSAFETY -DCOLLAPSE pan.c; ./pan -m2000000
# once with a crash possible between any two milliseconds of the horizon, once with crashes
# at event instants only (EVENT_CRASH: the instants where locklab places a crash, without
# the shift that covers the gap before it), under a time limit (BENCH_SPIN_SECONDS, default
# 120) and a memory limit (-DMEMLIM, default 12000 MB). A SPIN run stopped by either is
# reported as not finished, with the states it had stored. Each Redlock problem also runs as
#   locklab check FILE --jobs 1 --time 60 --delays ends --probes 0
# SPIN's abstraction (each window at its two ends, each crash at the instant of an event: the
# fourth column's), which proves nothing of the values between and is compared with that
# column. Prints one row a problem: what each tool answered, its time, and SPIN's time over
# locklab's, each with the same abstraction as the column it is compared with.
# Names given (tools/bench-check.sh redlock5-9b-uniform-contend ...) run those rows only.
# Exit 0 when it ran (whatever the figures), 3 when something could not run.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 3
export LOCKLAB_HOME=$PWD
SPIN_SECONDS=${BENCH_SPIN_SECONDS:-120}
CHECK_SECONDS=${BENCH_CHECK_SECONDS:-60}
MEMLIM=${BENCH_SPIN_MEMLIM:-12000}
LL=./locklab

command -v spin >/dev/null || { echo "bench-check: spin is not installed (make deps installs it)" >&2; exit 3; }
[ -x "$LL" ] || { echo "bench-check: ./locklab is missing" >&2; exit 3; }
tmp=$(mktemp -d /tmp/locklab-bench-check.XXXXXX) || exit 3
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"$1\", $2 }"; }

# The -D definitions of the Promela model for a scenario file (read from its fields).
spin_defs() {
    local f=$1 n crashes restart persist dmin dmax part clients c2start pauses pause
    n=$(grep -c '"[A-E]"' <<<"$(sed -n 's/^ *nodes = {\(.*\)},$/\1/p' "$f" | tr ',' '\n')")
    crashes=$(sed -n 's/.*max_faults = \([0-9]*\).*/\1/p' "$f")
    restart=$(sed -n 's/.*params = { "\([0-9]*\)\(s\|ms\)" }.*/\1 \2/p' "$f" | awk '{ print $2 == "s" ? $1 * 1000 : $1 }')
    pauses=0
    if grep -q "gc_pause = { targets" "$f"; then # GC pauses of the clients instead of crashes
        pauses=$crashes crashes=0
        pause=$restart restart=11000
    fi
    persist=$(grep -q 'persistence = "always"' "$f" && echo 1 || echo 0)
    if grep -q 'delay = { "1ms", "2ms" }' "$f"; then dmin=1 dmax=2; else dmin=2 dmax=2; fi
    part=$(sed -n 's/^  faults = {.*partition.*duration = "\([0-9]*\)s" } },$/\1/p' "$f")
    part=$(( ${part:-0} * 1000 ))
    clients=$(grep -o 'name = "c[0-9]"' "$f" | wc -l)
    c2start=$(sed -n 's/.*name = "c2", start = "\([0-9]*\)\(s\|ms\)".*/\1 \2/p' "$f" | awk '{ print $2 == "s" ? $1 * 1000 : $1 }')
    echo "-DN=$n -DCRASHES=$crashes -DRESTART=$restart -DPERSIST=$persist -DDMIN=$dmin -DDMAX=$dmax -DPART_END=$part -DCLIENTS=$clients -DC2START=${c2start:-2000} -DPAUSES=$pauses -DPAUSE=${pause:-2000}"
}

row() { printf '%-38s %-36s %-34s %-34s %-36s %s\n' "$@"; }
# abstraction FILE DEFS: under a row, what each side searched (its abstraction of time and of
# the faults), from the scenario and the -D definitions the Promela model got
abstraction() {
    local f=$1 defs=$2 ll_win sp_win faults sp_faults
    if grep -q 'delay = { "1ms", "2ms" }' "$f"; then
        ll_win="every order of events the 1-2 ms delay windows give (µs)" sp_win="each delay 1 or 2 ms (a window's two ends)"
    else
        ll_win="delays 2 ms" sp_win="delays 2 ms"
    fi
    faults=$(sed -n 's/.*explore = { faults = { \([a-z_]*\) = .*max_faults = \([0-9]*\).*/at most \2 \1/p' "$f")
    case $defs in
    *-DPAUSES=0*) sp_faults="crashes at any ms (column 3) or at event instants (column 4)" ;;
    *) sp_faults="GC pauses at any ms (column 3) or at event instants (column 4)" ;;
    esac
    printf '    abstraction: locklab: %s; %s, at any µs (a gap before an event of its target);\n' "$ll_win" "${faults:-no fault}"
    printf '                 SPIN: ms ticks; %s; %s\n' "$sp_win" "$sp_faults"
    printf '                 locklab --delays ends (column 5): each window at its two ends, faults at event instants (column 4'"'"'s)\n'
}

echo
echo "The model checker beside SPIN $(spin -V | sed -n 's/^Spin Version \([^ ]*\).*/\1/p') (the same problems: tests/bench/check/redlockN.lua and its variants, tests/bench/redlock.pml)"
row "problem" "locklab check (1 core, ${CHECK_SECONDS} s)" "SPIN, a crash at any ms" "SPIN, crashes at event instants" "locklab --delays ends (SPIN's)" "SPIN / locklab"
# variant NAME SED-SCRIPT: writes $tmp/NAME.lua from the base file of its N.
variant() {
    local name=$1 n=${1:7:1}
    sed -e "$2" -e "s/name = \"bench: Redlock N=$n\"/name = \"bench: $name\"/" "tests/bench/check/redlock$n.lua" >"$tmp/$name.lua"
}
constant='s/delay = { "1ms", "2ms" }/delay = "2ms"/'
# a third client as SPIN's model has it: c3 beside c2, in c2's side of the partition (an actor
# named in no group would talk to every master)
third='s/{ name = "c2", start = "2s", work = "1s" } },/{ name = "c2", start = "2s", work = "1s" }, { name = "c3", start = "2s", work = "1s" } },/; s/{ "c2", /{ "c2", "c3", /'
for n in 3 5; do
    variant "redlock$n-1-constant" "$constant"
    variant "redlock$n-2-uniform" ""
    variant "redlock$n-3-uniform-always" 's/persistence = "none"/persistence = "always"/; s/params = { "11s" }/params = { "200ms" }/'
    variant "redlock$n-4-uniform-nofsync" 's/params = { "11s" }/params = { "200ms" }/'
    variant "redlock$n-5-constant-2crashes" "$constant; s/max_faults = 1/max_faults = 2/"
    # the family beyond the partition that gives each client its own masters
    variant "redlock$n-6-uniform-partition1s" 's/duration = "30s" } },/duration = "1s" } },/'
    variant "redlock$n-7-uniform-nopartition" '/^  faults = {.*partition/d'
    variant "redlock$n-8-uniform-nopartition-2crashes" '/^  faults = {.*partition/d; s/max_faults = 1/max_faults = 2/'
    variant "redlock$n-9-constant-3clients" "$constant; $third"
    # both clients ask at once over every master (the issue's "general case"), no fault
    variant "redlock$n-9b-uniform-contend" '/^  faults = {.*partition/d; s/{ name = "c2", start = "2s", work = "1s" }/{ name = "c2", start = "0ms", work = "1s" }/; s/max_faults = 1/max_faults = 0/'
    # and with the crash of any master
    variant "redlock$n-9c-uniform-contend-crash" '/^  faults = {.*partition/d; s/{ name = "c2", start = "2s", work = "1s" }/{ name = "c2", start = "0ms", work = "1s" }/'
    # two GC pauses of 2 s, of either client, instead of the crash; no partition
    variant "redlock$n-9d-uniform-nopartition-2pauses" '/^  faults = {.*partition/d; s/crash = { targets = { "[A-E", ]*" }, params = { "11s" } }/gc_pause = { targets = { "c1", "c2" }, params = { "2s" } }/; s/max_faults = 1/max_faults = 2/'
done
cp tests/bench/check/redisson-failover.lua tests/bench/check/fairlock3.lua "$tmp/"

# spin_run DEFS: runs the Promela model; sets sp (what it answered), sp_s and sp_done.
spin_run() {
    rm -rf "$tmp/spin" && mkdir -p "$tmp/spin"
    (cd "$tmp/spin" && spin -a $1 "$OLDPWD/tests/bench/redlock.pml" >/dev/null 2>&1 &&
        cc -O2 -DSAFETY -DCOLLAPSE -DMEMLIM=$MEMLIM -w -o pan pan.c) || { echo "bench-check: spin/cc failed: $1" >&2; exit 3; }
    local t0 t1 src states
    t0=$(now)
    (cd "$tmp/spin" && timeout "$SPIN_SECONDS" ./pan -m2000000 >pan.out 2>&1)
    src=$?
    t1=$(now)
    sp_s=$(calc '%.2f' "$t1 - $t0")
    states=$(sed -n 's/^ *\([0-9e+.]*\) states, stored.*/\1/p' "$tmp/spin/pan.out")
    sp_done=0
    if grep -q "assertion violated" "$tmp/spin/pan.out"; then
        sp="VIOLATED, $states states, ${sp_s} s"; sp_done=1
    elif [ "$src" -eq 124 ]; then
        sp="not finished in ${SPIN_SECONDS} s"
    elif grep -q "MEMLIM\|out of memory" "$tmp/spin/pan.out"; then
        sp="not finished: ${MEMLIM} MB full"
    elif grep -q "errors: 0" "$tmp/spin/pan.out"; then
        sp="holds, $states states, ${sp_s} s"; sp_done=1
    else
        sp="failed: $(tail -n 1 "$tmp/spin/pan.out")"
    fi
}

# ratio SPIN_SECONDS SPIN_DONE [ENDS]: SPIN's time over locklab's (with ENDS, over the run at
# SPIN's abstraction), as the two ended.
ratio() {
    local lrc=$rc done=$ll_done secs=$ll_s
    [ $# -gt 2 ] && lrc=$erc done=$e_done secs=$e_s
    if { [ "$lrc" -gt 1 ] && [ "$lrc" -ne 4 ]; }; then echo "locklab failed"
    elif [ "$done" -eq 0 ] && [ "$2" -eq 0 ]; then echo "neither finished"
    elif [ "$done" -eq 0 ]; then echo "locklab did not finish"
    elif [ "$2" -eq 1 ]; then echo "$(calc '%.1f' "$1 / ($secs + 0.005)")x"
    else echo "> $(calc '%.0f' "$1 / ($secs + 0.005)")x"; fi
}

for f in "$tmp"/redlock*.lua "$tmp/redisson-failover.lua" "$tmp/fairlock3.lua"; do
    name=$(basename "$f" .lua)
    if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
    echo "bench: check $name ..." >&2
    t0=$(now)
    "$LL" check "$f" --jobs 1 --time "$CHECK_SECONDS" --out "$tmp/ce" >"$tmp/ll.out" 2>/dev/null
    rc=$?
    t1=$(now)
    ll_s=$(calc '%.2f' "$t1 - $t0")
    paths=$(sed -n 's/^   systematic search: \([0-9]*\) paths.*/\1/p' "$tmp/ll.out")
    devs=$(sed -n 's/.*every path with at most \([0-9]*\) deviation.*/\1/p' "$tmp/ll.out")
    ll_done=1
    case $rc in
    0) ll="holds, $paths paths, ${ll_s} s" ;;
    1) ll="VIOLATED, $paths paths, ${ll_s} s" ;;
    4) ll="not finished: <= ${devs:-0} devs, $paths paths"; ll_done=0 ;;
    *) ll="failed (exit $rc)" ;;
    esac
    case $name in
    redlock*) ;;
    *) row "$name" "$ll" "(no Promela model of it)" "" "" "-"
       echo "    abstraction: locklab: every order the windows give (µs), faults at any µs; SPIN: no model"
       continue ;;
    esac
    # the same problem at SPIN's abstraction (the fourth column's)
    t0=$(now)
    "$LL" check "$f" --jobs 1 --time "$CHECK_SECONDS" --delays ends --probes 0 --out "$tmp/ce" >"$tmp/ends.out" 2>/dev/null
    erc=$?
    t1=$(now)
    e_s=$(calc '%.2f' "$t1 - $t0")
    epaths=$(sed -n 's/^   systematic search: \([0-9]*\) paths.*/\1/p' "$tmp/ends.out")
    e_done=1
    if [ "$erc" -eq 1 ]; then ends="VIOLATED, $epaths paths, ${e_s} s"
    elif [ "$erc" -eq 4 ] && ! grep -q "stopped by --time" "$tmp/ends.out"; then ends="none at the ends, $epaths paths, ${e_s} s"
    elif [ "$erc" -eq 4 ]; then ends="not finished, $epaths paths"; e_done=0
    else ends="failed (exit $erc)"; e_done=0; fi
    defs=$(spin_defs "$f")
    echo "bench: spin $name ($defs) ..." >&2
    spin_run "$defs"
    sp1=$sp r1=$(ratio "$sp_s" "$sp_done")
    echo "bench: spin $name, crashes at event instants ..." >&2
    spin_run "$defs -DEVENT_CRASH=1"
    sp2=$sp r2=$(ratio "$sp_s" "$sp_done") r3=$(ratio "$sp_s" "$sp_done" ends)
    row "$name" "$ll" "$sp1" "$sp2" "$ends" "$r1; $r2; at SPIN's abstraction $r3"
    abstraction "$f" "$defs"
done
cat <<EOF
  locklab: wall time of the whole command (loading, the search, minimising and writing a
  counter-example); SPIN: wall time of ./pan only (generating and compiling pan.c not counted).
  SPIN's model branches on every delay window's two ends (ms ticks) and places a crash either
  between any two milliseconds of the horizon or, in the third column, at the instants of
  events only (where locklab places one, without the shift that covers the gap before it);
  locklab searches every order of events the µs windows and fault instants can produce
  (README, "The model checker"); its fifth column searches SPIN's abstraction of the fourth
  (--delays ends: not a proof of the values between). The last column is SPIN's time over
  locklab's: column 3 over column 2, column 4 over column 2, and column 4 over column 5 (the
  same abstraction).
EOF
