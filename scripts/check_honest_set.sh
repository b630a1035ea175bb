#!/usr/bin/env bash
# check_honest_set.sh [BUILD_DIR] -- runs `hgemm-bench check` on every honest
# candidate (candidates/honest/<name>/, built by make into
# BUILD_DIR/candidates/honest/) and on the samples sample_simple and
# sample_mma, over a fixed list of configurations from the paper's grid, and
# checks that none is rejected: each must get the verdict
# candidates/honest/expected.tsv gives it (pass) in every configuration.
# The honest kernels sum in different orders and precisions
# (candidates/honest/README.md), so together they show that the deviation
# rule rejects no correct fp32-class kernel.
#
# One `check` call per kernel, with every configuration's --mnk,
# --deviation-reps, and one --autotune-cache file shared by all calls (in
# the output folder).  Correctness checks do not need an idle GPU, so the
# calls may run side by side (HB_HONEST_JOBS); with more than one job the
# first kernel still runs alone, so that the cuBLASLt autotune searches,
# which are timed, run on an idle GPU and fill the shared cache.
#
# Needs a GPU.  BUILD_DIR defaults to build.  Environment:
#   HB_HONEST_REPS       --deviation-reps: deviation checks per configuration,
#                        each on fresh random-normal inputs (default 3)
#   HB_HONEST_JOBS       check calls run at once (default 1)
#   HB_HONEST_OUT        output folder (default results/honest-set): a run
#                        folder, verdict file and log per kernel, the shared
#                        autotune cache, honest-set.md and honest-set.tsv
#   HB_HONEST_MNK        configurations, space-separated M,N,K, instead of the
#                        built-in list (for a quick run)
#   HB_HONEST_SEED       --seed (default 1: every kernel sees the same inputs)
#   HB_HONEST_TIMEOUT_S  --timeout-s, seconds of silence before a
#                        configuration is killed (default 120)
#   HB_HONEST_EXPECTED   the expected table (default
#                        candidates/honest/expected.tsv next to this script's folder)
#   HB_HONEST_CALL_LIMIT_S  wall-clock limit on one hgemm-bench call, in case
#                        the harness itself hangs (default 7200; 0: no limit)
#
# Prints a markdown table, one row per kernel: configurations, deviation
# checks (the sum of summary.csv's deviation_checks), rejections (candidate
# rows whose verdict is not pass), the worst excess_ratio (excess over
# tolerance: <= 1 passes), the verdict expected and got, the call's wall
# time in seconds, then "honest-set: N checks over C configurations,
# R rejections" (C counts kernel x configuration).  Columns the harness does
# not write yet read "n/a".  The same table goes to OUT/honest-set.md, and
# OUT/honest-set.tsv has one line per kernel and configuration.  Exit status
# 0 only when every kernel's every configuration got its expected verdict,
# 1 otherwise (a missing build, a bad setting, or any mismatch).
set -u

BUILD=${1:-build}
BIN=$BUILD/hgemm-bench
REPS=${HB_HONEST_REPS:-3}
JOBS=${HB_HONEST_JOBS:-1}
OUT=${HB_HONEST_OUT:-results/honest-set}
SEED=${HB_HONEST_SEED:-1}
TIMEOUT_S=${HB_HONEST_TIMEOUT_S:-120}
EXPECTED=${HB_HONEST_EXPECTED:-$(dirname "$0")/../candidates/honest/expected.tsv}
CALL_LIMIT_S=${HB_HONEST_CALL_LIMIT_S:-7200}

# The configurations: 57 (M,N,K) from the paper's grid values {64, 128, 256,
# 512, 1024, 2048, 4096, 8192, 12288, 16384}, each with M*N*K <= 2^36 (a
# one-thread-per-output kernel such as sample_simple stays near 0.1 s a
# call).  Square ones, ten with K = 16384, the thinnest shapes the grid
# allows, and mixed shapes spread over the rest.
DEFAULT_MNK="
64,64,64 128,128,128 256,256,256 512,512,512 1024,1024,1024 2048,2048,2048 4096,4096,4096
64,64,16384 64,16384,16384 16384,64,16384 256,256,16384 1024,1024,16384 2048,2048,16384
128,4096,16384 4096,512,16384 512,8192,16384 12288,256,16384
64,16384,64 16384,64,64 16384,16384,64 16384,16384,128 16384,16384,256 64,64,12288
64,8192,8192 8192,64,8192 12288,64,12288 16384,128,2048 128,16384,4096 12288,12288,256
16384,8192,512 8192,8192,1024
64,128,256 128,64,1024 128,256,512 512,128,64 1024,64,2048 256,2048,128 2048,512,1024
4096,1024,256 256,1024,4096 64,2048,1024 8192,256,64 512,64,8192 1024,4096,2048
8192,2048,1024 4096,4096,2048 2048,4096,8192 8192,4096,2048 1024,1024,8192 512,512,12288
4096,12288,1024 12288,4096,512 128,12288,12288 1024,12288,2048 12288,1024,4096
256,16384,8192 16384,256,8192
"
MNKS=${HB_HONEST_MNK:-$DEFAULT_MNK}

