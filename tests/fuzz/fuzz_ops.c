/* libFuzzer target over the six operations, differential against code
   that shares nothing with quant.h:

   - every success is compared, element by element and bit for bit, with
     the independent oracle (tests/oracle.h: double arithmetic, a code-table
     search for f8, oneDNN's f8 route transcribed in tests/onednn_f8.h);
   - every status is compared with a status model written in this file from
     the README's "Bad input" table and SPEC section 4 (not from quant.h's
     validation): a call that must fail has to return one of the statuses of
     the rows that apply, a call that must succeed has to return QUANT_OK;
   - a failure must leave every byte (dst, src, scales, zero points, the
     tensor and attribute structs) as it was, a success every byte but dst's.

   The input bytes choose the op, rank (-1..13), dims (0, negative, 2^32,
   2^32 + 3, INT64_MAX, ...), dtypes (invalid ones too), qtype, axis,
   rounding and f8 mode (invalid values too), scales (0, NaN, +-Inf,
   subnormal, 2^-128 and its neighbour, raw bits), zero points (the int32
   ends, beyond them, raw), the data, NULL tensors, attributes and data
   pointers, misaligned pointers, and dst overlapping (or touching) src,
   scales or zero points, half the time by exactly one byte at either end.
   The byte after the data, the last one read, chooses attrs' on_error:
   untouched (also when the input is used up, so the corpus from before
   on_error kept its meaning), partial, or now and then a value out of
   range (2, -1, ...: QUANT_ERR_ATTR for every op). The ops other than the
   choose pair only validate it: partial must change nothing.

   SPEC section 7.1's f4_e2m1 is a quantize dst and dequantize src, packed
   as s4, zero points as f8; scales tensors may be e8m0 (0xFF is NaN) or
   f8_e4m3 (a negative one is bad too). s2/u2 (four per byte, element 4k+j
   in bits 2j, 2j+1 of byte k, ceil(n / 4) bytes, the bits past the last
   element written 0 and ignored when read; [-2, 1] and [0, 3]) and s16
   (2-byte aligned, [-32768, 32767]) are quantize dsts, dequantize srcs and
   zero-point tensors. attrs.tensor_scale, drawn after on_error (an input
   used up: none), is 0 or -0 (none), a good value or a bad one (NaN, +-Inf,
   negative, subnormal: QUANT_ERR_SCALE_VALUE); every scale s of the four
   ops becomes fl(s * tensor_scale) before it is checked and used (a scale
   bad only before the fold is arguable: either answer passes).

   SPEC section 6 is part of the model: the dtypes s4/u4 (two per byte,
   element 2k in the low nibble of byte k, ceil(n / 2) bytes, an odd count's
   last high nibble written 0) and f16/bf16 (2-byte aligned) as src, dst,
   scales and zero points; per_group with a random group_shape (ragged last
   groups, groups larger than the dim, huge ones, entries < 1 below the
   rank and set past it); the scales and zero points as the grid's list
   (static), as a tensor of the grid's dims or 1-D (dynamic), or shaped
   wrongly; one zero point for the whole tensor. Every buffer is its packed
   size. An f16/bf16 value is widened exactly (a NaN keeps its payload) and
   a dequantized f32 narrowed once more with the oracle's o_f16_code /
   o_bf16_code. Where SPEC's wording leaves a per-group shape open (a 1-D
   or rank-0 tensor for an empty grid), either answer passes.

   A first byte of 245 to 251 calls quant_choose_qparams (even) or
   quant_choose_and_quantize (odd) instead: see "choosing scales" below
   (s2/u2 qdts, and the block-scale schemes MX, MX_RCEIL and NVFP4 there);
   each such case runs with both untouched and partial (the drawn on_error
   first), through the library and the scalar copy.

   A first byte of 244 runs a case of SPEC section 7.2, ggml's block
   formats (q4_0 ... nvfp4), with an exact status model of its own, the
   decoder of tests/oracle_ggml.h, and the plans: see "ggml's block
   formats" below.

   A first byte of 252 or more runs a row kernel instead (n = 0 with NULL
   pointers included), against the oracle where its scale is valid: the
   f32, f8, 16-bit float and packed 4-bit rows.

   Every buffer the library may read or write is its own malloc of exactly
   its size (a zero-size one is NULL or a malloc(0) pointer), so that
   AddressSanitizer reports a one-element over-read; two buffers that
   overlap share one allocation sized to their union. Tensors whose memory
   the harness cannot hold (2^32 elements, say) stand in as 8-byte
   placeholders, and are only passed where the call must fail for a reason
   that does not depend on their addresses.

   The same case also runs through a forced-scalar copy of quant.h in the
   same binary (tests/ref_scalar.c, FUZZ_SCALAR_COPY), which must agree
   byte for byte. tests/fuzz/replay.c runs the corpus without libFuzzer (on
   every build, 32-bit armhf under qemu included). Built with -DFUZZ_STATS
   it prints at exit how the calls ended, and with FUZZ_VERBOSE set in the
   environment each case and its status. */
#include "../../quant.h" /* the implementation: tests/impl.c, linked in */
#include "../oracle.h"
#include "../oracle_ggml.h"
#include "../qrange.h"

#ifndef FUZZ_SCALAR_COPY
#define FUZZ_SCALAR_COPY 1
#endif
#if FUZZ_SCALAR_COPY
#include "../ref_scalar.h"
#endif

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CAP 1024       /* elements of the largest src/dst the harness allocates */
#define LIST_CAP 1100  /* entries of the longest scales or zero-point list or tensor */
#define N(a) (sizeof(a) / sizeof *(a))

/* ------------------------------------------------------------------ input */

typedef struct reader { const uint8_t *p; size_t n; } reader;

static unsigned rd8(reader *r)
{
    unsigned v = 0;
    if (r->n) { v = *r->p++; --r->n; }
    return v;
}
/* (two reads in one expression would be unsequenced: each its own statement) */
static unsigned rd16(reader *r)
{
    const unsigned lo = rd8(r);
    return lo | rd8(r) << 8;
}
static uint32_t rd32(reader *r)
{
    uint32_t v = 0;
    unsigned k;
    for (k = 0; k < 4; ++k) v |= (uint32_t)rd8(r) << (8 * k);
    return v;
}
static uint64_t rd64(reader *r)
{
    const uint64_t lo = rd32(r);
    return lo | (uint64_t)rd32(r) << 32;
}

static const int64_t wild_dims[15] = {
    -1, -2, INT64_MIN, INT64_MAX, (int64_t)1 << 32, ((int64_t)1 << 32) + 3, ((int64_t)1 << 32) + 1,
    ((int64_t)1 << 32) - 1, (int64_t)1 << 31, ((int64_t)1 << 31) - 1, (int64_t)1 << 30, ((int64_t)1 << 30) + 1,
    (int64_t)1 << 62, INT64_MAX / 4 + 1 /* four bytes each: past INT64_MAX */, (int64_t)1 << 40
};

static int64_t pick_dim(reader *r)
{
    static const int64_t small[12] = { 2, 3, 1, 4, 5, 0, 1, 2, 3, 6, 7, 8 };
    static const int64_t mid[] = { 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 255, 256, 257, 1000, 1024 };
    const unsigned b = rd8(r);
    if (b < 216) return small[b % 12];
    if (b < 240) return mid[(b - 216) % N(mid)];
    return b == 255 ? (int64_t)rd64(r) : wild_dims[b - 240];
}

static const quant_dtype wild_dtypes[] = {
    QUANT_UNDEF, QUANT_F32, QUANT_S8, QUANT_U8, QUANT_S32, QUANT_F8_E4M3, QUANT_F8_E5M2,
    QUANT_S4, QUANT_U4, QUANT_F16, QUANT_BF16, QUANT_F4_E2M1, QUANT_E8M0,
    (quant_dtype)(QUANT_NVFP4_BLOCK + 1) /* past the last dtype (the block types have a case of their own) */,
    (quant_dtype)-1, (quant_dtype)1000
};

static float bits_f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* A 16-bit float widened to f32 exactly (SPEC section 6): the oracle's value
   of the code; a NaN keeps its sign and payload bits (f16 mantissa bit k is
   f32 bit k + 13, bf16 the top half), which rounding onednn's e5m2 NaN code
   reads (bit 21). */
static float widen16(uint16_t h, int bf)
{
    if (bf) return (h & 0x7F80u) == 0x7F80u && (h & 0x7Fu) ? bits_f((uint32_t)h << 16) : o_bf16_value(h);
    if ((h & 0x7C00u) == 0x7C00u && (h & 0x3FFu))
        return bits_f((uint32_t)(h & 0x8000u) << 16 | 0x7F800000u | (uint32_t)(h & 0x3FFu) << 13);
    return o_f16_value(h);
}

static uint32_t pick_scale_bits(reader *r)
{
    static const uint32_t good[] = {
        0x3F800000u /* 1 */, 0x3F000000u /* 0.5 */, 0x40000000u, 0x3DCCCCCDu /* 0.1 */, 0xBE800000u /* -0.25 */,
        0x40400000u /* 3 */, 0x3EAAAAABu /* 1/3 */, 0x3A83126Fu /* 0.001 */, 0x4B800000u /* 2^24 */,
        0x3C23D70Au /* 0.01 */, 0xC0A00000u /* -5 */, 0x00800000u /* 2^-126 */, 0x7F7FFFFFu /* max */,
        0x00200001u /* just above 2^-128: fl(1/s) finite */, 0x3F8CCCCDu /* 1.1 */, 0x42FE0000u /* 127 */,
        /* where a dequantized value narrows at an f16 or bf16 edge (q - z = +-1): */
        0x477FF000u /* 65520: f16 Inf */, 0x477FE000u /* 65504: f16 max */, 0x7F7F8000u /* bf16: ties up to Inf */,
        0x33000000u /* 2^-25: f16 ties to 0 */, 0x33C00000u /* 1.5 * 2^-24: ties to 2^-23 */,
        0x387FE000u /* ties from the top f16 subnormal to 2^-14 */
    };
    static const uint32_t special[] = {
        0x00000000u, 0x80000000u, 0x7FC00000u, 0xFFC00000u, 0x7F800001u /* signalling */, 0x7F800000u,
        0xFF800000u, 0x00200000u /* 2^-128: fl(1/s) infinite */, 0x80200000u, 0x00200001u, 0x80200001u,
        0x00000001u, 0x007FFFFFu, 0x001FFFFFu, 0x80000001u, 0x00400000u
    };
    const unsigned b = rd8(r);
    if (b < 144) return good[b % N(good)];
    if (b < 224) return special[b % N(special)];
    return rd32(r);
}

/* a 16-bit scale: good ones, the bad ones of SPEC section 4 as they widen
   (0, NaN, Inf; bf16 down to 2^-128 and its neighbour, f16 subnormals), raw */
static uint16_t pick_scale16(reader *r, int bf)
{
    static const uint16_t good[2][14] = {
        { 0x3C00, 0x3800, 0x4000, 0x2E66, 0xB400, 0x4200, 0x3555, 0x1419, 0x2147, 0xC500, 0x7BFF, 0x0001 /* 2^-24 */,
          0x0400, 0x57F0 },
        { 0x3F80, 0x3F00, 0x4000, 0x3DCD, 0xBE80, 0x4040, 0x3EAB, 0x3A83, 0x4B80, 0xC0A0, 0x0080 /* 2^-126 */, 0x7F7F,
          0x0021 /* just above 2^-128 */, 0x42FE }
    };
    static const uint16_t special[2][12] = {
        { 0x0000, 0x8000, 0x7E00, 0xFE00, 0x7C01, 0x7C00, 0xFC00, 0x0001, 0x8001, 0x03FF, 0x7D00, 0xFFFF },
        { 0x0000, 0x8000, 0x7FC0, 0xFFC0, 0x7F81, 0x7F80, 0xFF80, 0x0020 /* 2^-128 */, 0x8020, 0x0001, 0x001F, 0x0010 }
    };
    const unsigned b = rd8(r);
    if (b < 144) return good[bf][b % 14];
    if (b < 224) return special[bf][b % 12];
    return (uint16_t)rd16(r);
}

/* a 16-bit source element: halves (ties at scale 1), the section 3 edges
   as 16-bit codes, NaNs with and without bit 21 once widened, raw */
static uint16_t pick_h16(reader *r, size_t i, int bf)
{
    static const uint16_t special[2][30] = {
        { 0x0000, 0x8000, 0x3800, 0x3E00, 0x4100, 0xC100, 0x7E00, 0xFE00, 0x7D01, 0x7F00, 0x7C00, 0xFC00, 0x57F8 /* 127.5 */,
          0x5800, 0xD804 /* -128.5 */, 0x5BFC /* 255.5 */, 0x5F00 /* 448 */, 0x5F40 /* 464 */, 0x5F80, 0x7B00 /* 57344 */,
          0x7B80 /* 61440 */, 0x7BFF, 0x0001, 0x03FF, 0x0400, 0x3C40 /* 1.0625 */, 0x3C41, 0x2000, 0x1C00, 0xFD55 },
        { 0x0000, 0x8000, 0x3F00, 0x3FC0, 0x4020, 0xC020, 0x7FC0, 0xFFC0, 0x7F81, 0x7FA0, 0x7F80, 0xFF80, 0x42FF /* 127.5 */,
          0x4300, 0xC301, 0x437F, 0x43E0 /* 448 */, 0x43E8 /* 464 */, 0x43F0, 0x4760 /* 57344 */, 0x4770 /* 61440 */,
          0x7F7F, 0x0001, 0x007F, 0x0080, 0x3F88 /* 1.0625 */, 0x3F89, 0x3B00, 0x4F00, 0xFFA5 }
    };
    const unsigned b = rd8(r);
    if (!r->n && !b) {                                               /* input used up */
        const float x = (float)((int)(i * 37 % 511) - 255) * 0.37f;
        return bf ? o_bf16_code(x) : o_f16_code(x);
    }
    if (b < 96) {
        const float x = (float)(int8_t)rd8(r) * 0.5f;                 /* exact in both */
        return bf ? o_bf16_code(x) : o_f16_code(x);
    }
    if (b < 192) return special[bf][b % 30];
    return (uint16_t)rd16(r);
}

static int64_t pick_zp(reader *r)
{
    static const int64_t special[] = {
        1, -1, 3, 127, -128, 255, 128, -129, 256, INT32_MAX, INT32_MIN, (int64_t)INT32_MAX + 1,
        (int64_t)INT32_MIN - 1, INT64_MIN, INT64_MAX, 1 << 24, (1 << 24) + 1, 5, -7, 100
    };
    const unsigned b = rd8(r);
    if (b < 128) return 0;
    if (b < 232) return special[b % N(special)];
    if (b < 248) return (int64_t)(int32_t)rd32(r);
    return (int64_t)rd64(r);
}

static float pick_f32(reader *r, size_t i)
{
    static const uint32_t special[] = {
        0x00000000u, 0x80000000u, 0x3F000000u, 0x3FC00000u, 0x40200000u, 0xC0200000u, 0x7FC00000u, 0xFFC00000u,
        0x7FA00001u, 0x7F800000u, 0xFF800000u, 0x42FF0000u /* 127.5 */, 0x43000000u, 0xC3008000u /* -128.5 */,
        0x437F8000u /* 255.5 */, 0x43E00000u /* 448 */, 0x43E80000u /* 464 */, 0x43E80001u, 0x43F00000u /* 480 */,
        0x47600000u /* 57344 */, 0x47700000u /* 61440 */, 0x477FF000u /* 65520 */, 0x501502F9u /* 1e10 */,
        0x7F7FFFFFu, 0x00000001u, 0x3F880000u /* 1.0625 */, 0x3F880100u, 0x3B000000u, 0x3A800000u, 0x4F000000u
    };
    const unsigned b = rd8(r);
    if (!r->n && !b) return (float)((int)(i * 37 % 511) - 255) * 0.37f;  /* input used up */
    if (b < 96) return (float)(int8_t)rd8(r) * 0.5f;                       /* ties at scale 1 */
    if (b < 192) return bits_f(special[b % N(special)]);
    return bits_f(rd32(r));
}

static int32_t pick_s32(reader *r)
{
    static const int32_t special[] = {
        0, 1, -1, INT32_MAX, INT32_MIN, (1 << 24) + 1, (1 << 24) + 3, -(1 << 24) - 1, (1 << 30) + 1, 127, -128, 255
    };
    const unsigned b = rd8(r);
    if (b < 128) return (int32_t)(int8_t)rd8(r);
    if (b < 224) return special[b % N(special)];
    return (int32_t)rd32(r);
}

/* attrs' on_error, the last byte an op reads (after the data), so that an
   input used up, and every input written before on_error existed, keeps
   the default untouched: untouched or partial, now and then a value out of
   range (QUANT_ERR_ATTR for every op, nothing written) */
static quant_on_error pick_on_error(reader *r)
{
    static const int wild[] = { 2, -1, 3, 0x7FFFFFFF };
    const unsigned b = rd8(r);
    return (quant_on_error)(b < 112 ? 0 : b < 244 ? 1 : wild[b % N(wild)]);
}
static int on_error_ok(long long oe) { return oe == QUANT_ON_ERROR_UNTOUCHED || oe == QUANT_ON_ERROR_PARTIAL; }

/* attrs.tensor_scale (SPEC section 7.1), after on_error: none (an input
   used up too), -0 (none), good ones (powers of two, the folds that
   overflow or underflow a scale, the least normal, the largest float),
   bad ones (NaN, +-Inf, negative, subnormal), raw bits */
static float pick_tensor_scale(reader *r)
{
    static const uint32_t good[] = {
        0x40000000u /* 2 */, 0x3F000000u /* 0.5 */, 0x3F800000u, 0x40400000u /* 3 */, 0x3EAAAAABu /* 1/3 */,
        0x3DCCCCCDu /* 0.1 */, 0x00800000u /* 2^-126 */, 0x7F7FFFFFu, 0x71800000u /* 2^100 */, 0x0D800000u /* 2^-100 */,
        0x43E00000u /* 448 */, 0x3B124925u /* 1/448 */, 0x40C00000u /* 6 */, 0x4B800000u /* 2^24 */, 0x01000000u /* 2^-125 */,
        0x3F8CCCCDu /* 1.1 */
    };
    static const uint32_t bad[] = {
        0x7FC00000u, 0xFFC00000u, 0x7F800000u, 0xFF800000u, 0xBF800000u /* -1 */, 0x80800000u, 0x00400000u,
        0x00000001u, 0x007FFFFFu, 0x7F800001u
    };
    const unsigned b = rd8(r);
    if (b < 128) return 0.0f;
    if (b < 136) return bits_f(0x80000000u);
    if (b < 216) return bits_f(good[b % N(good)]);
    if (b < 240) return bits_f(bad[b % N(bad)]);
    return bits_f(rd32(r));
}

/* ------------------------------------------------------------------ the case */

enum { B_SRC, B_DST, B_SC, B_ZP, B_XS, B_XZ, NBUF };   /* XS, XZ: a dynamic op's ignored attrs lists */
static const char *const buf_name[NBUF] = { "src", "dst", "scales", "zps", "attrs.scales (ignored)", "attrs.zps (ignored)" };
enum { K_OWN, K_NULL, K_MIS };
enum { OV_NONE, OV_SRC, OV_SC, OV_ZP, OV_XS, OV_SAME, OV_SRC_SC, OV_ZP_SRC, OV_ZP_SC };

typedef struct fcase {
    int op;                                   /* quantize, dequantize, dynamic_quantize, dynamic_dequantize,
                                                 choose_qparams, choose_and_quantize */
    long long scheme;                         /* the choose ops' scheme (invalid values too) */
    quant_dtype qdt;                          /* quant_choose_qparams' qdt */
    int src_tnull, dst_tnull, sc_tnull, zp_tnull, attrs_null;
    quant_tensor src, dst, sc, zp;            /* sc, zp: the dynamic ops' tensors */
    quant_attrs a;
    size_t bytes[NBUF];                       /* what the harness allocates for each buffer */
    int unheld[NBUF];                         /* its declared size is more than that */
    void *ptr[NBUF];
    int ov;
} fcase;

static const char *const op_name[6] = { "quantize", "dequantize", "dynamic_quantize", "dynamic_dequantize",
                                         "choose_qparams", "choose_and_quantize" };

static int is_f8(quant_dtype t) { return t == QUANT_F8_E4M3 || t == QUANT_F8_E5M2; }
static int is_4bit(quant_dtype t) { return t == QUANT_S4 || t == QUANT_U4; }
static int is_f4(quant_dtype t) { return t == QUANT_F4_E2M1; }
static int is_2bit(quant_dtype t) { return t == QUANT_S2 || t == QUANT_U2; }
static int is_packed(quant_dtype t) { return is_4bit(t) || is_f4(t) || is_2bit(t); } /* two or four to a byte */
/* elements a byte holds: 4 for s2/u2, 2 for s4/u4/f4_e2m1, else 1 */
static unsigned per_byte(quant_dtype t) { return is_2bit(t) ? 4u : is_packed(t) ? 2u : 1u; }
static int is_h16(quant_dtype t) { return t == QUANT_F16 || t == QUANT_BF16; }
static int is_float_t(quant_dtype t) { return t == QUANT_F32 || is_h16(t); }    /* f32, f16, bf16 */
static int is_zp_t(quant_dtype t)
{
    return t == QUANT_S8 || t == QUANT_U8 || t == QUANT_S32 || t == QUANT_S16 || is_4bit(t) || is_2bit(t);
}
/* bytes per element (a packed type counts as one for the size checks: its
   n elements take ceil(n / 2) or ceil(n / 4) bytes, so n itself is the limit) */
static size_t esize(quant_dtype t)
{
    return t == QUANT_F32 || t == QUANT_S32 ? 4 : is_h16(t) || t == QUANT_S16 ? 2 : 1;
}
/* the bytes of n elements, packed for 4-bit and 2-bit; unknown dtypes as bytes */
static uint64_t nbytes(quant_dtype t, uint64_t n)
{
    const unsigned k = per_byte(t);
    return k > 1 ? n / k + (n % k != 0) : n * esize(t);
}
/* the alignment SPEC section 4 and 6 require of the data */
static unsigned align_of(quant_dtype t) { return (unsigned)esize(t); }
static int misaligned(const void *p, unsigned al) { return ((uintptr_t)p & (al - 1)) != 0; }

/* a 4-bit element k of packed memory: the low nibble of byte k / 2 for k even */
static unsigned nibble(const uint8_t *p, uint64_t k) { return (p[k / 2] >> (4 * (unsigned)(k & 1))) & 15u; }
/* a 2-bit element k: bits 2j, 2j+1 of byte k / 4, j = k % 4 */
static unsigned crumb(const uint8_t *p, uint64_t k) { return (p[k / 4] >> (2 * (unsigned)(k & 3))) & 3u; }
/* the code of element k of a packed type (2 or 4 bits), and its store into
   memory whose bits there are 0 */
static unsigned packed_get(quant_dtype t, const uint8_t *p, uint64_t k) { return is_2bit(t) ? crumb(p, k) : nibble(p, k); }
static void packed_or(quant_dtype t, uint8_t *p, uint64_t k, unsigned q)
{
    const unsigned per = per_byte(t), bits = 8 / per;
    p[k / per] |= (uint8_t)((q & ((1u << bits) - 1u)) << (bits * (unsigned)(k % per)));
}

/* element i of an integer tensor of type t (s8, u8, s32, s16, s4, u4, s2, u2) */
static int64_t load_int(quant_dtype t, const uint8_t *p, uint64_t i)
{
    int32_t w;
    int16_t h;
    switch (t) {
    case QUANT_S32: memcpy(&w, p + 4 * i, 4); return w;
    case QUANT_S16: memcpy(&h, p + 2 * i, 2); return h;
    case QUANT_S8: return (int8_t)p[i];
    case QUANT_S4: return (int64_t)((nibble(p, i) ^ 8u)) - 8;
    case QUANT_U4: return nibble(p, i);
    case QUANT_S2: return (int64_t)((crumb(p, i) ^ 2u)) - 2;
    case QUANT_U2: return crumb(p, i);
    default: return p[i];
    }
}

/* element i of an f32, f16 or bf16 tensor, widened exactly */
static float load_float(quant_dtype t, const uint8_t *p, uint64_t i)
{
    float f;
    uint16_t h;
    if (t == QUANT_F32) { memcpy(&f, p + 4 * i, 4); return f; }
    if (t == QUANT_E8M0) return o_e8m0_value(p[i]);     /* scales only */
    if (t == QUANT_F8_E4M3) return o_f8_decode(p[i], 0); /* scales only */
    memcpy(&h, p + 2 * i, 2);
    return widen16(h, t == QUANT_BF16);
}

typedef struct shape_info {
    int rank_ok, neg, zero, over, known;      /* known: a valid shape, count meaningful */
    uint64_t count;
} shape_info;

/* SPEC section 4: a negative dim, or an element or byte count past SIZE_MAX
   or INT64_MAX, is an invalid shape; a zero dim makes a valid empty one. */
static shape_info shape_of(const quant_tensor *t, size_t es)
{
    const uint64_t limit = (uint64_t)SIZE_MAX < (uint64_t)INT64_MAX ? (uint64_t)SIZE_MAX : (uint64_t)INT64_MAX;
    shape_info s;
    int i, n;
    memset(&s, 0, sizeof s);
    s.rank_ok = t->rank >= 0 && t->rank <= QUANT_MAX_RANK;
    n = t->rank < 0 ? 0 : t->rank > QUANT_MAX_RANK ? QUANT_MAX_RANK : t->rank;
    for (i = 0; i < n; ++i) {
        s.neg |= t->dims[i] < 0;
        s.zero |= t->dims[i] == 0;
    }
    s.count = s.zero ? 0 : 1;
    for (i = 0; i < n && !s.zero && !s.neg; ++i) {
        const uint64_t d = (uint64_t)t->dims[i];
        if (s.count > limit / d) { s.over = 1; break; }
        s.count *= d;
    }
    if (!s.neg && !s.over && s.count > limit / es) s.over = 1;
    s.known = s.rank_ok && !s.neg && !s.over;
    return s;
}

/* SPEC section 6: the scale grid of src's shape and a group_shape, with
   ceil(dims[d] / g[d]) entries along dim d. Known when src's shape is valid
   and every entry is >= 1 below the rank and 0 at or past it. big: grid
   dims above 1; non1: grid dims other than 1 (the two readings of "a grid
   with one non-1 dim" differ only for an empty grid). */
typedef struct grid_info {
    int known, rank, big, non1;
    int64_t dims[QUANT_MAX_RANK];
    uint64_t count;
} grid_info;

static grid_info grid_of(const quant_tensor *src, const shape_info *ss, const int64_t *g)
{
    grid_info G;
    int d, empty = 0;
    memset(&G, 0, sizeof G);
    if (!ss->known) return G;
    for (d = 0; d < QUANT_MAX_RANK; ++d)
        if (d < src->rank ? g[d] < 1 : g[d] != 0) return G;
    G.known = 1;
    G.rank = src->rank;
    G.count = 1;
    for (d = 0; d < src->rank; ++d) {
        G.dims[d] = src->dims[d] == 0 ? 0 : (src->dims[d] - 1) / g[d] + 1;
        empty |= G.dims[d] == 0;
        G.big += G.dims[d] > 1;
        G.non1 += G.dims[d] != 1;
    }
    for (d = 0; d < src->rank && !empty; ++d) G.count *= (uint64_t)G.dims[d];   /* <= the element count */
    if (empty) G.count = 0;
    return G;
}

/* the grid entry of element i of a tensor of src's dims, with group sizes g
   (per tensor: g = dims; per channel: g[axis] = 1, the others dims) */
