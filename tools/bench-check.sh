#!/usr/bin/env bash
# tools/bench-check.sh — the model checker in `make bench`, beside its anchor: SPIN on the
# same problems in the same run.
#
# The problems are tests/bench/check/redlock3.lua and redlock5.lua (Redlock over 3 or 5
# masters, two clients, one crash of any master within 2.5 s restarting past the TTL, 1-2 ms
# delay windows) and their variants, made here: constant 2 ms delays; a restart after 200 ms
# with fsync always; one without fsync; two crashes with constant delays. Each runs as
#   locklab check FILE --jobs 1 --time 60       (no bound but the fault budget and 60 s, as
#                                                the issue's target; one core)
# and tests/bench/redlock.pml, the same problem in Promela with time in ms ticks, as
#   spin -a -DN=.. -DCRASHES=.. -DRESTART=.. -DPERSIST=.. -DDMIN=.. -DDMAX=..; cc -O2 -DSAFETY
#   -DCOLLAPSE pan.c; ./pan -m2000000
# under a time limit (BENCH_SPIN_SECONDS, default 120) and a memory limit (-DMEMLIM, default
# 12000 MB). A SPIN run stopped by either is reported as not finished, with the states it had
# stored. Prints one row a problem: what each tool answered, its time, and the time ratio.
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
    local f=$1 n crashes restart persist dmin dmax
    n=$(grep -c '"[A-E]"' <<<"$(sed -n 's/^ *nodes = {\(.*\)},$/\1/p' "$f" | tr ',' '\n')")
    crashes=$(sed -n 's/.*max_faults = \([0-9]*\).*/\1/p' "$f")
    restart=$(sed -n 's/.*params = { "\([0-9]*\)\(s\|ms\)" }.*/\1 \2/p' "$f" | awk '{ print $2 == "s" ? $1 * 1000 : $1 }')
    persist=$(grep -q 'persistence = "always"' "$f" && echo 1 || echo 0)
    if grep -q 'delay = { "1ms", "2ms" }' "$f"; then dmin=1 dmax=2; else dmin=2 dmax=2; fi
    echo "-DN=$n -DCRASHES=$crashes -DRESTART=$restart -DPERSIST=$persist -DDMIN=$dmin -DDMAX=$dmax"
}

row() { printf '%-30s %-34s %-44s %s\n' "$@"; }
echo
echo "The model checker beside SPIN $(spin -V | sed -n 's/^Spin Version \([^ ]*\).*/\1/p') (the same problems: tests/bench/check/redlockN.lua and its variants, tests/bench/redlock.pml)"
row "problem" "locklab check (1 core, ${CHECK_SECONDS} s)" "SPIN (-DSAFETY -DCOLLAPSE, POR on)" "SPIN / locklab"
# variant NAME SED-SCRIPT: writes $tmp/NAME.lua from the base file of its N.
variant() {
    local name=$1 n=${1:7:1}
    sed -e "$2" -e "s/name = \"bench: Redlock N=$n\"/name = \"bench: $name\"/" "tests/bench/check/redlock$n.lua" >"$tmp/$name.lua"
}
constant='s/delay = { "1ms", "2ms" }/delay = "2ms"/'
for n in 3 5; do
    variant "redlock$n-constant-delayed" "$constant"
    variant "redlock$n-uniform-delayed" ""
    variant "redlock$n-uniform-always" 's/persistence = "none"/persistence = "always"/; s/params = { "11s" }/params = { "200ms" }/'
    variant "redlock$n-uniform-nofsync" 's/params = { "11s" }/params = { "200ms" }/'
    variant "redlock$n-constant-2crashes" "$constant; s/max_faults = 1/max_faults = 2/"
    # the family beyond the partition that gives each client its own masters
    variant "redlock$n-uniform-partition1s" 's/duration = "30s" } },/duration = "1s" } },/'
    variant "redlock$n-uniform-nopartition" '/^  faults = {.*partition/d'
    variant "redlock$n-constant-3clients" "$constant; s/{ name = \"c2\", start = \"2s\", work = \"1s\" } },/{ name = \"c2\", start = \"2s\", work = \"1s\" }, { name = \"c3\", start = \"2s\", work = \"1s\" } },/"
done
for f in "$tmp"/redlock*.lua; do
    name=$(basename "$f" .lua)
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
    4) ll="not finished: <= ${devs:-0} deviations, $paths paths"; ll_done=0 ;;
    *) ll="failed (exit $rc)" ;;
    esac

    case $name in
    *partition1s | *nopartition | *3clients)
        row "$name" "$ll" "(no Promela model of it)" "-"
        continue ;;
    esac
    echo "bench: spin $name ..." >&2
    defs=$(spin_defs "$f")
    rm -rf "$tmp/spin" && mkdir -p "$tmp/spin"
    (cd "$tmp/spin" && spin -a $defs "$OLDPWD/tests/bench/redlock.pml" >/dev/null 2>&1 &&
        cc -O2 -DSAFETY -DCOLLAPSE -DMEMLIM=$MEMLIM -w -o pan pan.c) || { echo "bench-check: spin/cc failed for $name" >&2; exit 3; }
    t0=$(now)
    (cd "$tmp/spin" && timeout "$SPIN_SECONDS" ./pan -m2000000 >pan.out 2>&1)
    src=$?
    t1=$(now)
    sp_s=$(calc '%.2f' "$t1 - $t0")
    states=$(sed -n 's/^ *\([0-9e+.]*\) states, stored.*/\1/p' "$tmp/spin/pan.out")
    if grep -q "assertion violated" "$tmp/spin/pan.out"; then
        sp="VIOLATED, $states states, ${sp_s} s"; sp_done=1
    elif [ "$src" -eq 124 ]; then
        sp="not finished in ${SPIN_SECONDS} s"; sp_done=0
    elif grep -q "MEMLIM\|out of memory" "$tmp/spin/pan.out"; then
        sp="not finished: ${MEMLIM} MB full, $states states, ${sp_s} s"; sp_done=0
    elif grep -q "errors: 0" "$tmp/spin/pan.out"; then
        sp="holds, $states states, ${sp_s} s"; sp_done=1
    else
        sp="failed: $(tail -n 1 "$tmp/spin/pan.out")"; sp_done=0
    fi
    if [ "$rc" -gt 1 ] || { [ "$ll_done" -eq 0 ] && [ "$sp_done" -eq 0 ]; }; then ratio="neither finished"
    elif [ "$ll_done" -eq 0 ]; then ratio="locklab did not finish"
    elif [ "$sp_done" -eq 1 ]; then ratio="$(calc '%.1f' "$sp_s / ($ll_s + 0.005)")x"
    else ratio="> $(calc '%.0f' "$sp_s / ($ll_s + 0.005)")x"; fi
    row "$name" "$ll" "$sp" "$ratio"
done
cat <<EOF
  locklab: wall time of the whole command (loading, the search, minimising and writing a
  counter-example); SPIN: wall time of ./pan only (generating and compiling pan.c not counted).
  SPIN's model places a crash between any two milliseconds of the horizon and branches on
  every delay window's two ends (ms ticks); locklab searches every order of events the µs
  windows and fault instants can produce (README, "The model checker"). The partition1s,
  nopartition and 3clients rows are the general case (clients sharing masters); the
  Promela model has two clients and the bench partition only, so they run without SPIN.
EOF
