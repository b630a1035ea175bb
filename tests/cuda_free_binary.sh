#!/usr/bin/env bash
# The CUDA-free binary (docs/architecture.md): hgemm-report must load no CUDA
# library (libcuda, libcudart, libcublas, libcublasLt, libnvidia-ml), so that
# it runs on a laptop without CUDA; and it must run its commands there.
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
LD_LIBRARY_PATH= "$binary" --help | grep -q '^  report ' || { echo "cuda_free_binary: no report command" >&2; exit 1; }
LD_LIBRARY_PATH= "$binary" --help | grep -q '^  compare ' || { echo "cuda_free_binary: no compare command" >&2; exit 1; }
if LD_LIBRARY_PATH= "$binary" run --help >/dev/null 2>&1; then
    echo "cuda_free_binary: $binary offers run, which needs a GPU" >&2
    exit 1
fi
echo "cuda_free_binary: ok (needs only: $(echo $needed))"
