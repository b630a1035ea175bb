#!/usr/bin/env bash
# A/A calibration of the harness (docs/methodology.md): a second instance of
# one baseline timed as the candidate, offline and in server mode, over
# configurations from 64^3 to 8192^3.  The headline must come out 0 within
# its CI; the paper's estimator is printed beside it.
# usage: scripts/aa_calibration.sh [extra hgemm-bench flags...]
# environment: HB_BENCH (build/hgemm-bench), AA (cublas-nn), OUT (results/aa),
#   WARMUP_S (10), TIME_S (30), SERVER_TIME_S (TIME_S), CONFIGS (10 sizes below)
set -euo pipefail
bench=${HB_BENCH:-build/hgemm-bench}
aa=${AA:-cublas-nn}
out=${OUT:-results/aa}
warmup=${WARMUP_S:-10}
timed=${TIME_S:-30}
server_timed=${SERVER_TIME_S:-$timed}
configs=${CONFIGS:-"64,64,64 128,128,128 256,256,256 512,512,512 768,768,768 1024,1024,1024 2048,2048,2048 3072,3072,3072 4096,4096,4096 8192,8192,8192"}
here=$(cd "$(dirname "$0")" && pwd)
mnk=()
for c in $configs; do mnk+=(--mnk "$c"); done
mkdir -p "$out"
for mode in offline server; do
    window=$timed
    [ "$mode" = server ] && window=$server_timed
    "$bench" run --aa "$aa" "${mnk[@]}" --mode "$mode" --warmup-s "$warmup" --time-s "$window" --out "$out/$mode" \
        --no-progress "$@" > "$out/$mode.log" 2>&1 || { echo "aa_calibration.sh: $mode run failed, see $out/$mode.log" >&2; exit 1; }
    run_dir=$(ls -d "$out/$mode"/*/ | tail -n 1)
    echo "== A/A $aa, $mode mode ($run_dir)"
    "$here/speedup_table.sh" "$run_dir/summary.csv" "$aa"
done
