/* div-forms: the ways to compute fl(x / s) in an f32 -> s8 loop, timed
   side by side on x86 (AVX-512 and AVX2), so that the choice quant.h makes
   for its `exact` and `onnx` roundings can be measured again on any CPU.

     div-forms [--runs N]

   Every form runs the same loop: four vectors at a time, q = the form's
   quotient, then fl(q + z), clamp to [-128, 127], round to nearest even,
   pack, store. The forms:

     mul        x * fl(1/s): not exact (the torch and onednn roundings);
                the speed floor
     div        x / s: vdivps, exact
     markstein  q0 = x * r, e = fma(-q0, s, x), q1 = fma(e, r, q0) with
                r = fl(1/s): Markstein's correction, exact where the
                residual e is exact and q0 is finite; unguarded, so wrong
                for x = +-Inf, subnormal x and where x * r overflows
     guarded    markstein, corrected only where 2^-100 <= |x| < 2^(126 + e)
                (e: the exponent of s); elsewhere q0: a mask per vector
     fallback   markstein, and a block of four vectors that holds a NaN
                quotient (x NaN or infinite, or x * r past FLT_MAX) is
                divided again; a block without one skips the NaN rule's
                per-vector work. The form quant.h uses for one scale with
                2^-75 <= |s| <= 2^100 (for integer results: the tiny |x|
                the guard excludes cannot change them there)

   Each row: ns per element (median of the runs) and the ratio to mul and
   to div, each the median over the rounds of the two times taken moments
   apart. Every form's bytes are checked against div's on the data (the
   unguarded markstein is exempt, since its data holds an Inf: its
   mismatch count is printed). The data are ties (k + 1/2) * s nudged by
   up to two ulps, with a few specials in the 64 Ki set only, so at 4 Ki
   no block of the fallback form divides. */
#define _POSIX_C_SOURCE 200809L
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if !(defined(__x86_64__) && defined(__GNUC__))
int main(void)
{
    puts("div-forms: x86-64 with gcc or clang only");
    return 0;
}
#else

enum { F_MUL, F_DIV, F_MARK, F_GUARD, F_FALL, N_FORMS };
static const char *form_names[N_FORMS] = { "mul", "div", "markstein", "guarded", "fallback" };

typedef void (*loop_fn)(const float *x, int8_t *q, size_t n, float s, int32_t z);

/* ---- AVX-512: 16 lanes --------------------------------------------------- */
#define T512 __attribute__((target("avx512f,avx512bw,avx512vl,fma")))

/* the guard's bounds on |x| as bits: [2^-100, 2^(126 + exponent of s)) */
static void guard_bounds(float s, uint32_t *lo, uint32_t *span)
{
    uint32_t b;
    int e;
    memcpy(&b, &s, 4);
    e = (int)((b >> 23) & 0xffu) + 126;
    *lo = 0x0D800000u;
    *span = (e >= 255 ? 0x7f800000u : (uint32_t)e << 23) - *lo;
}

T512 static inline __m512 q512(__m512 x, __m512 s, __m512 ns, __m512 r, __m512i lo, __m512i span, const int form)
{
    if (form == F_MUL) return _mm512_mul_ps(x, r);
    if (form == F_DIV) return _mm512_div_ps(x, s);
    {
        const __m512 q0 = _mm512_mul_ps(x, r);
        const __m512 e = _mm512_fmadd_ps(q0, ns, x);
        if (form == F_MARK || form == F_FALL) return _mm512_fmadd_ps(e, r, q0);
        {
            const __m512i ax = _mm512_and_si512(_mm512_castps_si512(x), _mm512_set1_epi32(0x7fffffff));
            const __mmask16 ok = _mm512_cmplt_epu32_mask(_mm512_sub_epi32(ax, lo), span);
            return _mm512_mask3_fmadd_ps(e, r, q0, ok);
        }
    }
}

T512 static inline void loop512(const float *x, int8_t *q, size_t n, float s1, int32_t z1, const int form)
{
    const __m512 s = _mm512_set1_ps(s1), ns = _mm512_set1_ps(-s1), r = _mm512_set1_ps(1.0f / s1);
    const __m512 zf = _mm512_set1_ps((float)z1), lo = _mm512_set1_ps(-128.0f), hi = _mm512_set1_ps(127.0f);
    uint32_t glo, gspan;
    __m512i vlo, vspan;
    size_t i;
    guard_bounds(s1, &glo, &gspan);
    vlo = _mm512_set1_epi32((int)glo);
    vspan = _mm512_set1_epi32((int)gspan);
    for (i = 0; i + 64 <= n; i += 64) {
        __m512 v[4];
        int k;
        int any = 1;
        for (k = 0; k < 4; ++k) v[k] = q512(_mm512_loadu_ps(x + i + 16 * k), s, ns, r, vlo, vspan, form);
        if (form == F_FALL) {
            any = (_mm512_cmp_ps_mask(v[0], v[1], _CMP_UNORD_Q) | _mm512_cmp_ps_mask(v[2], v[3], _CMP_UNORD_Q)) != 0;
            if (any)
                for (k = 0; k < 4; ++k) v[k] = _mm512_div_ps(_mm512_loadu_ps(x + i + 16 * k), s);
        }
        for (k = 0; k < 4; ++k) {
            /* a NaN quotient gives z, as in quant.h */
            __m512 w = any ? _mm512_fixupimm_ps(v[k], v[k], _mm512_set1_epi32(0x11111188), 0) : v[k];
            w = _mm512_add_ps(w, zf);
            w = _mm512_min_ps(_mm512_max_ps(w, lo), hi);
            _mm_storeu_si128((__m128i *)(void *)(q + i + 16 * k), _mm512_cvtsepi32_epi8(_mm512_cvtps_epi32(w)));
        }
    }
}
#define DEF512(name, form) \
    T512 static void name(const float *x, int8_t *q, size_t n, float s, int32_t z) { loop512(x, q, n, s, z, form); }
