#!/usr/bin/env bash
# gate_broken_set.sh [BUILD_DIR] -- runs `hgemm-bench gate` on the sample
# candidate and on every deliberately broken candidate
# (candidates/broken/<name>/, built by make into BUILD_DIR/candidates/broken/),
# and checks each verdict against candidates/broken/expected.tsv.  The sample
# must pass; each broken one must get its expected verdict, from the expected
# check, with the expected exit code.  Speed is not judged (--min-speedup -1),
# except in the rows whose optional fifth column, gate_args, gives that
# candidate's own gate arguments (whitespace-separated, no quoting): such a
# row gets one gate call with those arguments in place of the HB_GATE_MNK
# configurations and --min-speedup -1 (they come last, so they may also
# override --warmup-s, --time-s and --timeout-s).
#
# Needs a GPU.  BUILD_DIR defaults to build.  Environment:
#   HB_GATE_MNK        configurations, space-separated M,N,K (default "64,64,64")
#   HB_GATE_WARMUP_S   --warmup-s (default 1)
#   HB_GATE_TIME_S     --time-s (default 2)
#   HB_GATE_TIMEOUT_S  --timeout-s (default 20)
#   HB_GATE_OUT        --out folder; verdicts and logs go there too
#                      (default results/gate-broken)
#   HB_GATE_EXPECTED   the expected table (default candidates/broken/expected.tsv
#                      next to this script's folder)
#   HB_GATE_CALL_LIMIT_S  wall-clock limit on one hgemm-bench call, in case the
#                      harness itself hangs (default 600; 0: no limit)
#
# Prints a markdown table, one row per candidate and configuration (one per
# gate_args row, its configurations marked "*"), then
# "broken-set: X of Y as expected".  Exit status 0 only when every row matched,
# 1 otherwise (a missing build, a bad HB_GATE_MNK, or any mismatch).
set -u

BUILD=${1:-build}
BIN=$BUILD/hgemm-bench
MNKS=${HB_GATE_MNK:-64,64,64}
WARMUP_S=${HB_GATE_WARMUP_S:-1}
TIME_S=${HB_GATE_TIME_S:-2}
TIMEOUT_S=${HB_GATE_TIMEOUT_S:-20}
OUT=${HB_GATE_OUT:-results/gate-broken}
EXPECTED=${HB_GATE_EXPECTED:-$(dirname "$0")/../candidates/broken/expected.tsv}
CALL_LIMIT_S=${HB_GATE_CALL_LIMIT_S:-600}

die() {
    echo "gate_broken_set.sh: $*" >&2
    exit 1
}

[ -x "$BIN" ] || die "no $BIN (build it with make)"
[ -r "$EXPECTED" ] || die "no expected table at $EXPECTED"
for mnk in $MNKS; do
    [[ $mnk =~ ^[0-9]+,[0-9]+,[0-9]+$ ]] || die "HB_GATE_MNK: \"$mnk\" is not M,N,K"
done
mkdir -p "$OUT" || die "cannot create $OUT"

