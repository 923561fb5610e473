#!/usr/bin/env bash
# Command-line tests of the Redlock library models (lua/clients/redlock*.lua, node-redlock.lua,
# go-redsync.lua): each preset's retry schedule pinned in virtual time (when each attempt of a
# refused client starts, for seed 1, and how many attempts the library makes), and
# `locklab compare --options` showing two libraries on the same faults. Prints
# "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/cli/lib.sh redlock
export LOCKLAB_HOME=${LOCKLAB_HOME:-$PWD}

# ---- the retry schedules ----
# h takes the lock on all three masters at 0 and holds it for 60 s; c starts at 100 ms and
# is refused by every node in every attempt. Every message takes exactly 1 ms, so an attempt's
# own duration is fixed and the gaps between attempts are the library's delays (drawn from
# the seed where the library draws them).
schedule() { # PRESET -> the times (s) at which c sends its acquire to A, one per line
    sed "s/PRESET/$1/" >"$tmp/$1.lua" <<'LUA'
return {
  name = "retry schedule of PRESET", about = [[c is refused by every node in every attempt.]],
  protocol = "redlock", mode = "redlock", nodes = { "A", "B", "C" },
  lease = "60s", wait = "60s", network = { delay = "1ms" },
  options = { preset = "PRESET" },
  clients = { { name = "h", start = 0, work = "59s" }, { name = "c", start = "100ms", work = "1s" } },
  duration = "30s", seed = 1,
}
LUA
    "$LL" run "$tmp/$1.lua" >"$tmp/$1.txt" 2>&1 || { bad "$1: the schedule scenario did not run: $(tail -3 "$tmp/$1.txt")"; return; }
    sed -n 's/^ *\([0-9.]*\)s  c  *→ A  \(SET\|distlock\/acquire\|node-redlock\/acquire\|redlock-gem\/lock\).*/\1/p' "$tmp/$1.txt"
}
pin() { # PRESET "t1 t2 ..." COST LO HI: the exact starts for seed 1, and every gap = COST ms
        # (the attempt and what follows it) + a delay in [LO, HI] ms
    local got
    got=$(schedule "$1" | tr '\n' ' ' | sed 's/ $//')
    if [ "$got" = "$2" ]; then ok; else bad "$1's retry schedule: got '$got', wanted '$2'"; fi
    schedule "$1" | awk -v c="$3" -v lo="$4" -v hi="$5" \
        'NR > 1 { g = ($1 - p) * 1000 - c; if (g < lo - 0.5 || g > hi + 0.5) bad = 1 } { p = $1 } END { exit bad }' &&
        ok || bad "$1: a gap outside $3 ms + $4-$5 ms"
    [ "$(schedule "$1")" = "$(schedule "$1")" ] && ok || bad "$1's schedule is not deterministic"
}
# The documentation's algorithm: 3 attempts; each sends 3 SETs in turn (6 ms) and, refused,
# unlocks all three (6 ms), then sleeps rand(200) = 0-199 ms (antirez's numbers).
pin redis-docs "0.100 0.269 0.403" 12 0 199
# antirez's redlock-rb: the same numbers (its 5 s timeout does not matter when nodes answer).
pin redlock-rb "0.100 0.269 0.403" 12 0 199
# the gem: 4 tries, sleep 200 + rand(50) ms before each but the first.
pin redlock-gem "0.100 0.345 0.578 0.802" 12 200 249
# redlock-py: 3 attempts, a fixed 0.2 s sleep.
pin redlock-py "0.100 0.312 0.524" 12 200 200
# node-redlock: 11 attempts, all nodes at once, settled at the second vote against (2 ms),
# then 200 +/- 100 ms (Math.floor: 100-299), no unlock in between.
pin node-redlock "0.100 0.373 0.504 0.647 0.922 1.039 1.148 1.427 1.589 1.816 1.994" 2 100 299
# go-redsync: 32 tries, all nodes at once, every reply awaited (2 ms), a parallel release
# (2 ms), then rand.Intn(200) + 50 = 50-249 ms.
n_go=$(schedule go-redsync | wc -l)
[ "$n_go" -eq 32 ] && ok || bad "go-redsync makes $n_go tries, not 32"
go_starts="0.100 0.240 0.404 0.473 0.704 0.821 0.951 1.137 1.334 1.496 1.551 1.648 1.887 1.989 2.141 2.353"
go_starts+=" 2.428 2.656 2.900 2.957 3.094 3.314 3.462 3.607 3.719 3.804 4.003 4.111 4.220 4.315 4.467 4.689"
pin go-redsync "$go_starts" 4 50 249
first_go=$(schedule go-redsync | head -4 | tr '\n' ' ' | sed 's/ $//')
[ "$first_go" = "0.100 0.240 0.404 0.473" ] && ok || bad "go-redsync's first tries: '$first_go'"

