/* tests/oracle_ggml.h - an independent decoder for ggml's block formats.

   Like oracle.h it shares no code with quant.h. It reads ggml's block
   layouts (ggml-common.h) byte by byte, little-endian, with no struct
   casts, and decodes each element with the float operations ggml's
   dequantize_row_* performs, in the same order, each rounded to binary32
   on its own: a product is formed exactly in double and rounded to float
   (og_mul), a sum of two floats likewise (og_add, og_sub; double rounding
   of one float op through double is innocuous, see oracle.h), so no FMA
   contraction or excess precision can slip in, whatever the compiler
   flags. The f16, e8m0 and UE4M3 scales are decoded from their bits here
   (no _Float16), as ggml 0.25.1 decodes them, including NaN, Inf,
   subnormal and -0 scales: an f16 NaN decodes to the quiet NaN
   sign | 0x7FC00000 | payload << 13 (ggml's software conversion and F16C
   both give that). NaN operands propagate as on x86 (see og_nan_in), so
   the payloads match x86-64 ggml's too; only a NaN made from non-NaN
   operands (0 * Inf, Inf - Inf) is the platform's default NaN (x86
   0xFFC00000, Arm 0x7FC00000).

   Types, by index t (quant.h's QUANT_Q4_0 + t):
     0 q4_0  1 q4_1  2 q5_0  3 q5_1  4 q8_0  5 q2_K  6 q3_K  7 q4_K
     8 q5_K  9 q6_K  10 q8_K  11 iq4_nl  12 iq4_xs  13 mxfp4  14 nvfp4

   Rounding an f32 result to f16/bf16 (nearest even, NaN to the quiet NaN
   of its sign) is oracle.h's o_f16_code / o_bf16_code, aliased here as
   og_f32_to_f16 / og_f32_to_bf16. */
#ifndef ORACLE_GGML_H
#define ORACLE_GGML_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "oracle.h"

#if defined(__GNUC__)
#define OG_UNUSED __attribute__((unused))
#else
#define OG_UNUSED
#endif

#define OG_NTYPES 15

enum {
    OG_Q4_0 = 0, OG_Q4_1, OG_Q5_0, OG_Q5_1, OG_Q8_0, OG_Q2_K, OG_Q3_K, OG_Q4_K, OG_Q5_K, OG_Q6_K,
    OG_Q8_K, OG_IQ4_NL, OG_IQ4_XS, OG_MXFP4, OG_NVFP4
};

OG_UNUSED static const char *og_name(int t)
{
    static const char *const names[OG_NTYPES] = { "q4_0", "q4_1", "q5_0", "q5_1", "q8_0", "q2_K", "q3_K", "q4_K",
                                                  "q5_K", "q6_K", "q8_K", "iq4_nl", "iq4_xs", "mxfp4", "nvfp4" };
    return t >= 0 && t < OG_NTYPES ? names[t] : "?";
}

OG_UNUSED static int og_block_elems(int t)
{
    if (t < 0 || t >= OG_NTYPES) return 0;
    if (t == OG_NVFP4) return 64;
    if ((t >= OG_Q2_K && t <= OG_Q8_K) || t == OG_IQ4_XS) return 256;
    return 32;
}

OG_UNUSED static int og_block_bytes(int t)
{
    static const int bytes[OG_NTYPES] = { 18, 20, 22, 24, 34, 84, 110, 144, 176, 210, 292, 18, 136, 17, 36 };
    return t >= 0 && t < OG_NTYPES ? bytes[t] : 0;
}

OG_UNUSED static uint16_t og_f32_to_f16(float x) { return o_f16_code(x); }
OG_UNUSED static uint16_t og_f32_to_bf16(float x) { return o_bf16_code(x); }

/* ---- bits ---- */

