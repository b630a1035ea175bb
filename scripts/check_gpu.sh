#!/usr/bin/env bash
# Is there an NVIDIA GPU with a working driver here?  `make demo` asks before
# it spends minutes building, and says what to do where the answer is no.
# The driver is asked through nvidia-smi (it ships with the driver), or,
# without it, its /proc entry.  Exit 0 and the GPUs on stdout; exit 1 and
# what to do on stderr.
# usage: scripts/check_gpu.sh
# (HB_NVIDIA_SMI and HB_NVIDIA_PROC stand in for nvidia-smi and
# /proc/driver/nvidia, for tests/demo_gpu_check.sh.)
set -uo pipefail
smi=${HB_NVIDIA_SMI:-$(command -v nvidia-smi || true)}
proc=${HB_NVIDIA_PROC:-/proc/driver/nvidia}
cpu_only="Without a GPU you can still run 'make test' (its GPU tests skip), and build and use
'make build/hgemm-report' (no CUDA needed) to read results made on a GPU machine:
'build/hgemm-report report results/<run-id>' (docs/reports.md)."

if [ -n "$smi" ] && [ -x "$smi" ]; then
    if ! listed=$("$smi" -L 2>&1); then
        printf 'check_gpu: nvidia-smi is installed but the NVIDIA driver does not answer:\n  %s\n' "$listed" >&2
        printf 'Load the driver (reboot after installing it, or "sudo modprobe nvidia"), then "nvidia-smi" must list the GPU.\n%s\n' \
            "$cpu_only" >&2
        exit 1
    fi
    gpus=$(printf '%s\n' "$listed" | grep -c '^GPU [0-9]' || true)
    if [ "$gpus" -eq 0 ]; then
        printf 'check_gpu: the NVIDIA driver answers but lists no GPU (nvidia-smi -L: %s).\n%s\n' "$listed" "$cpu_only" >&2
        exit 1
    fi
    printf '%s\n' "$listed"
    exit 0
fi
if [ -e "$proc/version" ]; then
    echo "check_gpu: an NVIDIA driver is loaded ($(head -n 1 "$proc/version")); nvidia-smi is not on PATH"
    exit 0
fi
printf '%s\n' "check_gpu: no NVIDIA driver on this machine (no nvidia-smi, no $proc): make demo measures on a GPU." \
    "On a machine with an NVIDIA GPU, install its driver and the CUDA Toolkit (README.md, \"On a fresh machine\")." \
    "$cpu_only" >&2
exit 1
