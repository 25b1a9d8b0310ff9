/* floor: how fast can a kernel be on this CPU? For the kernels whose
   arithmetic keeps them from the memory-traffic limit in cache, times side
   by side the limit loop of quant-bench, loops that do less than any
   correct kernel, and quant.h's kernel, at 4 Ki, 64 Ki and 1 Mi elements.

     floor [--runs N] [--only TITLE-PREFIX] [--n ELEMENTS]

   --n times that one size (a multiple of 4096) in place of the three.

   bf16 -> s8 (2n bytes read, n written), per 64 elements (two 64-byte
   loads, one 64-byte store):

     floor      widen (an and for the odd elements, a shift for the even),
                then per vector x * r, min(., 127), vcvtps2dq; two
                vpackssdw, one vpacksswb, one vpermd. No NaN rule, no zero
                point, no lower clamp, and the bytes come out in the wrong
                order: a bound, not a kernel
     floor+nan  the same and the NaN rule (a NaN goes to the zero point:
                one vfixupimmps a vector) and a zero point added in float

   requantize s32 -> s8, DOUBLE, per channel, channels last as quant-bench
   has it (4n bytes read, n written; 256 multipliers and shifts):

     floor      per vector of 16 the two 32 x 32 -> 64-bit products
                (vpmuldq on the even lanes, and on the odd ones moved down),
                their high halves blended into one vector; then the packs
                and the permute of four vectors. No rounding, no shift, no
                zero point, no clamp: AVX-512 has no high 32-bit multiply,
                so every correct kernel does at least this
     floor avx2 the same with AVX2's 8 lanes: the bound for quant.h's
                AVX2 kernel (time that with quant-bench built -Dsimd=avx2)
     floor sse2 the same with SSE2's 4 lanes: pmuludq (SSE2 has no signed
                product; its correction left out), the high halves taken
                with one shufps, the packs: the bound for the SSE2 kernel
                (the quant.h row is SSE2's in a -Dsimd=sse2 build)

   requantize s32 -> s8, FLOAT (XNNPACK's fp32 requantization), per
   channel, the same layout and bytes:

     floor      per vector of 16 the conversion to float, the product with
                the channels' scales, the conversion back (vcvtps2dq's own
                rounding); then the packs and the permute. No zero point,
                no clamp and no magic-number rounding: a correct kernel
                does all of this and more
     floor+clamp  the floor and the two things a correct kernel cannot
                leave out even in the whole s8 range: min(., 127 - zp) a
                vector (vcvtps2dq turns anything at or above 2^31 into
                INT_MIN, the wrong end) and the zero point added after the
                rounding (one vpaddsw per two vectors): the whole-range
                kernel itself, as quant.h has it
     floor avx2 the same as floor with AVX2's 8 lanes
     floor sse2 the same with SSE2's 4 lanes (the packs in two steps, no
                permute): the bound for the SSE2 kernel, timed with
                quant-bench built -Dsimd=sse2

   requantize s32 -> s8, SINGLE, per channel, the same layout and bytes
   (TFLite's single-rounding multiplier and shift, 256 of each):

     floor      FLOAT's floor+clamp, with the clamp as vrangeps to the
                magnitude 384: a vector of fl(x) s rounded to nearest,
                which is what AVX-512's float form of SINGLE computes
                before it checks that the product's rounding could not
                have moved it across a tie. Not exact: a bound
     floor+flag that check too, as cheaply as it goes: per vector the
                distance to the nearest integer (vreduceps), per four
                vectors the largest of the four in a tree of three
                vrangeps and one compare (a branch never taken); the
                integer form for a flagged block is not timed

   f32 -> iq4_nl (4n bytes read, 18/32 n written; the limit loop writes n):
   the encoding quant.h defines is ggml_quantize_chunk's, whose
   quantize_row_iq4_nl_impl tries 15 scales a block (ntry 7) and sums
   each try's products in element order:

     floor      per vector of 16 and per try, x * s + b (one FMA), the
                truncation, an and to 0..15, one vpermps of the 16 levels
                and one FMA into the try's running sum (15 sums side by
                side, so that no chain of FMAs waits). No block maximum, no
                nearest-level search (a bucket stands for it), one sum
                where the search has two, summed across lanes rather than
                in order, no choice of the best try and no codes written:
                every correct kernel does more

   f32 -> q8_0 (4n bytes read, 34/32 n written; the limit loop is
   quant-bench's, a run of 256 floats folded and stored over its 272
   block bytes), per group of 16 blocks of 32:

     floor      first pass: per block |x0| max |x1| (one vrangeps), a
                transposing tree of 15 maxima to one vector holding block
                i's maximum in lane i, one vector division 127 / max (the
                reciprocal scale, 16 blocks at once); second pass, from
                L1: per vector of 16 x * id, vcvtps2dq (round to nearest
                even, not halves away from zero), vpmovdb to the block's
                32 code bytes. No scale stored, no f16 rounding, no
                zero or NaN rule, no second division (d = max / 127 and
                1 / d are two in a correct encoder): every correct
                encoder does more
     floor 1p   the same work in one pass: 8 blocks' 16 vectors held in
                registers from the maxima to the stores (a block's maximum
                in two lanes of the tree's result), no second read

   q4_0 -> f32 and q4_0 -> bf16 (GGUF blocks of 32: 18 bytes, an f16
   scale d then 16 bytes of nibbles; 18/32 n bytes read, 4n or 2n
   written), per block, against quant-bench's limit loop for the GGUF
   decode rows (the block bytes folded, the fold stored over the output):

     floor      the 16 code bytes widened (vpmovzxbd, or vpmovzxbw once
                for bf16), the nibbles split (an and, a shift), then one
                vpermd (bf16: one vpermw) of a table held in a register
                and the stores: no scale is read, no table built, no
                rounding. Every correct decoder reads the codes and makes
                each output vector from them with one operation at least
     floor+mul  the nibble expansion, one conversion of the codes to
                float and one multiply by the block's scale (read from
                the block as an f32, no f16 conversion) per 16 outputs,
                and the stores; bf16 adds one vcvtne2ps2bf16 a block
     floor+tab  bf16: per pair of blocks one table of 32 words, each
                block's scale (misread as an f32) times its 16 levels,
                both rounded by one vcvtne2ps2bf16; per block the
                nibbles masked to 4 bits (the second block's with bit 4
                set), one vpermw, the store. No f16 conversion and no
                NaN test: less than any correct decoder to bf16 does

   f32 -> q4_0, q5_0, mxfp4, q4_1, q5_1, nvfp4 (4n bytes read; each
   against quant-bench's encode limit for its block bytes), per group of
   16 blocks of 32 (nvfp4: 4 blocks of 64):

     floor      first pass: per block one vrangeps (max |x| of its two
                vectors; q4_1, q5_1: a max and a min), the transposing
                tree (q4_1, q5_1: two), one division for 16 blocks;
                second pass, from L1: per vector x * id (q4_1, q5_1: one
                FMA x * id - min * id, where the encoder subtracts,
                multiplies and adds), vcvtps2dq, per block one vpermt2b
                and a 16-byte store. No scale stored, no f16 or exponent
                or UE4M3 code, no +-a tie or NaN rule, no clamp, no nibble
                merge, no 5th bits, no table of the FP4 levels; nvfp4's
                tree takes the 16 sub-block vectors with |x| in its first
                level. Every correct encoder does more

   f32 -> q6_K's search (4n bytes read, n written: the limit loop of
   requantize), per block of 256 as 16 groups of 16 in the 16 lanes:

     floor      per block the groups' |x| maxima (16 vmaxps, no first-max
                rule), w = x * x and w * x of each vector, then each of
                make_qx_quants' 19 trial scales (the first and -9 .. 9): one
                vector division for the 16 groups' iscales, and per element
                is * x, vrndscaleps, and the two sums' three products and
                two adds in element order, four trials' chains side by
                side. No clamps, no choice of the best trial, no second
                pass at the chosen scales, no codes or scales written:
                every exact encoder does more

   f32 -> q8_K (4n bytes read, 292/256 n written; the encode limit for
   292 bytes a run), per group of 16 blocks of 256:

     floor      first pass: per block 15 vrangeps folding its 16 vectors
                to |x| max, the transposing tree, one division for 16
                blocks; second pass, from L1: per vector x * id and
                vcvtps2dq, per 4 vectors two vpackssdw, one vpacksswb,
                one vpermd and a 64-byte store
     floor 1p   one pass, a block at a time: its 16 vectors held in
                registers, a tree of vrangeps and maxima, a reduction
                across lanes, one division for the block, the codes from
                the registers
                Neither stores d or the 16 sums of 16 codes, divides
                twice (d = max / -127, then 1 / d), or has the zero, sign
                or NaN rules: every correct encoder does more

   Each row: ns per element, the median over the rounds, and the ratio to
   the limit, the median over the rounds of the two times taken moments
   apart. If floor is already past 1.2x the limit, no kernel can reach
   1.2x on this CPU. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if !(defined(__x86_64__) && defined(__GNUC__))
int main(void)
{
    puts("floor: x86-64 with gcc or clang only");
    return 0;
}
#else
#include <immintrin.h>
#define QUANT_IMPLEMENTATION
#include "quant.h"

#define T512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq")))
#define T512V __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512vbmi")))
#define T256 __attribute__((target("avx2")))

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* quant-bench's limit loop: the compiler vectorizes it */
__attribute__((noinline)) static void limit16(const void *srcv, void *dstv, size_t n)
{
    const uint16_t *src = (const uint16_t *)srcv;
    uint8_t *dst = (uint8_t *)dstv;
    size_t i;
    for (i = 0; i < n; ++i) dst[i] = (uint8_t)src[i];
}