static uint64_t grid_index(const quant_tensor *src, const int64_t *g, uint64_t i)
{
    uint64_t gi = 0, gstride = 1;
    int d;
    for (d = src->rank - 1; d >= 0; --d) {
        const uint64_t n = (uint64_t)src->dims[d], gd = (uint64_t)g[d], cells = (n - 1) / gd + 1;
        gi += (i % n) / gd * gstride;
        gstride *= cells;
        i /= n;
    }
    return gi;
}

static void dump_tensor(const char *name, const quant_tensor *t, int tnull)
{
    int i;
    if (tnull) { fprintf(stderr, "  %s: NULL tensor\n", name); return; }
    fprintf(stderr, "  %s: dtype %d rank %d dims {", name, (int)t->dtype, t->rank);
    for (i = 0; i < QUANT_MAX_RANK; ++i) fprintf(stderr, "%s%lld", i ? "," : "", (long long)t->dims[i]);
    fprintf(stderr, "} data %p\n", t->data);
}

static void dump_case(const fcase *c)
{
    const int dyn = c->op >= 2;
    size_t i;
    fprintf(stderr, "fuzz_ops: %s, backend %s, %u-bit size_t\n", op_name[c->op], quant_backend(),
            (unsigned)(sizeof(size_t) * 8));
    if (c->op >= 4) fprintf(stderr, "  scheme %lld, qdt %d\n", c->scheme, (int)(c->op == 4 ? c->qdt : c->dst.dtype));
    dump_tensor("src", &c->src, c->src_tnull);
    if (c->op != 4) dump_tensor("dst", &c->dst, c->dst_tnull);
    if (dyn) {
        dump_tensor("scales", &c->sc, c->sc_tnull);
        dump_tensor("zps", &c->zp, c->zp_tnull);
    }
    if (c->attrs_null) fprintf(stderr, "  attrs: NULL\n");
    else {
        fprintf(stderr, "  attrs: qtype %d axis %lld rounding %d f8_overflow %d on_error %d scales %p n_scales %lu zps %p "
                "n_zps %lu\n", (int)c->a.qtype, (long long)c->a.axis, (int)c->a.rounding, (int)c->a.f8_overflow,
                (int)c->a.on_error,
                (const void *)c->a.scales, (unsigned long)c->a.n_scales, (const void *)c->a.zps,
                (unsigned long)c->a.n_zps);
        fprintf(stderr, "  group_shape {");
        for (i = 0; i < QUANT_MAX_RANK; ++i) fprintf(stderr, "%s%lld", i ? "," : "", (long long)c->a.group_shape[i]);
        fprintf(stderr, "}\n");
        if (!dyn && c->a.scales)
            for (i = 0; i < c->a.n_scales && i < 8; ++i)
                fprintf(stderr, "    scales[%lu] = %a (0x%08lx)\n", (unsigned long)i, (double)c->a.scales[i],
                        (unsigned long)f_bits(c->a.scales[i]));
        if (!dyn && c->a.zps)
            for (i = 0; i < c->a.n_zps && i < 8; ++i)
                fprintf(stderr, "    zps[%lu] = %lld\n", (unsigned long)i, (long long)c->a.zps[i]);
    }
    for (i = 0; i < NBUF; ++i)
        if (c->ptr[i] || c->bytes[i])
            fprintf(stderr, "  buffer %s: %p, %lu bytes allocated%s\n", buf_name[i], c->ptr[i],
                    (unsigned long)c->bytes[i], c->unheld[i] ? " (placeholder)" : "");
    if (!c->attrs_null) fprintf(stderr, "  tensor_scale %a (0x%08lx)\n", (double)c->a.tensor_scale,
                                (unsigned long)f_bits(c->a.tensor_scale));
    fprintf(stderr, "  overlap mode %d\n", c->ov);
}

/* whether a call changed attrs it was given, field by field: the padding
   of a quant_attrs from quant_attrs_default() is not defined (its
   implementation has no memset to clear it), so memcmp could compare
   bytes no one wrote (valgrind says so) */
static int attrs_differ(const quant_attrs *x, const quant_attrs *y)
{
    int k;
    if (x->qtype != y->qtype || x->axis != y->axis || x->scales != y->scales || x->n_scales != y->n_scales ||
        x->zps != y->zps || x->n_zps != y->n_zps || x->rounding != y->rounding || x->f8_overflow != y->f8_overflow ||
        x->on_error != y->on_error || x->src_strides != y->src_strides || x->dst_strides != y->dst_strides ||
        memcmp(&x->tensor_scale, &y->tensor_scale, sizeof x->tensor_scale) != 0)
        return 1;
    for (k = 0; k < QUANT_MAX_RANK; ++k)
        if (x->group_shape[k] != y->group_shape[k]) return 1;
    return 0;
}

static void fail_case(const fcase *c, const char *what)
{
    fprintf(stderr, "fuzz_ops: FAILED: %s\n", what);
    dump_case(c);
    abort();
}

/* ------------------------------------------------------------------ status model
   From the README's "Bad input" table and SPEC section 4, row by row.
   `set` collects the statuses of every row that applies (when several
   apply, any of them is a right answer); `fail` says whether some row
   certainly applies, so that QUANT_OK would be wrong. A row whose
   application is arguable (an invalid shape makes a size unknowable) adds
   its status without setting `fail`. */

typedef struct verdict { unsigned set; int fail; } verdict;

static void row(verdict *v, quant_status s, int definite)
{
    v->set |= 1u << (unsigned)s;
    v->fail |= definite;
}

static int bad_scale(float s) { return isnan(s) || isinf(s) || s == 0.0f || isinf(o_recip(s)); }

static int srcset(int op, quant_dtype t)
{
    if (op % 2 == 0) return is_float_t(t);
    return t == QUANT_S8 || t == QUANT_U8 || t == QUANT_S32 || t == QUANT_S16 || is_packed(t) || is_f8(t);
}
static int dstset(int op, quant_dtype t)
{
    if (op % 2 == 0) return t == QUANT_S8 || t == QUANT_U8 || t == QUANT_S16 || is_packed(t) || is_f8(t);
    return is_float_t(t);
}

/* attrs.tensor_scale (SPEC section 7.1): set when not +-0, and then it must
   be a finite normal positive float */
static int ts_set(float ts) { return ts != 0.0f; }
static int ts_good(float ts) { return !ts_set(ts) || (ts >= 0x1p-126f && !isinf(ts)); }   /* NaN fails >= */
/* a scale as the op uses it: fl(s * tensor_scale) when one is set */
static float folded(float s, float ts) { return ts_set(ts) ? o_mul(s, ts) : s; }
/* the rows of one scale: bad after the fold, certainly wrong; bad only
   before it (a tiny scale a tensor_scale above 1 lifts), arguable */
static void scale_row(verdict *v, float s, float ts)
{
    if (!ts_good(ts)) { if (bad_scale(s)) row(v, QUANT_ERR_SCALE_VALUE, 1); return; }   /* already wrong */
    if (bad_scale(folded(s, ts))) row(v, QUANT_ERR_SCALE_VALUE, 1);
    else if (bad_scale(s)) row(v, QUANT_ERR_SCALE_VALUE, 0);
}

static int overlap(const void *a, uint64_t na, const void *b, uint64_t nb)
{
    const uint64_t pa = (uint64_t)(uintptr_t)a, pb = (uint64_t)(uintptr_t)b;
    if (!a || !b || !na || !nb) return 0;
    return pa < pb + nb && pb < pa + na;
}

/* a data pointer: NULL where elements exist; f32/s32 data on a 4-byte
   boundary, f16/bf16 on a 2-byte one (a dtype the op does not take may be
   checked either way) */
static void data_rows(verdict *v, const quant_tensor *t, const shape_info *s, int type_ok)
{
    if (!t->data) {
        if (s->known && s->count > 0) row(v, QUANT_ERR_NULL, 1);
        else if (!s->known) row(v, QUANT_ERR_NULL, 0);
    } else if (misaligned(t->data, align_of(t->dtype))) row(v, QUANT_ERR_ALIGN, s->known && s->count > 0);
    else if (!type_ok && misaligned(t->data, 4)) row(v, QUANT_ERR_ALIGN, 0);
}

/* per tensor: rank 0, or 1-D of 1; per channel: 1-D of C (scales), of 1 or C (zps) */
static void count_rows(verdict *v, const quant_tensor *t, const shape_info *s, quant_status st, int qt_ok,
                       int per_ch, int c_ok, int64_t C, int one_ok)
{
    int64_t n;
    if (!s->rank_ok) { row(v, st, 1); row(v, QUANT_ERR_RANK, 0); return; }
    if (t->rank > 1) { row(v, st, 1); if (s->neg || s->over) row(v, QUANT_ERR_SHAPE, 0); return; }
    if (s->neg) { row(v, st, 1); row(v, QUANT_ERR_SHAPE, 0); return; }
    if (s->over) { row(v, st, 1); row(v, QUANT_ERR_SHAPE, 1); return; }
    n = t->rank == 0 ? 1 : t->dims[0];
    if (!qt_ok) row(v, st, 0);
    else if (!per_ch) { if (n != 1) row(v, st, 1); }
    else if (t->rank == 0) row(v, st, 1);
    else if (!c_ok) row(v, st, 0);
    else if (n != C && !(one_ok && n == 1)) row(v, st, 1);
}

/* per group (SPEC section 6): a tensor of rank(src) with the grid's dims;
   1-D of the grid's count when the grid has at most one dim above 1; rank
   0 when it has none; zero points also one element of rank <= 1 or
   rank(src). An empty grid's 1-D or rank-0 tensor is arguable (SPEC's "one
   non-1 dim" and "at most one dim above 1" differ there). */
static void grid_rows(verdict *v, const quant_tensor *t, const shape_info *s, quant_status st, const grid_info *G,
                      int one_ok)
{
    int d, match = 0;
    if (!s->rank_ok) { row(v, st, 1); row(v, QUANT_ERR_RANK, 0); return; }
    if (s->neg) { row(v, st, 1); row(v, QUANT_ERR_SHAPE, 0); return; }
    if (s->over) { row(v, st, 1); row(v, QUANT_ERR_SHAPE, 1); return; }
    if (!G->known) { row(v, st, 0); return; }
    if (t->rank == G->rank) {
        match = 1;
        for (d = 0; d < t->rank; ++d) match &= t->dims[d] == G->dims[d];
    }
    if (t->rank == 1 && G->big <= 1 && G->non1 <= 1 && (uint64_t)t->dims[0] == G->count) match = 1;
    if (t->rank == 0 && G->big == 0 && G->count == 1) match = 1;
    if (one_ok && s->count == 1 && (t->rank <= 1 || t->rank == G->rank)) match = 1;
    if (!match) row(v, st, !(G->count == 0 && t->rank <= 1));
}

static verdict model(const fcase *c)
{
    verdict v = { 0, 0 };
    const int dyn = c->op >= 2, quantize = c->op % 2 == 0;
    const quant_attrs *A = c->attrs_null ? NULL : &c->a;
    const quant_tensor *src = c->src_tnull ? NULL : &c->src, *dst = c->dst_tnull ? NULL : &c->dst;
    const quant_tensor *sc = dyn && !c->sc_tnull ? &c->sc : NULL, *zp = dyn && !c->zp_tnull ? &c->zp : NULL;
    const quant_tensor *qside = quantize ? dst : src;
    shape_info ss, ds, scs, zs;
    grid_info G;
    long long qtype = A ? (long long)A->qtype : 0, rounding = A ? (long long)A->rounding : 0;
    long long f8o = A ? (long long)A->f8_overflow : 0, oe = A ? (long long)A->on_error : 0;
    const float ts = A ? A->tensor_scale : 0.0f;
    int64_t axis = A ? A->axis : 1, C = 0;
    int qt_ok, per_ch, pg, c_ok = 0, f8 = -1;   /* f8: 1 an f8 type, 0 an integer one, -1 unknown */
    size_t i;

    memset(&ss, 0, sizeof ss);
    ds = scs = zs = ss;
    memset(&G, 0, sizeof G);
    /* NULL structs */
    if (!src || !dst) row(&v, QUANT_ERR_NULL, 1);
    if (!dyn && !A) row(&v, QUANT_ERR_NULL, 1);
    if (dyn && !sc) row(&v, QUANT_ERR_NULL, 1);
    /* SPEC section 7.1: a tensor_scale set is a finite normal positive float */
    if (!ts_good(ts)) row(&v, QUANT_ERR_SCALE_VALUE, 1);
    /* attribute values, for every op */
    if (rounding < 0 || rounding > 3) row(&v, QUANT_ERR_ATTR, 1);
    if (f8o < 0 || f8o > 1) row(&v, QUANT_ERR_ATTR, 1);
    if (!on_error_ok(oe)) row(&v, QUANT_ERR_ATTR, 1);      /* validated by every op, used by none of these */
    qt_ok = qtype >= 0 && qtype <= 2;
    if (!qt_ok) row(&v, QUANT_ERR_QTYPE, 1);
    per_ch = qtype == 1;
    pg = qtype == 2;
    /* dtypes */
    if (src && !srcset(c->op, src->dtype)) row(&v, QUANT_ERR_DTYPE, 1);
    if (dst && !dstset(c->op, dst->dtype)) row(&v, QUANT_ERR_DTYPE, 1);
    /* f4_e2m1 takes zero points as f8 does (SPEC section 7.1) */
    if (qside && (quantize ? dstset(c->op, qside->dtype) : srcset(c->op, qside->dtype)))
        f8 = is_f8(qside->dtype) || is_f4(qside->dtype);
    /* ranks and shapes */
    if (src) {
        ss = shape_of(src, esize(src->dtype));
        if (!ss.rank_ok) row(&v, QUANT_ERR_RANK, 1);
        else if (ss.neg || ss.over) row(&v, QUANT_ERR_SHAPE, 1);
        else if (!srcset(c->op, src->dtype) && shape_of(src, 4).over) row(&v, QUANT_ERR_SHAPE, 0);
        data_rows(&v, src, &ss, srcset(c->op, src->dtype));
    }
    if (dst) {
        ds = shape_of(dst, esize(dst->dtype));
        if (!ds.rank_ok) row(&v, QUANT_ERR_RANK, 1);
        else if (ds.neg || ds.over) row(&v, QUANT_ERR_SHAPE, 1);
        else if (!dstset(c->op, dst->dtype) && shape_of(dst, 4).over) row(&v, QUANT_ERR_SHAPE, 0);
        data_rows(&v, dst, &ds, dstset(c->op, dst->dtype));
    }
    if (src && dst) {
        if (src->rank != dst->rank) row(&v, QUANT_ERR_SHAPE, 1);
        else
            for (i = 0; ss.rank_ok && i < (size_t)src->rank; ++i)
                if (src->dims[i] != dst->dims[i]) row(&v, QUANT_ERR_SHAPE, 1);
    }
    /* the channel axis */
    if (qt_ok && per_ch && src) {
        if (!ss.rank_ok) row(&v, QUANT_ERR_AXIS, 0);
        else if (src->rank == 0 || axis < -(int64_t)src->rank || axis >= (int64_t)src->rank)
            row(&v, QUANT_ERR_AXIS, 1);
        else {
            c_ok = 1;
            C = src->dims[axis < 0 ? axis + src->rank : axis];
        }
    }
    /* per group: the group shape against src's rank, then the grid (only
       per group: the other qtypes ignore group_shape) */
    if (pg) {
        if (!src || !ss.rank_ok) row(&v, QUANT_ERR_ATTR, 0);
        else {
            for (i = 0; i < QUANT_MAX_RANK; ++i)
                if ((int)i < src->rank ? A->group_shape[i] < 1 : A->group_shape[i] != 0) row(&v, QUANT_ERR_ATTR, 1);
            G = grid_of(src, &ss, A->group_shape);
        }
    }
    if (!dyn && A) {
        /* static lists: the grid's count per group */
        if (!A->scales) row(&v, QUANT_ERR_NULL, 1);
        if (!qt_ok || (per_ch && !c_ok) || (pg && !G.known)) row(&v, QUANT_ERR_SCALES, 0);
        else if (pg ? (uint64_t)A->n_scales != G.count
                    : !per_ch ? A->n_scales != 1 : (C < 0 || (uint64_t)A->n_scales != (uint64_t)C))
            row(&v, QUANT_ERR_SCALES, 1);
        for (i = 0; A->scales && i < A->n_scales; ++i) scale_row(&v, A->scales[i], ts);
        if (!A->zps) {
            if (A->n_zps > 0) { row(&v, QUANT_ERR_NULL, 1); row(&v, QUANT_ERR_ZPS, 0); }
        } else {
            const uint64_t n = A->n_zps;
            if (n == 0) row(&v, QUANT_ERR_ZPS, 1);
            if (!qt_ok || (per_ch && !c_ok) || (pg && !G.known)) row(&v, QUANT_ERR_ZPS, 0);
            else if (pg ? n != 1 && n != G.count
                        : !per_ch ? n != 1 : (n != 1 && (C < 0 || n != (uint64_t)C)))
                row(&v, QUANT_ERR_ZPS, 1);
            for (i = 0; i < A->n_zps; ++i) {
                const int64_t z = A->zps[i];
                if (z < INT32_MIN || z > INT32_MAX) row(&v, QUANT_ERR_ZP_VALUE, 1);
                if (z != 0 && f8 != 0) row(&v, QUANT_ERR_ZPS, f8 == 1);
            }
        }
    }
    if (sc) {
        /* SPEC section 7.1: e8m0 and f8_e4m3 scales too, an e4m3 one positive */
        const int st_ok = is_float_t(sc->dtype) || sc->dtype == QUANT_E8M0 || sc->dtype == QUANT_F8_E4M3;
        scs = shape_of(sc, esize(sc->dtype));
        if (!st_ok) row(&v, QUANT_ERR_SCALES, 1);
        if (pg) grid_rows(&v, sc, &scs, QUANT_ERR_SCALES, &G, 0);
        else count_rows(&v, sc, &scs, QUANT_ERR_SCALES, qt_ok, per_ch, c_ok, C, 0);
        data_rows(&v, sc, &scs, st_ok);
        if (sc->data && st_ok && scs.known && nbytes(sc->dtype, scs.count) <= c->bytes[B_SC])
            for (i = 0; i < scs.count; ++i) {
                const float sv = load_float(sc->dtype, (const uint8_t *)sc->data, i);
                scale_row(&v, sv, ts);
                if (sc->dtype == QUANT_F8_E4M3 && sv < 0.0f) row(&v, QUANT_ERR_SCALE_VALUE, 1);
            }
        if (!st_ok) row(&v, QUANT_ERR_SCALE_VALUE, 0);
    }
    if (zp) {
        const int zt_ok = is_zp_t(zp->dtype);
        zs = shape_of(zp, esize(zp->dtype));
        if (!zt_ok) row(&v, QUANT_ERR_ZPS, 1);
        if (pg) grid_rows(&v, zp, &zs, QUANT_ERR_ZPS, &G, 1);
        else count_rows(&v, zp, &zs, QUANT_ERR_ZPS, qt_ok, per_ch, c_ok, C, 1);
        data_rows(&v, zp, &zs, zt_ok);
        if (zp->data && zt_ok && zs.known && nbytes(zp->dtype, zs.count) <= c->bytes[B_ZP])
            for (i = 0; i < zs.count; ++i)
                if (load_int(zp->dtype, (const uint8_t *)zp->data, i) != 0 && f8 != 0) row(&v, QUANT_ERR_ZPS, f8 == 1);
    }
    /* dst overlapping what the op reads, with the sizes as declared (packed
       for 4-bit; the harness's allocation where a declared size is
       unknowable). Only memory that exists can overlap for certain: a
       tensor declared larger than the harness could hold (a placeholder)
       may claim addresses past the end of the address space, where no
       overlap test has to work. */
    if (dst && dst->data) {
        const uint64_t dn = ds.known ? nbytes(dst->dtype, ds.count) : c->bytes[B_DST];
        const int dheld = ds.known && !c->unheld[B_DST];
        if (src && src->data) {
            const uint64_t sn = ss.known ? nbytes(src->dtype, ss.count) : c->bytes[B_SRC];
            if (overlap(dst->data, dn, src->data, sn)) row(&v, QUANT_ERR_OVERLAP, dheld && ss.known && !c->unheld[B_SRC]);
        }
        if (!dyn && A) {
            if (overlap(dst->data, dn, A->scales, (uint64_t)A->n_scales * 4)) row(&v, QUANT_ERR_OVERLAP, dheld);
            if (overlap(dst->data, dn, A->zps, (uint64_t)A->n_zps * 8)) row(&v, QUANT_ERR_OVERLAP, dheld);
        }
        if (sc && overlap(dst->data, dn, sc->data, scs.known ? nbytes(sc->dtype, scs.count) : c->bytes[B_SC]))
            row(&v, QUANT_ERR_OVERLAP, dheld && scs.known && !c->unheld[B_SC]);
        if (zp && overlap(dst->data, dn, zp->data, zs.known ? nbytes(zp->dtype, zs.count) : c->bytes[B_ZP]))
            row(&v, QUANT_ERR_OVERLAP, dheld && zs.known && !c->unheld[B_ZP]);
    }
    return v;
}

/* ------------------------------------------------------------------ the oracle */

/* The expected dst bytes of a successful call, from the memory as it was
   before the call (src_mem, sc_mem, zp_mem point into the snapshots). Every
   qtype is a grid (SPEC section 6): per tensor the group is the tensor, per
   channel one index of the axis. A packed dst starts as zeros, so that the
   bits past its last element are expected 0. */
static void oracle(const fcase *c, const uint8_t *src_mem, const uint8_t *sc_mem, const uint8_t *zp_mem,
                   uint8_t *expect, uint64_t n)
{
    const int dyn = c->op >= 2, quantize = c->op % 2 == 0;
    const quant_attrs *A = c->attrs_null ? NULL : &c->a;
    const int qtype = A ? (int)A->qtype : 0;
    const int rounding = A ? (int)A->rounding : 0, inf_nan = A ? A->f8_overflow == QUANT_F8_INF_NAN : 0;
    const quant_dtype qt = quantize ? c->dst.dtype : c->src.dtype, ft = quantize ? c->src.dtype : c->dst.dtype;
    const int fmt = qt == QUANT_F8_E5M2;
    int64_t g[QUANT_MAX_RANK];
    uint64_t n_zps = 0, i;
    int k;

    for (k = 0; k < c->src.rank; ++k) g[k] = qtype == QUANT_PER_GROUP ? A->group_shape[k] : c->src.dims[k];
    if (qtype == QUANT_PER_CHANNEL) g[A->axis < 0 ? A->axis + c->src.rank : A->axis] = 1;
    if (!dyn) n_zps = A->zps ? A->n_zps : 0;
    else if (!c->zp_tnull) n_zps = shape_of(&c->zp, 1).count;
    memset(expect, 0, (size_t)nbytes(c->dst.dtype, n));
    for (i = 0; i < n; ++i) {
        const uint64_t gi = grid_index(&c->src, g, i), zi = n_zps == 1 ? 0 : gi;
        float s;
        int64_t z = 0;
        if (dyn) s = load_float(c->sc.dtype, sc_mem, gi);
        else memcpy(&s, sc_mem + 4 * gi, 4);
        if (A) s = folded(s, A->tensor_scale);          /* SPEC section 7.1 */
        if (n_zps) {
            if (dyn) z = load_int(c->zp.dtype, zp_mem, zi);
            else memcpy(&z, zp_mem + 8 * zi, 8);
        }
        if (quantize) {
            const float x = load_float(ft, src_mem, i);
            unsigned q;
            if (is_f8(qt)) q = o_quant_f8(x, s, rounding, fmt, inf_nan);
            else if (is_f4(qt)) q = o_quant_f4(x, s, rounding);
            else if (qt == QUANT_S8) q = (uint8_t)(int8_t)o_quant_int(x, s, z, rounding, -128, 127);
            else if (qt == QUANT_U8) q = (uint8_t)o_quant_int(x, s, z, rounding, 0, 255);
            else if (qt == QUANT_S4) q = (unsigned)o_quant_int(x, s, z, rounding, -8, 7) & 15u;
            else if (qt == QUANT_U4) q = (unsigned)o_quant_int(x, s, z, rounding, 0, 15);
            else if (qt == QUANT_S2) q = (unsigned)o_quant_int(x, s, z, rounding, -2, 1) & 3u;
            else if (qt == QUANT_U2) q = (unsigned)o_quant_int(x, s, z, rounding, 0, 3);
            else {                                                         /* s16 */
                const int16_t h = (int16_t)o_quant_int(x, s, z, rounding, -32768, 32767);
                memcpy(expect + 2 * i, &h, 2);
                continue;
            }
            if (is_packed(qt)) packed_or(qt, expect, i, q);
            else expect[i] = (uint8_t)q;
        } else {
            const float y = is_f8(qt) ? o_dequant_f8_r(src_mem[i], s, fmt, rounding)
                          : is_f4(qt) ? o_dequant_f4((uint8_t)nibble(src_mem, i), s)
                                      : o_dequant_int(load_int(qt, src_mem, i), s, z);
            if (ft == QUANT_F32) memcpy(expect + 4 * i, &y, 4);
            else {
                const uint16_t h = ft == QUANT_F16                ? o_f16_code(y)
                                   : rounding == QUANT_ROUND_ONEDNN ? o_bf16_code_onednn(y) : o_bf16_code(y);
                memcpy(expect + 2 * i, &h, 2);
            }
        }
    }
}

/* ------------------------------------------------------------------ memory */

typedef struct mem {
    uint8_t *blk[NBUF];       /* one malloc each; NULL when unused */
    size_t size[NBUF];
    uint8_t *snap[NBUF], *post[NBUF];
    int buf_blk[NBUF];        /* the block a buffer lives in, -1 for none */
    size_t buf_off[NBUF];
} mem;

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p && n) { fprintf(stderr, "fuzz_ops: out of memory\n"); abort(); }
    return p;
}

static void mem_free(mem *m)
{
    int b;
    for (b = 0; b < NBUF; ++b) {
        free(m->blk[b]);
        free(m->snap[b]);
        free(m->post[b]);
    }
}

/* ------------------------------------------------------------------ choices */

static int64_t pick_count(reader *r, int64_t right, int c_ok, int64_t C, int tensor)
{
    const unsigned b = rd8(r);
    int64_t n;
    if (b < 176) return right;
    if (b < 192) return 1;
    if (b < 200) return 0;
    if (b < 212) {                    /* the channel count narrowed to 32 bits */
        n = c_ok ? (int64_t)(uint32_t)(uint64_t)C : right;
        return n <= LIST_CAP ? n : right;
    }
    if (b < 224) return right + 1;
    if (b < 236) return right > 0 ? right - 1 : 2;
    if (b < 250 || !tensor) return (int64_t)(rd8(r) % 70);
    return wild_dims[rd8(r) % N(wild_dims)];
}

/* a per-group group size along a dim of `dim` elements: 1, the whole dim,
   small sizes (a ragged last group where they do not divide it), one less
   or more than the dim, half of it, huge ones (ceil(dims / g) must not
   overflow), and invalid ones (< 1) */
static int64_t pick_group(reader *r, int64_t dim)
{
    static const int64_t small[] = { 2, 3, 4, 8, 16, 32, 5, 7, 64, 128, 6, 1 };
    static const int64_t huge[] = { INT64_MAX, (int64_t)1 << 62, ((int64_t)1 << 32) + 1, (int64_t)1 << 31,
                                    INT64_MAX - 1, ((int64_t)1 << 32) - 1 };
    static const int64_t bad[] = { 0, -1, INT64_MIN, -2 };
    const unsigned b = rd8(r);
    if (b < 64) return 1;
    if (b < 104) return dim > 0 ? dim : 1;
    if (b < 184) return small[b % N(small)];
    if (b < 200) return dim > 1 ? dim - 1 : 2;
    if (b < 216) return dim >= 0 && dim < INT64_MAX ? dim + 1 : 3;
    if (b < 240) return dim > 2 ? dim / 2 + 1 : 1;
    if (b < 250) return huge[b % N(huge)];
    return bad[b % N(bad)];
}

