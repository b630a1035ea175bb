#!/usr/bin/env bash
# cuda_l2_torch_survey.sh -- what a set of CUDA-L2-style .cu files uses of
# torch, so that one can see what the torch shim (bench/import/cuda_l2/torch_shim/)
# must cover before importing a new set.
#
#     scripts/cuda_l2_torch_survey.sh [--shim DIR] DIR...
#
# Reads every *.cu file under each DIR and prints, per item, the number of
# files that use it, most used first, and whether the shim has it:
#   headers         #include <torch/...>, <ATen/...>, <c10/...>, <caffe2/...>,
#                   <pybind11/...>, <Python.h>   (shim: the header exists in it)
#   names           torch::X, at::X, c10::X, caffe2::X, with their nested parts
#                   (at::cuda::getCurrentCUDAStream)
#   macros used     TORCH_*, AT_*, C10_*, CAFFE_* names outside the files' own
#                   #define/#undef lines
#   macros defined  the same names that files #define or #undef themselves
#                   (a shim must not clash with them: it defines its macros
#                   only where they are not defined yet)
#   tensor methods  .m(...) and .m<T>(...) on receivers that look like tensors,
#                   with zero-argument chains (options().dtype); -> calls on
#                   a TensorImpl (unsafeGetTensorImpl()->data)
# (shim: the name appears as an identifier, or the macro is #defined, in the
# shim's headers; "NO" marks what a new set needs added).
#
# It is a plain grep survey, not a compiler: a "tensor" receiver is a name the
# same file declared as torch::Tensor or at::Tensor (a parameter, a variable,
# a reference), or assigned from a torch::/at:: factory or a tensor's .to(),
# .contiguous() or .view(); or (T)-style macro parameters inside a #define
# whose name or body mentions TORCH, TENSOR or torch::.  Scopes are ignored (a
# name declared a tensor in one function counts everywhere after it in the
# file), uses before the declaration are missed, and a method called through
# a helper that takes the tensor under another name is missed.  Compiling the
# files against the shim is the judge; this says where to look first.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
shim=$here/../bench/import/cuda_l2/torch_shim

usage() {
    echo "usage: $0 [--shim DIR] DIR..." >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case $1 in
    --shim) [ $# -ge 2 ] || usage; shim=$2; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --) shift; break ;;
    -*) usage ;;
    *) break ;;
    esac
