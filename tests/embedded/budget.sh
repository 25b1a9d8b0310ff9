#!/bin/sh
# budget.sh SRCDIR OUTDIR "CC FLAGS...": flash size and stack of quant.h at
# -Os for the target in CC, checked against the firmware budgets, on a core
# with an FPU: the whole library but the choose pair, quant_explain and the
# strided path and the families of SPEC section 7 (QUANT_NO_CHOOSE
# QUANT_NO_EXPLAIN QUANT_NO_STRIDES QUANT_NO_MX QUANT_NO_S16 QUANT_NO_BLOCKS) <= 12 KiB
# of .text + .rodata (with them: reported, not held to a budget), the
# smallest configuration (QUANT_MINIMAL) <= 4 KiB, and what each
# QUANT_WITH_ macro adds to it (reported), a program using only
# quant_requantize <= 1 KiB, and the QUANT_INT8 preset <= 4 KiB; everywhere
# one row kernel (a program using only quant_f32_to_s8) <= 1 KiB, no .data
# or .bss, and <= 256 bytes of stack for every public function but
# quant_choose_qparams, quant_choose_and_quantize and quant_explain
# (reported), its deepest call chain included, in a build with
# QUANT_NO_STRIDES and in the QUANT_INT8 preset (the strided path is
# reported); on a core without an FPU the
# plan functions, which hold a copy of the plan beside the kernels' chain,
# get 288 bytes. Sizes count quant.h's own code and constants; the compiler
# runtime a soft-float core links in (__aeabi_f*) is listed apart.
# On a core with Helium (MVE) the budgets hold for the scalar backend
# (QUANT_SIMD=QUANT_SIMD_SCALAR), what size-bound firmware builds there;
# the Helium build is reported after it (its vector kernels and 256-element
# staging buffers buy speed with flash and stack), with no .data or .bss
# held there too. Armv8.1-M code of the same C comes out a little larger
# than Armv7E-M's (gcc 12: 4166 bytes minimal against the M4's 4080, 264
# bytes of stack in quant_run_range against 256): there the size budgets
# get 128 bytes and the stack budgets 16 bytes more (told by MVE, which
# only Armv8.1-M has: gcc 12 names no macro for 8.1-M itself).
src=$(cd "$1" && pwd); out=$2; cc=$3
mkdir -p "$out"
prefix=${cc%%gcc*}
fail=0
has_fpu=0
case "$cc" in *-mfloat-abi=hard*) has_fpu=1 ;; esac
# shellcheck disable=SC2086
macros=$($cc -dM -E - </dev/null 2>/dev/null)
mvef=0; hold=; slack=0; sslack=0
case "$macros" in *"__ARM_FEATURE_MVE 2"*|*"__ARM_FEATURE_MVE 3"*) mvef=1; hold=-DQUANT_SIMD=QUANT_SIMD_SCALAR ;; esac
case "$macros" in *__ARM_FEATURE_MVE*) slack=128; sslack=16 ;; esac # MVE: Armv8.1-M