/* group_shape: per group, an entry per dim below the rank and now and then
   one set past it; other qtypes now and then carry one too, which they
   ignore. Then the grid the scales and zero points are sized from:
   *per_ch, *c_ok and *C (the channel count) per channel, *G per group;
   returns the entries a right-sized list has (1 past cap). */
static int64_t pick_grid(reader *r, fcase *c, int64_t cap, int *per_ch, int *c_ok, int64_t *C, grid_info *G)
{
    static const int64_t past[] = { 1, -1, 4, INT64_MAX };
    const unsigned gm = rd8(r);
    const int rk = c->src.rank < 0 ? 0 : c->src.rank > QUANT_MAX_RANK ? QUANT_MAX_RANK : c->src.rank;
    int64_t right;
    int k;
    if (c->a.qtype == QUANT_PER_GROUP || gm >= 232) {
        for (k = 0; k < rk; ++k) c->a.group_shape[k] = pick_group(r, c->src.dims[k]);
        if (gm >= 216 && rk < QUANT_MAX_RANK) c->a.group_shape[rk + (int)(gm % (unsigned)(QUANT_MAX_RANK - rk))] = past[gm % 4];
    }
    *per_ch = !c->attrs_null && c->a.qtype == QUANT_PER_CHANNEL;
    if (*per_ch && c->src.rank > 0 && c->src.rank <= QUANT_MAX_RANK && c->a.axis >= -c->src.rank &&
        c->a.axis < c->src.rank) {
        *c_ok = 1;
        *C = c->src.dims[c->a.axis < 0 ? c->a.axis + c->src.rank : c->a.axis];
    }
    right = *per_ch && *c_ok && *C >= 0 && *C <= cap ? *C : 1;
    memset(G, 0, sizeof *G);
    if (!c->attrs_null && c->a.qtype == QUANT_PER_GROUP) {
        const shape_info ss = shape_of(&c->src, esize(c->src.dtype));
        *G = grid_of(&c->src, &ss, c->a.group_shape);
        if (G->known && G->count <= (uint64_t)cap) right = (int64_t)G->count;
    }
    return right;
}

/* a dynamic op's scales or zps tensor of n entries; per group (G given and
   known) mostly the grid's shape when n is the grid's count, or 1-D, and
   wrongly shaped ones of the right count (dims reversed, a leading 1, one
   dim off by one) */
static void pick_aux_shape(reader *r, quant_tensor *t, int64_t n, int per_tensor, const grid_info *G)
{
    const unsigned b = rd8(r);
    int k;
    for (k = 0; k < QUANT_MAX_RANK; ++k) t->dims[k] = (b & 1) ? -1 - k : 0;   /* past the rank: ignored */
    t->rank = 1;
    t->dims[0] = n;
    if (G && G->known && b < 200) {
        if (b < 24 && n == 1) t->rank = 0;
        else if (b < 110 && (uint64_t)n == G->count) {
            t->rank = G->rank;
            for (k = 0; k < G->rank; ++k) t->dims[k] = G->dims[k];
        } else if (b < 150) {                 /* 1-D: right only with at most one grid dim above 1 */
        } else if (b < 160) {                 /* rank(src): ones, n last (one zero point for the tensor) */
            t->rank = G->rank;
            for (k = 0; k < G->rank; ++k) t->dims[k] = k == G->rank - 1 ? n : 1;
        } else if (b < 170 && G->rank >= 2 && (uint64_t)n == G->count) {
            t->rank = G->rank;
            for (k = 0; k < G->rank; ++k) t->dims[k] = G->dims[G->rank - 1 - k];
        } else if (b < 180 && G->rank < QUANT_MAX_RANK && (uint64_t)n == G->count) {
            t->rank = G->rank + 1;
            t->dims[0] = 1;
            for (k = 0; k < G->rank; ++k) t->dims[k + 1] = G->dims[k];
        } else if (b < 190 && G->rank >= 1 && (uint64_t)n == G->count) {
            t->rank = G->rank;
            for (k = 0; k < G->rank; ++k) t->dims[k] = G->dims[k];
            t->dims[b % (unsigned)G->rank] += (b & 2) ? 1 : -1;
        }
        return;
    }
    if (b < 64 && per_tensor && n == 1) t->rank = 0;
    else if (b >= 200 && b < 216) {
        t->rank = 2;
        t->dims[0] = (b & 2) ? n : 1;
        t->dims[1] = (b & 2) ? 1 : n;
    } else if (b >= 216 && b < 226) t->rank = 0;
    else if (b >= 226 && b < 236) t->rank = (b & 1) ? -1 : 13;
    else if (b >= 236 && b < 246) t->rank = (int)(b % 4) + 2;
}

/* bytes the harness gives a tensor: its declared size (packed for 4-bit)
   when that is valid and small enough; 8 bytes standing in for one whose
   size is invalid; returns 0 when the size is valid but too large to hold */
static int tensor_bytes(const quant_tensor *t, uint64_t cap, size_t *bytes, int *unheld)
{
    const shape_info s = shape_of(t, esize(t->dtype));
    *unheld = 0;
    if (s.known && s.count <= cap) { *bytes = (size_t)nbytes(t->dtype, s.count); return 1; }
    *bytes = 8;
    *unheld = 1;
    return !s.known;
}

/* ------------------------------------------------------------------ statistics
   -DFUZZ_STATS: at exit, how many calls of each op ended in each status,
   how many succeeded with elements to compare, and how many were skipped. */
#ifdef FUZZ_STATS
static unsigned long stat_status[6][16], stat_elems[6], stat_skipped, stat_expected_fail;
#define NDT ((int)QUANT_S16 + 1)
static unsigned long stat_qtype[3][16], stat_ok_types[NDT][NDT];  /* by qtype; successes by src and dst dtype */
static unsigned long stat_on_error[6][3];     /* untouched (attrs NULL too), partial, out of range */
static unsigned long stat_partial[2][2];      /* partial after an infinite range: [scalar, library][something written] */
static unsigned long stat_choose_ok[6][NDT];  /* the choose pair's successes by scheme and qdt */
static unsigned long stat_ts[4];              /* the four ops: successes without, with a tensor_scale; a bad one; other errors */
static void stats_print(void)
{
    int o, s;
    fprintf(stderr, "fuzz_ops stats: skipped %lu, model said fail %lu\n", stat_skipped, stat_expected_fail);
    for (o = 0; o < 6; ++o) {
        fprintf(stderr, "  %-19s compared %-8lu", op_name[o], stat_elems[o]);
        for (s = 0; s < 16; ++s) if (stat_status[o][s]) fprintf(stderr, " %d:%lu", s, stat_status[o][s]);
        fputc('\n', stderr);
    }
    fprintf(stderr, "  on_error untouched/partial/out of range:");
    for (o = 0; o < 6; ++o)
        fprintf(stderr, " %s %lu/%lu/%lu", op_name[o], stat_on_error[o][0], stat_on_error[o][1], stat_on_error[o][2]);
    fprintf(stderr, "\n  partial after an infinite range, nothing/something written: library %lu/%lu, scalar copy %lu/%lu\n",
            stat_partial[1][0], stat_partial[1][1], stat_partial[0][0], stat_partial[0][1]);
    for (o = 0; o < 3; ++o) {
        fprintf(stderr, "  qtype %d:", o);
        for (s = 0; s < 16; ++s) if (stat_qtype[o][s]) fprintf(stderr, " %d:%lu", s, stat_qtype[o][s]);
        fputc('\n', stderr);
    }
    fprintf(stderr, "  successes by src -> dst dtype:");
    for (o = 0; o < NDT; ++o)
        for (s = 0; s < NDT; ++s)
            if (stat_ok_types[o][s]) fprintf(stderr, " %s->%s:%lu", quant_dtype_name((quant_dtype)o),
                                             quant_dtype_name((quant_dtype)s), stat_ok_types[o][s]);
    fprintf(stderr, "\n  choose successes by scheme:qdt:");
    for (o = 0; o < 6; ++o)
        for (s = 0; s < NDT; ++s)
            if (stat_choose_ok[o][s]) fprintf(stderr, " %d:%s:%lu", o, quant_dtype_name((quant_dtype)s), stat_choose_ok[o][s]);
    fprintf(stderr, "\n  the four ops: successes without / with a tensor_scale %lu / %lu, a bad tensor_scale %lu\n",
            stat_ts[0], stat_ts[1], stat_ts[2]);
}
static int stat_once;
#define STAT(x) do { if (!stat_once) { stat_once = 1; atexit(stats_print); } x; } while (0)
#else
#define STAT(x) do { } while (0)
#endif

/* ------------------------------------------------------------------ the entry */

static quant_status call_op(int op, int lib, const quant_tensor *src, quant_tensor *dst, const quant_tensor *sc,
                            const quant_tensor *zp, const quant_attrs *a)
{
#if FUZZ_SCALAR_COPY
    if (!lib) {
        switch (op) {
        case 0: return ref_quantize(src, dst, a);
        case 1: return ref_dequantize(src, dst, a);
        case 2: return ref_dynamic_quantize(src, sc, zp, dst, a);
        default: return ref_dynamic_dequantize(src, sc, zp, dst, a);
        }
    }
#else
    (void)lib;
#endif
    {
        /* quant_explain first: the op's own status, a line, nothing written */
        char why[96];
        const quant_status e = quant_explain((quant_op)op, src, sc, zp, dst, a, why, sizeof why);
        quant_status st;
        switch (op) {
        case 0: st = quant_quantize(src, dst, a); break;
        case 1: st = quant_dequantize(src, dst, a); break;
        case 2: st = quant_dynamic_quantize(src, sc, zp, dst, a); break;
        default: st = quant_dynamic_dequantize(src, sc, zp, dst, a); break;
        }
        if (e != st || why[0] == '\0') {
            fprintf(stderr, "fuzz_ops: FAILED: op %d gave status %d, quant_explain %d (%s)\n", op, (int)st, (int)e, why);
            abort();
        }
        return st;
    }
}

/* The row kernels (no validation): exact-size buffers, NULL with n = 0,
   and the oracle's values (exact rounding, f8 saturate) where the scale is
   valid; with an invalid one only that exactly n outputs are written. */
static void row_kernel_case32(reader *r, unsigned k)
{
    const unsigned nb = rd8(r);
    const int quantize = k == 0 || k == 1 || k == 4 || k == 5;
    const size_t n = nb < 64 ? 0 : nb < 192 ? nb % 40 : (size_t)(nb % 8) * 64 + rd8(r) % 64;
    const int null_ptrs = n == 0 && (rd8(r) & 1);
    const float s = bits_f(pick_scale_bits(r));
    const int32_t z = (k < 4) ? (int32_t)pick_zp(r) : 0;
    const size_t sb = n * (quantize ? 4 : 1), db = n * (quantize ? 1 : 4);
    uint8_t *src = null_ptrs ? NULL : (uint8_t *)malloc(sb), *dst = null_ptrs ? NULL : (uint8_t *)malloc(db);
    uint8_t *keep = (uint8_t *)xmalloc(sb ? sb : 1);
    size_t i;
    if (!null_ptrs && (!src || !dst)) { fprintf(stderr, "fuzz_ops: out of memory\n"); abort(); }
    for (i = 0; i < n; ++i) {
        if (quantize) { const float x = pick_f32(r, i); memcpy(src + 4 * i, &x, 4); }
        else src[i] = r->n ? (uint8_t)rd8(r) : (uint8_t)(i * 37 + 11);
    }
    for (i = 0; i < db; ++i) dst[i] = (uint8_t)(0x5A ^ i);
    if (sb) memcpy(keep, src, sb);
    switch (k) {
    case 0: quant_f32_to_s8((const float *)(void *)src, (int8_t *)dst, n, s, z); break;
    case 1: quant_f32_to_u8((const float *)(void *)src, dst, n, s, z); break;
    case 2: quant_s8_to_f32((const int8_t *)src, (float *)(void *)dst, n, s, z); break;
    case 3: quant_u8_to_f32(src, (float *)(void *)dst, n, s, z); break;
    case 4: quant_f32_to_f8_e4m3((const float *)(void *)src, dst, n, s); break;
    case 5: quant_f32_to_f8_e5m2((const float *)(void *)src, dst, n, s); break;
    case 6: quant_f8_e4m3_to_f32(src, (float *)(void *)dst, n, s); break;
    default: quant_f8_e5m2_to_f32(src, (float *)(void *)dst, n, s); break;
    }
    if (sb && memcmp(keep, src, sb) != 0) {
        fprintf(stderr, "fuzz_ops: FAILED: row kernel %u (n %lu) changed its src\n", k, (unsigned long)n);
        abort();
    }
    for (i = 0; i < n && !bad_scale(s); ++i) {
        uint32_t want = 0, got = 0;
        if (quantize) {
            float x;
            memcpy(&x, src + 4 * i, 4);
            want = k == 0 ? (uint8_t)(int8_t)o_quant_int(x, s, z, O_EXACT, -128, 127)
                 : k == 1 ? (uint8_t)o_quant_int(x, s, z, O_EXACT, 0, 255)
                          : o_quant_f8(x, s, O_EXACT, k == 5, 0);
            got = dst[i];
        } else {
            const float y = k == 2 ? o_dequant_int((int8_t)src[i], s, z) : k == 3 ? o_dequant_int(src[i], s, z)
                                                                           : o_dequant_f8(src[i], s, k == 7);
            want = f_bits(y);
            memcpy(&got, dst + 4 * i, 4);
        }
        if (want != got) {
            fprintf(stderr, "fuzz_ops: FAILED: row kernel %u, n %lu, scale 0x%08lx, zp %ld: element %lu (src bytes "
                    "%02x...) oracle 0x%08lx, library 0x%08lx\n", k, (unsigned long)n, (unsigned long)f_bits(s),
                    (long)z, (unsigned long)i, src[quantize ? 4 * i : i], (unsigned long)want, (unsigned long)got);
            abort();
        }
    }
    free(src);
    free(dst);
    free(keep);
}

/* The section 6 row kernels: k 0-3 bf16/f16 -> s8/u8 (one scale and zero
   point, exact rounding); k 4-9 packed u4/s4 -> f32/f16/bf16 with a scale
   and a packed zero point (or none) per group of g (0: one group). Every
   buffer exact-size (ceil(n / 2) bytes of 4-bit src, an odd count's last
   high nibble junk), NULL with n = 0 now and then; an element is compared
   where its scale is valid; nothing but dst may change. */
static void row_kernel_case16(reader *r, unsigned k)
{
    static const size_t gsizes[] = { 1, 2, 3, 4, 8, 16, 32, 64, 128, 5, 7, 33 };
    const unsigned nb = rd8(r);
    const size_t n = nb < 64 ? 0 : nb < 192 ? nb % 40 : (size_t)(nb % 8) * 64 + rd8(r) % 64;
    const int null_ptrs = n == 0 && (rd8(r) & 1), w4 = k >= 4;
    const int bf = k < 2, q_signed = k % 2 == 0;                      /* k 0-3 */
    const int s4 = k >= 7, out = w4 ? (int)(k - 4) % 3 : 0;           /* k 4-9: out 0 f32, 1 f16, 2 bf16 */
    const unsigned gb = rd8(r);
    const size_t g = !w4 ? 0 : gb < 64 ? 0 : gb < 160 ? gsizes[gb % N(gsizes)] : gb < 224 ? (size_t)(gb % 70) + 1
                   : n + (gb & 1);
    const size_t ngroups = !w4 ? 1 : n == 0 ? 0 : g == 0 ? 1 : (n - 1) / g + 1;
    const int no_zps = w4 && (rd8(r) & 1);
    const size_t sb = w4 ? (n + 1) / 2 : 2 * n, db = !w4 ? n : n * (out == 0 ? 4 : 2);
    const size_t scb = w4 ? 4 * ngroups : 0, zpb = w4 && !no_zps ? (ngroups + 1) / 2 : 0;
    float s = 1.0f;
    int32_t z = 0;
    uint8_t *src = null_ptrs ? NULL : (uint8_t *)malloc(sb), *dst = null_ptrs ? NULL : (uint8_t *)malloc(db);
    uint8_t *scales = null_ptrs || !w4 ? NULL : (uint8_t *)malloc(scb);
    uint8_t *zps = null_ptrs || !w4 || no_zps ? NULL : (uint8_t *)malloc(zpb);
    uint8_t *keep = (uint8_t *)xmalloc(sb + scb + zpb + 1);
    size_t i;
    if (!null_ptrs && (!src || !dst || (w4 && !scales) || (w4 && !no_zps && !zps))) {
        fprintf(stderr, "fuzz_ops: out of memory\n");
        abort();
    }
    if (!w4) {
        s = bits_f(pick_scale_bits(r));
        z = (int32_t)pick_zp(r);
        for (i = 0; i < n; ++i) { const uint16_t h = pick_h16(r, i, bf); memcpy(src + 2 * i, &h, 2); }
    } else {
        for (i = 0; i < ngroups; ++i) { const uint32_t u = pick_scale_bits(r); memcpy(scales + 4 * i, &u, 4); }
        if (zpb) {                            /* the input's next bytes (a loop of rd8 trips gcc's -Wstringop-overflow) */
            const size_t take = zpb < r->n ? zpb : r->n;
            memset(zps, 0, zpb);                 /* as rd8 past the end */
            if (take) memcpy(zps, r->p, take);
            r->p += take;
            r->n -= take;
        }
        for (i = 0; i < sb; ++i) src[i] = r->n ? (uint8_t)rd8(r) : (uint8_t)(i * 37 + 11);
    }
    for (i = 0; i < db; ++i) dst[i] = (uint8_t)(0x5A ^ i);
    if (sb) memcpy(keep, src, sb);
    if (scb) memcpy(keep + sb, scales, scb);
    if (zpb) memcpy(keep + sb + scb, zps, zpb);
    switch (k) {
    case 0: quant_bf16_to_s8((const uint16_t *)(void *)src, (int8_t *)dst, n, s, z); break;
    case 1: quant_bf16_to_u8((const uint16_t *)(void *)src, dst, n, s, z); break;
    case 2: quant_f16_to_s8((const uint16_t *)(void *)src, (int8_t *)dst, n, s, z); break;
    case 3: quant_f16_to_u8((const uint16_t *)(void *)src, dst, n, s, z); break;
    case 4: quant_u4_to_f32(src, (float *)(void *)dst, n, (const float *)(void *)scales, zps, g); break;
    case 5: quant_u4_to_f16(src, (uint16_t *)(void *)dst, n, (const float *)(void *)scales, zps, g); break;
    case 6: quant_u4_to_bf16(src, (uint16_t *)(void *)dst, n, (const float *)(void *)scales, zps, g); break;
    case 7: quant_s4_to_f32(src, (float *)(void *)dst, n, (const float *)(void *)scales, zps, g); break;
    case 8: quant_s4_to_f16(src, (uint16_t *)(void *)dst, n, (const float *)(void *)scales, zps, g); break;
    default: quant_s4_to_bf16(src, (uint16_t *)(void *)dst, n, (const float *)(void *)scales, zps, g); break;
    }
    if ((sb && memcmp(keep, src, sb) != 0) || (scb && memcmp(keep + sb, scales, scb) != 0) ||
        (zpb && memcmp(keep + sb + scb, zps, zpb) != 0)) {
        fprintf(stderr, "fuzz_ops: FAILED: row kernel 16/4-bit %u (n %lu, g %lu) changed its src, scales or zero points\n",
                k, (unsigned long)n, (unsigned long)g);
        abort();
    }
    for (i = 0; i < n; ++i) {
        uint32_t want = 0, got = 0;
        int64_t zz = z;
        if (!w4) {
            uint16_t h;
            memcpy(&h, src + 2 * i, 2);
            if (bad_scale(s)) break;
            want = q_signed ? (uint8_t)(int8_t)o_quant_int(widen16(h, bf), s, z, O_EXACT, -128, 127)
                            : (uint8_t)o_quant_int(widen16(h, bf), s, z, O_EXACT, 0, 255);
            got = dst[i];
        } else {
            const size_t grp = g == 0 ? 0 : i / g;
            const int64_t q = s4 ? load_int(QUANT_S4, src, i) : (int64_t)nibble(src, i);
            float y;
            zz = !zps ? 0 : s4 ? load_int(QUANT_S4, zps, grp) : (int64_t)nibble(zps, grp);
            memcpy(&s, scales + 4 * grp, 4);
            if (bad_scale(s)) continue;
            y = o_dequant_int(q, s, zz);
            want = out == 0 ? f_bits(y) : out == 1 ? o_f16_code(y) : o_bf16_code(y);
            memcpy(&got, dst + i * (out == 0 ? 4 : 2), out == 0 ? 4 : 2);
        }
        if (want != got) {
            fprintf(stderr, "fuzz_ops: FAILED: row kernel 16/4-bit %u, n %lu, g %lu, zps %s, scale 0x%08lx, zp %ld: "
                    "element %lu oracle 0x%08lx, library 0x%08lx\n", k, (unsigned long)n, (unsigned long)g,
                    zps ? "packed" : "NULL", (unsigned long)f_bits(s), (long)zz, (unsigned long)i, (unsigned long)want,
                    (unsigned long)got);
            abort();
        }
    }
    free(src);
    free(dst);
    free(scales);
    free(zps);
    free(keep);
}

/* a row kernel: the f32 ones (k 0-7), or with a kernel byte of 200 or
   more one of section 6 */
static void row_kernel_case(reader *r)
{
    const unsigned kb = rd8(r);
    if (kb >= 200) row_kernel_case16(r, (kb - 200) % 10);
    else row_kernel_case32(r, kb % 8);
}

/* the alignment a buffer keeps when it shares a block with another: its
   dtype's, the static lists' (float, int64_t) */
static long long buf_align(const fcase *c, int b)
{
    const int dyn = c->op >= 2;
    switch (b) {
    case B_SRC: return align_of(c->src.dtype);
    case B_DST: return align_of(c->dst.dtype);
    case B_SC: return dyn ? align_of(c->sc.dtype) : 4;
    case B_ZP: return dyn ? align_of(c->zp.dtype) : 8;
    case B_XS: return 4;
    default: return 8;
    }
}

/* every buffer its own malloc of exactly its size, but the pair an overlap
   mode names, which shares one block: pb at pa + delta (from ov_delta) */
static void alloc_bufs(fcase *c, mem *m, const int *kind, const unsigned *mis, const int *zero_null, unsigned ov_delta)
{
    int b;
    for (b = 0; b < NBUF; ++b) m->buf_blk[b] = -1;
    {
        int pa = -1, pb = -1;   /* the pair sharing one block: pa first in it */
        switch (c->ov) {
        case OV_SRC: case OV_SAME: pa = B_SRC; pb = B_DST; break;
        case OV_SC: pa = B_SC; pb = B_DST; break;
        case OV_ZP: pa = B_ZP; pb = B_DST; break;
        case OV_XS: pa = B_XS; pb = B_DST; break;
        case OV_SRC_SC: pa = B_SC; pb = B_SRC; break;
        case OV_ZP_SRC: pa = B_ZP; pb = B_SRC; break;
        case OV_ZP_SC: pa = B_SC; pb = B_ZP; break;
        default: break;
        }
        if (pa >= 0 && (kind[pa] == K_NULL || kind[pb] == K_NULL)) pa = pb = -1;
        if (pa >= 0) {
            /* pb at pa + delta, delta in [-bytes[pb], bytes[pa]]: overlapping or touching; half
               the time at an edge, where one byte (a packed tensor's last, say) decides. pa
               starts on an 8-byte boundary (plus its misalignment), so pb's own alignment is
               all that rounds delta. */
            const long long na = (long long)c->bytes[pa], nb = (long long)c->bytes[pb], al = buf_align(c, pb);
            const unsigned edge = ov_delta >> 14;
            long long delta = c->ov == OV_SAME ? 0 : (long long)(ov_delta % (unsigned)(na + nb + 1)) - nb, lo, oa, ob;
            if (c->ov != OV_SAME && (ov_delta & 0x2000u))
                delta = edge == 0 ? 1 - nb : edge == 1 ? na - 1 : edge == 2 ? -nb : na;
            delta -= delta % al;
            delta += (long long)mis[pb] - (long long)mis[pa];
            lo = delta < 0 ? -delta : 0;
            lo = (lo + 7) / 8 * 8;
            oa = lo + (long long)mis[pa];
            ob = oa + delta;
            m->size[pa] = (size_t)((oa + na > ob + nb) ? oa + na : ob + nb);
            m->blk[pa] = (uint8_t *)xmalloc(m->size[pa] ? m->size[pa] : 1);
            m->buf_blk[pa] = m->buf_blk[pb] = pa;
            m->buf_off[pa] = (size_t)oa;
            m->buf_off[pb] = (size_t)ob;
        } else c->ov = OV_NONE;
        for (b = 0; b < NBUF; ++b) {
            if (m->buf_blk[b] >= 0 || kind[b] == K_NULL) continue;
            if (c->bytes[b] == 0 && kind[b] == K_OWN && zero_null[b]) continue;
            m->size[b] = c->bytes[b] + mis[b];
            m->blk[b] = (uint8_t *)malloc(m->size[b]);   /* malloc(0): a unique pointer to nothing */
            if (!m->blk[b]) {
                if (m->size[b]) { fprintf(stderr, "fuzz_ops: out of memory\n"); abort(); }
                continue;
            }
            m->buf_blk[b] = b;
            m->buf_off[b] = mis[b];
        }
        for (b = 0; b < NBUF; ++b) c->ptr[b] = m->buf_blk[b] >= 0 ? m->blk[m->buf_blk[b]] + m->buf_off[b] : NULL;
    }
}

/* ------------------------------------------------------------------ choosing scales
   Ops 4 and 5, a first byte of 244 to 251: quant_choose_qparams and
   quant_choose_and_quantize (quant.h's doc block "CHOOSING SCALES FROM THE
   DATA", the README's "Scales from the data" and its rows for choosing
   scales in "Bad input"). The scheme (invalid values too), qdt (the fused
   op: dst's dtype), the scales tensor (f32, now and then another dtype or
   shape), the zps tensor (s32/s8/u8, now and then NULL, s2/u2/s16, wild, or
   a type too narrow for the scheme's zero points), NULL structs and data,
   misaligned data, and overlaps between every pair of src, dst, scales and
   zero points (the outputs must be apart from src and from each other).
   The data mixes NaN, +-Inf, the largest floats (ranges past FLT_MAX),
   subnormals and raw bits, and now and then comes from a palette of four
   values so that entries are constant, all NaN or all zero. Success: the
   scales, zero points and dst as tests/oracle.h's o_qparams and its
   quantizers give them, per grid entry min/max with NaN left out (nudged:
   q = sat(rne(fl(x * m)) + z)); failure: nothing written, except after an
   infinite range under on_error partial (every argument valid: the
   arguments are validated before src is read), where each element of the
   scales, the zero points and dst (packed: each element) is either as it
   was or as the oracle has it, and an entry with an infinite range as it
   was. SPEC section 7.1: qdt s2/u2 (qmax 1 / 3, asymmetric qmin -2 / 0,
   nudged over their range with u2's zero point moved by 2; u8 zero points
   fit u2), s16 (no scheme takes it yet), and the block-scale schemes
   QUANT_MX, QUANT_MX_RCEIL (qdt e4m3, e5m2, f4_e2m1, s8) and QUANT_NVFP4
   (f4_e2m1): e8m0 / f8_e4m3 (or f32) scales from the entry's amax (the
   oracle's o_mx_code, o_mx_rceil_code, o_nvfp4_code), no zero points, the
   fused quantize as o_mx_quant has it with the scale times tensor_scale
   (NVFP4's g; drawn last, after on_error; the other schemes take none).
   Tensors up to CHOOSE_CAP elements, so that grids of more than 256
   entries (the batches of one pass) and fused entries past 8192 elements
   are reached; the scalar copy's batches are of 2 entries. */

