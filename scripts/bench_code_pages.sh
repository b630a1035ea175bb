#!/usr/bin/env bash
# What checking every page of code costs on this GPU host (docs/methodology.md,
# "Every page of code checked"): `run` of build/candidates/sample_simple at
# 64^3, the configuration repeated R times (each its own child, each sealing
# and checking its own code), then, per configuration, summary.csv's
# code_bytes (the code hashed at the seal and at every check), code_seal_ms,
# code_checks, code_check_ms (summed) and their ratio (ms per check), beside
# config_seconds for scale.  A benchmark, not a test: `make test` never runs it
# and it asserts nothing.
# usage: scripts/bench_code_pages.sh [BUILD]        (BUILD: the build folder, default build)
# environment: HB_CODE_OUT (results/code-pages), HB_CODE_R (3), HB_CODE_MNK (64,64,64),
#   CUDA_VISIBLE_DEVICES to pick the GPU
set -euo pipefail
build=${1:-build}
bench=$build/hgemm-bench
candidate=$build/candidates/sample_simple/manifest.json
out=${HB_CODE_OUT:-results/code-pages}
repeats=${HB_CODE_R:-3}
mnk=${HB_CODE_MNK:-64,64,64}
command -v python3 >/dev/null || { echo "bench_code_pages.sh: python3 is needed to read summary.csv" >&2; exit 2; }
[ -x "$bench" ] || { echo "bench_code_pages.sh: $bench is missing: run make first" >&2; exit 2; }
[ -f "$candidate" ] || { echo "bench_code_pages.sh: $candidate is missing: run make first" >&2; exit 2; }
if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1 | sed 's/^/nvidia-smi: /' || true
fi
mkdir -p "$out"
args=()
for _ in $(seq "$repeats"); do args+=(--mnk "$mnk"); done
status=0
"$bench" run --candidate "$candidate" "${args[@]}" --warmup-s 0.5 --time-s 1 --out "$out" --no-progress \
    > "$out/run.log" 2>&1 || status=$?
summary=$(ls -td "$out"/*/ | head -n 1)summary.csv
[ -f "$summary" ] || { echo "bench_code_pages.sh: run wrote no summary.csv (exit $status), see $out/run.log" >&2; exit 1; }
python3 - "$summary" "$status" <<'EOF'
import csv, sys
path, status = sys.argv[1], sys.argv[2]
rows = [r for r in csv.DictReader(open(path, newline="")) if r["role"] == "candidate"]
print(f"{path} (run exit {status})")
print("| m,n,k | verdict | check | code_bytes (MB) | code_seal_ms | code_checks | code_check_ms | ms per check | config_seconds |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for r in rows:
    checks = int(r["code_checks"] or 0)
    total = float(r["code_check_ms"] or "nan")
    per = f"{total / checks:.1f}" if checks else ""
    mb = f"{float(r['code_bytes']) / 1e6:.1f}" if r["code_bytes"] else ""
    print(f"| {r['m']},{r['n']},{r['k']} | {r['verdict']} | {r['check']} | {mb} | {r['code_seal_ms']} | "
          f"{r['code_checks']} | {r['code_check_ms']} | {per} | {r['config_seconds']} |")
    if r["check"] == "code-integrity":
        print(f"  reason: {r['reason']}")
EOF
