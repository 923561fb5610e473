#!/usr/bin/env bash
# Command-line tests of the locklab binary: usage, exit codes, one-line errors, determinism
# of `locklab run` (byte-identical trace and JSONL for the same seed; another seed, another
# run; a saved choice list replays the run exactly), option syntax (getopt_long), and the
# files a run writes for other programs (--json with any bytes, --verdicts, --export; their
# shapes checked by check_exports.py). Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/cli/lib.sh cli

expect_exit 0 "locklab --help" -- "$LL" --help
grep -q '^usage: locklab' "$tmp/out" && ok || bad "--help prints usage on stdout"
# The lists of server kinds, faults and properties come from their tables (the usage prints
# them); every copy written elsewhere is generated from them by tools/lists.py (`make lists`):
# the README's kinds, the playground's header, docs/history.md's faults, docs/verdicts.md's
# properties; and scenarios/README.md's fault and property tables must have a row for each.
# Here it changes nothing and names each copy that differs.
usage_list() { # the names after "$1" in the usage (and its indented continuation lines), one a line
    awk -v h="$1" 'index($0, h) == 1 { on = 1; print substr($0, length(h) + 1); next }
                   on && /^ / { print; next } { on = 0 }' "$tmp/out" | tr ',' '\n' | sed 's/^ *//; s/ *$//' | grep -v '^$'
}
usage_list 'server kinds:' >"$tmp/kinds"
usage_list 'faults:' >"$tmp/faults"
usage_list 'properties:' >"$tmp/props"
[ "$(wc -l <"$tmp/kinds")" -eq "$("$LL" kind --list | grep -c '^[a-z]')" ] && ok || bad "the usage's server kinds are not locklab kind --list's"
[ "$(wc -l <"$tmp/faults")" -ge 9 ] && [ "$(wc -l <"$tmp/props")" -ge 6 ] && ok || bad "the usage lists no faults or properties"
if lists=$(LOCKLAB="$LL" python3 tools/lists.py --check 2>&1); then ok; else
    while read -r line; do bad "$line"; done <<<"$lists"
fi
# ... and it finds a copy that drifted, and writes it back: on a copy of the files it reads
mkdir -p "$tmp/tree/tools" "$tmp/tree/web" "$tmp/tree/docs" "$tmp/tree/scenarios"
cp tools/lists.py "$tmp/tree/tools/" && cp README.md "$tmp/tree/" && cp web/index.html "$tmp/tree/web/" &&
    cp docs/history.md docs/verdicts.md "$tmp/tree/docs/" && cp scenarios/README.md "$tmp/tree/scenarios/"
sed -i 's/, consul)/)/' "$tmp/tree/README.md"
sed -i 's/`disk_stall` (the list is/`disk_stall`, `meteor` (the list is/' "$tmp/tree/docs/history.md"
sed -i '/^| `reentrancy` |/d' "$tmp/tree/scenarios/README.md"
LOCKLAB="$LL" python3 "$tmp/tree/tools/lists.py" --check >"$tmp/lists.out" 2>&1
[ $? -eq 1 ] && grep -q "^README.md: the server kinds .*run 'make lists'" "$tmp/lists.out" &&
    grep -q "^docs/history.md: the fault kinds" "$tmp/lists.out" &&
    grep -q "^scenarios/README.md: the property table has no row for reentrancy" "$tmp/lists.out" &&
    [ "$(wc -l <"$tmp/lists.out")" -eq 3 ] && ok || bad "lists.py --check does not name the three drifted lists: $(cat "$tmp/lists.out")"
LOCKLAB="$LL" python3 "$tmp/tree/tools/lists.py" >/dev/null 2>&1
cmp -s "$tmp/tree/README.md" README.md && cmp -s "$tmp/tree/docs/history.md" docs/history.md && ok ||
    bad "lists.py did not write the README's and docs/history.md's lists back from the tables"
# the README's sample of `locklab run gc-pause-single --brief`: every line of it is printed so
"$LL" run gc-pause-single --brief >"$tmp/brief" 2>&1
python3 - "$tmp/brief" <<'PY' && ok || bad "README's sample of 'locklab run gc-pause-single --brief' is not what it prints"
import sys
readme = open("README.md", encoding="utf-8").read()
i = readme.index("holds these lines to what it prints")
block = readme[readme.index("```\n", i) + 4:]
block = block[:block.index("```")]
out = open(sys.argv[1], encoding="utf-8").read().split("\n")
lines = [l for l in block.split("\n") if l]
bad = [l for l in lines if not (any(o.startswith(l[:-4]) for o in out) if l.endswith(" ...") else l in out)]
print("\n".join("  not printed: " + l for l in bad))
sys.exit(1 if bad or len(lines) < 8 else 0)
PY
expect_exit 2 "no arguments" -- "$LL"
expect_exit 2 "unknown command" -- "$LL" bogus
one_line_err "unknown command"
for sub in run redis scripts list compare; do
    expect_exit 0 "locklab $sub --help" -- "$LL" "$sub" --help
    grep -q 'usage' "$tmp/out" && ok || bad "locklab $sub --help prints usage"
done

