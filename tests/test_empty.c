/* Empty tensors and the reads that must not happen: every buffer is its own
   allocation of exactly the size the call may read (so that ASan reports a
   one-element over-read), zero-element tensors carry NULL data, and the
   row kernels take n = 0 with NULL pointers (clang's UBSan reports NULL + 0).
   Run on 32-bit targets too, where size_t cannot hold every int64 dim. */
#include "../quant.h"
#include "check.h"

#define EXPECT(call, want, label)                                                        \
    do {                                                                                 \
        const quant_status st_ = (call);                                                 \
        CHECK(st_ == (want), "%s: got %s, want %s", label, quant_status_str(st_),        \
              quant_status_str(want));                                                   \
    } while (0)

/* A dynamic op on an empty tensor, per channel on every axis, with scale
   and zero-point tensors of exactly the channel count (NULL when 0). */
/* the bytes of C zero points of type t */
static size_t zbytes(quant_dtype t, size_t C)
{
    switch (t) {
    case QUANT_S32: return 4 * C;
    case QUANT_S16: return 2 * C;
    case QUANT_S4: case QUANT_U4: return (C + 1) / 2;
    case QUANT_S2: case QUANT_U2: return (C + 3) / 4;
    default: return C;
    }
}

static void dynamic_empty(const int64_t *dims, int rank, int axis, int quantize, quant_dtype qt, quant_dtype zt)
{
    const int64_t C = dims[axis];
    float *sc = C ? (float *)malloc((size_t)C * sizeof(float)) : NULL;
    void *zp = C ? malloc(zbytes(zt, (size_t)C)) : NULL;
    const int64_t cdim[1] = { C };
    quant_tensor f = check_tensor(QUANT_F32, rank, dims, NULL), q = check_tensor(qt, rank, dims, NULL);
    quant_tensor ts = check_tensor(QUANT_F32, 1, cdim, sc), tz = check_tensor(zt, 1, cdim, zp);
    quant_attrs a = quant_attrs_default();
    char what[160];
    int64_t i;
    for (i = 0; i < C; ++i) sc[i] = 0.5f;
    if (C) memset(zp, 0, zbytes(zt, (size_t)C));
    a.qtype = QUANT_PER_CHANNEL;
    a.axis = axis;
    snprintf(what, sizeof what, "dynamic %s %s rank %d axis %d C %lld zps %s",
             quantize ? "quantize" : "dequantize", quant_dtype_name(qt), rank, axis, (long long)C,
             quant_dtype_name(zt));
    if (quantize) EXPECT(quant_dynamic_quantize(&f, &ts, &tz, &q, &a), QUANT_OK, what);
    else EXPECT(quant_dynamic_dequantize(&q, &ts, &tz, &f, &a), QUANT_OK, what);
    /* one zero point for all channels, and none */
    {
        const int64_t one[1] = { 1 };
        int32_t *z1 = (int32_t *)malloc(4);
        quant_tensor t1 = check_tensor(QUANT_S32, 1, one, z1);
        *z1 = 0;
        if (quantize) EXPECT(quant_dynamic_quantize(&f, &ts, &t1, &q, &a), QUANT_OK, what);
        else EXPECT(quant_dynamic_dequantize(&q, &ts, &t1, &f, &a), QUANT_OK, what);
        if (quantize) EXPECT(quant_dynamic_quantize(&f, &ts, NULL, &q, &a), QUANT_OK, what);
        else EXPECT(quant_dynamic_dequantize(&q, &ts, NULL, &f, &a), QUANT_OK, what);
        free(z1);
    }
    free(sc);
    free(zp);
}

/* The static twin: lists of exactly C entries (non-NULL even when C is 0,
   where a zero-length zero-point list is QUANT_ERR_ZPS by the README). */
static void static_empty(const int64_t *dims, int rank, int axis, int quantize, quant_dtype qt)
{
    const int64_t C = dims[axis];
    float *sc = (float *)malloc(C ? (size_t)C * sizeof(float) : 1);
    int64_t *zp = (int64_t *)malloc(C ? (size_t)C * sizeof(int64_t) : 1);
    quant_tensor f = check_tensor(QUANT_F32, rank, dims, NULL), q = check_tensor(qt, rank, dims, NULL);
    quant_attrs a = quant_attrs_default();
    char what[160];
    int64_t i;
    for (i = 0; i < C; ++i) { sc[i] = 0.5f; zp[i] = 0; }
    a.qtype = QUANT_PER_CHANNEL;
    a.axis = axis;
    a.scales = sc;
    a.n_scales = (size_t)C;
    snprintf(what, sizeof what, "static %s %s rank %d axis %d C %lld", quantize ? "quantize" : "dequantize",
             quant_dtype_name(qt), rank, axis, (long long)C);
    if (quantize) EXPECT(quant_quantize(&f, &q, &a), QUANT_OK, what);
    else EXPECT(quant_dequantize(&q, &f, &a), QUANT_OK, what);
    a.zps = zp;
    a.n_zps = (size_t)C;
    if (quantize) EXPECT(quant_quantize(&f, &q, &a), C ? QUANT_OK : QUANT_ERR_ZPS, what);
    else EXPECT(quant_dequantize(&q, &f, &a), C ? QUANT_OK : QUANT_ERR_ZPS, what);
    free(sc);
    free(zp);
}

/* dims past SIZE_MAX on an empty tensor: the channel count is checked as
   the int64 it is, never narrowed first */
