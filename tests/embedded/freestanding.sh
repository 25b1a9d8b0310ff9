#!/bin/sh
# freestanding.sh SRCDIR OUTDIR "CC FLAGS...": the implementation compiled
# -ffreestanding -Os for the target references nothing but the compiler
# runtime (__aeabi_*, __gnu_thumb1_case_*; not memcpy or memset, which
# libgcc lacks) and has empty .data and .bss.
src=$(cd "$1" && pwd); out=$2; cc=$3
mkdir -p "$out"
prefix=${cc%%gcc*}
printf '#define QUANT_IMPLEMENTATION\n#include "quant.h"\n' >"$out/impl.c"
# shellcheck disable=SC2086
$cc -std=c99 -ffreestanding -Os -Wall -Wextra -Wpedantic -Werror -I"$src" -c "$out/impl.c" -o "$out/impl.o" || exit 1
fail=0
undefined=$(${prefix}nm -u "$out/impl.o" | awk '{print $NF}')
echo "undefined symbols: $(echo $undefined)"
for sym in $undefined; do
    case $sym in
        __aeabi_*|__gnu_thumb1_case_*) ;;
        *) echo "FAIL: references $sym"; fail=1 ;;
    esac
done
${prefix}size -A "$out/impl.o" | awk '$1 ~ /^\.(data|bss)/ && $2 > 0 { print "FAIL: section " $1 " has " $2 " bytes"; bad = 1 }
                                      END { exit bad }' || fail=1
[ $fail -eq 0 ] && echo "freestanding: ok (no libc, no mutable static data)"
exit $fail
