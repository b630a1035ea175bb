#!/usr/bin/env bash
# Installs what hgemm-bench needs to build, test and plot, on Debian or
# Ubuntu: a C compiler and make, jansson (manifests, env.json), nettle (the
# importer's SHA-256 of sources and builds), xxhash (header-only: the code
# checks' page hashes), libseccomp (the sandbox's call filter, linked
# statically), libcsv (report and compare read CSV files with it), cmocka
# (tests), gnuplot (figures), python3 (the candidate-set scripts read verdict files and
# summary.csv with it), and Slurm with munge (slurm-wlm:
# tests/slurm_dry_run.sh runs scripts/slurm/ on a private single-node Slurm
# it starts itself; no packaged service is configured here) unless the host
# already has a Slurm (a cluster's login node keeps its own).  The CUDA Toolkit
# (nvcc, cuBLAS) must already be installed, at /usr/local/cuda or at CUDA_HOME.
set -euo pipefail
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
slurm=(slurm-wlm munge)
command -v sbatch >/dev/null && slurm=()
$sudo apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    build-essential libjansson-dev libcsv-dev nettle-dev libxxhash-dev libseccomp-dev libcmocka-dev gnuplot-nox python3 "${slurm[@]}" >/dev/null
cuda_home=${CUDA_HOME:-/usr/local/cuda}
if [ ! -x "$cuda_home/bin/nvcc" ]; then
    echo "install_deps.sh: no nvcc at $cuda_home/bin/nvcc; install the CUDA Toolkit (12.4 or newer) or set CUDA_HOME" >&2
    exit 1
fi
echo "install_deps.sh: ok ($("$cuda_home/bin/nvcc" --version | tail -n 1))"
