/* The QUANT_INT8 preset (and any build): quantize and dequantize of s8,
   u8 and s16 with the exact rounding, per tensor and per channel, static
   and dynamic, against the oracle of tests/oracle.h; and, where the build
   leaves a feature out, that feature's status with the output untouched.
   Meson links it with the whole library and with QUANT_INT8 builds (SIMD
   and scalar), whose scalar integer quantizer keeps only the exact
   rounding. Every buffer is malloc'ed at its exact size. */
#include "../quant.h"
#include "check.h"
#include "oracle.h"
#include <float.h>

#define SENTINEL 0xA5

void check_cpu_shared(void);

/* an input value: edge values first, then random floats of every size */
static float pick(uint32_t k, float s)
{
    const uint32_t m = check_rand();
    switch (k % 16u) {
    case 0: return 0.0f;
    case 1: return -0.0f;
    case 2: return o_mul((float)((int32_t)(m % 70001u) - 35000) + 0.5f, s); /* a tie, or near one */
    case 3: return check_float_bits(check_bits_float(o_mul((float)((int32_t)(m % 601u) - 300) + 0.5f, s)) + 1u);
    case 4: return check_float_bits(check_bits_float(o_mul((float)((int32_t)(m % 601u) - 300) + 0.5f, s)) - 1u);
    case 5: return check_float_bits(0x7FC00000u | (m & 0x803FFFFFu)); /* NaN, either sign */
    case 6: return (m & 1u) ? INFINITY : -INFINITY;
    case 7: return (m & 1u) ? FLT_MAX : -FLT_MAX;
    case 8: return check_float_bits((m & 0x807FFFFFu) | 1u); /* subnormal */
    case 9: return o_mul((float)((int32_t)(m % 65537u) - 32768), s); /* on the grid */
    default: return check_float_bits(m & 0xFF7FFFFFu); /* random, finite */
    }
}

static float pick_scale(void)
{
    const uint32_t m = check_rand();
    switch (m % 8u) {
    case 0: return check_float_bits(0x00800000u); /* 2^-126 */
    case 1: return FLT_MAX;
    case 2: return 1.0f;
    case 3: return 0.5f;
    default: return check_float_bits(0x3A000000u + m % 0x0A000000u); /* ~5e-4 .. ~5e3 */
    }
}

typedef struct {
    quant_dtype t;
    int64_t lo, hi;
    size_t size;
} qtype_info;

static const qtype_info qtypes[] = {
    { QUANT_S8, -128, 127, 1 }, { QUANT_U8, 0, 255, 1 }, { QUANT_S16, -32768, 32767, 2 }
};

static int64_t q_read(const void *q, size_t i, quant_dtype t)
{
    if (t == QUANT_S8) return ((const int8_t *)q)[i];
    if (t == QUANT_U8) return ((const uint8_t *)q)[i];
    return ((const int16_t *)q)[i];
}

/* a zero point for type qi: in range mostly, sometimes anywhere in int32 */
static int64_t pick_zp(const qtype_info *qi)
{
    const uint32_t m = check_rand();
    if (m % 8u == 0) return (int64_t)(int32_t)check_rand();
    if (m % 8u == 1) return (m & 16u) ? INT32_MAX : INT32_MIN;
    return qi->lo + (int64_t)(check_rand() % (uint32_t)(qi->hi - qi->lo + 1));
}

/* One static quantize and dequantize of a [d0, d1, d2] tensor, per tensor
   (axis < 0) or per channel on axis, each element against the oracle. */
