#!/usr/bin/env bash
# tools/bench-shards.sh — the balance of a search split over 64 tasks, in `make bench`, beside
# its anchor: the same search in one process, in the same run.
#
# A Slurm array's tasks share the search through a pool (tools/slurm-check.sh; `check
# --shard I/N --pool DIR`): a task that finishes early takes the next share nobody has taken,
# so the wall time is set by how evenly the work can be spread, not by a fixed split. For
# each problem of the bench family below this runs
#   - the search in one process (--jobs 1): its paths and seconds;
#   - `check --pool-balance 64`: the same search in one process, its shares handed out as 64
#     pool tasks would if every path took the same time (paths are exact, so the balance is:
#     no clock of this loaded machine in it): each task's paths (the root of the search is
#     run by all 64), the largest over the mean (1.00 is a perfect split), and when the last
#     share ended (in paths' time) against the one process's paths: how much sooner 64 tasks
#     finish at most;
#   - with SHARDS_REAL=1, also 64 real pool tasks at once on this machine and their merge
#     (checked: the one process's distinct outcomes), each task's paths taken as they ran —
#     noisy: 64 processes share this machine's cores unevenly.
# Each runs with a fixed bound (--max-deviations K) so that the search finishes, and --probes
# 0 (the random schedules after the first level run in every task alike).
#
# The problems (tests/bench/check/, as tools/bench-check.sh makes them): Redlock N=3 and N=5
# with both clients at once over every master, no partition — N=3 with the crash of any
# master, N=5 without; Redlock N=3 and N=5 whose masters restart after 200 ms with fsync
# always; the Redisson watchdog with a replica and failover.
# Exit 0 when it ran (whatever the figures), 3 when something could not run.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 3
export LOCKLAB_HOME=$PWD
LL=${LOCKLAB:-./locklab}
TASKS=${BENCH_SHARDS:-64}
[ -x "$LL" ] || { echo "bench-shards: ./locklab is missing" >&2; exit 3; }
tmp=$(mktemp -d /tmp/locklab-bench-shards.XXXXXX) || exit 3
trap 'rm -rf "$tmp"' EXIT

B=tests/bench/check
contend='/^  faults = {.*partition/d; s/{ name = "c2", start = "2s", work = "1s" }/{ name = "c2", start = "0ms", work = "1s" }/'
sed -e "$contend" "$B/redlock3.lua" >"$tmp/redlock3-contend-crash.lua"
sed -e "$contend; s/max_faults = 1/max_faults = 0/" "$B/redlock5.lua" >"$tmp/redlock5-contend.lua"
sed -e 's/persistence = "none"/persistence = "always"/; s/params = { "11s" }/params = { "200ms" }/' "$B/redlock3.lua" >"$tmp/redlock3-restart-always.lua"
sed -e 's/persistence = "none"/persistence = "always"/; s/params = { "11s" }/params = { "200ms" }/' "$B/redlock5.lua" >"$tmp/redlock5-restart-always.lua"
cp "$B/redisson-failover.lua" "$tmp/"

now() { date +%s.%N; }
printf '\n%s\n' "A search over $TASKS pool tasks (check --pool-balance $TASKS: every path the same time), beside the same search in one process"
printf '%-34s %-24s %-10s %-9s %-8s %-13s %-10s %s\n' "problem" "one process" "tasks' sum" "mean" "largest" "largest/mean" "last ends" "sooner at most"
for spec in "redlock3-contend-crash 2" "redlock5-contend 4" "redlock3-restart-always 2" "redlock5-restart-always 2" "redisson-failover 1"; do
    set -- $spec
    name=$1 k=$2 f=$tmp/$1.lua
    echo "bench: $name over $TASKS tasks ..." >&2
    t0=$(now)
    "$LL" check "$f" --jobs 1 --max-deviations "$k" --probes 0 --time 0 --out "$tmp/ce" >"$tmp/one" 2>/dev/null
    rc=$?
    t1=$(now)
    { [ $rc -le 1 ] || [ $rc -eq 4 ]; } || { echo "bench-shards: $name failed in one process (exit $rc)" >&2; exit 3; }
    one=$(sed -n 's/^   systematic search: \([0-9]*\) paths.*/\1/p' "$tmp/one")
    "$LL" check "$f" --max-deviations "$k" --probes 0 --time 0 --pool-balance "$TASKS" --out "$tmp/ce" >"$tmp/bal" 2>/dev/null
    rc=$?
    { [ $rc -le 1 ] || [ $rc -eq 4 ]; } || { echo "bench-shards: $name --pool-balance failed (exit $rc)" >&2; exit 3; }
    same=""
    [ "$(grep -o '[0-9]* distinct outcomes' "$tmp/one")" = "$(grep -o '[0-9]* distinct outcomes' "$tmp/bal")" ] || same=" (OUTCOMES DIFFER)"
    last=$(sed -n 's/.*the last share ended after \([0-9]*\) paths.*/\1/p' "$tmp/bal")
    sed -n 's/^tasks. paths: //p' "$tmp/bal" | tr ' ' '\n' | grep . >"$tmp/paths"
    awk -v name="$name (K=$k)" -v one="$one" -v secs="$(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }")" -v last="$last" -v same="$same" '
        { s += $1; if ($1 > m) m = $1 }
        END { printf "%-34s %-24s %-10d %-9.1f %-8d %-13.2f %-10d %.1fx%s\n", name, one " paths, " secs " s", s, s / NR, m, m / (s / NR), last, one / last, same }' "$tmp/paths"
    if [ "${SHARDS_REAL:-0}" = 1 ]; then
        mkdir -p "$tmp/real"
        rm -rf "$tmp/real"/*
        t0=$(now)
        for ((i = 1; i <= TASKS; i++)); do
            "$LL" check "$f" --max-deviations "$k" --probes 0 --time 0 --shard "$i/$TASKS" --pool "$tmp/real/pool" \
                --save "$tmp/real/s$i" --out "$tmp/real/ce$i" >/dev/null 2>&1 &
        done
        wait
        t1=$(now)
        "$LL" check "$f" --merge "$tmp"/real/s* --out "$tmp/ce" >"$tmp/merged" 2>&1
        mrc=$?
        same=""
        [ "$(grep -o '[0-9]* distinct outcomes' "$tmp/one")" = "$(grep -o '[0-9]* distinct outcomes' "$tmp/merged")" ] || same=" (MERGED OUTCOMES DIFFER)"
        [ $mrc -le 1 ] || [ $mrc -eq 4 ] || same=" (MERGE FAILED: exit $mrc)"
        cat "$tmp"/real/s* | sed -n 's/^paths //p' | awk -v secs="$(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }")" -v same="$same" '
            { s += $1; if ($1 > m) m = $1 }
            END { printf "  %d real pool tasks at once on this machine: %d paths, the largest %d, %.2fx the mean; %s s%s\n", NR, s, m, m / (s / NR), secs, same }'
    fi
done
cat <<EOF
  one process: --jobs 1, the wall time of the whole command. tasks' sum: every task runs the
  root of the search (the default path), so the sum is one process's paths and $((TASKS - 1)) more.
  largest/mean: the load of the busiest task over the mean. last ends: when the last share
  ended, counting a path as one unit of time — the wall time of $TASKS tasks on $TASKS equal cores.
  Where a window's values are found one after another (each by the path at the one before),
  the walk along them is a chain no hand-out shortens: it bounds "last ends" from below, and
  when it is longer than the mean share, the tasks wait for it and the largest/mean stays above 1.
EOF
