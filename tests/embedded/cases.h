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

#endif