OG_UNUSED static float og_bits(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
OG_UNUSED static uint32_t og_u16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
OG_UNUSED static uint32_t og_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A NaN operand is returned quieted, the first one when both are NaN (x86
   SSE's rule, which ggml's compiled code follows with the operands in the
   order written here), so that which payload comes out does not depend on
   the order a compiler gives a commutative operation. A NaN the operation
   makes (Inf - Inf, 0 * Inf) is the hardware's default NaN. */
OG_UNUSED static int og_nan_in(float a, float b, float *r)
{
    uint32_t u;
    if (a == a && b == b) return 0;
    memcpy(&u, a != a ? &a : &b, 4);
    u |= 0x00400000u;
    memcpy(r, &u, 4);
    return 1;
}

/* one binary32 operation each, never fused */
OG_UNUSED static float og_mul(float a, float b)
{
    float r;
    return og_nan_in(a, b, &r) ? r : (float)((double)a * (double)b);
}
OG_UNUSED static float og_add(float a, float b)
{
    float r;
    return og_nan_in(a, b, &r) ? r : (float)((double)a + (double)b);
}
OG_UNUSED static float og_sub(float a, float b)
{
    float r;
    return og_nan_in(a, b, &r) ? r : (float)((double)a - (double)b);
}

/* the f32 bits of m * 2^e for 0 < m < 2^24 exactly, the result normal */
OG_UNUSED static uint32_t og_norm_bits(uint32_t m, int e)
{
    int top = 0;
    while ((m >> (top + 1)) != 0) ++top;            /* m in [2^top, 2^(top+1)) */
    return (uint32_t)(top + e + 127) << 23 | ((m << (23 - top)) & 0x7FFFFFu);
}

/* IEEE binary16, from its bits */
OG_UNUSED static float og_f16(uint32_t h)
{
    const uint32_t sign = (h & 0x8000u) << 16, e = (h >> 10) & 31u, m = h & 0x3FFu;
    if (e == 31) return og_bits(sign | 0x7F800000u | (m ? 0x400000u | m << 13 : 0u));
    if (e == 0) return og_bits(m ? sign | og_norm_bits(m, -24) : sign);
    return og_bits(sign | (e + 112u) << 23 | m << 13);
}

/* ggml's MXFP4 scale: half the e8m0 value, 2^(x - 128), with no NaN
   (x = 255 is 2^127); x = 0 and 1 are the subnormals 2^-128, 2^-127 */
OG_UNUSED static float og_e8m0_half(uint32_t x)
{
    if (x < 2) return og_bits(x == 0 ? 0x00200000u : 0x00400000u);
    return og_bits((x - 1) << 23);
}

/* ggml's NVFP4 scale: half the UE4M3 value. Codes 0x00 and 0x7F are 0;
   bit 7 is not looked at otherwise (0x80 is 0, 0xFF is 240). Exponent
   field e (bias 7), mantissa m: e = 0 gives m * 2^-9, else (8 + m) *
   2^(e - 10); halved: m * 2^-10 and (8 + m) * 2^(e - 11). */
OG_UNUSED static float og_ue4m3_half(uint32_t x)
{
    const uint32_t e = (x >> 3) & 15u, m = x & 7u;
    if (x == 0 || x == 0x7F) return 0.0f;
    if (e == 0) return m ? og_bits(og_norm_bits(m, -10)) : 0.0f;
    return og_bits((e + 119u) << 23 | m << 20);
}

/* the value tables, as ggml has them (e2m1 doubled) */
static const int8_t og_iq4nl_values[16] = { -127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113 };
static const int8_t og_e2m1x2_values[16] = { 0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12 };

/* ---- the blocks; b is one block, y its elements ---- */

/* d, then 16 bytes: element j in the low nibble of byte j, element j + 16
   in the high one */
static void og_q4_0(const uint8_t *b, float *y)
{
    const float d = og_f16(og_u16(b));
    int j;
    for (j = 0; j < 16; ++j) {
        y[j] = og_mul((float)((b[2 + j] & 15) - 8), d);
        y[j + 16] = og_mul((float)((b[2 + j] >> 4) - 8), d);
    }
}

/* d, m, then the nibbles as q4_0; q * d + m */
static void og_q4_1(const uint8_t *b, float *y)
{
    const float d = og_f16(og_u16(b)), m = og_f16(og_u16(b + 2));
    int j;
    for (j = 0; j < 16; ++j) {
        y[j] = og_add(og_mul((float)(b[4 + j] & 15), d), m);
        y[j + 16] = og_add(og_mul((float)(b[4 + j] >> 4), d), m);
    }
}

/* d, a 32-bit word whose bit i is element i's fifth bit, the nibbles */
static void og_q5_0(const uint8_t *b, float *y)
{
    const float d = og_f16(og_u16(b));
    const uint32_t hi = og_u32(b + 2);
    int j;
    for (j = 0; j < 16; ++j) {
        const int lo = (int)((b[6 + j] & 15) | ((hi >> j) & 1u) << 4);
        const int up = (int)((b[6 + j] >> 4) | ((hi >> (j + 16)) & 1u) << 4);
        y[j] = og_mul((float)(lo - 16), d);
        y[j + 16] = og_mul((float)(up - 16), d);
    }
}

static void og_q5_1(const uint8_t *b, float *y)
{
    const float d = og_f16(og_u16(b)), m = og_f16(og_u16(b + 2));
    const uint32_t hi = og_u32(b + 4);
    int j;
    for (j = 0; j < 16; ++j) {
        const int lo = (int)((b[8 + j] & 15) | ((hi >> j) & 1u) << 4);
        const int up = (int)((b[8 + j] >> 4) | ((hi >> (j + 16)) & 1u) << 4);
        y[j] = og_add(og_mul((float)lo, d), m);
        y[j + 16] = og_add(og_mul((float)up, d), m);
    }
}

/* d, then 32 signed bytes */
static void og_q8_0(const uint8_t *b, float *y)
{
    const float d = og_f16(og_u16(b));
    int j;
    for (j = 0; j < 32; ++j) y[j] = og_mul((float)(int8_t)b[2 + j], d);
}

/* q2_K (84 bytes): 16 scale bytes (low nibble a scale, high nibble a min,
   for 16 elements each), 64 bytes of 2-bit codes, d, dmin. Element
   128h + 32s + 16u + l (h half, s shift index, u 0/1, l < 16) is bits 2s,
   2s+1 of code byte 32h + 16u + l; its scale byte is 8h + 2s + u.
   fl(fl(d * sc) * q) - fl(dmin * mn) */
static void og_q2_K(const uint8_t *b, float *y)
{
    const float d = og_f16(og_u16(b + 80)), dmin = og_f16(og_u16(b + 82));
    int h, s, u, l;
    for (h = 0; h < 2; ++h)
        for (s = 0; s < 4; ++s)
            for (u = 0; u < 2; ++u) {
                const unsigned sc = b[8 * h + 2 * s + u];
                const float dl = og_mul(d, (float)(sc & 15)), ml = og_mul(dmin, (float)(sc >> 4));
                float *out = y + 128 * h + 32 * s + 16 * u;
                for (l = 0; l < 16; ++l) {
                    const int q = (b[16 + 32 * h + 16 * u + l] >> (2 * s)) & 3;
                    out[l] = og_sub(og_mul(dl, (float)q), ml);
                }
            }
}

/* q3_K (110 bytes): 32 bytes hmask, 64 bytes low 2-bit codes, 12 bytes of
   sixteen 6-bit scales, d. Scale k (biased by 32): its low 4 bits are
   the low (k < 8) or high (k >= 8) nibble of byte k % 8; its top 2 bits
   are bits 2 * (k / 4) and + 1 of byte 8 + k % 4. Element 128h + 32s +
   16u + l: code bits 2s, 2s+1 of qs byte 32h + 16u + l, minus 4 unless
   bit 4h + s of hmask byte 16u + l is set; scale 8h + 2s + u. */
static void og_q3_K(const uint8_t *b, float *y)
{
    const uint8_t *hm = b, *qs = b + 32, *sb = b + 96;
    const float d = og_f16(og_u16(b + 108));
    int scale[16], k, h, s, u, l;
    for (k = 0; k < 16; ++k) {
        const int low = k < 8 ? sb[k % 8] & 15 : sb[k % 8] >> 4;
        const int top = (sb[8 + k % 4] >> (2 * (k / 4))) & 3;
        scale[k] = (low | top << 4) - 32;
    }
    for (h = 0; h < 2; ++h)
        for (s = 0; s < 4; ++s)
            for (u = 0; u < 2; ++u) {
                const float dl = og_mul(d, (float)scale[8 * h + 2 * s + u]);
                float *out = y + 128 * h + 32 * s + 16 * u;
                for (l = 0; l < 16; ++l) {
                    const int lo = (qs[32 * h + 16 * u + l] >> (2 * s)) & 3;
                    const int q = lo - ((hm[16 * u + l] >> (4 * h + s)) & 1 ? 0 : 4);
                    out[l] = og_mul(dl, (float)q);
                }
            }
}

/* the 6-bit scale and min number j (0..7) of q4_K/q5_K's 12 bytes */
static void og_k4_scale_min(const uint8_t *q, int j, int *sc, int *mn)
{
    if (j < 4) {
        *sc = q[j] & 63;
        *mn = q[j + 4] & 63;
    } else {
        *sc = (q[j + 4] & 15) | (q[j - 4] >> 6) << 4;
        *mn = (q[j + 4] >> 4) | (q[j] >> 6) << 4;
    }
}

/* q4_K (144 bytes): d, dmin, 12 scale bytes, 128 bytes of nibbles. Chunk
   c of 64 elements: elements 64c + l are the low nibbles of bytes 32c + l,
   64c + 32 + l the high ones, scales 2c and 2c + 1.
   fl(fl(d * sc) * q) - fl(dmin * mn) */
static void og_q4_K(const uint8_t *b, float *y)
{
    const float d = og_f16(og_u16(b)), dmin = og_f16(og_u16(b + 2));
    const uint8_t *q = b + 16;
    int c, half, l;
    for (c = 0; c < 4; ++c)
        for (half = 0; half < 2; ++half) {
            int sc, mn;
            float dl, ml;
            og_k4_scale_min(b + 4, 2 * c + half, &sc, &mn);
            dl = og_mul(d, (float)sc);
            ml = og_mul(dmin, (float)mn);
            for (l = 0; l < 32; ++l) {
                const int v = (q[32 * c + l] >> (4 * half)) & 15;
                y[64 * c + 32 * half + l] = og_sub(og_mul(dl, (float)v), ml);
            }
        }
}

/* q5_K (176 bytes): d, dmin, 12 scale bytes, 32 bytes qh, 128 bytes of
   nibbles as q4_K; element 64c + 32 half + l adds 16 when bit 2c + half
   of qh byte l is set */
static void og_q5_K(const uint8_t *b, float *y)
{
    const float d = og_f16(og_u16(b)), dmin = og_f16(og_u16(b + 2));
    const uint8_t *qh = b + 16, *q = b + 48;
    int c, half, l;
    for (c = 0; c < 4; ++c)
        for (half = 0; half < 2; ++half) {
            int sc, mn;
            float dl, ml;
            og_k4_scale_min(b + 4, 2 * c + half, &sc, &mn);
            dl = og_mul(d, (float)sc);
            ml = og_mul(dmin, (float)mn);
            for (l = 0; l < 32; ++l) {
                const int v = ((q[32 * c + l] >> (4 * half)) & 15) + ((qh[l] >> (2 * c + half)) & 1 ? 16 : 0);
                y[64 * c + 32 * half + l] = og_sub(og_mul(dl, (float)v), ml);
            }
        }
}

/* q6_K (210 bytes): 128 bytes ql, 64 bytes qh, 16 signed scales, d.
   Half h, quarter r (0..3), l < 32: element 128h + 32r + l is a nibble
   of ql and 2 bits of qh byte 32h + l on top:
     r 0: low nibble of ql[64h + l],      qh bits 0-1
     r 1: low nibble of ql[64h + 32 + l], qh bits 2-3
     r 2: high nibble of ql[64h + l],     qh bits 4-5
     r 3: high nibble of ql[64h + 32 + l], qh bits 6-7
   minus 32; scale 8h + 2r + l / 16. fl(fl(d * sc) * q). */
static void og_q6_K(const uint8_t *b, float *y)
{
    const uint8_t *ql = b, *qh = b + 128, *sc = b + 192;
    const float d = og_f16(og_u16(b + 208));
    int h, r, l;
    for (h = 0; h < 2; ++h)
        for (r = 0; r < 4; ++r)
            for (l = 0; l < 32; ++l) {
                const int nib = (ql[64 * h + 32 * (r & 1) + l] >> (4 * (r >> 1))) & 15;
                const int q = (nib | ((qh[32 * h + l] >> (2 * r)) & 3) << 4) - 32;
                const float ds = og_mul(d, (float)(int8_t)sc[8 * h + 2 * r + l / 16]);
                y[128 * h + 32 * r + l] = og_mul(ds, (float)q);
            }
}

/* q8_K (292 bytes): an f32 d, 256 signed bytes, 16 int16 sums (unread) */
static void og_q8_K(const uint8_t *b, float *y)
{
    const float d = og_bits(og_u32(b));
    int j;
    for (j = 0; j < 256; ++j) y[j] = og_mul(d, (float)(int8_t)b[4 + j]);
}

/* iq4_nl: d, then nibbles as q4_0, looked up in the table */
static void og_iq4_nl(const uint8_t *b, float *y)
{
    const float d = og_f16(og_u16(b));
    int j;
    for (j = 0; j < 16; ++j) {
        y[j] = og_mul(d, (float)og_iq4nl_values[b[2 + j] & 15]);
        y[j + 16] = og_mul(d, (float)og_iq4nl_values[b[2 + j] >> 4]);
    }
}

/* iq4_xs (136 bytes): d, a 16-bit word of high scale bits (2 per
   sub-block), 4 bytes of low scale nibbles, 128 bytes of nibbles; sub-block
   k of 32 has scale (low nibble k % 2 of byte k / 2 | bits 2k, 2k+1 of the
   word << 4) - 32, and its 16 bytes laid out as iq4_nl's */
static void og_iq4_xs(const uint8_t *b, float *y)
{
    const float d = og_f16(og_u16(b));
    const uint32_t sh = og_u16(b + 2);
    int k, j;
    for (k = 0; k < 8; ++k) {
        const int ls = (int)(((b[4 + k / 2] >> (4 * (k % 2))) & 15) | ((sh >> (2 * k)) & 3u) << 4);
        const float dl = og_mul(d, (float)(ls - 32));
        const uint8_t *q = b + 8 + 16 * k;
        for (j = 0; j < 16; ++j) {
            y[32 * k + j] = og_mul(dl, (float)og_iq4nl_values[q[j] & 15]);
            y[32 * k + j + 16] = og_mul(dl, (float)og_iq4nl_values[q[j] >> 4]);
        }
    }
}

/* mxfp4 (17 bytes): e8m0 byte, nibbles as q4_0; doubled e2m1 times half
   the scale */
static void og_mxfp4(const uint8_t *b, float *y)
{
    const float d = og_e8m0_half(b[0]);
    int j;
    for (j = 0; j < 16; ++j) {
        y[j] = og_mul((float)og_e2m1x2_values[b[1 + j] & 15], d);
        y[j + 16] = og_mul((float)og_e2m1x2_values[b[1 + j] >> 4], d);
    }
}

/* nvfp4 (36 bytes, 64 elements): 4 UE4M3 bytes, one per 16 elements, then
   32 bytes; sub-block s's 8 bytes hold its element j low and j + 8 high */
static void og_nvfp4(const uint8_t *b, float *y)
{
    int s, j;
    for (s = 0; s < 4; ++s) {
        const float d = og_ue4m3_half(b[s]);
        const uint8_t *q = b + 4 + 8 * s;
        for (j = 0; j < 8; ++j) {
            y[16 * s + j] = og_mul((float)og_e2m1x2_values[q[j] & 15], d);
            y[16 * s + j + 8] = og_mul((float)og_e2m1x2_values[q[j] >> 4], d);
        }
    }
}

/* nblocks blocks of type t into nblocks * og_block_elems(t) floats */
OG_UNUSED static void og_decode(int t, const uint8_t *blocks, size_t nblocks, float *out)
{
    static void (*const fn[OG_NTYPES])(const uint8_t *, float *) = {
        og_q4_0, og_q4_1, og_q5_0, og_q5_1, og_q8_0, og_q2_K, og_q3_K, og_q4_K,
        og_q5_K, og_q6_K, og_q8_K, og_iq4_nl, og_iq4_xs, og_mxfp4, og_nvfp4
    };
    const size_t be = (size_t)og_block_elems(t), bb = (size_t)og_block_bytes(t);
    size_t i;
    if (be == 0) return;
    for (i = 0; i < nblocks; ++i) fn[t](blocks + i * bb, out + i * be);
}

#endif
