/* All four operations through the public API against the oracle, bit for
   bit: every dtype, rounding, f8 overflow mode, static and dynamic, per
   tensor and per channel on every axis, on edge values, ties and random
   data. Built once per backend, so it checks SIMD paths too. */
#include "../quant.h"
#include "oracle.h"
#include "check.h"

#include <stdlib.h>

static const float scale_table[] = {
    1.0f, 0.1f, 0.5f, 3.0f, 1e-3f, 7.3e5f, -0.25f, -3.7f, 0.0078125f, 1.17549435e-38f,
    5.8774718e-39f /* subnormal, 1/s still finite */, 3.0e38f, 6.1e-5f, 0.3333333f, 255.0f
};
static const int64_t zp_table[] = {
    0, 1, -1, 10, 127, -128, 128, 255, 256, -129, 1000, -77777,
    INT32_MAX, INT32_MIN, 16777217, -1048576, 1048577, 2147483000
};
#define NS (sizeof scale_table / sizeof scale_table[0])
#define NZ (sizeof zp_table / sizeof zp_table[0])

static const uint32_t edge_bits[] = {
    0x00000000, 0x80000000, 0x3F000000, 0xBF000000, 0x3FC00000, 0xBFC00000, 0x40200000,
    0xC0200000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFBFFFFF,
    0x7F7FFFFF, 0xFF7FFFFF, 0x00800000, 0x80800000, 0x00000001, 0x80000001, 0x007FFFFF,
    0x42FF0000 /* 127.5 */, 0x43000000, 0xC3008000 /* -128.5 */, 0x437F8000 /* 255.5 */,
    0x4F000000 /* 2^31 */, 0xCF000000, 0x4B800001, 0x4B000001, 0x4AFFFFFF, 0x43E80000 /* 464 */,
    0x43E80001, 0x43E7FFFF, 0x47700000 /* 61440 */, 0x476FFFFF, 0x47600000, 0x3B000000,
    0x3A800000, 0x37800000, 0x37000000, 0x36800000, 0x3F7FFFFF, 0x3F800001, 0x5F000000,
    0x4F400000 /* 1.5 * 2^31 */, 0xCF400000, 0x4F7FFFFF, 0xCF7FFFFF, 0x4F000001, 0xCF000001
};
#define NE (sizeof edge_bits / sizeof edge_bits[0])

/* Edge values, then ties (k + 1/2) * s and a few ulps around them, then
   random bit patterns and random moderate values. */
static void fill(float *x, size_t n, float s)
{
    size_t i;
    for (i = 0; i < n; ++i) {
        uint32_t kind = check_rand() % 8;
        if (i < NE) x[i] = check_float_bits(edge_bits[i]);
        else if (kind < 3) {
            float t = ((float)((int)(check_rand() % 601) - 300) + 0.5f) * s;
            int d = (int)(check_rand() % 9) - 4;
            x[i] = check_float_bits(check_bits_float(t) + (uint32_t)d);
        } else if (kind < 5) x[i] = check_float_bits(check_rand());
        else x[i] = ((float)(check_rand() % 200001) / 1000.0f - 100.0f) * s;
    }
}

static const char *round_names[] = { "exact", "onednn", "onnx", "torch" };

typedef struct shape {
    int rank;
    int64_t dims[QUANT_MAX_RANK];
    int per_channel;
    int64_t axis;
} shape;

static size_t elems(const shape *sh)
{
    size_t n = 1;
    int i;
    for (i = 0; i < sh->rank; ++i) n *= (size_t)sh->dims[i];
    return n;
}

/* channel count and inner size seen by the op */
static void layout(const shape *sh, size_t *C, size_t *inner)
{
    int i, ax;
    *C = 1;
    *inner = 1;
    if (!sh->per_channel) return;
    ax = (int)(sh->axis < 0 ? sh->axis + sh->rank : sh->axis);
    *C = (size_t)sh->dims[ax];
    for (i = ax + 1; i < sh->rank; ++i) *inner *= (size_t)sh->dims[i];
}

static int64_t zlo(quant_dtype t) { return t == QUANT_U8 ? 0 : -128; }
static int64_t zhi(quant_dtype t) { return t == QUANT_U8 ? 255 : 127; }
static int fmt_of(quant_dtype t) { return t == QUANT_F8_E5M2 ? 1 : 0; }
static int is_f8(quant_dtype t) { return t == QUANT_F8_E4M3 || t == QUANT_F8_E5M2; }

/* One case's scales and zero points, as attrs lists and as tensors, and
   which of them element i takes: the one place per-channel expectations
   are looked up. */
