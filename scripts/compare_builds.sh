#!/usr/bin/env bash
# Two builds of the harness on the same GPU, the same commands, one after the
# other: does a change (a refactor, a new check) move the results?  Runs the
# sample candidate against the baselines and an A/A pair (cuBLAS NN against
# itself) with each build, alternating builds so slow drift of the GPU
# touches both alike, then prints each configuration's headline over torch
# (sample) and over cublas-nn (A/A) with its 95 % CI, build by build.  Two
# figures whose CIs overlap are the same within this run's noise.
#
# usage: scripts/compare_builds.sh OLD_BENCH NEW_BENCH OUT_DIR [CANDIDATE]
#   OLD_BENCH, NEW_BENCH  the two hgemm-bench binaries
#   CANDIDATE             default build/candidates/sample_mma
# Windows: HB_COMPARE_WARMUP_S (default 2), HB_COMPARE_TIME_S (default 8);
# sizes: HB_COMPARE_MNK (default "64,64,64 1024,1024,1024 4096,4096,4096").
set -euo pipefail
old=${1:?usage: scripts/compare_builds.sh OLD_BENCH NEW_BENCH OUT_DIR [CANDIDATE]}
new=${2:?usage: scripts/compare_builds.sh OLD_BENCH NEW_BENCH OUT_DIR [CANDIDATE]}
out=${3:?usage: scripts/compare_builds.sh OLD_BENCH NEW_BENCH OUT_DIR [CANDIDATE]}
candidate=${4:-build/candidates/sample_mma}
warmup=${HB_COMPARE_WARMUP_S:-2}
timed=${HB_COMPARE_TIME_S:-8}
mnk_flags=$(for c in ${HB_COMPARE_MNK:-64,64,64 1024,1024,1024 4096,4096,4096}; do printf -- '--mnk %s ' "$c"; done)
mkdir -p "$out"
cache="$out/autotune-cache.tsv" # one cache: both builds run the same cuBLASLt algorithms

run() { # run TAG BENCH ARGS...: one run into $out/TAG, its log beside it
    local tag=$1 bench=$2
    shift 2
    "$bench" run "$@" $mnk_flags --warmup-s "$warmup" --time-s "$timed" --autotune-cache "$cache" \
        --no-progress --out "$out/$tag" > "$out/$tag.log" 2>&1 || { echo "compare_builds: $tag failed (exit $?), see $out/$tag.log" >&2; exit 1; }
}

run sample-old "$old" --candidate "$candidate" --seed 21
run sample-new "$new" --candidate "$candidate" --seed 21
run aa-old "$old" --aa cublas-nn --seed 22
run aa-new "$new" --aa cublas-nn --seed 22

table() { # table TAG BASELINE: "config headline% [low%, high%]" from the run's summary.csv, columns by name
    awk -F, -v base="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["participant"] == base { printf "%-16s %+8.3f [%+8.3f, %+8.3f]\n", $c["m"] "x" $c["n"] "x" $c["k"],
                                           100 * $c["speedup_geomean"], 100 * $c["speedup_ci95_low"],
                                           100 * $c["speedup_ci95_high"] }' "$out/$1"/*/summary.csv
}

for what in "sample torch" "aa cublas-nn"; do
    set -- $what
    echo "== $1 over $2: headline % [95% CI], old build | new build"
    paste <(table "$1-old" "$2") <(table "$1-new" "$2" | cut -c17-)
done
