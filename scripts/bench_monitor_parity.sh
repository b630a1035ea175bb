#!/usr/bin/env bash
# Whether the always-on call monitor (docs/trace.md) costs every participant the
# same (docs/methodology.md, "The monitor's cost per participant"; how to run it:
# docs/performance.md).  One kernel, candidates/sample_mma's, is timed in three
# forms: as a cubin (the harness launches it), through a launcher that launches
# it (candidates/sample_mma_launcher, --form launcher: its host code runs) and
# as that launcher's replay (--form replay: the harness issues its recorded
# launch), each beside the seven baselines (torch, cuBLAS NN/TN, cuBLASLt
# heuristic and autotune NN/TN), with the monitor on (the default) and off
# (--no-trace: no CUPTI in the evaluating process), at every size of SIZES, in
# blocks that alternate between the two states, R repeats.  Each run is a
# plain `hgemm-bench run` with short windows; its summary.csv gives every
# participant's event and wall medians.  It prints, per size:
#   - each participant's on - off (us): the median over the repeats and their
#     min..max, with the off median and the kernels per call for scale;
#   - per form, the bias the monitor puts on the headline speedup over each
#     baseline: (candidate's on - off) - (baseline's on - off), both from the
#     same two runs, the median over the repeats and their min..max, flagged
#     `beyond` when the whole min..max lies on one side of 0 (beyond the
#     repeats' noise); and the change of the headline speedup itself (on -
#     off, percentage points);
#   - a line for the candidate's three forms: cubin vs launcher vs replay;
#   - with jq, the API calls the monitor logged per call (each one a callback
#     on the monitor's full path) and the copies and sets per call, read from
#     the monitor's trace.json.
# A flag is a lead, not a verdict: a cell with no bias flags with the chance
# 2^(1-R) (6 % at R = 5), and the report says how many flags chance alone
# would give; a real bias flags at every size or form alike and persists with
# a larger R (R=8 SIZES=<size> FORMS=<form> to confirm one).
# A benchmark, not a test: `make test` never runs it and it asserts nothing.
# It exits 0 unless the harness fails (an exit of 1, 2, 5 or 7, or a run
# with no summary.csv or no candidate times).
#
# usage: scripts/bench_monitor_parity.sh [OUT [extra hgemm-bench run flags...]]
#        scripts/bench_monitor_parity.sh --tables-only OUT   (the tables again, from OUT's runs; no GPU)
# OUT (default results/monitor-parity-<UTC time>) holds everything, for tar:
#   env.txt, runs/<form>/<on|off>/r<N>/ (each run's --out, with run.log),
#   autotune.tsv (the autotune cache every run shares, so on and off run the
#   same algorithms), medians.tsv, report.txt (what is printed).
# environment: HB_BENCH (build/hgemm-bench; the candidates are taken from its
#   folder), R (5), SIZES ("64 256 1024 4096", cubes), FORMS ("cubin launcher
#   replay"), WARMUP_S (0.3), TIME_S (0.6), BUDGET_S (280: no repeat after the
#   second starts once the script, at the repeats' mean pace, would pass it),
#   CUDA_VISIBLE_DEVICES to pick the GPU.
# Time: a run per form and state per repeat, each SIZES configurations of
# 0.5 to 1.5 s of set-up and checks plus the windows (estimated, not measured):
# 35 to 60 s per repeat at the defaults; the budget ends the script within about
# 5 minutes (4 repeats where a repeat takes over about 50 s), and the report
# says how many repeats ran.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
me=bench_monitor_parity.sh