typedef struct params {
    size_t C, inner, nsc, nzp;
    int per_channel;
    float sc[2048];
    int64_t zp[2048];
    int32_t zp32[2048];
    int8_t zp8[2048];
    uint8_t zpu8[2048];
    quant_attrs a;
    quant_tensor ts, tz;
} params;

/* zp_mode: 0 none, 1 one zp, 2 one per channel; zp_dtype for dynamic ops;
   f8 takes zero points of 0 */
static void set_params(params *P, const shape *sh, int f8, int dynamic, int zp_mode, quant_dtype zp_dtype,
                       unsigned seed)
{
    size_t i;
    layout(sh, &P->C, &P->inner);
    P->per_channel = sh->per_channel;
    P->nsc = sh->per_channel ? P->C : 1;
    P->nzp = zp_mode == 0 ? 0 : zp_mode == 1 ? 1 : P->nsc;
    for (i = 0; i < P->nsc; ++i) P->sc[i] = scale_table[(seed + i * 7) % NS];
    for (i = 0; i < P->nzp; ++i) {
        int64_t z = f8 ? 0 : zp_table[(seed * 3 + i * 5) % NZ];
        if (dynamic && zp_dtype == QUANT_S8) z = (int8_t)z;
        if (dynamic && zp_dtype == QUANT_U8) z = (uint8_t)z;
        if (dynamic && zp_dtype == QUANT_S32) z = (int32_t)z;
        P->zp[i] = z; P->zp32[i] = (int32_t)z; P->zp8[i] = (int8_t)z; P->zpu8[i] = (uint8_t)z;
    }
    P->a = quant_attrs_default();
    P->a.qtype = sh->per_channel ? QUANT_PER_CHANNEL : QUANT_PER_TENSOR;
    P->a.axis = sh->axis;
    P->a.scales = P->sc; P->a.n_scales = P->nsc;
    if (P->nzp) { P->a.zps = P->zp; P->a.n_zps = P->nzp; }
    memset(&P->ts, 0, sizeof P->ts);
    P->ts.dtype = QUANT_F32; P->ts.rank = 1; P->ts.dims[0] = (int64_t)P->nsc; P->ts.data = P->sc;
    memset(&P->tz, 0, sizeof P->tz);
    P->tz.dtype = zp_dtype; P->tz.rank = 1; P->tz.dims[0] = (int64_t)P->nzp;
    P->tz.data = zp_dtype == QUANT_S8 ? (void *)P->zp8 : zp_dtype == QUANT_U8 ? (void *)P->zpu8 : (void *)P->zp32;
}

/* element i's scale and zero point */
static float scale_at(const params *P, size_t i)
{
    return P->sc[P->per_channel ? (i / P->inner) % P->C : 0];
}
static int64_t zp_at(const params *P, size_t i)
{
    return P->nzp == 0 ? 0 : P->zp[P->nzp == 1 ? 0 : (i / P->inner) % P->C];
}