# options the protocol model does not declare, or of the wrong kind, are errors at their line
sed 's/options = { preset = "redis-docs", retry_count = 50 }/options = { retry_cont = 3 }/' scenarios/redlock-basic.lua >"$tmp/opt1.lua"
expect_exit 2 "a misspelt model option" -- "$LL" run "$tmp/opt1.lua" -q
grep -q "opt1.lua:[0-9]*: options.retry_cont: the redlock model has no such option (it takes: .*retry_count" "$tmp/err" && ok ||
    bad "a misspelt option is named with its line: $(cat "$tmp/err")"
sed 's/options = { preset = "redis-docs", retry_count = 50 }/options = { retry_count = 2.5, preset = "redis-docs" }/' scenarios/redlock-basic.lua >"$tmp/opt2.lua"
expect_exit 2 "a model option of the wrong kind" -- "$LL" run "$tmp/opt2.lua" -q
grep -q "opt2.lua:[0-9]*: options.retry_count must be an integer" "$tmp/err" && ok || bad "wrong kind: $(cat "$tmp/err")"
expect_exit 2 "run with no scenario" -- "$LL" run
one_line_err "run with no scenario"
expect_exit 2 "run of a missing scenario" -- "$LL" run no-such-scenario
one_line_err "run of a missing scenario"
expect_exit 2 "run with an unknown option" -- "$LL" run single-basic --bogus
# did you mean: a misspelt option, command or scenario name gets the likely one (audit L5)
expect_exit 2 "run --breif" -- "$LL" run gc-pause-single --breif
one_line_err "run --breif" "unknown option '--breif'; did you mean '--brief'?"
expect_exit 2 "check --jbos" -- "$LL" check --jbos 2 tests/check/failover.lua
one_line_err "check --jbos" "did you mean '--jobs'?"
expect_exit 2 "locklab lst" -- "$LL" lst
one_line_err "locklab lst" "unknown command 'lst'; did you mean 'list'?"
expect_exit 2 "locklab rn" -- "$LL" rn
one_line_err "locklab rn" "unknown command 'rn'; did you mean 'run'?"
expect_exit 2 "run gc-pause (a prefix)" -- "$LL" run gc-pause
one_line_err "run gc-pause (a prefix)" "did you mean gc-pause-fencing, gc-pause-single?"
expect_exit 2 "sweep gc-pause-singel" -- "$LL" sweep gc-pause-singel --vary lease=1s:2s:1s
one_line_err "sweep gc-pause-singel" "did you mean 'gc-pause-single'?"
expect_exit 2 "run my-scenario.lua (none near)" -- "$LL" run my-scenario.lua
one_line_err "run my-scenario.lua (none near)" "start from a copy of scenarios/gc-pause-single.lua"
printf 'return { name = "x", about = "y", protocol = "distlock",\n  leese = "10s", clients = {{ name = "A" }}, duration = "1s" }\n' >"$tmp/typo.lua"
expect_exit 2 "a scenario with a typo" -- "$LL" run "$tmp/typo.lua"
one_line_err "a scenario with a typo"
grep -q "typo.lua:2: unknown key 'leese'" "$tmp/err" && ok || bad "the typo is reported with file:line"
printf 'return { name = "x", about = "y", protocol = "distlock", lease = false,\n  clients = {{ name = "A" }}, duration = "1s" }\n' >"$tmp/modelerr.lua"
expect_exit 2 "a client model error" -- "$LL" run "$tmp/modelerr.lua"
one_line_err "a client model error"
grep -q "distlock needs a lease.*--verbose shows the Lua traceback" "$tmp/err" && ok || bad "model error, one line"
expect_exit 2 "a client model error, verbose" -- "$LL" run "$tmp/modelerr.lua" --verbose
grep -q "distlock needs a lease" "$tmp/err" && grep -q "stack traceback" "$tmp/err" && ok || bad "model error with traceback"

expect_exit 0 "expectations met" -- "$LL" run gc-pause-single -q
sed 's/mutual_exclusion = "holds"/mutual_exclusion = "violated"/' scenarios/single-basic.lua >"$tmp/wrong.lua"
expect_exit 1 "an expectation not met" -- "$LL" run "$tmp/wrong.lua" -q
grep -q "expectations NOT met" "$tmp/out" && ok || bad "unmet expectation is said"

# Determinism: same inputs, byte-identical trace and history.
for seed in 1 2 3 4 5 6 7 8; do
    "$LL" run single-basic --seed "$seed" --verbose --json "$tmp/a.jsonl" >"$tmp/a.txt" 2>&1
    "$LL" run single-basic --seed "$seed" --verbose --json "$tmp/b.jsonl" >"$tmp/b.txt" 2>&1
    if cmp -s "$tmp/a.jsonl" "$tmp/b.jsonl" && cmp -s "$tmp/a.txt" "$tmp/b.txt"; then ok; else bad "seed $seed is not reproducible"; fi