DEF512(mul512, F_MUL)
DEF512(div512, F_DIV)
DEF512(mark512, F_MARK)
DEF512(guard512, F_GUARD)
DEF512(fall512, F_FALL)

/* ---- AVX2: 8 lanes -------------------------------------------------------- */
#define T256 __attribute__((target("avx2,fma")))

T256 static inline __m256 q256(__m256 x, __m256 s, __m256 ns, __m256 r, __m256i bias, __m256i top, const int form)
{
    if (form == F_MUL) return _mm256_mul_ps(x, r);
    if (form == F_DIV) return _mm256_div_ps(x, s);
    {
        const __m256 q0 = _mm256_mul_ps(x, r);
        const __m256 e = _mm256_fmadd_ps(q0, ns, x);
        const __m256 q1 = _mm256_fmadd_ps(e, r, q0);
        if (form == F_MARK || form == F_FALL) return q1;
        {
            /* |x| - lo + INT_MIN < span + INT_MIN, as a signed compare */
            const __m256i ax = _mm256_and_si256(_mm256_castps_si256(x), _mm256_set1_epi32(0x7fffffff));
            const __m256i ok = _mm256_cmpgt_epi32(top, _mm256_add_epi32(ax, bias));
            return _mm256_blendv_ps(q0, q1, _mm256_castsi256_ps(ok));
        }
    }
}

T256 static inline void loop256(const float *x, int8_t *q, size_t n, float s1, int32_t z1, const int form)
{
    const __m256 s = _mm256_set1_ps(s1), ns = _mm256_set1_ps(-s1), r = _mm256_set1_ps(1.0f / s1);
    const __m256 zf = _mm256_set1_ps((float)z1), lo = _mm256_set1_ps(-128.0f), hi = _mm256_set1_ps(127.0f);
    uint32_t glo, gspan;
    __m256i bias, top;
    size_t i;
    guard_bounds(s1, &glo, &gspan);
    bias = _mm256_set1_epi32((int)(0x80000000u - glo));
    top = _mm256_set1_epi32((int)(0x80000000u + gspan));
    for (i = 0; i + 32 <= n; i += 32) {
        __m256 v[4];
        int k;
        int any = 1;
        for (k = 0; k < 4; ++k) v[k] = q256(_mm256_loadu_ps(x + i + 8 * k), s, ns, r, bias, top, form);
        if (form == F_FALL) {
            any = _mm256_movemask_ps(_mm256_or_ps(_mm256_cmp_ps(v[0], v[1], _CMP_UNORD_Q),
                                                  _mm256_cmp_ps(v[2], v[3], _CMP_UNORD_Q))) != 0;
            if (any)
                for (k = 0; k < 4; ++k) v[k] = _mm256_div_ps(_mm256_loadu_ps(x + i + 8 * k), s);
        }
        for (k = 0; k < 4; k += 2) {
            /* a NaN quotient gives z, as in quant.h */
            __m256 a = any ? _mm256_and_ps(v[k], _mm256_cmp_ps(v[k], v[k], _CMP_ORD_Q)) : v[k];
            __m256 b = any ? _mm256_and_ps(v[k + 1], _mm256_cmp_ps(v[k + 1], v[k + 1], _CMP_ORD_Q)) : v[k + 1];
            __m256i p;
            a = _mm256_add_ps(a, zf);
            b = _mm256_add_ps(b, zf);
            a = _mm256_min_ps(_mm256_max_ps(a, lo), hi);
            b = _mm256_min_ps(_mm256_max_ps(b, lo), hi);
            p = _mm256_packs_epi32(_mm256_cvtps_epi32(a), _mm256_cvtps_epi32(b));
            p = _mm256_permute4x64_epi64(_mm256_packs_epi16(p, p), 0x88);
            _mm_storeu_si128((__m128i *)(void *)(q + i + 8 * k), _mm256_castsi256_si128(p));
        }
    }
}
#define DEF256(name, form) \
    T256 static void name(const float *x, int8_t *q, size_t n, float s, int32_t z) { loop256(x, q, n, s, z, form); }
