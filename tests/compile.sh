#!/bin/sh
# compile.sh SRCDIR OUTDIR [PART]: the header in every language mode and
# compiler the project promises, warnings as errors, and the programs run.
# PART (c, cxx or warnings; all when absent) picks a third of the matrix, so
# that Meson runs the thirds side by side.
src=$1
out=$2
part=${3:-all}
want() { [ "$part" = all ] || [ "$part" = "$1" ]; }
mkdir -p "$out"
fail=0
ran=0
# the flags careful users build with, each where the language has it
warn_common="-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wcast-qual -Wcast-align -Wundef -Werror"
warn="$warn_common -Wstrict-prototypes -Wmissing-prototypes"
warn_gxx="$warn_common"
warn_clangxx="$warn_common -Wmissing-prototypes"

try() { # label, command...
    label=$1; shift
    ran=$((ran + 1))
    if "$@" >"$out/log" 2>&1; then
        echo "ok   $label"
    else
        echo "FAIL $label"; sed 's/^/     /' "$out/log"; fail=$((fail + 1))
    fi
}

want c && for cc in gcc clang; do
    command -v $cc >/dev/null || { echo "missing $cc"; fail=$((fail + 1)); continue; }
    for std in c99 c11; do
        for simd in "" "-DQUANT_SIMD=QUANT_SIMD_SCALAR" "-march=native"; do
            try "$cc -std=$std $simd" $cc -std=$std $warn $simd -I"$src" "$src/tests/compile_api.c" -o "$out/api"
            try "run $cc -std=$std $simd" "$out/api"
        done
    done
    try "$cc QUANT_NO_F8 QUANT_ONLY_EXACT" $cc -std=c99 $warn -I"$src" "$src/tests/config_macros.c" -o "$out/cfg"
    try "run $cc QUANT_NO_F8 QUANT_ONLY_EXACT" "$out/cfg"
    for simd in "" "-DQUANT_SIMD=QUANT_SIMD_SCALAR"; do
        try "$cc QUANT_NO_4BIT QUANT_NO_HALF QUANT_NO_GROUPS QUANT_SHORT_STATUS $simd" $cc -std=c99 $warn $simd -I"$src" "$src/tests/config_formats.c" -o "$out/cfg4"
        try "run $cc QUANT_NO_4BIT ... $simd" "$out/cfg4"
    done
    # QUANT_MINIMAL alone (optimized, for the warnings that need it), and
    # with each feature kept back by its QUANT_WITH_ macro (at -O0: each
    # took 5-11 s at -O1, a third of this part's time)
    for with in "" F8 ROUNDINGS 4BIT HALF GROUPS STATUS_TEXT PARSE CHOOSE EXPLAIN PLAN STRIDES MX S16 BLOCKS; do
        d=""; o=-O0; [ -n "$with" ] && d=-DQUANT_WITH_$with; [ -n "$with" ] || o=-O1
        try "$cc QUANT_MINIMAL $d" $cc -std=c99 $o $warn $d -I"$src" "$src/tests/config_minimal.c" -o "$out/cfgmin"
        try "run $cc QUANT_MINIMAL $d" "$out/cfgmin"
    done
    # the GGUF example as a user builds it, with its own QUANT_MINIMAL +
    # QUANT_WITH_BLOCKS implementation (the Meson build links tests/impl.c's)
    try "$cc examples/gguf_dump.c alone" $cc -std=c99 $warn -I"$src" "$src/examples/gguf_dump.c" -o "$out/gguf_dump" -lm
    try "run $cc examples/gguf_dump.c alone" "$out/gguf_dump" "$src/tests/data/tiny.gguf" q4_K
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
want cxx && for cxx in g++ clang++; do
    command -v $cxx >/dev/null || { echo "missing $cxx"; fail=$((fail + 1)); continue; }
    wx=$warn_gxx; [ $cxx = clang++ ] && wx=$warn_clangxx
    for std in c++11 c++17; do
        for simd in "" "-march=native"; do
            try "$cxx -std=$std $simd" $cxx -std=$std $wx $simd -x c++ -I"$src" "$src/tests/compile_api.c" -o "$out/api"
            try "run $cxx -std=$std $simd" "$out/api"
        done
    done
    # optimized, where gcc 12 inlines its own AVX-512 helpers and warns in
    # them (gcc bug 105593): the header must keep that warning to itself
    # (under the flags above, a superset of a user's -Wall -Wextra).
    # clang warns from its front end, the same at any -O: g++ alone
    [ $cxx = g++ ] || continue
    try "$cxx -std=c++17 -O2 -march=native" $cxx -std=c++17 -O2 $wx -march=native -x c++ -I"$src" "$src/tests/compile_api.c" -o "$out/api"
    try "run $cxx -std=c++17 -O2 -march=native" "$out/api"
done
# every backend, unoptimized too (gcc expands some intrinsics as macros
# there), and the cross compilers CI installs: warnings only, no run.
# Optimized, where the warnings that need inlining live: SSE2 alone, and
# -mavx2, whose dispatch compiles every x86 level (SSE2 to AVX-512 VBMI)
# in one unit; the avx512 and native units hold a subset of those kernels
# (and the C++ part builds native at -O2), so they stay at -O0 here, which
# saves a hundred seconds of CPU a run. clang's warnings come from its front
# end, the same at any -O, so clang builds each at -O0 only (its -O2
# -mavx2 unit took 67 s on the AMD Zen 3 guest).
want warnings && for cc in gcc clang; do
    for simd in "-DQUANT_SIMD=QUANT_SIMD_SSE2" "-mavx2 -mfma" "-mavx512f -mavx512bw -mavx512vl" "-march=native"; do
        for opt in -O0 -O2; do
            case "$cc $opt $simd" in *"-O2 -mavx512f"* | *"-O2 -march=native" | "clang -O2"*) continue ;; esac
            try "$cc $opt $simd (warnings)" $cc -std=c99 $opt $warn $simd -I"$src" -c "$src/tests/compile_api.c" -o "$out/w.o"
        done
    done
done
want warnings && for x in "aarch64-linux-gnu-gcc" "arm-linux-gnueabihf-gcc -mfpu=neon" \
         "arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16" \
         "arm-none-eabi-gcc -mcpu=cortex-m0 -mthumb"; do
    set -- $x
    command -v "$1" >/dev/null || { echo "missing $1"; fail=$((fail + 1)); continue; }
    try "$x (warnings)" $x -std=c99 -O2 $warn -I"$src" -c "$src/tests/config_macros.c" -o "$out/w.o"
    try "$x QUANT_NO_4BIT ... (warnings)" $x -std=c99 -Os $warn -I"$src" -c "$src/tests/config_formats.c" -o "$out/w.o"
    try "$x QUANT_MINIMAL (warnings)" $x -std=c99 -Os $warn -I"$src" -c "$src/tests/config_minimal.c" -o "$out/w.o"
    try "$x -Os (warnings)" $x -std=c99 -Os $warn -I"$src" -c "$src/tests/compile_api.c" -o "$out/w.o"
done

echo "compile_matrix ($part): $ran checks, $fail failed"
[ $fail -eq 0 ]