#define CHOOSE_CAP 32768

/* a zps type that holds every zero point of the scheme (symmetric: 0) */
static int zp_fits(quant_dtype zt, quant_dtype q, long long scheme)
{
    if (scheme == 1 || zt == QUANT_S32) return 1;
    if (zt == QUANT_S8) return q != QUANT_U8;
    return q == QUANT_U8 || q == QUANT_U4 || q == QUANT_U2;
}

/* SPEC section 7.1's block-scale schemes: QUANT_MX, QUANT_MX_RCEIL, QUANT_NVFP4 */
static int is_mx_scheme(long long scheme) { return scheme >= QUANT_MX && scheme <= QUANT_NVFP4; }
/* the oracle's element type of an MX qdt: 0 e4m3, 1 e5m2, 2 f4_e2m1, 3 s8; -1 none */
static int mx_type(quant_dtype q)
{
    return q == QUANT_F8_E4M3 ? 0 : q == QUANT_F8_E5M2 ? 1 : q == QUANT_F4_E2M1 ? 2 : q == QUANT_S8 ? 3 : -1;
}
/* a qdt the scheme takes (a valid scheme; s16: none yet) */
static int scheme_takes(long long scheme, quant_dtype q)
{
    if (scheme == QUANT_NVFP4) return is_f4(q);
    if (is_mx_scheme(scheme)) return mx_type(q) >= 0;
    if (is_f4(q) || q == QUANT_S16) return 0;
    return scheme == QUANT_SYMMETRIC || !is_f8(q);
}
/* the largest |x| of an entry from its least and greatest (none: 0) */
static float amax_of(float mn, float mx)
{
    const float a = mn < 0 ? -mn : 0.0f;
    return mx > a ? mx : a;
}
/* NVFP4's fused quantize takes fl(s * tensor_scale), s the block scale
   (SPEC section 7.1: "the quantize that follows (fused or not) uses ...
   the rules above"); a folded scale that fails section 4 is
   QUANT_ERR_SCALE_VALUE, which a tensor_scale below about 2^-117 gives (s
   >= 2^-9; under onednn >= 2^-3), found in the data as an infinite range
   is. folded: the scale as the quantize takes it. */
static int nvfp4_fold_bad(float folded_scale) { return bad_scale(folded_scale); }

static int same_shape(const quant_tensor *a, const quant_tensor *b)
{
    int d;
    if (a->rank != b->rank) return 0;
    for (d = 0; d < a->rank && d < QUANT_MAX_RANK; ++d)
        if (a->dims[d] != b->dims[d]) return 0;
    return 1;
}

/* the model of the choose pair's statuses. When src can be read and the
   grid is known, also the per entry min and max with NaN left out (mn, mx,
   *cells entries of group sizes g); returns them known in *ranges.
   Everything but the ranges is an argument, validated before src is read
   (attrs' values first, quant__check_attrs): *args_fail says whether an
   argument row certainly applies, and only when none does can an infinite
   range (QUANT_ERR_SCALE_VALUE, the one error found in the data) be the
   answer; so under on_error partial a call that writes anything must have
   valid arguments. */
static verdict model_choose(const fcase *c, float *mn, float *mx, int64_t *g, uint64_t *cells, int *ranges,
                            int *args_fail)
{
    verdict v = { 0, 0 };
    const int fused = c->op == 5;
    const quant_attrs *A = c->attrs_null ? NULL : &c->a;
    const quant_tensor *src = c->src_tnull ? NULL : &c->src, *dst = fused && !c->dst_tnull ? &c->dst : NULL;
    const quant_tensor *sc = c->sc_tnull ? NULL : &c->sc, *zp = c->zp_tnull ? NULL : &c->zp;
    const long long scheme = c->scheme;
    const int sch_ok = scheme >= 0 && scheme <= QUANT_NVFP4, sym = scheme == 1, mxs = is_mx_scheme(scheme);
    const quant_dtype qdt = fused ? (dst ? dst->dtype : QUANT_UNDEF) : c->qdt;
    const int q_ok = fused && !dst ? -1 : dstset(0, qdt);           /* -1: no qdt (dst NULL) */
    const long long qtype = A ? (long long)A->qtype : 0, rounding = A ? (long long)A->rounding : 0;
    const long long f8o = A ? (long long)A->f8_overflow : 0, oe = A ? (long long)A->on_error : 0;
    const float ts = A ? A->tensor_scale : 0.0f;
    const int64_t axis = A ? A->axis : 1;
    int64_t C = 0;
    int qt_ok, per_ch, pg, c_ok = 0;
    shape_info ss, ds, scs, zs;
    grid_info G;
    size_t i;
    int d;

    memset(&ss, 0, sizeof ss);
    ds = scs = zs = ss;
    memset(&G, 0, sizeof G);
    *ranges = 0;
    *cells = 0;
    /* NULL structs: zps may be NULL for symmetric and the block-scale schemes */
    if (!src || !sc || (fused && !dst)) row(&v, QUANT_ERR_NULL, 1);
    if (!zp && !sym && !mxs) row(&v, QUANT_ERR_NULL, sch_ok);
    if (!sch_ok) row(&v, QUANT_ERR_ATTR, 1);
    /* SPEC section 7.1: tensor_scale is NVFP4's global scale, a finite
       normal positive float; the MX schemes take none (QUANT_ERR_ATTR),
       nor do the older ones (quant.h's doc block says so; SPEC is silent) */
    if (ts_set(ts)) {
        if (scheme != QUANT_NVFP4) row(&v, QUANT_ERR_ATTR, 1);
        if (!ts_good(ts)) row(&v, QUANT_ERR_SCALE_VALUE, scheme == QUANT_NVFP4);
    }
    /* attribute values (NULL attrs: the defaults) */
    if (rounding < 0 || rounding > 3) row(&v, QUANT_ERR_ATTR, 1);
    if (f8o < 0 || f8o > 1) row(&v, QUANT_ERR_ATTR, 1);
    if (!on_error_ok(oe)) row(&v, QUANT_ERR_ATTR, 1);
    qt_ok = qtype >= 0 && qtype <= 2;
    if (!qt_ok) row(&v, QUANT_ERR_QTYPE, 1);
    per_ch = qtype == 1;
    pg = qtype == 2;
    /* dtypes: a float src, a quantized qdt; f8 symmetric or MX only, f4 the
       block-scale schemes only, MX e4m3/e5m2/f4_e2m1/s8, NVFP4 f4_e2m1; s16
       none (SPEC section 7.1 names no scheme for it) */
    if (src && !is_float_t(src->dtype)) row(&v, QUANT_ERR_DTYPE, 1);
    if (q_ok == 0) row(&v, QUANT_ERR_DTYPE, 1);
    if (q_ok == 1 && qdt == QUANT_S16) row(&v, QUANT_ERR_DTYPE, 1);
    if (q_ok == 1 && sch_ok && !scheme_takes(scheme, qdt)) row(&v, QUANT_ERR_DTYPE, 1);
    if (q_ok == 1 && !sch_ok && (is_f8(qdt) || is_f4(qdt) || is_2bit(qdt))) row(&v, QUANT_ERR_DTYPE, 0);
    /* shapes */
    if (src) {
        ss = shape_of(src, esize(src->dtype));
        if (!ss.rank_ok) row(&v, QUANT_ERR_RANK, 1);
        else if (ss.neg || ss.over) row(&v, QUANT_ERR_SHAPE, 1);
        else if (!is_float_t(src->dtype) && shape_of(src, 4).over) row(&v, QUANT_ERR_SHAPE, 0);
        data_rows(&v, src, &ss, is_float_t(src->dtype));
    }
    if (dst) {
        ds = shape_of(dst, esize(dst->dtype));
        if (!ds.rank_ok) row(&v, QUANT_ERR_RANK, 1);
        else if (ds.neg || ds.over) row(&v, QUANT_ERR_SHAPE, 1);
        else if (!dstset(0, dst->dtype) && shape_of(dst, 4).over) row(&v, QUANT_ERR_SHAPE, 0);
        data_rows(&v, dst, &ds, dstset(0, dst->dtype));
        if (src) {
            if (src->rank != dst->rank) row(&v, QUANT_ERR_SHAPE, 1);
            else
                for (i = 0; ss.rank_ok && i < (size_t)src->rank; ++i)
                    if (src->dims[i] != dst->dims[i]) row(&v, QUANT_ERR_SHAPE, 1);
        }
    }
    /* the channel axis, the group shape */
    if (qt_ok && per_ch && src) {
        if (!ss.rank_ok) row(&v, QUANT_ERR_AXIS, 0);
        else if (src->rank == 0 || axis < -(int64_t)src->rank || axis >= (int64_t)src->rank)
            row(&v, QUANT_ERR_AXIS, 1);
        else {
            c_ok = 1;
            C = src->dims[axis < 0 ? axis + src->rank : axis];
        }
    }
    if (pg) {
        if (!src || !ss.rank_ok) row(&v, QUANT_ERR_ATTR, 0);
        else {
            for (i = 0; i < QUANT_MAX_RANK; ++i)
                if ((int)i < src->rank ? A->group_shape[i] < 1 : A->group_shape[i] != 0) row(&v, QUANT_ERR_ATTR, 1);
            G = grid_of(src, &ss, A->group_shape);
        }
    }
    /* scales: f32, shaped as the dynamic ops take them; the block-scale
       schemes' own dtype too (MX e8m0, NVFP4 f8_e4m3) */
    if (sc) {
        const quant_dtype own = scheme == QUANT_NVFP4 ? QUANT_F8_E4M3 : mxs ? QUANT_E8M0 : QUANT_F32;
        const int st_ok = sc->dtype == QUANT_F32 || sc->dtype == own;
        scs = shape_of(sc, esize(sc->dtype));
        if (!st_ok) row(&v, QUANT_ERR_SCALES, sch_ok || (sc->dtype != QUANT_E8M0 && sc->dtype != QUANT_F8_E4M3));
        if (pg) grid_rows(&v, sc, &scs, QUANT_ERR_SCALES, &G, 0);
        else count_rows(&v, sc, &scs, QUANT_ERR_SCALES, qt_ok, per_ch, c_ok, C, 0);
        data_rows(&v, sc, &scs, st_ok);
    }
    /* zero points: s32/s8/u8 of the scales' shape (the same count; the same
       dims, arguably), of a type that holds the scheme's zero points; none
       with the block-scale schemes */
    if (zp) {
        const int zt_ok = zp->dtype == QUANT_S32 || zp->dtype == QUANT_S8 || zp->dtype == QUANT_U8;
        zs = shape_of(zp, esize(zp->dtype));
        if (mxs) row(&v, QUANT_ERR_ZPS, 1);
        if (!zt_ok) row(&v, QUANT_ERR_ZPS, 1);
        else if (!sym && !mxs && !zp_fits(zp->dtype, qdt, scheme)) row(&v, QUANT_ERR_ZPS, sch_ok && q_ok == 1);
        if (pg) grid_rows(&v, zp, &zs, QUANT_ERR_ZPS, &G, 0);
        else count_rows(&v, zp, &zs, QUANT_ERR_ZPS, qt_ok, per_ch, c_ok, C, 0);
        if (sc && !same_shape(sc, zp)) row(&v, QUANT_ERR_ZPS, 0);
        data_rows(&v, zp, &zs, zt_ok);
    }
    /* overlaps: scales and zero points apart from src and from each other,
       dst apart from all three; definite where the sizes are known and the
       memory held */
    {
        const uint64_t sn = ss.known ? nbytes(src->dtype, ss.count) : c->bytes[B_SRC];
        const uint64_t cn = scs.known ? nbytes(sc->dtype, scs.count) : c->bytes[B_SC];
        const uint64_t zn = zs.known ? nbytes(zp->dtype, zs.count) : c->bytes[B_ZP];
        const int sk = src && ss.known && !c->unheld[B_SRC], ck = sc && scs.known && !c->unheld[B_SC];
        const int zk = zp && zs.known && !c->unheld[B_ZP];
        const void *sd = src ? src->data : NULL, *cd = sc ? sc->data : NULL, *zd = zp ? zp->data : NULL;
        if (overlap(cd, cn, sd, sn)) row(&v, QUANT_ERR_OVERLAP, ck && sk);
        if (overlap(zd, zn, sd, sn)) row(&v, QUANT_ERR_OVERLAP, zk && sk);
        if (overlap(zd, zn, cd, cn)) row(&v, QUANT_ERR_OVERLAP, zk && ck);
        if (dst && dst->data) {
            const uint64_t dn = ds.known ? nbytes(dst->dtype, ds.count) : c->bytes[B_DST];
            const int dk = ds.known && !c->unheld[B_DST];
            if (overlap(dst->data, dn, sd, sn)) row(&v, QUANT_ERR_OVERLAP, dk && sk);
            if (overlap(dst->data, dn, cd, cn)) row(&v, QUANT_ERR_OVERLAP, dk && ck);
            if (overlap(dst->data, dn, zd, zn)) row(&v, QUANT_ERR_OVERLAP, dk && zk);
        }
    }
    /* the ranges: an infinite one is QUANT_ERR_SCALE_VALUE, unless an
       argument is certainly wrong (that error comes first) */
    *args_fail = v.fail;
    if (src && src->data && ss.known && ss.count > 0 && !c->unheld[B_SRC] && is_float_t(src->dtype) && sch_ok &&
        qt_ok && (!per_ch || c_ok) && (!pg || G.known) && !misaligned(src->data, align_of(src->dtype))) {
        uint64_t n = 1;
        for (d = 0; d < src->rank; ++d) {
            g[d] = pg ? A->group_shape[d] : src->dims[d];
            if (per_ch && d == (axis < 0 ? axis + src->rank : axis)) g[d] = 1;
            n *= (uint64_t)((src->dims[d] - 1) / g[d] + 1);
        }
        *cells = n;
        for (i = 0; i < n; ++i) { mn[i] = INFINITY; mx[i] = -INFINITY; }
        for (i = 0; i < ss.count; ++i) {
            const float x = load_float(src->dtype, (const uint8_t *)src->data, i);
            const uint64_t k = grid_index(src, g, i);
            if (isnan(x)) continue;
            if (x < mn[k]) mn[k] = x;
            if (x > mx[k]) mx[k] = x;
        }
        for (i = 0; i < n; ++i) {
            float s, m;
            int64_t z;
            const float amax = amax_of(mn[i], mx[i]);
            if (mxs ? isinf(amax) || (fused && scheme == QUANT_NVFP4 && ts_set(ts) && ts_good(ts) &&
                                      nvfp4_fold_bad(o_mul(o_f8_decode((uint8_t)o_nvfp4_code(amax, ts, (int)rounding), 0), ts)))
                    : !o_qparams(mn[i], mx[i], (int)scheme, -128, 127, 0, &s, &z, &m)) {
                if (!*args_fail) row(&v, QUANT_ERR_SCALE_VALUE, 1);
                break;
            }
        }
        *ranges = 1;
    }
    return v;
}

static quant_status call_choose(int op, int lib, const quant_tensor *src, quant_tensor *dst, quant_dtype qdt,
                                long long scheme, const quant_attrs *a, quant_tensor *sc, quant_tensor *zp)
{
    const quant_scheme s = (quant_scheme)(int)scheme;
#if FUZZ_SCALAR_COPY
    if (!lib) return op == 4 ? ref_choose_qparams(src, qdt, s, a, sc, zp) : ref_choose_and_quantize(src, dst, s, a, sc, zp);
#else
    (void)lib;
#endif
    return op == 4 ? quant_choose_qparams(src, qdt, s, a, sc, zp) : quant_choose_and_quantize(src, dst, s, a, sc, zp);
}

/* the expected outputs of a successful call, written into exp (copies of
   the snapshots): scales, zero points and (fused) dst, of every grid entry
   whose range is finite (good); an entry's whose is not stay as they were
   (what on_error partial may leave written after an infinite range: each
   element as it was or as here). Returns whether every entry is good. */
static int oracle_choose(const fcase *c, const mem *m, uint8_t **exp, const float *mn, const float *mx,
                         const int64_t *g, uint64_t cells, float *os, float *om, int64_t *oz, uint8_t *good)
{
    const int fused = c->op == 5, mxs = is_mx_scheme(c->scheme);
    const quant_dtype qdt = fused ? c->dst.dtype : c->qdt;
    const quant_attrs *A = c->attrs_null ? NULL : &c->a;
    const int rounding = A ? (int)A->rounding : 0, inf_nan = A ? A->f8_overflow == QUANT_F8_INF_NAN : 0;
    const float ts = A ? A->tensor_scale : 0.0f;
    const uint8_t *src = m->snap[m->buf_blk[B_SRC]] + m->buf_off[B_SRC];
    const uint64_t n = shape_of(&c->src, 4).count;
    const unsigned per = per_byte(qdt), bits = 8 / per, mask = (1u << bits) - 1u;
    int64_t lo, hi;
    uint64_t i;
    int all = 1;
    o_qrange(qdt, &lo, &hi);
    for (i = 0; i < cells; ++i) {
        uint8_t *sb = exp[m->buf_blk[B_SC]] + m->buf_off[B_SC];
        if (mxs) {
            /* SPEC section 7.1: an e8m0 (MX) or f8_e4m3 (NVFP4) code from the
               entry's amax, written as the code or as its f32 value; the fused
               quantize takes the value, times tensor_scale for NVFP4 */
            const float amax = amax_of(mn[i], mx[i]);
            const int type = mx_type(qdt);
            int code;
            float val;
            if (isinf(amax)) { good[i] = 0; all = 0; continue; }
            code = c->scheme == QUANT_MX ? o_mx_code(amax, type) : c->scheme == QUANT_MX_RCEIL ? o_mx_rceil_code(amax, type)
                 : o_nvfp4_code(amax, ts_set(ts) ? ts : 1.0f, rounding);
            val = c->scheme == QUANT_NVFP4 ? o_f8_decode((uint8_t)code, 0) : o_e8m0_value((uint8_t)code);
            if (c->sc.dtype == QUANT_F32) memcpy(sb + 4 * i, &val, 4);
            else sb[i] = (uint8_t)code;
            os[i] = folded(val, ts);
            oz[i] = 0;
            om[i] = 1.0f;
            /* a folded scale that fails section 4: the call fails (under
               on_error partial its scale may be written, its elements not) */
            good[i] = (uint8_t)!(fused && c->scheme == QUANT_NVFP4 && nvfp4_fold_bad(os[i]));
            if (!good[i]) all = 0;
            continue;
        }
        good[i] = (uint8_t)o_qparams(mn[i], mx[i], (int)c->scheme, lo, hi, qdt == QUANT_U8 || qdt == QUANT_U4 || qdt == QUANT_U2,
                                     &os[i], &oz[i], &om[i]);
        if (!good[i]) { all = 0; continue; }
        memcpy(sb + 4 * i, &os[i], 4);
        if (!c->zp_tnull) {
            uint8_t *zq = exp[m->buf_blk[B_ZP]] + m->buf_off[B_ZP];
            if (c->zp.dtype == QUANT_S32) { const int32_t z = (int32_t)oz[i]; memcpy(zq + 4 * i, &z, 4); }
            else zq[i] = (uint8_t)oz[i];
        }
    }
    if (!fused) return all;
    {
        uint8_t *dp = exp[m->buf_blk[B_DST]] + m->buf_off[B_DST];
        for (i = 0; i < n; ++i) {
            const uint64_t k = grid_index(&c->src, g, i);
            const float x = load_float(c->src.dtype, src, i);
            unsigned q;
            if (!good[k]) continue;
            if (mxs) q = o_mx_quant(x, os[k], mx_type(qdt), rounding, inf_nan);
            else if (is_f8(qdt)) q = o_quant_f8(x, os[k], rounding, qdt == QUANT_F8_E5M2, inf_nan);
            else {
                int64_t qi;
                if (c->scheme == 2) {
                    const float y = o_mul(x, om[k]);
                    qi = isnan(y) ? o_clamp((double)oz[k], lo, hi) : isinf(y) ? (y > 0 ? hi : lo)
                       : o_clamp(nearbyint((double)y) + (double)oz[k], lo, hi);
                } else qi = o_quant_int(x, os[k], oz[k], rounding, lo, hi);
                q = (unsigned)qi & (per > 1 ? mask : 255u);
            }
            if (per > 1) {
                const unsigned sh = bits * (unsigned)(i % per);
                dp[i / per] = (uint8_t)((dp[i / per] & ~(mask << sh)) | (q & mask) << sh);
            } else dp[i] = (uint8_t)q;
        }
        /* the bits past the last element of a packed dst 0 */
        if (per > 1 && n % per && good[grid_index(&c->src, g, n - 1)])
            dp[n / per] &= (uint8_t)((1u << (bits * (unsigned)(n % per))) - 1u);
    }
    return all;
}

/* After an infinite range under on_error partial: each element of the
   outputs (scales, zero points, dst; a packed dst's elements one by one) as
   it was or as the oracle has it (exp: see oracle_choose), every other
   byte as it was. Returns whether anything was written. */
static int check_partial(const fcase *c, const mem *m, uint8_t *const *exp, const char *who)
{
    static const int outs[3] = { B_SC, B_ZP, B_DST };
    uint8_t *cov[NBUF];
    char msg[512];
    int b, k, written = 0;
    memset(cov, 0, sizeof cov);
    for (b = 0; b < NBUF; ++b)
        if (m->blk[b]) cov[b] = (uint8_t *)calloc(m->size[b] ? m->size[b] : 1, 1);
    for (k = 0; k < 3; ++k) {
        const int x = outs[k], bl = m->buf_blk[x];
        const quant_dtype t = x == B_SC ? c->sc.dtype : x == B_ZP ? c->zp.dtype : c->dst.dtype;
        const uint8_t *got, *was, *want;
        size_t i, nb = c->bytes[x];
        if (bl < 0 || (x == B_DST && c->op != 5) || (x == B_ZP && c->zp_tnull)) continue;
        got = m->blk[bl] + m->buf_off[x];
        was = m->snap[bl] + m->buf_off[x];
        want = exp[bl] + m->buf_off[x];
        memset(cov[bl] + m->buf_off[x], 1, nb);
        if (is_packed(t)) {
            for (i = 0; i < per_byte(t) * nb; ++i) {
                const unsigned gn = packed_get(t, got, i), wn = packed_get(t, was, i), on = packed_get(t, want, i);
                if (gn == wn) continue;
                written = 1;
                if (gn != on) {
                    snprintf(msg, sizeof msg, "%s, on_error partial after an infinite range: %s element %lu (%u bits) is "
                             "%u, neither as it was (%u) nor the oracle's (%u)", who, buf_name[x], (unsigned long)i,
                             8 / per_byte(t), gn, wn, on);
                    fail_case(c, msg);
                }
            }
        } else {
            const size_t es = esize(t);
            for (i = 0; i + es <= nb; i += es) {
                uint32_t gv = 0, wv = 0, ov = 0;
                if (!memcmp(got + i, was + i, es)) continue;
                written = 1;
                if (!memcmp(got + i, want + i, es)) continue;
                memcpy(&gv, got + i, es);
                memcpy(&wv, was + i, es);
                memcpy(&ov, want + i, es);
                snprintf(msg, sizeof msg, "%s, on_error partial after an infinite range: %s element %lu is 0x%lx, "
                         "neither as it was (0x%lx) nor the oracle's (0x%lx; as it was: no finite range)", who,
                         buf_name[x], (unsigned long)(i / es), (unsigned long)gv, (unsigned long)wv, (unsigned long)ov);
                fail_case(c, msg);
            }
        }
    }
    for (b = 0; b < NBUF; ++b) {
        size_t i;
        for (i = 0; m->blk[b] && i < m->size[b]; ++i)
            if (!cov[b][i] && m->blk[b][i] != m->snap[b][i]) {
                snprintf(msg, sizeof msg, "%s, on_error partial after an infinite range: byte %lu of the block of %s, "
                         "outside the outputs, changed: 0x%02x -> 0x%02x", who, (unsigned long)i, buf_name[b],
                         m->snap[b][i], m->blk[b][i]);
                fail_case(c, msg);
            }
        free(cov[b]);
    }
    return written;
}

/* a source element for the choose pair: pick_f32, or one of a palette of
   four (constant, all-NaN, all-zero entries) */
static float choose_value(reader *r, size_t i, const float *pal, int use_pal)
{
    if (use_pal) {
        const unsigned b = rd8(r);
        return pal[(r->n || b ? b : (unsigned)i) & 3];
    }
    return pick_f32(r, i);
}

