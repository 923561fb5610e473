#!/usr/bin/env bash
# tools/fuzz.sh — the fuzz targets in `make test` (tools/run-tests.sh): each
# build/san/fuzz/fuzz_<name> (tests/fuzz/fuzz_<name>.c linked with tests/fuzz/driver.c under
# ASan + UBSan) replays its seed corpus, tests/fuzz/corpus/<name>/, then runs a fixed number
# of mutations of it from a fixed seed. Nothing depends on the clock: the same build runs the
# same inputs, and a failure names the input (a corpus file, or "mutation K of seed S") and
# writes it to build/fuzz/crash-fuzz_<name> for `build/san/fuzz/fuzz_<name> that-file`.
#
#     tools/fuzz.sh [--mutations N] [--seed S] build/san/fuzz/fuzz_*
#
# Without --mutations each target runs its count below, chosen so that it takes a few seconds
# under the sanitizers on a loaded 2-core machine; `make fuzz FUZZ_MUTATIONS=N` runs N each
# (the long run without clang; `make fuzz` is libFuzzer's coverage-guided one). Prints one
# line per target and "N passed, N failed". Exit 0 when every target ran clean, 1 otherwise,
# 2 on a usage error.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

mutations=
seed=1
while [ $# -gt 0 ]; do
    case $1 in
    --mutations) mutations=${2:?--mutations needs a count}; shift 2 ;;
    --seed) seed=${2:?--seed needs a number}; shift 2 ;;
    --) shift; break ;;
    -*) echo "fuzz.sh: unknown option $1 (--mutations N, --seed S)" >&2; exit 2 ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] || { echo "usage: tools/fuzz.sh [--mutations N] [--seed S] build/san/fuzz/fuzz_*" >&2; exit 2; }

# Mutations per target in make test, each about 1-2 s under the sanitizers here (an input of
# fuzz_scenario may run a world of up to 200,000 events, one of fuzz_bit a few hundred bit
# operations in a script; the rest parse a few hundred bytes).
default_mutations() {
    case $1 in
    scenario) echo 300 ;;
    bit) echo 5000 ;;
    cjson | struct) echo 10000 ;;
    *) echo 20000 ;;
    esac
}

pass=0
fail=0
for bin in "$@"; do
    name=$(basename "$bin")
    name=${name#fuzz_}
    corpus=tests/fuzz/corpus/$name
    if [ ! -x "$bin" ]; then
        echo "FAIL: $bin is not built (make $bin)"
        fail=$((fail + 1))
        continue
    fi
    if [ ! -d "$corpus" ] || [ -z "$(ls -A "$corpus")" ]; then
        echo "FAIL: $name has no seed corpus in $corpus: a run would exercise nothing"
        fail=$((fail + 1))
        continue
    fi
    n=${mutations:-$(default_mutations "$name")}
    out=$("$bin" --mutations "$n" --seed "$seed" "$corpus" 2>&1)
    rc=$?
    last=$(printf '%s\n' "$out" | tail -n 1)
    # the driver's last line says how many inputs ran and, after a colon, what they came to:
    # its first number is how many got past the first door (a script to its end, a request
    # cut, a scenario loaded); 0 would be a run that exercised nothing
    got=$(printf '%s' "${last#*ran: }" | grep -oE '^[0-9]+')
    if [ $rc -eq 0 ] && [[ $last == "fuzz_$name: "*" corpus inputs and $n mutations (seed $seed) ran: "* ]] &&
        [ "${got:-0}" -gt 0 ]; then
        echo "  $last"
        pass=$((pass + 1))
        continue
    fi
    printf '%s\n' "$out" | tail -n 40
    # which input it was: the same run again, naming each input before it runs
    what=$("$bin" --verbose --mutations "$n" --seed "$seed" "$corpus" 2>&1 | grep '^fuzz: running ' | tail -n 1)
    what=${what#fuzz: running }
    if [ $rc -eq 0 ]; then
        echo "FAIL: fuzz_$name: its inputs exercised nothing (\"$last\")"
    elif [[ $what == "mutation "* ]]; then
        k=$(echo "$what" | awk '{ print $2 }')
        mkdir -p build/fuzz
        crash=build/fuzz/crash-fuzz_$name
        if "$bin" --mutations "$n" --seed "$seed" --save "$k" "$crash" "$corpus"; then
            echo "FAIL: fuzz_$name (exit $rc) on $what; its bytes are in $crash (replay: $bin $crash)"
        else
            echo "FAIL: fuzz_$name (exit $rc) on $what"
        fi
    else
        echo "FAIL: fuzz_$name (exit $rc) on ${what:-its first input} (replay: $bin ${what:-$corpus})"
    fi
    fail=$((fail + 1))
done
echo "fuzz: $pass passed, $fail failed"
[ $fail -eq 0 ]