tables_only=0
if [ "${1:-}" = --tables-only ]; then
    tables_only=1
    [ $# -eq 2 ] || { echo "usage: $me --tables-only OUT" >&2; exit 2; }
    out=$2
    [ -d "$out/runs" ] || { echo "$me: $out/runs does not exist: not this script's output folder" >&2; exit 2; }
    shift 2
else
    out=${1:-results/monitor-parity-$(date -u +%Y%m%dT%H%M%SZ)}
    [ $# -gt 0 ] && shift
fi
bench=${HB_BENCH:-build/hgemm-bench}
repeats=${R:-5}
sizes=${SIZES:-"64 256 1024 4096"}
forms=${FORMS:-"cubin launcher replay"}
warmup=${WARMUP_S:-0.3}
timed=${TIME_S:-0.6}
budget=${BUDGET_S:-280}
candidates=$(dirname "$bench")/candidates
data="$out/medians.tsv"

count_re='^[1-9][0-9]*$'
[[ "$repeats" =~ $count_re ]] || { echo "$me: R must be a count, got '$repeats'" >&2; exit 2; }
[[ "$budget" =~ $count_re ]] || { echo "$me: BUDGET_S must be whole seconds, got '$budget'" >&2; exit 2; }
for f in $forms; do
    case $f in cubin | launcher | replay) ;; *) echo "$me: FORMS: '$f' is not cubin, launcher or replay" >&2; exit 2 ;; esac
done
for s in $sizes; do
    [[ "$s" =~ $count_re ]] || { echo "$me: SIZES: '$s' is not a dimension" >&2; exit 2; }
done

# The manifest and the --form of one form of the candidate.
form_flags() {
    case $1 in
    cubin) echo "$candidates/sample_mma/manifest.json" ;;
    launcher) echo "$candidates/sample_mma_launcher/manifest.json --form launcher" ;;
    replay) echo "$candidates/sample_mma_launcher/manifest.json --form replay" ;;
    esac
}

# One run's summary.csv as medians.tsv lines: form state repeat m participant role event wall
# kernels_per_call speedup_event speedup_wall trace_note form_done; columns found by name (a quoted cell may
# hold commas), a missing column or an empty cell as "-", the participant "candidate" for the candidate's row.
extract() {
    awk -v form="$1" -v state="$2" -v rep="$3" "$(cat "$here/csv_fields.awk")"'
        function cell(name,    v) {
            if (!(name in at)) return "-"
            v = f[at[name]]
            if (substr(v, 1, 1) == "'"'"'" && substr(v, 2, 1) ~ /^[-=+@\t\r\n'"'"']$/) v = substr(v, 2) # the CSV-injection guard (docs/results.md)
            gsub(/[\t ]+/, "_", v)
            return v == "" ? "-" : v
        }
        NR == 1 {
            columns = split_csv($0, h)
            for (i = 1; i <= columns; i++) at[h[i]] = i
            split("m participant role event_median_us wall_median_us", need, " ")
            for (i in need) if (!(need[i] in at)) { print "no column " need[i] > "/dev/stderr"; exit 3 }
            next
        }
        split_csv($0, f) == columns && (cell("role") == "candidate" || cell("role") == "baseline") {
            name = cell("role") == "candidate" ? "candidate" : cell("participant")
            printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", form, state, rep, cell("m"), name,
                   cell("role"), cell("event_median_us"), cell("wall_median_us"), cell("kernels_per_call"),
                   cell("speedup_geomean_event"), cell("speedup_geomean_wall"), cell("trace_note"), cell("form")
        }' "$4"
}