static int choose_case(reader *r, unsigned opb)
{
    static float mn[CHOOSE_CAP], mx[CHOOSE_CAP], os[CHOOSE_CAP], om[CHOOSE_CAP];
    static int64_t oz[CHOOSE_CAP];
    static uint8_t good[CHOOSE_CAP];
    fcase c;
    mem m;
    int kind[NBUF], zero_null[NBUF], ranges = 0, args_fail = 0, all_good = 0, have_exp = 0, run, fused, k, b, per_ch_gen, c_ok_gen = 0;
    quant_on_error drawn;
    unsigned mis[NBUF], ov_delta;
    int64_t C_gen = 0, right, n_sc, n_zp, g[QUANT_MAX_RANK];
    uint64_t cells = 0;
    grid_info G_gen;
    quant_tensor *t_src, *t_dst, *t_sc, *t_zp, keep_t[4];
    quant_attrs *t_a, keep_a;
    uint8_t *exp[NBUF];
    verdict v;
    quant_status st = QUANT_OK;

    memset(&c, 0, sizeof c);
    memset(&m, 0, sizeof m);
    memset(exp, 0, sizeof exp);
    c.op = 4 + (int)(opb & 1);
    fused = c.op == 5;
    {
        const unsigned f = rd8(r);
        c.attrs_null = f >= 200 && f < 236;                           /* the defaults: per tensor */
        c.sc_tnull = f == 252 || f == 253;
        c.dst_tnull = fused && f == 254;
        c.src_tnull = f == 255;
    }
    /* src: rank 1..4 mostly; dims below the rank from the input, past it junk */
    {
        const unsigned rb = rd8(r), junk = rd8(r);
        c.src.rank = rb < 200 ? 1 + (int)(rb % 4) : (int)((rb + 3) % 15) - 1;
        for (k = 0; k < QUANT_MAX_RANK; ++k)
            c.src.dims[k] = k < c.src.rank ? pick_dim(r) : (junk & 1) ? -1 - k : 0;
    }
    {
        static const quant_dtype qd[] = { QUANT_S8, QUANT_U8, QUANT_F8_E4M3, QUANT_F8_E5M2, QUANT_S4, QUANT_U4 };
        /* SPEC section 7.1's from t in [208, 240), the rest as before them */
        static const quant_dtype qd71[] = { QUANT_S2, QUANT_U2, QUANT_F4_E2M1, QUANT_S2, QUANT_U2, QUANT_F4_E2M1,
                                            QUANT_S16, QUANT_F4_E2M1 };
        static const quant_dtype fl[] = { QUANT_F32, QUANT_F16, QUANT_BF16, QUANT_F32 };
        const unsigned t = rd8(r), w = rd8(r);
        c.src.dtype = w < 240 ? fl[w % 4] : wild_dtypes[w % N(wild_dtypes)];
        c.qdt = t < 208 ? qd[t % N(qd)] : t < 240 ? qd71[t % N(qd71)] : wild_dtypes[t % N(wild_dtypes)];
    }
    c.dst = c.src;
    c.dst.dtype = c.qdt;
    if (fused) {
        const unsigned b2 = rd8(r);
        if (b2 >= 236 && b2 < 244) {                                  /* dims differ */
            int64_t *d = &c.dst.dims[rd8(r) % QUANT_MAX_RANK];
            const unsigned how = rd8(r) % 3;
            *d = how == 0 ? (*d == INT64_MAX ? 0 : *d + 1) : how == 1 ? 0 : -1;
        } else if (b2 >= 244 && b2 < 250) c.dst.rank = (int)(rd8(r) % 15) - 1;
        else if (b2 >= 250) {                                          /* dims past the rank: ignored */
            for (k = c.dst.rank < 0 ? 0 : c.dst.rank; k < QUANT_MAX_RANK; ++k) c.dst.dims[k] = -3;
        }
    }
    {
        /* the block-scale schemes (SPEC section 7.1) from sb in [216, 240), or
           below 216 for an f4_e2m1 qdt, which the older ones do not take */
        static const long long wild_s[] = { QUANT_NVFP4 + 1, -1, 1000, 0x7FFFFFFF };
        const unsigned sb = rd8(r);
        c.scheme = sb >= 240 ? wild_s[sb % 4] : (is_f4(c.qdt) ? sb < 216 : sb >= 216) ? QUANT_MX + (long long)(sb % 3)
                 : is_f8(c.qdt) && sb < 120 ? 1 : (long long)(sb % 3);
    }
    /* attributes, as for the other ops */
    c.a = quant_attrs_default();
    {
        const unsigned q = rd8(r), ax = rd8(r), ro = rd8(r), fo = rd8(r);
        static const int wild_q[] = { 4, -1, 3, 1000 };
        static const int64_t wild_axis[] = { INT64_MIN, INT64_MAX, 12, -12, 13, -13, ((int64_t)1 << 32) + 1,
                                             -((int64_t)1 << 32), (int64_t)1 << 31 };
        static const int wild_r[] = { 4, -1, 0x7FFFFFFF, 5 };
        static const int wild_f[] = { 2, -1, 0x7FFFFFFF };
        c.a.qtype = (quant_qtype)(q < 90 ? 0 : q < 170 ? 1 : q < 236 ? 2 : wild_q[q % 4]);
        c.a.axis = ax < 216 ? (int64_t)(ax % 9) - 4 : wild_axis[ax % N(wild_axis)];
        c.a.rounding = (quant_rounding)(ro < 240 ? (int)(ro % 4) : wild_r[ro % 4]);
        c.a.f8_overflow = (quant_f8_overflow)(fo < 240 ? (int)(fo % 2) : wild_f[fo % 3]);
    }
    right = pick_grid(r, &c, CHOOSE_CAP, &per_ch_gen, &c_ok_gen, &C_gen, &G_gen);
    /* scales and zero points: counts, shapes, dtypes */
    {
        const unsigned ds = rd8(r), zm = rd8(r), dz = rd8(r);
        static const quant_dtype zt[] = { QUANT_S32, QUANT_S8, QUANT_U8 };
        static const quant_dtype zt71[] = { QUANT_S2, QUANT_U2, QUANT_S16 };
        const grid_info *gi = G_gen.known ? &G_gen : NULL;
        const int mxs = is_mx_scheme(c.scheme);
        n_sc = pick_count(r, right, c_ok_gen, C_gen, 1);
        pick_aux_shape(r, &c.sc, n_sc, !per_ch_gen, gi);
        c.sc.dtype = ds < 220 ? QUANT_F32 : ds < 228 ? QUANT_F16 : ds < 236 ? QUANT_BF16 : wild_dtypes[ds % N(wild_dtypes)];
        if (mxs && ds < 140) c.sc.dtype = c.scheme == QUANT_NVFP4 ? QUANT_F8_E4M3 : QUANT_E8M0;  /* the scheme's own */
        c.zp_tnull = zm < (mxs ? 200u : 64u);                          /* the block-scale schemes take none */
        if (zm < 208) c.zp = c.sc;                                     /* the scales' shape */
        else {
            n_zp = zm < 232 ? n_sc : pick_count(r, right, c_ok_gen, C_gen, 1);
            pick_aux_shape(r, &c.zp, n_zp, !per_ch_gen, gi);
        }
        /* (s2, u2 and s16 zero points, which the choose pair does not take, from dz in [220, 231)) */
        c.zp.dtype = dz < 220 ? zt[dz % N(zt)] : dz < 231 ? zt71[dz % N(zt71)] : wild_dtypes[dz % N(wild_dtypes)];
    }
    /* sizes: a valid tensor too large to hold only where the call must fail */
    {
        int ok = 1;
        if (!tensor_bytes(&c.src, CHOOSE_CAP, &c.bytes[B_SRC], &c.unheld[B_SRC])) c.unheld[B_SRC] = 2;
        if (fused && !tensor_bytes(&c.dst, CHOOSE_CAP, &c.bytes[B_DST], &c.unheld[B_DST])) c.unheld[B_DST] = 2;
        ok &= tensor_bytes(&c.sc, CHOOSE_CAP, &c.bytes[B_SC], &c.unheld[B_SC]);
        ok &= tensor_bytes(&c.zp, CHOOSE_CAP, &c.bytes[B_ZP], &c.unheld[B_ZP]);
        if (c.zp_tnull) c.bytes[B_ZP] = 0, c.unheld[B_ZP] = 0;
        if (c.sc_tnull) c.bytes[B_SC] = 0, c.unheld[B_SC] = 0;
        if (!ok) { STAT(++stat_skipped); return 0; }
    }
    /* attrs' lists, which the choose pair ignores */
    {
        const unsigned xs = rd8(r), xz = rd8(r);
        c.bytes[B_XS] = (xs & 1) ? 0 : (size_t)(xs >> 1) % 4 * 4;
        c.a.n_scales = (xs & 1) ? (size_t)(xs >> 1) : c.bytes[B_XS] / 4;
        c.bytes[B_XZ] = (xz & 1) ? 0 : (size_t)(xz >> 1) % 4 * 8;
        c.a.n_zps = (xz & 1) ? (size_t)(xz >> 1) : c.bytes[B_XZ] / 8;
    }
    /* pointers: own, NULL or misaligned; a pair of buffers overlapping */
    for (b = 0; b < NBUF; ++b) {
        const unsigned p = b < 4 ? rd8(r) : 0;
        kind[b] = p < 220 ? K_OWN : p < 234 ? K_NULL : K_MIS;
        mis[b] = kind[b] == K_MIS ? 1 + p % 3 : 0;
        zero_null[b] = p & 1;
    }
    if (!fused) kind[B_DST] = K_NULL;
    if (c.sc_tnull) kind[B_SC] = K_NULL;
    if (c.zp_tnull) kind[B_ZP] = K_NULL;
    kind[B_XS] = c.a.n_scales && !c.bytes[B_XS] ? K_NULL : K_OWN;
    kind[B_XZ] = c.a.n_zps && !c.bytes[B_XZ] ? K_NULL : K_OWN;
    {
        static const int modes[2][8] = {
            { OV_SRC_SC, OV_ZP_SRC, OV_ZP_SC, OV_SRC_SC, OV_ZP_SRC, OV_ZP_SC, OV_SRC_SC, OV_ZP_SC },
            { OV_SRC_SC, OV_ZP_SRC, OV_ZP_SC, OV_SRC, OV_SC, OV_ZP, OV_SAME, OV_XS }
        };
        const unsigned o = rd8(r);
        ov_delta = rd16(r);
        c.ov = o < 192 ? OV_NONE : modes[fused][o % 8];
    }
    alloc_bufs(&c, &m, kind, mis, zero_null, ov_delta);
    /* contents: a pattern (the outputs poisoned), then src from the input */
    for (b = 0; b < NBUF; ++b) {
        size_t i;
        for (i = 0; i < m.size[b]; ++i) m.blk[b][i] = (uint8_t)(0xA5 ^ (i * 7) ^ ((size_t)b << 5));
    }
    {
        uint8_t *p;
        size_t i;
        if ((p = (uint8_t *)c.ptr[B_XS]) != NULL)
            for (i = 0; i + 4 <= c.bytes[B_XS]; i += 4) { const uint32_t u = pick_scale_bits(r); memcpy(p + i, &u, 4); }
        if ((p = (uint8_t *)c.ptr[B_SRC]) != NULL) {
            const size_t nb = c.bytes[B_SRC];
            const unsigned pm = rd8(r);
            float pal[4];
            for (k = 0; k < 4; ++k) pal[k] = pm >= 192 ? pick_f32(r, (size_t)k) : 0.0f;
            if (c.src.dtype == QUANT_F32)
                for (i = 0; i + 4 <= nb; i += 4) {
                    const float x = choose_value(r, i / 4, pal, pm >= 192);
                    memcpy(p + i, &x, 4);
                }
            else if (is_h16(c.src.dtype)) {
                const int bf = c.src.dtype == QUANT_BF16;
                uint16_t hp[4];
                for (k = 0; k < 4; ++k) hp[k] = bf ? o_bf16_code(pal[k]) : o_f16_code(pal[k]);
                for (i = 0; i + 2 <= nb; i += 2) {
                    uint16_t h;
                    if (pm >= 192) { const unsigned bb = rd8(r); h = hp[(r->n || bb ? bb : (unsigned)(i / 2)) & 3]; }
                    else h = pick_h16(r, i / 2, bf);
                    memcpy(p + i, &h, 2);
                }
            } else for (i = 0; i < nb; ++i) p[i] = r->n ? (uint8_t)rd8(r) : (uint8_t)(i * 37 + 11);
        }
    }
    c.src.data = c.ptr[B_SRC];
    c.dst.data = c.ptr[B_DST];
    c.sc.data = c.ptr[B_SC];
    c.zp.data = c.ptr[B_ZP];
    c.a.scales = (const float *)c.ptr[B_XS];
    c.a.zps = (const int64_t *)c.ptr[B_XZ];
    c.a.on_error = pick_on_error(r);
    c.a.tensor_scale = pick_tensor_scale(r);                          /* NVFP4's global scale */

    v = model_choose(&c, mn, mx, g, &cells, &ranges, &args_fail);
    if (!v.fail && (c.unheld[B_SRC] || (fused && c.unheld[B_DST]) || c.unheld[B_SC] || c.unheld[B_ZP])) {
        STAT(++stat_skipped);
        mem_free(&m);
        return 0;
    }
    for (b = 0; b < NBUF; ++b) {
        if (!m.blk[b]) continue;
        m.snap[b] = (uint8_t *)xmalloc(m.size[b] ? m.size[b] : 1);
        memcpy(m.snap[b], m.blk[b], m.size[b]);
    }
    t_src = c.src_tnull ? NULL : (quant_tensor *)xmalloc(sizeof *t_src);
    t_dst = !fused || c.dst_tnull ? NULL : (quant_tensor *)xmalloc(sizeof *t_dst);
    t_sc = c.sc_tnull ? NULL : (quant_tensor *)xmalloc(sizeof *t_sc);
    t_zp = c.zp_tnull ? NULL : (quant_tensor *)xmalloc(sizeof *t_zp);
    t_a = c.attrs_null ? NULL : (quant_attrs *)xmalloc(sizeof *t_a);
    if (t_src) *t_src = c.src;
    if (t_dst) *t_dst = c.dst;
    if (t_sc) *t_sc = c.sc;
    if (t_zp) *t_zp = c.zp;
    keep_t[0] = c.src; keep_t[1] = c.dst; keep_t[2] = c.sc; keep_t[3] = c.zp;
    drawn = c.a.on_error;

    STAT(if (getenv("FUZZ_VERBOSE")) { dump_case(&c); fprintf(stderr, "  model set 0x%x fail %d\n", v.set, v.fail); });
    /* Four calls, each from the memory as it was: the library, then the
       scalar copy, each with the drawn on_error and (attrs given, on_error
       valid) the other of untouched and partial; all must return the same
       status (the scalar copy's batches are of 2 entries: a grid of 3 has
       partial write some before an infinite range). Each is checked
       on its own against the model and the oracle: on success every output
       as the oracle says (so partial's results are untouched's, bit for
       bit), on an error nothing written, but after an infinite range (no
       argument wrong) under partial, where each output element may be as
       it was or as the oracle says (the two copies' batches differ in size:
       their bytes are not compared then). */
    for (run = 0; run < 4; ++run) {
        static const char *const whos[4] = { "library", "library, on_error flipped", "scalar copy",
                                             "scalar copy, on_error flipped" };
        const int lib = run < 2;
        const char *who = whos[run];
        quant_on_error oe = drawn;
        int partial, relaxed;
        quant_status s2;
        char msg[512];
        if (run & 1) {
            if (c.attrs_null || !on_error_ok((long long)drawn)) continue;
            oe = drawn == QUANT_ON_ERROR_PARTIAL ? QUANT_ON_ERROR_UNTOUCHED : QUANT_ON_ERROR_PARTIAL;
        }
#if !FUZZ_SCALAR_COPY
        if (run == 2) break;
#endif
        c.a.on_error = oe;
        if (t_a) *t_a = c.a;
        keep_a = c.a;
        if (run > 0)
            for (b = 0; b < NBUF; ++b)
                if (m.blk[b]) memcpy(m.blk[b], m.snap[b], m.size[b]);
        s2 = call_choose(c.op, lib, t_src, t_dst, c.qdt, c.scheme, t_a, t_sc, t_zp);
        {
            const int acceptable = v.fail ? s2 != QUANT_OK && ((v.set >> (unsigned)s2) & 1u)
                                          : s2 == QUANT_OK || ((v.set >> (unsigned)s2) & 1u);
            if ((unsigned)s2 >= 32 || !acceptable) {
                int sx, len;
                len = snprintf(msg, sizeof msg, "%s: status %d (%s); the model %s", who, (int)s2, quant_status_str(s2),
                               v.fail ? "says it must fail with one of:" : "says QUANT_OK, or one of:");
                for (sx = 1; sx < 32 && len > 0 && (size_t)len < sizeof msg; ++sx)
                    if ((v.set >> sx) & 1u) len += snprintf(msg + len, sizeof msg - (size_t)len, " %d (%s)", sx,
                                                            quant_status_str((quant_status)sx));
                fail_case(&c, msg);
            }
        }
        if ((t_src && memcmp(t_src, &keep_t[0], sizeof *t_src)) || (t_dst && memcmp(t_dst, &keep_t[1], sizeof *t_dst)) ||
            (t_sc && memcmp(t_sc, &keep_t[2], sizeof *t_sc)) || (t_zp && memcmp(t_zp, &keep_t[3], sizeof *t_zp)) ||
            (t_a && attrs_differ(t_a, &keep_a))) {
            snprintf(msg, sizeof msg, "%s: a tensor or attribute struct changed", who);
            fail_case(&c, msg);
        }
        if (run == 0) st = s2;
        else if (s2 != st) {
            snprintf(msg, sizeof msg, "%s returns status %d, the library with on_error %d %d", who, (int)s2, (int)drawn,
                     (int)st);
            fail_case(&c, msg);
        }
        partial = t_a && oe == QUANT_ON_ERROR_PARTIAL;
        /* (a bad tensor_scale is QUANT_ERR_SCALE_VALUE too, but an argument's:
           nothing written) */
        relaxed = partial && s2 == QUANT_ERR_SCALE_VALUE && ts_good(c.a.tensor_scale);
        if (relaxed && (args_fail || !ranges)) fail_case(&c, "QUANT_ERR_SCALE_VALUE under on_error partial with an argument wrong");
        STAT(if (run == 0) {
                 ++stat_status[c.op][(unsigned)st & 15]; stat_expected_fail += (unsigned long)v.fail;
                 ++stat_on_error[c.op][c.attrs_null ? 0 : on_error_ok((long long)drawn) ? (int)drawn : 2];
                 if (!c.attrs_null && (unsigned)c.a.qtype < 3) ++stat_qtype[c.a.qtype][(unsigned)st & 15];
                 if (st == QUANT_OK && ranges) stat_elems[c.op] += (unsigned long)shape_of(&c.src, 4).count;
                 if (st == QUANT_OK && c.scheme >= 0 && c.scheme < 6 && (unsigned)(fused ? c.dst.dtype : c.qdt) < NDT)
                     ++stat_choose_ok[c.scheme][fused ? c.dst.dtype : c.qdt];
             }
             if (getenv("FUZZ_VERBOSE")) fprintf(stderr, "  -> %s, on_error %d: status %d\n", who, (int)oe, (int)s2));
        /* the oracle's outputs, once: on success, and for partial after an infinite range */
        if ((s2 == QUANT_OK || relaxed) && ranges && !have_exp) {
            have_exp = 1;
            for (b = 0; b < NBUF; ++b) {
                if (!m.blk[b]) continue;
                exp[b] = (uint8_t *)xmalloc(m.size[b] ? m.size[b] : 1);
                memcpy(exp[b], m.snap[b], m.size[b]);
            }
            all_good = oracle_choose(&c, &m, exp, mn, mx, g, cells, os, om, oz, good);
        }
        if (s2 == QUANT_OK && ranges && !all_good) fail_case(&c, "the oracle has an infinite range where the model had none");
        if (s2 == QUANT_OK && !ranges && shape_of(&c.src, 4).count != 0)
            fail_case(&c, "QUANT_OK where the model cannot tell the ranges");
        if (relaxed) {
            const int w = check_partial(&c, &m, exp, who);
            STAT(++stat_partial[lib][w]);
            (void)w;
            continue;
        }
        for (b = 0; b < NBUF; ++b) {
            const uint8_t *want = s2 == QUANT_OK && ranges ? exp[b] : m.snap[b];
            size_t i;
            for (i = 0; m.blk[b] && i < m.size[b]; ++i)
                if (m.blk[b][i] != want[i]) {
                    int which = -1, x;
                    for (x = 0; x < NBUF; ++x)
                        if (m.buf_blk[x] == b && i >= m.buf_off[x] && i < m.buf_off[x] + c.bytes[x]) which = x;
                    if (s2 == QUANT_OK && which == B_SC) {
                        const size_t e = (i - m.buf_off[B_SC]) / esize(c.sc.dtype);
                        snprintf(msg, sizeof msg, "%s: scale %lu: oracle %a (as the quantize takes it), library byte %lu "
                                 "0x%02x, expected 0x%02x (entry min %a max %a)", who, (unsigned long)e, (double)os[e],
                                 (unsigned long)i, m.blk[b][i], want[i], (double)mn[e], (double)mx[e]);
                    }
                    else
                        snprintf(msg, sizeof msg, "%s: status %d: byte %lu of the block of %s (inside %s) is 0x%02x, "
                                 "expected 0x%02x (was 0x%02x)", who, (int)s2, (unsigned long)i, buf_name[b],
                                 which >= 0 ? buf_name[which] : "no buffer", m.blk[b][i], want[i], m.snap[b][i]);
                    fail_case(&c, msg);
                }
        }
    }
    for (b = 0; b < NBUF; ++b) free(exp[b]);
    free(t_src);
    free(t_dst);
    free(t_sc);
    free(t_zp);
    free(t_a);
    mem_free(&m);
    return 0;
}

/* ------------------------------------------------------------------ ggml's block formats
   A first byte of 244 (until then one of the four that ran
   quant_choose_qparams) runs a case of SPEC section 7.2: one of the 15
   block dtypes (q4_0 ... nvfp4) as the quantized side of quantize,
   dequantize, the dynamic ops, their plans (quant_prepare, quant_run,
   quant_run_range), or as the qdt of the choose pair.

   The input chooses the op (one-shot or a plan), the block type, the float
   side (f32, f16, bf16; now and then a block type too, a wild dtype, or a
   non-block quantized side with the block type as the float side), the
   shape (whole blocks along the last dim or not, empty, rank 0, wild ranks
   and dims, dst's dims or rank differing), attrs (NULL, qtype, rounding,
   f8_overflow, on_error and tensor_scale, wild values too), the static
   lists (a scale or zero point given, a pointer with a count of 0, NULL
   with a count), the dynamic ops' scales and zps tensors, src and dst
   strides (dense written out, all zero, not dense, negative), NULL
   structs and data, misaligned data and dst overlapping or touching src.

   The status model (model_block) is exact: it applies SPEC's rules in the
   order quant.h applies them and names one status. That order, as read
   from quant.h and SPEC section 4: a static op's NULL attrs; NULL src or
   dst; (not a block type: a dynamic op's NULL scales); attrs' rounding,
   f8_overflow, on_error (QUANT_ERR_ATTR) and qtype's value
   (QUANT_ERR_QTYPE); (not a block type, static: the lists' NULL rows);
   the float side's dtype (QUANT_ERR_DTYPE: a block type there, so block
   to block too); src's rank and shape; dst's rank; the dims; for a block
   type: qtype not per_tensor (QUANT_ERR_QTYPE), rank 0 or a last dim not
   whole blocks (QUANT_ERR_SHAPE); NULL data where elements exist;
   alignment of the float side; a scale (list or tensor) given
   (QUANT_ERR_SCALES), a zero point given (QUANT_ERR_ZPS), tensor_scale
   not +-0 (QUANT_ERR_ATTR); strides that are not dense
   (QUANT_ERR_STRIDE); dst overlapping src. The choose pair: NULL dst
   (fused), NULL src, scales, or zps the scheme needs; a scheme out of
   range (QUANT_ERR_ATTR); attrs' values; then a block qdt is
   QUANT_ERR_DTYPE. Every call must return exactly the model's status,
   quant_explain the same, quant_prepare the same.

   Every buffer is its own allocation, exactly its size after BGUARD guard
   bytes (poisoned under AddressSanitizer; a trailing guard too without
   ASan, whose redzone is there otherwise); a failure must leave every byte,
   guards included, and the tensor, attrs and plan structs as they were.
   On success:
   - dequantize: dst is og_decode's (tests/oracle_ggml.h) f32, narrowed to
     f16/bf16 by the oracle (onednn: bf16 flushes below 2^-126), bit for
     bit but any NaN equal to any NaN;
   - quantize: the other op kind (static <-> dynamic) with another
     rounding, f8_overflow and on_error, into a dst filled otherwise, gives
     the same bytes; an f16/bf16 src gives the bytes of its f32 widening
     (a NaN quieted, its payload kept);
   - the scalar copy (tests/ref_scalar.c) returns the same status and
     writes the same bytes;
   - a plan has a unit per block, quant_run writes what the one-shot op
     (quantize) or the oracle (dequantize) has, runs that must fail do
     (another dst shape or src dtype, ranges backwards or past the end, a
     scales or zps tensor given to a dynamic plan, dst at src's address),
     and a split of the units into random ranges writes quant_run's bytes,
     each range only its own blocks.

   Tensors too large to hold are 8-byte placeholders, passed only when the
   model's status comes before the overlap check.

   Deviations this harness found in quant.h, fixed there since; building
   with -DFUZZ_BLOCK_KNOWN=1 accepts them again where each applies:
     D1  a static op with NULL attrs and a block type: quant_quantize and
         quant_dequantize give QUANT_ERR_NULL (SPEC section 4: "a static
         op's attrs ... NULL"), but quant_explain and quant_prepare
         validate with the default attrs, which a block type passes (no
         scales list needed), so they return what the defaults give
         (QUANT_OK for valid tensors: a plan is prepared that the op
         refuses).
     D2  a plan of a dynamic op on a block type: quant_prepare requires
         NULL scales and zps tensors, but quant_run and quant_run_range
         refuse NULL scales (QUANT_ERR_NULL, before anything else of the
         dynamic ops), so the plan never runs. */

#ifndef FUZZ_BLOCK_KNOWN
#define FUZZ_BLOCK_KNOWN 0
#endif

#define BCAP 8192       /* elements of the largest block-case tensor the harness holds */
#define BGUARD 32       /* guard bytes before every buffer (and after it without ASan) */

#if defined(__has_feature)
#  if __has_feature(address_sanitizer)
#    define FUZZ_ASAN 1
#  endif
#endif
#if !defined(FUZZ_ASAN) && defined(__SANITIZE_ADDRESS__)
#  define FUZZ_ASAN 1
#endif
#ifdef FUZZ_ASAN
#  include <sanitizer/asan_interface.h>
#  define BPOISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#  define BUNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#  define BTAIL 0
#else
#  define BPOISON(p, n) ((void)(p), (void)(n))
#  define BUNPOISON(p, n) ((void)(p), (void)(n))
#  define BTAIL BGUARD
#endif

static int is_blk(quant_dtype t) { return (unsigned)t - (unsigned)QUANT_Q4_0 < 15u; }
static int blk_index(quant_dtype t) { return (int)((unsigned)t - (unsigned)QUANT_Q4_0); }
static uint64_t blk_elems(quant_dtype t) { return is_blk(t) ? (uint64_t)og_block_elems(blk_index(t)) : 0; }
static uint64_t blk_bytes(quant_dtype t) { return is_blk(t) ? (uint64_t)og_block_bytes(blk_index(t)) : 0; }
/* the bytes of n elements of t: whole blocks of a block type */
static uint64_t bbytes(quant_dtype t, uint64_t n) { return is_blk(t) ? n / blk_elems(t) * blk_bytes(t) : nbytes(t, n); }

enum { BB_SRC, BB_DST, BB_SC, BB_ZP, BB_XS, BB_XZ, BB_SS, BB_DS, NBB };
static const char *const bb_name[NBB] = { "src", "dst", "scales tensor", "zps tensor", "attrs.scales", "attrs.zps",
                                          "src_strides", "dst_strides" };

/* The buffers of a case: allocation h (its `home`) is BGUARD guard bytes,
   size[h] bytes, BTAIL guard bytes; buffer b is bytes[b] bytes at off[b]
   of its home's interior (two share one when dst overlaps src). */
typedef struct barena {
    uint8_t *base[NBB];
    size_t size[NBB];
    uint8_t *snap[NBB];
    int home[NBB];
    size_t off[NBB], bytes[NBB];
} barena;

typedef struct bcase {
    int op;                 /* 0-3 the four ops, 4 choose_qparams, 5 choose_and_quantize */
    int plan;               /* through quant_prepare and quant_run */
    int flavour;            /* 0 a float side; 1 a block type there too; 2 a non-block
                               quantized side, the block type as the float side; 3 a wild float side */
    int attrs_null, src_tnull, dst_tnull, sc_given, zp_given;
    quant_tensor src, dst, sc, zp;
    quant_attrs a;
    quant_dtype bt;         /* the block type drawn */
    long long scheme;       /* the choose pair's */
    int unheld;             /* src or dst an 8-byte placeholder */
} bcase;

static uint8_t bguard_byte(size_t i) { return (uint8_t)(0xC3 ^ (i * 13)); }

static uint8_t *ba_ptr(const barena *m, int b)
{
    return m->home[b] < 0 ? NULL : m->base[m->home[b]] + BGUARD + m->off[b];
}

/* allocation h of `size` interior bytes, filled with a pattern */
static void ba_new(barena *m, int h, size_t size)
{
    uint8_t *p = (uint8_t *)xmalloc(BGUARD + size + BTAIL);
    size_t i;
    for (i = 0; i < BGUARD; ++i) p[i] = bguard_byte(i);
    for (i = 0; i < (size_t)BTAIL; ++i) p[BGUARD + size + i] = bguard_byte(i + 101);
    for (i = 0; i < size; ++i) p[BGUARD + i] = (uint8_t)(0xA5 ^ (i * 7) ^ ((size_t)h << 5));
    BPOISON(p, BGUARD);
    if (BTAIL) BPOISON(p + BGUARD + size, (size_t)BTAIL);
    m->base[h] = p;
    m->size[h] = size;
}