# name -> "verdict<TAB>check<TAB>exit_code", and name -> gate_args where the
# row has them, from the expected table.
declare -A expected=()
declare -A gate_args=()
line_no=0
while IFS=$'\t' read -r name verdict check code own_args || [ -n "$name" ]; do
    line_no=$((line_no + 1))
    [ "$line_no" -eq 1 ] && continue # header
    [ -z "$name" ] && continue
    [[ $name == \#* ]] && continue
    if [ -z "$verdict" ] || [ -z "$check" ] || ! [[ $code =~ ^[0-9]+$ ]]; then
        die "$EXPECTED line $line_no: want name, verdict, check, exit_code separated by tabs"
    fi
    expected[$name]="$verdict"$'\t'"$check"$'\t'"$code"
    own_args=${own_args//$'\t'/ }
    if [[ $own_args =~ [^[:space:]] ]]; then
        read -r -a words <<<"$own_args"
        for word in "${words[@]}"; do
            case $word in
            --candidate | --out | --verdict | --candidate=* | --out=* | --verdict=*)
                die "$EXPECTED line $line_no: gate_args may not set $word (the script sets it)"
                ;;
            esac
        done
        gate_args[$name]=${words[*]}
    fi
done <"$EXPECTED"

# Candidates: the sample first, then every built broken one, then any in the
# table that was not built (each of those is a failed row).
names=(sample_mma)
dirs=("$BUILD/candidates/sample_mma")
declare -A built=()
for dir in "$BUILD"/candidates/broken/*/; do
    [ -d "$dir" ] || continue
    name=$(basename "$dir")
    built[$name]=1
    names+=("$name")
    dirs+=("${dir%/}")
done
while IFS= read -r name; do
    [ -n "$name" ] || continue
    if [ -z "${built[$name]+x}" ]; then
        names+=("$name")
        dirs+=("$BUILD/candidates/broken/$name")
    fi
done < <(printf '%s\n' "${!expected[@]}" | sort)

if [ "$CALL_LIMIT_S" -gt 0 ] 2>/dev/null && command -v timeout >/dev/null; then
    limit=(timeout -k 10 "$CALL_LIMIT_S")
else
    limit=()
fi

# Prints three lines: verdict, check, exit_code ("" where unreadable).
read_verdict() {
    python3 - "$1" <<'PY'
import json, sys
def clean(s):
    return " ".join(str(s).replace("|", "/").split())
try:
    with open(sys.argv[1]) as f:
        d = json.load(f)
    verdict = d["verdict"]
    code = d["exit_code"]
    configs = d.get("configs") or [{}]
    check = configs[0].get("check", "")
    if check is None:
        check = ""
    if not isinstance(verdict, str) or not isinstance(check, str) \
            or isinstance(code, bool) or not isinstance(code, int):
        raise ValueError("wrong types")
    print(clean(verdict)); print(clean(check)); print(code)
except Exception as e:
    print("unreadable(%s)" % clean(type(e).__name__)); print(""); print("")
PY
}

show_check() { if [ -n "$1" ]; then printf '%s' "$1"; else printf '%s' "-"; fi; }

# The largest K among "--mnk M,N,K" words of the arguments given ("" if none).
largest_k() {
    local k="" word next=0
    for word in "$@"; do
        if [ "$next" -eq 1 ] && [[ $word =~ ^[0-9]+,[0-9]+,([0-9]+)$ ]]; then
            if [ -z "$k" ] || [ "${BASH_REMATCH[1]}" -gt "$k" ]; then k=${BASH_REMATCH[1]}; fi
        fi
        next=0
        [ "$word" = --mnk ] && next=1
    done
    printf '%s' "$k"
}

# The "--mnk" values of the arguments given, space-separated.
mnk_list() {
    local list="" word next=0
    for word in "$@"; do
        [ "$next" -eq 1 ] && list="$list${list:+ }$word"
        next=0
        [ "$word" = --mnk ] && next=1
    done
    printf '%s' "${list:-(none)}"
}

rows=0
matched=0
signed_note=0
args_note=0

# One gate call and its table row: gate_row NAME DIR TAG LABEL K WANT_VERDICT
# WANT_CHECK WANT_CODE GATE_ARGS...  (TAG names the verdict file and log,
# LABEL is the row's configuration cell, K the largest K the call runs.)
gate_row() {
    local name=$1 dir=$2 tag=$3 label=$4 k=$5 want_verdict=$6 want_check=$7 want_code=$8
    shift 8
    local want_check_here=$want_check
    # The harness runs exact-signed only when K <= 2048 (HB_SIGNED_MAX_K);
    # above that, a candidate meant to fail it must fail the next check.
    if [ "$want_check" = exact-signed ] && [ -n "$k" ] && [ "$k" -gt 2048 ]; then
        want_check_here=deviation
        signed_note=1
    fi
    local verdict_file=$OUT/$name-$tag.json
    local log=$OUT/$name-$tag.log
    local rc start end seconds got_verdict got_check got_code got_exit ok
    rows=$((rows + 1))
    rm -f "$verdict_file"
    start=$(date +%s.%N)
    if [ -d "$dir" ]; then
        "${limit[@]}" "$BIN" gate --candidate "$dir" \
            --warmup-s "$WARMUP_S" --time-s "$TIME_S" --timeout-s "$TIMEOUT_S" \
            --seed 1 --no-progress --out "$OUT" --verdict "$verdict_file" "$@" >"$log" 2>&1
        rc=$?
    else
        echo "gate_broken_set.sh: $dir was not built" >"$log"
        rc=-1
    fi
    end=$(date +%s.%N)
    seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')

    if [ -f "$verdict_file" ]; then
        { read -r got_verdict; read -r got_check; read -r got_code; } < <(read_verdict "$verdict_file")
    elif [ "$rc" -eq -1 ]; then
        got_verdict="(not built)" got_check="" got_code=""
    elif [ "${#limit[@]}" -gt 0 ] && { [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; }; then
        got_verdict="(killed after ${CALL_LIMIT_S} s)" got_check="" got_code=""
    else
        got_verdict="(no verdict file)" got_check="" got_code=""
    fi

    # The process's exit status must agree with the verdict file's.
    got_exit=${got_code:--}
    [ "$rc" -ne -1 ] && [ "$rc" != "$got_code" ] && got_exit="$got_exit (rc $rc)"

    ok=no
    if [ "$got_verdict" = "$want_verdict" ] && [ "$got_check" = "$want_check_here" ] &&
        [ "$got_code" = "$want_code" ] && [ "$rc" = "$want_code" ]; then
        ok=yes
        matched=$((matched + 1))
    fi
    printf '| %s | %s | %s/%s/%s | %s/%s/%s | %s | %s |\n' "$name" "$label" \
        "$want_verdict" "$(show_check "$want_check_here")" "${want_code:--}" \
        "$got_verdict" "$(show_check "$got_check")" "$got_exit" "$seconds" "$ok"
}

echo "| candidate | M,N,K | expected verdict/check/exit | got verdict/check/exit | seconds | ok |"
echo "| --- | --- | --- | --- | --- | --- |"
for i in "${!names[@]}"; do
    name=${names[$i]}
    dir=${dirs[$i]}
    if [ "$name" = sample_mma ]; then
        want_verdict=pass want_check="" want_code=0
    elif [ -n "${expected[$name]+x}" ]; then
        IFS=$'\t' read -r want_verdict want_check want_code <<<"${expected[$name]}"
    else
        want_verdict="(not in expected.tsv)" want_check="" want_code=""
    fi
    if [ -n "${gate_args[$name]+x}" ]; then
        read -r -a own <<<"${gate_args[$name]}" # whitespace-separated words, never globbed
        args_note=1
        gate_row "$name" "$dir" args "$(mnk_list "${own[@]}") *" "$(largest_k "${own[@]}")" \
            "$want_verdict" "$want_check" "$want_code" "${own[@]}"
        continue
    fi
    for mnk in $MNKS; do
        gate_row "$name" "$dir" "${mnk//,/_}" "$mnk" "${mnk##*,}" "$want_verdict" "$want_check" "$want_code" \
            --mnk "$mnk" --min-speedup -1
    done
done

echo
if [ "$args_note" -eq 1 ]; then
    echo "(* the row's own gate arguments, expected.tsv's gate_args, in place of HB_GATE_MNK and --min-speedup -1:"
    for name in "${names[@]}"; do
        [ -n "${gate_args[$name]+x}" ] && echo "   $name: ${gate_args[$name]}"
    done
    echo ")"
fi
if [ "$signed_note" -eq 1 ]; then
    echo "(exact-signed runs only when K <= 2048: with a larger K those rows expect deviation)"
fi
echo "broken-set: $matched of $rows as expected"
[ "$matched" -eq "$rows" ]