done
"$LL" run single-basic --seed 1 --json "$tmp/s1.jsonl" -q >/dev/null
"$LL" run single-basic --seed 2 --json "$tmp/s2.jsonl" -q >/dev/null
cmp -s "$tmp/s1.jsonl" "$tmp/s2.jsonl" && bad "seeds 1 and 2 gave the same run" || ok
"$LL" run failover-async-replication --save-choices "$tmp/choices.txt" --json "$tmp/orig.jsonl" -q >/dev/null
expect_exit 0 "replay from a choice list" -- "$LL" run failover-async-replication --seed 999 --choices "$tmp/choices.txt" --json "$tmp/replay.jsonl" -q
cmp -s "$tmp/orig.jsonl" "$tmp/replay.jsonl" && ok || bad "the choice list does not replay the run"
printf '1/2 x\nnot-a-choice\n' >"$tmp/badchoices.txt"
expect_exit 2 "a malformed choice list" -- "$LL" run single-basic --choices "$tmp/badchoices.txt"
one_line_err "a malformed choice list"
grep -q "badchoices.txt:2: expected" "$tmp/err" && ok || bad "a malformed choice list names FILE:LINE"
# A choice list that is not this scenario's replays nothing faithfully: exit 2, where it parts.
"$LL" run redlock-basic --save-choices "$tmp/other.choices" -q >/dev/null 2>&1
expect_exit 2 "a choice list from another scenario" -- "$LL" run single-basic -q --choices "$tmp/other.choices"
one_line_err "a choice list from another scenario"
grep -q "other.choices:[0-9]*: the choice list does not fit this scenario" "$tmp/err" && ok || bad "the foreign list is named"
[ ! -s "$tmp/out" ] && ok || bad "a run that is no replay was shown"
printf '9223372036854775807/* delay\n' >"$tmp/huge.choices"
expect_exit 2 "a choice value no run records" -- "$LL" run single-basic -q --choices "$tmp/huge.choices"
one_line_err "a choice value no run records"
expect_exit 2 "a directory as the choice list" -- "$LL" run single-basic -q --choices "$tmp"
grep -q "Is a directory" "$tmp/err" && ok || bad "a directory choice list says so"
expect_exit 0 "an empty choice list (the seed decides)" -- "$LL" run single-basic -q --choices /dev/null
# Seeds are plain digits: strtoull alone would take " -1" as 2^64 - 1 and "" as 0.
expect_exit 2 "run --seed ' -1'" -- "$LL" run single-basic -q --seed " -1"
expect_exit 2 "compare --seed ''" -- "$LL" compare single-basic --scripts HEAD --scripts HEAD --seed ""
# compare checks its versions as the loader checks `scripts`: an unknown one is not HEAD.
expect_exit 2 "compare with an unknown script version" -- "$LL" compare single-basic --scripts HEAD --scripts 9.9.9
one_line_err "compare with an unknown script version"
grep -q "no script version '9.9.9'" "$tmp/err" && ok || bad "compare names the unknown version"
expect_exit 2 "compare with an unknown library" -- "$LL" compare single-basic --scripts redison@3.11.1 --scripts HEAD
# A scenario file a directory, with a BOM, with a #! line.
expect_exit 2 "a directory as the scenario" -- "$LL" run "$tmp"
one_line_err "a directory as the scenario"
printf '\357\273\277#!/usr/bin/env lua\n' >"$tmp/bom.lua"
cat scenarios/single-basic.lua >>"$tmp/bom.lua"
expect_exit 0 "a scenario with a BOM and a #! line" -- "$LL" run "$tmp/bom.lua" -q
sed 's/protocol = "distlock",/protocol = "workload",/' scenarios/single-basic.lua >"$tmp/workload.lua"
expect_exit 2 "the workload as a protocol" -- "$LL" run "$tmp/workload.lua" -q
grep -q "workload.lua:[0-9]*: protocol: 'workload' is the workload loop" "$tmp/err" && ok || bad "the workload protocol names file:line"
# A user's own model beside the scenario: found by name or by path, from any directory, with
# no LOCKLAB_HOME and no copy of the tree; its require() finds a module beside it first.
mkdir -p "$tmp/own"
printf 'return { lease_of = function(cfg) return cfg.lease end }\n' >"$tmp/own/helper.lua"
{ printf 'local helper = require("helper")\n'; cat lua/clients/distlock.lua; } >"$tmp/own/my-lock.lua"
sed 's/protocol = "distlock",/protocol = "my-lock",/' scenarios/single-basic.lua >"$tmp/own/by-name.lua"
sed 's/protocol = "distlock",/protocol = ".\/my-lock.lua",/' scenarios/single-basic.lua >"$tmp/own/by-path.lua"
LL_ABS=$(realpath "$LL")
expect_exit 0 "a model beside the scenario, by name" -- env -u LOCKLAB_HOME sh -c "cd / && '$LL_ABS' run '$tmp/own/by-name.lua'"
grep -q "protocol $tmp/own/my-lock.lua," "$tmp/out" && ok || bad "the run does not name the model beside it: $(head -3 "$tmp/out")"
expect_exit 0 "a model beside the scenario, by path" -- sh -c "cd '$tmp/own' && '$LL_ABS' run by-path.lua -q"
printf -- '-- a client model (it would take ctx)\nerror("the model beside the scenario was loaded")\n' >"$tmp/own/distlock.lua"
sed 's/protocol = "distlock",/protocol = "distlock",/' scenarios/single-basic.lua >"$tmp/own/shadow.lua"
expect_exit 2 "a file beside the scenario shadows the library's model" -- "$LL" run "$tmp/own/shadow.lua" -q
grep -q "the model beside the scenario was loaded" "$tmp/err" && ok || bad "the library's distlock ran instead of the one beside"
# ... and a script of its own, by file, beside it
mkdir -p "$tmp/own3"
sed 's#"distlock/release"#"./my-release.lua"#' lua/clients/distlock.lua >"$tmp/own3/my-lock.lua"
printf 'if redis.call("get", KEYS[1]) == ARGV[1] then\n  return redis.call("del", KEYS[1])\nelse\n  return 0\nend\n' >"$tmp/own3/my-release.lua"
sed 's/protocol = "distlock",/protocol = "my-lock",/' scenarios/single-basic.lua >"$tmp/own3/s.lua"
"$LL" run "$tmp/own3/s.lua" >"$tmp/out" 2>&1
[ $? -eq 0 ] && grep -q "runs $tmp/own3/my-release.lua" "$tmp/out" && ok || bad "a model's own script file beside it: $(tail -2 "$tmp/out")"
# ... but a scenario (or a counter-example) that bears the protocol's name is not a model
mkdir -p "$tmp/own2"
cp scenarios/single-basic.lua "$tmp/own2/distlock.lua"
cp scenarios/single-basic.lua "$tmp/own2/other.lua"
expect_exit 0 "a scenario named like its protocol beside another scenario" -- "$LL" run "$tmp/own2/other.lua" -q
sed 's/protocol = "distlock",/protocol = "models\/none.lua",/' scenarios/single-basic.lua >"$tmp/own/nofile.lua"
expect_exit 2 "a protocol path that names no file" -- "$LL" run "$tmp/own/nofile.lua" -q
grep -q "nofile.lua:[0-9]*: protocol: no client model file '$tmp/own/models/none.lua'" "$tmp/err" && ok || bad "a missing model file: $(cat "$tmp/err")"
# list --run: a model error stays on its row.
mkdir -p "$tmp/home/scenarios"
ln -s "$PWD/lua" "$tmp/home/lua"
cp "$tmp/modelerr.lua" scenarios/single-basic.lua "$tmp/home/scenarios/"
expect_exit 2 "list --run with a model that fails" -- env LOCKLAB_HOME="$tmp/home" "$LL" list --run
! grep -q "traceback" "$tmp/out" && grep -q "^modelerr *could not run: client A: .*distlock needs a lease" "$tmp/out" &&
    grep -q "^single-basic " "$tmp/out" && ok || bad "list --run: the model error is not one row"
