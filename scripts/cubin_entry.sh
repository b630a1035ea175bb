#!/usr/bin/env bash
# cubin_entry.sh CUBIN -- prints the name of the one kernel (entry function)
# in CUBIN as the cubin holds it: a C++ kernel's name mangled
# ("_Z12hgemm_paramsPK6__halfS1_PS_iii"), an extern "C" one's as written.
# make uses it to fill a manifest's "entry": "@ENTRY@" (docs/candidates.md,
# "Parameter order"), so the name follows the compiler, not a copy by hand.
# An entry is a global FUNC symbol marked STO_ENTRY (0x10 in st_other, which
# readelf shows as "[<other>: 10]").  Fails, saying why, when the cubin has no
# kernel or more than one.
set -euo pipefail
cubin=${1:?usage: cubin_entry.sh CUBIN}
[ -r "$cubin" ] || { echo "cubin_entry: cannot read $cubin" >&2; exit 1; }
entries=$(readelf -sW "$cubin" | awk '$4 == "FUNC" && $5 == "GLOBAL" && /\[<other>: 10\]/ { print $NF }')
count=$(printf '%s' "$entries" | grep -c . || true)
if [ "$count" -ne 1 ]; then
    echo "cubin_entry: $cubin has $count kernels${entries:+ (}$(printf '%s' "$entries" | paste -sd, -)${entries:+)};" \
         "a manifest's \"@ENTRY@\" needs exactly one: write its \"entry\" by hand" >&2
    exit 1
fi
printf '%s\n' "$entries"
