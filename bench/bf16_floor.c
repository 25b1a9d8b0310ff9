/* bf16-floor: how fast can bf16 -> s8 be on this CPU? Times, side by side,
   the memory-traffic limit loop of quant-bench (2n bytes read, n written),
   two AVX-512 loops that do less than any correct kernel, and quant.h's
   quant_bf16_to_s8, at 4 Ki, 64 Ki and 1 Mi elements.

     bf16-floor [--runs N]

   The loops, per 64 elements (two 64-byte loads, one 64-byte store):

     floor      widen (an and for the odd elements, a shift for the even),
                then per vector x * r, min(., 127), vcvtps2dq; two
                vpackssdw, one vpacksswb, one vpermd. No NaN rule, no zero
                point, no lower clamp, and the bytes come out in the wrong
                order: a bound, not a kernel
     floor+nan  the same and the NaN rule (a NaN goes to the zero point:
                one vfixupimmps a vector) and a zero point added in float

   Each row: ns per element, the median over the rounds, and the ratio to
   the limit, the median over the rounds of the two times taken moments
   apart. If floor is already past 1.2x the limit, no bf16 -> s8 kernel
   can reach 1.2x on this CPU. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if !(defined(__x86_64__) && defined(__GNUC__))
int main(void)
{
    puts("bf16-floor: x86-64 with gcc or clang only");
    return 0;
}
#else
#include <immintrin.h>
#define QUANT_IMPLEMENTATION
#include "quant.h"

#define T512 __attribute__((target("avx512f,avx512bw,avx512vl")))

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* quant-bench's limit loop: the compiler vectorizes it */
__attribute__((noinline)) static void limit16(const uint16_t *src, uint8_t *dst, size_t n)
{
    size_t i;
    for (i = 0; i < n; ++i) dst[i] = (uint8_t)src[i];
}

T512 static inline void floor64(const uint16_t *src, uint8_t *dst, __m512 r, __m512 z, __m512 hi, int nan)
{
    const __m512i top = _mm512_set1_epi32((int)0xFFFF0000u);
    const __m512i a = _mm512_loadu_si512((const void *)src), b = _mm512_loadu_si512((const void *)(src + 32));
    __m512 v[4];
    __m512i q[4];
    int k;
    v[0] = _mm512_castsi512_ps(_mm512_slli_epi32(a, 16));
    v[1] = _mm512_castsi512_ps(_mm512_and_si512(a, top));
    v[2] = _mm512_castsi512_ps(_mm512_slli_epi32(b, 16));
    v[3] = _mm512_castsi512_ps(_mm512_and_si512(b, top));
    for (k = 0; k < 4; ++k) {
        __m512 w = _mm512_mul_ps(v[k], r);
        if (nan) w = _mm512_add_ps(_mm512_fixupimm_ps(w, w, _mm512_set1_epi32(0x11111188), 0), z);
        q[k] = _mm512_cvtps_epi32(_mm512_min_ps(w, hi));
    }
    _mm512_storeu_si512((void *)dst,
                        _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15),
                                                 _mm512_packs_epi16(_mm512_packs_epi32(q[0], q[1]),
                                                                    _mm512_packs_epi32(q[2], q[3]))));
}

T512 __attribute__((noinline)) static void floor_loop(const uint16_t *src, uint8_t *dst, size_t n)
{
    const __m512 r = _mm512_set1_ps(1.0f / 0.05f), z = _mm512_set1_ps(3.0f), hi = _mm512_set1_ps(127.0f);
    size_t i;
    for (i = 0; i + 64 <= n; i += 64) floor64(src + i, dst + i, r, z, hi, 0);
}

T512 __attribute__((noinline)) static void floor_nan_loop(const uint16_t *src, uint8_t *dst, size_t n)
{
    const __m512 r = _mm512_set1_ps(1.0f / 0.05f), z = _mm512_set1_ps(3.0f), hi = _mm512_set1_ps(127.0f);
    size_t i;
    for (i = 0; i + 64 <= n; i += 64) floor64(src + i, dst + i, r, z, hi, 1);
}

__attribute__((noinline)) static void quant_loop(const uint16_t *src, uint8_t *dst, size_t n)
{
    quant_bf16_to_s8(src, (int8_t *)dst, n, 0.05f, 3);
}

typedef void (*loop_fn)(const uint16_t *, uint8_t *, size_t);

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* the best of five timed passes of reps calls, in ns per element */
static double time_loop(loop_fn f, const uint16_t *src, uint8_t *dst, size_t n, int reps)
{
    double best = 1e300;
    int p, j;
    for (p = 0; p < 5; ++p) {
        const double t0 = now_ns();
        for (j = 0; j < reps; ++j) {
            f(src, dst, n);
            __asm__ __volatile__("" : : "r"(dst) : "memory");
        }
        {
            const double t = (now_ns() - t0) / reps / (double)n;
            if (t < best) best = t;
        }
    }
    return best;
}

int main(int argc, char **argv)
{
    static const size_t sizes[3] = { 4096, 65536, 1048576 };
    static const char *names[3] = { "floor", "floor+nan", "quant.h" };
    static const loop_fn loops[3] = { floor_loop, floor_nan_loop, quant_loop };
    int runs = 11, si, round, k;
    if (argc == 3 && strcmp(argv[1], "--runs") == 0) runs = atoi(argv[2]);
    if (runs < 1 || runs > 1000 || (argc != 1 && argc != 3)) {
        fprintf(stderr, "usage: %s [--runs N]\n", argv[0]);
        return 2;
    }
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512bw")) {
        puts("bf16-floor: this CPU has no AVX-512 F and BW");
        return 0;
    }
    printf("bf16 -> s8 on %s; median of %d rounds\n\n", quant_backend(), runs);
    printf("%-10s %9s %9s %8s\n", "loop", "n", "ns/elem", "x limit");
    for (si = 0; si < 3; ++si) {
        const size_t n = sizes[si];
        const int reps = (int)(200000000u / n) + 1;
        uint16_t *src = malloc(n * 2);
        uint8_t *dst = malloc(n);
        double *lim = malloc(sizeof(double) * (size_t)runs), *t = malloc(sizeof(double) * (size_t)runs),
               *ratio = malloc(sizeof(double) * (size_t)runs);
        size_t i;
        if (!src || !dst || !lim || !t || !ratio) return 1;
        for (i = 0; i < n; ++i) src[i] = (uint16_t)(0x3C00u + (uint16_t)((i * 2654435761u) >> 20 & 0x7FFu)); /* 2^-7 to 2^9 */
        for (k = 0; k < 3; ++k) {
            for (round = 0; round < runs; ++round) {
                lim[round] = time_loop(limit16, src, dst, n, reps);
                t[round] = time_loop(loops[k], src, dst, n, reps);
                ratio[round] = t[round] / lim[round];
            }
            qsort(t, (size_t)runs, sizeof(double), cmp_double);
            qsort(ratio, (size_t)runs, sizeof(double), cmp_double);
            printf("%-10s %9zu %9.4f %8.2f\n", names[k], n, t[runs / 2], ratio[runs / 2]);
        }
        free(src); free(dst); free(lim); free(t); free(ratio);
    }
    return 0;
}
#endif
