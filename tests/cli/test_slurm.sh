#!/usr/bin/env bash
# tools/slurm-check.sh against a real Slurm (Debian's slurm-wlm and munge, installed by make
# deps): this test starts its own cluster of one node on localhost with this machine's cores
# (a munge key in its temporary folder; munged, slurmctld and slurmd in the foreground, in the
# background; stopped at the end), and runs checks as array jobs of 8 tasks:
# - a problem that holds and one that is violated: the merged answer (and the counter-example,
#   byte for byte) is the one-process run's;
# - a task cancelled with scancel mid-run, holding shares of the pool: requeued and merged
#   when a retry is allowed, and with --retries 0 what it had finished is named as not
#   searched, exit 4 (not finished), never "holds".
# Daemons that cannot start fail the test, saying why (their logs); it never skips. No
# wall-clock threshold: every wait is a bounded loop of generous length.
# Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/cli/lib.sh slurm
LL=$(cd "$(dirname "$LL")" && pwd)/$(basename "$LL")
chmod 755 "$tmp" # the munge socket's folder: munged wants others to be able to reach it

pids=()
stop_daemons() {
    local p
    [ -n "${SLURM_CONF:-}" ] && [ -f "$SLURM_CONF" ] && scancel --quiet --user="$(id -un)" 2>/dev/null
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    for p in "${pids[@]}"; do
        for _ in $(seq 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$p" 2>/dev/null
        wait "$p" 2>/dev/null
    done
    pids=()
}
trap 'stop_daemons; chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT

# cannot WHY: the cluster could not start; the test fails and says why.
cannot() {
    bad "no Slurm cluster: $*"
    local f
    for f in "$tmp"/munged.log "$tmp"/slurmctld.log "$tmp"/slurmd.log "$tmp"/*.out; do
        [ -s "$f" ] && { echo "--- $f"; tail -n 15 "$f"; }
    done
    echo "slurm: $pass passed, $fail failed"
    exit 1
}

for cmd in munged munge slurmctld slurmd sbatch squeue scontrol scancel sinfo; do
    command -v "$cmd" >/dev/null || [ -x "/usr/sbin/$cmd" ] || cannot "$cmd is not installed (make deps installs slurm-wlm and munge)"
done
PATH=$PATH:/usr/sbin
[ "$(id -u)" -eq 0 ] || cannot "slurmd runs jobs as their users and must be started as root (this test runs as $(id -un))"

port_free() { ! timeout 1 bash -c ": </dev/tcp/127.0.0.1/$1" 2>/dev/null; }
ports=()
for p in $(seq 17817 17999); do
    port_free "$p" && ports+=("$p")
    [ ${#ports[@]} -eq 2 ] && break
done
[ ${#ports[@]} -eq 2 ] || cannot "no two free ports in 17817-17999"

# munge: its own key and socket in $tmp
head -c 1024 /dev/urandom >"$tmp/munge.key" && chmod 600 "$tmp/munge.key" || cannot "cannot write a munge key"
munged -F -f --key-file="$tmp/munge.key" --socket="$tmp/munge.sock" --pid-file="$tmp/munged.pid" \
    --seed-file="$tmp/munged.seed" --log-file="$tmp/munged.log" >"$tmp/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 200); do [ -S "$tmp/munge.sock" ] && break; kill -0 "${pids[0]}" 2>/dev/null || break; sleep 0.2; done
munge -S "$tmp/munge.sock" -n 2>/dev/null | unmunge -S "$tmp/munge.sock" >/dev/null 2>&1 || cannot "munged does not answer on $tmp/munge.sock"

node=$(hostname -s)
mkdir -p "$tmp/state" "$tmp/spool"
cat >"$tmp/slurm.conf" <<EOF
# one node on localhost with this machine's cores, for tests/cli/test_slurm.sh
ClusterName=locklabtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=${ports[0]}
SlurmdPort=${ports[1]}
SlurmUser=$(id -un)
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
MinJobAge=3600
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=locklabtest Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$node" >"$tmp/slurmd.out" 2>&1 &
pids+=($!)
up=0
for _ in $(seq 240); do
    kill -0 "${pids[1]}" 2>/dev/null || cannot "slurmctld exited"
    kill -0 "${pids[2]}" 2>/dev/null || cannot "slurmd exited"
    case $(sinfo -h -o '%T' 2>/dev/null) in idle*) up=1; break ;; esac
    sleep 0.5
done
[ $up -eq 1 ] || cannot "the node is not idle after 2 minutes: $(sinfo -h -o '%T %E' 2>&1)"
ok

# ---- the answer of one process, merged from 8 tasks ----
# summary OUT: what must not depend on the split (the totals of paths do: each task runs the
# default path again): the outcomes, what was covered, the verdicts.
summary() {
    grep -oE '[0-9]+ distinct outcomes' "$1"
    grep -E '^   covered|^            |^  [a-z_]+ +(holds|VIOLATED|no violation)' "$1"
}
# the contended Redlock of make bench with a crash, at most 1 deviation: 162 paths
sed -e '/^  faults = {.*partition/d' -e 's/{ name = "c2", start = "2s", work = "1s" }/{ name = "c2", start = "0ms", work = "1s" }/' \
    tests/bench/check/redlock3.lua >"$tmp/contended.lua"
grep -q 'start = "0ms"' "$tmp/contended.lua" || bad "the contended problem was not made"
for name in contended redlock-crash-restart-delayed; do
    f=tests/check/$name.lua
    [ "$name" = contended ] && f=$tmp/contended.lua
    "$LL" check "$f" --jobs 1 --max-deviations 1 >"$tmp/one-$name" 2>/dev/null
    one=$?
    timeout 900 tools/slurm-check.sh "$f" 8 --dir "$tmp/job-$name" --poll 1 -- --max-deviations 1 >"$tmp/slurm-$name" 2>"$tmp/slurm-$name.err"
    rc=$?
    # a bound that left paths out is no proof (exit 4); one that cut nothing, a proof (0)
    [ "$name" = contended ] && one_contended=$one
    { [ $one -eq 0 ] || [ $one -eq 4 ]; } && [ $rc -eq $one ] && grep -q "merged from 8 shard files" "$tmp/slurm-$name" &&
        [ -n "$(summary "$tmp/one-$name")" ] && [ "$(summary "$tmp/one-$name")" = "$(summary "$tmp/slurm-$name")" ] && ok ||
        { bad "$name over 8 Slurm tasks: exit $rc (one process: $one)"; diff <(summary "$tmp/one-$name") <(summary "$tmp/slurm-$name"); tail -5 "$tmp/slurm-$name.err"; }
    grep -q "8 done, 0 running, 0 pending, 0 failed" "$tmp/slurm-$name.err" && ok || bad "$name: no progress line with 8 done: $(tail -3 "$tmp/slurm-$name.err")"
    [ -f "$tmp/job-$name/job.sh" ] && grep -q "^#SBATCH --array=0-7" "$tmp/job-$name/job.sh" && ok || bad "$name: the job script was not kept"
done
# violated: the same counter-example, byte for byte (after the lines naming its files)
v=tests/check/redlock-crash-restart.lua
"$LL" check "$v" --jobs 1 --out "$tmp/ce-one" >"$tmp/one-v" 2>/dev/null
one=$?
timeout 900 tools/slurm-check.sh "$v" 8 --dir "$tmp/job-v" --poll 1 --out "$tmp/ce-slurm" >"$tmp/slurm-v" 2>"$tmp/slurm-v.err"
rc=$?
# (the outcomes seen before the violation do depend on the split: a search stops at it)
verdicts() { grep -E '^  [a-z_]+ +(holds|VIOLATED|no violation)|^counter-example' "$1"; }
[ $one -eq 1 ] && [ $rc -eq 1 ] && [ -n "$(verdicts "$tmp/one-v")" ] && [ "$(verdicts "$tmp/one-v")" = "$(verdicts "$tmp/slurm-v")" ] &&
    grep -q "mutual_exclusion *VIOLATED (counter-example below)" "$tmp/slurm-v" && ok ||
    { bad "a violation over 8 Slurm tasks: exit $rc (one process: $one)"; tail -5 "$tmp/slurm-v.err"; }
diff <(sed 1d "$tmp/ce-one.choices") <(sed 1d "$tmp/ce-slurm.choices") >/dev/null &&
    diff <(sed 1,3d "$tmp/ce-one.lua") <(sed 1,3d "$tmp/ce-slurm.lua") >/dev/null && ok ||
    bad "the counter-example merged from Slurm tasks is not the one-process one"

# ---- a task cancelled mid-run ----
# LOCKLAB for the job: shard 1's first attempt (task 0: the first the controller starts) takes
# shares from the pool, finishes at least one and is then stopped (SIGSTOP: it holds what it
# has, as a task hung on a node would) until it is cancelled. Everything else (the other
# tasks, the options check, the merge) is locklab itself (exec: the shard files name its
# build).
cat >"$tmp/locklab-wrapper" <<EOF
#!/bin/bash
pool=""
prev=""
for a in "\$@"; do [ "\$prev" = --pool ] && pool=\$a; prev=\$a; done
case " \$* " in *" --shard 1/8 "*)
    if [ -n "\${SLURM_ARRAY_TASK_ID:-}" ] && [ -n "\$pool" ] && [ "\${SLURM_RESTART_COUNT:-0}" -eq 0 ]; then
        "$LL" "\$@" &
        child=\$!
        for _ in \$(seq 6000); do [ -s "\$pool/done-1.0" ] && break; kill -0 \$child 2>/dev/null || break; sleep 0.01; done
        kill -STOP \$child
        [ -s "\$pool/done-1.0" ] && echo started >"$tmp/started-\$SLURM_JOB_ID"
        exec sleep 3600
    fi ;;
esac
exec "$LL" "\$@"
EOF
chmod +x "$tmp/locklab-wrapper"
# killed RETRIES: runs the contended problem as 8 tasks, cancels task 0 (shard 1) once it is
# stopped with a share finished (its results die with it) and, maybe, one claimed.
killed() {
    rm -f "$tmp"/started-*
    LOCKLAB=$tmp/locklab-wrapper timeout 900 tools/slurm-check.sh "$tmp/contended.lua" 8 --dir "$tmp/job-kill$1" --poll 1 \
        --retries "$1" -- --max-deviations 1 >"$tmp/kill$1" 2>"$tmp/kill$1.err" &
    local driver=$! job="" started=0
    for _ in $(seq 1200); do
        job=$(sed -n 's/^slurm-check: job \([0-9]*\), 8 tasks.*/\1/p' "$tmp/kill$1.err" 2>/dev/null)
        [ -n "$job" ] && ls "$tmp"/started-* >/dev/null 2>&1 && { started=1; break; }
        kill -0 "$driver" 2>/dev/null || break
        sleep 0.5
    done
    [ $started -eq 1 ] && ok || bad "retries $1: task 0 never started, or finished no share: $(tail -3 "$tmp/kill$1.err")"
    [ -n "$job" ] && scancel "${job}_0"
    wait "$driver"
}
# with a retry, its next attempt takes its claims again and searches again what it had
# finished: the one-process answer
killed 1
rc=$?
[ $rc -eq "${one_contended:-0}" ] && grep -q "task 0 (shard 1 of 8) CANCELLED: requeued (retry 1 of 1)" "$tmp/kill1.err" &&
    grep -q "merged from 8 shard files" "$tmp/kill1" && [ "$(summary "$tmp/one-contended")" = "$(summary "$tmp/kill1")" ] && ok ||
    bad "a cancelled task with a retry: exit $rc, $(tail -4 "$tmp/kill1.err")"
grep -q "attempt 2" "$tmp/job-kill1/task-0.log" && ok || bad "task 0 did not run a second time: $(cat "$tmp/job-kill1/task-0.log")"
# without: the others take over what it had claimed (gone-1), and what it had finished is
# named as not searched: exit 4, never "holds"
killed 0
rc=$?
[ $rc -eq 4 ] && grep -q "task 0 (shard 1 of 8) CANCELLED after 1 attempt:" "$tmp/kill0.err" &&
    grep -q "shard 1 of 8 missing, and [0-9]* of the [0-9]* shares the tasks enabled w[a-z]* not searched" "$tmp/kill0.err" &&
    [ -e "$tmp/job-kill0/pool/gone-1" ] && ! grep -q "holds" "$tmp/kill0" && ok ||
    bad "a cancelled task without retries: exit $rc (wanted 4), $(tail -4 "$tmp/kill0.err")"

# the job script alone, for submission by hand
tools/slurm-check.sh "$tmp/contended.lua" 4 --dir "$tmp/byhand" --write-only --sbatch=--partition=locklabtest -- --time 0 >"$tmp/out" 2>&1
[ $? -eq 0 ] && grep -q "^#SBATCH --partition=locklabtest" "$tmp/byhand/job.sh" && grep -q -- "--time 0" "$tmp/byhand/job.sh" &&
    bash -n "$tmp/byhand/job.sh" && ok || bad "--write-only: $(cat "$tmp/out")"
# bad options for check are refused before anything is submitted
tools/slurm-check.sh "$tmp/contended.lua" 4 --dir "$tmp/bad" -- --delays sideways >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "delays" "$tmp/err" && [ ! -f "$tmp/bad/job.sh" ] && ok || bad "bad check options: $(cat "$tmp/err")"

echo "slurm: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
