#!/usr/bin/env bash
# locklab check end to end, on scenarios that give only a fault budget (tests/check/): what
# it must find (and replay exactly from the written counter-example), what it must not find,
# and its bad input. Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/cli/lib.sh check

# finds NAME PROPERTY: check exits 1, names the property, and its counter-example replays.
finds() {
    # --probes 0: the systematic search alone (what these problems test), no random schedules
    local name=$1 prop=$2
    # a model beside the problem is named by its absolute path, so that the counter-example
    # written elsewhere finds it too
    sed 's#protocol = "\./models/#protocol = "'"$PWD"'/tests/check/models/#' "tests/check/$name.lua" >"$tmp/$name-src.lua"
    "$LL" check "$tmp/$name-src.lua" --probes 0 --out "$tmp/$name" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    [ "$rc" -eq 1 ] && ok || { bad "$name: check exit $rc, wanted 1"; cat "$tmp/err"; }
    grep -q "^  $prop *VIOLATED (counter-example below)" "$tmp/out" && ok || bad "$name: $prop not reported violated"
    [ -s "$tmp/$name.txt" ] && ok || bad "$name: no narrated trace written"
    "$LL" run "$tmp/$name.lua" --choices "$tmp/$name.choices" --quiet >"$tmp/replay" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] && grep -q "^  $prop *VIOLATED" "$tmp/replay" && ok || { bad "$name: the counter-example does not replay (exit $rc)"; tail -5 "$tmp/replay"; }
}

finds gc-pause mutual_exclusion
finds setnx-expire no_deadlock
finds failover mutual_exclusion
finds redlock-crash-restart mutual_exclusion
finds redlock-clock-jump mutual_exclusion
# Time searched by its orders, interior values included: a delay strictly inside its window;
# a clock value carried through a node and compared with another client's clock; a crash
# whose restart must fall in a gap between other actors' events.
finds interior-delay mutual_exclusion
finds stamp-carry mutual_exclusion
finds crash-gap mutual_exclusion
# A property decided by a delay's length: a wait that outlasts no_deadlock's bound.
finds deadlock-delay no_deadlock
# A counter-example of a problem whose model sits beside it (protocol = "./models/..."),
# written to another folder, names the model from there: it replays as written.
mkdir -p "$tmp/elsewhere"
"$LL" check tests/check/random-race-math.lua --probes 0 --out "$tmp/elsewhere/ce" >/dev/null 2>&1
[ $? -eq 1 ] && grep -q '^scenario.protocol = "[.][.]/.*models/random-race.lua"' "$tmp/elsewhere/ce.lua" && ok ||
    bad "random-race-math: the counter-example does not name the model beside the original by a relative path"
"$LL" run "$tmp/elsewhere/ce.lua" --choices "$tmp/elsewhere/ce.choices" --quiet >"$tmp/replay" 2>&1
grep -q "^  mutual_exclusion *VIOLATED" "$tmp/replay" && ok || { bad "random-race-math: its counter-example written elsewhere does not replay"; tail -3 "$tmp/replay"; }
# Inputs that were not decisions until round 4 (check said "holds" on each): the server's
# clock read with TIME to the µs and compared with a constant, as a command and inside a
# script; the server's generators (SRANDMEMBER as a command and in a cached script that
# changes no key, a script's math.random) drawn by two requests that land at once.
for name in time-const-command time-const-script random-race-command random-race-script random-race-math; do
    finds "$name" mutual_exclusion
done
# Adversarial (issue 22): faults whose violating instants lie in their target's last gap
# before the horizon (a GC pause of a client, a crash of a node, of a master with a replica);
# a client that gives up while its reply is in flight, leaving a key for nobody and stale
# events behind; a no_deadlock stretch whose start a crash's instant moves.
finds horizon-pause mutual_exclusion
finds horizon-crash mutual_exclusion
finds gave-up-orphan no_deadlock
finds holder-crash-deadlock no_deadlock
finds failover-horizon mutual_exclusion
# A random sleep on a drifting client clock: its window measured in true time.
finds drift-sleep mutual_exclusion
# A parked reply (PostgreSQL's pg_advisory_lock waiting in the server) that lands after its waiter gave up.
finds pg-wait-abandoned no_deadlock
finds two-jumps-one-gap mutual_exclusion
# Two crashes whose restarts tie with other events at their instants: the counter-example is
# recorded as its file runs it (a pinned restart acts first), so it replays (issue 33).
finds crash-restart-tie mutual_exclusion
# A crash of a client with a restart delay in the table: a client does not restart, and its
# counter-example pins no restart (which would not load: 'restart needs a node').
sed 's/crash = { "A" }/crash = { targets = { "A" }, params = { "100ms" } }/' tests/check/setnx-expire.lua >"$tmp/client-crash.lua"
grep -q '"100ms"' "$tmp/client-crash.lua" || bad "the restart delay was not put in"
"$LL" check "$tmp/client-crash.lua" --probes 0 --jobs 1 --out "$tmp/ccr" >"$tmp/out" 2>&1
rc=$?
"$LL" run "$tmp/ccr.lua" --choices "$tmp/ccr.choices" --quiet >"$tmp/replay" 2>&1
[ "$rc" -eq 1 ] && grep -q "^  no_deadlock *VIOLATED" "$tmp/replay" && ! grep -q "restart = " "$tmp/ccr.lua" && ok ||
    bad "a client's crash with a restart delay: check exit $rc, replay: $(head -2 "$tmp/replay")"
# A crash whose restart comes after the run's end (a no_deadlock violation needs no restart): the
# counter-example pins no restart past its end (which would not load: 'the fault comes after the
# end of the scenario').
cat >"$tmp/late-restart.lua" <<'EOF'
return {
  name = "check: a restart past the run's end", about = [[n1 crashes within 1 s and restarts 10 s later.]],
  protocol = "distlock", nodes = 1, persistence = "none", lease = "500ms", wait = "2s", timeout = "100ms",
  network = { delay = "1ms" },
  clients = { { name = "A", work = "200ms" }, { name = "B", start = "300ms", work = "100ms" } },
  duration = "3s",
  expect = { no_deadlock = "holds" },
  explore = { faults = { crash = { targets = { "n1" }, params = { "10s" } } }, max_faults = 1, horizon = "1s" },
}
EOF
"$LL" check "$tmp/late-restart.lua" --probes 0 --jobs 1 --out "$tmp/lr" >"$tmp/out" 2>&1
rc=$?
"$LL" run "$tmp/lr.lua" --choices "$tmp/lr.choices" --quiet >"$tmp/replay" 2>&1
[ "$rc" -eq 1 ] && grep -q "^  no_deadlock *VIOLATED" "$tmp/replay" && ok ||
    bad "a restart past the run's end: check exit $rc, replay: $(head -2 "$tmp/replay")"