cat >"$out/all.c" <<'C'
#define QUANT_IMPLEMENTATION
#include "quant.h"
/* keeps every public function */
void (*volatile keep[])(void) = {
    (void (*)(void))quant_attrs_default, (void (*)(void))quant_quantize, (void (*)(void))quant_dequantize,
    (void (*)(void))quant_dynamic_quantize, (void (*)(void))quant_dynamic_dequantize,
    (void (*)(void))quant_f32_to_s8, (void (*)(void))quant_f32_to_u8, (void (*)(void))quant_s8_to_f32,
    (void (*)(void))quant_u8_to_f32,
#ifndef QUANT_NO_4BIT
    (void (*)(void))quant_u4_to_f32, (void (*)(void))quant_s4_to_f32,
#  ifndef QUANT_NO_HALF
    (void (*)(void))quant_u4_to_f16, (void (*)(void))quant_u4_to_bf16,
    (void (*)(void))quant_s4_to_f16, (void (*)(void))quant_s4_to_bf16,
#  endif
#endif
#ifndef QUANT_NO_HALF
    (void (*)(void))quant_bf16_to_s8, (void (*)(void))quant_bf16_to_u8,
    (void (*)(void))quant_f16_to_s8, (void (*)(void))quant_f16_to_u8,
#endif
#ifndef QUANT_NO_F8
    (void (*)(void))quant_f32_to_f8_e4m3, (void (*)(void))quant_f32_to_f8_e5m2,
    (void (*)(void))quant_f8_e4m3_to_f32, (void (*)(void))quant_f8_e5m2_to_f32,
#endif
#ifndef QUANT_NO_MX
    (void (*)(void))quant_mxfp4_to_f32, (void (*)(void))quant_nvfp4_to_f32,
#  ifndef QUANT_NO_HALF
    (void (*)(void))quant_mxfp4_to_f16, (void (*)(void))quant_mxfp4_to_bf16,
    (void (*)(void))quant_nvfp4_to_f16, (void (*)(void))quant_nvfp4_to_bf16,
#  endif
#endif
#ifndef QUANT_NO_CHOOSE
    (void (*)(void))quant_choose_qparams, (void (*)(void))quant_choose_and_quantize,
#endif
    (void (*)(void))quant_status_str, (void (*)(void))quant_dtype_name,
#ifndef QUANT_NO_PARSE
    (void (*)(void))quant_dtype_from_name, (void (*)(void))quant_attrs_set,
#endif
#ifndef QUANT_NO_EXPLAIN
    (void (*)(void))quant_explain,
#endif
#ifndef QUANT_NO_REQUANT
    (void (*)(void))quant_requantize, (void (*)(void))quant_quantize_multiplier,
#endif
#ifndef QUANT_NO_PLAN
    (void (*)(void))quant_prepare, (void (*)(void))quant_run, (void (*)(void))quant_run_range,
    (void (*)(void))quant_plan_units,
#endif
    (void (*)(void))quant_backend
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

cat >"$out/rq.c" <<'C'
#define QUANT_IMPLEMENTATION
#include "quant.h"
quant_tensor q[2]; /* the names measure() leaves out of .data/.bss */
quant_requant x;
int entry(void) { return (int)quant_requantize(&q[0], &q[1], &x); }
C
cat >"$out/int8.c" <<'C'
#define QUANT_IMPLEMENTATION
#include "quant.h"
/* an int8 network's quantization: its input quantized, each layer's
   accumulators requantized, its output dequantized */
void (*volatile keep[])(void) = {
    (void (*)(void))quant_attrs_default, (void (*)(void))quant_quantize, (void (*)(void))quant_dequantize,
    (void (*)(void))quant_requantize, (void (*)(void))quant_quantize_multiplier, (void (*)(void))quant_status_str
};
void entry(void) { keep[0](); }
C

measure() { # name, file, extra flags -> prints "text rodata runtime data"
    # shellcheck disable=SC2086
    $cc -std=c99 -Os -ffreestanding -ffunction-sections -fdata-sections $hold $3 -I"$src" -c "$2" -o "$out/$1.o" || return 1
    # shellcheck disable=SC2086
    $cc -nostdlib -Wl,--gc-sections -Wl,-e,entry "$out/$1.o" -lgcc -o "$out/$1.elf" || return 1
    # .rodata holds quant.h's constants and strings, and the runtime's
    # named tables (__clz_tab ...); .data/.bss only the test's keep[] table
    ro=$(${prefix}size -A "$out/$1.elf" | awk '$1 ~ /^\.rodata/ { s += $2 } END { print s + 0 }')
    data=$(${prefix}size -A "$out/$1.elf" | awk '$1 ~ /^\.(data|bss)/ { s += $2 } END { print s + 0 }')
    ${prefix}nm -S --size-sort -t d "$out/$1.elf" | awk -v ro="$ro" -v data="$data" '
        $3 ~ /^[Tt]$/ && !seen[$1]++ { n = $2 + 0; if ($4 ~ /^quant/) q += n; else if ($4 != "entry") r += n }
        $3 ~ /^[Rr]$/ && $4 ~ /^__/ { ro -= $2; r += $2 }
        $3 ~ /^[DdBb]$/ && ($4 == "keep" || $4 == "x" || $4 == "q") { data -= $2 } # the test programs own
        END { printf "%d %d %d %d\n", q, ro, r, data }'
}

minimal="-DQUANT_MINIMAL"
withs="F8 ROUNDINGS 4BIT HALF GROUPS STATUS_TEXT PARSE CHOOSE EXPLAIN PLAN STRIDES MX S16 BLOCKS REQUANT"
echo "flash size at -Os ($cc${hold:+ $hold}), bytes:"
printf '  %-46s %6s %7s %6s %8s\n' "program" ".text" ".rodata" "total" "runtime"
set -- "all|all.c|" "all but choose, explain, strides|all.c|-DQUANT_NO_CHOOSE -DQUANT_NO_EXPLAIN -DQUANT_NO_STRIDES" \
       "all but choose, explain, strides, MX, S16, blocks|all.c|-DQUANT_NO_CHOOSE -DQUANT_NO_EXPLAIN -DQUANT_NO_STRIDES -DQUANT_NO_MX -DQUANT_NO_S16 -DQUANT_NO_BLOCKS -DQUANT_NO_REQUANT" \
       "all, QUANT_NO_F8 QUANT_ONLY_EXACT|all.c|-DQUANT_NO_F8 -DQUANT_ONLY_EXACT" \
       "all, QUANT_MINIMAL|all.c|$minimal"
# what each feature adds back to the minimal build
for w in $withs; do set -- "$@" "all, QUANT_MINIMAL + QUANT_WITH_$w|all.c|$minimal -DQUANT_WITH_$w"; done
set -- "$@" "quant_f32_to_s8 only|one.c|" "quant_f32_to_s8 only, QUANT_MINIMAL|one.c|$minimal" \
       "quant_requantize only|rq.c|" "int8 inference, QUANT_INT8|int8.c|-DQUANT_INT8"
min_total=0
for cfg in "$@"; do
    name=${cfg%%|*}; rest=${cfg#*|}; file=${rest%%|*}; flags=${rest#*|}
    tag=$(echo "$name" | tr -c 'a-zA-Z0-9\n' '_')
    r=$(measure "$tag" "$out/$file" "$flags") || { echo "FAIL: build $name"; fail=1; continue; }
    set -- $r
    total=$(($1 + $2))
    case "$name" in
        *"+ QUANT_WITH_"*) printf '  %-46s %6d %7d %6d %8d  (+%d)\n' "$name" "$1" "$2" "$total" "$3" $((total - min_total)) ;;
        *) printf '  %-46s %6d %7d %6d %8d\n' "$name" "$1" "$2" "$total" "$3" ;;
    esac
    [ "$4" -ne 0 ] && { echo "FAIL: $name has $4 bytes of .data/.bss"; fail=1; }
    case "$name" in
        "all but choose, explain, strides, MX, S16, blocks") [ $has_fpu -eq 1 ] && [ $total -gt $((12288 + slack)) ] && { echo "FAIL: whole library $total > $((12288 + slack)) bytes"; fail=1; } ;;
        "all, QUANT_MINIMAL") min_total=$total
            [ $has_fpu -eq 1 ] && [ $total -gt $((4096 + slack)) ] && { echo "FAIL: minimal $total > $((4096 + slack)) bytes"; fail=1; } ;;
        "quant_f32_to_s8 only") [ "$1" -gt $((1024 + slack)) ] && { echo "FAIL: one row kernel $1 > $((1024 + slack)) bytes"; fail=1; } ;;
        "quant_requantize only") [ $has_fpu -eq 1 ] && [ $total -gt $((1024 + slack)) ] && { echo "FAIL: requantize $total > $((1024 + slack)) bytes"; fail=1; } ;;
        "int8 inference, QUANT_INT8") [ $has_fpu -eq 1 ] && [ $total -gt $((4096 + slack)) ] && { echo "FAIL: QUANT_INT8 $total > $((4096 + slack)) bytes"; fail=1; } ;;
    esac
