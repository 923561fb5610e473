#!/usr/bin/env bash
# A run is a pure function of its scenario, seed and choices (sim/README.md, "Sources of
# nondeterminism"). Two checks: no engine code reads time or randomness except through the
# table's own doors (a static look at the sources: each use of a clock or a generator of the
# system is named below with why it cannot reach a run); and what Lua itself could make
# differ between two runs — string hashing's seed, tables' addresses — is fixed or refused
# (tests/nondet/orders.lua, run in two processes). Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/cli/lib.sh nondet

# The allowed doors to the machine's time, randomness and identity: FILE:PATTERN, and why.
allowed=(
    "model/search.c:clock_gettime"       # the search's --time, progress and summary: outside every run
    "cli/cli.c:clock_gettime"            # the command line's progress lines
    "cli/serve_time.c:clock_gettime"     # locklab serve: a world driven in real time (world_realtime.c): its clock (--clock wall), a long script's time
    "cli/serve_ctl.c:gettimeofday"       # ... INFO's server time, as Redis answers it
    "cli/serve_conn.c:getpid"            # ... INFO's process_id, as Redis answers it
    "sim/client_sandbox.c:getpid"        # a model step's CPU-time budget (a breach ends the run with an error, never a verdict)
    "sim/client_sandbox.c:setitimer"     # ... the same budget's timer
    "sim/util.c:getpid"                  # a temporary file's name no one can predict (outputs), never read by a run
    "sim/util.c:time"                    # ... the same name
    "sim/util.c:getentropy"              # ... the same name
    "sim/client_sandbox.c:clock_gettime" # the guard: check's --time and signals end a running script; the search then says it stopped, never a verdict
)
# a call of one of the C library's doors: the name alone, not a field (->clock) nor part of
# a longer name, outside comment lines
pattern='(^|[^A-Za-z0-9_.>:])(time|clock_gettime|gettimeofday|clock|rand|random|srand|srandom|drand48|lrand48|mrand48|erand48|nrand48|jrand48|arc4random|getrandom|getentropy|getpid|setitimer|__rdtsc|rdtsc)\('
found=$(grep -rnE "$pattern" --include='*.c' --include='*.h' sim model reports cli | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(\*|/\*|//)' |
    while IFS= read -r line; do
        file=${line%%:*}
        for fn in $(printf '%s\n' "${line#*:*:}" | grep -oE "$pattern" | sed -E 's/^[^A-Za-z_]//; s/\($//'); do echo "$file:$fn"; done
    done | sort -u)
while IFS= read -r hit; do
    [ -n "$hit" ] || continue
    file=${hit%%:*}
    fn=${hit##*:}
    ok_here=0
    for a in "${allowed[@]}"; do [ "$a" = "$file:$fn" ] && ok_here=1; done
    if [ "$ok_here" -eq 1 ]; then ok; else bad "$hit: time or randomness read outside sim/README.md's table (a decision of the chooser, a node's clock, the seed's own stream)"; fi
done <<<"$found"
# /dev/urandom and friends, and Lua's doors to the machine in the sandboxes
grep -rnE '/dev/u?random|"os"|os\.time|os\.clock' --include='*.c' sim model reports | grep -v '^\s*/\*' >"$tmp/lua-doors"
[ ! -s "$tmp/lua-doors" ] && ok || { bad "a door to the machine's time or randomness:"; cat "$tmp/lua-doors"; }
# every allowed door is still where it is said to be (the list stays true)
for a in "${allowed[@]}"; do
    grep -qE "\b${a##*:}[[:space:]]*\(" "${a%%:*}" 2>/dev/null && ok || bad "$a: listed as allowed but gone (update the list)"
done

# Two processes, one seed: the same bytes, history included.
"$LL" run tests/nondet/orders.lua --seed 3 --json "$tmp/h1.jsonl" >"$tmp/r1" 2>&1
rc1=$?
sleep 1 # another second for time(), another process for the addresses
"$LL" run tests/nondet/orders.lua --seed 3 --json "$tmp/h2.jsonl" >"$tmp/r2" 2>&1
rc2=$?
[ "$rc1" -eq 0 ] && [ "$rc2" -eq 0 ] && ok || { bad "orders.lua: exit $rc1 / $rc2"; tail -5 "$tmp/r1"; }
cmp -s "$tmp/r1" "$tmp/r2" && cmp -s "$tmp/h1.jsonl" "$tmp/h2.jsonl" && ok || { bad "two runs of one scenario and seed differ"; diff "$tmp/r1" "$tmp/r2" | head -10; }
grep -q 'names: table: #1 function: #2 table: #1' "$tmp/r1" && ok || bad "tostring does not name tables by their order"
grep -q '%p: false %p gives an address' "$tmp/r1" && ok || bad "string.format's %p is not refused"
grep -q 'table keys: false pairs/next over a table keyed by a' "$tmp/r1" && ok || bad "pairs over tables as keys is not refused"
grep -q 'string keys: key' "$tmp/r1" && grep -q 'in a script: key' "$tmp/r1" && ok || bad "the string keys were not printed"

echo "nondet: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
