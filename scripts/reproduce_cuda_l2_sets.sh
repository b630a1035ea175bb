#!/usr/bin/env bash
# Every CUDA-L2 set reproduced on this machine's GPUs, one `hgemm-bench reproduce`
# per set, each into ROOT/<set>/, and ROOT/index.md linking their summary pages
# (docs/reproduce-cuda-l2.md, "Every set").
#
#   scripts/reproduce_cuda_l2_sets.sh --repo CUDA-L2 --cutlass cutlass --out ROOT \
#       [--sets h100:300,a100-fp32:50,a100-fp16:50,3090:50] [-- REPRODUCE-FLAGS...]
#
# Each set is drawn from the paper's grid (the configurations it has a file
# for), stratified, with the sample size after its name (0 or none: all of them).
# The flags after -- go to every reproduce (--modes, --devices all, --warmup-s,
# --time-s, -j, ...). Rerun the same command after a kill: each reproduction
# resumes. Exit status: 0 when every set's page was written, else the first
# failing reproduce's status.
set -uo pipefail

usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

repo= cutlass= root= sets="h100:300,a100-fp32:50,a100-fp16:50,3090:50"
while [ $# -gt 0 ]; do
    case $1 in
        --repo) repo=${2:?}; shift 2 ;;
        --cutlass) cutlass=${2:?}; shift 2 ;;
        --out) root=${2:?}; shift 2 ;;
        --sets) sets=${2:?}; shift 2 ;;
        --) shift; break ;;
        -h|--help) usage ;;
        *) echo "reproduce_cuda_l2_sets: unknown argument '$1'" >&2; usage ;;
    esac
done
[ -n "$repo" ] && [ -n "$root" ] || usage
bench=${HB_BENCH:-$(cd "$(dirname "$0")/.." && pwd)/build/hgemm-bench}
[ -x "$bench" ] || { echo "reproduce_cuda_l2_sets: $bench is not built (make)" >&2; exit 2; }
mkdir -p "$root" || exit 7

status=0
index=$root/index.md
{
    echo "# CUDA-L2 reproduced: every set"
    echo
    echo "| set | sample | exit | summary page | wall time |"
    echo "| --- | ---: | ---: | --- | ---: |"
} > "$index.tmp"
IFS=, read -r -a entries <<< "$sets"
for entry in "${entries[@]}"; do
    set_name=${entry%%:*}
    sample=${entry#*:}
    [ "$sample" = "$entry" ] && sample=0
    args=(reproduce cuda-l2 --repo "$repo" --set "$set_name" --grid paper --out "$root/$set_name")
    [ -n "$cutlass" ] && args+=(--cutlass "$cutlass")
    [ "$sample" -gt 0 ] 2>/dev/null && args+=(--sample "$sample")
    echo "reproduce_cuda_l2_sets: $set_name (sample ${sample:-all})" >&2
    started=$(date +%s)
    "$bench" "${args[@]}" "$@"
    rc=$?
    took=$(( $(date +%s) - started ))
    [ $rc -ne 0 ] && [ $status -eq 0 ] && status=$rc
    page="$set_name/summary.md"
    [ -f "$root/$page" ] || page="(not written)"
    echo "| $set_name | ${sample/#0/all} | $rc | $page | $took s |" >> "$index.tmp"
    # an interrupt ends the whole run: the next sets would be cut short too
    [ $rc -ge 128 ] && break
done
mv "$index.tmp" "$index"
echo "reproduce_cuda_l2_sets: $index" >&2
exit $status