# What the monitor logged per call in the on runs' trace.json (jq): per form, size and participant, the API
# calls (each a callback on the monitor's full path: the participant's own calls of the watched classes) and
# the copies and sets per call, over the kept calls after the first.
trace_counts() {
    command -v jq >/dev/null 2>&1 || { echo "(no jq: the trace.json counts are left out)"; return 0; }
    local f file size form_dir
    for form_dir in "$out"/runs/*/; do
        f=$(basename "$form_dir")
        [ "$f" = prime ] && continue
        for file in "$form_dir"on/r*/*/trace/*.json; do
            [ -f "$file" ] || continue
            size=$(basename "$file"); size=${size%%_*}
            jq -r --arg form "$f" --arg m "$size" '.participants[] | select((.calls | length) > 1) |
                [$form, $m, .name, (.calls | length) - 1,
                 ([.calls[1:][] | (.api_calls | length) + .api_calls_dropped] | add),
                 ([.calls[1:][] | (.copies | length) + .copies_dropped] | add)] | @tsv' "$file" 2>/dev/null || true
        done
    done | sort -t "$(printf '\t')" -s -k1,1 -k2,2n | awk -F'\t' '
        { k = $1 SUBSEP $2 SUBSEP $3; if (!(k in calls)) order[++n] = k; calls[k] += $4; api[k] += $5; copies[k] += $6 }
        END {
            if (!n) { print "(no trace.json in the on runs)"; exit }
            printf "%-8s %6s %-26s %10s %14s %14s\n", "form", "M=N=K", "participant", "calls", "API calls/call", "copies/call"
            for (i = 1; i <= n; i++) {
                split(order[i], p, SUBSEP)
                printf "%-8s %6s %-26s %10d %14.2f %14.2f\n", p[1], p[2], p[3], calls[order[i]],
                       api[order[i]] / calls[order[i]], copies[order[i]] / calls[order[i]]
            }
        }'
}

# The tables, from medians.tsv.
tables() {
    awk -F'\t' '
        function num(x) { return x != "-" && x != "" && x != "nan" && x != "inf" && x != "-inf" }
        function sort(a, n,    i, j, t) { for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t } }
        # "median [min..max]" of v[1..n], and into stat[]: the median, the min, the max, n.
        function summary(v, n,    med) {
            stat["n"] = n
            if (n == 0) { stat["med"] = ""; return "-" }
            sort(v, n)
            med = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
            stat["med"] = med; stat["min"] = v[1]; stat["max"] = v[n]
            return sprintf("%+.2f [%+.2f..%+.2f]", med, v[1], v[n])
        }
        # The flag: 0 outside the repeats min..max (every repeat on one side), with 3 repeats or more.  A cell
        # with no bias flags so with the chance of R fair coins all alike, 2^(1-R).
        function flag() {
            cells++
            if (stat["n"] < 3) return ""
            if (stat["min"] > 0 || stat["max"] < 0) { flagged++; return " beyond" }
            return ""
        }
        function clear(v,    k) { for (k in v) delete v[k] }
        {
            f = $1; s = $2; r = $3; m = $4; p = $5
            if (!(m in size_seen)) { size_seen[m] = 1; size_list[++n_sizes] = m }
            if (p != "candidate" && !(p in base_seen)) { base_seen[p] = 1; bases[++n_bases] = p }
            if (!(r in rep_seen)) { rep_seen[r] = 1; reps[++n_reps] = r }
            if (!(f in form_seen)) { form_seen[f] = 1; form_list[++n_forms] = f; has_cubin += (f == "cubin") }
            k = f SUBSEP s SUBSEP r SUBSEP m SUBSEP p
            ev[k] = $7; wa[k] = $8; kpc[k] = $9; sp_ev[k] = $10; sp_wa[k] = $11
            if (p == "candidate") {
                note[f SUBSEP s] = $12
                if (f == "replay" && $13 != "replay" && $13 != "-") not_replayed[r SUBSEP m SUBSEP s] = $13
            }
        }
        # on - off of field arr for (form, repeat, size, participant), or "" when either is missing.
        function diff(arr, f, r, m, p,    a, b) {
            a = arr[f SUBSEP "on" SUBSEP r SUBSEP m SUBSEP p]; b = arr[f SUBSEP "off" SUBSEP r SUBSEP m SUBSEP p]
            return num(a) && num(b) ? a - b : ""
        }
        # The median over every run of a state of one field, for scale.
        function level(arr, fl, state, m, p,    i, j, n, v, x) {
            n = 0
            for (i = 1; i <= n_forms; i++) {
                if (fl != "" && form_list[i] != fl) continue
                for (j = 1; j <= n_reps; j++) {
                    x = arr[form_list[i] SUBSEP state SUBSEP reps[j] SUBSEP m SUBSEP p]
                    if (num(x)) v[++n] = x + 0
                }
            }
            summary(v, n)
            return stat["med"] == "" ? "-" : sprintf("%.2f", stat["med"])
        }
        # The on - off cell of a participant: one form (fl), or every form pooled (fl == "").
        function cost(arr, fl, m, p,    i, j, n, v, d) {
            n = 0
            for (i = 1; i <= n_forms; i++) {
                if (fl != "" && form_list[i] != fl) continue
                for (j = 1; j <= n_reps; j++) { d = diff(arr, form_list[i], reps[j], m, p); if (d != "") v[++n] = d }
            }
            return summary(v, n)
        }
        # The bias on the headline over baseline b in form fl: per repeat (cand on-off) - (b on-off).
        function bias(arr, fl, m, b,    j, n, v, c, d) {
            n = 0
            for (j = 1; j <= n_reps; j++) {
                c = diff(arr, fl, reps[j], m, "candidate"); d = diff(arr, fl, reps[j], m, b)
                if (c != "" && d != "") v[++n] = c - d
            }
            return summary(v, n)
        }
        # The headline speedup on - off, percentage points.
        function speedup_change(arr, fl, m, b,    j, n, v, d) {
            n = 0
            for (j = 1; j <= n_reps; j++) { d = diff(arr, fl, reps[j], m, b); if (d != "") v[++n] = 100 * d }
            return summary(v, n)
        }
        # The candidate on - off of a form minus that of the cubin form, per repeat.
        function form_gap(fl, m,    j, n, v, a, c) {
            n = 0
            for (j = 1; j <= n_reps; j++) {
                a = diff(ev, fl, reps[j], m, "candidate"); c = diff(ev, "cubin", reps[j], m, "candidate")
                if (a != "" && c != "") v[++n] = a - c
            }
            return summary(v, n)
        }
        END {
            printf "repeats: %d; every time in us per call; a cell is the median over the repeats [min..max]\n", n_reps
            for (i = 1; i <= n_forms; i++) {
                if ((form_list[i] SUBSEP "on") in note && note[form_list[i] SUBSEP "on"] != "-")
                    printf "WARNING: %s runs with the monitor on say trace_note \"%s\": the monitor did not run whole\n",
                           form_list[i], note[form_list[i] SUBSEP "on"]
                if ((form_list[i] SUBSEP "off") in note && note[form_list[i] SUBSEP "off"] != "--no-trace")
                    printf "WARNING: %s runs with --no-trace say trace_note \"%s\", not --no-trace\n",
                           form_list[i], note[form_list[i] SUBSEP "off"]
            }
            for (k in not_replayed) {
                split(k, q, SUBSEP)
                printf "WARNING: the replay form ran as \"%s\" (repeat %s, %s^3, monitor %s): see the run'"'"'s replay_reason\n",
                       not_replayed[k], q[1], q[2], q[3]
            }
            for (si = 1; si <= n_sizes; si++) {
                m = size_list[si]
                printf "\n== %s^3: the monitor'"'"'s cost, on - off\n", m
                printf "%-26s %-9s %9s %9s %5s  %-28s %-28s\n", "participant", "form", "event off", "wall off",
                       "k/cl", "event on - off", "wall on - off"
                for (i = 1; i <= n_forms; i++) {
                    fl = form_list[i]
                    printf "%-26s %-9s %9s %9s %5s  %-28s %-28s\n", "candidate", fl, level(ev, fl, "off", m, "candidate"),
                           level(wa, fl, "off", m, "candidate"), level(kpc, fl, "on", m, "candidate"),
                           cost(ev, fl, m, "candidate"), cost(wa, fl, m, "candidate")
                }
                for (b = 1; b <= n_bases; b++)
                    printf "%-26s %-9s %9s %9s %5s  %-28s %-28s\n", bases[b], "(all)", level(ev, "", "off", m, bases[b]),
                           level(wa, "", "off", m, bases[b]), level(kpc, "", "on", m, bases[b]), cost(ev, "", m, bases[b]),
                           cost(wa, "", m, bases[b])
                for (i = 1; i <= n_forms; i++) {
                    fl = form_list[i]
                    printf "\n-- %s^3, %s form: bias on the headline over each baseline, (candidate on-off) - (baseline on-off)\n", m, fl
                    printf "%-26s %-36s %-36s %-28s %-28s\n", "baseline", "event bias", "wall bias",
                           "speedup_event on-off (pp)", "speedup_wall on-off (pp)"
                    for (b = 1; b <= n_bases; b++) {
                        e = bias(ev, fl, m, bases[b]); e = e flag()
                        w = bias(wa, fl, m, bases[b]); w = w flag()
                        printf "%-26s %-36s %-36s %-28s %-28s\n", bases[b], e, w, speedup_change(sp_ev, fl, m, bases[b]),
                               speedup_change(sp_wa, fl, m, bases[b])
                    }
                }
                line = sprintf("forms at %s^3, candidate event on - off:", m)
                for (i = 1; i <= n_forms; i++) line = line sprintf(" %s %s;", form_list[i], cost(ev, form_list[i], m, "candidate"))
                for (i = 1; i <= n_forms; i++)
                    if (form_list[i] != "cubin" && has_cubin)
                        line = line sprintf(" %s - cubin %s;", form_list[i], form_gap(form_list[i], m))
                printf "\n%s\n", line
            }
            chance = n_reps >= 3 ? 2 ^ (1 - n_reps) : 0
            if (n_reps < 3)
                printf "\nbias cells beyond noise: none judged (%d repeats; the rule needs 3: read the ranges)\n", n_reps
            else
                printf "\nbias cells beyond noise (every repeat on one side of 0): %d of %d; with no bias at all, about %.1f by chance (2^(1-R) each, R = %d)\n",
                       flagged, cells, cells * chance, n_reps
        }' "$data"
}

if [ "$tables_only" -eq 1 ]; then
    [ -f "$data" ] || { echo "$me: $data is missing" >&2; exit 2; }
    { tables; echo; echo "== API calls and copies the monitor logged per call (trace.json of the on runs)"; trace_counts; } \
        | tee "$out/report.txt"
    exit 0
fi

[ -x "$bench" ] || { echo "$me: $bench is not built (make)" >&2; exit 2; }
for f in $forms; do
    manifest=$(form_flags "$f"); manifest=${manifest%% *}
    [ -f "$manifest" ] || { echo "$me: $manifest is missing (make builds it)" >&2; exit 2; }
done
mkdir -p "$out/runs"
: > "$data"
mnk=()
for s in $sizes; do mnk+=(--mnk "$s,$s,$s"); done
# The least checking that still runs the battery once; no clean process for the baselines (a reference is
# no part of what is measured here).
common=(--exact-reps 1 --spot-checks 1 --baseline-reference off --autotune-cache "$out/autotune.tsv" --no-progress)
{
    echo "command: $0 $out $*"
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "harness: $("$bench" --version 2>&1 | head -n 1)"
    echo "commit: $(git -C "$(dirname "$0")" rev-parse HEAD 2>/dev/null || echo unknown)"
    echo "R=$repeats SIZES=\"$sizes\" FORMS=\"$forms\" WARMUP_S=$warmup TIME_S=$timed BUDGET_S=$budget"
    if command -v nvidia-smi >/dev/null 2>&1; then
        nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null || true
    fi
} > "$out/env.txt"
cat "$out/env.txt" >&2

# One `hgemm-bench run` into $out/runs/FORM/STATE/rREPEAT, its rows appended to medians.tsv.  The harness's
# own failures (exit 1, 2, 5, 7) stop the script; a verdict's exit (3, 4, 6, 8, ...) is noted and its rows kept.
one_run() {
    local form=$1 state=$2 rep=$3 dir="$out/runs/$1/$2/r$3" rc=0
    local -a who trace=()
    read -r -a who <<< "$(form_flags "$form")"
    [ "$state" = off ] && trace=(--no-trace)
    mkdir -p "$dir"
    # The same seed for both states of a repeat: the same inputs and round orders, so only the monitor differs.
    "$bench" run --candidate "${who[@]}" "${mnk[@]}" --warmup-s "$warmup" --time-s "$timed" "${common[@]}" "${trace[@]}" --seed "$((1000 + rep))" \
        --out "$dir" "${extra[@]}" > "$dir/run.log" 2>&1 || rc=$?
    case $rc in
    0) ;;
    1 | 2 | 5 | 7) echo "$me: the harness failed (exit $rc) in $form/$state/r$rep, see $dir/run.log" >&2; exit 1 ;;
    *) echo "$me: note: $form/$state/r$rep exited $rc (a verdict; see $dir/run.log)" >&2 ;;
    esac
    local summary="" file
    for file in "$dir"/*/summary.csv; do [ -f "$file" ] && summary=$file; done
    [ -n "$summary" ] || { echo "$me: $form/$state/r$rep wrote no summary.csv (exit $rc), see $dir/run.log" >&2; exit 1; }
    extract "$form" "$state" "$rep" "$summary" >> "$data"
    awk -F'\t' -v f="$form" -v s="$state" -v r="$rep" '$1 == f && $2 == s && $3 == r && $5 == "candidate" && $7 != "-" { n++ }
        END { exit n > 0 ? 0 : 1 }' "$data" \
        || { echo "$me: $form/$state/r$rep has no candidate times, see $dir/run.log" >&2; exit 1; }
}
extra=("$@")