expect_exit 3 "an unwritable --json path" -- "$LL" run single-basic -q --json /nonexistent-dir/h.jsonl
[ ! -e /nonexistent-dir/h.jsonl ] && ok || bad "partial output left behind"

# Bad protocol input: an unknown preset (not among the model's declared values) and an
# unknown script version, each a scenario error with file:line.
sed 's/preset = "redis-docs"/preset = "redlock-xx"/' scenarios/redlock-basic.lua >"$tmp/badpreset.lua"
expect_exit 2 "an unknown Redlock preset" -- "$LL" run "$tmp/badpreset.lua" -q
grep -q 'badpreset.lua:[0-9]*: options.preset must be one of "redis-docs"' "$tmp/err" && ok || bad "the unknown preset is named"
sed 's/protocol = "distlock",/protocol = "distlock", scripts = "redisson@9.9.9",/' scenarios/single-basic.lua >"$tmp/badver.lua"
expect_exit 2 "an unknown script version" -- "$LL" run "$tmp/badver.lua" -q
one_line_err "an unknown script version"
grep -q "badver.lua:[0-9]*: scripts: no script version '9.9.9'" "$tmp/err" && ok || bad "the script version error names file:line"
sed 's/protocol = "distlock",/protocol = "distlock", scripts = "redison@3.11.1",/' scenarios/single-basic.lua >"$tmp/badlib.lua"
expect_exit 2 "a misspelt script library" -- "$LL" run "$tmp/badlib.lua" -q
grep -q "badlib.lua:[0-9]*: scripts: no scripts of a library 'redison'" "$tmp/err" && ok || bad "the misspelt library is named"

# Options: getopt_long's syntax, the same run whichever way it is written.
"$LL" run single-basic --seed 7 -q -v >"$tmp/o1.txt" 2>&1
for form in "--seed=7 -qv" "-vq --seed 7" "--se=7 --qui --verb"; do
    # shellcheck disable=SC2086
    "$LL" run single-basic $form >"$tmp/o2.txt" 2>&1
    cmp -s "$tmp/o1.txt" "$tmp/o2.txt" && ok || bad "run $form differs from --seed 7 -q -v"
