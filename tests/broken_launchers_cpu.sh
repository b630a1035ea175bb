#!/usr/bin/env bash
# broken_launchers_cpu.sh -- the broken launchers' host code on the CPU, no GPU
# needed (the GPU verdicts are tests/test_gpu_launchers.c's).
#
# 1. candidates/broken_launchers/got_patch.h, the dynamic-link slot rewriter
#    of rewrite_timer and slow_baseline: a program (broken_launchers_cpu/
#    program.c) calls a stub library's two functions, loads the patcher
#    (patcher.cc) as the harness loads a launcher, and must then reach the
#    patcher's wrappers, with its own mappings' protections unchanged.  Built
#    as a PIE with lazy binding (a JUMP_SLOT in a writable .got.plt, as
#    hgemm-bench is linked today, and a GLOB_DAT for the function whose
#    address it takes), with -z now -z relro (full RELRO: the slots' pages
#    are read-only), with -fno-plt (GLOB_DAT calls only), and as a fixed
#    executable (base 0, JUMP_SLOTs); and once asking for symbols the program
#    does not import (nothing to patch: 0 slots, the program unchanged).
# 2. When make has built them (BUILD/candidates/broken_launchers/), the cuBLAS
#    launchers themselves, loaded by a fake harness (fake_harness.c) linked
#    against stand-ins of the CUDA runtime, cuBLAS and cuBLASLt (fake_cudart.c,
#    fake_cublas.c) that carry the real sonames and symbol versions, and whose
#    cublasGemmEx computes on host memory: each product exact, each fault as
#    its file says (the parts' streams, the skipped calls, the kept result,
#    the shortened event pair, the delayed baseline calls).  The launchers
#    that attack the driver or the process run the same way beside a
#    stand-in of libcuda.so.1 (fake_cuda.c, built at -O0 so that each entry
#    point is longer than a patch; fake_harness_driver.c): the driver's code
#    detoured only in the guessed timed window and put back, written through
#    /proc/self/mem and put back, mapped over; the sleeping kernel before
#    every launch; the threads (driver queries, a kernel kept in flight)
#    started after 16 calls and stopped by dlclose; the ptrace helper; the
#    seccomp filter; the harness's pipe replaced.  The stand-in runtime knows a
#    library's kernels only once nvcc's registration in that library has run
#    (after the library's own constructors), and keeps a failed call's error
#    as the thread's last error until cudaGetLastError: the fake harness reads
#    it once a launcher has loaded and after each call, as hgemm-bench does,
#    and only leaves_error_at_load and leaves_error_in_call may leave one.
#
# Usage: broken_launchers_cpu.sh [CC] [CXX]; BUILD (default build) and
# CUDA_HOME (default /usr/local/cuda) from the environment.  Exit 0 when every
# case passes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
src=$here/broken_launchers_cpu
CC=${1:-${CC:-cc}}
CXX=${2:-${CXX:-c++}}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
warn=(-Wall -Wextra -Werror)
failed=0

# --- 1. got_patch.h on a stub -----------------------------------------------------------
"$CC" -std=c11 "${warn[@]}" -O2 -fPIC -shared -o "$work/libgotstub.so" "$src/stub.c"
"$CXX" -std=c++17 "${warn[@]}" -O2 -fPIC -shared -I"$root" -o "$work/patcher.so" "$src/patcher.cc" -ldl
# name, then the program's compile and link flags
cases=(
    "pie-lazy|-fPIE -pie -Wl,-z,lazy -Wl,-z,relro"
    "pie-full-relro|-fPIE -pie -Wl,-z,now -Wl,-z,relro"
    "pie-no-plt-full-relro|-fPIE -pie -fno-plt -Wl,-z,now -Wl,-z,relro"
    "fixed-lazy|-fno-pie -no-pie -Wl,-z,lazy"
    "fixed-full-relro|-fno-pie -no-pie -Wl,-z,now -Wl,-z,relro"
)
for c in "${cases[@]}"; do
    name=${c%%|*}
    read -r -a flags <<<"${c#*|}"
    "$CC" -std=c11 "${warn[@]}" -O2 "${flags[@]}" -o "$work/$name" "$src/program.c" \
        -L"$work" -lgotstub -Wl,-rpath,"$work" -ldl
    printf 'got_patch %-24s ' "$name"
    "$work/$name" "$work/patcher.so" some || failed=1