# ---- the ctx mechanism under them: ctx:send / ctx:receive / ctx:abandon, ctx:monotonic ----
mkdir -p "$tmp/probe"
cat >"$tmp/probe/probe.lua" <<'LUA'
local M = {}
function M.new(ctx, cfg)
  local lock = {}
  function lock.acquire()
    local ids = {}
    for _, n in ipairs(ctx:nodes()) do ids[ctx:send(n, "SET", "k", n)] = n end
    ctx:log("sent %d, nothing waited for yet", 3)
    local first, v = ctx:receive()
    ctx:log("first reply from %s: %s", ids[first], v)
    local id, err = ctx:receive(5)
    ctx:log("within 5 ms: %s %s", tostring(id), tostring(err))
    ctx:sleep(100)                                  -- B's reply comes while it sleeps: kept
    local second, v2 = ctx:receive(0)
    ctx:log("kept while asleep: %s %s", ids[second], v2)
    ctx:abandon()                                   -- C is still on its way
    ctx:log("after abandon: %s", select(2, ctx:receive(1000)))
    local t0, m0 = ctx:now(), ctx:monotonic()
    ctx:sleep(2000)                                 -- the clock jumps by +60 s meanwhile
    ctx:log("slept: wall %d ms, monotonic %d ms", ctx:now() - t0, ctx:monotonic() - m0)
    ctx:send("A", "GET", "k")
    local got, e = ctx:receive(1)                   -- A answers in 2 ms: too late
    ctx:abandon("timeout")
    ctx:log("deadline: %s %s", tostring(got), tostring(e))
    ctx:sleep(10)
    return false, "probe"
  end
  function lock.release() return true end
  return lock
end
return M
LUA
cat >"$tmp/probe/probe-scenario.lua" <<'LUA'
return {
  name = "ctx:send probe", about = [[the parallel requests of ctx]],
  protocol = "probe", mode = "redlock", nodes = { "A", "B", "C" },
  network = { delay = "1ms" },
  links = { { from = "c", to = "B", delay = "20ms" }, { from = "c", to = "C", delay = "200ms" } },
  clients = { { name = "c", start = 0 } },
  faults = { { at = "500ms", clock_jump = "c", by = "60s" } },
  duration = "5s",
}
LUA
expect_exit 0 "the ctx:send probe" -- "$LL" run "$tmp/probe/probe-scenario.lua"
probe_says() { grep -q -- "says: $1" "$tmp/out" && ok || bad "ctx probe: no '$1': $(grep says "$tmp/out")"; }
probe_says "first reply from A: OK"
probe_says "within 5 ms: nil timeout"
probe_says "kept while asleep: B OK"
probe_says "after abandon: none"
probe_says "slept: wall 62000 ms, monotonic 2000 ms"
probe_says "deadline: nil timeout"
grep -q "← C  OK  (no longer awaited)" "$tmp/out" && ok || bad "an abandoned reply is traced 'no longer awaited'"
grep -q "gives up waiting for a reply (timeout)" "$tmp/out" && ok || bad "abandon(\"timeout\") records the timeout"
grep -q "← A  \"A\"  (too late: already timed out)" "$tmp/out" && ok || bad "a reply after abandon(\"timeout\") is too late: $(grep '← A' "$tmp/out")"