done
"$LL" run -q --seed 7 -v single-basic >"$tmp/o2.txt" 2>&1
cmp -s "$tmp/o1.txt" "$tmp/o2.txt" && ok || bad "options before the scenario"
POSIXLY_CORRECT=1 "$LL" run single-basic --seed 7 -q -v >"$tmp/o2.txt" 2>&1
cmp -s "$tmp/o1.txt" "$tmp/o2.txt" && ok || bad "options after the scenario with POSIXLY_CORRECT set"
expect_exit 2 "run -qx" -- "$LL" run single-basic -qx
one_line_err "run -qx"
grep -q "unknown option '-x'; try 'locklab run --help'" "$tmp/err" && ok || bad "-qx names -x: $(cat "$tmp/err")"
expect_exit 2 "run --s (ambiguous)" -- "$LL" run single-basic --s 3
grep -q "'--s' is ambiguous (--seed, --save-choices, --spacetime)" "$tmp/err" && ok || bad "ambiguous: $(cat "$tmp/err")"
expect_exit 2 "run --quiet=1" -- "$LL" run single-basic --quiet=1
grep -q -- "--quiet takes no value" "$tmp/err" && ok || bad "a value to a flag: $(cat "$tmp/err")"
expect_exit 2 "run --seed without a value" -- "$LL" run single-basic --seed
one_line_err "run --seed without a value"
grep -q -- "--seed needs a value; try 'locklab run --help'" "$tmp/err" && ok || bad "missing value: $(cat "$tmp/err")"
for c in "list --bogus" "compare single-basic --bogus" "scripts --bogus"; do
    # shellcheck disable=SC2086
    expect_exit 2 "$c" -- "$LL" $c
    one_line_err "$c"
    grep -q "try 'locklab ${c%% *} --help'" "$tmp/err" && ok || bad "$c says what to do next"
done
expect_exit 0 "locklab --version" -- "$LL" --version
grep -q '^locklab [0-9]' "$tmp/out" && ok || bad "--version prints the version"
for sub in run check sweep list compare redis scripts kind; do
    "$LL" help "$sub" >"$tmp/h1.txt" 2>&1
    "$LL" "$sub" --help >"$tmp/h2.txt" 2>&1
    [ -s "$tmp/h1.txt" ] && cmp -s "$tmp/h1.txt" "$tmp/h2.txt" && ok || bad "locklab help $sub is not $sub --help"
done
expect_exit 2 "locklab help bogus" -- "$LL" help bogus
one_line_err "locklab help bogus"
# compare: each version's column as wide as its name
"$LL" compare fairlock-lease-timeout --scripts redisson@3.31.0 --scripts HEAD >"$tmp/cmp.txt" 2>&1
awk '/^  property /{ want = index($0, "HEAD"); next }
     want && /^  (mutual_exclusion|no_deadlock|acquisitions|gave up) / { if (substr($0, want - 1, 1) != " " || substr($0, want, 1) == " ") bad = 1; n++ }
     END { exit !(want && n == 4 && !bad) }' "$tmp/cmp.txt" && ok || bad "compare's columns do not line up: $(cat "$tmp/cmp.txt" | tail -9)"
# compare's sides are [1] and [2] (clients and Redlock's nodes are named A, B), and a request
# both sent names both versions of its script (audit L8)
grep -q '^   the scenario compared: \[1\] = scripts redisson@3.31.0, \[2\] = scripts HEAD, seed 1' "$tmp/cmp.txt" && ok || bad "compare names its sides [1] and [2]: $(head -3 "$tmp/cmp.txt")"
sed -n '/^  both:/,/^  \[1\]/p' "$tmp/cmp.txt" | grep -q 'redisson-fair/acquire@3.31.0|HEAD ' && ok || bad "compare's shared lines name both script versions: $(sed -n '/both:/,/\[1\]/p' "$tmp/cmp.txt")"
grep -q '^  \[2\] HEAD:$' "$tmp/cmp.txt" && ok || bad "compare's second side is [2] HEAD"
# scripts check: a FILE, as --help promises, by path or bare name; a name that is neither
abs_ll=$(cd "$(dirname "$LL")" && pwd)/$(basename "$LL")
expect_exit 0 "scripts check of a bare file name" -- sh -c "cd lua/redis/redisson-fenced && '$abs_ll' scripts check lock@HEAD.lua"
grep -q "^1 scripts checked, 0 failed to compile$" "$tmp/out" && ok || bad "a bare file is checked: $(cat "$tmp/out")"
expect_exit 2 "scripts check of nothing" -- "$LL" scripts check fenced.lua
grep -q "no file 'fenced.lua'" "$tmp/err" && grep -q "^0 scripts checked, 0 failed to compile, 1 not found$" "$tmp/out" && ok ||
    bad "an unknown script is not counted as checked: $(cat "$tmp/out" "$tmp/err")"
# kind: one server of a kind, driven line by line; its clock moves only when told
printf 'SET k v PX 100\n.advance 50\nPTTL k\n.advance 60\nGET k\n.dump\n.bogus\n' | "$LL" kind redis >"$tmp/kind.txt" 2>&1
printf '  ~ written k\nOK\n50\n  ~ expired k\nnil\n(error) unknown meta-line; .advance MS, .client N, .crash-client N, .dump, .help, .time, .wait N\n' |
    cmp -s - "$tmp/kind.txt" && ok || bad "locklab kind redis: $(cat "$tmp/kind.txt")"
# a beginner at kind zookeeper (audit L3): 'help' is ZooKeeper's Unimplemented, and says where
# the help is; .help lists the requests with their words, connect first
printf 'help\n.help\nconnect 10000\ncreate /lock a ephemeral\n' | "$LL" kind zookeeper >"$tmp/kind.txt" 2>&1
sed -n 1,3p "$tmp/kind.txt" | tr '\n' '|' | grep -q "^(error) Unimplemented|  (locklab: type .help for zookeeper's requests)|zookeeper's requests: connect TIMEOUT_MS \[SESSION\] first .*create PATH \[DATA \[persistent|ephemeral" &&
    tail -1 "$tmp/kind.txt" | grep -qx '/lock' && ok || bad "locklab kind zookeeper's help: $(cat "$tmp/kind.txt")"