# The minimiser keeps faults within the declared bounds: a pause stays one of the explore
# table's lengths (it was shortened to 5062.5 ms of gc-pause's only 12 s, 546.875 ms of
# horizon-pause's 5 s).
for pair in gc-pause:12000ms horizon-pause:5000ms; do
    name=${pair%%:*} len=${pair#*:}
    grep -q "^  { at = \"[0-9a-z]*\", gc_pause = \"A\", duration = \"$len\" },\$" "$tmp/$name.lua" && ok ||
        bad "$name: the counter-example's pause is not the table's $len: $(grep -o 'gc_pause = .*' "$tmp/$name.lua" | tail -1)"
done

# Issue 33's classes that are found today: the server's clock read with TIME (whole ms), as a
# command and inside a script; server randomness in plain commands; a pause or a crash inside a
# gap with a budget of one (and crash-gap, above).
# (server-time and server-time-script: below, with the classes check misses)
finds srandmember-plain-window mutual_exclusion
finds gap-pause mutual_exclusion
finds lease-pause mutual_exclusion
finds lease-partition mutual_exclusion
grep -q '^  { at = "[0-9a-z]*", gc_pause = "A", duration = "9000ms" },$' "$tmp/lease-pause.lua" && ok ||
    bad "lease-pause: the counter-example's pause is not the table's 9 s: $(grep -o 'gc_pause = .*' "$tmp/lease-pause.lua" | tail -1)"

# Issue 33's classes that check misses today. Each problem's violation is shown first, by a run
# with pinned faults or a seed (within the declared bounds); then check must find it (exit 1)
# within 2000 paths of the systematic search alone (a count, not a clock; a fourth argument
# says another count where a case needs more, and why) and its
# counter-example must replay. Those named in known_failing are expected to fail until issue
# 33's fix lands: their failures are printed as KNOWN and not counted (take a name off the list
# as its fix lands; CHECK_KNOWN_FAILING="" counts every one). One that passes while listed says so.
known_failing=${CHECK_KNOWN_FAILING-""}
issue33="partition-heal-window server-time-us server-time-us-script srandmember-eval srandmember-eval-window srandmember-plain tie-at-node gap-pause-twice gap-pause-jump gap-pause-crash gap-pause-3kinds lease-pause-drift crash-gap-pause server-time server-time-script srandmember-plain-window gap-pause lease-pause lease-partition time-const-command time-const-script random-race-command random-race-script random-race-math crash-restart-tie"
known=0
# finds_33 NAME PROPERTY SHOWN: SHOWN is "--seed N" or the pinned faults ('{ at = ... }, ...').
finds_33() {
    local name=$1 prop=$2 shown=$3 paths=${4:-2000} why="" rc
    sed 's#protocol = "\./models/#protocol = "'"$PWD"'/tests/check/models/#' "tests/check/$name.lua" >"$tmp/$name-src.lua"
    if [ "${shown#--seed }" != "$shown" ]; then
        "$LL" run "$tmp/$name-src.lua" $shown --quiet >"$tmp/shown" 2>&1
    else
        sed "s#^  duration = #  faults = { $shown },\n  duration = #" "$tmp/$name-src.lua" >"$tmp/$name-pinned.lua"
        "$LL" run "$tmp/$name-pinned.lua" --quiet >"$tmp/shown" 2>&1
    fi
    grep -q "^  $prop *VIOLATED" "$tmp/shown" || why="the run that should show the violation ($shown) does not"
    if [ -z "$why" ]; then
        "$LL" check "$tmp/$name-src.lua" --probes 0 --jobs 1 --max-paths "$paths" --out "$tmp/$name" >"$tmp/out" 2>"$tmp/err"
        rc=$?
        if [ "$rc" -ne 1 ] || ! grep -q "^  $prop *VIOLATED (counter-example below)" "$tmp/out"; then
            why="check exit $rc, wanted 1: $(grep -E '^   systematic' "$tmp/out" | sed 's/^ *//')"
        else
            "$LL" run "$tmp/$name.lua" --choices "$tmp/$name.choices" --quiet >"$tmp/replay" 2>&1
            rc=$?
            [ "$rc" -eq 0 ] && grep -q "^  $prop *VIOLATED" "$tmp/replay" || why="the counter-example does not replay (exit $rc)"
        fi
    fi
    case " $known_failing " in
    *" $name "*)
        if [ -n "$why" ]; then known=$((known + 1)); echo "KNOWN (expected to fail until issue 33 is fixed): $name: $why"
        else ok; echo "NOW PASSES: $name (take it off known_failing in tests/cli/test_check.sh)"; fi ;;
    *) [ -z "$why" ] && ok || bad "$name: $why" ;;
    esac
}
# The server's clock read with TIME to the µs, as a command and inside a script: which half of
# B's window its reading lands in (seed 1: past A's stamp).
finds_33 server-time-us mutual_exclusion "--seed 1"
finds_33 server-time-us-script mutual_exclusion "--seed 1"
# SRANDMEMBER inside two racing scripts that write no key: the order of the draws, at one
# instant and over a window. At one instant plain commands too, and any two requests at one
# node whose clients woke at the same instant (tie-at-node: SET NX).
finds_33 srandmember-eval mutual_exclusion "--seed 1"
finds_33 srandmember-eval-window mutual_exclusion "--seed 1"
finds_33 srandmember-plain mutual_exclusion "--seed 1"
finds_33 tie-at-node mutual_exclusion "--seed 1"
# A GC pause, a crash or a partition inside a gap with a budget of 2-3 faults: found with a
# budget of one (gap-pause, lease-pause, lease-partition, crash-gap above), not finished with more.
finds_33 gap-pause-twice mutual_exclusion '{ at = "353ms", gc_pause = "A", duration = "200ms" }'
finds_33 gap-pause-jump mutual_exclusion '{ at = "353ms", gc_pause = "A", duration = "200ms" }'
finds_33 gap-pause-crash mutual_exclusion '{ at = "353ms", gc_pause = "A", duration = "200ms" }'
finds_33 gap-pause-3kinds mutual_exclusion '{ at = "353ms", gc_pause = "A", duration = "200ms" }'
# the drift's start is searched where it began in B's gap (every ms B's readings pass is a
# value of its own: 4,826 paths, 1.6 s, where it was placed at events only and found in 15)
finds_33 lease-pause-drift mutual_exclusion '{ at = "2010ms", gc_pause = "A", duration = "9s" }' 20000
finds_33 crash-gap-pause mutual_exclusion '{ at = "2ms", crash = "n1" }, { at = "302ms", restart = "n1" }'
finds_33 lease-partition-pause mutual_exclusion '{ at = "1500ms", partition = { { "A" }, { "n1", "B" } }, duration = "4s" }'
# A partition's end is ordered against the messages that cross its cut (WORLD_KEY_CUT): a
# request sent before a 1 ms cut lands inside it (dropped) at its window's first value, after
# the heal further on.
finds_33 partition-heal-window mutual_exclusion "--seed 3"
# TIME over a 1-200 ms window, compared with another TIME reading: TIME answers the µs, as
# Redis's does, and each µs of B's window is a reading of its own (200,000 paths); the
# violating values lie some 100,000 µs in. A level's coarse pass (model/explore.c) takes such
# readings at their whole ms first and meets the violation in a few hundred paths.
for name in server-time server-time-script; do
    sed 's#protocol = "\./models/#protocol = "'"$PWD"'/tests/check/models/#' "tests/check/$name.lua" >"$tmp/$name-src.lua"
    "$LL" check "$tmp/$name-src.lua" --probes 0 --jobs 1 --max-paths 2000 --out "$tmp/$name" >"$tmp/out" 2>&1
    rc=$?
    if [ "$rc" -ne 1 ]; then bad "$name: check exit $rc, wanted 1"; continue; fi
    "$LL" run "$tmp/$name.lua" --choices "$tmp/$name.choices" --quiet >"$tmp/replay" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] && grep -q "^  mutual_exclusion *VIOLATED" "$tmp/replay" && ok || bad "$name: the counter-example does not replay (exit $rc)"
