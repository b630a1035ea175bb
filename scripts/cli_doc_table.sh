#!/usr/bin/env bash
# Puts the option table that `hgemm-bench help --markdown` makes from the
# harness's option rows into docs/cli.md, in place of the lines between its
# markers (tests/test_options.c fails while the two differ).
# usage: scripts/cli_doc_table.sh [BINARY]   (default: build/hgemm-bench)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-$root/build/hgemm-bench}
doc=$root/docs/cli.md
table=$(mktemp)
out=$(mktemp)
trap 'rm -f "$table" "$out"' EXIT
"$binary" help --markdown >"$table"
grep -q '^<!-- options:begin' "$doc" && grep -q '^<!-- options:end' "$doc" ||
    { echo "cli_doc_table: $doc has no option table markers" >&2; exit 1; }
awk -v table="$table" '
    /^<!-- options:begin/ { while ((getline line < table) > 0) print line; skip = 1; next }
    /^<!-- options:end/   { skip = 0; next }
    !skip' "$doc" >"$out"
cat "$out" >"$doc"
