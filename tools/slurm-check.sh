#!/usr/bin/env bash
# tools/slurm-check.sh — `locklab check` as a Slurm array job: N tasks that share the search.
#
#   tools/slurm-check.sh SCENARIO N [--dir DIR] [--retries R] [--sbatch OPTION]... [--out BASE]
#                        [--poll S] [--write-only] [-- CHECK OPTIONS]
#
# Writes the job script DIR/job.sh (kept: `sbatch DIR/job.sh` submits it by hand on a cluster
# with its own conventions), submits it with `sbatch --array=0-(N-1)`, waits for its tasks
# (squeue, and sacct where the cluster keeps accounting), showing on stderr how many are done,
# running, pending and failed; requeues a task that failed, was cancelled or was lost (its
# node) at most R times (scontrol requeue); then merges the shard files
# (`locklab check SCENARIO --merge`) and prints the one answer, with check's exit codes:
# 1 a violation, 0 none exists within the bounds, 4 not finished (a task still missing after
# its retries, and the shares it had finished, are named, never taken for "holds"), 2 bad
# input, 3 the job could not be run.
#
# Task i (SLURM_ARRAY_TASK_ID, from 0) runs
#   locklab check SCENARIO --shard i+1/N --pool DIR/pool --save DIR/shard-(i+1)-of-N.part CHECK OPTIONS
# and renames the file to DIR/shard-(i+1)-of-N only when the search ended (exit 0, 1 or 4): a
# task killed mid-run leaves no shard file. The tasks hand the search's shares out among
# themselves through DIR/pool (claims: a task that finishes early takes the next share
# nobody has taken); a task's next attempt takes its claims again, and when a task is given
# up this writes DIR/pool/gone-(i+1), so that the others take over the shares it had claimed
# (what it had finished is lost with it: the merge names those shares as not searched,
# exit 4). DIR (default out/<scenario>.slurm-N) must be on a file system the nodes share;
# DIR/pool is emptied before the job is submitted. CHECK OPTIONS go to every task (--time:
# each task's limit, default 60 s; --max-deviations, --delays, --probes); --out BASE is where
# the merge writes the counter-example. The environment: LOCKLAB (default ./locklab beside
# tools/).
set -uo pipefail

usage() {
    sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
}
die() {
    echo "slurm-check: $*" >&2
    exit "${code:-2}"
}

here=$(cd "$(dirname "$0")/.." && pwd)
LL=${LOCKLAB:-$here/locklab}
[ $# -ge 1 ] && { [ "$1" = --help ] || [ "$1" = -h ]; } && { usage; exit 0; }
[ $# -ge 2 ] || die "usage: tools/slurm-check.sh SCENARIO N [options] [-- check options]; try --help"
scenario=$1 n=$2
shift 2
[[ $n =~ ^[1-9][0-9]{0,4}$ ]] && [ "$n" -le 100000 ] || die "N is a number of tasks from 1 to 100000, not '$n'"
dir="" retries=2 poll=5 write_only=0 out=""
sbatch_opts=()
check_opts=()
while [ $# -gt 0 ]; do
    case $1 in
    --dir) [ $# -ge 2 ] || die "--dir needs a value"; dir=$2; shift 2 ;;
    --dir=*) dir=${1#--dir=}; shift ;;
    --retries) [ $# -ge 2 ] || die "--retries needs a value"; retries=$2; shift 2 ;;
    --retries=*) retries=${1#--retries=}; shift ;;
    --poll) [ $# -ge 2 ] || die "--poll needs a value"; poll=$2; shift 2 ;;
    --poll=*) poll=${1#--poll=}; shift ;;
    --sbatch) [ $# -ge 2 ] || die "--sbatch needs a value"; sbatch_opts+=("$2"); shift 2 ;;
    --sbatch=*) sbatch_opts+=("${1#--sbatch=}"); shift ;;
    --out) [ $# -ge 2 ] || die "--out needs a value"; out=$2; shift 2 ;;
    --out=*) out=${1#--out=}; shift ;;
    --write-only) write_only=1; shift ;;
    --help | -h) usage; exit 0 ;;
    --) shift; check_opts=("$@"); break ;;
    *) die "unknown option '$1' (options for check go after --); try --help" ;;
    esac
done
[[ $retries =~ ^[0-9]{1,3}$ ]] || die "--retries takes a whole number, not '$retries'"
[[ $poll =~ ^[0-9]{1,4}$ ]] && [ "$poll" -ge 1 ] || die "--poll takes whole seconds (at least 1), not '$poll'"
for o in "${sbatch_opts[@]}"; do
    case $o in --array* | -a*) die "--sbatch '$o': the array is N tasks, 0-$((n - 1)); give N instead" ;; esac
    [[ $o == *$'\n'* ]] && die "--sbatch: an option on one line"