done

# Must not find: Redlock with restarts delayed past the TTL, or with fsync always.
for name in redlock-crash-restart-delayed redlock-crash-restart-fsync-always; do
    "$LL" check "tests/check/$name.lua" >"$tmp/out" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] && grep -q "mutual_exclusion *holds within the bounds" "$tmp/out" && ok || { bad "$name: exit $rc"; tail -5 "$tmp/out"; }
done

# Random schedules after the first level (--probes): a violation almost every schedule shows
# but that needs a dozen deviations; not found by the systematic search alone in 3000 paths;
# the same answer with --jobs 2 and over two shards merged.
"$LL" check tests/check/slow-links.lua --probes 0 --max-paths 3000 --jobs 1 >"$tmp/out" 2>&1
[ $? -eq 4 ] && ok || bad "slow-links without random schedules: $(grep -E 'systematic|VIOL' "$tmp/out")"
"$LL" check tests/check/slow-links.lua --jobs 1 --out "$tmp/slow" >"$tmp/out1" 2>&1
rc=$?
[ "$rc" -eq 1 ] && grep -q "then random schedules with the fault budget: number [0-9]* violated" "$tmp/out1" && grep -q "^  no_deadlock *VIOLATED (counter-example below)" "$tmp/out1" &&
    "$LL" run "$tmp/slow.lua" --choices "$tmp/slow.choices" --quiet 2>&1 | grep -q "^  no_deadlock *VIOLATED" && ok ||
    bad "slow-links: exit $rc, $(grep -E 'systematic|VIOL' "$tmp/out1")"
"$LL" check tests/check/slow-links.lua --jobs 2 --out "$tmp/slow2" >"$tmp/out2" 2>&1
"$LL" check tests/check/slow-links.lua --shard 1/2 --save "$tmp/slow-s1" >/dev/null 2>&1
"$LL" check tests/check/slow-links.lua --shard 2/2 --save "$tmp/slow-s2" >/dev/null 2>&1
"$LL" check tests/check/slow-links.lua --merge "$tmp/slow-s1" "$tmp/slow-s2" --out "$tmp/slow3" >"$tmp/out3" 2>&1
for k in 2 3; do
    grep -E "VIOLATED|evidence|^  [A-Z]" "$tmp/out$k" | grep -v "^locklab" >"$tmp/v$k"
    grep -E "VIOLATED|evidence|^  [A-Z]" "$tmp/out1" | grep -v "^locklab" >"$tmp/v1"
    # the choice files differ only in their first line, which names the file
    cmp -s "$tmp/v1" "$tmp/v$k" && cmp -s <(tail -n +2 "$tmp/slow.choices") <(tail -n +2 "$tmp/slow$k.choices") && ok ||
        bad "slow-links: run $k differs from --jobs 1"
done

# Must not find, and exhausted: a contender whose steps meet the holder's only at the masters
# (mutual_exclusion compares only the critical sections' ends across clients).
"$LL" check tests/check/redlock-late-contender.lua --time 30 >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && grep -q "mutual_exclusion *holds within the bounds" "$tmp/out" && ok || { bad "redlock-late-contender: exit $rc"; tail -5 "$tmp/out"; }

# Must not find, and exhausted: two clients at once over three masters, 1-2 ms windows (their
# windows together decide who is first at each master: followers and stayers, model/reduce.c).
"$LL" check tests/check/redlock-contend.lua --time 300 --jobs 1 >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && grep -q "mutual_exclusion *holds within the bounds" "$tmp/out" && ok || { bad "redlock-contend: exit $rc"; tail -5 "$tmp/out"; }

# And over five masters: chains of ten windows a client, each order searched about once.
"$LL" check tests/check/redlock5-contend.lua --time 300 --jobs 1 >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && grep -q "mutual_exclusion *holds within the bounds" "$tmp/out" && ok || { bad "redlock5-contend: exit $rc"; tail -5 "$tmp/out"; }

# Must not find: with fencing tokens the resource never accepts a stale write.
"$LL" check tests/check/gc-pause-fencing.lua >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && grep -q "resource_safety *holds within the bounds" "$tmp/out" && ok || { bad "gc-pause-fencing: exit $rc"; tail -5 "$tmp/out"; }

