#!/bin/sh
# budget.sh SRCDIR OUTDIR "CC FLAGS...": code size and stack of quant.h at
# -Os for the target in CC, checked against the firmware budgets:
#   whole library <= 8 KiB of .text on a core with an FPU, one row kernel
#   (a program using only quant_f32_to_s8) <= 1 KiB, and <= 256 bytes of
#   stack for every public function, its deepest call chain included.
# Sizes count quant.h's own functions; the compiler runtime a soft-float
# core links in (__aeabi_f*) is listed apart.
src=$(cd "$1" && pwd); out=$2; cc=$3
mkdir -p "$out"
prefix=${cc%%gcc*}
fail=0
has_fpu=0
case "$cc" in *-mfloat-abi=hard*) has_fpu=1 ;; esac

cat >"$out/all.c" <<'C'
#define QUANT_IMPLEMENTATION
#include "quant.h"
/* keeps every public function */
void (*volatile keep[])(void) = {
    (void (*)(void))quant_attrs_default, (void (*)(void))quant_quantize, (void (*)(void))quant_dequantize,
    (void (*)(void))quant_dynamic_quantize, (void (*)(void))quant_dynamic_dequantize,
    (void (*)(void))quant_f32_to_s8, (void (*)(void))quant_f32_to_u8, (void (*)(void))quant_s8_to_f32,
    (void (*)(void))quant_u8_to_f32,
#ifndef QUANT_NO_F8
    (void (*)(void))quant_f32_to_f8_e4m3, (void (*)(void))quant_f32_to_f8_e5m2,
    (void (*)(void))quant_f8_e4m3_to_f32, (void (*)(void))quant_f8_e5m2_to_f32,
#endif
    (void (*)(void))quant_status_str, (void (*)(void))quant_dtype_name, (void (*)(void))quant_dtype_from_name,
    (void (*)(void))quant_attrs_set, (void (*)(void))quant_backend
};
void entry(void) { keep[0](); }
C
cat >"$out/one.c" <<'C'
#define QUANT_IMPLEMENTATION
#include "quant.h"
float x[4];
int8_t q[4];
void entry(void) { quant_f32_to_s8(x, q, 4, 0.5f, 0); }
C

measure() { # name, file, extra flags -> prints "quant_bytes runtime_bytes"
    # shellcheck disable=SC2086
    $cc -std=c99 -Os -ffreestanding -ffunction-sections -fdata-sections $3 -I"$src" -c "$2" -o "$out/$1.o" || return 1
    # shellcheck disable=SC2086
    $cc -nostdlib -Wl,--gc-sections -Wl,-e,entry "$out/$1.o" -lgcc -o "$out/$1.elf" || return 1
    ${prefix}nm -S --size-sort -t d "$out/$1.elf" | awk '$3 ~ /^[Tt]$/ && !seen[$1]++ {
        n = $2 + 0; if ($4 ~ /^quant/) q += n; else if ($4 != "entry") r += n }
        END { printf "%d %d\n", q, r }'
}

echo "code size at -Os ($cc):"
printf '  %-44s %8s %10s\n' "program" "quant.h" "runtime"
for cfg in "all|all.c|" "all, QUANT_NO_F8 QUANT_ONLY_EXACT|all.c|-DQUANT_NO_F8 -DQUANT_ONLY_EXACT" "quant_f32_to_s8 only|one.c|" "quant_f32_to_s8 only, QUANT_ONLY_EXACT|one.c|-DQUANT_ONLY_EXACT"; do
    name=${cfg%%|*}; rest=${cfg#*|}; file=${rest%%|*}; flags=${rest#*|}
    tag=$(echo "$name" | tr -c 'a-zA-Z0-9\n' '_')
    set -- $(measure "$tag" "$out/$file" "$flags") || { echo "FAIL: build $name"; fail=1; continue; }
    printf '  %-44s %8d %10d\n' "$name" "$1" "$2"
    case "$name" in
        all) [ $has_fpu -eq 1 ] && [ "$1" -gt 8192 ] && { echo "FAIL: whole library $1 > 8192 bytes"; fail=1; } ;;
        "quant_f32_to_s8 only") [ "$1" -gt 1024 ] && { echo "FAIL: one row kernel $1 > 1024 bytes"; fail=1; } ;;
    esac
done

# stack: every function's frame from -fstack-usage, chains from -fcallgraph-info
# shellcheck disable=SC2086
(cd "$out" && $cc -std=c99 -Os -ffreestanding -fstack-usage -fcallgraph-info=su -I"$src" -c all.c -o stack.o) || { echo "FAIL: stack build"; exit 1; }
python3 - "$out/stack.ci" <<'PY' || fail=1
import re, sys
text = open(sys.argv[1]).read()
frame, edges = {}, {}
for m in re.finditer(r'node: \{ title: "([^"]+)" label: "([^"]*)"', text):
    title, label = m.group(1), m.group(2)
    s = re.search(r'(\d+) bytes', label)
    frame[title] = int(s.group(1)) if s else 0
for m in re.finditer(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"', text):
    edges.setdefault(m.group(1), []).append(m.group(2))
def depth(f, seen=()):
    if f in seen: return float("inf")          # recursion: no bound
    return frame.get(f, 0) + max([depth(g, seen + (f,)) for g in edges.get(f, [])] or [0])
public = sorted(t for t in frame if re.fullmatch(r'(.*:)?quant_[a-z0-9_]+', t) and '__' not in t.split(':')[-1])
worst = 0
for f in public:
    d = depth(f); worst = max(worst, d)
    print(f"  stack {f.split(':')[-1]:<28} {d:>5} bytes")
print(f"  deepest public call chain: {worst} bytes (budget 256)")
sys.exit(0 if public and worst <= 256 else 1)
PY
[ $fail -eq 0 ] && echo "budget: ok"
exit $fail