# a request the server makes wait prints (waits); .wait N its answer once it came
printf '"SELECT pg_advisory_lock(1)"\n.client 1\n"SET lock_timeout = 200"\n"SELECT pg_advisory_lock(1)"\n.wait 1\n.advance 200\n.wait 1\n.wait 1\n.wait 16\n' |
    "$LL" kind postgresql >"$tmp/kind.txt" 2>&1
printf "  ~ written advisory/1\n''\nSET\n(waits)\n(still waiting)\nERROR 55P03: canceling statement due to lock timeout\n(error) client 1 has no request waiting\n(error) .wait takes a client number from 0 to 15\n" |
    cmp -s - "$tmp/kind.txt" && ok || bad "locklab kind postgresql, a wait: $(cat "$tmp/kind.txt")"
"$LL" kind --list | grep -q '^redis ' && ok || bad "kind --list names redis"
expect_exit 2 "kind of an unknown server" -- "$LL" kind zk
one_line_err "kind of an unknown server"
expect_exit 2 "kind with a bad option" -- "$LL" kind redis --option tick=5
one_line_err "kind with a bad option"
# kind postgresql: advisory locks; with pgbouncer_pool, a PgBouncer in transaction pooling hands B the
# backend that still holds A's session lock (the fake's PgBouncer: tests/test_pg.c)
printf '"SELECT pg_try_advisory_lock(1), pg_backend_pid()"\n.client 1\n"SELECT pg_try_advisory_lock(1), pg_backend_pid()"\n.crash-client 0\n"SELECT pg_try_advisory_lock(1)"\n' |
    "$LL" kind postgresql >"$tmp/kind.txt" 2>&1
# each lock's grant and end prints as the unit advisory/KEY (a crashed client's session ends)
printf '  ~ written advisory/1\nt | 1\nf | 2\n  ~ deleted advisory/1\n  ~ written advisory/1\nt\n' | cmp -s - "$tmp/kind.txt" && ok ||
    bad "locklab kind postgresql: $(cat "$tmp/kind.txt")"
printf '"SELECT pg_try_advisory_lock(1), pg_backend_pid()"\n.client 1\n"SELECT pg_try_advisory_lock(1), pg_backend_pid()"\n.dump\n' |
    "$LL" kind postgresql --option pgbouncer_pool=2 >"$tmp/kind.txt" 2>&1
printf '  ~ written advisory/1\nt | 1001\nt | 1001\nadvisory lock (1) held by pid 1001 (session 2, transaction 0)\nserver connection pid 1001 idle\n' |
    cmp -s - "$tmp/kind.txt" && ok || bad "locklab kind postgresql through the pool: $(cat "$tmp/kind.txt")"
"$LL" kind --list | grep -q '^postgresql ' && ok || bad "kind --list names postgresql"
expect_exit 2 "kind postgresql with a pool out of range" -- "$LL" kind postgresql --option pgbouncer_pool=17
one_line_err "kind postgresql with a pool out of range"
# kind kubernetes: Leases with optimistic concurrency; nothing expires when the clock moves
printf 'CREATE l A 10 0 0 0\n.client 1\nUPDATE l 1 B 10 5 5 1\n.advance 60000\nGET l\n' |
    "$LL" kind kubernetes >"$tmp/kind.txt" 2>&1
printf '  ~ written lease/l\n201 l rv=2 holder=A duration=10s acquire=0 renew=0 transitions=0\n409 Conflict: Operation cannot be fulfilled on leases.coordination.k8s.io "l": the object has been modified; please apply your changes to the latest version and try again\n200 l rv=2 holder=A duration=10s acquire=0 renew=0 transitions=0\n' |
    cmp -s - "$tmp/kind.txt" && ok || bad "locklab kind kubernetes: $(cat "$tmp/kind.txt")"
"$LL" kind --list | grep -q '^kubernetes ' && ok || bad "kind --list names kubernetes"
# kind consul: a session invalidated at twice its TTL, then the lock-delay
printf 'SESSION_CREATE 10000 15000 release\nKV_ACQUIRE l A session-1\n.advance 20001\nSESSION_CREATE 0 0 release\nKV_ACQUIRE l B session-2\n.advance 15000\nKV_ACQUIRE l B session-2\n' |
    "$LL" kind consul 2>&1 | grep -v '^  ~' >"$tmp/kind.txt"
printf 'session-1\ntrue\nsession-2\nfalse\ntrue\n' | cmp -s - "$tmp/kind.txt" && ok || bad "locklab kind consul: $(cat "$tmp/kind.txt")"
"$LL" kind --list | grep -q '^consul ' && ok || bad "kind --list names consul"
echo .help | "$LL" redis | grep -q "settime MS .*ms since the Unix epoch" && ok || bad ".settime's help says epoch ms"