/* buffer b in its own allocation, mis bytes past its start */
static void ba_own(barena *m, int b, size_t bytes, unsigned mis)
{
    ba_new(m, b, bytes + mis);
    m->home[b] = b;
    m->off[b] = mis;
    m->bytes[b] = bytes;
}

static void ba_snap(barena *m)
{
    int h;
    for (h = 0; h < NBB; ++h)
        if (m->base[h]) {
            free(m->snap[h]);
            m->snap[h] = (uint8_t *)xmalloc(m->size[h] + 1);
            memcpy(m->snap[h], m->base[h] + BGUARD, m->size[h]);
        }
}

static void ba_restore(barena *m)
{
    int h;
    for (h = 0; h < NBB; ++h)
        if (m->base[h]) memcpy(m->base[h] + BGUARD, m->snap[h], m->size[h]);
}

static void ba_free(barena *m)
{
    int h;
    for (h = 0; h < NBB; ++h) {
        if (m->base[h]) {
            BUNPOISON(m->base[h], BGUARD + m->size[h] + BTAIL);
            free(m->base[h]);
        }
        free(m->snap[h]);
    }
}

static void bdump(const bcase *c)
{
    static const char *const names[6] = { "quantize", "dequantize", "dynamic_quantize", "dynamic_dequantize",
                                          "choose_qparams", "choose_and_quantize" };
    const int aux = c->op >= 2;
    fprintf(stderr, "fuzz_ops: block case: %s%s, block type %s (%d), flavour %d, backend %s, %u-bit size_t\n",
            names[c->op], c->plan ? " through a plan" : "", quant_dtype_name(c->bt), (int)c->bt, c->flavour,
            quant_backend(), (unsigned)(sizeof(size_t) * 8));
    if (c->op >= 4) fprintf(stderr, "  scheme %lld\n", c->scheme);
    dump_tensor("src", &c->src, c->src_tnull);
    if (c->op != 4) dump_tensor("dst", &c->dst, c->dst_tnull);
    if (aux) {
        dump_tensor("scales", &c->sc, !c->sc_given);
        dump_tensor("zps", &c->zp, !c->zp_given);
    }
    if (c->attrs_null) fprintf(stderr, "  attrs: NULL\n");
    else {
        int k;
        fprintf(stderr, "  attrs: qtype %d axis %lld rounding %d f8_overflow %d on_error %d tensor_scale %a\n"
                "    scales %p n_scales %lu zps %p n_zps %lu src_strides %p dst_strides %p\n",
                (int)c->a.qtype, (long long)c->a.axis, (int)c->a.rounding, (int)c->a.f8_overflow, (int)c->a.on_error,
                (double)c->a.tensor_scale, (const void *)c->a.scales, (unsigned long)c->a.n_scales,
                (const void *)c->a.zps, (unsigned long)c->a.n_zps, (const void *)c->a.src_strides,
                (const void *)c->a.dst_strides);
        for (k = 0; k < 2; ++k) {
            const int64_t *s = k ? c->a.dst_strides : c->a.src_strides;
            const int rk = (k ? c->dst.rank : c->src.rank);
            int i;
            if (!s) continue;
            fprintf(stderr, "    %s {", k ? "dst_strides" : "src_strides");
            for (i = 0; i < rk && i < QUANT_MAX_RANK; ++i) fprintf(stderr, "%s%lld", i ? "," : "", (long long)s[i]);
            fprintf(stderr, "}\n");
        }
    }
}

static void bfail(const bcase *c, const char *msg)
{
    fprintf(stderr, "fuzz_ops: FAILED: %s\n", msg);
    bdump(c);
    abort();
}

/* Every byte of the case's memory, guards too, as it was, but buffer
   `skip`'s bytes, which are compared with `want` when it is given. */
static void ba_check(const bcase *c, barena *m, int skip, const uint8_t *want, const char *who)
{
    char msg[400];
    int h, b;
    for (h = 0; h < NBB; ++h) {
        uint8_t *p = m->base[h];
        size_t i, lo = 0, hi = 0;
        if (!p) continue;
        BUNPOISON(p, BGUARD);
        if (BTAIL) BUNPOISON(p + BGUARD + m->size[h], (size_t)BTAIL);
        for (i = 0; i < BGUARD; ++i)
            if (p[i] != bguard_byte(i)) {
                snprintf(msg, sizeof msg, "%s: guard byte %lu before the allocation of %s changed", who,
                         (unsigned long)(BGUARD - i), bb_name[h]);
                bfail(c, msg);
            }
        for (i = 0; i < (size_t)BTAIL; ++i)
            if (p[BGUARD + m->size[h] + i] != bguard_byte(i + 101)) {
                snprintf(msg, sizeof msg, "%s: guard byte %lu after the allocation of %s changed", who, (unsigned long)i,
                         bb_name[h]);
                bfail(c, msg);
            }
        BPOISON(p, BGUARD);
        if (BTAIL) BPOISON(p + BGUARD + m->size[h], (size_t)BTAIL);
        p += BGUARD;
        if (skip >= 0 && m->home[skip] == h) {
            lo = m->off[skip];
            hi = lo + m->bytes[skip];
        }
        if (!memcmp(p, m->snap[h], lo) && !memcmp(p + hi, m->snap[h] + hi, m->size[h] - hi) &&
            (!want || hi == lo || !memcmp(p + lo, want, hi - lo)))
            continue;
        for (i = 0; i < m->size[h]; ++i) {
            const int mine = i >= lo && i < hi;
            const uint8_t exp = mine ? (want ? want[i - lo] : p[i]) : m->snap[h][i];
            int in = -1;
            if (p[i] == exp) continue;
            for (b = 0; b < NBB; ++b)
                if (m->home[b] == h && i >= m->off[b] && i < m->off[b] + m->bytes[b]) in = b;
            snprintf(msg, sizeof msg, "%s: byte %lu of the allocation of %s (inside %s) is 0x%02x, expected 0x%02x (was "
                     "0x%02x)", who, (unsigned long)i, bb_name[h], in >= 0 ? bb_name[in] : "no buffer", p[i], exp,
                     m->snap[h][i]);
            bfail(c, msg);
        }
    }
}

/* SPEC section 4 / STRIDED TENSORS: strides (rank entries, NULL: none)
   that lay t out other than dense row-major. All zero is dense; a dim of
   one element may have any stride but a negative one; an empty tensor is
   dense whatever its strides, but for a negative one. */
static int not_dense(const quant_tensor *t, const int64_t *st)
{
    uint64_t dense = 1;
    int i, any = 0, neg = 0, other = 0, empty = 0;
    if (!st) return 0;
    for (i = 0; i < t->rank; ++i) {
        any |= st[i] != 0;
        neg |= st[i] < 0;
        empty |= t->dims[i] == 0;
    }
    if (neg) return 1;
    if (!any || empty) return 0;
    for (i = t->rank - 1; i >= 0; --i) {
        if (t->dims[i] > 1 && (uint64_t)st[i] != dense) other = 1;
        dense *= (uint64_t)t->dims[i];
    }
    return other;
}

static const quant_attrs *battrs(const bcase *c)
{
    static quant_attrs d;
    static int once;
    if (!once) { d = quant_attrs_default(); once = 1; }
    return c->attrs_null ? &d : &c->a;
}

/* an enum's value in 0 .. hi (through long long: gcc may give the enum an unsigned type) */
static int enum_in(long long v, long long hi) { return v >= 0 && v <= hi; }

/* The status of one of the four ops (or quant_prepare, quant_explain) on
   the case. null_attrs: a static op's NULL attrs is QUANT_ERR_NULL (SPEC
   section 4, and the ops); 0 for what quant.h's quant_explain and
   quant_prepare do (D1: the default attrs). *stage: how far validation
   went (4: the overlap check, which reads the data pointers' sizes). */
static quant_status model_block(const bcase *c, int null_attrs, int *stage)
{
    const int dyn = c->op == 2 || c->op == 3, quantize = c->op % 2 == 0;
    const quant_attrs *A = battrs(c);
    const quant_tensor *q = quantize ? &c->dst : &c->src, *f = quantize ? &c->src : &c->dst;
    const int blk = is_blk(q->dtype);
    shape_info ss;
    int i;
    *stage = 0;
    if (!dyn && c->attrs_null && null_attrs) return QUANT_ERR_NULL;
    if (c->src_tnull || c->dst_tnull) return QUANT_ERR_NULL;
    if (dyn && !c->sc_given && !blk) return QUANT_ERR_NULL;
    if (!enum_in((long long)A->rounding, 3)) return QUANT_ERR_ATTR;
    if (!enum_in((long long)A->f8_overflow, 1) || !on_error_ok((long long)A->on_error)) return QUANT_ERR_ATTR;
    if (!enum_in((long long)A->qtype, 2)) return QUANT_ERR_QTYPE;
    if (!dyn && !blk) {
        if (!A->scales) return QUANT_ERR_NULL;
        if (!A->zps && A->n_zps > 0) return QUANT_ERR_NULL;
        if (A->zps && A->n_zps == 0) return QUANT_ERR_ZPS;
    }
    if (!is_float_t(f->dtype)) return QUANT_ERR_DTYPE;
    if (!blk) bfail(c, "the block model reached a non-block quantized side with a float side (a harness bug)");
    ss = shape_of(&c->src, esize(f->dtype));
    if (!ss.rank_ok) return QUANT_ERR_RANK;
    if (ss.neg || ss.over) return QUANT_ERR_SHAPE;
    if (c->dst.rank < 0 || c->dst.rank > QUANT_MAX_RANK) return QUANT_ERR_RANK;
    if (c->dst.rank != c->src.rank) return QUANT_ERR_SHAPE;
    for (i = 0; i < c->src.rank; ++i)
        if (c->src.dims[i] != c->dst.dims[i]) return QUANT_ERR_SHAPE;
    if (A->qtype != QUANT_PER_TENSOR) return QUANT_ERR_QTYPE;
    if (c->src.rank == 0 || (uint64_t)c->src.dims[c->src.rank - 1] % blk_elems(q->dtype) != 0) return QUANT_ERR_SHAPE;
    *stage = 1;
    if (ss.count > 0 && (!c->src.data || !c->dst.data)) return QUANT_ERR_NULL;
    if (misaligned(c->src.data, align_of(c->src.dtype)) || misaligned(c->dst.data, align_of(c->dst.dtype)))
        return QUANT_ERR_ALIGN;
    *stage = 2;
    if (dyn ? c->sc_given : (A->scales != NULL || A->n_scales != 0)) return QUANT_ERR_SCALES;
    if (dyn ? c->zp_given : (A->zps != NULL || A->n_zps != 0)) return QUANT_ERR_ZPS;
    if (A->tensor_scale != 0.0f) return QUANT_ERR_ATTR;
    *stage = 3;
    if (not_dense(&c->src, A->src_strides) || not_dense(&c->dst, A->dst_strides)) return QUANT_ERR_STRIDE;
    *stage = 4;
    if (overlap(c->src.data, bbytes(c->src.dtype, ss.count), c->dst.data, bbytes(c->dst.dtype, ss.count)))
        return QUANT_ERR_OVERLAP;
    *stage = 5;
    return QUANT_OK;
}

/* The choose pair with a block qdt: the NULL rows, the scheme, attrs'
   values, then QUANT_ERR_DTYPE (blocks choose their own scales) */
static quant_status model_block_choose(const bcase *c)
{
    const quant_attrs *A = battrs(c);
    const unsigned s = (unsigned)(int)c->scheme;
    const int mx = s >= QUANT_MX && s <= QUANT_NVFP4;
    if (c->op == 5 && c->dst_tnull) return QUANT_ERR_NULL;
    if (c->src_tnull || !c->sc_given || (!c->zp_given && s != QUANT_SYMMETRIC && !mx)) return QUANT_ERR_NULL;
    if (s > QUANT_NVFP4) return QUANT_ERR_ATTR;
    if (!enum_in((long long)A->rounding, 3)) return QUANT_ERR_ATTR;
    if (!enum_in((long long)A->f8_overflow, 1) || !on_error_ok((long long)A->on_error)) return QUANT_ERR_ATTR;
    if (!enum_in((long long)A->qtype, 2)) return QUANT_ERR_QTYPE;
    return QUANT_ERR_DTYPE;
}

/* ---- statistics (-DFUZZ_STATS) */
#ifdef FUZZ_STATS
static unsigned long bstat_status[2][6][20];   /* [plan][op][status] */
static unsigned long bstat_ok[15][2];          /* successes with elements: [type][quantize] */
static unsigned long bstat_known[2], bstat_skipped, bstat_ranges, bstat_runs_bad, bstat_elems;
static void bstats_print(void)
{
    int p, o, s;
    fprintf(stderr, "fuzz_ops block stats: skipped %lu, elements compared %lu, plan range splits %lu, failing runs %lu, "
            "known deviations D1 %lu D2 %lu\n", bstat_skipped, bstat_elems, bstat_ranges, bstat_runs_bad, bstat_known[0],
            bstat_known[1]);
    for (p = 0; p < 2; ++p)
        for (o = 0; o < 6; ++o) {
            int any = 0;
            for (s = 0; s < 20; ++s) any |= bstat_status[p][o][s] != 0;
            if (!any) continue;
            fprintf(stderr, "  %s op %d:", p ? "plan" : "one-shot", o);
            for (s = 0; s < 20; ++s) if (bstat_status[p][o][s]) fprintf(stderr, " %d:%lu", s, bstat_status[p][o][s]);
            fputc('\n', stderr);
        }
    fprintf(stderr, "  successes by type (quantize/dequantize):");
    for (o = 0; o < 15; ++o) fprintf(stderr, " %s %lu/%lu", og_name(o), bstat_ok[o][1], bstat_ok[o][0]);
    fputc('\n', stderr);
}
static int bstat_once;
#define BSTAT(x) do { if (!bstat_once) { bstat_once = 1; atexit(bstats_print); } x; } while (0)
#else
#define BSTAT(x) do { } while (0)
#endif

/* ---- choices */

static int64_t pick_outer(reader *r)
{
    static const int64_t wild[] = { -1, (int64_t)1 << 40, INT64_MAX, (int64_t)1 << 62, (int64_t)1 << 31, INT64_MIN, -256 };
    const unsigned b = rd8(r);
    return b < 140 ? 1 : b < 196 ? 2 : b < 220 ? 3 : b < 232 ? 0 : wild[b % N(wild)];
}

/* the last dim: whole blocks mostly, empty, multiples of 32 (whole only
   for the blocks of 32, or 64 when even), not whole, wild */
static int64_t pick_last(reader *r, int64_t be)
{
    static const int64_t off[] = { 1, 2, 16, 31, 33, 48 };
    static const int64_t wild[] = { -1, -256, (int64_t)1 << 40, INT64_MAX, (int64_t)1 << 62, ((int64_t)1 << 40) + 32,
                                    INT64_MIN };
    const unsigned b = rd8(r);
    int64_t v;
    if (b < 160) return be * (1 + (int64_t)(b % 4));
    if (b < 176) return be * (5 + (int64_t)(b % 4));
    if (b < 188) return 0;
    if (b < 204) return 32 * (1 + (int64_t)(b % 8));
    if (b < 232) {
        v = be * (int64_t)(b % 3) + off[b % N(off)];
        return v % be ? v : v + 1;
    }
    return wild[b % N(wild)];
}

/* strides for t (kind from kb): NULL (returns 0), dense written out (the
   dims of one element any stride), all zero, not dense (a stride off by
   one, 0, doubled, or two swapped), a negative one. Returns 1 and fills
   st[0 .. rank-1] otherwise. */
static int pick_strides(reader *r, const quant_tensor *t, int64_t *st)
{
    const unsigned kb = rd8(r);
    const int rk = t->rank < 0 ? 0 : t->rank > QUANT_MAX_RANK ? QUANT_MAX_RANK : t->rank;
    uint64_t dense = 1;
    int i;
    if (kb < 192) return 0;
    for (i = rk - 1; i >= 0; --i) {
        st[i] = (int64_t)dense;
        if (t->dims[i] == 1 && kb % 3 == 0) st[i] = (int64_t)(rd8(r) * 1000u);
        dense *= (uint64_t)t->dims[i];   /* wraps for wild dims: those fail before strides matter */
    }
    if (kb < 208 || rk == 0) return 1;
    if (kb < 216) { for (i = 0; i < rk; ++i) st[i] = 0; return 1; }
    {
        const int k = (int)(rd8(r) % (unsigned)rk), j = (k + 1) % rk;
        const int64_t v = st[k];
        if (kb >= 240) { st[k] = (kb & 1) ? -1 : INT64_MIN; return 1; }
        switch (kb % 4) {
        case 0: st[k] = v < INT64_MAX ? v + 1 : 0; break;
        case 1: st[k] = 0; break;
        case 2: st[k] = v > INT64_MAX / 2 || v < 0 ? 1 : 2 * v; break;
        default: st[k] = st[j]; st[j] = v; break;
        }
    }
    return 1;
}

/* magnitudes of a block's values */
static const float bmags[] = { 1.0f, 0.015625f, 1e-3f, 100.0f, 1e4f, 0x1p-20f, 0x1p-126f, 0x1p-139f, 1e30f, 515.8f,
                               3e-8f, 0x1p-24f, 1e-17f, 7.9e-18f, 1e36f, 0.37f };

/* a float src of n elements, a block's worth (be) at a time in one style:
   the harness's mix of specials and halves, integers times a magnitude,
   constant, mostly zeros with spikes, raw bits */
static void fill_float_src(reader *r, quant_dtype ft, uint8_t *p, uint64_t n, uint64_t be)
{
    uint64_t i0, i;
    for (i0 = 0; i0 < n; i0 += be) {
        const unsigned st = rd8(r);
        const float mag = bmags[rd8(r) % N(bmags)];
        const float cv = st >= 176 && st < 200 ? pick_f32(r, (size_t)i0) : 0.0f;
        for (i = i0; i < n && i < i0 + be; ++i) {
            float x = 0.0f;
            int raw = 0;
            uint16_t h = 0;
            if (st < 96) x = pick_f32(r, (size_t)i);
            else if (st < 176) x = o_mul((float)(int8_t)rd8(r), mag);
            else if (st < 200) x = cv;
            else if (st < 224) {
                const unsigned s = rd8(r);
                x = s < 40 ? pick_f32(r, (size_t)i) : (s & 1) ? -0.0f : 0.0f;
            } else if (ft == QUANT_F32) x = bits_f(rd32(r));
            else { h = (uint16_t)rd16(r); raw = 1; }
            if (ft == QUANT_F32) memcpy(p + 4 * i, &x, 4);
            else {
                if (!raw) h = ft == QUANT_BF16 ? o_bf16_code(x) : o_f16_code(x);
                memcpy(p + 2 * i, &h, 2);
            }
        }
    }
}

/* an f16/bf16 element widened to f32, a NaN quieted (as a conversion
   instruction does) with its sign and payload */
static float widen16q(uint16_t h, int bf)
{
    const float x = widen16(h, bf);
    return isnan(x) ? bits_f(f_bits(x) | 0x00400000u) : x;
}

/* elements i of two float tensors of type t: the same bits, or both NaN */
static int same_float_elem(quant_dtype t, const uint8_t *a, const uint8_t *b, uint64_t i)
{
    if (t == QUANT_F32) {
        uint32_t x, y;
        memcpy(&x, a + 4 * i, 4);
        memcpy(&y, b + 4 * i, 4);
        return x == y || ((x & 0x7FFFFFFFu) > 0x7F800000u && (y & 0x7FFFFFFFu) > 0x7F800000u);
    } else {
        const unsigned inf = t == QUANT_BF16 ? 0x7F80u : 0x7C00u;
        uint16_t x, y;
        memcpy(&x, a + 2 * i, 2);
        memcpy(&y, b + 2 * i, 2);
        return x == y || ((x & 0x7FFFu) > inf && (y & 0x7FFFu) > inf);
    }
}

/* the expected dst of dequantizing n elements of block src (SPEC section
   7.2: ggml's dequantize_row_*, then section 6's rounding to f16/bf16) */
static void expect_decode(const bcase *c, const uint8_t *src, uint8_t *out, uint64_t n)
{
    const quant_attrs *A = battrs(c);
    const uint64_t be = blk_elems(c->src.dtype);
    float *y = (float *)xmalloc((size_t)n * 4 + 4);
    uint64_t i;
    og_decode(blk_index(c->src.dtype), src, (size_t)(n / be), y);
    for (i = 0; i < n; ++i) {
        if (c->dst.dtype == QUANT_F32) memcpy(out + 4 * i, &y[i], 4);
        else {
            const uint16_t h = c->dst.dtype == QUANT_F16 ? o_f16_code(y[i])
                             : A->rounding == QUANT_ROUND_ONEDNN ? o_bf16_code_onednn(y[i]) : o_bf16_code(y[i]);
            memcpy(out + 2 * i, &h, 2);
        }
    }
    free(y);
}

/* dst (dequantized) against the oracle's, element by element */
static void check_decoded(const bcase *c, const uint8_t *got, const uint8_t *want, uint64_t n, const char *who)
{
    uint64_t i;
    for (i = 0; i < n; ++i)
        if (!same_float_elem(c->dst.dtype, got, want, i)) {
            char msg[400];
            const size_t es = esize(c->dst.dtype), be = (size_t)blk_elems(c->src.dtype);
            const size_t bb = (size_t)blk_bytes(c->src.dtype);
            const uint8_t *blk = (const uint8_t *)c->src.data + (size_t)(i / be) * bb;
            uint32_t g = 0, w = 0;
            int len, k;
            memcpy(&g, got + i * es, es);
            memcpy(&w, want + i * es, es);
            len = snprintf(msg, sizeof msg, "%s: dst element %lu (element %lu of block %lu): oracle 0x%0*lx, library "
                           "0x%0*lx; the block's first bytes:", who, (unsigned long)i, (unsigned long)(i % be),
                           (unsigned long)(i / be), (int)(2 * es), (unsigned long)w, (int)(2 * es), (unsigned long)g);
            for (k = 0; k < 12 && (size_t)k < bb && len > 0 && (size_t)len < sizeof msg; ++k)
                len += snprintf(msg + len, sizeof msg - (size_t)len, " %02x", blk[k]);
            bfail(c, msg);
        }
}

/* encode src with the static op and the default attrs into a buffer of its
   own; QUANT_OK is required (the case's op succeeded on the same tensors) */
static uint8_t *encode_with(const bcase *c, const quant_tensor *src, quant_dtype dt, const char *who)
{
    quant_tensor s = *src, d = c->dst;
    const quant_attrs a = quant_attrs_default();
    const uint64_t n = shape_of(src, 4).count;
    const size_t db = (size_t)bbytes(dt, n);
    uint8_t *out = (uint8_t *)xmalloc(db + 1);
    quant_status st;
    memset(out, 0x3C, db + 1);
    d.dtype = dt;
    d.data = out;
    st = quant_quantize(&s, &d, &a);
    if (st != QUANT_OK) {
        char msg[200];
        snprintf(msg, sizeof msg, "%s: quant_quantize with the default attrs gives status %d", who, (int)st);
        bfail(c, msg);
    }
    return out;
}

/* Quantize's properties (SPEC section 7.2): the bytes `got` of a successful
   encode of the case's src equal the other op kind's (static <-> dynamic)
   with another rounding, f8_overflow and on_error, into a dst filled
   otherwise; and, for an f16/bf16 src, its f32 widening's. */
static void check_encode_props(const bcase *c, const uint8_t *got, uint64_t n, int other_kind)
{
    const size_t db = (size_t)bbytes(c->dst.dtype, n);
    char msg[300];
    size_t i;
    if (other_kind) {
        quant_tensor s = c->src, d = c->dst;
        quant_attrs a = quant_attrs_default();
        const quant_attrs *A = battrs(c);
        uint8_t *out = (uint8_t *)xmalloc(db + 1);
        quant_status st;
        for (i = 0; i < db; ++i) out[i] = (uint8_t)(0x5A ^ (i * 3));
        d.data = out;
        a.rounding = (quant_rounding)(((int)A->rounding + 1) % 4);
        a.f8_overflow = (quant_f8_overflow)(1 - (int)A->f8_overflow);
        a.on_error = (quant_on_error)(1 - (int)A->on_error);
        st = c->op == 0 ? quant_dynamic_quantize(&s, NULL, NULL, &d, &a) : quant_quantize(&s, &d, &a);
        if (st != QUANT_OK) {
            snprintf(msg, sizeof msg, "the %s op on the same tensors (rounding %d) gives status %d",
                     c->op == 0 ? "dynamic" : "static", (int)a.rounding, (int)st);
            bfail(c, msg);
        }
        for (i = 0; i < db; ++i)
            if (out[i] != got[i]) {
                snprintf(msg, sizeof msg, "encode not deterministic: the %s op with rounding %d, f8_overflow %d, on_error "
                         "%d, into a dst filled otherwise, writes byte %lu (block %lu) 0x%02x, the case's op 0x%02x",
                         c->op == 0 ? "dynamic" : "static", (int)a.rounding, (int)a.f8_overflow, (int)a.on_error,
                         (unsigned long)i, (unsigned long)(i / blk_bytes(c->dst.dtype)), out[i], got[i]);
                bfail(c, msg);
            }
        free(out);
    }
    if (is_h16(c->src.dtype)) {
        const int bf = c->src.dtype == QUANT_BF16;
        quant_tensor w = c->src;
        float *x = (float *)xmalloc((size_t)n * 4 + 4);
        uint8_t *out;
        uint64_t k;
        for (k = 0; k < n; ++k) {
            uint16_t h;
            memcpy(&h, (const uint8_t *)c->src.data + 2 * k, 2);
            x[k] = widen16q(h, bf);
        }
        w.dtype = QUANT_F32;
        w.data = x;
        out = encode_with(c, &w, c->dst.dtype, "the f32 widening of the 16-bit src");
        for (i = 0; i < db; ++i)
            if (out[i] != got[i]) {
                snprintf(msg, sizeof msg, "encode of the %s src differs from that of its f32 widening at byte %lu (block "
                         "%lu): 0x%02x from %s, 0x%02x from f32", bf ? "bf16" : "f16", (unsigned long)i,
                         (unsigned long)(i / blk_bytes(c->dst.dtype)), got[i], bf ? "bf16" : "f16", out[i]);
                bfail(c, msg);
            }
        free(out);
        free(x);
    }
}

/* quant_dtype_bytes of a block type: whole blocks, 0 otherwise */
static void check_dtype_bytes(const bcase *c, int64_t v)
{
    const uint64_t be = blk_elems(c->bt), bb = blk_bytes(c->bt);
    const size_t got = quant_dtype_bytes(c->bt, v);
    size_t want = 0;
    if (v >= 0 && (uint64_t)v % be == 0 && (uint64_t)v / be <= (uint64_t)SIZE_MAX / bb) want = (size_t)((uint64_t)v / be * bb);
    if (got != want) {
        char msg[200];
        snprintf(msg, sizeof msg, "quant_dtype_bytes(%s, %lld) is %lu, expected %lu", quant_dtype_name(c->bt), (long long)v,
                 (unsigned long)got, (unsigned long)want);
        bfail(c, msg);
    }
}