static void run_case(const qtype_info *qi, const int64_t *dims, int axis, int with_zps)
{
    const size_t n = (size_t)(dims[0] * dims[1] * dims[2]);
    const size_t C = axis < 0 ? 1 : (size_t)dims[axis];
    size_t inner = 1, i;
    float *x = malloc(n * 4), *y = malloc(n * 4), *sc = malloc(C * 4);
    int64_t *zp = malloc(C * 8);
    unsigned char *q = malloc(n * qi->size);
    quant_tensor tx, tq, ty;
    quant_attrs a = quant_attrs_default();
    quant_status st;
    int d;
    if (!x || !y || !sc || !zp || !q) { CHECK(0, "out of memory"); goto out; }
    for (d = axis + 1; axis >= 0 && d < 3; ++d) inner *= (size_t)dims[d];
    for (i = 0; i < C; ++i) { sc[i] = pick_scale(); zp[i] = with_zps ? pick_zp(qi) : 0; }
    for (i = 0; i < n; ++i) x[i] = pick((uint32_t)i + check_rand() % 3u, sc[axis < 0 ? 0 : i / inner % C]);
    tx = check_tensor(QUANT_F32, 3, dims, x);
    tq = check_tensor(qi->t, 3, dims, q);
    ty = check_tensor(QUANT_F32, 3, dims, y);
    a.qtype = axis < 0 ? QUANT_PER_TENSOR : QUANT_PER_CHANNEL;
    a.axis = axis;
    a.scales = sc;
    a.n_scales = C;
    a.zps = with_zps ? zp : NULL;
    a.n_zps = with_zps ? C : 0;
    memset(q, SENTINEL, n * qi->size);
    st = quant_quantize(&tx, &tq, &a);
    CHECK(st == QUANT_OK, "quantize %s axis %d: %s", quant_dtype_name(qi->t), axis, quant_status_str(st));
    for (i = 0; i < n && st == QUANT_OK; ++i) {
        const size_t c = axis < 0 ? 0 : i / inner % C;
        const int64_t want = o_quant_int(x[i], sc[c], zp[c], O_EXACT, qi->lo, qi->hi);
        CHECK(q_read(q, i, qi->t) == want, "quantize %s axis %d [%zu]: x %a s %a z %lld: %lld, oracle %lld",
              quant_dtype_name(qi->t), axis, i, (double)x[i], (double)sc[c], (long long)zp[c],
              (long long)q_read(q, i, qi->t), (long long)want);
    }
    /* and back, from random codes */
    for (i = 0; i < n * qi->size; ++i) q[i] = (unsigned char)check_rand();
    memset(y, SENTINEL, n * 4);
    st = quant_dequantize(&tq, &ty, &a);
    CHECK(st == QUANT_OK, "dequantize %s axis %d: %s", quant_dtype_name(qi->t), axis, quant_status_str(st));
    for (i = 0; i < n && st == QUANT_OK; ++i) {
        const size_t c = axis < 0 ? 0 : i / inner % C;
        const float want = o_dequant_int(q_read(q, i, qi->t), sc[c], zp[c]);
        CHECK(check_bits_float(y[i]) == check_bits_float(want), "dequantize %s axis %d [%zu]: %a, oracle %a",
              quant_dtype_name(qi->t), axis, i, (double)y[i], (double)want);
    }
out:
    free(x); free(y); free(sc); free(zp); free(q);
}

