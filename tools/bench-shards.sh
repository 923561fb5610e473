#!/usr/bin/env bash
# tools/bench-shards.sh — the balance of `locklab check --shard I/64` in `make bench`: how the
# paths of a search fall into 64 shards, beside its anchor, the same search in one process,
# in the same run.
#
# A Slurm array (tools/slurm-check.sh) cannot move work between its tasks: the largest shard
# sets the wall time. For each problem of the bench family below, this runs the search once
# in one process (--jobs 1), then its 64 shards one after another on this machine, and prints
# the paths of the one process, the paths of every shard added up (the work the split costs),
# the mean and the largest shard, the largest over the mean (1.00 is a perfect split) and the
# speed-up 64 tasks could give at most (one process's paths over the largest shard's). Each
# runs with a fixed bound (--max-deviations K) so that every shard finishes its share, and
# --probes 0 (the random schedules after the first level run in every shard alike).
#
# The problems (tests/bench/check/, as tools/bench-check.sh makes them): Redlock N=3 and N=5
# with both clients at once over every master, no partition — N=3 with the crash of any
# master, N=5 without; Redlock N=3 whose masters restart after 200 ms with fsync always; the
# Redisson watchdog with a replica and failover.
# Exit 0 when it ran (whatever the figures), 3 when something could not run.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 3
export LOCKLAB_HOME=$PWD
LL=${LOCKLAB:-./locklab}
SHARDS=${BENCH_SHARDS:-64}
[ -x "$LL" ] || { echo "bench-shards: ./locklab is missing" >&2; exit 3; }
tmp=$(mktemp -d /tmp/locklab-bench-shards.XXXXXX) || exit 3
trap 'rm -rf "$tmp"' EXIT

B=tests/bench/check
contend='/^  faults = {.*partition/d; s/{ name = "c2", start = "2s", work = "1s" }/{ name = "c2", start = "0ms", work = "1s" }/'
sed -e "$contend" "$B/redlock3.lua" >"$tmp/redlock3-contend-crash.lua"
sed -e "$contend; s/max_faults = 1/max_faults = 0/" "$B/redlock5.lua" >"$tmp/redlock5-contend.lua"
sed -e 's/persistence = "none"/persistence = "always"/; s/params = { "11s" }/params = { "200ms" }/' "$B/redlock3.lua" >"$tmp/redlock3-restart-always.lua"
cp "$B/redisson-failover.lua" "$tmp/"

now() { date +%s.%N; }
printf '\n%s\n' "The split of a search into $SHARDS shards (--shard I/$SHARDS, one after another), beside the same search in one process"
printf '%-34s %-26s %-16s %-10s %-12s %-11s %s\n' "problem" "one process" "shards' paths" "mean" "largest" "largest/mean" "speed-up at most"
for spec in "redlock3-contend-crash 2" "redlock5-contend 4" "redlock3-restart-always 2" "redisson-failover 1"; do
    set -- $spec
    name=$1 k=$2 f=$tmp/$1.lua
    echo "bench: shards of $name ..." >&2
    t0=$(now)
    "$LL" check "$f" --jobs 1 --max-deviations "$k" --probes 0 --time 0 --out "$tmp/ce" >"$tmp/one" 2>/dev/null
    rc=$?
    t1=$(now)
    { [ $rc -le 1 ] || [ $rc -eq 4 ]; } || { echo "bench-shards: $name failed in one process (exit $rc)" >&2; exit 3; }
    one=$(sed -n 's/^   systematic search: \([0-9]*\) paths.*/\1/p' "$tmp/one")
    for ((i = 1; i <= SHARDS; i++)); do
        "$LL" check "$f" --jobs 1 --max-deviations "$k" --probes 0 --time 0 --shard "$i/$SHARDS" --save "$tmp/s$i" --out "$tmp/ce" >/dev/null 2>&1
        rc=$?
        { [ $rc -le 1 ] || [ $rc -eq 4 ]; } || { echo "bench-shards: $name shard $i failed (exit $rc)" >&2; exit 3; }
        sed -n 's/^paths //p' "$tmp/s$i"
    done >"$tmp/paths"
    "$LL" check "$f" --merge "$tmp"/s* --out "$tmp/ce" >"$tmp/merged" 2>&1
    mrc=$?
    same=$([ "$(grep -o '[0-9]* distinct outcomes' "$tmp/one")" = "$(grep -o '[0-9]* distinct outcomes' "$tmp/merged")" ] && echo "" || echo " (MERGED OUTCOMES DIFFER)")
    [ $mrc -le 1 ] || same=" (MERGE FAILED: exit $mrc)"
    awk -v name="$name (K=$k)" -v one="$one" -v secs="$(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }")" -v same="$same" '
        { s += $1; if ($1 > m) m = $1 }
        END { printf "%-34s %-26s %-16s %-10.1f %-12d %-11.2f %.1fx%s\n", name, one " paths, " secs " s", s, s / NR, m, m / (s / NR), one / m, same }' "$tmp/paths"
done
cat <<EOF
  one process: --jobs 1, the wall time of the whole command. A shard runs the default path
  of each level again, and the split's paths (model/parallel.c); "shards' paths" over "one
  process" is what the split costs in CPU. Where one item's subtree holds most of the space
  and its items are found one after another (a window's crossings, each computed from the
  path at the one before), no static split can get the largest shard near the mean.
EOF