/* four vectors of 32-bit lanes in range, packed to bytes (lanes out of
   order within 128 bits put right by one permute) */
T512 static inline void store_packed(uint8_t *dst, __m512i a, __m512i b, __m512i c, __m512i d)
{
    _mm512_storeu_si512((void *)dst,
                        _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15),
                                                 _mm512_packs_epi16(_mm512_packs_epi32(a, b), _mm512_packs_epi32(c, d))));
}

/* ---- q4_0 -> f32, bf16 ---- */
enum { Q4B = 18 }; /* bytes of a block of 32 */

/* quant-bench's limit loop for the GGUF decode rows (ggml_section.c):
   runs of 256 elements, 144 block bytes folded as 8-byte words, the fold
   stored over the run's ob output bytes */
static inline __attribute__((always_inline)) void q4_limit_body(const uint8_t *src, uint8_t *dst, size_t nr, const size_t ob)
{
    const size_t sb = 256 / 32 * Q4B;
    size_t k, j;
    for (k = 0; k < nr; ++k) {
        const uint8_t *s = src + k * sb;
        uint8_t *d = dst + k * ob;
        uint64_t v, w;
        memcpy(&v, s + sb - 8, 8);
        for (j = 0; j + 8 < sb; j += 8) {
            memcpy(&w, s + j, 8);
            v ^= w;
        }
        for (j = 0; j < ob; j += 8) memcpy(d + j, &v, 8);
    }
}

__attribute__((noinline)) static void q4_limit_f32(const void *src, void *dst, size_t n)
{
    q4_limit_body((const uint8_t *)src, (uint8_t *)dst, n / 256, 1024);
}

__attribute__((noinline)) static void q4_limit_bf16(const void *src, void *dst, size_t n)
{
    q4_limit_body((const uint8_t *)src, (uint8_t *)dst, n / 256, 512);
}

#define T512BF __attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16")))

T512 __attribute__((noinline)) static void q4_floor_f32(const void *srcv, void *dstv, size_t n)
{
    const uint8_t *b = (const uint8_t *)srcv;
    float *y = (float *)dstv;
    const __m512i T = _mm512_castps_si512(_mm512_setr_ps(-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7));
    size_t k;
    for (k = 0; k < n / 32; ++k, b += Q4B, y += 32) {
        const __m512i D = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(b + 2)));
        _mm512_storeu_si512((void *)y, _mm512_permutexvar_epi32(D, T)); /* vpermd reads bits 3:0 */
        _mm512_storeu_si512((void *)(y + 16), _mm512_permutexvar_epi32(_mm512_srli_epi32(D, 4), T));
    }
}

T512 __attribute__((noinline)) static void q4_floor_mul_f32(const void *srcv, void *dstv, size_t n)
{
    const uint8_t *b = (const uint8_t *)srcv;
    float *y = (float *)dstv;
    const __m512i m15 = _mm512_set1_epi32(15);
    size_t k;
    for (k = 0; k < n / 32; ++k, b += Q4B, y += 32) {
        const __m512i D = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(b + 2)));
        const __m512 d = _mm512_set1_ps(*(const float *)(const void *)b); /* a misread scale: no f16 conversion */
        _mm512_storeu_ps(y, _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_and_si512(D, m15)), d));
        _mm512_storeu_ps(y + 16, _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_srli_epi32(D, 4)), d));
    }
}

T512 __attribute__((noinline)) static void q4_floor_bf16(const void *srcv, void *dstv, size_t n)
{
    const uint8_t *b = (const uint8_t *)srcv;
    uint16_t *y = (uint16_t *)dstv;
    const __m512i T = _mm512_set1_epi16(0x3F80);
    const __m512i sh = _mm512_inserti64x4(_mm512_setzero_si512(), _mm256_set1_epi16(4), 1);
    size_t k;
    for (k = 0; k < n / 32; ++k, b += Q4B, y += 32) {
        const __m512i W = _mm512_cvtepu8_epi16(_mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(b + 2))));
        _mm512_storeu_si512((void *)y, _mm512_permutexvar_epi16(_mm512_srlv_epi16(W, sh), T)); /* vpermw reads bits 4:0 */
    }
}

T512BF __attribute__((noinline)) static void q4_floor_mul_bf16(const void *srcv, void *dstv, size_t n)
{
    const uint8_t *b = (const uint8_t *)srcv;
    uint16_t *y = (uint16_t *)dstv;
    const __m512i m15 = _mm512_set1_epi32(15);
    size_t k;
    for (k = 0; k < n / 32; ++k, b += Q4B, y += 32) {
        const __m512i D = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(b + 2)));
        const __m512 d = _mm512_set1_ps(*(const float *)(const void *)b);
        const __m512 lo = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_and_si512(D, m15)), d);
        const __m512 hi = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_srli_epi32(D, 4)), d);
        _mm512_storeu_si512((void *)y, (__m512i)_mm512_cvtne2ps_pbh(hi, lo));
    }
}

/* floor+tab: per pair of blocks one table of 32 bf16 words (each block's
   scale, misread as an f32, times the 16 levels, both rounded by one
   vcvtne2ps2bf16), then per block the widened nibbles masked to 4 bits
   (the second block's with bit 4 set, for its half of the table), one
   vpermw and the store */
T512BF __attribute__((noinline)) static void q4_floor_tab_bf16(const void *srcv, void *dstv, size_t n)
{
    const uint8_t *b = (const uint8_t *)srcv;
    uint16_t *y = (uint16_t *)dstv;
    const __m512 lev8 = _mm512_setr_ps(-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7);
    const __m512i sh = _mm512_inserti64x4(_mm512_setzero_si512(), _mm256_set1_epi16(4), 1);
    const __m512i m15 = _mm512_set1_epi16(15), s16 = _mm512_set1_epi16(16);
    size_t k;
    for (k = 0; k + 2 <= n / 32; k += 2, b += 2 * Q4B, y += 64) {
        const __m512 t0 = _mm512_mul_ps(lev8, _mm512_set1_ps(*(const float *)(const void *)b));
        const __m512 t1 = _mm512_mul_ps(lev8, _mm512_set1_ps(*(const float *)(const void *)(b + Q4B)));
        const __m512i T = (__m512i)_mm512_cvtne2ps_pbh(t1, t0);
        const __m512i W0 = _mm512_cvtepu8_epi16(_mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(b + 2))));
        const __m512i W1 = _mm512_cvtepu8_epi16(_mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(b + Q4B + 2))));
        _mm512_storeu_si512((void *)y, _mm512_permutexvar_epi16(_mm512_and_si512(_mm512_srlv_epi16(W0, sh), m15), T));
        _mm512_storeu_si512((void *)(y + 32),
                            _mm512_permutexvar_epi16(_mm512_ternarylogic_epi32(_mm512_srlv_epi16(W1, sh), m15, s16, 0xEA), T));
    }
}

