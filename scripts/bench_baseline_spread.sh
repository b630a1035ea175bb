#!/usr/bin/env bash
# The process-to-process spread that --baseline-tolerance must allow
# (docs/methodology.md, "Baselines held to a clean process"), measured on one
# GPU: N runs in a row of an honest candidate (A/A: --aa torch, or CANDIDATE),
# each with a fresh clean process per configuration (--baseline-reference
# fresh: no cache) followed by the candidate's process.  For every size, mode
# and baseline it prints each process's event, wall and kernel-only medians
# over the FIRST clean process's: the clean processes 2..N show the spread
# from one clean process to the next, the candidate's processes 1..N the
# spread an honest candidate's process adds.  Then, per timer, the largest
# |ratio - 1| over the baselines, which is what the tolerance must exceed.
# The runs hold the baselines to a tolerance nothing reaches (1000 % + 1 s),
# so that every figure is recorded whatever the spread.
#
# usage: scripts/bench_baseline_spread.sh [extra hgemm-bench flags...]
# environment: HB_BENCH (build/hgemm-bench), N (5), SIZES ("64 1024 4096", cubes),
#   MODES ("offline server"), WARMUP_S (0.3), TIME_S (1), CANDIDATE (a manifest or
#   set; unset: --aa torch), OUT (a fresh temporary folder, kept)
# About 3 to 4 minutes on one H100 with the defaults (N runs x 2 modes x 3 sizes,
# each a clean process and an evaluation of 1.3 s windows plus set-up).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bench=${HB_BENCH:-build/hgemm-bench}
runs=${N:-5}
sizes=${SIZES:-"64 1024 4096"}
modes=${MODES:-"offline server"}
warmup=${WARMUP_S:-0.3}
timed=${TIME_S:-1}
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/hb-baseline-spread.XXXXXX")}

[ -x "$bench" ] || { echo "bench_baseline_spread.sh: $bench is not built (make)" >&2; exit 2; }
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "bench_baseline_spread.sh: N must be a count, got '$runs'" >&2; exit 2; }
if [ -n "${CANDIDATE:-}" ]; then
    who=(--candidate "$CANDIDATE")
else
    who=(--aa torch)
fi
mnk=()
for s in $sizes; do mnk+=(--mnk "$s,$s,$s"); done
mkdir -p "$out"
data="$out/medians.tsv"
: > "$data"

# The baselines' rows of a summary.csv as "m participant ref_event ref_wall ref_kernel event wall kernel",
# columns found by name (a quoted cell may hold commas).
extract() {
    awk -v mode="$1" -v run="$2" "$(cat "$here/csv_fields.awk")"'
        NR == 1 {
            columns = split_csv($0, h)
            for (i = 1; i <= columns; i++) at[h[i]] = i
            split("m participant role reference_event_median_us reference_wall_median_us " \
                  "reference_kernel_median_us event_median_us wall_median_us kernel_us", need, " ")
            for (i in need) if (!(need[i] in at)) { print "no column " need[i] > "/dev/stderr"; exit 3 }
            next
        }
        split_csv($0, f) == columns && f[at["role"]] == "baseline" {
            printf "%s\t%s\t%s\t%s", mode, f[at["m"]], f[at["participant"]], run
            n = split("reference_event_median_us reference_wall_median_us reference_kernel_median_us " \
                      "event_median_us wall_median_us kernel_us", want, " ")
            for (i = 1; i <= n; i++) printf "\t%s", (f[at[want[i]]] == "" ? "-" : f[at[want[i]]])
            printf "\n"
        }' "$3"
}

start=$(date +%s)
for mode in $modes; do
    for run in $(seq 1 "$runs"); do
        folder="$out/$mode/$run"
        mkdir -p "$folder"
        set +e
        "$bench" run "${who[@]}" "${mnk[@]}" --mode "$mode" --warmup-s "$warmup" --time-s "$timed" \
            --reference-warmup-s "$warmup" --reference-time-s "$timed" --baseline-reference fresh \
            --baseline-tolerance '1000%+1000000us' --exact-reps 1 --no-progress --out "$folder" "$@" \
            > "$folder/run.log" 2>&1
        rc=$?
        set -e
        run_dir=$(ls -d "$folder"/*/ 2>/dev/null | tail -n 1 || true)
        summary="${run_dir}summary.csv"
        if [ -z "$run_dir" ] || [ ! -f "$summary" ]; then
            echo "bench_baseline_spread.sh: $mode run $run wrote no summary.csv (exit $rc); see $folder/run.log" >&2
            exit 1
        fi
        [ "$rc" -eq 0 ] || echo "bench_baseline_spread.sh: note: $mode run $run exited $rc (see $folder/run.log)" >&2
        extract "$mode" "$run" "$summary" >> "$data"
        echo "bench_baseline_spread.sh: $mode run $run of $runs done ($(( $(date +%s) - start )) s)" >&2
    done
done

# Ratios over the first clean process's medians, per mode, size, baseline and timer.
awk -F'\t' -v runs="$runs" '
    function ratio(x, base) { return (x == "-" || base == "-" || base + 0 <= 0) ? "-" : sprintf("%.4f", x / base) }
    function widen(key, r) { if (r != "-") { d = r - 1; if (d < 0) d = -d; if (d > worst[key]) worst[key] = d } }
    {
        key = $1 SUBSEP $2
        if (!(key in seen)) { seen[key] = 1; order[++groups] = key }
        b = $1 SUBSEP $2 SUBSEP $3
        if (!(b in named)) { named[b] = 1; names[key] = names[key] " " $3 }
        for (t = 0; t < 3; t++) { ref[b, $4, t] = $(5 + t); cand[b, $4, t] = $(8 + t) }
    }
    END {
        split("event wall kernel", timer, " ")
        for (g = 1; g <= groups; g++) {
            split(order[g], mk, SUBSEP)
            printf "\n== %s, %sx%sx%s: medians over the first clean process'"'"'s\n", mk[1], mk[2], mk[2], mk[2]
            printf "%-24s %-6s %10s", "baseline", "timer", "clean1 us"
            for (r = 2; r <= runs; r++) printf " %8s", "clean" r
            printf "  |"
            for (r = 1; r <= runs; r++) printf " %8s", "cand" r
            printf "\n"
            n = split(names[order[g]], list, " ")
            for (i = 1; i <= n; i++) {
                b = order[g] SUBSEP list[i]
                for (t = 0; t < 3; t++) {
                    printf "%-24s %-6s %10s", list[i], timer[t + 1], ref[b, 1, t]
                    for (r = 2; r <= runs; r++) { x = ratio(ref[b, r, t], ref[b, 1, t]); widen(order[g] SUBSEP t SUBSEP "clean", x); printf " %8s", x }
                    printf "  |"
                    for (r = 1; r <= runs; r++) { x = ratio(cand[b, r, t], ref[b, 1, t]); widen(order[g] SUBSEP t SUBSEP "cand", x); printf " %8s", x }
                    printf "\n"
                }
            }
            for (t = 0; t < 3; t++)
                printf "largest |ratio - 1| over the baselines, %-6s: clean processes %.2f %%, candidate'"'"'s processes %.2f %%\n",
                       timer[t + 1], 100 * worst[order[g] SUBSEP t SUBSEP "clean"], 100 * worst[order[g] SUBSEP t SUBSEP "cand"]
        }
    }' "$data"
echo
echo "bench_baseline_spread.sh: $(( $(date +%s) - start )) s; runs, logs and medians.tsv in $out"