done
[ -x "$LL" ] || die "no locklab at $LL (make locklab, or set LOCKLAB)"
LL=$(cd "$(dirname "$LL")" && pwd)/$(basename "$LL")
[ -f "$scenario" ] || die "$scenario: no such file (a scenario file the tasks can read)"
scenario=$(cd "$(dirname "$scenario")" && pwd)/$(basename "$scenario")
stem=$(basename "$scenario" .lua)
[ -n "$dir" ] || dir=out/$stem.slurm-$n
mkdir -p "$dir" || die "cannot make $dir"
dir=$(cd "$dir" && pwd)
[[ $dir == *[[:space:]]* ]] && die "$dir: give --dir a folder without spaces (the job script's #SBATCH --output line names it)"

# The options are checked here, once, rather than by N tasks that would all fail: a search of
# one path with them.
"$LL" check "$scenario" "${check_opts[@]}" --shard "1/$n" --save "$dir/.options-check" --max-paths 1 --probes 0 \
    --out "$dir/.options-check" >/dev/null 2>"$dir/.options-check.err"
rc=$?
rm -f "$dir"/.options-check*.{lua,choices,txt} "$dir/.options-check"
if [ $rc -ne 0 ] && [ $rc -ne 1 ] && [ $rc -ne 4 ]; then
    cat "$dir/.options-check.err" >&2
    rm -f "$dir/.options-check.err"
    exit 2
fi
rm -f "$dir/.options-check.err"

# ---- the job script ----
q() { printf '%q' "$1"; }
script=$dir/job.sh
{
    echo "#!/bin/bash"
    echo "# locklab check of $scenario as $n shards, one a task of a Slurm array; written by"
    echo "# tools/slurm-check.sh. The tasks hand the shares out among themselves through"
    echo "# $dir/pool (empty it before submitting again). By hand: sbatch $dir/job.sh, and"
    echo "# when every task is done:"
    echo "#   $LL check $scenario --merge $dir/shard-*-of-$n"
    echo "# (shares no task finished are named and the merge exits 4: not finished)."
    echo "#SBATCH --job-name=locklab-check-$(printf '%s' "$stem" | tr -c 'A-Za-z0-9._-' '_')"
    echo "#SBATCH --array=0-$((n - 1))"
    echo "#SBATCH --cpus-per-task=1"
    echo "#SBATCH --output=$dir/task-%a.log"
    echo "#SBATCH --open-mode=append"
    echo "#SBATCH --requeue"
    for o in "${sbatch_opts[@]}"; do echo "#SBATCH $o"; done
    echo "i=\$((SLURM_ARRAY_TASK_ID + 1))"
    echo "shard=$(q "$dir")/shard-\$i-of-$n"
    [ -n "${LOCKLAB_HOME:-}" ] && echo "export LOCKLAB_HOME=$(q "$LOCKLAB_HOME")"
    echo "echo \"locklab check: shard \$i of $n, attempt \$((\${SLURM_RESTART_COUNT:-0} + 1)), on \$(hostname)\""
    printf '%s check %s --shard "$i/%s" --pool %s --save "$shard.part" --out %s' \
        "$(q "$LL")" "$(q "$scenario")" "$n" "$(q "$dir/pool")" "$(q "$dir")/task-\$i-counterexample"
    for o in "${check_opts[@]}"; do printf ' %s' "$(q "$o")"; done
    echo
    echo "rc=\$?"
    echo "# 0 holds, 1 a violation, 4 not finished: the shard says what it searched; else a failure"
    echo "case \$rc in 0 | 1 | 4) mv -f \"\$shard.part\" \"\$shard\" && exit 0 ;; esac"
    echo "rm -f \"\$shard.part\""
    echo "exit \$rc"
} >"$script" || die "cannot write $script"
chmod +x "$script"
if [ $write_only -eq 1 ]; then
    echo "written: $script"
    echo "submit:  sbatch $script"
    echo "merge:   $LL check $scenario --merge $dir/shard-*-of-$n"
    exit 0
fi

# ---- submit, wait, requeue ----
code=3
command -v sbatch >/dev/null && command -v squeue >/dev/null && command -v scontrol >/dev/null ||
    die "sbatch, squeue and scontrol are not installed (Slurm's client commands)"
for i in $(seq 1 "$n"); do rm -f "$dir/shard-$i-of-$n" "$dir/shard-$i-of-$n.part"; done
rm -rf "$dir/pool" # the shares of an earlier search here are not this one's
sub=$(sbatch --parsable --array="0-$((n - 1))" "${sbatch_opts[@]}" "$script" 2>&1) || die "sbatch: $sub"
job=${sub%%;*}
[[ $job =~ ^[0-9]+$ ]] || die "sbatch said '$sub', not a job id"
echo "slurm-check: job $job, $n tasks (job script $script)" >&2
trap 'echo "slurm-check: interrupted; cancelling job $job" >&2; scancel "$job" 2>/dev/null; exit 130' INT TERM