# No bound but the fault budget can hide a violation reachable under the default schedule:
# none with no deviations at all, nor with explore.max_depth = 1 (which the summary says cut
# the search), nor with 1-3 ms delay windows instead of constant delays.
for name in redlock-crash-restart failover setnx-expire redlock-clock-jump; do
    "$LL" check "tests/check/$name.lua" --max-deviations 0 --out "$tmp/d0" >"$tmp/out" 2>&1
    [ $? -eq 1 ] && ok || bad "$name: --max-deviations 0 hides the violation"
    sed 's/explore = {/explore = { max_depth = 1,/' "tests/check/$name.lua" >"$tmp/$name-depth1.lua"
    "$LL" check "$tmp/$name-depth1.lua" --out "$tmp/d1" >"$tmp/out" 2>&1
    [ $? -eq 1 ] && ok || bad "$name: max_depth = 1 hides the violation"
done
sed -e 's/explore = {/explore = { max_depth = 1,/' -e 's/delay = "2ms"/delay = { "1ms", "3ms" }/' tests/check/gc-pause-fencing.lua >"$tmp/cut.lua"
"$LL" check "$tmp/cut.lua" >"$tmp/out" 2>&1
grep -q "max_depth cut the search" "$tmp/out" && grep -q "holds within the bounds, max_depth among them" "$tmp/out" && ok ||
    bad "a search max_depth cut does not say so"

