#!/bin/sh
# Builds and runs the test suite in every configuration the project
# promises, then prints one line: "N passed, N failed".
#
#   tests/run-all.sh            all configurations
#   QUICK=1 tests/run-all.sh    native build only, no slow suite
#
# A configuration whose tools are missing is reported and counted as failed,
# so a machine without them cannot pass by accident.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
out=${BUILD_ROOT:-$here/build-ci}
mkdir -p "$out"
: >"$out/configs.txt"
: >"$out/failed.txt"

config() { # name, meson test args (quoted, one string), meson setup args...
    name=$1; targs=$2; shift 2
    dir="$out/$name"
    echo "=== $name: meson setup $*"
    if ! meson setup --wipe "$dir" "$here" "$@" >"$out/$name.setup.log" 2>&1 &&
       ! meson setup "$dir" "$here" "$@" >"$out/$name.setup.log" 2>&1; then
        echo "FAIL $name: meson setup"; tail -20 "$out/$name.setup.log"; echo "$name" >>"$out/failed.txt"; return
    fi
    if ! meson compile -C "$dir" >"$out/$name.build.log" 2>&1; then
        echo "FAIL $name: build"; tail -30 "$out/$name.build.log"; echo "$name" >>"$out/failed.txt"; return
    fi
    # shellcheck disable=SC2086
    QUANT_TEST_LIGHT=${light:-0} meson test -C "$dir" --print-errorlogs $targs 2>&1 | grep -E '^ *[0-9]+/[0-9]+ |^(Ok|Fail|Skipped|Timeout):' | sed "s/^/  [$name] /"
    echo "$dir" >>"$out/configs.txt"
}

native="-Dsimd=native"
# gcc with -std=c99 contracts nothing (-ffp-contract=off), so native is also
# the contraction-off build; the benchmark is built once, at -O0, where it
# compiles fastest.  Sanitized builds are unoptimized with line tables only
# (-g1): on the 2-core AMD Zen 3 guest gcc compiled tests/impl.c with ASan
# and UBSan in 12 s at -O0 against 480 s at -O1 (clang: 8 minutes a build
# at -O1, 25 s at -O0), and every check stays where the source put it.
san="-Db_sanitize=address,undefined -Db_lundef=false -Doptimization=0 -Ddebug=false"
[ "${QUICK:-0}" = 1 ] || {
# The cross and embedded configurations run beside the x86 ones, their
# report held back until the end: each pipeline leaves a core idle while
# one big unit compiles or one long test runs, and the two together took
# 40 minutes one after the other on the 2-core Intel Xeon guest.
(
light=1
config aarch64     "" --cross-file "$here/cross/aarch64.txt" -Dbench=false
config armhf       "" --cross-file "$here/cross/armhf.txt" -Dbench=false
light=0
config cortex-m4   "" --cross-file "$here/cross/cortex-m4.txt"
config cortex-m0   "" --cross-file "$here/cross/cortex-m0.txt"
config cortex-m55  "" --cross-file "$here/cross/cortex-m55.txt"
) >"$out/cross.log" 2>&1 &
cross_pid=$!
}
config native      "--setup=full"  $native -Dbench=false
[ "${QUICK:-0}" = 1 ] || {
# each diff test runs at every dispatch level (sse2, avx2, avx512,
# avx512vbmi) in these two; valgrind below runs the forced AVX2 build
config dispatch    "--no-suite compile" -Dsimd=auto -Dbench=false
CC=clang config clang-dispatch "--no-suite compile" -Dsimd=auto -Dbench=false
config scalar      "--no-suite compile" -Dsimd=scalar -Dbench=false
# a forced AVX-512 build runs only where the CPU has AVX-512 (F, BW, VL)
if grep -qw avx512f /proc/cpuinfo && grep -qw avx512bw /proc/cpuinfo && grep -qw avx512vl /proc/cpuinfo; then
    config avx512      "--no-suite compile" -Dsimd=avx512 -Dbench=false
else
    echo "=== avx512: skipped, this CPU has no AVX-512 F+BW+VL (the dispatch builds report their AVX-512 levels as skipped)"
fi
# the -O0, memcheck, sanitizer and qemu-user runs repeat fewer random rounds
# (tests/check.h, check_light): every path, length and edge value in a
# fraction of the time; the optimized x86 builds above run them all
light=1
config O0          "--no-suite compile" $native -Dbuildtype=debug -Doptimization=0
light=0
config O2-contract-fast "--no-suite compile" $native -Doptimization=2 "-Dc_args=-ffp-contract=fast" -Dbench=false
light=1
config sanitize    "--no-suite compile" $native $san "-Dc_args=-g1 -fno-sanitize-recover=all" -Dbench=false
light=0
CC=clang config clang "--no-suite compile" $native -Dbench=false
# the libFuzzer target for 60 s rides on the clang ASan+UBSan build (at
# -O0 it runs about a third as many inputs as at -O1: 720 a second against
# 1960)
light=1
CC=clang config clang-sanitize "--no-suite compile" $native $san -Dfuzz=true \
    "-Dc_args=-g1 -fno-sanitize-recover=all" -Dbench=false
# valgrind has no AVX-512: memcheck runs the AVX2 build
config valgrind    "--no-suite compile --wrapper=$here/tests/valgrind.sh --timeout-multiplier=10" -Dsimd=avx2 -Dbuildtype=debugoptimized -Dbench=false
light=0
wait "$cross_pid"
cat "$out/cross.log"
}

python3 - "$out/configs.txt" "$(wc -l <"$out/failed.txt")" <<'PY'
import glob, json, sys
passed = failed = skipped = 0
for d in open(sys.argv[1]).read().split():
    logs = glob.glob(d + "/meson-logs/testlog*.json")  # testlog-SETUP.json for --setup
    if not logs:
        failed += 1
        continue
    for line in open(logs[0]).read().splitlines():
        r = json.loads(line)["result"]
        if r in ("OK", "EXPECTEDFAIL"): passed += 1
        elif r == "SKIP": skipped += 1
        else: failed += 1
failed += int(sys.argv[2])
if skipped: print(f"({skipped} skipped: a backend this CPU cannot run)")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
