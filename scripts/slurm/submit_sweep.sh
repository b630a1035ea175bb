#!/usr/bin/env bash
# Submits an hgemm-bench sweep to Slurm (docs/slurm.md): a job array of N
# tasks, one shard and one GPU each (sweep_array.sbatch), and behind it one
# job that merges the shards and writes the report (merge_report.sbatch).
#
#   scripts/slurm/submit_sweep.sh --shards N --root DIR [options] -- SWEEP-FLAGS...
#
#   --shards N             tasks in the array, one shard of the plan each
#   --root DIR             the sweep's results folder (made): DIR/shard-I-of-N,
#                          DIR/logs/, DIR/status/, then DIR/merged, DIR/report
#   --max-running K        at most K tasks at once (--array=0-<N-1>%K)
#   --only LIST            only these shards, e.g. 3,7: resume failed ones (a
#                          shard that holds a plan.json resumes, others start)
#   --array-opts 'OPTS'    sbatch options for the array, split at spaces:
#                          '--time=04:00:00 --partition=gpu --gres=gpu:h100:1'
#   --merge-opts 'OPTS'    sbatch options for the merge-and-report job
#   --report-flags 'FLAGS' flags for `hgemm-bench report` (e.g. --plots)
#   --no-check             skip the dry run of shard 0 on this node before
#                          submitting (it catches bad flags before N tasks do)
#
# SWEEP-FLAGS are `hgemm-bench sweep`'s but --shard, --out and --resume (the
# plan, --modes, run's flags).  With --dry-run among them only the array is
# submitted: each task prints its shard's plan to its log.  Options for both
# jobs (partition, account, QOS): sbatch's own SBATCH_PARTITION,
# SBATCH_ACCOUNT, SBATCH_QOS in the environment.
#
# Environment: HGEMM_BENCH, the harness (default: hgemm-bench on PATH), made
# absolute here and passed to the jobs; it must be on a filesystem the
# compute nodes see, as must the candidate and ROOT.
# Exit: 0 when submitted, 2 bad arguments, else the failing command's code.
set -euo pipefail

say() { echo "submit_sweep: $*" >&2; }
die() {
    local code=$1
    shift
    say "$*"
    exit "$code"
}
usage() { sed -n '/^#   scripts\/slurm\/submit_sweep.sh/,/^# Exit:/s/^# \{0,1\}//p' "$0"; }

here=$(cd "$(dirname "$0")" && pwd)
n="" root="" max_running="" only="" array_opts="" merge_opts="" report_flags="" check=1
while [ $# -gt 0 ]; do
    case $1 in
    --shards | --root | --max-running | --only | --array-opts | --merge-opts | --report-flags)
        [ $# -ge 2 ] || die 2 "$1 needs a value"
        case $1 in
        --shards) n=$2 ;;
        --root) root=$2 ;;
        --max-running) max_running=$2 ;;
        --only) only=$2 ;;
        --array-opts) array_opts=$2 ;;
        --merge-opts) merge_opts=$2 ;;
        --report-flags) report_flags=$2 ;;
        esac
        shift 2
        ;;
    --no-check) check=0 && shift ;;
    -h | --help) usage && exit 0 ;;
    --) shift && break ;;
    *) die 2 "unknown option '$1' (sweep flags go after --; --help lists the options)" ;;
    esac
done
flags=("$@")
[[ $n =~ ^[1-9][0-9]*$ ]] || die 2 "--shards N: a whole number from 1 is required"
[ -n "$root" ] || die 2 "--root DIR is required"
[ ${#flags[@]} -gt 0 ] || die 2 "no sweep flags after --: give a plan (--grid paper, --mnk-file FILE, ...) and the candidate"
[ -z "$max_running" ] || [[ $max_running =~ ^[1-9][0-9]*$ ]] || die 2 "--max-running K: a whole number from 1"
dry_run=0
for flag in "${flags[@]}"; do
    case $flag in
    --shard | --shard=* | --out | --out=* | --resume | --resume=*)
        die 2 "$flag: the scripts set --shard, --out and --resume themselves (--root names the folder)" ;;
    --dry-run) dry_run=1 ;;
    esac