done
[ $# -ge 1 ] || usage
for d in "$@"; do [ -d "$d" ] || { echo "$0: $d is not a folder" >&2; exit 2; }; done

list=$(mktemp)
trap 'rm -f "$list" "$list.ids" "$list.hdrs" "$list.defs"' EXIT
find "$@" -type f -name '*.cu' | LC_ALL=C sort > "$list"
nfiles=$(wc -l < "$list")
[ "$nfiles" -gt 0 ] || { echo "$0: no .cu files under $*" >&2; exit 1; }

# What the shim has: its identifiers, its headers (paths relative to it), its macros.
: > "$list.ids"; : > "$list.hdrs"; : > "$list.defs"
if [ -d "$shim" ]; then
    find "$shim" -type f -name '*.h' -exec cat {} + | grep -oE '[A-Za-z_][A-Za-z0-9_]*' | LC_ALL=C sort -u > "$list.ids"
    (cd "$shim" && find . -type f -name '*.h' | sed 's|^\./||') | LC_ALL=C sort -u > "$list.hdrs"
    find "$shim" -type f -name '*.h' -exec cat {} + |
        sed -n 's/^[[:space:]]*#[[:space:]]*define[[:space:]]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' | LC_ALL=C sort -u > "$list.defs"
else
    echo "$0: no shim at $shim: every item is marked NO" >&2
fi

echo "torch survey of $nfiles .cu files under $* (a grep survey: see the script's header)"
echo "shim: $shim"

# One awk program reads every file (the list holds one path a line); per
# file, each item is counted once.
awk -v listfile="$list" -v idsfile="$list.ids" -v hdrsfile="$list.hdrs" -v defsfile="$list.defs" '
function note(section, item) {
    if (!((file, section, item) in seen)) {
        seen[file, section, item] = 1
        count[section, item]++
        items[section, item] = 1
    }
}
function strip_space(s) { gsub(/[ \t]/, "", s); return s }
# Every match of regex re in s, each handed to handle() with what follows it.
function each(s, re, kind) {
    while (match(s, re)) {
        handle(kind, substr(s, RSTART, RLENGTH), substr(s, RSTART + RLENGTH))
        s = substr(s, RSTART + RLENGTH)
    }
}
function handle(kind, m, rest,    name, recv, meth, chain, p) {
    if (kind == "name") {
        note("names", m)
    } else if (kind == "macro") {
        sub(/^[^A-Z]*/, "", m)
        if (m != defined_here) note("macros used", m)
    } else if (kind == "decl") {
        # torch::Tensor[&] NAME, at::Tensor const& NAME
        name = m; sub(/^(torch|at)::Tensor[ \t&*]*(const[ \t&*]*)?/, "", name)
        if (name ~ /^[A-Za-z_][A-Za-z0-9_]*$/) tensor[file, name] = 1
    } else if (kind == "assign") {
        name = m; sub(/[ \t]*=.*$/, "", name); sub(/^.*[^A-Za-z0-9_]/, "", name)
        if (name ~ /^[A-Za-z_][A-Za-z0-9_]*$/) tensor[file, name] = 1
    } else if (kind == "call" || kind == "impl") {
        # RECV . method [<T>] (    (RECV) . method (    ... -> method (
        if (kind == "call") {
            recv = m; sub(/[ \t]*(\.|->).*$/, "", recv); recv = strip_space(recv)
            if (recv ~ /^\(.*\)$/) {
                if (!(substr(recv, 2, length(recv) - 2) in macro_param)) return
            } else if (!((file, recv) in tensor)) return
        }
        meth = m; sub(/^.*(\.|->)[ \t]*/, "", meth); sub(/[ \t]*\($/, "", meth); meth = strip_space(meth)
        if (kind == "impl") meth = "unsafeGetTensorImpl()->" meth
        # a zero-argument call followed by another: options().dtype
        if (kind == "call" && match(rest, /^[ \t]*\)[ \t]*(\.|->)[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*(<[^>;()]*>)?[ \t]*\(/)) {
            p = substr(rest, RSTART, RLENGTH); sub(/^[ \t]*\)[ \t]*/, "", p); sub(/[ \t]*\($/, "", p)
            note("tensor methods", meth "()" strip_space(p))
        }
        note("tensor methods", meth)
    }
}
function process(line,    name, params, n, ps, i, p) {
    sub(/\/\/.*$/, "", line)   # a // comment (a /* */ block is not tracked)
    defined_here = ""
    if (line ~ /^[ \t]*#[ \t]*include/) {
        if (match(line, /<(torch|ATen|c10|caffe2|pybind11)\/[^>]*>|<Python\.h>/))
            note("headers", substr(line, RSTART + 1, RLENGTH - 2))
        return
    }
    if (match(line, /^[ \t]*#[ \t]*(define|undef)[ \t]+[A-Za-z_][A-Za-z0-9_]*/)) {
        name = substr(line, RSTART, RLENGTH); sub(/^[ \t]*#[ \t]*(define|undef)[ \t]+/, "", name)
        if (name ~ /^(TORCH|AT|C10|CAFFE)_/) { note("macros defined", name); defined_here = name }
        # A function-like macro: its parameters may be tensors, if it looks
        # like a tensor check.
        split("", macro_param)
        macro_tensorish = (name ~ /TORCH|TENSOR/ || line ~ /torch::/)
        if (line ~ /^[ \t]*#[ \t]*define[ \t]+[A-Za-z_][A-Za-z0-9_]*\(/) {
            params = line
            sub(/^[ \t]*#[ \t]*define[ \t]+[A-Za-z_][A-Za-z0-9_]*\(/, "", params); sub(/\).*$/, "", params)
            n = split(params, ps, ",")
            for (i = 1; i <= n; i++) { p = strip_space(ps[i]); if (p != "") macro_param[p] = 1 }
        }
        in_define = 1
    } else if (!in_define) {
        split("", macro_param)
    }
    if (in_define && line ~ /torch::/) macro_tensorish = 1
    each(line, "(torch|at|c10|caffe2)(::[A-Za-z_][A-Za-z0-9_]*)+", "name")
    each(line, "(^|[^A-Za-z0-9_])(TORCH|AT|C10|CAFFE)_[A-Z0-9_]+", "macro")
    each(line, "(torch|at)::Tensor[ \t]*(const)?[ \t&*]*(const)?[ \t&*]*[A-Za-z_][A-Za-z0-9_]*", "decl")
    each(line, "[A-Za-z_][A-Za-z0-9_]*[ \t]*=[ \t]*((torch|at)::[A-Za-z_]+[ \t]*\\(|[A-Za-z_][A-Za-z0-9_]*[ \t]*\\.[ \t]*(to|contiguous|view|reshape|clone)[ \t]*\\()", "assign")
    if (!in_define || macro_tensorish)
        each(line, "(\\([ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*\\)|[A-Za-z_][A-Za-z0-9_]*)[ \t]*(\\.|->)[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*(<[^>;()]*>)?[ \t]*\\(", "call")
    each(line, "unsafeGetTensorImpl[ \t]*\\([ \t]*\\)[ \t]*->[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*\\(", "impl")
    if (in_define && line !~ /\\[ \t]*$/) in_define = 0
}
BEGIN {
    while ((getline file < listfile) > 0) {
        in_define = 0; macro_tensorish = 0; split("", macro_param)
        while ((getline line < file) > 0) process(line)
        close(file)
    }
    while ((getline id < idsfile) > 0) shim_id[id] = 1
    while ((getline h < hdrsfile) > 0) shim_hdr[h] = 1
    while ((getline d < defsfile) > 0) shim_def[d] = 1
    nsec = split("headers,names,macros used,macros defined,tensor methods", sec, ",")
    for (s = 1; s <= nsec; s++) {
        printf "\n%s (files, item, whether the shim has it)\n", sec[s]
        n = 0
        for (key in items) {
            split(key, part, SUBSEP)
            if (part[1] != sec[s]) continue
            item = part[2]
            if (sec[s] == "headers") have = (item in shim_hdr)
            else if (sec[s] ~ /^macros/) have = (item in shim_def)
            else {
                # every identifier of the item (at::cuda::getCurrentCUDAStream,
                # options().dtype, data_ptr<at::Half>) is in the shim
                have = 1; rest_ = item
                while (match(rest_, /[A-Za-z_][A-Za-z0-9_]*/)) {
                    if (!(substr(rest_, RSTART, RLENGTH) in shim_id)) have = 0
                    rest_ = substr(rest_, RSTART + RLENGTH)
                }
            }
            ++n
            row[n] = sprintf("%7d  %-52s %s", count[key], item, have ? "shim: yes" : "shim: NO")
            order[n] = sprintf("%09d %s", 999999999 - count[key], item)
        }
        for (i = 2; i <= n; i++) {   # by count, then by name
            k = order[i]; r = row[i]
            for (j = i - 1; j >= 1 && order[j] > k; j--) { order[j + 1] = order[j]; row[j + 1] = row[j] }
            order[j + 1] = k; row[j + 1] = r
        }
        if (n == 0) print "      -  (none)"
        for (i = 1; i <= n; i++) print row[i]
    }
}'