static void q4_dec(const void *srcv, void *dstv, size_t n, quant_dtype to)
{
    quant_tensor src, dst;
    quant_attrs a = quant_attrs_default();
    memset(&src, 0, sizeof src);
    src.dtype = QUANT_Q4_0; src.rank = 2; src.dims[0] = (int64_t)(n / 4096); src.dims[1] = 4096;
    src.data = (void *)(uintptr_t)srcv;
    dst = src; dst.dtype = to; dst.data = dstv;
    if (quant_dequantize(&src, &dst, &a) != QUANT_OK) abort();
}

__attribute__((noinline)) static void q4_loop_f32(const void *src, void *dst, size_t n)
{
    q4_dec(src, dst, n, QUANT_F32);
}

__attribute__((noinline)) static void q4_loop_bf16(const void *src, void *dst, size_t n)
{
    q4_dec(src, dst, n, QUANT_BF16);
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
    store_packed(dst, q[0], q[1], q[2], q[3]);
}

T512 __attribute__((noinline)) static void floor_loop(const void *src, void *dst, size_t n)
{
    const __m512 r = _mm512_set1_ps(1.0f / 0.05f), z = _mm512_set1_ps(3.0f), hi = _mm512_set1_ps(127.0f);
    size_t i;
    for (i = 0; i + 64 <= n; i += 64) floor64((const uint16_t *)src + i, (uint8_t *)dst + i, r, z, hi, 0);
}

T512 __attribute__((noinline)) static void floor_nan_loop(const void *src, void *dst, size_t n)
{
    const __m512 r = _mm512_set1_ps(1.0f / 0.05f), z = _mm512_set1_ps(3.0f), hi = _mm512_set1_ps(127.0f);
    size_t i;
    for (i = 0; i + 64 <= n; i += 64) floor64((const uint16_t *)src + i, (uint8_t *)dst + i, r, z, hi, 1);
}

__attribute__((noinline)) static void bf16_loop(const void *src, void *dst, size_t n)
{
    quant_bf16_to_s8((const uint16_t *)src, (int8_t *)dst, n, 0.05f, 3);
}

/* ---- requantize: channels last, C of them ---- */
enum { C = 256 };
static int32_t rq_m[C], rq_sh[C];
static float rq_s[C];

__attribute__((noinline)) static void limit32(const void *srcv, void *dstv, size_t n)
{
    const uint32_t *src = (const uint32_t *)srcv;
    uint8_t *dst = (uint8_t *)dstv;
    size_t i;
    for (i = 0; i < n; ++i) dst[i] = (uint8_t)src[i];
}

/* the floors ask for their source 2560 bytes ahead, one line of 64 bytes
   at a time, as quant.h's streaming requantize does (without it a floor
   at 16 Mi is slower than quant.h) */
#define RQ_AHEAD(p, lines)                                                                        \
    do {                                                                                          \
        int l_;                                                                                   \
        for (l_ = 0; l_ < (lines); ++l_) _mm_prefetch((const char *)(p) + 2560 + 64 * l_, _MM_HINT_T0); \
    } while (0)

/* the high halves of x * m, 16 lanes */
T512 static inline __m512i high_products(const int32_t *x, const int32_t *m)
{
    const __m512i xv = _mm512_loadu_si512((const void *)x), mv = _mm512_loadu_si512((const void *)m);
    const __m512i e = _mm512_mul_epi32(xv, mv), o = _mm512_mul_epi32(_mm512_srli_epi64(xv, 32), _mm512_srli_epi64(mv, 32));
    return _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(e, 32), o);
}

T512 __attribute__((noinline)) static void rq_floor_loop(const void *srcv, void *dstv, size_t n)
{
    const int32_t *src = (const int32_t *)srcv;
    uint8_t *dst = (uint8_t *)dstv;
    size_t i, j;
    for (i = 0; i + C <= n; i += C)
        for (j = 0; j < C; j += 64) {
            RQ_AHEAD(src + i + j, 4);
            store_packed(dst + i + j, high_products(src + i + j, rq_m + j), high_products(src + i + j + 16, rq_m + j + 16),
                         high_products(src + i + j + 32, rq_m + j + 32), high_products(src + i + j + 48, rq_m + j + 48));
        }
}

/* quant_requantize on [n / C, C], channels last, zp 3, the whole s8 range */
static void rq_call(const void *srcv, void *dstv, size_t n, quant_requant_rounding rounding)
{
    quant_tensor src, dst;
    quant_requant rq;
    memset(&src, 0, sizeof src);
    memset(&rq, 0, sizeof rq);
    src.dtype = QUANT_S32; src.rank = 2; src.dims[0] = (int64_t)(n / C); src.dims[1] = C;
    src.data = (void *)(uintptr_t)srcv;
    dst = src; dst.dtype = QUANT_S8; dst.data = dstv;
    rq.rounding = rounding;
    rq.qtype = QUANT_PER_CHANNEL;
    rq.axis = 1;
    rq.multipliers = rq_m; rq.shifts = rq_sh; rq.scales = rq_s;
    rq.n = C;
    rq.zp = 3; rq.act_min = -128; rq.act_max = 127;
    if (quant_requantize(&src, &dst, &rq) != QUANT_OK) abort();
}

/* the same with AVX2, 8 lanes a vector, 32 bytes a store */
T256 static inline void store_packed2(uint8_t *dst, __m256i a, __m256i b, __m256i c, __m256i d)
{
    _mm256_storeu_si256((__m256i *)(void *)dst,
                        _mm256_permutevar8x32_epi32(_mm256_packs_epi16(_mm256_packs_epi32(a, b), _mm256_packs_epi32(c, d)),
                                                    _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)));
}

T256 static inline __m256i high_products2(const int32_t *x, const int32_t *m)
{
    const __m256i xv = _mm256_loadu_si256((const __m256i *)(const void *)x), mv = _mm256_loadu_si256((const __m256i *)(const void *)m);
    const __m256i e = _mm256_mul_epi32(xv, mv), o = _mm256_mul_epi32(_mm256_srli_epi64(xv, 32), _mm256_srli_epi64(mv, 32));
    return _mm256_blend_epi32(_mm256_srli_epi64(e, 32), o, 0xAA);
}

T256 __attribute__((noinline)) static void rq_floor2_loop(const void *srcv, void *dstv, size_t n)
{
    const int32_t *src = (const int32_t *)srcv;
    uint8_t *dst = (uint8_t *)dstv;
    size_t i, j;
    for (i = 0; i + C <= n; i += C)
        for (j = 0; j < C; j += 32) {
            RQ_AHEAD(src + i + j, 2);
            store_packed2(dst + i + j, high_products2(src + i + j, rq_m + j), high_products2(src + i + j + 8, rq_m + j + 8),
                          high_products2(src + i + j + 16, rq_m + j + 16), high_products2(src + i + j + 24, rq_m + j + 24));
        }
}

/* the same with SSE2, 4 lanes a vector, 16 bytes a store: pmuludq (no
   signed product, and no correction for it here) on the even lanes and on
   the odd ones moved down, the high halves taken with one shufps (in the
   order 0, 2, 1, 3, left so) */
static inline __m128i high_products_sse2(const int32_t *x, const int32_t *m)
{
    const __m128i xv = _mm_loadu_si128((const __m128i *)(const void *)x), mv = _mm_loadu_si128((const __m128i *)(const void *)m);
    const __m128i e = _mm_mul_epu32(xv, mv), o = _mm_mul_epu32(_mm_shuffle_epi32(xv, 0xF5), _mm_shuffle_epi32(mv, 0xF5));
    return _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(e), _mm_castsi128_ps(o), _MM_SHUFFLE(3, 1, 3, 1)));
}

/* four vectors of 4 narrowed to 16 bytes with SSE2's two packs */
static inline void store_packed_sse2(uint8_t *dst, __m128i a, __m128i b, __m128i c, __m128i d)
{
    _mm_storeu_si128((__m128i *)(void *)dst, _mm_packs_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d)));
}

__attribute__((noinline)) static void rq_floor_sse2_loop(const void *srcv, void *dstv, size_t n)
{
    const int32_t *src = (const int32_t *)srcv;
    uint8_t *dst = (uint8_t *)dstv;
    size_t i, j;
    for (i = 0; i + C <= n; i += C)
        for (j = 0; j < C; j += 16) {
            RQ_AHEAD(src + i + j, 1);
            store_packed_sse2(dst + i + j, high_products_sse2(src + i + j, rq_m + j), high_products_sse2(src + i + j + 4, rq_m + j + 4),
                              high_products_sse2(src + i + j + 8, rq_m + j + 8), high_products_sse2(src + i + j + 12, rq_m + j + 12));
        }
}

