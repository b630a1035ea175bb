#!/usr/bin/env bash
# The two candidate-set scripts against a stand-in hgemm-bench (no GPU):
# scripts/check_honest_set.sh must read summary.csv by column name, with
# and without the columns deviation_checks, excess_ratio and paper_rule,
# count a rejection and fail on it; scripts/gate_broken_set.sh must give a
# row with gate_args one gate call with those arguments (and no
# --min-speedup -1) and every other row its usual call.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$here/..
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
    echo "candidate_scripts_smoke: $*"
    exit 1
}

# Both scripts read verdict files and summary.csv with python3
# (scripts/install_deps.sh installs it).
if ! command -v python3 >/dev/null; then
    echo "candidate_scripts_smoke: skipped (no python3)"
    exit 0
fi

# A build folder holding every candidate the two tables name, and the stand-in.
build=$work/build
mkdir -p "$build/candidates/sample_simple" "$build/candidates/sample_mma"
tail -n +2 "$repo/candidates/honest/expected.tsv" | cut -f1 | while read -r name; do
    case $name in sample_*) ;; *) mkdir -p "$build/candidates/honest/$name" ;; esac
done
tail -n +2 "$repo/candidates/broken/expected.tsv" | cut -f1 | while read -r name; do
    mkdir -p "$build/candidates/broken/$name"
done

# The stand-in: `check` writes a verdict file and a summary.csv (FAKE_NEW=1:
# with the new columns; FAKE_FAIL=name:M,N,K: that row is incorrect);
# `gate` answers what candidates/broken/expected.tsv expects.  Each call's
# arguments go to $work/calls.log.
cat >"$build/hgemm-bench" <<'STUB'
#!/usr/bin/env bash
command=$1
shift
if [ "${1:-}" = --help ]; then
    [ "${FAKE_NEW:-0}" = 1 ] && echo "  --deviation-reps N"
    exit 0
fi
echo "$command $*" >>"$FAKE_LOG"
mnks=()
while [ $# -gt 0 ]; do
    case $1 in
    --candidate) candidate=$2 ;;
    --verdict) verdict=$2 ;;
    --out) out=$2 ;;
    --mnk) mnks+=("$2") ;;
    esac
    shift
done
name=$(basename "$candidate")
if [ "$command" = gate ]; then
    IFS=$'\t' read -r _ want check code _ < <(grep -P "^$name\t" "$FAKE_BROKEN")
    [ "$name" = sample_mma ] && want=pass check="" code=0
    printf '{"verdict": "%s", "exit_code": %s, "configs": [{"check": "%s"}]}\n' "$want" "$code" "$check" >"$verdict"
    exit "$code"
fi
run=$out/run-$name
mkdir -p "$run"
overall=pass code=0
{
    header="run_id,m,n,k,participant,role,verdict,check,reason,max_abs_dev,dev_bound"
    [ "${FAKE_NEW:-0}" = 1 ] && header="$header,deviation_checks,excess_ratio,paper_rule"
    echo "$header"
    for mnk in "${mnks[@]}"; do
        IFS=, read -r m n k <<<"$mnk"
        v=pass c="" new=""
        if [ "${FAKE_FAIL:-}" = "$name:$mnk" ]; then v=incorrect c=deviation overall=incorrect code=6; fi
        [ "${FAKE_NEW:-0}" = 1 ] && new=",2,0.${#name}5,pass"
        echo "r,$m,$n,$k,\"$name, quoted\",candidate,$v,$c,\"a reason, with a comma\",0.01,0.02$new"
        echo "r,$m,$n,$k,cublas-nn,baseline,ok,,,0.01,$new"
    done
} >"$run/summary.csv"
printf '{"verdict": "%s", "exit_code": %s, "results_dir": "%s"}\n' "$overall" "$code" "$run" >"$verdict"
exit "$code"
STUB
chmod +x "$build/hgemm-bench"
export FAKE_LOG=$work/calls.log FAKE_BROKEN=$repo/candidates/broken/expected.tsv
kernels=$(($(wc -l <"$repo/candidates/honest/expected.tsv") - 1))

# A harness without the new columns: n/a, and a pass.
said=$(HB_HONEST_OUT=$work/old HB_HONEST_MNK="64,64,64 128,256,512" \
    "$repo/scripts/check_honest_set.sh" "$build" 2>/dev/null) || fail "honest set without the new columns did not pass"
grep -q "^honest-set: n/a checks over $((2 * kernels)) configurations, 0 rejections$" <<<"$said" ||
    fail "unexpected total line: $(tail -n 1 <<<"$said")"
[ "$(wc -l <"$work/old/honest-set.tsv")" -eq $((2 * kernels + 1)) ] || fail "honest-set.tsv: not one line per row"
grep -q -- "--deviation-reps" "$FAKE_LOG" && fail "--deviation-reps given to a harness without it"

# The new columns, one rejection: counted, and the script fails.
: >"$FAKE_LOG"
if said=$(FAKE_NEW=1 FAKE_FAIL=fp32_splitk:128,256,512 HB_HONEST_OUT=$work/new HB_HONEST_REPS=2 HB_HONEST_JOBS=3 \
    HB_HONEST_MNK="64,64,64 128,256,512" "$repo/scripts/check_honest_set.sh" "$build" 2>/dev/null); then
    fail "a rejection did not fail the honest set"
fi
grep -q "^honest-set: $((4 * kernels)) checks over $((2 * kernels)) configurations, 1 rejections$" <<<"$said" ||
    fail "unexpected total line: $(tail -n 1 <<<"$said")"
grep -q "^| fp32_splitk | 2 | 4 | 1 | 0.115 | pass | incorrect | .* | no |$" <<<"$said" ||
    fail "fp32_splitk's row: $(grep fp32_splitk <<<"$said")"
grep -qP "^fp32_splitk\t128\t256\t512\tincorrect\tdeviation\t2\t0.115\tpass\t0.01\t0.02$" "$work/new/honest-set.tsv" ||
    fail "honest-set.tsv lacks the rejected row"
[ "$(grep -c -- "--deviation-reps 2 --autotune-cache $work/new/autotune-cache.tsv" "$FAKE_LOG")" -eq "$kernels" ] ||
    fail "not every check call had --deviation-reps and the shared autotune cache"
cmp -s "$work/new/honest-set.md" <(printf '%s\n' "$said") || fail "honest-set.md differs from what was printed"

# The broken set: gate_args rows get their own call, the others the usual one.
: >"$FAKE_LOG"
HB_GATE_OUT=$work/gate "$repo/scripts/gate_broken_set.sh" "$build" >"$work/gate.txt" ||
    fail "the broken set did not come out as expected: $(tail -n 1 "$work/gate.txt")"
while IFS=$'\t' read -r name _ _ _ args; do
    [ "$name" = name ] && continue
    line=$(grep -- "--candidate $build/candidates/broken/$name " "$FAKE_LOG") || fail "$name was not run"
    [ "$(wc -l <<<"$line")" -eq 1 ] || fail "$name was run more than once"
    if [ -n "$args" ]; then
        [[ $line == *" $args" ]] || fail "$name's call does not end with its gate_args: $line"
        [[ $line == *"--min-speedup -1"* ]] && fail "$name's call still has --min-speedup -1"
    else
        [[ $line == *" --mnk 64,64,64 --min-speedup -1" ]] || fail "$name's call: $line"
    fi
done <"$repo/candidates/broken/expected.tsv"
echo "candidate_scripts_smoke: ok ($kernels honest kernels, $(($(wc -l <"$FAKE_BROKEN") - 1)) broken rows)"
