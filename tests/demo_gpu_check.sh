#!/usr/bin/env bash
# scripts/check_gpu.sh, which `make demo` runs before it builds: a GPU listed
# by nvidia-smi passes; a driver that does not answer, one that lists no GPU,
# and a machine with no driver at all fail, each saying what to do; and
# `make demo` stops at it, before building anything.  Fake nvidia-smi
# programs stand in for the driver.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
check=$here/../scripts/check_gpu.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "demo_gpu_check: $*" >&2; exit 1; }

printf '#!/bin/sh\necho "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0000)"\n' > "$work/smi-ok"
printf '#!/bin/sh\necho "NVIDIA-SMI has failed because it could not communicate with the NVIDIA driver."\nexit 9\n' \
    > "$work/smi-broken"
printf '#!/bin/sh\necho "No devices found."\n' > "$work/smi-none"
chmod +x "$work"/smi-*

listed=$(HB_NVIDIA_SMI=$work/smi-ok "$check") || fail "a listed GPU did not pass"
grep -q 'GPU 0: NVIDIA H100' <<<"$listed" || fail "a listed GPU did not pass"
if err=$(HB_NVIDIA_SMI=$work/smi-broken "$check" 2>&1); then fail "a driver that does not answer passed"; fi
grep -q 'driver does not answer' <<<"$err" || fail "no word on the driver: $err"
if err=$(HB_NVIDIA_SMI=$work/smi-none "$check" 2>&1); then fail "a driver with no GPU passed"; fi
grep -q 'lists no GPU' <<<"$err" || fail "no word on the missing GPU: $err"
if err=$(HB_NVIDIA_SMI=/nonexistent HB_NVIDIA_PROC=$work/no-proc "$check" 2>&1); then fail "no driver at all passed"; fi
grep -q 'no NVIDIA driver on this machine' <<<"$err" || fail "no word on the missing driver: $err"
grep -q 'hgemm-report' <<<"$err" || fail "no word on what runs without a GPU: $err"
# make demo stops there, before building: its plan's first command is the check
make -C "$here/.." -n --no-print-directory demo BUILD="$work/build" > "$work/plan"
first=$(head -n 1 "$work/plan")
[ "$first" = "scripts/check_gpu.sh" ] || fail "make demo starts with '$first', not the GPU check"
echo "demo_gpu_check: ok"