__attribute__((noinline)) static void rq_loop(const void *srcv, void *dstv, size_t n)
{
    rq_call(srcv, dstv, n, QUANT_RQ_DOUBLE);
}

/* round(x * s) a vector of 16, with the scales of channels j.. */
T512 static inline __m512i float_products(const int32_t *x, const float *s)
{
    return _mm512_cvtps_epi32(_mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_loadu_si512((const void *)x)), _mm512_loadu_ps(s)));
}

T512 __attribute__((noinline)) static void rqf_floor_loop(const void *srcv, void *dstv, size_t n)
{
    const int32_t *src = (const int32_t *)srcv;
    uint8_t *dst = (uint8_t *)dstv;
    size_t i, j;
    for (i = 0; i + C <= n; i += C)
        for (j = 0; j < C; j += 64) {
            RQ_AHEAD(src + i + j, 4);
            store_packed(dst + i + j, float_products(src + i + j, rq_s + j), float_products(src + i + j + 16, rq_s + j + 16),
                         float_products(src + i + j + 32, rq_s + j + 32), float_products(src + i + j + 48, rq_s + j + 48));
        }
}

/* the floor and what a correct kernel must add to it in the whole s8
   range: the upper clamp in float (vcvtps2dq gives INT_MIN for anything
   at or above 2^31) and the zero point after the rounding, in the 16-bit
   packs */
T512 __attribute__((noinline)) static void rqf_clamp_loop(const void *srcv, void *dstv, size_t n)
{
    const int32_t *src = (const int32_t *)srcv;
    uint8_t *dst = (uint8_t *)dstv;
    const __m512 hi = _mm512_set1_ps(124.0f);
    const __m512i z = _mm512_set1_epi16(3);
    size_t i, j, v;
    for (i = 0; i + C <= n; i += C)
        for (j = 0; j < C; j += 64) {
            __m512i q[4];
            RQ_AHEAD(src + i + j, 4);
            for (v = 0; v < 4; ++v)
                q[v] = _mm512_cvtps_epi32(_mm512_min_ps(_mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_loadu_si512((const void *)(src + i + j + 16 * v))),
                                                                      _mm512_loadu_ps(rq_s + j + 16 * v)), hi));
            _mm512_storeu_si512((void *)(dst + i + j),
                                _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15),
                                                         _mm512_packs_epi16(_mm512_adds_epi16(_mm512_packs_epi32(q[0], q[1]), z),
                                                                            _mm512_adds_epi16(_mm512_packs_epi32(q[2], q[3]), z))));
        }
}

T256 static inline __m256i float_products2(const int32_t *x, const float *s)
{
    return _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_loadu_si256((const __m256i *)(const void *)x)), _mm256_loadu_ps(s)));
}

T256 __attribute__((noinline)) static void rqf_floor2_loop(const void *srcv, void *dstv, size_t n)
{
    const int32_t *src = (const int32_t *)srcv;
    uint8_t *dst = (uint8_t *)dstv;
    size_t i, j;
    for (i = 0; i + C <= n; i += C)
        for (j = 0; j < C; j += 32) {
            RQ_AHEAD(src + i + j, 2);
            store_packed2(dst + i + j, float_products2(src + i + j, rq_s + j), float_products2(src + i + j + 8, rq_s + j + 8),
                          float_products2(src + i + j + 16, rq_s + j + 16), float_products2(src + i + j + 24, rq_s + j + 24));
        }
}

__attribute__((noinline)) static void rqf_loop(const void *srcv, void *dstv, size_t n)
{
    rq_call(srcv, dstv, n, QUANT_RQ_FLOAT);
}

/* FLOAT's floor with SSE2's 4 lanes */
static inline __m128i float_products_sse2(const int32_t *x, const float *s)
{
    return _mm_cvtps_epi32(_mm_mul_ps(_mm_cvtepi32_ps(_mm_loadu_si128((const __m128i *)(const void *)x)), _mm_loadu_ps(s)));
}

__attribute__((noinline)) static void rqf_floor_sse2_loop(const void *srcv, void *dstv, size_t n)
{
    const int32_t *src = (const int32_t *)srcv;
    uint8_t *dst = (uint8_t *)dstv;
    size_t i, j;
    for (i = 0; i + C <= n; i += C)
        for (j = 0; j < C; j += 16) {
            RQ_AHEAD(src + i + j, 1);
            store_packed_sse2(dst + i + j, float_products_sse2(src + i + j, rq_s + j), float_products_sse2(src + i + j + 4, rq_s + j + 4),
                              float_products_sse2(src + i + j + 8, rq_s + j + 8), float_products_sse2(src + i + j + 12, rq_s + j + 12));
        }
}

/* SINGLE's float form before its check: fl(x) s to the magnitude 384,
   the distance to the nearest integer in *f */
T512 static inline __m512 single_products(const int32_t *x, const float *s)
{
    return _mm512_range_ps(_mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_loadu_si512((const void *)x)), _mm512_loadu_ps(s)),
                           _mm512_set1_ps(384.0f), 0x02);
}

T512 static inline void single_store(uint8_t *dst, __m512 w0, __m512 w1, __m512 w2, __m512 w3)
{
    const __m512i z = _mm512_set1_epi16(3);
    _mm512_storeu_si512((void *)dst,
                        _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15),
                                                 _mm512_packs_epi16(_mm512_adds_epi16(_mm512_packs_epi32(_mm512_cvtps_epi32(w0), _mm512_cvtps_epi32(w1)), z),
                                                                    _mm512_adds_epi16(_mm512_packs_epi32(_mm512_cvtps_epi32(w2), _mm512_cvtps_epi32(w3)), z))));
}

T512 __attribute__((noinline)) static void rqs_floor_loop(const void *srcv, void *dstv, size_t n)
{
    const int32_t *src = (const int32_t *)srcv;
    uint8_t *dst = (uint8_t *)dstv;
    size_t i, j;
    for (i = 0; i + C <= n; i += C)
        for (j = 0; j < C; j += 64) {
            RQ_AHEAD(src + i + j, 4);
            single_store(dst + i + j, single_products(src + i + j, rq_s + j), single_products(src + i + j + 16, rq_s + j + 16),
                         single_products(src + i + j + 32, rq_s + j + 32), single_products(src + i + j + 48, rq_s + j + 48));
        }
}

__attribute__((noinline)) static void rqs_flagged(uint8_t *dst)
{
    dst[0] ^= 1; /* not reached with these scales' products away from ties; timed never */
}

T512 __attribute__((noinline)) static void rqs_flag_loop(const void *srcv, void *dstv, size_t n)
{
    const int32_t *src = (const int32_t *)srcv;
    uint8_t *dst = (uint8_t *)dstv;
    size_t i, j;
    for (i = 0; i + C <= n; i += C)
        for (j = 0; j < C; j += 64) {
            RQ_AHEAD(src + i + j, 4);
            const __m512 w0 = single_products(src + i + j, rq_s + j), w1 = single_products(src + i + j + 16, rq_s + j + 16),
                         w2 = single_products(src + i + j + 32, rq_s + j + 32), w3 = single_products(src + i + j + 48, rq_s + j + 48);
            const __m512 f = _mm512_range_ps(_mm512_range_ps(_mm512_reduce_ps(w0, 0x08), _mm512_reduce_ps(w1, 0x08), 0x0B),
                                             _mm512_range_ps(_mm512_reduce_ps(w2, 0x08), _mm512_reduce_ps(w3, 0x08), 0x0B), 0x0B);
            single_store(dst + i + j, w0, w1, w2, w3);
            if (_mm512_cmp_ps_mask(f, _mm512_set1_ps(0.5f - 1.0f / 2048.0f), _CMP_GE_OQ)) rqs_flagged(dst + i + j);
        }
}

__attribute__((noinline)) static void rqs_loop(const void *srcv, void *dstv, size_t n)
{
    rq_call(srcv, dstv, n, QUANT_RQ_SINGLE);
}

