#!/usr/bin/env bash
# tests/check_layers.sh must fail on each kind of rule break, not only pass
# on this tree: it runs here on small trees that share this repository's
# layer table (docs/architecture.md) and break one rule each.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A tree with every layer folder, one header in each, nothing wrong yet.
make_tree() {
    rm -rf "$work/t" && mkdir -p "$work/t/docs" && cp "$repo/docs/architecture.md" "$work/t/docs/"
    awk -F'|' '/<!-- layers:begin/{on=1;next} /<!-- layers:end/{on=0} on && /^\|/ {gsub(/[ `]/,"",$3); print $3}' \
        "$repo/docs/architecture.md" | grep '/$' | while read -r folder; do
        mkdir -p "$work/t/$folder" && printf '/* fixture */\n' > "$work/t/$folder/fixture.h"
    done
}

expect() { # expect pass|fail NAME: runs the checker on the tree
    local want=$1 name=$2 rc=0
    "$here/check_layers.sh" "$work/t" > "$work/out" 2>&1 || rc=$?
    if { [ "$want" = pass ] && [ $rc -ne 0 ]; } || { [ "$want" = fail ] && [ $rc -eq 0 ]; }; then
        echo "check_layers_selftest: $name: expected $want, got exit $rc:"; cat "$work/out"; exit 1
    fi
}

make_tree
printf '#include "bench/result/fixture.h"\n#include <stdio.h>\n' > "$work/t/bench/core/ok.c"
printf '#include "bench/core/fixture.h"\n' > "$work/t/bench/result/ok.c"
expect fail "core including result (upward)"
rm "$work/t/bench/core/ok.c"
expect pass "result including core (downward)"

make_tree
printf '#include "bench/driver/fixture.h"\n' > "$work/t/verify/up.c"
expect fail "verify including driver"
grep -q 'verify/up.c:1: #include "bench/driver/fixture.h": layer verify may not include layer driver' "$work/out" ||
    { echo "check_layers_selftest: the message does not name the file, line and layers:"; cat "$work/out"; exit 1; }

make_tree
printf '#include "baselines/fixture.h"\n' > "$work/t/verify/sideways.c"
expect fail "verify including baselines (siblings)"

make_tree
printf '#include <cuda_runtime_api.h>\n' > "$work/t/bench/report/cuda.c"
expect fail "a CUDA header in a CUDA-free layer"

make_tree
printf '#include "fixture.h"\n' > "$work/t/bench/gpu/relative.c"
expect fail "an include not written from the repository root"

make_tree
printf 'int x;\n' > "$work/t/bench/loose.c"
expect fail "a source file in bench/ itself"

make_tree
mkdir -p "$work/t/bench/newlayer"
expect fail "a folder under bench/ the table does not list"

# A subfolder of a layer folder is that layer (an import format's folder,
# bench/import/<format>/): its files include from the repository root under
# the layer's rule, and are included as that layer.
make_tree
mkdir -p "$work/t/bench/import/format"
printf '#include "bench/candidate/fixture.h"\n#include "bench/import/fixture.h"\n' > "$work/t/bench/import/format/ok.c"
printf '/* fixture */\n' > "$work/t/bench/import/format/format.h"
printf '#include "bench/import/format/format.h"\n' > "$work/t/bench/driver/uses_format.c"
expect pass "a layer's subfolder, including and included under its layer's rule"
printf '#include "bench/driver/fixture.h"\n' > "$work/t/bench/import/format/up.c"
expect fail "a layer's subfolder including upward"
grep -q 'bench/import/format/up.c:1: #include "bench/driver/fixture.h": layer import may not include layer driver' \
    "$work/out" || { echo "check_layers_selftest: the subfolder's break is not named as its layer's:"; cat "$work/out"; exit 1; }
rm "$work/t/bench/import/format/up.c"
printf '#include "bench/import/format/format.h"\n' > "$work/t/bench/candidate/down.c"
expect fail "a lower layer including a layer's subfolder"

echo "check_layers_selftest: ok (9 rule breaks caught, a layer's subfolder accepted)"