done

# stack: every function's frame from -fstack-usage, chains from -fcallgraph-info
# shellcheck disable=SC2086
# held to the budget without the strided path, the MX family and the block
# formats; each of
# them reported apart
# (and on a Helium core the Helium build's, reported: no scalar hold)
passes="core int8 mx strides"
[ $mvef -eq 1 ] && passes="$passes helium"
for pass in $passes; do
case $pass in core|helium) flags="-DQUANT_NO_STRIDES -DQUANT_NO_MX -DQUANT_NO_S16 -DQUANT_NO_BLOCKS" ;; int8) flags=-DQUANT_INT8 ;;
    mx) flags=-DQUANT_NO_STRIDES ;; *) flags= ;; esac
[ $pass = helium ] && hold=
# shellcheck disable=SC2086
(cd "$out" && $cc -std=c99 -Os -ffreestanding -fstack-usage -fcallgraph-info=su $hold $flags -I"$src" -c all.c -o stack.o) || { echo "FAIL: stack build"; exit 1; }
python3 - "$out/stack.ci" $has_fpu $pass $sslack <<'PY' || fail=1
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
soft = sys.argv[2] == '0'
if sys.argv[3] == 'strides':   # the strided path: reported, not held
    for f in public:
        name = f.split(':')[-1]
        if name in ('quant_quantize', 'quant_run_range'):
            print(f"  stack {name:<28} {depth(f):>5} bytes with the strided path (no budget)")
    sys.exit(0)