/* ---- f32 -> iq4_nl: 15 tries a block of 32 ---- */
T512 __attribute__((noinline)) static void iq4_floor_loop(const void *srcv, void *dstv, size_t n)
{
    const float *x = (const float *)srcv;
    const __m512 lev = _mm512_setr_ps(-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113);
    const __m512 b = _mm512_set1_ps(8.0f);
    const __m512i m15 = _mm512_set1_epi32(15);
    __m512 acc[15]; /* one sum a try: 15 chains side by side */
    size_t i;
    int t;
    for (t = 0; t < 15; ++t) acc[t] = _mm512_setzero_ps();
    for (i = 0; i + 32 <= n; i += 32) {
        const __m512 x0 = _mm512_loadu_ps(x + i), x1 = _mm512_loadu_ps(x + i + 16);
        for (t = 0; t < 15; ++t) {
            const __m512 s = _mm512_set1_ps(0.043f + 0.001f * (float)t);
            const __m512 q0 = _mm512_permutexvar_ps(_mm512_and_si512(_mm512_cvttps_epi32(_mm512_fmadd_ps(x0, s, b)), m15), lev);
            const __m512 q1 = _mm512_permutexvar_ps(_mm512_and_si512(_mm512_cvttps_epi32(_mm512_fmadd_ps(x1, s, b)), m15), lev);
            acc[t] = _mm512_fmadd_ps(q1, x1, _mm512_fmadd_ps(q0, x0, acc[t]));
        }
    }
    for (t = 1; t < 15; ++t) acc[0] = _mm512_add_ps(acc[0], acc[t]);
    _mm512_storeu_ps((float *)dstv, acc[0]);
}

/* quant.h's encode of n floats, rows of 4096, to block type t */
static void encode_rows(const void *srcv, void *dstv, size_t n, quant_dtype t)
{
    quant_tensor src, dst;
    quant_attrs a = quant_attrs_default();
    memset(&src, 0, sizeof src);
    src.dtype = QUANT_F32; src.rank = 2; src.dims[0] = (int64_t)(n / 4096); src.dims[1] = 4096;
    src.data = (void *)(uintptr_t)srcv;
    dst = src; dst.dtype = t; dst.data = dstv;
    if (quant_quantize(&src, &dst, &a) != QUANT_OK) abort();
}

__attribute__((noinline)) static void iq4_loop(const void *srcv, void *dstv, size_t n)
{
    encode_rows(srcv, dstv, n, QUANT_IQ4_NL);
}