# ---- node-redlock's using: automatic extension 500 ms before the expiration ----
cat >"$tmp/using.lua" <<'LUA'
return {
  name = "node-redlock using", about = [[c1 works 5 s under a 2 s lock that using extends.]],
  protocol = "redlock", mode = "redlock", nodes = { "A", "B", "C" },
  lease = "2s", wait = "30s", network = { delay = "1ms" },
  options = { preset = "node-redlock", auto_extend = true },
  clients = { { name = "c1", start = 0, work = "5s" }, { name = "c2", start = "1s", work = "1s", rounds = 3 } },
  duration = "20s", seed = 1,
  expect = { mutual_exclusion = "holds" },
}
LUA
expect_exit 0 "node-redlock's using" -- "$LL" run "$tmp/using.lua"
# acquired at 2 ms: expiration 0 + 2000 - 22 = 1978 ms, so the first extension starts at 1478
# and is done 2 ms later; each extension's expiration is its own start + 1978 (5.0.0-beta.2,
# src/index.ts lines 378 and 400-407), the next one 500 ms before it
ext=$(sed -n 's/^ *\([0-9.]*\)s  c1  *says: extended.*/\1/p' "$tmp/out" | tr '\n' ' ' | sed 's/ $//')
[ "$ext" = "1.480 2.958 4.436" ] && ok || bad "using's extensions at '$ext'"
grep -q "expectations met" "$tmp/out" && ok || bad "using keeps c2 out while c1 works"
sed 's/lease = "2s"/lease = "550ms"/' "$tmp/using.lua" >"$tmp/using-short.lua"
expect_exit 2 "using with a duration too short for its threshold" -- "$LL" run "$tmp/using-short.lua" -q
grep -q "must be at least 100ms greater than the .automaticExtensionThreshold." "$tmp/err" && ok || bad "using's threshold check: $(head -2 "$tmp/err")"

# ---- compare --options: two libraries, the same faults ----
expect_exit 0 "compare two presets" -- "$LL" compare node-redlock-gc-pause-acquire --options preset=redis-docs --options preset=node-redlock
grep -q "\[1\] = preset=redis-docs, \[2\] = preset=node-redlock, seed 1" "$tmp/out" && ok || bad "compare names the two option sets"
grep -Eq "^  mutual_exclusion +holds +VIOLATED +← differs" "$tmp/out" && ok ||
    bad "a GC pause during acquisition: redis-docs holds, node-redlock violated: $(cat "$tmp/out")"
grep -q "expectations: NOT met under preset=redis-docs, met under preset=node-redlock" "$tmp/out" && ok || bad "compare judges each side's expectations"
cp "$tmp/out" "$tmp/cmp1"
"$LL" compare node-redlock-gc-pause-acquire --options preset=redis-docs --options preset=node-redlock >"$tmp/cmp2" 2>&1
cmp -s "$tmp/cmp1" "$tmp/cmp2" && ok || bad "compare --options is not deterministic"
expect_exit 0 "compare redlock-rb with the gem" -- "$LL" compare redlock-rb-minority-partition --options preset=redlock-gem --options preset=redlock-rb
grep -Eq "^  no_deadlock +holds +VIOLATED +← differs" "$tmp/out" && ok || bad "a 5 s timeout against 0.1 s: $(cat "$tmp/out")"
expect_exit 0 "compare with several options a side" -- "$LL" compare redlock-py-minority-partition --options preset=redlock-py,node_timeout=50 --options preset=redlock-py
grep -Eq "^  no_deadlock +holds +VIOLATED +← differs" "$tmp/out" && ok || bad "redlock-py with a socket timeout holds: $(cat "$tmp/out")"

expect_exit 2 "compare --options once" -- "$LL" compare node-redlock-gc-pause-acquire --options preset=redis-docs
one_line_err "compare --options once" "usage"
expect_exit 2 "compare --options without =" -- "$LL" compare node-redlock-gc-pause-acquire --options preset --options preset=redis-docs
one_line_err "compare --options without =" "--options takes K=V"
expect_exit 2 "an unknown preset on the command line" -- "$LL" compare node-redlock-gc-pause-acquire --options preset=redis-docs --options preset=nodered
one_line_err "an unknown preset on the command line" '--options: options.preset must be one of "redis-docs"'
expect_exit 2 "another library's option" -- "$LL" compare node-redlock-gc-pause-acquire --options preset=redis-docs --options preset=go-redsync,retry_jitter=3
one_line_err "another library's option" "--options: options.retry_jitter is not an option of the go-redsync preset"
sed 's/preset = "node-redlock" }/preset = "redlock-py", timeout_factor = 0.1 }/' scenarios/node-redlock-gc-pause-acquire.lua >"$tmp/badopt.lua"
expect_exit 2 "another library's option in a scenario" -- "$LL" run "$tmp/badopt.lua" -q
one_line_err "another library's option in a scenario" "badopt.lua:29: options.timeout_factor is not an option of the redlock-py preset"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
