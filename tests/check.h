/* tests/check.h - the few lines every test program shares. */
#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

#if defined(__GNUC__)
#define CHECK_UNUSED __attribute__((unused))
#else
#define CHECK_UNUSED
#endif

static long check_failures, check_count;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        ++check_count;                                                     \
        if (!(cond)) {                                                     \
            if (++check_failures <= 30) {                                  \
                fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);            \
                fprintf(stderr, __VA_ARGS__);                              \
                fputc('\n', stderr);                                       \
            }                                                              \
        }                                                                  \
    } while (0)

CHECK_UNUSED static int check_done(const char *name)
{
    printf("%s: %ld checks, %ld failed\n", name, check_count, check_failures);
    return check_failures ? 1 : 0;
}

/* xorshift64*: the same stream on every platform */

static uint64_t check_rng = 0x9E3779B97F4A7C15ull;
CHECK_UNUSED static uint32_t check_rand(void)
{
    check_rng ^= check_rng >> 12;
    check_rng ^= check_rng << 25;
    check_rng ^= check_rng >> 27;
    return (uint32_t)((check_rng * 0x2545F4914F6CDD1Dull) >> 32);
}

/* QUANT_TEST_LIGHT set (tests/run-all.sh's -O0, memcheck, sanitizer and
   qemu-user runs, where each operation costs several to fifty times as
   much): the programs that repeat random rounds run fewer of them, and
   say so. Their edge values, every length and every path stay; the
   optimized x86 builds run them all. */
CHECK_UNUSED static int check_light(const char *name, int full, int light)
{
    const char *v = getenv("QUANT_TEST_LIGHT");
    if (v == NULL || *v == '\0' || strcmp(v, "0") == 0) return full;
    printf("%s: QUANT_TEST_LIGHT, %d of %d random rounds\n", name, light, full);
    return light;
}

CHECK_UNUSED static float check_float_bits(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
CHECK_UNUSED static uint32_t check_bits_float(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* The exhaustive sweeps over f32 bit patterns, in blocks of consecutive
   patterns of one sign (a block holding NaN starts at an infinity or at the
   first NaN): out[0..n), elements of size bytes, is what quant.h gave, and
   at(ctx, j) compares element j with the reference (the oracle, or the
   scalar kernel) and reports a difference, returning 0. Every conversion
   swept is monotone in |x| (a rounded quotient, saturated; an f8, f4, f16 or
   bf16 code; a NaN's code grows with its payload or stays put), so the
   reference's results, like the correct ones, stay equal wherever they
   agree at both ends of a run of equal elements of out. The reference runs
   there and at every 1024th pattern (a check on that premise), which is
   enough: a wrong element inside a run splits the run, with ends at it.
   Returns 1 when all agree. The sweeps run in the time quant.h takes, not
   the reference's, which was 90% of it. */
typedef int (*check_at_fn)(void *ctx, size_t j);
CHECK_UNUSED static int check_runs(const void *out, size_t size, size_t n, check_at_fn at, void *ctx)
{
    const unsigned char *o = (const unsigned char *)out;
    size_t c, j;
    for (c = 0; c < n; c += 1024) {
        const size_t len = n - c < 1024 ? n - c : 1024;
        if (!at(ctx, c) || !at(ctx, c + len - 1)) return 0;
        if (len < 3 || memcmp(o + c * size, o + (c + 1) * size, (len - 1) * size) == 0) continue; /* one run */
        for (j = c + 1; j + 1 < c + len; ++j)
            if ((memcmp(o + j * size, o + (j - 1) * size, size) || memcmp(o + j * size, o + (j + 1) * size, size)) &&
                !at(ctx, j))
                return 0;
    }
    return 1;
}

#ifdef QUANT_H_INCLUDED
/* a tensor of the given rank, dims and data, every other field zero */
CHECK_UNUSED static quant_tensor check_tensor(quant_dtype t, int rank, const int64_t *dims, void *data)
{
    quant_tensor x;
    int i;
    memset(&x, 0, sizeof x);
    x.dtype = t;
    x.rank = rank;
    for (i = 0; i < rank; ++i) x.dims[i] = dims[i];
    x.data = data;
    return x;
}
#endif

#endif

/* A test built for a backend this CPU cannot run is a Meson skip (77),
   never a pass. Call first thing in main. */
#if defined(QUANT_SIMD) && (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
static void check_cpu(void)
{
    int ok = 1;
    __builtin_cpu_init();
#if QUANT_SIMD == QUANT_SIMD_AVX2
    ok = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#elif QUANT_SIMD == QUANT_SIMD_AVX512
    ok = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl");
#endif
    if (!ok) {
        printf("SKIP: this CPU cannot run the %s backend\n", quant_backend());
        exit(77);
    }
}
#elif defined(QUANT__DISPATCH) && QUANT__DISPATCH
/* A build with runtime dispatch runs the backend QUANT_TEST_LEVEL names
   (sse2, avx2, avx512, avx512vbmi, avx512bf16), or a Meson skip if the
   CPU lacks it; unset, the one the CPU picks. */
static void check_cpu(void)
{
    static const char *const names[] = { "sse2", "avx2", "avx512", "avx512vbmi", "avx512bf16" };
    const char *want = getenv("QUANT_TEST_LEVEL");
    int k;
    if (want == NULL || *want == '\0') return;
    for (k = 0; k < 5; ++k)
        if (strcmp(want, names[k]) == 0) {
            if (!quant__x86_force(QUANT__L_SSE2 + k)) {
                printf("SKIP: this CPU cannot run the %s backend\n", want);
                exit(77);
            }
            printf("dispatch level forced: %s\n", want);
            return;
        }
    printf("QUANT_TEST_LEVEL=%s is not a backend\n", want);
    exit(1);
}
#elif !defined(QUANT_IMPLEMENTATION)
/* the implementation is in tests/impl.c, and so is the check */
void check_cpu_shared(void);
#define check_cpu check_cpu_shared
#else
static void check_cpu(void) {}
#endif