done

array=0-$((n - 1))
if [ -n "$only" ]; then
    [[ $only =~ ^[0-9]+(,[0-9]+)*$ ]] || die 2 "--only LIST: shard numbers separated by commas, e.g. 3,7"
    for i in ${only//,/ }; do
        [ "$i" -lt "$n" ] || die 2 "--only: shard $i is not one of 0..$((n - 1))"
    done
    array=$only
    # The array's task count is no longer N: tell each task what N is.
    export HGEMM_SWEEP_SHARDS=$n
fi
[ -z "$max_running" ] || array=$array%$max_running

hb=${HGEMM_BENCH:-hgemm-bench}
hb_path=$(command -v "$hb") || die 127 "no harness at '$hb': set HGEMM_BENCH to the hgemm-bench binary"
case $hb_path in /*) ;; *) hb_path=$(cd "$(dirname "$hb_path")" && pwd)/$(basename "$hb_path") ;; esac
export HGEMM_BENCH=$hb_path

# Shards of another N are another sweep's: merging them with these would fail.
for other in "$root"/shard-*-of-* "$root"/status/shard-*-of-*.exit; do
    [ -e "$other" ] || continue
    of=${other##*-of-}
    [ "${of%.exit}" = "$n" ] || die 2 "$other: $root holds shards of a ${of%.exit}-shard sweep; use another --root, or --shards ${of%.exit}"
done

if [ "$check" = 1 ]; then
    "$hb_path" help sweep >/dev/null 2>&1 || die 2 "$hb_path has no sweep command (too old a build?)"
    probe=("${flags[@]}")
    [ "$dry_run" = 1 ] || probe+=(--dry-run)
    plan=$("$hb_path" sweep "${probe[@]}" --shard "0/$n") || {
        rc=$?
        die "$rc" "the dry run of shard 0 failed (exit $rc): fix the sweep flags (or --no-check)"
    }
    items=$(sed -n 's/^# items: [0-9]* of \([0-9]*\)$/\1/p' <<<"$plan")
    say "plan: ${items:-?} items over $n shards ($(sed -n 's/^# \(sweep_id: .*\)$/\1/p' <<<"$plan"))"
    [ -z "$items" ] || [ "$items" -ge "$n" ] || say "warning: $n shards for $items items: $((n - items)) shards will be empty"
fi

mkdir -p "$root/logs"
root=$(cd "$root" && pwd)
read -ra array_extra <<<"$array_opts"
read -ra merge_extra <<<"$merge_opts"
read -ra report_extra <<<"$report_flags"

array_job=$(sbatch --parsable --array="$array" --output="$root/logs/shard-%a.out" "${array_extra[@]}" \
    "$here/sweep_array.sbatch" "$root" "${flags[@]}") || die $? "sbatch refused the array (its message is above)"
array_job=${array_job%%;*}
say "array job $array_job: shards $array of $n; logs $root/logs/shard-<I>.out"
if [ "$dry_run" = 1 ]; then
    say "dry run: each task prints its shard's plan to its log; no merge job"
    echo "$array_job"
    exit 0
fi
merge_job=$(sbatch --parsable --dependency="afterany:$array_job" --output="$root/logs/merge-report.out" \
    "${merge_extra[@]}" "$here/merge_report.sbatch" "$root" "$n" "${report_extra[@]}") ||
    die $? "array job $array_job is queued, but sbatch refused the merge job: once the array is done, run" \
        "bash $here/merge_report.sbatch $root $n ${report_flags}"
merge_job=${merge_job%%;*}
say "merge-and-report job $merge_job after it; log $root/logs/merge-report.out, results $root/merged and $root/report"
echo "$array_job $merge_job"