/* zp_mode: 0 none, 1 one zp, 2 one per channel. zp_dtype for dynamic ops. */
static void run_case(const shape *sh, quant_dtype qt, int rounding, int ov, int dynamic,
                     int zp_mode, quant_dtype zp_dtype, unsigned seed)
{
    size_t n = elems(sh), i;
    float *x = (float *)malloc((n + 1) * 4), *y = (float *)malloc((n + 1) * 4);
    uint8_t *q = (uint8_t *)malloc(n + 1);
    static params P;
    quant_tensor tf, tq;
    quant_attrs *a = &P.a;
    quant_status st;
    char what[200];

    set_params(&P, sh, is_f8(qt), dynamic, zp_mode, zp_dtype, seed);
    fill(x, n, P.sc[0]);
    for (i = 0; i < n; ++i) q[i] = (uint8_t)check_rand();

    snprintf(what, sizeof what, "%s %s %s ov=%d rank=%d axis=%lld pc=%d zp_mode=%d n=%zu",
             dynamic ? "dynamic" : "static", quant_dtype_name(qt), round_names[rounding], ov,
             sh->rank, (long long)sh->axis, sh->per_channel, zp_mode, n);

    a->rounding = (quant_rounding)rounding;
    a->f8_overflow = (quant_f8_overflow)ov;

    memset(&tf, 0, sizeof tf);
    tf.dtype = QUANT_F32; tf.rank = sh->rank;
    memcpy(tf.dims, sh->dims, sizeof tf.dims);
    tq = tf;
    tq.dtype = qt;
    tf.data = x; tq.data = q;

    /* quantize */
    st = dynamic ? quant_dynamic_quantize(&tf, &P.ts, P.nzp ? &P.tz : NULL, &tq, a)
                 : quant_quantize(&tf, &tq, a);
    CHECK(st == QUANT_OK, "%s: quantize status %d", what, (int)st);
    for (i = 0; st == QUANT_OK && i < n; ++i) {
        const float s = scale_at(&P, i);
        const int64_t z = zp_at(&P, i);
        int64_t want;
        int got;
        if (is_f8(qt)) {
            want = o_quant_f8(x[i], s, rounding, fmt_of(qt), ov);
            got = q[i];
        } else {
            want = o_quant_int(x[i], s, z, rounding, zlo(qt), zhi(qt));
            got = qt == QUANT_U8 ? q[i] : (int8_t)q[i];
        }
        CHECK(got == want, "%s: quantize [%zu] x=%a (0x%08x) s=%a z=%lld: got %d want %lld", what, i,
              (double)x[i], check_bits_float(x[i]), (double)s, (long long)z, got, (long long)want);
    }

    /* dequantize random codes (every code appears for n >= 256 on average) */
    for (i = 0; i < n; ++i) q[i] = (uint8_t)(i < 256 ? i : check_rand());
    st = dynamic ? quant_dynamic_dequantize(&tq, &P.ts, P.nzp ? &P.tz : NULL, &tf, a)
                 : quant_dequantize(&tq, &tf, a);
    CHECK(st == QUANT_OK, "%s: dequantize status %d", what, (int)st);
    for (i = 0; st == QUANT_OK && i < n; ++i) {
        const float s = scale_at(&P, i);
        const int64_t z = zp_at(&P, i);
        float want = is_f8(qt) ? o_dequant_f8_r(q[i], s, fmt_of(qt), rounding)
                               : o_dequant_int(qt == QUANT_U8 ? q[i] : (int8_t)q[i], s, z);
        CHECK(check_bits_float(x[i]) == check_bits_float(want),
              "%s: dequantize [%zu] q=0x%02x s=%a z=%lld: got 0x%08x want 0x%08x", what, i, q[i],
              (double)s, (long long)z, check_bits_float(x[i]), check_bits_float(want));
    }
    free(x); free(y); free(q);
}

/* s32 dequantize (bias tensors): every int32, including the ends and the
   neighbourhood of 2^24 and 2^30 where a SIMD kernel changes path, with
   every zero point of the table. */
static void run_s32(const shape *sh, int dynamic, int zp_mode, quant_dtype zp_dtype, unsigned seed)
{
    static const int32_t edge[] = { 0, 1, -1, INT32_MAX, INT32_MIN, INT32_MAX - 1, INT32_MIN + 1,
                                    16777216, 16777217, -16777217, 16777219, (1 << 30), (1 << 30) + 1,
                                    -(1 << 30), -(1 << 30) - 1, 2147483583, 2147483584, -2147483584,
                                    -2147483585, 255, -129 };
    size_t n = elems(sh), i;
    int32_t *q = (int32_t *)malloc((n + 1) * 4);
    float *y = (float *)malloc((n + 1) * 4);
    static params P;
    quant_tensor tq, tf;
    quant_status st;

    set_params(&P, sh, 0, dynamic, zp_mode, zp_dtype, seed);
    for (i = 0; i < n; ++i) {
        uint32_t k = check_rand() % 4;
        q[i] = i < sizeof edge / sizeof *edge ? edge[i]
             : k == 0 ? (int32_t)check_rand() : k == 1 ? (int32_t)(check_rand() % 2001) - 1000
             : (int32_t)((uint32_t)edge[check_rand() % (sizeof edge / sizeof *edge)] + check_rand() % 3 - 1u); /* wraps */
    }
    memset(&tq, 0, sizeof tq);
    tq.dtype = QUANT_S32; tq.rank = sh->rank;
    memcpy(tq.dims, sh->dims, sizeof tq.dims);
    tf = tq;
    tf.dtype = QUANT_F32;
    tq.data = q; tf.data = y;
    st = dynamic ? quant_dynamic_dequantize(&tq, &P.ts, P.nzp ? &P.tz : NULL, &tf, &P.a) : quant_dequantize(&tq, &tf, &P.a);
    CHECK(st == QUANT_OK, "s32 dequantize status %d", (int)st);
    for (i = 0; st == QUANT_OK && i < n; ++i) {
        const float s = scale_at(&P, i);
        const int64_t z = zp_at(&P, i);
        float want = o_dequant_int(q[i], s, z);
        CHECK(check_bits_float(y[i]) == check_bits_float(want),
              "s32 %s rank=%d pc=%d zp_mode=%d: [%zu] q=%d s=%a z=%lld: got 0x%08x want 0x%08x",
              dynamic ? "dynamic" : "static", sh->rank, sh->per_channel, zp_mode, i, q[i], (double)s,
              (long long)z, check_bits_float(y[i]), check_bits_float(want));
    }
    free(q); free(y);
}