# The order reduction finds every violation that exploring both ends of every delay window
# finds, at the same deviation bound: each scenario of tests/check as it is and with its
# delays made 1-3 ms windows.
for f in tests/check/*.lua; do
    name=$(basename "$f" .lua)
    # its violation needs more than one deviation, and its search at one does not finish
    # within the time here: that comparison proves nothing either way (80 s of make test)
    [ "$name" = holder-crash-deadlock ] && continue
    # issue 33's problems: each is found above within a count of paths (finds_33), and the
    # comparison of their budgets of 2-3 faults and window variants at one deviation proves
    # nothing in the 20 s here (40-80 s each, several minutes of make test in all)
    case " $issue33 $known_failing " in *" $name "*) continue ;; esac
    # a ctx:random range wider than either search tries whole: neither is a proof (and 4096
    # paths a search)
    [ "$name" = wide-random ] && continue
    sed -E -e 's/delay = "[0-9]+ms"/delay = { "1ms", "3ms" }/' -e 's#protocol = "\./models/#protocol = "'"$PWD"'/tests/check/models/#' "$f" >"$tmp/$name-uniform.lua"
    variants=("$f")
    # windows already: as it is. (setnx-expire's and failover-redisson-wait's 1-3 ms variants:
    # neither search finishes at one deviation in its time, which proves nothing: 80 s saved)
    case $name in setnx-expire | failover-redisson-wait) ;; *)
        grep -q 'delay = "[0-9]*ms"' "$f" && variants+=("$tmp/$name-uniform.lua") ;;
    esac
    for s in "${variants[@]}"; do
        "$LL" check "$s" --delays extremes --max-deviations 1 --jobs 1 --probes 0 --time 0 --max-paths 6000 --out "$tmp/x" >"$tmp/ext" 2>&1
        rx=$?
        "$LL" check "$s" --max-deviations 1 --jobs 1 --probes 0 --time 0 --max-paths 6000 --out "$tmp/o" >"$tmp/ord" 2>&1
        ro=$?
        # exit 4: not finished within its paths (a count, not a time: the same on any machine),
        # which proves nothing either way;
        # neither may fail, and the orders may not finish the level without the violation the
        # extremes found (the systematic searches alone: --probes 0)
        { [ "$rx" -le 1 ] || [ "$rx" -eq 4 ]; } && { [ "$ro" -le 1 ] || [ "$ro" -eq 4 ]; } &&
            { [ "$rx" -ne 1 ] || [ "$ro" -ne 0 ]; } && ok ||
            bad "$(basename "$s"): extremes exit $rx, orders exit $ro"
    done
done

# A retry's sleep set from a reading moves in whole ms: where the windows below the root on
# that reading's chain carry it to its next ms alone, the root's own next value is where it
# gets there by itself, not one µs on (a walk along the diagonal of the two, each µs running
# every crash placement again). Every path with at most 2 deviations, counted in paths (not a
# clock): about 3,400; more than 300,000 with the µs walk.
"$LL" check tests/check/redlock-contend-crash.lua --max-deviations 2 --jobs 1 --probes 0 --max-paths 6000 >"$tmp/out" 2>&1
[ $? -eq 4 ] && grep -q "every path with at most 2 deviations" "$tmp/out" && grep -q "^No violation found within the deviation bound" "$tmp/out" && ok ||
    bad "contention with a crash, 2 deviations, not searched in 6000 paths: $(grep -E 'systematic|^No|^Not' "$tmp/out")"

# A decision on the clock's value alone (ctx:before): the search explores a late end where it
# can use up the margin — found when two late ends together flip it — and nowhere else.
"$LL" check tests/check/rtt-shortcut.lua --jobs 1 --out "$tmp/rtt" >"$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q "mutual_exclusion  VIOLATED" "$tmp/out" && ok || bad "the 4 ms shortcut is not found: $(head -4 "$tmp/out")"
sed 's#protocol = "./models/#options = { shortcut_ms = 1000 }, protocol = "'"$PWD"'/tests/check/models/#' tests/check/rtt-shortcut.lua >"$tmp/rtt-wide.lua"
"$LL" check "$tmp/rtt-wide.lua" --jobs 1 >"$tmp/out" 2>&1
[ $? -eq 0 ] && grep -q "systematic search: 1 paths" "$tmp/out" && grep -q "every order of events" "$tmp/out" && ok ||
    bad "a 1 s margin still branches on delays: $(grep -E 'systematic|covered' "$tmp/out")"
"$LL" check "$tmp/rtt-wide.lua" --jobs 1 --delays extremes >"$tmp/out" 2>&1
[ $? -eq 0 ] && grep -q "systematic search: 6144 paths" "$tmp/out" && ok || bad "extremes on the 1 s margin: $(grep systematic "$tmp/out")"

# --delays ends: SPIN's abstraction in make bench (each window at its two ends, each fault at
# the instant of an event). A violation it reaches is a real run's; no violation is no proof
# (exit 4, said on the property's line), and a shard file says which abstraction it searched.
"$LL" check tests/check/redlock-crash-restart.lua --delays ends --jobs 1 --probes 0 --out "$tmp/ends" >"$tmp/out" 2>&1
[ $? -eq 1 ] && "$LL" run "$tmp/ends.lua" --choices "$tmp/ends.choices" --quiet 2>&1 | grep -q "^  mutual_exclusion *VIOLATED" && ok ||
    bad "--delays ends: the restart's violation is not found or does not replay: $(grep -E 'systematic|mutual' "$tmp/out")"
"$LL" check tests/check/redlock-crash-restart-delayed.lua --delays ends --jobs 1 --probes 0 >"$tmp/out" 2>&1
[ $? -eq 4 ] && grep -q "mutual_exclusion  no violation found (not a proof: values sampled)" "$tmp/out" &&
    grep -q "SAMPLED: each window at its two ends only" "$tmp/out" && ! grep -q "every order of events" "$tmp/out" && ok ||
    bad "--delays ends claims more than it searched: $(grep -E 'systematic|time:|mutual' "$tmp/out")"
"$LL" check tests/check/redlock-crash-restart-delayed.lua --delays ends --jobs 1 --probes 0 --shard 1/2 --save "$tmp/ends-1" >/dev/null 2>&1
"$LL" check tests/check/redlock-crash-restart-delayed.lua --jobs 1 --probes 0 --shard 2/2 --save "$tmp/ends-2" >/dev/null 2>&1
"$LL" check tests/check/redlock-crash-restart-delayed.lua --merge "$tmp/ends-1" "$tmp/ends-2" >"$tmp/out" 2>&1
[ $? -eq 2 ] && ok || bad "a merge of shards searched with --delays ends and without: $(tail -1 "$tmp/out")"

# Deadlines of two keys on one millisecond, set by different requests: the one expiry event
# is caused by the first; the second request's late end, which moves its key's deadline
# alone, must be explored (sim/node.c, node_schedule_expiry).
"$LL" check tests/check/equal-deadlines.lua --max-deviations 1 --jobs 1 --out "$tmp/eqd" >"$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q "mutual_exclusion  VIOLATED" "$tmp/out" && ok || bad "equal deadlines: $(grep -E 'systematic|mutual' "$tmp/out")"

# A deadline found passed when the data comes back (a restart from the AOF, a replica's
# promotion): whether it had passed depends on when its request set it (node_schedule_expiry).
# And an etcd lease revoked on the lessor's tick, a deadline whose origin the node does not
# know: the tick compares the clock with it (node_on_expire); and a ZooKeeper session touched
# by a ping that changes no pending expiry: the ping reads the clock (node_schedule_expiry).
# A replicated deadline on a replica whose clock runs at another rate (node.c, cross_clock).
# And deadlines the fake Redis fixes otherwise: compared with another (PEXPIRE GT), absolute
# (PEXPIREAT), moved out of database 0 and back (MOVE).
for name in deadline-passed-restart deadline-passed-promotion lease-tick session-tick replica-slow-clock \
    deadline-gt deadline-absolute deadline-moved-db; do
    "$LL" check "tests/check/$name.lua" --max-deviations 1 --jobs 1 --out "$tmp/dp" >"$tmp/out" 2>&1
    [ $? -eq 1 ] && grep -q "mutual_exclusion  VIOLATED" "$tmp/out" && ok || bad "$name: $(grep -E 'systematic|mutual' "$tmp/out")"
done

# --jobs and shards: the answer of one search. Totals of a complete search, and the
# counter-example's files, byte for byte.
summary() { grep -E "^   (systematic search|covered|  )|holds|VIOLATED" "$1" | sed -E 's/, [0-9.]+ s \([0-9]+ transitions\/s\)//'; }
"$LL" check tests/check/redlock-crash-restart-delayed.lua --jobs 1 >"$tmp/j1" 2>/dev/null
"$LL" check tests/check/redlock-crash-restart-delayed.lua --jobs 3 >"$tmp/j3" 2>/dev/null
[ -n "$(summary "$tmp/j1")" ] && [ "$(summary "$tmp/j1")" = "$(summary "$tmp/j3")" ] && ok || bad "--jobs 3 gives other totals than --jobs 1"
"$LL" check tests/check/redlock-crash-restart.lua --jobs 1 --out "$tmp/ce1" >/dev/null 2>&1
"$LL" check tests/check/redlock-crash-restart.lua --jobs 3 --out "$tmp/ce3" >/dev/null 2>&1
diff <(sed 1d "$tmp/ce1.choices") <(sed 1d "$tmp/ce3.choices") >/dev/null && diff <(sed 1,3d "$tmp/ce1.lua") <(sed 1,3d "$tmp/ce3.lua") >/dev/null && ok ||
    bad "--jobs 3 gives another counter-example than --jobs 1"
for i in 1 2 3; do
    "$LL" check tests/check/redlock-crash-restart-delayed.lua --shard $i/3 --save "$tmp/shard$i" >/dev/null 2>&1
    [ $? -eq 0 ] && ok || bad "shard $i/3 failed"
done
"$LL" check tests/check/redlock-crash-restart-delayed.lua --merge "$tmp/shard1" "$tmp/shard2" "$tmp/shard3" >"$tmp/merged" 2>&1
[ $? -eq 0 ] && grep -q "mutual_exclusion *holds within the bounds" "$tmp/merged" &&
    [ "$(grep -o '[0-9]* distinct outcomes' "$tmp/merged")" = "$(grep -o '[0-9]* distinct outcomes' "$tmp/j1")" ] && ok ||
    bad "the merged shards do not give one search's answer: $(head -3 "$tmp/merged")"
# one shard of 1 is the whole search, its outcomes in its file
"$LL" check tests/check/redlock-crash-restart-delayed.lua --shard 1/1 --save "$tmp/whole" >/dev/null 2>&1
"$LL" check tests/check/redlock-crash-restart-delayed.lua --merge "$tmp/whole" >"$tmp/merged1" 2>&1
[ $? -eq 0 ] && [ "$(grep -o '[0-9]* distinct outcomes' "$tmp/merged1")" = "$(grep -o '[0-9]* distinct outcomes' "$tmp/j1")" ] && ok ||
    bad "shard 1/1 merged: $(grep -o '[0-9]* distinct outcomes' "$tmp/merged1")"
# A violation found by shards: the merge keeps the one a single search meets first (shards
# split below the default path's items, so several may find one in the same item) and
# minimises it into the same counter-example, byte for byte.
for i in 1 2 3 4 5; do
    "$LL" check tests/check/redlock-crash-restart.lua --shard $i/5 --save "$tmp/vshard$i" --out "$tmp/vs" >/dev/null 2>&1
done
"$LL" check tests/check/redlock-crash-restart.lua --merge "$tmp"/vshard? --out "$tmp/ce5" >"$tmp/out" 2>&1
[ $? -eq 1 ] && diff <(sed 1d "$tmp/ce1.choices") <(sed 1d "$tmp/ce5.choices") >/dev/null &&
    diff <(sed 1,3d "$tmp/ce1.lua") <(sed 1,3d "$tmp/ce5.lua") >/dev/null && ok ||
    bad "5 shards merged give another counter-example than one search: $(tail -3 "$tmp/out")"
# --shard is one process: more cores are more shards
"$LL" check tests/check/redlock-crash-restart.lua --shard 1/5 --jobs 2 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "more shards" "$tmp/err" && ok || bad "--shard with --jobs 2: $(cat "$tmp/err")"
# A shard missing is a part of the space not searched: exit 4 (not finished), naming it.
"$LL" check tests/check/redlock-crash-restart-delayed.lua --merge "$tmp/shard1" "$tmp/shard3" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 4 ] && grep -q "shard 2 of 3 missing" "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ] && ! grep -q "holds" "$tmp/out" && ok ||
    bad "a merge with a shard missing: $(cat "$tmp/err")"
# A merge refuses, with one line naming the file (exit 2), what is not a shard of this search:
# a duplicated index, another N, another scenario, the scenario's file edited since, another
# build of locklab, other options.
refused() { # refused WHAT PATTERN FILE -- merge arguments...
    local what=$1 pat=$2 file=$3
    shift 4
    "$LL" check "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -qF "$file" "$tmp/err" && grep -q "$pat" "$tmp/err" && ok ||
        bad "a merge of $what: exit $rc, $(cat "$tmp/err")"
}
D=tests/check/redlock-crash-restart-delayed.lua
cp "$tmp/shard2" "$tmp/shard2-again"
refused "a duplicated index" "given twice" "$tmp/shard2-again" -- "$D" --merge "$tmp/shard1" "$tmp/shard2" "$tmp/shard2-again" "$tmp/shard3"
"$LL" check "$D" --shard 2/4 --save "$tmp/shard2-of-4" >/dev/null 2>&1
refused "another N" "where the others are of 3" "$tmp/shard2-of-4" -- "$D" --merge "$tmp/shard1" "$tmp/shard2-of-4" "$tmp/shard3"
"$LL" check tests/check/redlock-crash-restart.lua --shard 2/3 --save "$tmp/other-2" --out "$tmp/other" >/dev/null 2>&1
refused "another scenario" "a shard of 'check: " "$tmp/other-2" -- "$D" --merge "$tmp/shard1" "$tmp/other-2" "$tmp/shard3"
cp "$D" "$tmp/edited.lua"
"$LL" check "$tmp/edited.lua" --shard 1/2 --save "$tmp/edited-1" >/dev/null 2>&1
"$LL" check "$tmp/edited.lua" --shard 2/2 --save "$tmp/edited-2" >/dev/null 2>&1
echo "-- edited after the search" >>"$tmp/edited.lua"
refused "a scenario edited since" "another version of" "$tmp/edited-1" -- "$tmp/edited.lua" --merge "$tmp/edited-1" "$tmp/edited-2"
cp "$LL" "$tmp/locklab-other" && printf 'another build' >>"$tmp/locklab-other"
"$tmp/locklab-other" check "$D" --shard 2/3 --save "$tmp/build-2" >/dev/null 2>&1
refused "another build" "another build of locklab" "$tmp/build-2" -- "$D" --merge "$tmp/shard1" "$tmp/build-2" "$tmp/shard3"
"$LL" check "$D" --shard 2/3 --max-deviations 1 --save "$tmp/k1-2" >/dev/null 2>&1
refused "other options" "searched with max_deviations=1" "$tmp/k1-2" -- "$D" --merge "$tmp/shard1" "$tmp/k1-2" "$tmp/shard3"
head -n 5 "$tmp/shard2" >"$tmp/cut-2"
refused "a file cut short" "cut short" "$tmp/cut-2" -- "$D" --merge "$tmp/shard1" "$tmp/cut-2" "$tmp/shard3"

# --pool: the tasks hand the shares out through a folder. Run one after another (no clock in
# it): task 2 of 2 alone takes every share, task 1 then finds them done and runs only the
# root. Merged, the answer of one search; task 2's file missing, its shares are named as not
# searched (exit 4) — never "holds".
"$LL" check "$D" --shard 2/2 --pool "$tmp/pool" --save "$tmp/pool-2" >/dev/null 2>&1
r2=$?
"$LL" check "$D" --shard 1/2 --pool "$tmp/pool" --save "$tmp/pool-1" >/dev/null 2>&1
[ $r2 -eq 0 ] && [ $? -eq 0 ] && [ "$(sed -n 's/^paths //p' "$tmp/pool-1")" = 1 ] && ok ||
    bad "pool tasks one after another: exits $r2, task 1 ran $(sed -n 's/^paths //p' "$tmp/pool-1") paths (wanted 1: the root)"
"$LL" check "$D" --merge "$tmp/pool-1" "$tmp/pool-2" >"$tmp/merged" 2>&1
[ $? -eq 0 ] && grep -q "mutual_exclusion *holds within the bounds" "$tmp/merged" &&
    [ "$(grep -o '[0-9]* distinct outcomes' "$tmp/merged")" = "$(grep -o '[0-9]* distinct outcomes' "$tmp/j1")" ] && ok ||
    bad "pool tasks merged do not give one search's answer: $(head -3 "$tmp/merged")"
"$LL" check "$D" --merge "$tmp/pool-1" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 4 ] && grep -q "shard 2 of 2 missing, and [0-9]* of the [0-9]* shares the tasks enabled were not searched" "$tmp/err" &&
    [ "$(wc -l <"$tmp/err")" -eq 1 ] && ! grep -q "holds" "$tmp/out" && ok || bad "a pool merged with a task's file missing: $(cat "$tmp/err")"
"$LL" check "$D" --shard 2/2 --save "$tmp/fixed-2" >/dev/null 2>&1
refused "a fixed shard among a pool's tasks" "a shard of a fixed split" "$tmp/fixed-2" -- "$D" --merge "$tmp/pool-1" "$tmp/fixed-2"
# the folder of another search (here: another N) is refused before anything is searched
"$LL" check "$D" --shard 1/3 --pool "$tmp/pool" --save "$tmp/pool-x" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "holds the shares of another search" "$tmp/err" && [ ! -f "$tmp/pool-x" ] && ok ||
    bad "a pool folder of another search: $(cat "$tmp/err")"
"$LL" check "$D" --pool "$tmp/pool" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "goes with --shard" "$tmp/err" && ok || bad "--pool without --shard: $(cat "$tmp/err")"
# a violation found by pool tasks: the one-search counter-example, byte for byte
V=tests/check/redlock-crash-restart.lua
"$LL" check "$V" --shard 2/2 --pool "$tmp/vpool" --save "$tmp/vpool-2" --out "$tmp/vp" >/dev/null 2>&1
"$LL" check "$V" --shard 1/2 --pool "$tmp/vpool" --save "$tmp/vpool-1" --out "$tmp/vp" >/dev/null 2>&1
"$LL" check "$V" --merge "$tmp/vpool-1" "$tmp/vpool-2" --out "$tmp/cep" >"$tmp/out" 2>&1
[ $? -eq 1 ] && diff <(sed 1d "$tmp/ce1.choices") <(sed 1d "$tmp/cep.choices") >/dev/null &&
    diff <(sed 1,3d "$tmp/ce1.lua") <(sed 1,3d "$tmp/cep.lua") >/dev/null && ok ||
    bad "pool tasks merged give another counter-example than one search: $(tail -3 "$tmp/out")"
# --pool-balance N: the same search in one process (its paths and outcomes), and each of N
# simulated tasks' paths, which add up to the search's and the root run N - 1 times more
"$LL" check "$D" --pool-balance 4 >"$tmp/bal" 2>/dev/null
rc=$?
paths=$(sed -n 's/^   systematic search: \([0-9]*\) paths.*/\1/p' "$tmp/j1")
sum=$(sed -n 's/^tasks. paths://p' "$tmp/bal" | tr ' ' '\n' | awk '{ s += $1; n += ($1 != "") } END { print s, n }')
[ $rc -eq 0 ] && [ "$(summary "$tmp/bal")" = "$(summary "$tmp/j1")" ] && [ "$sum" = "$((paths + 3)) 4" ] &&
    grep -q "^As 4 tasks of a --pool" "$tmp/bal" && ok || bad "--pool-balance 4: exit $rc, tasks' paths $sum (one process: $paths)"
