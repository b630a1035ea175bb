#!/usr/bin/env bash
# The CUDA-free binary (docs/architecture.md): hgemm-report must load no CUDA
# library (libcuda, libcudart, libcublas, libcublasLt, libnvidia-ml), so that
# it runs on a laptop without CUDA; and it must run its commands there.
# Its make target needs no CUDA toolkit either, and it speaks as itself.
# usage: tests/cuda_free_binary.sh build/hgemm-report
set -euo pipefail
binary=${1:?usage: tests/cuda_free_binary.sh build/hgemm-report}
[ -x "$binary" ] || { echo "cuda_free_binary: $binary not built" >&2; exit 1; }
needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
if printf '%s\n' "$needed" | grep -Ei '^lib(cuda|cudart|cublas|cublaslt|nvidia-ml)' >/dev/null; then
    echo "cuda_free_binary: $binary needs CUDA libraries: $(echo $needed)" >&2
    exit 1
fi
# and it works without them: with no library path to CUDA at all
# (grep reads a here-string, not a pipe: under pipefail a grep -q that stops at its
# first match can fail the pipeline by the writer's SIGPIPE)
overview=$(LD_LIBRARY_PATH= "$binary" --help)
grep -q '^  report ' <<<"$overview" || { echo "cuda_free_binary: no report command" >&2; exit 1; }
grep -q '^  compare ' <<<"$overview" || { echo "cuda_free_binary: no compare command" >&2; exit 1; }
if LD_LIBRARY_PATH= "$binary" run --help >/dev/null 2>&1; then
    echo "cuda_free_binary: $binary offers run, which needs a GPU" >&2
    exit 1
fi
# it names itself: in errors, and in the help that -h and `help --help` print
err=$(LD_LIBRARY_PATH= "$binary" report /nonexistent/hb-no-such-folder 2>&1 >/dev/null) && {
    echo "cuda_free_binary: report on a missing folder succeeded" >&2; exit 1; }
case "$err" in
hgemm-report:\ error:*) ;;
*) echo "cuda_free_binary: its error does not name hgemm-report: $err" >&2; exit 1 ;;
esac
for help in -h --help "help --help" "help -h"; do
    # shellcheck disable=SC2086 # the words of $help are separate arguments
    said=$(LD_LIBRARY_PATH= "$binary" $help)
    grep -q '^usage: hgemm-report ' <<<"$said" ||
        { echo "cuda_free_binary: '$help' does not print hgemm-report's usage" >&2; exit 1; }
done
# its make target builds without a CUDA toolkit: what make would run for it in
# an empty build folder, with CUDA_HOME nowhere and nvcc a program that
# fails, holds no nvcc run and no CUDA library (make -n: no compiling here)
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
plan=$(make -C "$root" -n --no-print-directory BUILD="$scratch/build" CUDA_HOME=/nonexistent NVCC=false \
       "$scratch/build/hgemm-report")
grep -q -- "-o $scratch/build/hgemm-report " <<<"$plan" ||
    { echo "cuda_free_binary: make's plan for hgemm-report does not link it" >&2; exit 1; }
if printf '%s\n' "$plan" | grep -E '^(false|nvcc|/nonexistent/bin/nvcc)( |$)|-lcu|-lnvidia|\.cu( |$)' >&2; then
    echo "cuda_free_binary: make's plan for hgemm-report (above) needs the CUDA toolkit" >&2
    exit 1
fi
echo "cuda_free_binary: ok (needs only: $(echo $needed); builds without a CUDA toolkit)"