/* ---- f32 -> q6_K's search ---- */
T512 __attribute__((noinline)) static void q6k_floor(const void *srcv, void *dstv, size_t n)
{
    const float *x = (const float *)srcv;
    __m512 out = _mm512_setzero_ps();
    size_t blk;
    for (blk = 0; blk + 256 <= n; blk += 256) {
        __m512 xt[16], w[16], wx[16], mx = _mm512_setzero_ps();
        int i, t, u;
        for (i = 0; i < 16; ++i) {
            xt[i] = _mm512_loadu_ps(x + blk + 16 * (size_t)i);
            mx = _mm512_max_ps(mx, _mm512_abs_ps(xt[i]));
            w[i] = _mm512_mul_ps(xt[i], xt[i]);
            wx[i] = _mm512_mul_ps(w[i], xt[i]);
        }
        for (t = 0; t < 19; t += 4) {
            __m512 is[4], a[4], b[4];
            for (u = 0; u < 4; ++u) {
                is[u] = _mm512_div_ps(_mm512_set1_ps(-(32.0f + 0.1f * (float)(t + u - 9))), mx);
                a[u] = b[u] = _mm512_setzero_ps();
            }
            for (i = 0; i < 16; ++i)
                for (u = 0; u < 4 && t + u < 19; ++u) {
                    const __m512 l = _mm512_roundscale_ps(_mm512_mul_ps(is[u], xt[i]), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
                    a[u] = _mm512_add_ps(a[u], _mm512_mul_ps(wx[i], l));
                    b[u] = _mm512_add_ps(b[u], _mm512_mul_ps(_mm512_mul_ps(w[i], l), l));
                }
            for (u = 0; u < 4 && t + u < 19; ++u) out = _mm512_add_ps(out, _mm512_add_ps(a[u], b[u]));
        }
    }
    _mm512_storeu_ps((float *)dstv, out);
}

__attribute__((noinline)) static void q6k_loop(const void *srcv, void *dstv, size_t n)
{
    encode_rows(srcv, dstv, n, QUANT_Q6_K);
}

/* ---- f32 -> q8_0 ---- */
/* quant-bench's encode limit for q8_0: a run of 256 floats (1 KiB) folded,
   the fold stored over its 272 block bytes */
__attribute__((noinline)) static void q8_limit_loop(const void *srcv, void *dstv, size_t n)
{
    const uint64_t *s0 = (const uint64_t *)srcv;
    uint8_t *dst = (uint8_t *)dstv;
    size_t k, j;
    for (k = 0; k < n / 256; ++k) {
        const uint64_t *s = s0 + k * 128;
        uint8_t *d = dst + k * 272;
        uint64_t v = 0;
        for (j = 0; j < 128; ++j) v ^= s[j];
        for (j = 0; j < 272; j += 8) memcpy(d + j, &v, 8);
    }
}

/* lane i: the maximum over the 16 lanes of v[i] */
T512V static inline __m512 q8_tree(__m512 *v)
{
    int k, w;
    for (w = 8; w >= 1; w /= 2) /* 16 -> 8 -> 4 -> 2 -> 1 vectors, each twice as many lanes per block */
        for (k = 0; k < w; ++k) {
            const __m512 a = v[2 * k], b = v[2 * k + 1];
            __m512 lo, hi;
            if (w == 8) { lo = _mm512_shuffle_f32x4(a, b, 0x44); hi = _mm512_shuffle_f32x4(a, b, 0xEE); }
            else if (w == 4) { lo = _mm512_shuffle_f32x4(a, b, 0x88); hi = _mm512_shuffle_f32x4(a, b, 0xDD); }
            else if (w == 2) { lo = _mm512_shuffle_ps(a, b, 0x44); hi = _mm512_shuffle_ps(a, b, 0xEE); }
            else { lo = _mm512_shuffle_ps(a, b, 0x88); hi = _mm512_shuffle_ps(a, b, 0xDD); }
            v[k] = _mm512_max_ps(lo, hi);
        }
    return v[0];
}

T512V __attribute__((noinline)) static void q8_floor_loop(const void *srcv, void *dstv, size_t n)
{
    const float *x = (const float *)srcv;
    const __m512i lo8 = _mm512_set_epi32(0, 0, 0, 0, 0, 0, 0, 0, 0x7C787470, 0x6C686460, 0x5C585450, 0x4C484440, 0x3C383430,
                                         0x2C282420, 0x1C181410, 0x0C080400);
    uint8_t *dst = (uint8_t *)dstv;
    size_t g;
    for (g = 0; g + 512 <= n; g += 512) {
        const float *xg = x + g;
        uint8_t *o = dst + g / 32 * 34;
        __m512 v[16];
        float id[16];
        int i;
        /* block i in slot 4 (i & 3) + (i >> 2): the tree's lane order */
        for (i = 0; i < 16; ++i)
            v[4 * (i & 3) + (i >> 2)] = _mm512_range_ps(_mm512_loadu_ps(xg + 32 * i), _mm512_loadu_ps(xg + 32 * i + 16), 0x0B);
        _mm512_storeu_ps(id, _mm512_div_ps(_mm512_set1_ps(127.0f), q8_tree(v)));
        for (i = 0; i < 16; ++i) {
            const __m512 s = _mm512_set1_ps(id[i]);
            const __m512i q0 = _mm512_cvtps_epi32(_mm512_mul_ps(_mm512_loadu_ps(xg + 32 * i), s));
            const __m512i q1 = _mm512_cvtps_epi32(_mm512_mul_ps(_mm512_loadu_ps(xg + 32 * i + 16), s));
            /* the low bytes of both in one vpermt2b */
            _mm256_storeu_si256((__m256i *)(void *)(o + 34 * i + 2), _mm512_castsi512_si256(_mm512_permutex2var_epi8(q0, lo8, q1)));
        }
    }
}

/* one pass: 8 blocks held in 16 registers, their maxima (two lanes a
   block after the tree) and 127 / max in one division, the products from
   the registers */
T512V __attribute__((noinline)) static void q8_floor1_loop(const void *srcv, void *dstv, size_t n)
{
    const float *x = (const float *)srcv;
    const __m512i lo8 = _mm512_set_epi32(0, 0, 0, 0, 0, 0, 0, 0, 0x7C787470, 0x6C686460, 0x5C585450, 0x4C484440, 0x3C383430,
                                         0x2C282420, 0x1C181410, 0x0C080400);
    uint8_t *dst = (uint8_t *)dstv;
    size_t g;
    for (g = 0; g + 256 <= n; g += 256) {
        const float *xg = x + g;
        uint8_t *o = dst + g / 32 * 34;
        __m512 X[16], v[16];
        float id[16];
        int i;
        for (i = 0; i < 16; ++i) X[i] = _mm512_loadu_ps(xg + 16 * i);
        for (i = 0; i < 8; ++i) /* each block twice: the tree of 16 as above */
            v[4 * (i & 3) + (i >> 2)] = v[4 * (i & 3) + (i >> 2) + 2] = _mm512_range_ps(X[2 * i], X[2 * i + 1], 0x0B);
        _mm512_storeu_ps(id, _mm512_div_ps(_mm512_set1_ps(127.0f), q8_tree(v)));
        for (i = 0; i < 8; ++i) {
            const __m512 s = _mm512_set1_ps(id[i]);
            const __m512i q0 = _mm512_cvtps_epi32(_mm512_mul_ps(X[2 * i], s)), q1 = _mm512_cvtps_epi32(_mm512_mul_ps(X[2 * i + 1], s));
            _mm256_storeu_si256((__m256i *)(void *)(o + 34 * i + 2), _mm512_castsi512_si256(_mm512_permutex2var_epi8(q0, lo8, q1)));
        }
    }
}

__attribute__((noinline)) static void q8_loop(const void *srcv, void *dstv, size_t n)
{
    quant_tensor src, dst;
    quant_attrs a = quant_attrs_default();
    memset(&src, 0, sizeof src);
    src.dtype = QUANT_F32; src.rank = 2; src.dims[0] = (int64_t)(n / 4096); src.dims[1] = 4096;
    src.data = (void *)(uintptr_t)srcv;
    dst = src; dst.dtype = QUANT_Q8_0; dst.data = dstv;
    if (quant_quantize(&src, &dst, &a) != QUANT_OK) abort();
}

/* ---- f32 -> q4_0, q4_1, q5_0, q5_1, mxfp4, nvfp4 ---- */
/* quant-bench's encode limit for a type of sb block bytes a run of 256
   floats (ggml_section.c's): the run folded, the fold stored over its
   block bytes */
static inline __attribute__((always_inline)) void enc_limit_body(const void *srcv, void *dstv, size_t n, const size_t sb)
{
    const uint64_t *s0 = (const uint64_t *)srcv;
    uint8_t *dst = (uint8_t *)dstv;
    size_t k, j;
    for (k = 0; k < n / 256; ++k) {
        const uint64_t *s = s0 + k * 128;
        uint8_t *d = dst + k * sb;
        uint64_t v = 0;
        for (j = 0; j < 128; ++j) v ^= s[j];
        for (j = 0; j + 8 <= sb; j += 8) memcpy(d + j, &v, 8);
        memcpy(d + sb - 8, &v, 8);
    }
}

/* lane i: OP over the 16 lanes of v[i] (slots as q8_tree); op 0: max, 1:
   min, 2: max |x| (vrangeps) */
T512V static inline __attribute__((always_inline)) __m512 f4_tree(__m512 *v, const int op)
{
    int k, w;
    for (w = 8; w >= 1; w /= 2)
        for (k = 0; k < w; ++k) {
            const __m512 a = v[2 * k], b = v[2 * k + 1];
            __m512 lo, hi;
            if (w == 8) { lo = _mm512_shuffle_f32x4(a, b, 0x44); hi = _mm512_shuffle_f32x4(a, b, 0xEE); }
            else if (w == 4) { lo = _mm512_shuffle_f32x4(a, b, 0x88); hi = _mm512_shuffle_f32x4(a, b, 0xDD); }
            else if (w == 2) { lo = _mm512_shuffle_ps(a, b, 0x44); hi = _mm512_shuffle_ps(a, b, 0xEE); }
            else { lo = _mm512_shuffle_ps(a, b, 0x88); hi = _mm512_shuffle_ps(a, b, 0xDD); }
            v[k] = op == 0 ? _mm512_max_ps(lo, hi) : op == 1 ? _mm512_min_ps(lo, hi) : _mm512_range_ps(lo, hi, 0x0B);
        }
    return v[0];
}

/* the low bytes of a's and b's lanes, 32, of which the first 16 are stored */
#define F4_LO8 _mm512_set_epi32(0, 0, 0, 0, 0, 0, 0, 0, 0x7C787470, 0x6C686460, 0x5C585450, 0x4C484440, 0x3C383430, 0x2C282420, 0x1C181410, 0x0C080400)

/* q4_0, q5_0, mxfp4 (blocks of 32, bb bytes): first pass per block one
   vrangeps (max |x| of its two vectors), the tree, one division for 16
   blocks; second pass per vector x * id and vcvtps2dq, per block one
   vpermt2b and a 16-byte store */
T512V static inline __attribute__((always_inline)) void f4a_body(const void *srcv, void *dstv, size_t n, const size_t bb)
{
    const float *x = (const float *)srcv;
    const __m512i lo8 = F4_LO8;
    uint8_t *dst = (uint8_t *)dstv;
    size_t g;
    for (g = 0; g + 512 <= n; g += 512) {
        const float *xg = x + g;
        uint8_t *o = dst + g / 32 * bb;
        __m512 v[16];
        float id[16];
        int i;
        for (i = 0; i < 16; ++i)
            v[4 * (i & 3) + (i >> 2)] = _mm512_range_ps(_mm512_loadu_ps(xg + 32 * i), _mm512_loadu_ps(xg + 32 * i + 16), 0x0B);
        _mm512_storeu_ps(id, _mm512_div_ps(_mm512_set1_ps(-8.0f), f4_tree(v, 2)));
        for (i = 0; i < 16; ++i) {
            const __m512 s = _mm512_set1_ps(id[i]);
            const __m512i q0 = _mm512_cvtps_epi32(_mm512_mul_ps(_mm512_loadu_ps(xg + 32 * i), s));
            const __m512i q1 = _mm512_cvtps_epi32(_mm512_mul_ps(_mm512_loadu_ps(xg + 32 * i + 16), s));
            _mm_storeu_si128((__m128i *)(void *)(o + bb * (size_t)i + bb - 16), _mm512_castsi512_si128(_mm512_permutex2var_epi8(q0, lo8, q1)));
        }
    }
}

/* q4_1, q5_1: first pass per block a max and a min of its two vectors,
   two trees, one subtraction and one division for 16 blocks; second pass
   per vector one FMA x * id - min * id (a correct encoder subtracts and
   multiplies, then adds) and vcvtps2dq, per block one vpermt2b and a
   16-byte store */
T512V static inline __attribute__((always_inline)) void f4b_body(const void *srcv, void *dstv, size_t n, const size_t bb)
{
    const float *x = (const float *)srcv;
    const __m512i lo8 = F4_LO8;
    uint8_t *dst = (uint8_t *)dstv;
    size_t g;
    for (g = 0; g + 512 <= n; g += 512) {
        const float *xg = x + g;
        uint8_t *o = dst + g / 32 * bb;
        __m512 v[16], u[16], hi, lo, idv;
        float id[16], m[16];
        int i;
        for (i = 0; i < 16; ++i) {
            const __m512 x0 = _mm512_loadu_ps(xg + 32 * i), x1 = _mm512_loadu_ps(xg + 32 * i + 16);
            v[4 * (i & 3) + (i >> 2)] = _mm512_max_ps(x0, x1);
            u[4 * (i & 3) + (i >> 2)] = _mm512_min_ps(x0, x1);
        }
        hi = f4_tree(v, 0);
        lo = f4_tree(u, 1);
        idv = _mm512_div_ps(_mm512_set1_ps(15.0f), _mm512_sub_ps(hi, lo));
        _mm512_storeu_ps(id, idv);
        _mm512_storeu_ps(m, _mm512_mul_ps(lo, idv));
        for (i = 0; i < 16; ++i) {
            const __m512 s = _mm512_set1_ps(id[i]), c = _mm512_set1_ps(m[i]);
            const __m512i q0 = _mm512_cvtps_epi32(_mm512_fmsub_ps(_mm512_loadu_ps(xg + 32 * i), s, c));
            const __m512i q1 = _mm512_cvtps_epi32(_mm512_fmsub_ps(_mm512_loadu_ps(xg + 32 * i + 16), s, c));
            _mm_storeu_si128((__m128i *)(void *)(o + bb * (size_t)i + bb - 16), _mm512_castsi512_si128(_mm512_permutex2var_epi8(q0, lo8, q1)));
        }
    }
}

/* nvfp4 (blocks of 64 in 4 sub-blocks of 16, 36 bytes): per group of 4
   blocks the tree of max |x| over the 16 sub-block vectors (its first
   level takes the absolute values), one division; per vector x * id and
   vcvtps2dq, per two one vpermt2b and a 16-byte store. No scale code, no
   table of the 8 levels */
T512V __attribute__((noinline)) static void nv_floor_loop(const void *srcv, void *dstv, size_t n)
{
    const float *x = (const float *)srcv;
    const __m512i lo8 = F4_LO8;
    uint8_t *dst = (uint8_t *)dstv;
    size_t g;
    for (g = 0; g + 256 <= n; g += 256) {
        const float *xg = x + g;
        uint8_t *o = dst + g / 64 * 36;
        __m512 v[16];
        float id[16];
        int i, j;
        for (i = 0; i < 16; ++i) v[4 * (i & 3) + (i >> 2)] = _mm512_loadu_ps(xg + 16 * i);
        _mm512_storeu_ps(id, _mm512_div_ps(_mm512_set1_ps(6.0f), f4_tree(v, 2)));
        for (i = 0; i < 4; ++i)
            for (j = 0; j < 2; ++j) {
                const int k = 4 * i + 2 * j;
                const __m512i q0 = _mm512_cvtps_epi32(_mm512_mul_ps(_mm512_loadu_ps(xg + 16 * k), _mm512_set1_ps(id[k])));
                const __m512i q1 = _mm512_cvtps_epi32(_mm512_mul_ps(_mm512_loadu_ps(xg + 16 * k + 16), _mm512_set1_ps(id[k + 1])));
                _mm_storeu_si128((__m128i *)(void *)(o + 36 * i + 4 + 16 * j), _mm512_castsi512_si128(_mm512_permutex2var_epi8(q0, lo8, q1)));
            }
    }
}

static void blk_enc(const void *srcv, void *dstv, size_t n, quant_dtype t)
{
    quant_tensor src, dst;
    quant_attrs a = quant_attrs_default();
    memset(&src, 0, sizeof src);
    src.dtype = QUANT_F32; src.rank = 2; src.dims[0] = (int64_t)(n / 4096); src.dims[1] = 4096;
    src.data = (void *)(uintptr_t)srcv;
    dst = src; dst.dtype = t; dst.data = dstv;
    if (quant_quantize(&src, &dst, &a) != QUANT_OK) abort();
}

/* q8_K (blocks of 256, 292 bytes: f32 d, 256 codes, 16 sums): per group
   of 16 blocks, first pass per block 15 vrangeps folding its 16 vectors
   to |x| max, the transposing tree to one vector of the 16 blocks' maxima,
   one division 127 / max; second pass, from L1: per vector x * id and
   vcvtps2dq (nearest even), four vectors packed to 64 code bytes (two
   vpackssdw, one vpacksswb, one vpermd) and stored. No d stored, no sums
   of 16 codes, no second division, no zero, sign or NaN rule. */
/* four vectors of codes (in int32 lanes) packed to 64 bytes in order and
   stored at o: two vpackssdw, one vpacksswb, one vpermd */
T512V static inline __attribute__((always_inline)) void q8K_store64(uint8_t *o, const __m512i *q)
{
    const __m512i perm = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    _mm512_storeu_si512(o, _mm512_permutexvar_epi32(perm, _mm512_packs_epi16(_mm512_packs_epi32(q[0], q[1]),
                                                                             _mm512_packs_epi32(q[2], q[3]))));
}

T512V static inline __attribute__((always_inline)) void q8K_floor_body(const void *srcv, void *dstv, size_t n)
{
    const float *x = (const float *)srcv;
    uint8_t *dst = (uint8_t *)dstv;
    size_t g;
    for (g = 0; g + 4096 <= n; g += 4096) {
        const float *xg = x + g;
        uint8_t *o = dst + g / 256 * 292;
        __m512 v[16];
        float id[16];
        int i, j, k;
        for (i = 0; i < 16; ++i) {
            __m512 m = _mm512_loadu_ps(xg + 256 * i);
            for (j = 1; j < 16; ++j) m = _mm512_range_ps(m, _mm512_loadu_ps(xg + 256 * i + 16 * j), 0x0B);
            v[4 * (i & 3) + (i >> 2)] = m;
        }
        _mm512_storeu_ps(id, _mm512_div_ps(_mm512_set1_ps(127.0f), q8_tree(v)));
        for (i = 0; i < 16; ++i) {
            const __m512 sc = _mm512_set1_ps(id[i]);
            for (j = 0; j < 4; ++j) {
                __m512i q[4];
                for (k = 0; k < 4; ++k) q[k] = _mm512_cvtps_epi32(_mm512_mul_ps(_mm512_loadu_ps(xg + 256 * i + 64 * j + 16 * k), sc));
                q8K_store64(o + 292 * i + 4 + 64 * j, q);
            }
        }
    }
}

/* the same in one pass: a block's 16 vectors held in registers, folded by
   a tree of 15 vrangeps, the maximum reduced across lanes (four shuffles
   and maxima), 127 / max divided for that block alone, the codes from the
   registers */
T512V __attribute__((noinline)) static void q8K_floor1(const void *srcv, void *dstv, size_t n)
{
    const float *x = (const float *)srcv;
    uint8_t *dst = (uint8_t *)dstv;
    size_t b;
    for (b = 0; b + 256 <= n; b += 256) {
        const float *xb = x + b;
        uint8_t *o = dst + b / 256 * 292;
        __m512 X[16], t[8], m, sc;
        int j, k;
        for (j = 0; j < 16; ++j) X[j] = _mm512_loadu_ps(xb + 16 * j);
        for (j = 0; j < 8; ++j) t[j] = _mm512_range_ps(X[2 * j], X[2 * j + 1], 0x0B);
        for (k = 4; k >= 1; k /= 2)
            for (j = 0; j < k; ++j) t[j] = _mm512_max_ps(t[j], t[j + k]);
        m = _mm512_max_ps(t[0], _mm512_shuffle_f32x4(t[0], t[0], 0x4E));
        m = _mm512_max_ps(m, _mm512_shuffle_f32x4(m, m, 0xB1));
        m = _mm512_max_ps(m, _mm512_permute_ps(m, 0x4E));
        m = _mm512_max_ps(m, _mm512_permute_ps(m, 0xB1));
        sc = _mm512_div_ps(_mm512_set1_ps(127.0f), m);
        for (j = 0; j < 4; ++j) {
            __m512i q[4];
            for (k = 0; k < 4; ++k) q[k] = _mm512_cvtps_epi32(_mm512_mul_ps(X[4 * j + k], sc));
            q8K_store64(o + 4 + 64 * j, q);
        }
    }
}

/* per type: the limit (sb bytes a run of 256), the floor, quant.h */
#define F4_TYPE(ty, T, sb, floor_call)                                                                                 \
    __attribute__((noinline)) static void ty##_limit(const void *s, void *d, size_t n) { enc_limit_body(s, d, n, sb); } \
    T512V __attribute__((noinline)) static void ty##_floor(const void *s, void *d, size_t n) { floor_call; }           \
    __attribute__((noinline)) static void ty##_loop(const void *s, void *d, size_t n) { blk_enc(s, d, n, T); }
F4_TYPE(q40, QUANT_Q4_0, 144, f4a_body(s, d, n, 18))
F4_TYPE(q50, QUANT_Q5_0, 176, f4a_body(s, d, n, 22))
F4_TYPE(mx4, QUANT_MXFP4, 136, f4a_body(s, d, n, 17))
F4_TYPE(q41, QUANT_Q4_1, 160, f4b_body(s, d, n, 20))
F4_TYPE(q51, QUANT_Q5_1, 192, f4b_body(s, d, n, 24))
F4_TYPE(nv4, QUANT_NVFP4_BLOCK, 144, nv_floor_loop(s, d, n))
F4_TYPE(q8K, QUANT_Q8_K, 292, q8K_floor_body(s, d, n))

typedef void (*loop_fn)(const void *, void *, size_t);

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* the best of five timed passes of reps calls, in ns per element */
static double time_loop(loop_fn f, const void *src, void *dst, size_t n, int reps)
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

typedef struct fcase {
    const char *title;
    size_t esize;   /* source bytes an element (q4_0: 0) */
    int f32;        /* the source is floats */
    size_t osize;   /* destination bytes an element */
    loop_fn limit;
    const char *names[4];
    loop_fn loops[4];
} fcase;

static void run_case(const fcase *fc, int runs, size_t only_n)
{
    static const size_t sizes[3] = { 4096, 65536, 1048576 };
    int si, round, k;
    printf("%s on %s; median of %d rounds\n", fc->title, quant_backend(), runs);
    printf("%-10s %9s %9s %8s\n", "loop", "n", "ns/elem", "x limit");
    for (si = 0; si < (only_n ? 1 : 3); ++si) {
        const size_t n = only_n ? only_n : sizes[si];
        const int reps = (int)(200000000u / n) + 1;
        const size_t sbytes = fc->esize ? n * fc->esize : n / 32 * Q4B;
        unsigned char *src = malloc(sbytes);
        uint8_t *dst = malloc(n * fc->osize);
        double *lim = malloc(sizeof(double) * (size_t)runs), *t = malloc(sizeof(double) * (size_t)runs),
               *ratio = malloc(sizeof(double) * (size_t)runs);
        size_t i;
        if (!src || !dst || !lim || !t || !ratio) exit(1);
        for (i = 0; i < n; ++i) {
            const uint32_t h = (uint32_t)(i * 2654435761u);
            if (!fc->esize) {
                /* q4_0 blocks of f16 scales 0.5 .. 1 and every code */
                if (i % 32 == 0) {
                    src[i / 32 * Q4B] = (uint8_t)(h >> 24);
                    src[i / 32 * Q4B + 1] = (uint8_t)(0x38 + (h >> 22 & 3u));
                } else if (i % 32 <= 16) src[i / 32 * Q4B + 1 + i % 32] = (uint8_t)(h >> 13);
            } else if (fc->esize == 2) ((uint16_t *)src)[i] = (uint16_t)(0x3C00u + (uint16_t)(h >> 20 & 0x7FFu)); /* 2^-7 to 2^9 */
            else if (fc->f32) ((float *)src)[i] = (float)((int32_t)(h ^ (h >> 7)) >> 20) / 64.0f; /* +-2^5 */
            else ((int32_t *)src)[i] = (int32_t)(h ^ (h >> 7)) >> (h & 15); /* every magnitude */
        }
        for (k = 0; k < 4 && fc->names[k]; ++k) {
            for (round = 0; round < runs; ++round) {
                lim[round] = time_loop(fc->limit, src, dst, n, reps);
                t[round] = time_loop(fc->loops[k], src, dst, n, reps);
                ratio[round] = t[round] / lim[round];
            }
            qsort(t, (size_t)runs, sizeof(double), cmp_double);
            qsort(ratio, (size_t)runs, sizeof(double), cmp_double);
            printf("%-10s %9zu %9.4f %8.2f\n", fc->names[k], n, t[runs / 2], ratio[runs / 2]);
        }
        free(src); free(dst); free(lim); free(t); free(ratio);
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    static const fcase cases[] = {
        { "bf16 -> s8", 2, 0, 1, limit16, { "floor", "floor+nan", "quant.h" }, { floor_loop, floor_nan_loop, bf16_loop } },
        { "requantize s32 -> s8, double, per channel", 4, 0, 1, limit32, { "floor", "quant.h", "floor avx2", "floor sse2" },
          { rq_floor_loop, rq_loop, rq_floor2_loop, rq_floor_sse2_loop } },
        { "requantize s32 -> s8, float, per channel", 4, 0, 1, limit32, { "floor", "floor+clamp", "quant.h", "floor avx2" },
          { rqf_floor_loop, rqf_clamp_loop, rqf_loop, rqf_floor2_loop } },
        { "f32 -> iq4_nl (ggml_quantize_chunk's search)", 4, 1, 1, limit32, { "floor", "quant.h", NULL },
          { iq4_floor_loop, iq4_loop, NULL } },
        { "f32 -> q6_K's search (make_qx_quants, 19 trial scales)", 4, 1, 1, limit32, { "floor", "quant.h", NULL },
          { q6k_floor, q6k_loop, NULL } },
        { "f32 -> q8_0", 4, 1, 2, q8_limit_loop, { "floor", "floor 1p", "quant.h" }, { q8_floor_loop, q8_floor1_loop, q8_loop } },
        { "q4_0 -> f32", 0, 0, 4, q4_limit_f32, { "floor", "floor+mul", "quant.h" },
          { q4_floor_f32, q4_floor_mul_f32, q4_loop_f32 } },
        { "q4_0 -> bf16", 0, 0, 2, q4_limit_bf16, { "floor", "floor+mul", "floor+tab", "quant.h" },
          { q4_floor_bf16, q4_floor_mul_bf16, q4_floor_tab_bf16, q4_loop_bf16 } },
        { "f32 -> q4_0", 4, 1, 1, q40_limit, { "floor", "quant.h", NULL }, { q40_floor, q40_loop, NULL } },
        { "f32 -> q4_1", 4, 1, 1, q41_limit, { "floor", "quant.h", NULL }, { q41_floor, q41_loop, NULL } },
        { "f32 -> q5_0", 4, 1, 1, q50_limit, { "floor", "quant.h", NULL }, { q50_floor, q50_loop, NULL } },
        { "f32 -> q5_1", 4, 1, 1, q51_limit, { "floor", "quant.h", NULL }, { q51_floor, q51_loop, NULL } },
        { "f32 -> mxfp4", 4, 1, 1, mx4_limit, { "floor", "quant.h", NULL }, { mx4_floor, mx4_loop, NULL } },
        { "f32 -> nvfp4", 4, 1, 1, nv4_limit, { "floor", "quant.h", NULL }, { nv4_floor, nv4_loop, NULL } },
        { "f32 -> q8_K", 4, 1, 2, q8K_limit, { "floor", "floor 1p", "quant.h" }, { q8K_floor, q8K_floor1, q8K_loop } },
        { "requantize s32 -> s8, single, per channel", 4, 0, 1, limit32, { "floor", "floor+flag", "quant.h", NULL },
          { rqs_floor_loop, rqs_flag_loop, rqs_loop, NULL } },
        { "requantize s32 -> s8, float, per channel, sse2", 4, 0, 1, limit32, { "floor sse2", NULL },
          { rqf_floor_sse2_loop, NULL } },
    };
    const char *only = NULL;
    int runs = 11, c, a, bad = 0;
    long n = 0;
    for (a = 1; a + 1 < argc; a += 2) {
        if (strcmp(argv[a], "--runs") == 0) runs = atoi(argv[a + 1]);
        else if (strcmp(argv[a], "--n") == 0) n = atol(argv[a + 1]);
        else if (strcmp(argv[a], "--only") == 0) only = argv[a + 1];
        else bad = 1;
    }
    if (runs < 1 || runs > 1000 || n < 0 || n % 4096 || bad || argc % 2 == 0) {
        fprintf(stderr, "usage: %s [--runs N] [--only TITLE-PREFIX] [--n ELEMENTS, a multiple of 4096]\n", argv[0]);
        return 2;
    }
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512bw") || !__builtin_cpu_supports("avx512dq")) {
        puts("floor: this CPU has no AVX-512 F, BW and DQ");
        return 0;
    }
    for (c = 0; c < C; ++c) {
        rq_m[c] = (int32_t)(0x40000000u | ((uint32_t)c * 2654435761u >> 2));
        rq_sh[c] = -1 - c % 12;
        rq_s[c] = 1.0f / (float)(100 + c);
    }
    for (c = 0; c < (int)(sizeof cases / sizeof cases[0]); ++c)
        if ((!only || strncmp(cases[c].title, only, strlen(only)) == 0) && (c != 6 || __builtin_cpu_supports("avx512bf16")))
            run_case(&cases[c], runs, (size_t)n);
    return 0;
}
#endif