DEF256(mul256, F_MUL)
DEF256(div256, F_DIV)
DEF256(mark256, F_MARK)
DEF256(guard256, F_GUARD)
DEF256(fall256, F_FALL)

/* ---- timing ---------------------------------------------------------------- */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* ns per element of one call, repeated for about 2 ms */
static double timed(loop_fn f, const float *x, int8_t *q, size_t n, float s, long reps)
{
    const double t0 = now();
    long k;
    for (k = 0; k < reps; ++k) f(x, q, n, s, 3);
    return (now() - t0) / ((double)reps * (double)n);
}

enum { MAX_RUNS = 99 };

static void bench_isa(const char *isa, loop_fn *fns, const float *x, size_t n, float s, int runs)
{
    int8_t *ref = malloc(n), *q = malloc(n);
    double t[N_FORMS][MAX_RUNS], rmul[N_FORMS][MAX_RUNS], rdiv[N_FORMS][MAX_RUNS];
    long reps = 1;
    int f, k;
    size_t i, bad[N_FORMS] = { 0 };
    if (!ref || !q) { puts("out of memory"); exit(1); }
    fns[F_DIV](x, ref, n, s, 3);
    for (f = 0; f < N_FORMS; ++f) {
        memset(q, 0x55, n);
        fns[f](x, q, n, s, 3);
        for (i = 0; i < n; ++i) bad[f] += q[i] != ref[i];
    }
    while (timed(fns[F_DIV], x, q, n, s, reps) * (double)reps * (double)n < 2e6) reps *= 2;
    for (k = 0; k < runs; ++k)
        for (f = 0; f < N_FORMS; ++f) t[f][k] = timed(fns[f], x, q, n, s, reps);
    for (f = 0; f < N_FORMS; ++f)
        for (k = 0; k < runs; ++k) {
            rmul[f][k] = t[f][k] / t[F_MUL][k];
            rdiv[f][k] = t[f][k] / t[F_DIV][k];
        }
    for (f = 0; f < N_FORMS; ++f) {
        const double m = median(rmul[f], runs), d = median(rdiv[f], runs);
        printf("| %-7s | %5zu Ki | %-9s | %6.4f | %5.2f | %5.2f | %s%zu |\n", isa, n >> 10, form_names[f],
               median(t[f], runs), m, d, f == F_MUL || bad[f] == 0 ? "" : f == F_MARK ? "(expected) " : "WRONG ", bad[f]);
    }
    if (bad[F_GUARD] || bad[F_FALL]) { puts("div-forms: an exact form differs from div"); exit(1); }
    free(ref);
    free(q);
}

int main(int argc, char **argv)
{
    static const size_t sizes[] = { 4096, 65536 };
    loop_fn f512[N_FORMS] = { mul512, div512, mark512, guard512, fall512 };
    loop_fn f256[N_FORMS] = { mul256, div256, mark256, guard256, fall256 };
    const float s = 0.0371f;
    int runs = 11, a;
    size_t z, i;
    uint64_t rng = 0x9E3779B97F4A7C15ull;
    float *x;
    for (a = 1; a < argc; ++a)
        if (strcmp(argv[a], "--runs") == 0 && a + 1 < argc) runs = atoi(argv[++a]);
    if (runs < 1 || runs > MAX_RUNS) runs = 11;
    x = malloc(65536 * sizeof *x);
    if (!x) return 1;
    /* values around the rounding boundaries: ties k + 1/2 times s, nudged
       by a few ulps, and a few specials */
    for (i = 0; i < 65536; ++i) {
        rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
        {
            const uint32_t u = (uint32_t)((rng * 0x2545F4914F6CDD1Dull) >> 32);
            const float tie = ((float)(int)(u % 300u) - 150.0f + 0.5f) * s;
            uint32_t b;
            memcpy(&b, &tie, 4);
            b += (u >> 16) % 5u - 2u;
            memcpy(&x[i], &b, 4);
        }
    }
    x[5100] = 1e-40f; x[5200] = -0.0f; x[5300] = 3e38f; x[5400] = 1e30f;
    x[5500] = __builtin_inff(); /* the unguarded form turns this into NaN */
    __builtin_cpu_init();
    printf("div-forms: f32 -> s8, one scale (%g), z = 3, median of %d runs\n\n", (double)s, runs);
    puts("| ISA     | n        | form      | ns/elem | x mul | x div | mismatches |");
    puts("|---------|----------|-----------|---------|-------|-------|------------|");
    for (z = 0; z < 2; ++z) {
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl"))
            bench_isa("avx512", f512, x, sizes[z], s, runs);
        if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
            bench_isa("avx2", f256, x, sizes[z], s, runs);
    }
    free(x);
    return 0;
}
#endif
