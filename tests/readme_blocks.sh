#!/bin/sh
# readme_blocks.sh SRCDIR OUTDIR: every C code block of README.md compiles
# as written (C99 and C++, warnings as errors) and runs to exit status 0;
# every Meson block parses in a throwaway project that uses quant.h.
src=$1
out=$2
rm -rf "$out" && mkdir -p "$out"
awk -v dir="$out" '
    /^```c$/     { f = 1; n++; file = sprintf("%s/block%d.c", dir, n); next }
    /^```meson$/ { f = 2; m++; file = sprintf("%s/meson%d.txt", dir, m); next }
    /^```/       { f = 0; next }
    f            { print > file }
' "$src/README.md"
fail=0
ran=0
warn="-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Werror"
for c in "$out"/block*.c; do
    [ -e "$c" ] || { echo "FAIL no C block in README.md"; exit 1; }
    b=${c%.c}
    ran=$((ran + 1))
    # a block with an OpenMP pragma is built with OpenMP, as it says
    omp=""
    grep -q '^#pragma omp' "$c" && omp="-fopenmp"
    if cc -std=c99 $warn $omp -I"$src" "$c" -o "$b" >"$b.log" 2>&1 && "$b" >>"$b.log" 2>&1 &&
       c++ -x c++ -std=c++11 -Wall -Wextra -Werror $omp -I"$src" "$c" -o "$b.cxx" >>"$b.log" 2>&1 && "$b.cxx" >>"$b.log" 2>&1; then
        echo "ok   $(basename "$c")"
    else
        echo "FAIL $(basename "$c")"; sed 's/^/     /' "$b.log"; fail=$((fail + 1))
    fi
done
# a Meson block is a line of a consumer's meson.build: run it in a project
# with quant.h as its subproject
for m in "$out"/meson*.txt; do
    [ -e "$m" ] || continue
    ran=$((ran + 1))
    p=${m%.txt}.proj
    mkdir -p "$p/subprojects"
    ln -s "$src" "$p/subprojects/quant"
    { echo "project('consumer', 'c')"; cat "$m"; echo "executable('use', 'use.c', dependencies : quant_dep)"; } >"$p/meson.build"
    cp "$out/block1.c" "$p/use.c"
    if meson setup "$p/build" "$p" >"$p.log" 2>&1 && meson compile -C "$p/build" >>"$p.log" 2>&1 &&
       "$p/build/use" >>"$p.log" 2>&1; then
        echo "ok   $(basename "$m")"
    else
        echo "FAIL $(basename "$m")"; sed 's/^/     /' "$p.log" | tail -20; fail=$((fail + 1))
    fi
done
echo "readme_blocks: $ran blocks, $fail failed"
[ $fail -eq 0 ]