declare -A state
tries=()
given_up=()
for ((i = 0; i < n; i++)); do tries[i]=0; given_up[i]=0; done
have_sacct=1 refusals=0
last="" last_t=0
while :; do
    state=()
    # The controller busy or restarting is no news about the tasks: look again later. (It
    # also refuses a job it has forgotten, every task ended long ago: after a minute of
    # refusals, the shard files and sacct say what became of them.)
    if queue=$(squeue --states=all -r -h -j "$job" -o '%K %T' 2>/dev/null); then
        refusals=0
    elif [ $((refusals += 1)) -lt $((60 / poll + 1)) ]; then
        sleep "$poll"
        continue
    else
        queue=""
    fi
    while read -r idx st; do
        [[ $idx =~ ^[0-9]+$ ]] && state[$idx]=$st
    done <<<"$queue"
    done_n=0 run_n=0 pend_n=0 fail_n=0 requeued=0
    for ((i = 0; i < n; i++)); do
        st=${state[$i]:-}
        if [ -z "$st" ] && [ $have_sacct -eq 1 ]; then # no longer in the controller's memory
            st=$(sacct -n -X -P -j "${job}_$i" -o State 2>/dev/null | tail -n 1 | cut -d' ' -f1) || { have_sacct=0; st=""; }
        fi
        f=$dir/shard-$((i + 1))-of-$n
        case $st in
        RUNNING | COMPLETING | CONFIGURING | STAGE_OUT | SIGNALING) run_n=$((run_n + 1)); continue ;;
        PENDING | REQUEUED | REQUEUE_HOLD | REQUEUE_FED | RESIZING | SUSPENDED | PREEMPTED*) pend_n=$((pend_n + 1)); continue ;;
        esac
        if [ -f "$f" ] && { [ "$st" = COMPLETED ] || [ -z "$st" ]; }; then
            done_n=$((done_n + 1))
            continue
        fi
        # failed, cancelled, timed out, out of memory, its node failed, or gone without a shard
        if [ "${given_up[i]}" -eq 0 ] && [ "${tries[i]}" -lt "$retries" ]; then
            tries[i]=$((tries[i] + 1))
            if scontrol requeue "${job}_$i" >/dev/null 2>&1; then
                # a requeued job waits (Slurm: cred_expire, 120 s by default) unless told to start
                scontrol update JobId="${job}_$i" StartTime=now >/dev/null 2>&1
                echo "slurm-check: task $i (shard $((i + 1)) of $n) ${st:-lost}: requeued (retry ${tries[i]} of $retries)" >&2
                pend_n=$((pend_n + 1))
                requeued=1
                continue
            fi
            echo "slurm-check: task $i (shard $((i + 1)) of $n) ${st:-lost} and Slurm cannot requeue it" >&2
            given_up[i]=1
        elif [ "${given_up[i]}" -eq 0 ]; then
            a=$((tries[i] + 1))
            echo "slurm-check: task $i (shard $((i + 1)) of $n) ${st:-lost} after $a attempt$([ $a -eq 1 ] || echo s): see $dir/task-$i.log" >&2
            given_up[i]=1
        fi
        # the tasks still running take over the shares it had claimed (model/pool.c)
        [ "${given_up[i]}" -eq 1 ] && [ -d "$dir/pool" ] && : >"$dir/pool/gone-$((i + 1))"
        fail_n=$((fail_n + 1))
    done
    line="$done_n done, $run_n running, $pend_n pending, $fail_n failed"
    if [ "$line" != "$last" ] || [ $((SECONDS - last_t)) -ge 30 ]; then
        echo "slurm-check: job $job: $line (of $n)" >&2
        last=$line last_t=$SECONDS
    fi
    [ $((run_n + pend_n)) -eq 0 ] && [ $requeued -eq 0 ] && break
    sleep "$poll"
done
trap - INT TERM

# ---- merge ----
files=()
for ((i = 1; i <= n; i++)); do [ -f "$dir/shard-$i-of-$n" ] && files+=("$dir/shard-$i-of-$n"); done
if [ ${#files[@]} -eq 0 ]; then
    echo "slurm-check: no shard finished (see $dir/task-*.log): not finished" >&2
    exit 4
fi
merge_opts=()
[ -n "$out" ] && merge_opts=(--out "$out")
"$LL" check "$scenario" --merge "${files[@]}" "${merge_opts[@]}"