static shape mk(int rank, const int64_t *dims, int pc, int64_t axis)
{
    shape s;
    memset(&s, 0, sizeof s);
    s.rank = rank;
    memcpy(s.dims, dims, (size_t)rank * sizeof *dims);
    s.per_channel = pc;
    s.axis = axis;
    return s;
}

int main(void)
{
    check_cpu();
    static const quant_dtype qts[] = { QUANT_S8, QUANT_U8, QUANT_F8_E4M3, QUANT_F8_E5M2 };
    static const quant_dtype zdts[] = { QUANT_S32, QUANT_S8, QUANT_U8 };
    const int64_t d1[] = { 1000 }, d2[] = { 5, 77 }, d3[] = { 2, 3, 41 }, d4[] = { 1, 6, 3, 5 },
                  d5[] = { 3, 130 }, d0[] = { 0 }, d6[] = { 40, 16 }, d7[] = { 70, 3 }, d8[] = { 9, 5, 8 };
    shape shapes[16];
    int ns = 0, si, qi, r, ov, dyn, zm;
    unsigned seed = 1;

    shapes[ns++] = mk(0, d0, 0, 1);        /* scalar */
    shapes[ns++] = mk(1, d1, 0, 1);        /* per tensor */
    shapes[ns++] = mk(3, d3, 0, 1);
    shapes[ns++] = mk(1, d1, 1, 0);        /* per channel, last axis, 1000 channels */
    shapes[ns++] = mk(2, d2, 1, 1);        /* last axis, vector of scales */
    shapes[ns++] = mk(2, d2, 1, -1);
    shapes[ns++] = mk(2, d2, 1, 0);        /* first axis */
    shapes[ns++] = mk(3, d3, 1, 1);        /* middle axis */
    shapes[ns++] = mk(3, d3, 1, -3);
    shapes[ns++] = mk(4, d4, 1, 1);        /* [1, C, H, W] */
    shapes[ns++] = mk(4, d4, 1, 3);
    shapes[ns++] = mk(2, d5, 1, 1);        /* crosses the zero-point chunk */
    /* scale patterns a SIMD kernel walks over and over (period 64 on
       AVX-512 for 16 channels; 192 for 3; 320 for 5 x 8) */
    shapes[ns++] = mk(2, d6, 1, 1);
    shapes[ns++] = mk(2, d7, 1, 1);
    shapes[ns++] = mk(3, d8, 1, 1);

    for (si = 0; si < ns; ++si)
        for (qi = 0; qi < 4; ++qi)
            for (r = 0; r < 4; ++r)
                for (ov = 0; ov < (qi >= 2 ? 2 : 1); ++ov)
                    for (dyn = 0; dyn < 2; ++dyn)
                        for (zm = 0; zm < 3; ++zm) {
                            if (zm == 2 && !shapes[si].per_channel) continue;
                            run_case(&shapes[si], qts[qi], r, ov, dyn, zm, zdts[seed % 3], seed);
                            ++seed;
                        }
    {
        /* rows longer than a kernel chunk, over more than 1 MiB of f32: the
           kernel runs row by row and prefetches into the rows that follow */
        const int64_t dbig[] = { 160, 2000 };
        const shape big = mk(2, dbig, 1, 1);
        run_case(&big, QUANT_S8, 1, 0, 0, 2, QUANT_S32, seed++);
        run_case(&big, QUANT_U8, 0, 0, 1, 0, QUANT_S32, seed++);
        run_case(&big, QUANT_S8, 3, 0, 0, 1, QUANT_S8, seed++);
    }
    {
        /* long runs of one scale (axis 1), the same amount: a call per run,
           each prefetching into the runs after it */
        const int64_t druns[] = { 2, 40, 4000 };
        const shape runs = mk(3, druns, 1, 1);
        run_case(&runs, QUANT_S8, 1, 0, 0, 2, QUANT_S32, seed++);
        run_case(&runs, QUANT_U8, 2, 0, 1, 1, QUANT_U8, seed++);
        run_case(&runs, QUANT_F8_E4M3, 0, 0, 0, 0, QUANT_S32, seed++);
    }
    for (si = 0; si < ns; ++si)
        for (dyn = 0; dyn < 2; ++dyn)
            for (zm = 0; zm < 3; ++zm) {
                if (zm == 2 && !shapes[si].per_channel) continue;
                run_s32(&shapes[si], dyn, zm, zdts[seed % 3], seed);
                ++seed;
            }
    return check_done("test_ops");
}