static void huge_axis(void)
{
    const int64_t big[3] = { 2, ((int64_t)1 << 32) + 3, 0 }, exact[3] = { 2, (int64_t)1 << 32, 0 };
    const int64_t three[1] = { 3 }, zero[1] = { 0 };
    float *sc = (float *)malloc(3 * sizeof(float));
    quant_tensor f = check_tensor(QUANT_F32, 3, big, NULL), q = check_tensor(QUANT_S8, 3, big, NULL);
    quant_tensor ts = check_tensor(QUANT_F32, 1, three, sc), tz0 = check_tensor(QUANT_S8, 1, zero, NULL);
    quant_attrs a = quant_attrs_default();
    sc[0] = sc[1] = sc[2] = 1.0f;
    a.qtype = QUANT_PER_CHANNEL;
    a.axis = 1;
    a.scales = sc;
    a.n_scales = 3;
    EXPECT(quant_quantize(&f, &q, &a), QUANT_ERR_SCALES, "axis of 2^32+3, 3 scales (static)");
    EXPECT(quant_dynamic_quantize(&f, &ts, NULL, &q, &a), QUANT_ERR_SCALES, "axis of 2^32+3, 3 scales (dynamic)");
    EXPECT(quant_dynamic_dequantize(&q, &ts, NULL, &f, &a), QUANT_ERR_SCALES, "axis of 2^32+3, 3 scales (dequantize)");
    f = check_tensor(QUANT_F32, 3, exact, NULL);
    q = check_tensor(QUANT_S8, 3, exact, NULL);
    ts = check_tensor(QUANT_F32, 1, zero, NULL);
    a.n_scales = 0;
    EXPECT(quant_quantize(&f, &q, &a), QUANT_ERR_SCALES, "axis of 2^32, 0 scales (static)");
    EXPECT(quant_dynamic_quantize(&f, &ts, &tz0, &q, &a), QUANT_ERR_SCALES, "axis of 2^32, 0 scales, 0 zps");
    /* per tensor the same empty tensor is fine */
    a.qtype = QUANT_PER_TENSOR;
    a.n_scales = 1;
    EXPECT(quant_quantize(&f, &q, &a), QUANT_OK, "per tensor, axis of 2^32, empty");
    free(sc);
}

static void row_kernels(void)
{
    /* n = 0: no pointer is touched, not even to form NULL + 0 */
    quant_f32_to_s8(NULL, NULL, 0, 1.0f, 0);
    quant_f32_to_u8(NULL, NULL, 0, 1.0f, 0);
    quant_s8_to_f32(NULL, NULL, 0, 1.0f, 0);
    quant_u8_to_f32(NULL, NULL, 0, 1.0f, 0);
    quant_f32_to_f8_e4m3(NULL, NULL, 0, 1.0f);
    quant_f32_to_f8_e5m2(NULL, NULL, 0, 1.0f);
    quant_f8_e4m3_to_f32(NULL, NULL, 0, 1.0f);
    quant_f8_e5m2_to_f32(NULL, NULL, 0, 1.0f);
    quant_mxfp4_to_f32(NULL, NULL, 0, NULL);
    quant_mxfp4_to_f16(NULL, NULL, 0, NULL);
    quant_mxfp4_to_bf16(NULL, NULL, 0, NULL);
    quant_nvfp4_to_f32(NULL, NULL, 0, NULL, 1.0f);
    quant_nvfp4_to_f16(NULL, NULL, 0, NULL, 0.0f);
    quant_nvfp4_to_bf16(NULL, NULL, 0, NULL, 2.0f);
    CHECK(1, "row kernels with n = 0 and NULL");
}

int main(void)
{
    static const quant_dtype qts[] = { QUANT_S8, QUANT_U8, QUANT_F8_E4M3, QUANT_F8_E5M2, QUANT_S4, QUANT_U4,
                                       QUANT_F4_E2M1, QUANT_S2, QUANT_U2, QUANT_S16 };
    static const quant_dtype zts[] = { QUANT_S8, QUANT_U8, QUANT_S32, QUANT_S4, QUANT_U4, QUANT_S2, QUANT_U2, QUANT_S16 };
    static const int64_t shapes[][4] = { { 0, 3, 4, 5 }, { 2, 0, 4, 5 }, { 2, 3, 0, 5 }, { 2, 3, 4, 0 } };
    size_t s, k, z;
    int axis, quantize;
    check_cpu();
    for (s = 0; s < 4; ++s)
        for (axis = 0; axis < 4; ++axis)
            for (quantize = 0; quantize < 2; ++quantize)
                for (k = 0; k < sizeof qts / sizeof qts[0]; ++k) {
                    for (z = 0; z < sizeof zts / sizeof zts[0]; ++z) dynamic_empty(shapes[s], 4, axis, quantize, qts[k], zts[z]);
                    static_empty(shapes[s], 4, axis, quantize, qts[k]);
                }
    /* s32 dequantize of an empty tensor */
    {
        const int64_t d[2] = { 0, 7 }, one[1] = { 1 };
        float *sc = (float *)malloc(sizeof(float));
        quant_tensor q = check_tensor(QUANT_S32, 2, d, NULL), f = check_tensor(QUANT_F32, 2, d, NULL), ts = check_tensor(QUANT_F32, 1, one, sc);
        *sc = 2.0f;
        EXPECT(quant_dynamic_dequantize(&q, &ts, NULL, &f, NULL), QUANT_OK, "s32 empty");
        free(sc);
    }
    huge_axis();
    row_kernels();
    return check_done("test_empty");
}