static quant_status bcall(int op, int lib, const quant_tensor *src, quant_tensor *dst, const quant_tensor *sc,
                          const quant_tensor *zp, const quant_attrs *a)
{
#if FUZZ_SCALAR_COPY
    if (!lib) {
        switch (op) {
        case 0: return ref_quantize(src, dst, a);
        case 1: return ref_dequantize(src, dst, a);
        case 2: return ref_dynamic_quantize(src, sc, zp, dst, a);
        default: return ref_dynamic_dequantize(src, sc, zp, dst, a);
        }
    }
#else
    (void)lib;
#endif
    switch (op) {
    case 0: return quant_quantize(src, dst, a);
    case 1: return quant_dequantize(src, dst, a);
    case 2: return quant_dynamic_quantize(src, sc, zp, dst, a);
    default: return quant_dynamic_dequantize(src, sc, zp, dst, a);
    }
}

/* the structs a call was given, in allocations of their own, and copies to
   compare them with afterwards */
typedef struct bstructs {
    quant_tensor *src, *dst, *sc, *zp, keep[4];
    quant_attrs *a, keep_a;
} bstructs;

static void bs_make(const bcase *c, bstructs *s)
{
    s->src = c->src_tnull ? NULL : (quant_tensor *)xmalloc(sizeof *s->src);
    s->dst = c->dst_tnull ? NULL : (quant_tensor *)xmalloc(sizeof *s->dst);
    s->sc = c->sc_given ? (quant_tensor *)xmalloc(sizeof *s->sc) : NULL;
    s->zp = c->zp_given ? (quant_tensor *)xmalloc(sizeof *s->zp) : NULL;
    s->a = c->attrs_null ? NULL : (quant_attrs *)xmalloc(sizeof *s->a);
    s->keep[0] = c->src;
    s->keep[1] = c->dst;
    s->keep[2] = c->sc;
    s->keep[3] = c->zp;
    s->keep_a = c->a;
    if (s->src) *s->src = c->src;
    if (s->dst) *s->dst = c->dst;
    if (s->sc) *s->sc = c->sc;
    if (s->zp) *s->zp = c->zp;
    if (s->a) *s->a = c->a;
}

static void bs_check(const bcase *c, const bstructs *s, const char *who)
{
    if ((s->src && memcmp(s->src, &s->keep[0], sizeof *s->src)) || (s->dst && memcmp(s->dst, &s->keep[1], sizeof *s->dst)) ||
        (s->sc && memcmp(s->sc, &s->keep[2], sizeof *s->sc)) || (s->zp && memcmp(s->zp, &s->keep[3], sizeof *s->zp)) ||
        (s->a && attrs_differ(s->a, &s->keep_a))) {
        char msg[200];
        snprintf(msg, sizeof msg, "%s: a tensor or attribute struct changed", who);
        bfail(c, msg);
    }
}

static void bs_free(bstructs *s)
{
    free(s->src);
    free(s->dst);
    free(s->sc);
    free(s->zp);
    free(s->a);
}

static void want_status(const bcase *c, const char *who, quant_status got, quant_status want)
{
    if (got != want) {
        char msg[300];
        snprintf(msg, sizeof msg, "%s: status %d (%s), the model says %d (%s)", who, (int)got, quant_status_str(got),
                 (int)want, quant_status_str(want));
        bfail(c, msg);
    }
}

/* the choose pair with a block qdt: the model's status, nothing written */
static void block_choose(bcase *c, barena *m)
{
    const quant_status want = model_block_choose(c);
    bstructs s;
    int lib;
    BSTAT(if (getenv("FUZZ_VERBOSE")) { bdump(c); fprintf(stderr, "  model: status %d\n", (int)want); });
    bs_make(c, &s);
    ba_snap(m);
    for (lib = 1; lib >= 0; --lib) {
        const char *who = lib ? "library" : "scalar copy";
        const quant_scheme sch = (quant_scheme)(int)c->scheme;
        quant_status st;
#if !FUZZ_SCALAR_COPY
        if (!lib) break;
        st = c->op == 4 ? quant_choose_qparams(s.src, c->bt, sch, s.a, s.sc, s.zp)
                        : quant_choose_and_quantize(s.src, s.dst, sch, s.a, s.sc, s.zp);
#else
        if (lib)
            st = c->op == 4 ? quant_choose_qparams(s.src, c->bt, sch, s.a, s.sc, s.zp)
                            : quant_choose_and_quantize(s.src, s.dst, sch, s.a, s.sc, s.zp);
        else
            st = c->op == 4 ? ref_choose_qparams(s.src, c->bt, sch, s.a, s.sc, s.zp)
                            : ref_choose_and_quantize(s.src, s.dst, sch, s.a, s.sc, s.zp);
#endif
        BSTAT(if (lib) ++bstat_status[0][c->op][(unsigned)st % 20]);
        want_status(c, who, st, want);
        bs_check(c, &s, who);
        ba_check(c, m, -1, NULL, who);
    }
    bs_free(&s);
}

/* One-shot: quant_explain, the op, the scalar copy. */
static void block_oneshot(bcase *c, barena *m, quant_status want, quant_status want_d1)
{
    const int dyn = c->op >= 2, quantize = c->op % 2 == 0;
    const uint64_t n = shape_of(&c->src, 4).count;
    bstructs s;
    char why[160];
    quant_status e, st, st2;
    uint8_t *got = NULL, *exp = NULL;
    size_t db = 0;
    BSTAT(if (getenv("FUZZ_VERBOSE")) { bdump(c); fprintf(stderr, "  model: status %d (D1's %d)\n", (int)want, (int)want_d1); });
    bs_make(c, &s);
    ba_snap(m);
    why[0] = '\0';
    e = quant_explain((quant_op)c->op, s.src, dyn ? s.sc : NULL, dyn ? s.zp : NULL, s.dst, s.a, why, sizeof why);
    bs_check(c, &s, "quant_explain");
    ba_check(c, m, -1, NULL, "quant_explain");
    st = bcall(c->op, 1, s.src, s.dst, s.sc, s.zp, s.a);
    BSTAT(++bstat_status[0][c->op][(unsigned)st % 20]);
    want_status(c, "library", st, want);
    if (e != want) {
        if (FUZZ_BLOCK_KNOWN && want != want_d1 && e == want_d1) BSTAT(++bstat_known[0]);   /* D1 */
        else {
            char msg[300];
            snprintf(msg, sizeof msg, "quant_explain gives %d (%s), the op and the model %d (line: %s)", (int)e,
                     quant_status_str(e), (int)want, why);
            bfail(c, msg);
        }
    }
    if (why[0] == '\0') bfail(c, "quant_explain wrote no line");
    bs_check(c, &s, "library");
    if (st == QUANT_OK && n > 0) {
        db = (size_t)bbytes(c->dst.dtype, n);
        got = (uint8_t *)xmalloc(db + 1);
        memcpy(got, ba_ptr(m, BB_DST), db);
        ba_check(c, m, BB_DST, NULL, "library");
        if (!quantize) {
            exp = (uint8_t *)xmalloc(db + 1);
            expect_decode(c, ba_ptr(m, BB_SRC), exp, n);
            check_decoded(c, got, exp, n, "library");
        }
        BSTAT(++bstat_ok[blk_index(quantize ? c->dst.dtype : c->src.dtype)][quantize]; bstat_elems += (unsigned long)n);
    } else ba_check(c, m, -1, NULL, "library");
#if FUZZ_SCALAR_COPY
    ba_restore(m);
    st2 = bcall(c->op, 0, s.src, s.dst, s.sc, s.zp, s.a);
    want_status(c, "scalar copy", st2, st);
    bs_check(c, &s, "scalar copy");
    ba_check(c, m, got ? BB_DST : -1, got, "scalar copy (against the library's bytes)");
#else
    (void)st2;
#endif
    if (got && quantize) {
        ba_restore(m);
        check_encode_props(c, got, n, 1);
    }
    free(got);
    free(exp);
    bs_free(&s);
}

/* the expected status of a run of a prepared plan, bound to the tensors of
   variant v (0: the case's own), SPEC's; *d2: QUANT_ERR_NULL is D2's answer
   instead (a dynamic plan: what comes after quant_run's check of NULL
   scales) */
enum { RUN_OWN, RUN_DST_SHAPE, RUN_SRC_DTYPE, RUN_BACKWARDS, RUN_PAST_END, RUN_SCALES, RUN_ZPS, RUN_AT_SRC, NRUN };

/* Through a plan: quant_prepare (the model's status; plan untouched on an
   error), units, a run that must fail, quant_run, and quant_run_range over
   a random split. */
static void block_plan(bcase *c, barena *m, reader *r, quant_status want, quant_status want_d1)
{
    const int dyn = c->op >= 2, quantize = c->op % 2 == 0;
    const uint64_t n = shape_of(&c->src, 4).count;
    quant_plan plan, keep;
    bstructs s;
    quant_status st;
    size_t units, i, db, ub;
    uint8_t *exp = NULL, *whole = NULL;
    char msg[400];
    const unsigned vb = rd8(r), pieces = 1 + rd8(r) % 4, order = rd8(r);
    unsigned cuts_raw[4];
    for (i = 0; i < 4; ++i) cuts_raw[i] = rd16(r);
    BSTAT(if (getenv("FUZZ_VERBOSE")) {
              bdump(c);
              fprintf(stderr, "  model: status %d (D1's %d); run variant byte %u, %u pieces, order %u\n", (int)want,
                      (int)want_d1, vb, pieces, order);
          });
    bs_make(c, &s);
    ba_snap(m);
    memset(&plan, 0xA7, sizeof plan);
    keep = plan;
    /* a static op's plan ignores scales and zps tensors: passed when given */
    st = quant_prepare(&plan, (quant_op)c->op, s.src, s.sc, s.zp, s.dst, s.a);
    BSTAT(++bstat_status[1][c->op][(unsigned)st % 20]);
    if (st != want) {
        if (FUZZ_BLOCK_KNOWN && want != want_d1 && st == want_d1) BSTAT(++bstat_known[0]);   /* D1 */
        else want_status(c, "quant_prepare", st, want);
    }
    bs_check(c, &s, "quant_prepare");
    ba_check(c, m, -1, NULL, "quant_prepare");
    if (st != QUANT_OK) {
        if (memcmp(&plan, &keep, sizeof plan)) bfail(c, "quant_prepare failed and changed the plan");
        bs_free(&s);
        return;
    }
    units = quant_plan_units(&plan);
    if ((uint64_t)units != n / blk_elems(quantize ? c->dst.dtype : c->src.dtype)) {
        snprintf(msg, sizeof msg, "quant_plan_units is %lu for %lu elements: a unit is a block", (unsigned long)units,
                 (unsigned long)n);
        bfail(c, msg);
    }
    db = (size_t)bbytes(c->dst.dtype, n);
    ub = units ? db / units : 0;
    keep = plan;
    /* the expected bytes */
    if (n > 0) {
        if (quantize) exp = encode_with(c, &c->src, c->dst.dtype, "the one-shot static quantize");
        else {
            exp = (uint8_t *)xmalloc(db + 1);
            expect_decode(c, ba_ptr(m, BB_SRC), exp, n);
        }
    }
    /* a run that must fail (or a static plan given scales and zps, which it ignores) */
    if (vb >= 160) {
        const int v = 1 + (int)(vb % (NRUN - 1));
        quant_tensor ts = c->src, td = c->dst, tsc = c->sc, tzp = c->zp;
        const quant_tensor *psc = NULL, *pzp = NULL;
        size_t b0 = 0, b1 = units;
        quant_status w = QUANT_OK;
        int d2 = 0;
        tsc.dtype = QUANT_F32; tsc.rank = 1; tsc.dims[0] = 1;
        tzp.dtype = QUANT_S8; tzp.rank = 1; tzp.dims[0] = 1;
        tsc.data = tzp.data = ba_ptr(m, BB_XS) ? (void *)ba_ptr(m, BB_XS) : (void *)&keep;   /* read by no valid run */
        switch (v) {
        case RUN_DST_SHAPE: td.dims[td.rank - 1] += (int64_t)blk_elems(quantize ? td.dtype : ts.dtype); w = QUANT_ERR_SHAPE; break;
        case RUN_SRC_DTYPE:
            ts.dtype = quantize ? (ts.dtype == QUANT_F32 ? QUANT_F16 : QUANT_F32)
                                : (quant_dtype)(QUANT_Q4_0 + (blk_index(ts.dtype) + 1) % 15);
            w = QUANT_ERR_DTYPE;
            break;
        case RUN_BACKWARDS: b0 = 1; b1 = 0; w = QUANT_ERR_RANGE; d2 = dyn; break;
        case RUN_PAST_END: b1 = units + 1; w = QUANT_ERR_RANGE; d2 = dyn; break;
        case RUN_SCALES: psc = &tsc; w = dyn ? QUANT_ERR_SCALES : QUANT_OK; break;
        case RUN_ZPS: pzp = &tzp; w = dyn ? QUANT_ERR_ZPS : QUANT_OK; d2 = dyn; break;
        default:
            td.data = ts.data;
            w = n == 0 ? QUANT_OK : misaligned(td.data, align_of(td.dtype)) ? QUANT_ERR_ALIGN : QUANT_ERR_OVERLAP;
            d2 = dyn && w != QUANT_ERR_ALIGN;
            break;
        }
        if (w != QUANT_OK || !dyn) {
            const int ranged = v == RUN_BACKWARDS || v == RUN_PAST_END || (order & 1);
            ba_restore(m);
            st = ranged ? quant_run_range(&plan, &ts, psc, pzp, &td, b0, b1) : quant_run(&plan, &ts, psc, pzp, &td);
            BSTAT(++bstat_runs_bad);
            if (st != w) {
                if (FUZZ_BLOCK_KNOWN && d2 && st == QUANT_ERR_NULL) BSTAT(++bstat_known[1]);   /* D2 */
                else {
                    snprintf(msg, sizeof msg, "%s (run variant %d) gives %d (%s), expected %d (%s)",
                             ranged ? "quant_run_range" : "quant_run", v, (int)st, quant_status_str(st), (int)w,
                             quant_status_str(w));
                    bfail(c, msg);
                }
            }
            if (memcmp(&plan, &keep, sizeof plan)) bfail(c, "a run changed the plan");
            if (st == QUANT_OK && n > 0 && v != RUN_AT_SRC) {
                if (quantize) ba_check(c, m, BB_DST, exp, "a static plan run given scales or zps");
                else {
                    check_decoded(c, ba_ptr(m, BB_DST), exp, n, "a static plan run given scales or zps");
                    ba_check(c, m, BB_DST, NULL, "a static plan run given scales or zps");
                }
            } else ba_check(c, m, -1, NULL, "a run that must fail");
        }
    }
    /* the whole run */
    ba_restore(m);
    st = quant_run(&plan, s.src, NULL, NULL, s.dst);
    if (memcmp(&plan, &keep, sizeof plan)) bfail(c, "quant_run changed the plan");
    bs_check(c, &s, "quant_run");
    if (st != QUANT_OK) {
        if (FUZZ_BLOCK_KNOWN && dyn && st == QUANT_ERR_NULL) {   /* D2: nothing runs */
            BSTAT(++bstat_known[1]);
            ba_check(c, m, -1, NULL, "quant_run (D2)");
            st = quant_run_range(&plan, s.src, NULL, NULL, s.dst, 0, units);
            if (st != QUANT_ERR_NULL) want_status(c, "quant_run_range after D2", st, QUANT_ERR_NULL);
            ba_check(c, m, -1, NULL, "quant_run_range (D2)");
            free(exp);
            bs_free(&s);
            return;
        }
        want_status(c, "quant_run", st, QUANT_OK);
    }
    if (n == 0) {
        ba_check(c, m, -1, NULL, "quant_run on an empty tensor");
        free(exp);
        bs_free(&s);
        return;
    }
    whole = (uint8_t *)xmalloc(db + 1);
    memcpy(whole, ba_ptr(m, BB_DST), db);
    if (quantize) ba_check(c, m, BB_DST, exp, "quant_run against the one-shot quantize");
    else {
        check_decoded(c, whole, exp, n, "quant_run");
        ba_check(c, m, BB_DST, NULL, "quant_run");
    }
    if (quantize) check_encode_props(c, whole, n, 0);
    BSTAT(++bstat_ok[blk_index(quantize ? c->dst.dtype : c->src.dtype)][quantize]; bstat_elems += (unsigned long)n);
    /* ranges: cuts sorted, run forward or backward, each into dst as it was
       before any; the first one's bytes alone checked too */
    {
        size_t cuts[6], k, j, ncut = pieces - 1;
        cuts[0] = 0;
        for (k = 0; k < ncut; ++k) cuts[k + 1] = units ? cuts_raw[k] % (units + 1) : 0;
        cuts[ncut + 1] = units;
        for (k = 1; k <= ncut; ++k)
            for (j = k + 1; j <= ncut; ++j)
                if (cuts[j] < cuts[k]) { const size_t t = cuts[j]; cuts[j] = cuts[k]; cuts[k] = t; }
        ba_restore(m);
        for (k = 0; k <= ncut; ++k) {
            const size_t p = order & 2 ? ncut - k : k, b0 = cuts[p], b1 = cuts[p + 1];
            st = quant_run_range(&plan, s.src, NULL, NULL, s.dst, b0, b1);
            if (st != QUANT_OK) {
                snprintf(msg, sizeof msg, "quant_run_range(%lu, %lu) of %lu units gives %d", (unsigned long)b0,
                         (unsigned long)b1, (unsigned long)units, (int)st);
                bfail(c, msg);
            }
            if (k == 0) {
                /* only units b0 .. b1-1 written, as the whole run wrote them */
                uint8_t *w1 = (uint8_t *)xmalloc(db + 1);
                memcpy(w1, m->snap[m->home[BB_DST]] + m->off[BB_DST], db);
                memcpy(w1 + b0 * ub, whole + b0 * ub, (b1 - b0) * ub);
                ba_check(c, m, BB_DST, w1, "the first range of a split");
                free(w1);
            }
        }
        ba_check(c, m, BB_DST, whole, "the ranges of a split against quant_run");
        if (memcmp(&plan, &keep, sizeof plan)) bfail(c, "quant_run_range changed the plan");
        BSTAT(++bstat_ranges);
    }
    free(whole);
    free(exp);
    bs_free(&s);
}

