#!/usr/bin/env bash
# Runs every scenario of the library; each states what it expects, so the library is a test
# suite: a scenario passes when `locklab run` exits 0 (every expectation met).
set -uo pipefail
bin=$1
shift
pass=0
fail=0
for s in "$@"; do
    out=$("$bin" run "$s" --quiet 2>&1)
    rc=$?
    if [ "$rc" -eq 0 ]; then
        pass=$((pass + 1))
        echo "  $(basename "$s" .lua): expectations met"
    else
        fail=$((fail + 1))
        echo "  $(basename "$s" .lua): FAILED (exit $rc)"
        printf '%s\n' "$out" | tail -n 15 | sed 's/^/      /'
    fi
done
echo "scenarios: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