done
printf 'got_patch %-24s ' "nothing-to-patch"
GOT_PATCH_ABSENT=1 "$work/pie-full-relro" "$work/patcher.so" none || failed=1

# --- 2. the cuBLAS launchers on stand-in libraries --------------------------------------
build=${BUILD:-build}
cuda=${CUDA_HOME:-/usr/local/cuda}
case $build in /*) ;; *) build=$root/$build ;; esac
launchers=$build/candidates/broken_launchers
modes=(cublas_wrapper off_stream_part off_stream_untraced skip_one_in_n carry_result rewrite_timer slow_baseline
    driver_detour_timed baseline_kernel_detour baseline_kernel_leftover baseline_host_thread proc_mem_patch maps_over
    ptrace_helper own_seccomp dup_result leaves_error_at_load leaves_error_in_call)
# The words a mode's launcher reads from the harness's command line: the
# timed window guessed at [1, 2) s after its first call.
mode_args() {
    case $1 in driver_detour_timed | proc_mem_patch) echo "--warmup-s 0 --time-s 2" ;; esac
}
first_lib() { ls "$launchers/$1/$1".sm_*.so 2>/dev/null | head -n 1; }
missing=0
for mode in "${modes[@]}"; do
    [ -n "$(first_lib "$mode")" ] || missing=1
done
if [ "$missing" -eq 1 ]; then
    echo "(the cuBLAS broken launchers are not all built in $build: make builds them; part 2 skipped)"
else
    major=$(readelf -d "$(first_lib cublas_wrapper)" |
        sed -n 's/.*Shared library: \[libcudart\.so\.\([0-9]*\)\].*/\1/p')
    [ -n "$major" ] || { echo "cublas_wrapper does not name libcudart.so.N"; exit 1; }
    fake=$work/fake
    mkdir -p "$fake"
    stub() { # library name, then the source and its flags
        local name=$1
        shift
        printf '%s.so.%s { global: *; };\n' "$name" "$major" >"$fake/$name.map"
        "$CC" -std=c11 "${warn[@]}" -O2 -fPIC -shared -Wl,-soname,"$name.so.$major" \
            -Wl,--version-script="$fake/$name.map" -o "$fake/$name.so.$major" "$@"
        ln -sf "$name.so.$major" "$fake/$name.so"
    }
    stub libcudart "$src/fake_cudart.c"
    stub libcublas "$src/fake_cublas.c"
    stub libcublasLt -DFAKE_LT "$src/fake_cublas.c"
    stub libcupti "$src/fake_cupti.c"
    "$CC" -std=c11 "${warn[@]}" -O0 -fPIC -shared -Wl,-soname,libcuda.so.1 -o "$fake/libcuda.so.1" "$src/fake_cuda.c"
    ln -sf libcuda.so.1 "$fake/libcuda.so"
    "$CC" -std=c11 "${warn[@]}" -O2 -I"$root" -I"$cuda/include" -o "$fake/fake_harness" \
        "$src/fake_harness.c" "$src/fake_harness_driver.c" -L"$fake" -lcublasLt -lcublas -lcudart -lcuda \
        -Wl,-rpath,"$fake" -ldl
    for mode in "${modes[@]}"; do
        for lib in "$launchers/$mode/$mode".sm_*.so; do
            echo "launcher $(basename "$lib"):"
            # shellcheck disable=SC2046 # the mode's words, split
            FAKE_CUPTI=$fake/libcupti.so.$major "$fake/fake_harness" "$lib" "$mode" $(mode_args "$mode") || failed=1
        done
    done
fi
if [ "$failed" -eq 0 ]; then echo "broken launchers on the CPU: all cases passed"; else echo "broken launchers on the CPU: FAILED"; fi
exit "$failed"