static int block_case(reader *r)
{
    static const quant_dtype fl[] = { QUANT_F32, QUANT_F16, QUANT_BF16, QUANT_F32 };
    static const quant_dtype qn[] = { QUANT_S8, QUANT_U8, QUANT_F8_E4M3, QUANT_S4 };
    static const quant_dtype wild_f[] = { QUANT_UNDEF, QUANT_S8, QUANT_S32, QUANT_E8M0, QUANT_F8_E5M2, QUANT_S16,
                                          (quant_dtype)(QUANT_NVFP4_BLOCK + 1), (quant_dtype)-1, (quant_dtype)1000 };
    bcase c;
    barena m;
    int quantize, dyn, k, rk, held_s, held_d, stage, have_ss, have_ds;
    int64_t be, sst[QUANT_MAX_RANK], dst_[QUANT_MAX_RANK];
    size_t sb, dbb;
    unsigned ps, pd, xs = 0, xz = 0;
    quant_status want, want_d1;

    memset(&c, 0, sizeof c);
    memset(&m, 0, sizeof m);
    for (k = 0; k < NBB; ++k) m.home[k] = -1;
    {
        const unsigned mb = rd8(r);
        if (mb >= 224) c.op = 4 + (int)(mb & 1);
        else {
            c.op = (int)(mb % 4);
            c.plan = mb / 4 % 8 >= 5;
        }
    }
    quantize = c.op % 2 == 0 || c.op == 5;
    dyn = c.op == 2 || c.op == 3;
    c.bt = (quant_dtype)(QUANT_Q4_0 + (int)(rd8(r) % 15));
    be = (int64_t)blk_elems(c.bt);
    {
        const unsigned fb = rd8(r);
        quant_dtype qd = c.bt, fd;
        if (fb < 216) fd = fl[fb % 4];
        else if (fb < 232) { c.flavour = 1; fd = (quant_dtype)(QUANT_Q4_0 + (int)(fb % 15)); }
        else if (fb < 244) { c.flavour = 2; qd = qn[fb % 4]; fd = c.bt; }
        else { c.flavour = 3; fd = wild_f[fb % N(wild_f)]; }
        if (c.op >= 4) qd = c.bt;                                     /* the choose pair: a block qdt */
        c.src.dtype = quantize ? fd : qd;
        c.dst.dtype = quantize ? qd : fd;
    }
    {
        static const int wild_rank[] = { -1, 13, 12, -7 };
        const unsigned rb = rd8(r), junk = rd8(r);
        c.src.rank = rb < 192 ? 1 + (int)(rb % 3) : rb < 208 ? 0 : rb < 232 ? 4 + (int)(rb % 3) : wild_rank[rb % 4];
        for (k = 0; k < QUANT_MAX_RANK; ++k)
            c.src.dims[k] = k >= c.src.rank ? ((junk & 1) ? -1 - k : 0) : k == c.src.rank - 1 ? pick_last(r, be) : pick_outer(r);
    }
    rk = c.src.rank < 0 ? 0 : c.src.rank > QUANT_MAX_RANK ? QUANT_MAX_RANK : c.src.rank;
    c.dst.rank = c.src.rank;
    memcpy(c.dst.dims, c.src.dims, sizeof c.dst.dims);
    {
        const unsigned xb = rd8(r);
        if (xb >= 216 && xb < 228 && rk > 0) {
            int64_t *d = &c.dst.dims[rd8(r) % (unsigned)rk];
            const unsigned how = rd8(r) % 3;
            *d = how == 0 ? (*d == INT64_MAX ? 0 : *d + 1) : how == 1 ? (*d > INT64_MAX - be ? 1 : *d + be) : -1;
        } else if (xb >= 228 && xb < 240) c.dst.rank = (int)(rd8(r) % 15) - 1;
        else if (xb >= 240)
            for (k = rk; k < QUANT_MAX_RANK; ++k) c.dst.dims[k] = -3;   /* past the rank: ignored */
    }
    /* attrs */
    c.a = quant_attrs_default();
    {
        static const int wild_q[] = { 3, -1, 4, 1000 };
        static const int wild_r[] = { 4, -1, 5, 0x7FFFFFFF };
        static const int wild_f8[] = { 2, -1, 0x7FFFFFFF };
        static const int wild_oe[] = { 2, -1, 3 };
        static const float ts_good[] = { 2.0f, 1.0f, 0.5f, 448.0f };
        static const uint32_t ts_bad[] = { 0x7FC00000u, 0x7F800000u, 0xBF800000u, 0x00000001u };
        const unsigned ab = rd8(r), q = rd8(r), ro = rd8(r), fo = rd8(r), oe = rd8(r), ts = rd8(r);
        c.attrs_null = ab >= 236 && ab < 252;
        c.src_tnull = ab == 252 || ab == 253;
        c.dst_tnull = ab >= 254;
        c.a.qtype = (quant_qtype)(q < 200 ? 0 : q < 212 ? 1 : q < 224 ? 2 : wild_q[q % 4]);
        c.a.axis = (int64_t)(ab % 5) - 2;
        if (c.a.qtype == QUANT_PER_GROUP)
            for (k = 0; k < rk; ++k) c.a.group_shape[k] = k == rk - 1 ? be : 1;
        c.a.rounding = (quant_rounding)(ro < 236 ? (int)(ro % 4) : wild_r[ro % 4]);
        c.a.f8_overflow = (quant_f8_overflow)(fo < 244 ? (int)(fo % 2) : wild_f8[fo % 3]);
        c.a.on_error = (quant_on_error)(oe < 120 ? 0 : oe < 244 ? 1 : wild_oe[oe % 3]);
        c.a.tensor_scale = ts < 208 ? 0.0f : ts < 216 ? -0.0f : ts < 232 ? ts_good[ts % 4] : bits_f(ts_bad[ts % 4]);
    }
    /* the static lists (a dynamic op ignores them), the dynamic ops'
       tensors, the choose pair's scheme and tensors */
    {
        const unsigned lb = rd8(r), tb = rd8(r);
        if (lb < 168) {
        } else if (lb < 180) xs = 1;      /* one scale */
        else if (lb < 186) xs = 2;        /* a pointer, n_scales 0 */
        else if (lb < 192) xs = 3;        /* NULL, n_scales 1 */
        else if (lb < 204) xz = 1;
        else if (lb < 210) xz = 2;
        else if (lb < 216) xz = 3;        /* NULL, n_zps 2 */
        else xs = xz = 1;
        c.a.n_scales = xs == 1 || xs == 3 ? 1 : 0;
        c.a.n_zps = xz == 1 ? 1 : xz == 3 ? 2 : 0;
        if (c.op >= 4) {
            static const long long wild_s[] = { -1, 6, 1000, 0x7FFFFFFF };
            const unsigned sb2 = rd8(r);
            c.scheme = sb2 < 216 ? (long long)(sb2 % 6) : wild_s[sb2 % 4];
            c.sc_given = tb < 232;
            c.zp_given = (tb & 1) != 0;
        } else {
            c.sc_given = (tb >= 176 && tb < 204) || tb >= 228;
            c.zp_given = tb >= 204;
        }
        c.sc.dtype = QUANT_F32;
        c.sc.rank = 1;
        c.sc.dims[0] = 1;
        c.zp.dtype = c.op >= 4 ? QUANT_S32 : QUANT_S8;
        c.zp.rank = 1;
        c.zp.dims[0] = 1;
    }
    /* strides */
    have_ss = pick_strides(r, &c.src, sst);
    have_ds = pick_strides(r, &c.dst, dst_);
    /* the sizes: a tensor the harness cannot hold (or whose size is not
       whole blocks) is an 8-byte placeholder */
    {
        const shape_info s1 = shape_of(&c.src, 4), s2 = shape_of(&c.dst, 4);
        const int lw1 = rk > 0 && is_blk(c.src.dtype) && (uint64_t)c.src.dims[rk - 1] % blk_elems(c.src.dtype) != 0;
        const int dr = c.dst.rank < 0 ? 0 : c.dst.rank > QUANT_MAX_RANK ? QUANT_MAX_RANK : c.dst.rank;
        const int lw2 = dr > 0 && is_blk(c.dst.dtype) && (uint64_t)c.dst.dims[dr - 1] % blk_elems(c.dst.dtype) != 0;
        held_s = s1.known && s1.count <= BCAP && !lw1 && !(is_blk(c.src.dtype) && c.src.rank == 0);
        held_d = s2.known && s2.count <= BCAP && !lw2 && !(is_blk(c.dst.dtype) && c.dst.rank == 0);
        sb = held_s ? (size_t)bbytes(c.src.dtype, s1.count) : 8;
        dbb = held_d ? (size_t)bbytes(c.dst.dtype, s2.count) : 8;
        c.unheld = !held_s || !held_d;
    }
    /* pointers: own, NULL, misaligned; dst overlapping (or touching) src */
    ps = rd8(r);
    pd = rd8(r);
    if (ps >= 244 && pd < 216 && held_s && held_d && c.op < 4) {
        /* one allocation: dst at src + delta, delta in [-dst bytes, src bytes],
           the float side kept on its boundary */
        const unsigned dv = rd16(r);
        const long long na = (long long)sb, nb = (long long)dbb;
        long long delta = (long long)(dv % (unsigned)(na + nb + 1)) - nb, lo, so, dof;
        const long long fal = (long long)align_of(quantize ? c.src.dtype : c.dst.dtype);
        if (dv & 0x8000u) delta = (dv & 0x4000u) ? -nb : na;                /* touching: no overlap */
        lo = delta < 0 ? -delta : 0;
        so = lo;
        dof = lo + delta;
        {
            const long long fo = quantize ? so : dof, shift = (fal - fo % fal) % fal;
            so += shift;
            dof += shift;
        }
        ba_new(&m, BB_SRC, (size_t)(so + na > dof + nb ? so + na : dof + nb));
        m.home[BB_SRC] = m.home[BB_DST] = BB_SRC;
        m.off[BB_SRC] = (size_t)so;
        m.off[BB_DST] = (size_t)dof;
        m.bytes[BB_SRC] = sb;
        m.bytes[BB_DST] = dbb;
    } else {
        if (ps < 216 || ps >= 244) ba_own(&m, BB_SRC, sb, 0);
        else if (ps >= 228) ba_own(&m, BB_SRC, sb, 1 + ps % 3);
        if (pd < 216) ba_own(&m, BB_DST, dbb, 0);
        else if (pd >= 228) ba_own(&m, BB_DST, dbb, 1 + pd % 3);
    }
    if (c.sc_given) ba_own(&m, BB_SC, 4, 0);
    if (c.zp_given) ba_own(&m, BB_ZP, c.zp.dtype == QUANT_S32 ? 4 : 1, 0);
    if (xs == 1 || xs == 2) ba_own(&m, BB_XS, xs == 1 ? 4 : 0, 0);
    if (xz == 1 || xz == 2) ba_own(&m, BB_XZ, xz == 1 ? 8 : 0, 0);
    if (have_ss) ba_own(&m, BB_SS, 8 * (size_t)rk, 0);
    if (have_ds) ba_own(&m, BB_DS, 8 * (size_t)(c.dst.rank < 0 ? 0 : c.dst.rank > QUANT_MAX_RANK ? QUANT_MAX_RANK : c.dst.rank), 0);
    /* contents */
    if (have_ss && rk) memcpy(ba_ptr(&m, BB_SS), sst, 8 * (size_t)rk);
    if (have_ds && m.bytes[BB_DS]) memcpy(ba_ptr(&m, BB_DS), dst_, m.bytes[BB_DS]);
    if (xs == 1) { const float one = 1.0f; memcpy(ba_ptr(&m, BB_XS), &one, 4); }
    if (xz == 1) memset(ba_ptr(&m, BB_XZ), 0, 8);
    if (c.sc_given) { const float one = 1.0f; memcpy(ba_ptr(&m, BB_SC), &one, 4); }
    if (c.zp_given) memset(ba_ptr(&m, BB_ZP), 0, m.bytes[BB_ZP]);
    if (ba_ptr(&m, BB_SRC) && held_s) {
        const uint64_t n = shape_of(&c.src, 4).count;
        uint8_t *p = ba_ptr(&m, BB_SRC);
        size_t i;
        if (is_float_t(c.src.dtype)) fill_float_src(r, c.src.dtype, p, n, (uint64_t)be);
        else for (i = 0; i < sb; ++i) p[i] = r->n ? (uint8_t)rd8(r) : (uint8_t)(i * 37 + 11);
    }
    c.src.data = ba_ptr(&m, BB_SRC);
    c.dst.data = ba_ptr(&m, BB_DST);
    c.sc.data = ba_ptr(&m, BB_SC);
    c.zp.data = ba_ptr(&m, BB_ZP);
    c.a.scales = (const float *)(void *)ba_ptr(&m, BB_XS);
    c.a.zps = (const int64_t *)(void *)ba_ptr(&m, BB_XZ);
    c.a.src_strides = (const int64_t *)(void *)ba_ptr(&m, BB_SS);
    c.a.dst_strides = (const int64_t *)(void *)ba_ptr(&m, BB_DS);

    check_dtype_bytes(&c, c.src.rank > 0 && c.src.rank <= QUANT_MAX_RANK ? c.src.dims[c.src.rank - 1] : -1);
    check_dtype_bytes(&c, be * 3);
    check_dtype_bytes(&c, be + 32);

    if (c.op >= 4) {
        block_choose(&c, &m);
        ba_free(&m);
        return 0;
    }
    /* a static op's NULL attrs is the defaults (what D1 asked for) */
    want = model_block(&c, FUZZ_BLOCK_KNOWN, &stage);
    want_d1 = model_block(&c, 0, &k);
    /* a placeholder only where the status comes before the overlap check */
    if (c.unheld && (stage >= 4 || k >= 4)) {
        BSTAT(++bstat_skipped);
        ba_free(&m);
        return 0;
    }
    if (c.plan) block_plan(&c, &m, r, want, want_d1);
    else block_oneshot(&c, &m, want, want_d1);
    ba_free(&m);
    (void)dyn;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = { data, size };
    fcase c;
    mem m;
    int kind[NBUF], zero_null[NBUF];
    unsigned mis[NBUF];
    int dyn, quantize, k, b, per_ch_gen, c_ok_gen = 0, zl_null = 0;
    int64_t C_gen = 0, right, n_sc = 0, n_zp = 0;
    grid_info G_gen;
    unsigned ov_delta;
    quant_tensor *t_src, *t_dst, *t_sc, *t_zp, keep_t[4];
    quant_attrs *t_a, keep_a;
    verdict v;
    quant_status st;
    uint64_t n_out = 0;

    memset(&c, 0, sizeof c);
    memset(&m, 0, sizeof m);
    c.op = (int)rd8(&r);
    if (c.op >= 252) { row_kernel_case(&r); return 0; }
    if (c.op == 244) return block_case(&r);
    if (c.op >= 244) return choose_case(&r, (unsigned)c.op);
    c.op %= 4;
    dyn = c.op >= 2;
    quantize = c.op % 2 == 0;
    {
        const unsigned f = rd8(&r);
        c.attrs_null = f >= 236 && f < 252;
        c.sc_tnull = f == 252 || f == 253;
        c.dst_tnull = f == 254;
        c.src_tnull = f == 255;
    }
    /* src and dst shapes and types */
    c.src.rank = (int)((rd8(&r) + 3) % 15) - 1;                        /* -1 .. 13 */
    for (k = 0; k < QUANT_MAX_RANK; ++k) c.src.dims[k] = pick_dim(&r);
    c.dst = c.src;
    {
        static const quant_dtype qd[] = { QUANT_S8, QUANT_U8, QUANT_F8_E4M3, QUANT_F8_E5M2, QUANT_S4, QUANT_U4,
                                          QUANT_F4_E2M1 };
        static const quant_dtype dqs[] = { QUANT_S8, QUANT_U8, QUANT_S32, QUANT_F8_E4M3, QUANT_F8_E5M2, QUANT_S4,
                                           QUANT_U4, QUANT_F4_E2M1 };
        static const quant_dtype fl[] = { QUANT_F32, QUANT_F16, QUANT_BF16, QUANT_F32 };
        /* s2, u2, s16 (SPEC section 7.1) from the top of t's range, so that
           the rest keeps the types it had before them */
        static const quant_dtype q71[] = { QUANT_S2, QUANT_U2, QUANT_S16 };
        const unsigned t = rd8(&r), w = rd8(&r);
        const quant_dtype typ = t >= 208 ? q71[t % N(q71)] : quantize ? qd[t % N(qd)] : dqs[t % N(dqs)], ft = fl[w % 4];
        c.src.dtype = quantize ? ft : typ;
        c.dst.dtype = quantize ? typ : ft;
        if (w >= 232) {
            const quant_dtype x = wild_dtypes[rd8(&r) % N(wild_dtypes)];
            if (w & 1) c.src.dtype = x; else c.dst.dtype = x;
        }
    }
    {
        const unsigned b2 = rd8(&r);
        if (b2 >= 236 && b2 < 244) {                                  /* dims differ */
            int64_t *d = &c.dst.dims[rd8(&r) % QUANT_MAX_RANK];
            const unsigned how = rd8(&r) % 3;
            *d = how == 0 ? (*d == INT64_MAX ? 0 : *d + 1) : how == 1 ? 0 : -1;
        } else if (b2 >= 244 && b2 < 250) c.dst.rank = (int)(rd8(&r) % 15) - 1;
        else if (b2 >= 250) {                                          /* dims past the rank: ignored */
            for (k = c.dst.rank < 0 ? 0 : c.dst.rank; k < QUANT_MAX_RANK; ++k) c.dst.dims[k] = -3;
        }
    }
    /* attributes */
    c.a = quant_attrs_default();
    {
        const unsigned q = rd8(&r), ax = rd8(&r), ro = rd8(&r), fo = rd8(&r);
        static const int wild_q[] = { 4, -1, 3, 1000 };
        static const int64_t wild_axis[] = { INT64_MIN, INT64_MAX, 12, -12, 13, -13, ((int64_t)1 << 32) + 1,
                                             -((int64_t)1 << 32), (int64_t)1 << 31 };
        static const int wild_r[] = { 4, -1, 0x7FFFFFFF, 5 };
        static const int wild_f[] = { 2, -1, 0x7FFFFFFF };
        c.a.qtype = (quant_qtype)(q < 90 ? 0 : q < 170 ? 1 : q < 236 ? 2 : wild_q[q % 4]);
        c.a.axis = ax < 216 ? (int64_t)(ax % 27) - 13 : wild_axis[ax % N(wild_axis)];
        c.a.rounding = (quant_rounding)(ro < 240 ? (int)(ro % 4) : wild_r[ro % 4]);
        c.a.f8_overflow = (quant_f8_overflow)(fo < 240 ? (int)(fo % 2) : wild_f[fo % 3]);
    }
    right = pick_grid(&r, &c, LIST_CAP, &per_ch_gen, &c_ok_gen, &C_gen, &G_gen);

    /* scales and zero points: counts and shapes */
    n_sc = pick_count(&r, right, c_ok_gen, C_gen, dyn);
    {
        const unsigned zm = rd8(&r);
        const int64_t zright = zm >= 150 && zm < 176 ? 1 : right;
        if (!dyn) {
            zl_null = zm < 100 || (zm >= 210 && zm < 220);
            if (zm < 100) n_zp = 0;                                       /* no list */
            else if (zm < 200) n_zp = zright;
            else if (zm < 210) n_zp = 0;                                  /* a list with n_zps 0 */
            else if (zm < 220) n_zp = -1;                                 /* NULL with n_zps > 0 */
            else n_zp = pick_count(&r, zright, c_ok_gen, C_gen, 0);
        } else {
            c.zp_tnull = zm < 90;
            n_zp = zm < 210 ? zright : pick_count(&r, zright, c_ok_gen, C_gen, 1);
        }
    }
    if (dyn) {
        const unsigned ds = rd8(&r), dz = rd8(&r);
        static const quant_dtype zt[] = { QUANT_S8, QUANT_U8, QUANT_S32, QUANT_S4, QUANT_U4 };
        static const quant_dtype zt71[] = { QUANT_S2, QUANT_U2, QUANT_S16 };      /* SPEC section 7.1 */
        const grid_info *g = G_gen.known ? &G_gen : NULL;
        pick_aux_shape(&r, &c.sc, n_sc, !per_ch_gen, g);
        pick_aux_shape(&r, &c.zp, n_zp, !per_ch_gen, g);
        c.sc.dtype = ds < 150 ? QUANT_F32 : ds < 195 ? QUANT_F16 : ds < 240 ? QUANT_BF16 : wild_dtypes[ds % N(wild_dtypes)];
        c.zp.dtype = dz < 200 ? zt[dz % N(zt)] : dz < 231 ? zt71[dz % N(zt71)] : wild_dtypes[dz % N(wild_dtypes)];
    }
    /* sizes: an unholdable valid tensor is passed only where the call must
       fail for another reason; scales and zps tensors never */
    {
        int ok = 1;
        if (!tensor_bytes(&c.src, CAP, &c.bytes[B_SRC], &c.unheld[B_SRC])) c.unheld[B_SRC] = 2;
        if (!tensor_bytes(&c.dst, CAP, &c.bytes[B_DST], &c.unheld[B_DST])) c.unheld[B_DST] = 2;
        if (dyn) {
            ok &= tensor_bytes(&c.sc, LIST_CAP, &c.bytes[B_SC], &c.unheld[B_SC]);
            ok &= tensor_bytes(&c.zp, LIST_CAP, &c.bytes[B_ZP], &c.unheld[B_ZP]);
            if (c.zp_tnull) c.bytes[B_ZP] = 0, c.unheld[B_ZP] = 0;
            if (c.sc_tnull) c.bytes[B_SC] = 0, c.unheld[B_SC] = 0;
        } else {
            c.bytes[B_SC] = (size_t)n_sc * 4;
            c.bytes[B_ZP] = n_zp > 0 ? (size_t)n_zp * 8 : 0;
        }
        if (!ok) { STAT(++stat_skipped); return 0; }
    }
    /* the ignored static lists of a dynamic op */
    if (dyn) {
        const unsigned xs = rd8(&r), xz = rd8(&r);
        c.bytes[B_XS] = (xs & 1) ? 0 : (size_t)(xs >> 1) % 4 * 4;
        c.a.n_scales = (xs & 1) ? (size_t)(xs >> 1) : c.bytes[B_XS] / 4;
        c.bytes[B_XZ] = (xz & 1) ? 0 : (size_t)(xz >> 1) % 4 * 8;
        c.a.n_zps = (xz & 1) ? (size_t)(xz >> 1) : c.bytes[B_XZ] / 8;
    } else {
        c.a.n_scales = (size_t)n_sc;
        c.a.n_zps = n_zp < 0 ? (size_t)(1 + rd8(&r) % 4) : (size_t)n_zp;
    }

    /* pointers: own, NULL or misaligned; dst overlapping something */
    for (b = 0; b < NBUF; ++b) {
        const unsigned p = b < 4 ? rd8(&r) : 0;
        kind[b] = p < 214 ? K_OWN : p < 230 ? K_NULL : K_MIS;
        mis[b] = kind[b] == K_MIS ? 1 + p % 3 : 0;
        zero_null[b] = p & 1;
    }
    if (!dyn) {
        /* static lists: NULL or not as chosen above, never misaligned */
        kind[B_SC] = kind[B_SC] == K_NULL ? K_NULL : K_OWN;
        kind[B_ZP] = zl_null ? K_NULL : K_OWN;
        zero_null[B_SC] = 0;
        zero_null[B_ZP] = 0;                                          /* a list with n_zps 0: malloc(0) */
        mis[B_SC] = mis[B_ZP] = 0;
        kind[B_XS] = kind[B_XZ] = K_NULL;
    } else {
        kind[B_XS] = c.a.n_scales && !c.bytes[B_XS] ? K_NULL : K_OWN;
        kind[B_XZ] = c.a.n_zps && !c.bytes[B_XZ] ? K_NULL : K_OWN;
        if (c.sc_tnull) kind[B_SC] = K_NULL;
        if (c.zp_tnull) kind[B_ZP] = K_NULL;
    }
    {
        const unsigned o = rd8(&r);
        ov_delta = rd16(&r);
        c.ov = o < 196 ? OV_NONE : o < 208 ? OV_SRC : o < 218 ? OV_SC : o < 228 ? OV_ZP
             : o < 236 ? (dyn ? OV_XS : OV_SC) : o < 246 ? OV_SAME : OV_SRC_SC;
    }

    /* allocate */
    alloc_bufs(&c, &m, kind, mis, zero_null, ov_delta);
    /* contents: a pattern, then the scales, zero points and src from the input */
    for (b = 0; b < NBUF; ++b) {
        size_t i;
        for (i = 0; i < m.size[b]; ++i) m.blk[b][i] = (uint8_t)(0xA5 ^ (i * 7) ^ ((size_t)b << 5));
    }
    {
        size_t i;
        uint8_t *p;
        if ((p = (uint8_t *)c.ptr[B_SC]) != NULL) {
            if (!dyn || c.sc.dtype == QUANT_F32 || c.unheld[B_SC])
                for (i = 0; i + 4 <= c.bytes[B_SC]; i += 4) { const uint32_t u = pick_scale_bits(&r); memcpy(p + i, &u, 4); }
            else if (is_h16(c.sc.dtype))
                for (i = 0; i + 2 <= c.bytes[B_SC]; i += 2) {
                    const uint16_t h = pick_scale16(&r, c.sc.dtype == QUANT_BF16);
                    memcpy(p + i, &h, 2);
                }
            else for (i = 0; i < c.bytes[B_SC]; ++i) p[i] = (uint8_t)rd8(&r);
        }
        if ((p = (uint8_t *)c.ptr[B_ZP]) != NULL) {
            if (!dyn) for (i = 0; i + 8 <= c.bytes[B_ZP]; i += 8) { const int64_t z = pick_zp(&r); memcpy(p + i, &z, 8); }
            else if (c.zp.dtype == QUANT_S32)
                for (i = 0; i + 4 <= c.bytes[B_ZP]; i += 4) { const int32_t z = (int32_t)pick_zp(&r); memcpy(p + i, &z, 4); }
            else if (c.zp.dtype == QUANT_S16)
                for (i = 0; i + 2 <= c.bytes[B_ZP]; i += 2) { const int16_t z = (int16_t)pick_zp(&r); memcpy(p + i, &z, 2); }
            else if (is_4bit(c.zp.dtype))   /* two zero points a byte (an odd count's last high nibble unused) */
                for (i = 0; i < c.bytes[B_ZP]; ++i) {
                    const int64_t lo = pick_zp(&r);
                    p[i] = (uint8_t)((lo & 15) | (pick_zp(&r) & 15) << 4);
                }
            else if (is_2bit(c.zp.dtype))   /* four a byte (the bits past the last unused) */
                for (i = 0; i < c.bytes[B_ZP]; ++i) {
                    unsigned j, byte = 0;
                    for (j = 0; j < 4; ++j) byte |= (unsigned)(pick_zp(&r) & 3) << (2 * j);
                    p[i] = (uint8_t)byte;
                }
            else for (i = 0; i < c.bytes[B_ZP]; ++i) p[i] = (uint8_t)pick_zp(&r);
        }
        if ((p = (uint8_t *)c.ptr[B_XS]) != NULL)
            for (i = 0; i + 4 <= c.bytes[B_XS]; i += 4) { const uint32_t u = pick_scale_bits(&r); memcpy(p + i, &u, 4); }
        if ((p = (uint8_t *)c.ptr[B_SRC]) != NULL) {
            const size_t nb = c.bytes[B_SRC];
            if (c.src.dtype == QUANT_F32)
                for (i = 0; i + 4 <= nb; i += 4) { const float x = pick_f32(&r, i / 4); memcpy(p + i, &x, 4); }
            else if (is_h16(c.src.dtype))
                for (i = 0; i + 2 <= nb; i += 2) {
                    const uint16_t h = pick_h16(&r, i / 2, c.src.dtype == QUANT_BF16);
                    memcpy(p + i, &h, 2);
                }
            else if (c.src.dtype == QUANT_S32)
                for (i = 0; i + 4 <= nb; i += 4) { const int32_t q = pick_s32(&r); memcpy(p + i, &q, 4); }
            else for (i = 0; i < nb; ++i) p[i] = r.n ? (uint8_t)rd8(&r) : (uint8_t)(i * 37 + 11);
        }
    }
    /* last: on_error, which these ops only validate (partial: the same
       results), then tensor_scale (SPEC section 7.1) */
    c.a.on_error = pick_on_error(&r);
    c.a.tensor_scale = pick_tensor_scale(&r);
    /* the tensors and attributes, each in its own allocation */
    c.src.data = c.ptr[B_SRC];
    c.dst.data = c.ptr[B_DST];
    if (dyn) {
        c.sc.data = c.ptr[B_SC];
        c.zp.data = c.ptr[B_ZP];
        c.a.scales = (const float *)c.ptr[B_XS];
        c.a.zps = (const int64_t *)c.ptr[B_XZ];
    } else {
        c.a.scales = (const float *)c.ptr[B_SC];
        c.a.zps = (const int64_t *)c.ptr[B_ZP];
    }

    v = model(&c);
    /* a valid tensor the harness could not hold is only passed to a call
       that must fail before it reads it */
    if (!v.fail && (c.unheld[B_SRC] || c.unheld[B_DST] || (dyn && (c.unheld[B_SC] || c.unheld[B_ZP])))) {
        STAT(++stat_skipped);
        mem_free(&m);
        return 0;
    }
    for (b = 0; b < NBUF; ++b) {
        if (!m.blk[b]) continue;
        m.snap[b] = (uint8_t *)xmalloc(m.size[b] ? m.size[b] : 1);
        memcpy(m.snap[b], m.blk[b], m.size[b]);
    }
    t_src = c.src_tnull ? NULL : (quant_tensor *)xmalloc(sizeof *t_src);
    t_dst = c.dst_tnull ? NULL : (quant_tensor *)xmalloc(sizeof *t_dst);
    t_sc = !dyn || c.sc_tnull ? NULL : (quant_tensor *)xmalloc(sizeof *t_sc);
    t_zp = !dyn || c.zp_tnull ? NULL : (quant_tensor *)xmalloc(sizeof *t_zp);
    t_a = c.attrs_null ? NULL : (quant_attrs *)xmalloc(sizeof *t_a);
    if (t_src) *t_src = c.src;
    if (t_dst) *t_dst = c.dst;
    if (t_sc) *t_sc = c.sc;
    if (t_zp) *t_zp = c.zp;
    if (t_a) *t_a = c.a;
    keep_t[0] = c.src; keep_t[1] = c.dst; keep_t[2] = c.sc; keep_t[3] = c.zp; keep_a = c.a;

    STAT(if (getenv("FUZZ_VERBOSE")) { dump_case(&c); fprintf(stderr, "  model set 0x%x fail %d\n", v.set, v.fail); });
    st = call_op(c.op, 1, t_src, t_dst, t_sc, t_zp, t_a);

    {
        char msg[512];
        const int acceptable = v.fail ? st != QUANT_OK && ((v.set >> (unsigned)st) & 1u)
                                      : st == QUANT_OK || ((v.set >> (unsigned)st) & 1u);
        if ((unsigned)st >= 32 || !acceptable) {
            int s, len;
            len = snprintf(msg, sizeof msg, "status %d (%s); the model %s", (int)st, quant_status_str(st),
                           v.fail ? "says it must fail with one of:" : "says QUANT_OK, or one of:");
            for (s = 1; s < 32 && len > 0 && (size_t)len < sizeof msg; ++s)
                if ((v.set >> s) & 1u) len += snprintf(msg + len, sizeof msg - (size_t)len, " %d (%s)", s,
                                                       quant_status_str((quant_status)s));
            fail_case(&c, msg);
        }
        if ((t_src && memcmp(t_src, &keep_t[0], sizeof *t_src)) || (t_dst && memcmp(t_dst, &keep_t[1], sizeof *t_dst)) ||
            (t_sc && memcmp(t_sc, &keep_t[2], sizeof *t_sc)) || (t_zp && memcmp(t_zp, &keep_t[3], sizeof *t_zp)) ||
            (t_a && attrs_differ(t_a, &keep_a)))
            fail_case(&c, "a tensor or attribute struct changed");
    }
    if (st == QUANT_OK && !c.dst_tnull) n_out = shape_of(&c.dst, esize(c.dst.dtype)).count;
    STAT(++stat_status[c.op][(unsigned)st & 15]; stat_expected_fail += (unsigned long)v.fail;
         ++stat_on_error[c.op][c.attrs_null ? 0 : on_error_ok((long long)c.a.on_error) ? (int)c.a.on_error : 2];
         if (!c.attrs_null && (unsigned)c.a.qtype < 3) ++stat_qtype[c.a.qtype][(unsigned)st & 15];
         if (st == QUANT_OK && (unsigned)c.src.dtype < NDT && (unsigned)c.dst.dtype < NDT)
             ++stat_ok_types[c.src.dtype][c.dst.dtype];
         if (!c.attrs_null) ++stat_ts[st == QUANT_OK ? ts_set(c.a.tensor_scale) : ts_good(c.a.tensor_scale) ? 3 : 2];
         stat_elems[c.op] += (unsigned long)n_out;
         if (getenv("FUZZ_VERBOSE")) fprintf(stderr, "  -> status %d\n", (int)st));
    {
        /* the expected memory: as it was, and on success dst as the oracle says */
        uint8_t *expect = NULL;
        const int db = m.buf_blk[B_DST];
        const size_t dbytes = (size_t)nbytes(c.dst.dtype, n_out);
        if (st == QUANT_OK && n_out) {
            const int sb = m.buf_blk[B_SRC], cb = m.buf_blk[B_SC], zb = m.buf_blk[B_ZP];
            expect = (uint8_t *)xmalloc(dbytes);
            oracle(&c, m.snap[sb] + m.buf_off[B_SRC], m.snap[cb] + m.buf_off[B_SC],
                   zb >= 0 ? m.snap[zb] + m.buf_off[B_ZP] : NULL, expect, n_out);
        }
        for (b = 0; b < NBUF; ++b) {
            size_t i;
            for (i = 0; i < m.size[b]; ++i) {
                const int in_dst = expect && b == db && i >= m.buf_off[B_DST] && i < m.buf_off[B_DST] + dbytes;
                const uint8_t want = in_dst ? expect[i - m.buf_off[B_DST]] : m.snap[b][i];
                if (m.blk[b][i] != want) {
                    char msg[512];
                    if (in_dst) {
                        /* the element (a 4-bit byte: two elements) and its src element's bytes */
                        const size_t off = i - m.buf_off[B_DST], es = esize(c.dst.dtype), e0 = off / es * es;
                        const uint64_t e = is_packed(c.dst.dtype) ? per_byte(c.dst.dtype) * (uint64_t)off : off / es;
                        const size_t ses = esize(c.src.dtype);
                        const size_t sat = is_packed(c.src.dtype) ? (size_t)(e / per_byte(c.src.dtype)) : (size_t)e * ses;
                        uint32_t w = 0, g = 0, sv = 0;
                        memcpy(&w, expect + e0, es);
                        memcpy(&g, m.blk[b] + m.buf_off[B_DST] + e0, es);
                        memcpy(&sv, m.snap[m.buf_blk[B_SRC]] + m.buf_off[B_SRC] + sat, ses);
                        snprintf(msg, sizeof msg, "dst element %lu%s: oracle 0x%08lx, library 0x%08lx (src element "
                                 "bytes 0x%08lx as stored, little-endian)", (unsigned long)e,
                                 is_packed(c.dst.dtype) ? " and the next ones (one byte)" : "", (unsigned long)w,
                                 (unsigned long)g, (unsigned long)sv);
                    } else {
                        int which = -1, x;
                        for (x = 0; x < NBUF; ++x)
                            if (m.buf_blk[x] == b && i >= m.buf_off[x] && i < m.buf_off[x] + c.bytes[x]) which = x;
                        snprintf(msg, sizeof msg, "status %d, yet byte %lu of the block of %s (inside %s) changed: "
                                 "0x%02x -> 0x%02x", (int)st, (unsigned long)i, buf_name[b],
                                 which >= 0 ? buf_name[which] : "no buffer", m.snap[b][i], m.blk[b][i]);
                    }
                    free(expect);
                    fail_case(&c, msg);
                }
            }
        }
        free(expect);
    }
#if FUZZ_SCALAR_COPY
    {
        /* the forced-scalar copy from the same starting memory */
        quant_status st2;
        for (b = 0; b < NBUF; ++b) {
            if (!m.blk[b]) continue;
            m.post[b] = (uint8_t *)xmalloc(m.size[b] ? m.size[b] : 1);
            memcpy(m.post[b], m.blk[b], m.size[b]);
            memcpy(m.blk[b], m.snap[b], m.size[b]);
        }
        st2 = call_op(c.op, 0, t_src, t_dst, t_sc, t_zp, t_a);
        if (st2 != st) fail_case(&c, "the scalar copy returns another status");
        for (b = 0; b < NBUF; ++b)
            if (m.blk[b] && memcmp(m.blk[b], m.post[b], m.size[b]) != 0)
                fail_case(&c, "the scalar copy writes other bytes");
    }
#endif
    free(t_src);
    free(t_dst);
    free(t_sc);
    free(t_zp);
    free(t_a);
    mem_free(&m);
    return 0;
}