# Files for other programs. Any bytes in a key: valid JSON, the bytes in *_b64.
sed 's/protocol = "distlock",/protocol = "distlock", lock = "k\\255\\"\\\\\\n\\1\\127é€😀\\192\\128",/' scenarios/single-basic.lua >"$tmp/bytes.lua"
expect_exit 0 "a run with binary key bytes" -- "$LL" run "$tmp/bytes.lua" -q --json "$tmp/bytes.jsonl"
python3 tests/cli/check_exports.py jsonl "$tmp/bytes.jsonl" && ok || bad "--json with binary keys"
python3 - "$tmp/bytes.jsonl" <<'PY' && ok || bad "the key's bytes do not come back from text_b64"
import base64, json, sys
want = b'k\xff"\\\n\x01\x7f\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xc0\x80'
evs = [json.loads(l) for l in open(sys.argv[1], encoding='utf-8')]
keys = [base64.b64decode(e['text_b64']) for e in evs if e['ev'] == 'key_set']
sys.exit(0 if keys and all(k == want for k in keys) else 1)
PY
for s in gc-pause-single setnx-expire-crash redlock-clock-jump fairlock-abandoned-waiters "$tmp/bytes.lua"; do
    n=$(basename "$s" .lua)
    "$LL" run "$s" -q --verbose --json "$tmp/$n.jsonl" --verdicts "$tmp/$n.v.json" --export knossos "$tmp/$n.edn" \
        --export porcupine "$tmp/$n.p.json" --export shiviz "$tmp/$n.log" >/dev/null 2>&1
    for k in "verdicts $tmp/$n.v.json" "knossos $tmp/$n.edn" "porcupine $tmp/$n.p.json" "shiviz $tmp/$n.log $tmp/$n.jsonl"; do
        # shellcheck disable=SC2086
        python3 tests/cli/check_exports.py $k && ok || bad "$n: ${k%% *} export"
    done
done
"$LL" run gc-pause-single -q --verdicts "$tmp/v2.json" --export knossos "$tmp/k2.edn" --export porcupine "$tmp/p2.json" \
    --export shiviz "$tmp/s2.log" >/dev/null 2>&1
"$LL" run gc-pause-single -q --export shiviz "$tmp/s3.log" --export porcupine "$tmp/p3.json" --verdicts "$tmp/v3.json" \
    --export knossos "$tmp/k3.edn" >/dev/null 2>&1
cmp -s "$tmp/v2.json" "$tmp/v3.json" && cmp -s "$tmp/k2.edn" "$tmp/k3.edn" && cmp -s "$tmp/p2.json" "$tmp/p3.json" &&
    cmp -s "$tmp/s2.log" "$tmp/s3.log" && ok || bad "the exports are not a pure function of the run"
# What they say: the run's violation, and indeterminate operations where the outcome is unknown.
python3 - "$tmp/gc-pause-single.v.json" "$tmp/gc-pause-single.jsonl" <<'PY' && ok || bad "the verdicts file does not point at the violation"
import json, sys
doc = json.load(open(sys.argv[1]))
evs = [json.loads(l) for l in open(sys.argv[2])]
me = next(v for v in doc['verdicts'] if v['property'] == 'mutual_exclusion')
assert me['verdict'] == 'violated' and me['met'] and me['events_at'], me
assert all(evs[i]['t'] == me['at'] for i in me['events_at'])
assert any(evs[i]['ev'] == 'cs_enter' for i in me['events_at'])
assert me['faults'][0]['text'].startswith('GC pause of A') and me['faults'][0]['to'] is not None
assert doc['expectations'] == {'stated': 2, 'met': 2, 'unmet': 0}
PY
grep -q ':type :info, :f :acquire, .*:error "the client crashed"' "$tmp/setnx-expire-crash.edn" && ok || bad "a crashed client's acquire is :info"
grep -q '"outcome":"unknown"' "$tmp/setnx-expire-crash.p.json" && ok || bad "... and unknown for Porcupine"
expect_exit 2 "--export of an unknown format" -- "$LL" run single-basic -q --export jepsen "$tmp/x"
one_line_err "--export of an unknown format"
expect_exit 2 "--export without a file" -- "$LL" run single-basic -q --export knossos
one_line_err "--export without a file"
expect_exit 3 "an unwritable --export path" -- "$LL" run single-basic -q --export shiviz /nonexistent-dir/s.log
expect_exit 3 "an unwritable --verdicts path" -- "$LL" run single-basic -q --verdicts /nonexistent-dir/v.json
expect_exit 2 "--verdicts of a run whose model fails" -- "$LL" run "$tmp/modelerr.lua" -q --verdicts "$tmp/err.v.json"
python3 tests/cli/check_exports.py verdicts "$tmp/err.v.json" && grep -q '"error":"client A: ' "$tmp/err.v.json" && ok ||
    bad "a failed run's verdicts say why"

# locklab list and compare
expect_exit 0 "locklab list" -- "$LL" list
grep -q '^single-basic ' "$tmp/out" && ok || bad "list shows single-basic"
expect_exit 0 "compare --help" -- "$LL" compare --help
expect_exit 2 "compare with one --scripts" -- "$LL" compare single-basic --scripts HEAD
one_line_err "compare with one --scripts"
expect_exit 0 "compare the same version" -- "$LL" compare single-basic --scripts HEAD --scripts HEAD
grep -q "The two histories are identical" "$tmp/out" && ok || bad "compare of one version with itself finds no difference"