if sys.argv[3] == 'helium':    # the Helium build: reported, not held
    d = sorted(((depth(f), f.split(':')[-1]) for f in public if not f.split(':')[-1].startswith('quant_choose_') and not f.endswith('quant_explain')), reverse=True)
    print(f"  Helium: deepest public call chain {d[0][0]} bytes ({d[0][1]}; no budget); "
          + ", ".join(f"{n} {v}" for v, n in d[1:6]))
    sys.exit(0)
if sys.argv[3] == 'mx':        # the MX family (f4, e8m0/e4m3 scales): reported, not held
    d = max(depth(f) for f in public if not f.split(':')[-1].startswith('quant_choose_') and not f.endswith('quant_explain'))
    print(f"  deepest public call chain with the MX family, s16 and the block formats: {d} bytes (no budget)")
    sys.exit(0)
worst, over = 0, []
int8 = sys.argv[3] == 'int8'  # the QUANT_INT8 preset: held, printed in one line
for f in public:
    d = depth(f)
    name = f.split(':')[-1]
    choose = name.startswith('quant_choose_') or name == 'quant_explain'
    budget = None if choose else (288 if soft and name in ('quant_prepare', 'quant_run', 'quant_run_range') else 256) + int(sys.argv[4])
    if budget == 256 + int(sys.argv[4]): worst = max(worst, d)
    if budget is not None and d > budget: over.append(f"{name} {d} > {budget}")
    if not int8: print(f"  stack {name:<28} {d:>5} bytes" + (' (no budget)' if budget is None else f" (budget {budget})"))
print(f"  deepest public call chain held to {256 + int(sys.argv[4])} bytes{', QUANT_INT8' if int8 else ''}: {worst} bytes")
for o in over: print(f"FAIL: stack of {o}")
sys.exit(0 if public and not over else 1)
PY
done

# the Helium build, reported: sizes and stack with no budget, but no .data or .bss
if [ $mvef -eq 1 ]; then
    hold=
    echo "Helium build (QUANT_SIMD_HELIUM), reported, no budget:"
    for cfg in "all|all.c|" "all but choose, explain, strides, MX, S16, blocks|all.c|-DQUANT_NO_CHOOSE -DQUANT_NO_EXPLAIN -DQUANT_NO_STRIDES -DQUANT_NO_MX -DQUANT_NO_S16 -DQUANT_NO_BLOCKS" \
               "all, QUANT_MINIMAL|all.c|$minimal" "quant_f32_to_s8 only|one.c|"; do
        name=${cfg%%|*}; rest=${cfg#*|}; file=${rest%%|*}; flags=${rest#*|}
        tag=helium_$(echo "$name" | tr -c 'a-zA-Z0-9\n' '_')
        r=$(measure "$tag" "$out/$file" "$flags") || { echo "FAIL: build $name (Helium)"; fail=1; continue; }
        set -- $r
        printf '  %-46s %6d %7d %6d %8d\n' "$name" "$1" "$2" $(($1 + $2)) "$3"
        [ "$4" -ne 0 ] && { echo "FAIL: $name (Helium) has $4 bytes of .data/.bss"; fail=1; }
    done
fi
[ $fail -eq 0 ] && echo "budget: ok"
exit $fail
