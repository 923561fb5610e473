#!/usr/bin/env bash
# Runs cmocka test binaries and sums their results into one "N passed, N failed" line.
set -uo pipefail
pass=0
fail=0
for t in "$@"; do
    [ -x "$t" ] || continue
    out=$("$t" 2>&1)
    rc=$?
    printf '%s\n' "$out" | grep -E '^\[  (PASSED|FAILED)  \]|^\[  ERROR   \]|ERROR: (Address|Undefined|Leak)Sanitizer|runtime error' || true
    p=$(printf '%s\n' "$out" | sed -nE 's/^\[  PASSED  \] ([0-9]+) test.*/\1/p' | tail -n 1)
    f=$(printf '%s\n' "$out" | sed -nE 's/^\[  FAILED  \] ([0-9]+) test.*/\1/p' | tail -n 1)
    pass=$((pass + ${p:-0}))
    if [ "$rc" -ne 0 ] && [ -z "$f" ]; then
        # crashed or a sanitizer stopped it: show the tail and count it
        printf '%s\n' "$out" | tail -n 30
        f=1
    fi
    fail=$((fail + ${f:-0}))
    echo "  $(basename "$t"): ${p:-0} passed, ${f:-0} failed"
done
echo "unit: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
