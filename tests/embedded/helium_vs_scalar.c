/* Helium against scalar, half of it: this file is compiled twice into one
   program, with QUANT_SIMD_HELIUM and QUANT_SIMD_SCALAR (QUANT_STATIC keeps
   the two copies of quant.h apart) and HVS_RUN naming the entry; each runs
   the same operations on random and edge inputs (cases.h's emb_inputs:
   ties, +-0, NaN, +-Inf, subnormals, huge values; random f16 bit patterns)
   and hands every result's hash to emit. helium_main.c compares them. */
#define QUANT_STATIC
#define QUANT_IMPLEMENTATION
#include "../../quant.h"
#include "cases.h"
#include "emb.h"
#define N 1031
static float xs[N], ys[N], sc[64];
static uint16_t hs[N], h2[N];
static uint8_t qs[2 * N]; /* s16 takes two bytes an element */
static int32_t is[N];
static int64_t zp[64];
static void (*hex)(uint32_t);
static quant_tensor ten(quant_dtype t, int rank, int64_t d0, int64_t d1, void *data)
{
    quant_tensor x; int k;
    x.dtype = t; x.rank = rank;
    for (k = 0; k < QUANT_MAX_RANK; ++k) x.dims[k] = 1;
    x.dims[0] = d0; x.dims[1] = d1; x.data = data;
    return x;
}
static uint32_t hbytes(const void *p, uint32_t n) { const uint8_t *b = (const uint8_t *)p; uint32_t h = EMB_HASH0, i; for (i = 0; i < n; ++i) h = emb_hash(h, b[i]); return h; }
static void fill(uint32_t seed, float s)
{
    int i;
    emb_inputs(xs, N, s, seed);
    for (i = 0; i < N; ++i) {
        uint32_t u = emb_u(xs[i]);
        hs[i] = (uint16_t)(u >> 16);                 /* bf16 bits */
        h2[i] = (uint16_t)(emb_rand() & 0xFFFFu);     /* any f16 bits */
        qs[i] = (uint8_t)emb_rand();
        is[i] = (int32_t)emb_rand() >> (emb_rand() & 31);
    }
}
const char *HVS_RUN(void (*emit)(uint32_t));
const char *HVS_RUN(void (*emit)(uint32_t))
{
    static const quant_dtype qd[] = { QUANT_S8, QUANT_U8, QUANT_S4, QUANT_U4, QUANT_F8_E4M3, QUANT_F8_E5M2, QUANT_S2, QUANT_U2, QUANT_S16 };
    static const quant_dtype fd[] = { QUANT_F32, QUANT_BF16, QUANT_F16 };
    int a, b, rnd, ov, si, zi, len, lens[3] = { N, 37, 256 };
    uint32_t seed = 1;
    hex = emit;
    for (a = 0; a < 9; ++a) for (b = 0; b < 3; ++b) for (rnd = 0; rnd < 4; ++rnd) for (ov = 0; ov < 2; ++ov)
    for (si = 0; si < EMB_NS; ++si) for (zi = 0; zi < 4; ++zi) for (len = 0; len < 3; ++len) {
        quant_attrs at = quant_attrs_default();
        const int is_f8 = qd[a] == QUANT_F8_E4M3 || qd[a] == QUANT_F8_E5M2;
        const int64_t zps4[4] = { 0, 1, -1, 3 };
        int64_t z = zps4[zi];
        quant_tensor tf, tq;
        quant_status st;
        int k;
        if (is_f8 && zi) continue;
        if (!is_f8 && ov) continue;
        fill(seed++, emb_scales[si]);
        at.rounding = (quant_rounding)rnd; at.f8_overflow = (quant_f8_overflow)ov;
        at.scales = &emb_scales[si]; at.n_scales = 1;
        if (!is_f8) { at.zps = &z; at.n_zps = 1; }
        tf = ten(fd[b], 1, lens[len], 1, fd[b] == QUANT_F32 ? (void *)xs : fd[b] == QUANT_BF16 ? (void *)hs : (void *)h2);
        tq = ten(qd[a], 1, lens[len], 1, qs);
        st = quant_quantize(&tf, &tq, &at);
        hex((uint32_t)st ^ hbytes(qs, (uint32_t)quant_dtype_bytes(qd[a], lens[len])));
        /* dequantize the codes back to each float type */
        for (k = 0; k < 3; ++k) {
            quant_tensor ty = ten(fd[k], 1, lens[len], 1, k == 0 ? (void *)ys : (void *)h2);
            at.rounding = (quant_rounding)rnd;
            st = quant_dequantize(&tq, &ty, &at);
            hex((uint32_t)st ^ hbytes(ty.data, (uint32_t)lens[len] * (k ? 2u : 4u)));
        }
        /* per channel: [37, rows] on axis 0 and [rows, 37] on axis 1, scales varied */
        if (len == 1 && b == 0) {
            int c, ax;
            for (c = 0; c < 37; ++c) { sc[c] = emb_scales[(c * 3 + si) % EMB_NS]; zp[c] = is_f8 ? 0 : (c % 3) - 1; }
            for (ax = 0; ax < 2; ++ax) {
                quant_attrs pc = at;
                tf = ax ? ten(QUANT_F32, 2, 27, 37, xs) : ten(QUANT_F32, 2, 37, 27, xs);
                tq = tf; tq.dtype = qd[a]; tq.data = qs;
                pc.qtype = QUANT_PER_CHANNEL; pc.axis = ax; pc.scales = sc; pc.n_scales = 37;
                pc.zps = is_f8 ? 0 : zp; pc.n_zps = is_f8 ? 0 : 37;
                st = quant_quantize(&tf, &tq, &pc);
                hex((uint32_t)st ^ hbytes(qs, (uint32_t)quant_dtype_bytes(qd[a], 999)));
                st = quant_dequantize(&tq, &tf, &pc);
                hex((uint32_t)st ^ hbytes(xs, 999 * 4u));
            }
        }
    }
    /* s32 -> f32, the range search and the dynamic ops */
    for (si = 0; si < EMB_NS; ++si) {
        quant_attrs at = quant_attrs_default();
        quant_tensor ti = ten(QUANT_S32, 1, N, 1, is), tf = ten(QUANT_F32, 1, N, 1, ys);
        int sch;
        fill(seed++, emb_scales[si]);
        at.scales = &emb_scales[si]; at.n_scales = 1;
        hex((uint32_t)quant_dequantize(&ti, &tf, &at) ^ hbytes(ys, N * 4u));
        for (sch = 0; sch < 3; ++sch) for (a = 0; a < 2; ++a) {
            float s1; int32_t z1 = 0;
            quant_tensor src = ten(QUANT_F32, 1, N, 1, xs), dst = ten(qd[a], 1, N, 1, qs);
            quant_tensor st_ = ten(QUANT_F32, 1, 1, 1, &s1), zt = ten(QUANT_S32, 1, 1, 1, &z1);
            quant_attrs d = quant_attrs_default();
            int i;
            for (i = 0; i < 30; ++i) xs[i] = emb_f(emb_rand() & 0x807FFFFFu); /* subnormals */
            hex((uint32_t)quant_choose_and_quantize(&src, &dst, (quant_scheme)sch, &d, &st_, sch == 1 ? 0 : &zt) ^ hbytes(qs, N) ^ emb_u(s1) ^ (uint32_t)z1);
        }
    }
    return quant_backend();
}