# The autotune search once, before anything is timed, so that every timed run reads the same choices (and
# the GPU is warm): a run of the cubin with no warm-up and the least timed window (10 rounds).
began=$(date +%s)
echo "$me: priming the autotune cache ($out/autotune.tsv)" >&2
mkdir -p "$out/runs/prime"
"$bench" run --candidate "$candidates/sample_mma/manifest.json" "${mnk[@]}" --warmup-s 0 --time-s 0 \
    "${common[@]}" --out "$out/runs/prime" "${extra[@]}" > "$out/runs/prime/run.log" 2>&1 \
    || { rc=$?; case $rc in 1 | 2 | 5 | 7) echo "$me: priming failed (exit $rc), see $out/runs/prime/run.log" >&2; exit 1 ;; esac; }

start=$(date +%s)
done_reps=0
for rep in $(seq 1 "$repeats"); do
    now=$(date +%s)
    if [ "$done_reps" -ge 2 ] && [ $(( now - began + (now - start) / done_reps )) -gt "$budget" ]; then
        echo "$me: stopping after $done_reps repeats: another would pass BUDGET_S=$budget s" >&2
        break
    fi
    # Blocks alternate on, off, on, off ...; the state that goes first alternates with the repeat, so that a
    # drift over the repeat falls on both states alike.
    if [ $((rep % 2)) -eq 1 ]; then order="on off"; else order="off on"; fi
    for form in $forms; do
        for state in $order; do one_run "$form" "$state" "$rep"; done
    done
    done_reps=$rep
    echo "$me: repeat $rep of $repeats done ($(( $(date +%s) - start )) s)" >&2
done

{
    echo "# the monitor's cost per participant: sample_mma's kernel as $forms, beside the baselines"
    echo "# $(grep -v '^command' "$out/env.txt" | tr '\n' ' ')"
    [ "$done_reps" -lt "$repeats" ] && echo "# $done_reps of R=$repeats repeats ran (BUDGET_S=$budget)"
    tables
    echo
    echo "== API calls and copies the monitor logged per call (trace.json of the on runs)"
    trace_counts
} | tee "$out/report.txt"
echo "$me: $(( $(date +%s) - began )) s in all; everything in $out (tar it: tar czf monitor-parity.tgz -C $(dirname "$out") $(basename "$out"))" >&2
