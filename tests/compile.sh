#!/bin/sh
# compile.sh SRCDIR OUTDIR: the header in every language mode and compiler
# the project promises, warnings as errors, and the programs run.
src=$1
out=$2
mkdir -p "$out"
fail=0
ran=0
warn="-Wall -Wextra -Wpedantic -Werror"

try() { # label, command...
    label=$1; shift
    ran=$((ran + 1))
    if "$@" >"$out/log" 2>&1; then
        echo "ok   $label"
    else
        echo "FAIL $label"; sed 's/^/     /' "$out/log"; fail=$((fail + 1))
    fi
}

for cc in gcc clang; do
    command -v $cc >/dev/null || { echo "missing $cc"; fail=$((fail + 1)); continue; }
    for std in c99 c11; do
        for simd in "" "-DQUANT_SIMD=QUANT_SIMD_SCALAR" "-march=native"; do
            try "$cc -std=$std $simd" $cc -std=$std $warn $simd -I"$src" "$src/tests/compile_api.c" -o "$out/api"
            try "run $cc -std=$std $simd" "$out/api"
        done
    done
    try "$cc QUANT_NO_F8 QUANT_ONLY_EXACT" $cc -std=c99 $warn -I"$src" "$src/tests/config_macros.c" -o "$out/cfg"
    try "run $cc QUANT_NO_F8 QUANT_ONLY_EXACT" "$out/cfg"
    try "$cc QUANT_STATIC in two units" $cc -std=c99 $warn -I"$src" "$src/tests/static_a.c" "$src/tests/static_b.c" -o "$out/static"
    try "run $cc QUANT_STATIC" "$out/static"
    # -ffast-math must stop the build, saying why
    ran=$((ran + 1))
    if $cc -std=c99 -ffast-math -I"$src" -c "$src/tests/compile_api.c" -o "$out/fm.o" >"$out/log" 2>&1; then
        echo "FAIL $cc -ffast-math compiled"; fail=$((fail + 1))
    elif grep -q "fast-math" "$out/log"; then
        echo "ok   $cc -ffast-math refused"
    else
        echo "FAIL $cc -ffast-math: no reason given"; cat "$out/log"; fail=$((fail + 1))
    fi
done
for cxx in g++ clang++; do
    command -v $cxx >/dev/null || { echo "missing $cxx"; fail=$((fail + 1)); continue; }
    for std in c++11 c++17; do
        for simd in "" "-march=native"; do
            try "$cxx -std=$std $simd" $cxx -std=$std $warn $simd -x c++ -I"$src" "$src/tests/compile_api.c" -o "$out/api"
            try "run $cxx -std=$std $simd" "$out/api"
        done
    done
done
echo "compile_matrix: $ran checks, $fail failed"
[ $fail -eq 0 ]
