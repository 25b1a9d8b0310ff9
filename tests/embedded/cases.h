/* The cases the bare-metal test runs, shared by the test itself and by the
   host program that computes their expected results with the oracle. No
   libc: the same integer and float steps give the same inputs on every
   target. Every group of outputs is reduced to an FNV-1a hash. */
#ifndef CASES_H
#define CASES_H
#include <stdint.h>

#define EMB_N 300        /* inputs per quantize group: every scalar path, many values */
#define EMB_NS 8
#define EMB_NZ 9
#define EMB_ROWS 4
#define EMB_CH 37

static const float emb_scales[EMB_NS] = {
    1.0f, 0.1f, -0.25f, 3.7f, 1e-3f, 6.5e4f, 5.8774718e-39f /* subnormal */, 3.0e38f
};
static const int64_t emb_zps[EMB_NZ] = { 0, 1, -1, 127, -128, 255, 77777, 2147483647, -2147483647 - 1 };

typedef union emb_fu { float f; uint32_t u; } emb_fu;
static float emb_f(uint32_t u) { emb_fu x; x.u = u; return x.f; }
static uint32_t emb_u(float f) { emb_fu x; x.f = f; return x.u; }

static uint32_t emb_rng;
static uint32_t emb_rand(void)
{
    emb_rng ^= emb_rng << 13;
    emb_rng ^= emb_rng >> 17;
    emb_rng ^= emb_rng << 5;
    return emb_rng;
}

static const uint32_t emb_edges[] = {
    0x00000000u, 0x80000000u, 0x3F000000u, 0xBF000000u, 0x3FC00000u, 0x40200000u, 0x7F800000u,
    0xFF800000u, 0x7FC00000u, 0xFFC00000u, 0x7F7FFFFFu, 0x00000001u, 0x807FFFFFu, 0x42FF0000u,
    0xC3008000u, 0x437F8000u, 0x4F000000u, 0xCF800000u, 0x43E80000u, 0x47700000u, 0x3B000000u
};

/* edge values, ties (k + 1/2) * s with a few ulps around them, random bits */
static void emb_inputs(float *x, int n, float s, uint32_t seed)
{
    int i;
    emb_rng = seed * 2654435761u + 1u;
    for (i = 0; i < n; ++i) {
        const uint32_t r = emb_rand();
        if (i < (int)(sizeof emb_edges / sizeof emb_edges[0])) x[i] = emb_f(emb_edges[i]);
        else if (r % 3 == 0) {
            const float t = ((float)(int)((r >> 8) % 601) - 300.0f + 0.5f) * s;
            x[i] = emb_f(emb_u(t) + (uint32_t)((int)((r >> 4) % 9) - 4));
        } else if (r % 3 == 1) x[i] = emb_f(emb_rand());
        else x[i] = (float)(int)((r >> 8) % 20001 - 10000) * 0.01f * s;
    }
}

static uint32_t emb_hash(uint32_t h, uint32_t v)
{
    int k;
    for (k = 0; k < 4; ++k) { h ^= (v >> (8 * k)) & 0xFFu; h *= 16777619u; }
    return h;
}
#define EMB_HASH0 2166136261u

/* dtype codes: 0 s8, 1 u8, 2 f8_e4m3, 3 f8_e5m2 */
static int emb_is_f8(int dt) { return dt >= 2; }

/* The cases, in the one order both programs walk them: per-tensor
   quantize (dtype, rounding, f8 overflow, scale, zero point), per-tensor
   dequantize of all 256 codes (dtype, scale, zero point), and per-channel
   quantize of [ROWS, CH] on the last axis and [CH, ROWS] on axis 0. */
enum { EMB_QUANT, EMB_DEQUANT, EMB_PER_CHANNEL, EMB_GROUP };
/* per group: 4-bit [ROWS, CH] weights, groups of 1 x EMB_G along each row
   (the last one ragged), a scale and zero point per group; dt 0 s4 -> f32,
   1 u4 -> bf16 */
#define EMB_G 8
#define EMB_NG ((EMB_CH + EMB_G - 1) / EMB_G)
typedef struct emb_case { int kind, dt, rnd, ov, si, zi, layout; } emb_case;

static int emb_set(emb_case *c, int kind, int dt, int rnd, int ov, int si, int zi, int layout)
{
    c->kind = kind; c->dt = dt; c->rnd = rnd; c->ov = ov; c->si = si; c->zi = zi; c->layout = layout;
    return 1;
}

