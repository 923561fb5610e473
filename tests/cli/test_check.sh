#!/usr/bin/env bash
# locklab check end to end, on scenarios that give only a fault budget (tests/check/): what
# it must find (and replay exactly from the written counter-example), what it must not find,
# and its bad input. Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
LL=${LOCKLAB:-./locklab}
tmp=$(mktemp -d /tmp/locklab-check.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# finds NAME PROPERTY: check exits 1, names the property, and its counter-example replays.
finds() {
    local name=$1 prop=$2
    "$LL" check "tests/check/$name.lua" --out "$tmp/$name" >"$tmp/out" 2>"$tmp/err"
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

# Must not find: Redlock with restarts delayed past the TTL, or with fsync always.
for name in redlock-crash-restart-delayed redlock-crash-restart-fsync-always; do
    "$LL" check "tests/check/$name.lua" >"$tmp/out" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] && grep -q "mutual_exclusion *holds within the bounds" "$tmp/out" && ok || { bad "$name: exit $rc"; tail -5 "$tmp/out"; }
done

# Must not find: with fencing tokens the resource never accepts a stale write.
"$LL" check tests/check/gc-pause-fencing.lua >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && grep -q "resource_safety *holds within the bounds" "$tmp/out" && ok || { bad "gc-pause-fencing: exit $rc"; tail -5 "$tmp/out"; }

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
# explore params the explorer would misread are refused with file:line
sed 's/params = { "12s" }/params = { 0 }/' tests/check/gc-pause.lua >"$tmp/zero.lua"
"$LL" check "$tmp/zero.lua" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "zero.lua:[0-9]*: explore.faults.gc_pause.params\[1\] must be more than 0" "$tmp/err" && ok ||
    bad "a 0 ms pause to explore: $(cat "$tmp/err")"
sed 's/gc_pause = { targets = { "A" }, params = { "12s" } }/drift = { targets = { "n1" }, params = { -0.1 } }/' \
    tests/check/gc-pause.lua >"$tmp/negdrift.lua"
"$LL" check "$tmp/negdrift.lua" --max-paths 30 >/dev/null 2>"$tmp/err"
[ $? -eq 0 ] && ok || bad "a negative drift to explore: $(cat "$tmp/err")"
"$LL" check --help | grep -q "usage: locklab check" && ok || bad "check --help"

echo "check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