"$LL" check "$D" --pool-balance 4 --shard 1/2 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "pool-balance" "$tmp/err" && ok || bad "--pool-balance with --shard: $(cat "$tmp/err")"

# Progress on stderr when it is not a terminal, and Ctrl-C: the totals and what was covered,
# exit 130. (No clock threshold: it waits for the first progress line, however slow.)
sed -E 's/delay = "[0-9]+ms"/delay = { "1ms", "3ms" }/' tests/check/gc-pause-fencing.lua >"$tmp/long.lua"
"$LL" check "$tmp/long.lua" --time 600 --jobs 1 >"$tmp/out" 2>"$tmp/err" &
pid=$!
for _ in $(seq 600); do grep -q "paths, .* transitions" "$tmp/err" && break; sleep 0.5; done
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] && grep -q "^   interrupted after" "$tmp/out" && grep -q "^   covered" "$tmp/out" &&
    grep -q "paths, .* transitions" "$tmp/err" && ok || bad "an interrupted check: exit $rc, $(tail -3 "$tmp/out")"

# Random mode finds the GC-pause violation too.
"$LL" check tests/check/gc-pause.lua --random 200 --seed 3 --out "$tmp/rnd" >"$tmp/out" 2>&1
[ $? -eq 1 ] && ok || bad "random mode does not find the GC-pause violation"