die() {
    echo "check_honest_set.sh: $*" >&2
    exit 1
}

[ -x "$BIN" ] || die "no $BIN (build it with make)"
[ -r "$EXPECTED" ] || die "no expected table at $EXPECTED"
[[ $REPS =~ ^[1-9][0-9]*$ ]] || die "HB_HONEST_REPS: \"$REPS\" is not a positive whole number"
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || die "HB_HONEST_JOBS: \"$JOBS\" is not a positive whole number"
[[ $SEED =~ ^[0-9]+$ ]] || die "HB_HONEST_SEED: \"$SEED\" is not a whole number"
[[ $CALL_LIMIT_S =~ ^[0-9]+$ ]] || die "HB_HONEST_CALL_LIMIT_S: \"$CALL_LIMIT_S\" is not a whole number of seconds"
command -v python3 >/dev/null || die "python3 is needed to read the results"
mnk_flags=()
for mnk in $MNKS; do
    [[ $mnk =~ ^[0-9]+,[0-9]+,[0-9]+$ ]] || die "HB_HONEST_MNK: \"$mnk\" is not M,N,K"
    mnk_flags+=(--mnk "$mnk")
done
[ "${#mnk_flags[@]}" -gt 0 ] || die "no configurations"
mkdir -p "$OUT" || die "cannot create $OUT"
# A harness from before --deviation-reps still runs, with its one deviation
# check per configuration, so that the script can be tried before it lands.
if "$BIN" check --help 2>/dev/null | grep -q -e '--deviation-reps'; then
    reps_flags=(--deviation-reps "$REPS")
else
    echo "check_honest_set.sh: $BIN check has no --deviation-reps: one deviation check per configuration" >&2
    reps_flags=()
fi

