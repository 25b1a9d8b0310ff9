#!/bin/sh
# compile_time.sh [CC]: what the implementation's translation unit costs to
# compile with gcc -O2 (or CC), per build kind: seconds and bytes of .text.
#
#   sh bench/compile_time.sh
src=$(cd "$(dirname "$0")/.." && pwd)
cc=${1:-gcc}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
now() { date +%s.%N; }
status=0
for kind in "dispatch:compile_api.c:" "native:compile_api.c:-march=native" \
            "scalar:compile_api.c:-DQUANT_SIMD=QUANT_SIMD_SCALAR" "dispatch, QUANT_MINIMAL:config_minimal.c:"; do
    label=${kind%%:*}; rest=${kind#*:}; file=${rest%%:*}; flags=${rest#*:}
    t0=$(now)
    # shellcheck disable=SC2086
    if $cc -std=c99 -O2 $flags -I"$src" -c "$src/tests/$file" -o "$out/t.o" >"$out/log" 2>&1; then
        t1=$(now)
        printf 'compile time, %s -O2, %s: %.1f s, %s bytes of .text\n' "$cc" "$label" "$(awk "BEGIN { print $t1 - $t0 }")" \
            "$(size -A "$out/t.o" | awk '$1 ~ /^\.text/ { s += $2 } END { print s }')"
    else
        echo "FAIL $label"; cat "$out/log"; status=1
    fi
done
exit $status