# Bad input.
"$LL" check single-basic >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "no explore table" "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "no explore table: not a one-line exit-2 error"
"$LL" check tests/check/gc-pause.lua --random 0 >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "--random 0 accepted"
"$LL" check >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "check with no scenario"
# A bound asked for must bound: --max-paths 0 would be the explorer's "no limit".
"$LL" check tests/check/gc-pause.lua --max-paths 0 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "at least 1 path" "$tmp/err" && ok || bad "--max-paths 0 accepted"
"$LL" check tests/check/gc-pause.lua --max-paths " 5" >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "--max-paths ' 5' accepted"
# --out "" would write the hidden files .lua, .choices and .txt
(ll=$(realpath "$LL") && here=$PWD && cd "$tmp" && "$ll" check "$here/tests/check/gc-pause.lua" --out "" >/dev/null 2>&1)
[ $? -eq 2 ] && [ ! -e "$tmp/.lua" ] && ok || bad "--out '' accepted"
# --out must not name the scenario itself (BASE.lua would replace it)
cp tests/check/gc-pause.lua "$tmp/self.lua"
"$LL" check "$tmp/self.lua" --out "$tmp/self" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && cmp -s tests/check/gc-pause.lua "$tmp/self.lua" && ok || bad "--out over the scenario: $(cat "$tmp/err")"
# explore params the explorer would misread are refused with file:line
sed 's/params = { "12s" }/params = { 0 }/' tests/check/gc-pause.lua >"$tmp/zero.lua"
"$LL" check "$tmp/zero.lua" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "zero.lua:[0-9]*: explore.faults.gc_pause.params\[1\] must be more than 0" "$tmp/err" && ok ||
    bad "a 0 ms pause to explore: $(cat "$tmp/err")"
sed 's/gc_pause = { targets = { "A" }, params = { "12s" } }/drift = { targets = { "n1" }, params = { -0.1 } }/' \
    tests/check/gc-pause.lua >"$tmp/negdrift.lua"
