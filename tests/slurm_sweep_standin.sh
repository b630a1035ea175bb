#!/usr/bin/env bash
# A stand-in for `hgemm-bench sweep --dry-run`, used by tests/slurm_dry_run.sh
# only while the harness under test has no sweep command (`hgemm-bench help
# sweep` fails); the test takes the harness itself as soon as it has one.
# It prints the plan of one shard in the dry-run format:
#
#   # hgemm-bench sweep plan
#   # sweep_id: <16 hex digits, the same for every shard of one sweep>
#   # shard: I/N                       (# shard: none without --shard)
#   # items: <items in this shard> of <items in the plan>
#   # options: <the run flags>
#   item,m,n,k,mode
#   0,64,64,64,offline
#
# with item i of the plan (configurations in order, each in every mode of
# --modes) in shard i mod N.  Plans: --mnk M,N,K (repeatable), --mnk-file
# FILE (M,N,K or M_N_K a line, # comments), --m/--n/--k LIST.  Any other
# --flag [VALUE] is a run flag.  --grid, --sample, --seed and anything but
# --dry-run are the harness's, not the stand-in's: exit 2.
set -euo pipefail
die() {
    echo "sweep stand-in: $*" >&2
    exit 2
}
if [ "${1:-} ${2:-}" = "help sweep" ] || [ "${1:-} ${2:-}" = "sweep --help" ]; then
    echo "usage: hgemm-bench sweep PLAN [--modes LIST] [--shard I/N] --dry-run  (stand-in: tests/slurm_sweep_standin.sh)"
    exit 0
fi
[ "${1:-}" = sweep ] || die "only 'sweep' and 'help sweep'"
shift

configs=() modes=offline shard="" dry_run=0 options=() ms="" ns="" ks=""
while [ $# -gt 0 ]; do
    case $1 in
    --dry-run) dry_run=1 && shift && continue ;;
    --no-progress) shift && continue ;;
    --grid | --sample | --seed | --resume) die "$1 is not implemented by the stand-in" ;;
    esac
    [[ $1 == --* ]] || die "unexpected argument '$1'"
    [ $# -ge 2 ] || die "$1 needs a value"
    case $1 in
    --mnk) configs+=("$2") ;;
    --mnk-file)
        [ -r "$2" ] || die "--mnk-file $2: cannot read it"
        while read -r line; do
            line=${line%%#*}
            line=${line//[[:space:]]/}
            [ -n "$line" ] && configs+=("${line//_/,}")
        done <"$2"
        ;;
    --m) ms=$2 ;;
    --n) ns=$2 ;;
    --k) ks=$2 ;;
    --modes) modes=$2 ;;
    --shard) shard=$2 ;;
    --out | --devices) ;;
    *) options+=("$1" "$2") ;;
    esac
    shift 2
done
[ "$dry_run" = 1 ] || die "only --dry-run (the stand-in runs nothing)"
if [ -n "$ms$ns$ks" ]; then
    [ -n "$ms" ] && [ -n "$ns" ] && [ -n "$ks" ] || die "--m, --n and --k go together"
    for m in ${ms//,/ }; do for n in ${ns//,/ }; do for k in ${ks//,/ }; do configs+=("$m,$n,$k"); done; done; done
fi
[ ${#configs[@]} -gt 0 ] || die "no plan: give --mnk, --mnk-file or --m/--n/--k"
for c in "${configs[@]}"; do
    [[ $c =~ ^[1-9][0-9]*,[1-9][0-9]*,[1-9][0-9]*$ ]] || die "'$c' is not M,N,K"
done
for mode in ${modes//,/ }; do
    case $mode in offline | server) ;; *) die "--modes: '$mode' is not offline or server" ;; esac
done
shard_i=0 shard_n=1
if [ -n "$shard" ]; then
    [[ $shard =~ ^([0-9]+)/([1-9][0-9]*)$ ]] && [ "${BASH_REMATCH[1]}" -lt "${BASH_REMATCH[2]}" ] ||
        die "--shard $shard: not I/N with 0 <= I < N"
    shard_i=${BASH_REMATCH[1]} shard_n=${BASH_REMATCH[2]}
fi

plan=()
for c in "${configs[@]}"; do
    for mode in ${modes//,/ }; do plan+=("$c,$mode"); done
done
id=$(printf '%s\n' "${plan[@]}" "${options[*]}" | sha256sum | cut -c1-16)
mine=()
for i in "${!plan[@]}"; do
    [ $((i % shard_n)) -eq "$shard_i" ] && mine+=("$i,${plan[i]}")
done
echo "# hgemm-bench sweep plan"
echo "# sweep_id: $id"
echo "# shard: ${shard:-none}"
echo "# items: ${#mine[@]} of ${#plan[@]}"
echo "# options: ${options[*]}"
echo "item,m,n,k,mode"
[ ${#mine[@]} -eq 0 ] || printf '%s\n' "${mine[@]}"