# locklab redis: bad transcripts are one-line errors (exit 2), a mismatch exits 1 with
# FILE:LINE, and an output or input that fails is an I/O error (exit 3), never a silent 0.
printf '> set k v\nOK\n> get k\n"w"\n' >"$tmp/mis.txt"
expect_exit 1 "redis --check of a mismatch" -- "$LL" redis --check "$tmp/mis.txt"
grep -q "mis.txt:4: expected: \"w\"" "$tmp/out" && grep -q '^1 passed, 1 failed$' "$tmp/out" && ok || bad "the mismatch is reported with file:line"
expect_exit 2 "redis --check of a missing transcript" -- "$LL" redis --check "$tmp/none.txt"
one_line_err "redis --check of a missing transcript"
expect_exit 2 "redis --check of a directory" -- "$LL" redis --check "$tmp"
grep -q "Is a directory" "$tmp/err" && ok || bad "a directory transcript says so"
printf '> ping\nPONG\000\n' >"$tmp/nul.txt"
expect_exit 2 "redis --check of a binary transcript" -- "$LL" redis --check "$tmp/nul.txt"
grep -q "nul.txt: line 2: a NUL byte" "$tmp/err" && ok || bad "a NUL byte is reported with its line"
printf 'OK\n' >"$tmp/orphan.txt"
expect_exit 2 "redis --check of output without a command" -- "$LL" redis --check "$tmp/orphan.txt"
one_line_err "redis --check of output without a command"
expect_exit 2 "redis with an extra argument" -- "$LL" redis extra
one_line_err "redis with an extra argument"
if [ -w /dev/full ]; then
    expect_exit 3 "redis writing to a full disk" -- sh -c "echo ping | '$LL' redis >/dev/full"
    grep -q "cannot write the output" "$tmp/err" && ok || bad "a failed write is reported"
    expect_exit 3 "redis --check writing to a full disk" -- sh -c "'$LL' redis --check '$tmp/mis.txt' >/dev/full"
    # Every command: a verdict whose output was lost is an I/O error, not a success.
    for c in "--help" "list" "scripts" "run gc-pause-single -q" "run --help"; do
        expect_exit 3 "locklab $c writing to a full disk" -- sh -c "'$LL' $c >/dev/full"
        one_line_err "locklab $c writing to a full disk"
    done
fi
expect_exit 3 "redis reading a directory as input" -- sh -c "'$LL' redis <'$tmp'"
one_line_err "redis reading a directory as input"
printf '1000000000 get k\n' >"$tmp/rep.in"
expect_exit 0 "redis: a huge repeat piped into head" -- timeout 60 sh -c "'$LL' redis <'$tmp/rep.in' | head -1"

# An output path that is a symbolic link (as /dev/stdout is) or a FIFO is written through,
# never replaced by a renamed temporary file (which, as root, would replace /dev/null).
ln -s "$tmp/target.jsonl" "$tmp/link.jsonl"
"$LL" run gc-pause-single --quiet --json "$tmp/link.jsonl" >/dev/null 2>&1
[ -L "$tmp/link.jsonl" ] && [ -s "$tmp/target.jsonl" ] && ok || bad "--json through a symbolic link replaced the link"
ln -s "$tmp/target.svg" "$tmp/link.svg"
"$LL" run gc-pause-single --quiet --plot "$tmp/link.svg" >/dev/null 2>&1
[ -L "$tmp/link.svg" ] && [ -s "$tmp/target.svg" ] && ok || bad "--plot through a symbolic link replaced the link"
mkfifo "$tmp/fifo.jsonl"
(cat "$tmp/fifo.jsonl" >"$tmp/fifo.out") &
"$LL" run gc-pause-single --quiet --json "$tmp/fifo.jsonl" >/dev/null 2>&1
wait
[ -p "$tmp/fifo.jsonl" ] && [ -s "$tmp/fifo.out" ] && ok || bad "--json into a FIFO replaced it"

# --brief keeps the lines a story needs: the execution that set the lock before the failover
# ("n1 runs SET lock … → OK"), the replication lost with its master, an acquisition made by a
# model's own requests (consul re-enter: no ACQUIRED event, the KV_ACQUIRE that took it), and
# a client cut off by a partition times out once a streak, not once a request.
"$LL" run failover-async-replication --brief >"$tmp/brief1.txt" 2>&1
check "--brief: the SET that took the lock on the master that then crashed" grep -q 'n1    runs SET lock A:[0-9]* NX PX 10000 for A → OK' "$tmp/brief1.txt"
check "--brief: the replication lost with its master" grep -q 'n1    ⨯ replication lock lost' "$tmp/brief1.txt"
"$LL" run scenarios/matrix/consul/reenter.lua --brief >"$tmp/brief2.txt" 2>&1
check "--brief: consul re-enter's acquisition" grep -q 'runs KV_ACQUIRE lock A session-1 for A → true' "$tmp/brief2.txt"
"$LL" run redlock-minority-partition --brief >"$tmp/brief3.txt" 2>&1
"$LL" run redlock-minority-partition >"$tmp/normal3.txt" 2>&1
n_brief=$(grep -c 'gives up waiting' "$tmp/brief3.txt"); n_all=$(grep -c 'gives up waiting' "$tmp/normal3.txt")
check "--brief: redlock minority's timeouts, one a streak ($n_brief of $n_all)" test "$n_brief" -ge 1 -a "$n_brief" -lt 40 -a "$n_all" -gt 100
check "--brief: no renewal of the lease as a story line" sh -c "! '$LL' run watchdog-long-work --brief | grep -q 'runs.*pexpire'"

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