"$LL" check "$tmp/negdrift.lua" --max-paths 30 --jobs 1 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 4 ] && grep -q "stopped by --max-paths after 30 paths" "$tmp/out" &&
    grep -q "^Not finished" "$tmp/out" && ok || bad "a negative drift to explore, 30 paths: $(cat "$tmp/err"; tail -3 "$tmp/out")"
# --max-paths with --jobs 2 stops too (the workers share what it leaves)
"$LL" check "$tmp/negdrift.lua" --max-paths 30 --jobs 2 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 4 ] && grep -q "stopped by --max-paths" "$tmp/out" && [ "$(sed -n 's/.*systematic search: \([0-9]*\) paths.*/\1/p' "$tmp/out")" -lt 100 ] &&
    ok || bad "--max-paths 30 --jobs 2: $(grep systematic "$tmp/out")"
# A search stopped by --time is not a proof: exit 4, and it says what it covered. (Redlock N=5
# with a third client: far from finished in 1 s.)
sed 's/{ name = "c2", start = "2s", work = "1s" } },/{ name = "c2", start = "2s", work = "1s" }, { name = "c3", start = "2s", work = "1s" } },/' \
    tests/bench/check/redlock5.lua >"$tmp/three.lua"
grep -q '"c3"' "$tmp/three.lua" || bad "the third client was not added"
"$LL" check "$tmp/three.lua" --time 1 --jobs 1 >"$tmp/out" 2>/dev/null
[ $? -eq 4 ] && grep -q "stopped by --time" "$tmp/out" && grep -q "^Not finished" "$tmp/out" &&
    ! grep -q "No violation exists" "$tmp/out" && ok || bad "a check stopped by --time: $(tail -3 "$tmp/out")"
# --random is never a proof either
"$LL" check tests/check/redlock-crash-restart-delayed.lua --random 20 >"$tmp/out" 2>/dev/null
[ $? -eq 4 ] && grep -q "not a proof" "$tmp/out" && ok || bad "--random with no violation: $(tail -2 "$tmp/out")"

# Words that match the proof (issue 33): "holds" on a property's line only where the whole
# bounded space was searched; a random, stopped, bounded or sampled search says "no violation
# found (not a proof: why)" on that line, exits 4, and never "No violation exists".
not_proof() { # NAME WHY [PROPERTY]: $tmp/out is such a search's answer, exit $rc
    [ "$rc" -eq 4 ] && grep -q "^  ${3:-mutual_exclusion} *no violation found (not a proof: $2)\$" "$tmp/out" &&
        ! grep -q "holds within\|No violation exists" "$tmp/out" && ok ||
        bad "$1: exit $rc, $(grep -E "^  ${3:-mutual_exclusion}|^No|^Not" "$tmp/out")"
}
"$LL" check tests/check/redlock-crash-restart-delayed.lua --random 20 >"$tmp/out" 2>/dev/null
rc=$?
not_proof "--random" "random schedules"
# stopped by --time, and before its first level was done (--max-paths 5): then it does not
# claim every placement of the faults
"$LL" check "$tmp/three.lua" --time 1 --jobs 1 >"$tmp/out" 2>/dev/null
rc=$?
not_proof "--time 1" "stopped by --time"
grep -q "^   covered (before it stopped): " "$tmp/out" && ok || bad "--time 1: $(grep covered "$tmp/out")"
"$LL" check "$tmp/three.lua" --max-paths 5 --jobs 1 >"$tmp/out" 2>/dev/null
rc=$?
not_proof "--max-paths 5" "stopped by --max-paths"
grep -q "^   covered (before it stopped): 5 paths, not every one of the placements of at most 1 fault" "$tmp/out" &&
    ! grep -q "every placement" "$tmp/out" && ok || bad "a search stopped in its first level: $(grep -A1 covered "$tmp/out")"
# a deviation bound that left paths out: --max-deviations 0 where 1-2 ms windows need more
"$LL" check tests/check/redlock-contend.lua --max-deviations 0 --jobs 1 >"$tmp/out" 2>/dev/null
rc=$?
not_proof "--max-deviations 0" "bounded deviations"
grep -q "^            --max-deviations left the paths with more unsearched" "$tmp/out" && ok || bad "--max-deviations 0: $(grep -A2 covered "$tmp/out")"
# the same bound where it left nothing out (constant delays: no deviation to take): a proof
"$LL" check tests/check/redlock-crash-restart-delayed.lua --max-deviations 0 --jobs 1 >"$tmp/out" 2>/dev/null
rc=$?
[ "$rc" -eq 0 ] && grep -q "mutual_exclusion *holds within the bounds" "$tmp/out" &&
    grep -q "no bound on deviations was needed" "$tmp/out" && ok || bad "--max-deviations 0 that cut nothing: exit $rc"
# a ctx:random range wider than the search tries whole
"$LL" check tests/check/wide-random.lua --jobs 1 >"$tmp/out" 2>/dev/null
rc=$?
not_proof "wide-random" "values sampled"
grep -q "^   SAMPLED: a ctx:random range" "$tmp/out" && ok || bad "wide-random: no SAMPLED line"
# a drift's start is searched where it began in its target's gap, not sampled at the instants
# of events (until round 4 this said "not a proof"): a fenced lock under a drifting node holds
sed 's/gc_pause = { targets = { "A" }, params = { "12s" } }/drift = { targets = { "n1" }, params = { 0.05 } }/' \
    tests/check/gc-pause-fencing.lua >"$tmp/drift.lua"
grep -q drift "$tmp/drift.lua" || bad "the drift was not put in"
"$LL" check "$tmp/drift.lua" --jobs 1 --time 120 >"$tmp/out" 2>/dev/null
rc=$?
[ "$rc" -eq 0 ] && grep -q "resource_safety *holds within the bounds" "$tmp/out" &&
    grep -q "^   covered: every placement of at most 1 fault (drift of n1) within the first 2 s;" "$tmp/out" &&
    ! grep -q "SAMPLED" "$tmp/out" && ok || bad "a drift: exit $rc: $(grep -E 'covered|holds|SAMPLED' "$tmp/out")"
"$LL" check --help >"$tmp/help" 2>&1; grep -q "usage: locklab check" "$tmp/help" && ok || bad "check --help"

[ "$known" -gt 0 ] && echo "check: $known known failures of issue 33 (listed above as KNOWN; not counted)"
echo "check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