/* The dynamic pair with an s32 zero-point tensor, per channel on axis 1. */
static void run_dynamic(const qtype_info *qi)
{
    const int64_t dims[2] = { 37, 5 }, cdim[1] = { 5 };
    const size_t n = 37 * 5;
    float *x = malloc(n * 4), *y = malloc(n * 4), *sc = malloc(5 * 4);
    int32_t *zp = malloc(5 * 4);
    unsigned char *q = malloc(n * qi->size);
    quant_tensor tx, tq, ty, ts, tz;
    quant_attrs a = quant_attrs_default();
    quant_status st;
    size_t i;
    if (!x || !y || !sc || !zp || !q) { CHECK(0, "out of memory"); goto out; }
    for (i = 0; i < 5; ++i) { sc[i] = pick_scale(); zp[i] = (int32_t)pick_zp(qi); }
    for (i = 0; i < n; ++i) x[i] = pick((uint32_t)i, sc[i % 5]);
    tx = check_tensor(QUANT_F32, 2, dims, x);
    tq = check_tensor(qi->t, 2, dims, q);
    ty = check_tensor(QUANT_F32, 2, dims, y);
    ts = check_tensor(QUANT_F32, 1, cdim, sc);
    tz = check_tensor(QUANT_S32, 1, cdim, zp);
    a.qtype = QUANT_PER_CHANNEL;
    a.axis = 1;
    st = quant_dynamic_quantize(&tx, &ts, &tz, &tq, &a);
    CHECK(st == QUANT_OK, "dynamic quantize %s: %s", quant_dtype_name(qi->t), quant_status_str(st));
    for (i = 0; i < n && st == QUANT_OK; ++i) {
        const int64_t want = o_quant_int(x[i], sc[i % 5], zp[i % 5], O_EXACT, qi->lo, qi->hi);
        CHECK(q_read(q, i, qi->t) == want, "dynamic quantize %s [%zu]: %lld, oracle %lld", quant_dtype_name(qi->t), i,
              (long long)q_read(q, i, qi->t), (long long)want);
    }
    st = quant_dynamic_dequantize(&tq, &ts, &tz, &ty, &a);
    CHECK(st == QUANT_OK, "dynamic dequantize %s: %s", quant_dtype_name(qi->t), quant_status_str(st));
    for (i = 0; i < n && st == QUANT_OK; ++i) {
        const float want = o_dequant_int(q_read(q, i, qi->t), sc[i % 5], zp[i % 5]);
        CHECK(check_bits_float(y[i]) == check_bits_float(want), "dynamic dequantize %s [%zu]", quant_dtype_name(qi->t), i);
    }
out:
    free(x); free(y); free(sc); free(zp); free(q);
}

/* What a build leaves out answers with its status and writes nothing. */
static void left_out(void)
{
    const int64_t dims[1] = { 3 };
    float x[3] = { 1.0f, -2.0f, 0.25f }, s = 0.5f;
    unsigned char q[6];
    quant_tensor tx = check_tensor(QUANT_F32, 1, dims, x), tq = check_tensor(QUANT_S8, 1, dims, q);
    quant_attrs a = quant_attrs_default();
    quant_status st;
    size_t i;
    a.scales = &s;
    a.n_scales = 1;
    memset(q, SENTINEL, sizeof q);
    a.rounding = QUANT_ROUND_TORCH;
    st = quant_quantize(&tx, &tq, &a);
#ifdef QUANT_INT8
    CHECK(st == QUANT_ERR_ATTR, "QUANT_INT8: rounding torch gave %s", quant_status_str(st));
#else
    CHECK(st == QUANT_OK, "rounding torch gave %s", quant_status_str(st));
#endif
    a.rounding = QUANT_ROUND_EXACT;
    tq.dtype = QUANT_F8_E4M3;
#ifdef QUANT_INT8
    memset(q, SENTINEL, sizeof q);
#endif
    st = quant_quantize(&tx, &tq, &a);
#ifdef QUANT_INT8
    CHECK(st == QUANT_ERR_DTYPE, "QUANT_INT8: f8 gave %s", quant_status_str(st));
    tq.dtype = QUANT_S4;
    st = quant_quantize(&tx, &tq, &a);
    CHECK(st == QUANT_ERR_DTYPE, "QUANT_INT8: s4 gave %s", quant_status_str(st));
    for (i = 0; i < sizeof q; ++i) CHECK(q[i] == SENTINEL, "QUANT_INT8: a refused op wrote q[%zu]", i);
#else
    CHECK(st == QUANT_OK, "f8 gave %s", quant_status_str(st));
    (void)i;
#endif
}

int main(void)
{
    static const int64_t shapes[][3] = { { 1, 1, 1 }, { 3, 7, 5 }, { 2, 1, 300 }, { 1, 64, 1 }, { 5, 3, 129 } };
    size_t t, k;
    int axis;
    check_cpu_shared();
    for (t = 0; t < sizeof qtypes / sizeof qtypes[0]; ++t) {
        for (k = 0; k < sizeof shapes / sizeof shapes[0]; ++k)
            for (axis = -1; axis < 3; ++axis) {
                run_case(&qtypes[t], shapes[k], axis, 0);
                run_case(&qtypes[t], shapes[k], axis, 1);
            }
        run_dynamic(&qtypes[t]);
    }
    left_out();
    return check_done("test_int8");
}