# name -> expected verdict, from the expected table.
declare -A expected=()
line_no=0
while IFS=$'\t' read -r name verdict _rest || [ -n "$name" ]; do
    line_no=$((line_no + 1))
    [ "$line_no" -eq 1 ] && continue # header
    [ -z "$name" ] && continue
    [[ $name == \#* ]] && continue
    [ -n "$verdict" ] || die "$EXPECTED line $line_no: want name and verdict separated by a tab"
    expected[$name]=$verdict
done <"$EXPECTED"

# Kernels: every built honest one, the two samples, then any in the table
# that was not built (each of those is a failed row).
names=()
dirs=()
declare -A listed=()
for dir in "$BUILD"/candidates/honest/*/; do
    [ -d "$dir" ] || continue
    name=$(basename "$dir")
    listed[$name]=1
    names+=("$name")
    dirs+=("${dir%/}")
done
for name in sample_simple sample_mma; do
    listed[$name]=1
    names+=("$name")
    dirs+=("$BUILD/candidates/$name")
done
while IFS= read -r name; do
    [ -n "$name" ] || continue
    if [ -z "${listed[$name]+x}" ]; then
        names+=("$name")
        dirs+=("$BUILD/candidates/honest/$name")
    fi
done < <(printf '%s\n' "${!expected[@]}" | sort)

if [ "$CALL_LIMIT_S" -gt 0 ] && command -v timeout >/dev/null; then
    limit=(timeout -k 10 "$CALL_LIMIT_S")
else
    limit=()
fi

# One kernel's check call; its exit status goes to OUT/<name>/rc (-1: not
# built), its verdict file to OUT/<name>/verdict.json.
check_one() {
    local name=$1 dir=$2 folder=$OUT/$1
    rm -rf "$folder"
    mkdir -p "$folder" || {
        echo "check_honest_set.sh: cannot create $folder" >&2
        return
    }
    if [ ! -d "$dir" ]; then
        echo "check_honest_set.sh: $dir was not built" >"$folder/check.log"
        echo -1 >"$folder/rc"
        return
    fi
    local start rc
    start=$(date +%s.%N)
    "${limit[@]}" "$BIN" check --candidate "$dir" "${mnk_flags[@]}" "${reps_flags[@]}" \
        --autotune-cache "$OUT/autotune-cache.tsv" --timeout-s "$TIMEOUT_S" --seed "$SEED" --no-progress \
        --out "$folder" --verdict "$folder/verdict.json" >"$folder/check.log" 2>&1
    rc=$?
    echo "$rc" >"$folder/rc"
    awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f\n", b - a }' >"$folder/seconds"
}

echo "check_honest_set.sh: ${#names[@]} kernels x $((${#mnk_flags[@]} / 2)) configurations," \
    "${reps_flags[1]:-1} deviation checks each, $JOBS at a time; results in $OUT" >&2
running=0
for i in "${!names[@]}"; do
    check_one "${names[$i]}" "${dirs[$i]}" &
    running=$((running + 1))
    # The first runs alone: its autotune searches then time an idle GPU.
    if [ "$i" -eq 0 ] || [ "$running" -ge "$JOBS" ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait

# Reads each kernel's verdict file and summary.csv (columns by name), prints
# the table and writes honest-set.md and honest-set.tsv; exit 0 only when
# every kernel matched.  Arguments: OUT, then name<TAB>expected per kernel.
summarize() {
    python3 - "$@" <<'PY'
import csv, json, math, os, sys

out = sys.argv[1]
kernels = [arg.split("\t", 1) for arg in sys.argv[2:]]
NA = "n/a"

def clean(text):
    return " ".join(str(text).replace("|", "/").split())

def read_text(path, default=""):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return default

def number(text):
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None

def candidate_rows(summary_path):
    """The candidate's rows of one summary.csv, each a dict by column name."""
    with open(summary_path, newline="") as f:
        reader = csv.DictReader(f)
        columns = reader.fieldnames or []
        for needed in ("m", "n", "k", "role", "verdict"):
            if needed not in columns:
                raise ValueError("summary.csv has no column '%s'" % needed)
        return columns, [row for row in reader if row.get("role") == "candidate"]

def run_of(name):
    """(verdict, rows, columns, problem) of one kernel's check call."""
    folder = os.path.join(out, name)
    rc = read_text(os.path.join(folder, "rc"), "?")
    if rc == "-1":
        return "(not built)", [], [], "not built"
    log = os.path.join(folder, "check.log")
    verdict_path = os.path.join(folder, "verdict.json")
    if not os.path.exists(verdict_path):
        last = read_text(log).splitlines()[-1:] or ["(empty)"]
        return "(no verdict file, exit %s)" % rc, [], [], "%s says: %s" % (log, clean(last[0]))
    try:
        with open(verdict_path) as f:
            verdict = json.load(f)
        summary = os.path.join(verdict["results_dir"], "summary.csv")
        columns, rows = candidate_rows(summary)
    except Exception as e:
        return "(no results, exit %s)" % rc, [], [], "%s: %s" % (type(e).__name__, clean(e))
    got = verdict.get("verdict", "?")
    if str(verdict.get("exit_code")) != rc:
        got = "%s (rc %s)" % (got, rc)
    return got, rows, columns, ""

def cell(row, columns, name):
    """A TSV cell: "n/a" when summary.csv has no such column, "-" when empty."""
    if name not in columns:
        return NA
    value = clean(row.get(name) or "").replace("\t", " ")
    return value if value else "-"

table = ["| kernel | configurations | deviation checks | rejections | worst excess_ratio | expected | got | seconds | ok |",
         "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
tsv = ["\t".join(["kernel", "m", "n", "k", "verdict", "check", "deviation_checks", "excess_ratio", "paper_rule",
                  "max_abs_dev", "dev_bound"])]
want_configs = int(os.environ.get("HB_HONEST_CONFIGS", "0"))
total_checks, checks_known, total_configs, total_rejections, all_ok = 0, False, 0, 0, True
problems = []
for name, want in kernels:
    got, rows, columns, problem = run_of(name)
    if problem:
        problems.append("%s: %s" % (name, problem))
    checks = [number(row.get("deviation_checks")) for row in rows] if "deviation_checks" in columns else []
    ratios = [number(row.get("excess_ratio")) for row in rows] if "excess_ratio" in columns else []
    ratios = [r for r in ratios if r is not None]
    rejections = sum(1 for row in rows if row.get("verdict") != "pass")
    mismatches = sum(1 for row in rows if row.get("verdict") != want)
    ok = bool(rows) and mismatches == 0 and len(rows) == want_configs and got == want
    all_ok = all_ok and ok
    known = [c for c in checks if c is not None]
    if known:
        checks_known = True
        total_checks += int(sum(known))
    total_configs += len(rows)
    total_rejections += rejections
    table.append("| %s | %d | %s | %d | %s | %s | %s | %s | %s |" % (
        name, len(rows), "%d" % sum(known) if known else NA, rejections,
        "%.3f" % max(ratios) if ratios else NA, want, clean(got),
        read_text(os.path.join(out, name, "seconds"), "-"), "yes" if ok else "no"))
    for row in rows:
        tsv.append("\t".join([name] + [cell(row, columns, c) for c in (
            "m", "n", "k", "verdict", "check", "deviation_checks", "excess_ratio", "paper_rule", "max_abs_dev",
            "dev_bound")]))

total = "honest-set: %s checks over %d configurations, %d rejections" % (
    total_checks if checks_known else NA, total_configs, total_rejections)
text = "\n".join(table) + "\n\n" + total + "\n"
if problems:
    text += "\n" + "\n".join("(%s)" % p for p in problems) + "\n"
print(text, end="")
with open(os.path.join(out, "honest-set.md"), "w") as f:
    f.write(text)
with open(os.path.join(out, "honest-set.tsv"), "w") as f:
    f.write("\n".join(tsv) + "\n")
sys.exit(0 if all_ok else 1)
PY
}

args=()
for name in "${names[@]}"; do
    args+=("$name"$'\t'"${expected[$name]:-(not in expected.tsv)}")
done
HB_HONEST_CONFIGS=$((${#mnk_flags[@]} / 2)) summarize "$OUT" "${args[@]}"