/* case number `index` into *c; 0 past the last one */
static int emb_case_at(int index, emb_case *c)
{
    int n = 0, dt, rnd, ov, si, zi, layout;
    for (dt = 0; dt < 4; ++dt)
        for (rnd = 0; rnd < 4; ++rnd)
            for (ov = 0; ov < (emb_is_f8(dt) ? 2 : 1); ++ov)
                for (si = 0; si < EMB_NS; ++si)
                    for (zi = 0; zi < (emb_is_f8(dt) ? 1 : EMB_NZ); ++zi)
                        if (n++ == index) return emb_set(c, EMB_QUANT, dt, rnd, ov, si, zi, 0);
    for (dt = 0; dt < 4; ++dt)
        for (si = 0; si < EMB_NS; ++si)
            for (zi = 0; zi < (emb_is_f8(dt) ? 1 : EMB_NZ); ++zi)
                if (n++ == index) return emb_set(c, EMB_DEQUANT, dt, 0, 0, si, zi, 0);
    for (dt = 0; dt < 2; ++dt)
        for (rnd = 0; rnd < 4; ++rnd)
            for (layout = 0; layout < 2; ++layout)
                if (n++ == index) return emb_set(c, EMB_PER_CHANNEL, dt, rnd, 0, 0, 0, layout);
    for (dt = 0; dt < 2; ++dt)
        for (si = 0; si < EMB_NS; ++si)
            if (n++ == index) return emb_set(c, EMB_GROUP, dt, 0, 0, si, 0, 0);
    return 0;
}

/* channel c's scale and zero point in a per-channel case */
static float emb_ch_scale(int c, int rnd) { return emb_scales[(c * 3 + rnd) % EMB_NS]; }
static int64_t emb_ch_zp(int c) { return emb_zps[(c * 5) % EMB_NZ]; }
/* group k's scale and zero point in a per-group case (zero points fit 4 bits) */
static float emb_g_scale(int k, int si) { return emb_scales[(k * 3 + si) % EMB_NS]; }
static int64_t emb_g_zp(int k, int dt) { return dt == 0 ? (int64_t)(k % 16) - 8 : (int64_t)(k * 7 % 16); }
/* the packed weights: byte b of the row-major tensor */
static uint8_t emb_g_byte(int b) { return (uint8_t)(b * 73 + 41); }

/* ggml's block formats (QUANT_Q4_0 .. QUANT_NVFP4_BLOCK, in that order):
   gen_expected reads ggml's own vectors (tests/data/ggml/<name>.bin) and
   writes into expected.h, per type, its rows of 256 inputs (all but those
   where ggml's C is undefined) with the hashes of ggml's encoding of each
   (and of ggml's decoding of that encoding), the
   file's arbitrary blocks (NaN, Inf, zero and subnormal scales among them)
   with the hash of ggml's decoding of each, and the hashes of those
   decodings rounded to bf16 and to f16. NaN payloads and signs are not
   promised (soft float and FPUs make different ones): every NaN is hashed
   as one canonical NaN. */
#define EMB_BLK_TYPES 15
#define EMB_BLK_COLS 256
typedef struct emb_blk_type {
    uint32_t block_elems, block_bytes;
    uint32_t row0, rows;       /* its rows: emb_blk_rows[row0 ..], inputs at emb_blk_in[row0 * 256 ..] */
    uint32_t blk0, nblk;       /* its blocks: emb_blk_dec[blk0 ..], bytes at emb_blk_bytes[byte0 ..] */
    uint32_t byte0;
    uint32_t bf16_hash, f16_hash; /* all its blocks decoded to bf16, to f16 */
} emb_blk_type;
typedef struct emb_blk_row {
    uint32_t row, flags;       /* the row's number and row_flags in the ggml file (bit0 bf16, bit1 f16 values) */
    uint32_t enc_hash;         /* ggml's bytes */
    uint32_t rt_hash;          /* ggml's f32 decoding of them */
} emb_blk_row;

static uint32_t emb_canon32(uint32_t u) { return (u & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FC00000u : u; }
static uint32_t emb_canon_bf16(uint32_t h) { return (h & 0x7FFFu) > 0x7F80u ? 0x7FC0u : h; }
static uint32_t emb_canon_f16(uint32_t h) { return (h & 0x7FFFu) > 0x7C00u ? 0x7E00u : h; }

/* the f16 code of a finite float that is exactly an f16 value */
static uint16_t emb_f16_exact(uint32_t u)
{
    const uint32_t sign = u >> 16 & 0x8000u, a = u & 0x7FFFFFFFu;
    const int e = (int)(a >> 23) - 127;
    if (a == 0) return (uint16_t)sign;
    if (e >= -14) return (uint16_t)(sign | (uint32_t)(e + 15) << 10 | (a & 0x7FFFFFu) >> 13);
    return (uint16_t)(sign | ((a & 0x7FFFFFu) | 0x800000u) >> (-e - 1));
}

#endif
