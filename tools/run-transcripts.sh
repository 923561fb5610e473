#!/usr/bin/env bash
# Replays every transcript with `locklab redis --check` and sums the results.
set -uo pipefail
bin=$1
shift
pass=0
fail=0
for t in "$@"; do
    out=$("$bin" redis --check "$t" 2>&1)
    rc=$?
    line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
    p=$(echo "$line" | sed -nE 's/^([0-9]+) passed.*/\1/p')
    f=$(echo "$line" | sed -nE 's/.* ([0-9]+) failed.*/\1/p')
    if [ "$rc" -ne 0 ]; then
        printf '%s\n' "$out" | grep -v -E '^[0-9]+ passed' | head -n 40
        [ "${f:-0}" -eq 0 ] && f=1
    fi
    pass=$((pass + ${p:-0}))
    fail=$((fail + ${f:-0}))
    echo "  $t: ${p:-0} passed, ${f:-0} failed"
done
echo "transcripts: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
