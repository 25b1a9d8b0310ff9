/* One check per row of SPEC section 4: the exact status, and a dst that a
   canary fill proves untouched. */
#include "../quant.h"
#include "check.h"
#include <math.h>

#define N 24
static float fsrc[N], fdst[N + 8];
static uint8_t qsrc[N], qdst[N + 8];
static float one_scale[1] = { 0.5f }, ch_scales[4] = { 1, 2, 3, 4 };
static int64_t zp0[4] = { 0, 0, 0, 0 }, zp1[1] = { 3 };

static quant_tensor ten(quant_dtype t, int rank, int64_t d0, int64_t d1, void *data)
{
    quant_tensor x;
    memset(&x, 0, sizeof x);
    x.dtype = t; x.rank = rank; x.dims[0] = d0; x.dims[1] = d1; x.data = data;
    return x;
}

static void canary(void)
{
    memset(fdst, 0xA5, sizeof fdst);
    memset(qdst, 0xA5, sizeof qdst);
}

static int untouched(void)
{
    size_t i;
    for (i = 0; i < sizeof qdst; ++i) if (qdst[i] != 0xA5) return 0;
    for (i = 0; i < sizeof fdst; ++i) if (((uint8_t *)fdst)[i] != 0xA5) return 0;
    return 1;
}

#define EXPECT(call, want, label)                                                      \
    do {                                                                               \
        quant_status st_;                                                              \
        canary();                                                                      \
        st_ = (call);                                                                  \
        CHECK(st_ == (want), "%s: got %s, want %s", label, quant_status_str(st_),      \
              quant_status_str(want));                                                 \
        CHECK(st_ == QUANT_OK || untouched(), "%s: dst written on error", label);      \
    } while (0)

int main(void)
{
    check_cpu();
    quant_tensor f = ten(QUANT_F32, 2, 4, 6, fsrc), q = ten(QUANT_S8, 2, 4, 6, qdst);
    quant_tensor qs = ten(QUANT_S8, 2, 4, 6, qsrc), fd = ten(QUANT_F32, 2, 4, 6, fdst);
    quant_tensor sc = ten(QUANT_F32, 1, 1, 0, one_scale), scc = ten(QUANT_F32, 1, 4, 0, ch_scales);
    quant_tensor t, t2, z;
    quant_attrs a = quant_attrs_default(), b;
    float bad_scales[] = { 0.0f, -0.0f, 0, 0, 0, 0, 1e-45f, 2.0e-39f };
    int32_t z32[4] = { 0, 1, 2, 3 };
    size_t i;

    bad_scales[2] = check_float_bits(0x7FC00000); bad_scales[3] = check_float_bits(0x7F800000);
    bad_scales[4] = check_float_bits(0xFF800000); bad_scales[5] = check_float_bits(0xFFC00001);
    a.scales = one_scale; a.n_scales = 1;

    /* sanity: the baseline calls succeed */
    EXPECT(quant_quantize(&f, &q, &a), QUANT_OK, "baseline quantize");
    EXPECT(quant_dequantize(&qs, &fd, &a), QUANT_OK, "baseline dequantize");
    EXPECT(quant_dynamic_quantize(&f, &sc, NULL, &q, NULL), QUANT_OK, "baseline dynamic");
    EXPECT(quant_dynamic_dequantize(&qs, &sc, NULL, &fd, NULL), QUANT_OK, "baseline dynamic dq");

    /* NULL */
    EXPECT(quant_quantize(NULL, &q, &a), QUANT_ERR_NULL, "NULL src");
    EXPECT(quant_quantize(&f, NULL, &a), QUANT_ERR_NULL, "NULL dst");
    EXPECT(quant_quantize(&f, &q, NULL), QUANT_ERR_NULL, "NULL attrs (static)");
    EXPECT(quant_dequantize(&qs, &fd, NULL), QUANT_ERR_NULL, "NULL attrs (static dq)");
    EXPECT(quant_dynamic_quantize(&f, NULL, NULL, &q, NULL), QUANT_ERR_NULL, "NULL scales tensor");
    EXPECT(quant_dynamic_dequantize(&qs, NULL, NULL, &fd, NULL), QUANT_ERR_NULL, "NULL scales tensor dq");
    b = a; b.scales = NULL;
    EXPECT(quant_quantize(&f, &q, &b), QUANT_ERR_NULL, "NULL scales list");
    b = a; b.zps = NULL; b.n_zps = 1;
    EXPECT(quant_quantize(&f, &q, &b), QUANT_ERR_NULL, "NULL zps list with n_zps 1");
    t = f; t.data = NULL;
    EXPECT(quant_quantize(&t, &q, &a), QUANT_ERR_NULL, "NULL src data");
    t = q; t.data = NULL;
    EXPECT(quant_quantize(&f, &t, &a), QUANT_ERR_NULL, "NULL dst data");
    t = sc; t.data = NULL;
    EXPECT(quant_dynamic_quantize(&f, &t, NULL, &q, NULL), QUANT_ERR_NULL, "NULL scales data");
    t = ten(QUANT_S32, 1, 1, 0, NULL);
    EXPECT(quant_dynamic_quantize(&f, &sc, &t, &q, NULL), QUANT_ERR_NULL, "NULL zps data");

    /* DTYPE */
    t = f; t.dtype = QUANT_S8;
    EXPECT(quant_quantize(&t, &q, &a), QUANT_ERR_DTYPE, "quantize from s8");
    t = q; t.dtype = QUANT_F32;
    EXPECT(quant_quantize(&f, &t, &a), QUANT_ERR_DTYPE, "quantize to f32");
    t = q; t.dtype = QUANT_S32;
    EXPECT(quant_quantize(&f, &t, &a), QUANT_ERR_DTYPE, "quantize to s32");
    t = q; t.dtype = QUANT_UNDEF;
    EXPECT(quant_quantize(&f, &t, &a), QUANT_ERR_DTYPE, "quantize to undef");
    t = q; t.dtype = (quant_dtype)99;
    EXPECT(quant_quantize(&f, &t, &a), QUANT_ERR_DTYPE, "quantize to dtype 99");
    t = fd; t.dtype = QUANT_U8;
    EXPECT(quant_dequantize(&qs, &t, &a), QUANT_ERR_DTYPE, "dequantize to u8");
    t = ten(QUANT_S32, 2, 4, 6, fsrc);
    EXPECT(quant_dynamic_dequantize(&t, &sc, NULL, &fd, NULL), QUANT_OK, "dequantize from s32");
    t2 = q;
    EXPECT(quant_dynamic_dequantize(&t, &sc, NULL, &t2, NULL), QUANT_ERR_DTYPE, "dequantize s32 to s8");
    t = ten(QUANT_S32, 1, 4, 0, (uint8_t *)fsrc + 2);
    t2 = ten(QUANT_F32, 1, 4, 0, fdst);
    EXPECT(quant_dequantize(&t, &t2, &a), QUANT_ERR_ALIGN, "s32 src at an odd address");

    /* RANK */
    t = f; t.rank = -1; t2 = q; t2.rank = -1;
    EXPECT(quant_quantize(&t, &t2, &a), QUANT_ERR_RANK, "rank -1");
    t = f; t.rank = 13; t2 = q; t2.rank = 13;
    EXPECT(quant_quantize(&t, &t2, &a), QUANT_ERR_RANK, "rank 13");
    t2 = q; t2.rank = 13;
    EXPECT(quant_quantize(&f, &t2, &a), QUANT_ERR_RANK, "dst rank 13");

    /* SHAPE */
    t = f; t.dims[1] = -6; t2 = q; t2.dims[1] = -6;
    EXPECT(quant_quantize(&t, &t2, &a), QUANT_ERR_SHAPE, "negative dim");
    t = f; t.dims[0] = INT64_MAX; t.dims[1] = 2; t2 = q; t2.dims[0] = INT64_MAX; t2.dims[1] = 2;
    EXPECT(quant_quantize(&t, &t2, &a), QUANT_ERR_SHAPE, "element count overflow");
    t = f; t.dims[0] = INT64_MAX / 4 + 1; t.dims[1] = 1; t2 = q; t2.dims[0] = t.dims[0]; t2.dims[1] = 1;
    EXPECT(quant_quantize(&t, &t2, &a), QUANT_ERR_SHAPE, "f32 byte size overflow");
    t2 = q; t2.dims[1] = 5;
    EXPECT(quant_quantize(&f, &t2, &a), QUANT_ERR_SHAPE, "dims differ");
    t2 = q; t2.rank = 3; t2.dims[2] = 1;
    EXPECT(quant_quantize(&f, &t2, &a), QUANT_ERR_SHAPE, "ranks differ");

    /* QTYPE */
    b = a; b.qtype = (quant_qtype)3;
    EXPECT(quant_quantize(&f, &q, &b), QUANT_ERR_QTYPE, "qtype 3");
    EXPECT(quant_dynamic_quantize(&f, &sc, NULL, &q, &b), QUANT_ERR_QTYPE, "qtype 3 dynamic");

    /* AXIS */
    b = a; b.qtype = QUANT_PER_CHANNEL; b.scales = ch_scales; b.n_scales = 4;
    b.axis = 2;
    EXPECT(quant_quantize(&f, &q, &b), QUANT_ERR_AXIS, "axis 2 of rank 2");
    b.axis = -3;
    EXPECT(quant_quantize(&f, &q, &b), QUANT_ERR_AXIS, "axis -3 of rank 2");
    b.axis = INT64_MIN;
    EXPECT(quant_quantize(&f, &q, &b), QUANT_ERR_AXIS, "axis INT64_MIN");
    b.axis = 0;
    t = ten(QUANT_F32, 0, 0, 0, fsrc); t2 = ten(QUANT_S8, 0, 0, 0, qdst);
    EXPECT(quant_quantize(&t, &t2, &b), QUANT_ERR_AXIS, "per-channel on rank 0");
    b.axis = -2;
    EXPECT(quant_quantize(&f, &q, &b), QUANT_OK, "axis -2 is axis 0");

    /* SCALES */
    b = a; b.n_scales = 2;
    EXPECT(quant_quantize(&f, &q, &b), QUANT_ERR_SCALES, "per-tensor with 2 scales");
    b = a; b.n_scales = 0;
    EXPECT(quant_quantize(&f, &q, &b), QUANT_ERR_SCALES, "per-tensor with 0 scales");
    b = a; b.qtype = QUANT_PER_CHANNEL; b.axis = 0; b.scales = ch_scales; b.n_scales = 3;
    EXPECT(quant_quantize(&f, &q, &b), QUANT_ERR_SCALES, "per-channel with 3 of 4 scales");
    t = scc; t.dtype = QUANT_S32;
    b.n_scales = 4;
    EXPECT(quant_dynamic_quantize(&f, &t, NULL, &q, &b), QUANT_ERR_SCALES, "scales tensor s32");
    t = scc; t.rank = 2; t.dims[1] = 1;
    EXPECT(quant_dynamic_quantize(&f, &t, NULL, &q, &b), QUANT_ERR_SCALES, "scales tensor 2-D");
    t = sc; t.rank = 0;
    EXPECT(quant_dynamic_quantize(&f, &t, NULL, &q, &b), QUANT_ERR_SCALES, "rank-0 scales per channel");
    EXPECT(quant_dynamic_quantize(&f, &t, NULL, &q, NULL), QUANT_OK, "rank-0 scales per tensor");
    t = sc; t.dims[0] = -1;
    EXPECT(quant_dynamic_quantize(&f, &t, NULL, &q, NULL), QUANT_ERR_SCALES, "scales dim -1");
    EXPECT(quant_dynamic_quantize(&f, &scc, NULL, &q, NULL), QUANT_ERR_SCALES, "4 scales per tensor");

    /* SCALE_VALUE */
    for (i = 0; i < sizeof bad_scales / sizeof bad_scales[0]; ++i) {
        char label[64];
        b = a; b.scales = &bad_scales[i];
        snprintf(label, sizeof label, "scale 0x%08x", check_bits_float(bad_scales[i]));
        EXPECT(quant_quantize(&f, &q, &b), QUANT_ERR_SCALE_VALUE, label);
        EXPECT(quant_dequantize(&qs, &fd, &b), QUANT_ERR_SCALE_VALUE, label);
        t = sc; t.data = &bad_scales[i];
        EXPECT(quant_dynamic_quantize(&f, &t, NULL, &q, NULL), QUANT_ERR_SCALE_VALUE, label);
    }
    b = a; b.qtype = QUANT_PER_CHANNEL; b.axis = 0; b.n_scales = 4;
    {
        float s4[4] = { 1, 2, 0, 4 };
        b.scales = s4;
        EXPECT(quant_quantize(&f, &q, &b), QUANT_ERR_SCALE_VALUE, "third channel scale 0");
    }

    /* the scale threshold is exact: every positive float is valid as a
       scale precisely when 1/s is finite (an independent check in double) */
    {
        uint32_t u;
        long wrong = 0;
        for (u = 0; u < 0x7F800000u; u += (u < 0x00300000u ? 1u : 4093u)) {
            float sc1 = check_float_bits(u);
            const int valid = (1.0 / (double)sc1) < 3.4028235677973366e38 + 1.0141204801825835e31; /* FLT_MAX + ulp/2 */
            quant_attrs c = a;
            quant_status st;
            c.scales = &sc1;
            st = quant_quantize(&f, &q, &c);
            wrong += valid != (st == QUANT_OK);
        }
        CHECK(wrong == 0, "scale validity disagrees with 1/s finite on %ld scales", wrong);
    }

    /* ZPS */
    b = a; b.zps = zp0; b.n_zps = 2;
    EXPECT(quant_quantize(&f, &q, &b), QUANT_ERR_ZPS, "per-tensor with 2 zps");
    b = a; b.zps = zp0; b.n_zps = 0;
    EXPECT(quant_quantize(&f, &q, &b), QUANT_ERR_ZPS, "zps list with n_zps 0");
    b = a; b.qtype = QUANT_PER_CHANNEL; b.axis = 0; b.scales = ch_scales; b.n_scales = 4;
    b.zps = zp0; b.n_zps = 3;
    EXPECT(quant_quantize(&f, &q, &b), QUANT_ERR_ZPS, "per-channel with 3 of 4 zps");
    b.n_zps = 1;
    EXPECT(quant_quantize(&f, &q, &b), QUANT_OK, "per-channel with 1 zp");
    t = ten(QUANT_F32, 1, 1, 0, z32);
    EXPECT(quant_dynamic_quantize(&f, &sc, &t, &q, NULL), QUANT_ERR_ZPS, "zps tensor f32");
    t = ten(QUANT_F8_E4M3, 1, 1, 0, z32);
    EXPECT(quant_dynamic_quantize(&f, &sc, &t, &q, NULL), QUANT_ERR_ZPS, "zps tensor f8");
    t = ten(QUANT_S32, 2, 1, 1, z32);
    EXPECT(quant_dynamic_quantize(&f, &sc, &t, &q, NULL), QUANT_ERR_ZPS, "zps tensor 2-D");
    t = ten(QUANT_S32, 0, 0, 0, z32);
    EXPECT(quant_dynamic_quantize(&f, &sc, &t, &q, NULL), QUANT_OK, "rank-0 zps per tensor");
    EXPECT(quant_dynamic_quantize(&f, &scc, &t, &q, &b), QUANT_ERR_ZPS, "rank-0 zps per channel");
    t = ten(QUANT_S32, 1, 2, 0, z32);
    EXPECT(quant_dynamic_quantize(&f, &sc, &t, &q, NULL), QUANT_ERR_ZPS, "2 zps per tensor");
    t = ten(QUANT_S32, 1, -1, 0, z32);
    EXPECT(quant_dynamic_quantize(&f, &sc, &t, &q, NULL), QUANT_ERR_ZPS, "zps dim -1");
    t2 = q; t2.dtype = QUANT_F8_E4M3;
    b = a; b.zps = zp1; b.n_zps = 1;
    EXPECT(quant_quantize(&f, &t2, &b), QUANT_ERR_ZPS, "non-zero zp with f8_e4m3");
    t2.dtype = QUANT_F8_E5M2;
    EXPECT(quant_quantize(&f, &t2, &b), QUANT_ERR_ZPS, "non-zero zp with f8_e5m2");
    b.zps = zp0;
    EXPECT(quant_quantize(&f, &t2, &b), QUANT_OK, "zero zp with f8");
    t = ten(QUANT_S32, 1, 4, 0, z32);
    b = a; b.qtype = QUANT_PER_CHANNEL; b.axis = 0;
    t2 = q; t2.dtype = QUANT_F8_E4M3;
    EXPECT(quant_dynamic_quantize(&f, &scc, &t, &t2, &b), QUANT_ERR_ZPS, "dynamic non-zero zp with f8");
    z = ten(QUANT_S32, 1, 4, 0, z32);
    t = qs; t.dtype = QUANT_F8_E5M2;
    EXPECT(quant_dynamic_dequantize(&t, &scc, &z, &fd, &b), QUANT_ERR_ZPS, "dynamic dequantize f8, non-zero zps");

    /* ZP_VALUE */
    {
        int64_t big[1] = { (int64_t)INT32_MAX + 1 }, small[1] = { (int64_t)INT32_MIN - 1 };
        int64_t ends[2] = { INT32_MAX, INT32_MIN };
        b = a; b.zps = big; b.n_zps = 1;
        EXPECT(quant_quantize(&f, &q, &b), QUANT_ERR_ZP_VALUE, "zp INT32_MAX + 1");
        b.zps = small;
        EXPECT(quant_dequantize(&qs, &fd, &b), QUANT_ERR_ZP_VALUE, "zp INT32_MIN - 1");
        b.zps = ends;
        EXPECT(quant_quantize(&f, &q, &b), QUANT_OK, "zp INT32_MAX");
        b.zps = ends + 1;
        EXPECT(quant_dequantize(&qs, &fd, &b), QUANT_OK, "zp INT32_MIN");
    }

    /* ATTR */
    b = a; b.rounding = (quant_rounding)4;
    EXPECT(quant_quantize(&f, &q, &b), QUANT_ERR_ATTR, "rounding 4");
    EXPECT(quant_dequantize(&qs, &fd, &b), QUANT_ERR_ATTR, "rounding 4 on dequantize");
    b = a; b.rounding = (quant_rounding)-1;
    EXPECT(quant_dynamic_quantize(&f, &sc, NULL, &q, &b), QUANT_ERR_ATTR, "rounding -1");
    b = a; b.f8_overflow = (quant_f8_overflow)2;
    EXPECT(quant_quantize(&f, &q, &b), QUANT_ERR_ATTR, "f8_overflow 2 on s8");
    EXPECT(quant_dynamic_dequantize(&qs, &sc, NULL, &fd, &b), QUANT_ERR_ATTR, "f8_overflow 2 on dq");

    /* OVERLAP */
    t = ten(QUANT_F32, 1, 8, 0, fdst); t2 = ten(QUANT_S8, 1, 8, 0, (uint8_t *)fdst + 31);
    EXPECT(quant_quantize(&t, &t2, &a), QUANT_ERR_OVERLAP, "dst starts in the last src byte");
    t2.data = fdst;
    EXPECT(quant_quantize(&t, &t2, &a), QUANT_ERR_OVERLAP, "src == dst");
    t2.data = (uint8_t *)fdst + 32;
    {
        quant_status st = quant_quantize(&t, &t2, &a);
        CHECK(st == QUANT_OK, "adjacent buffers: %s", quant_status_str(st));
    }
    t = ten(QUANT_S8, 1, 8, 0, (uint8_t *)fdst + 4); t2 = ten(QUANT_F32, 1, 8, 0, fdst);
    EXPECT(quant_dequantize(&t, &t2, &a), QUANT_ERR_OVERLAP, "dequantize src inside dst");

    /* ALIGN (beyond SPEC): f32 and s32 data must sit on 4 bytes */
    t = ten(QUANT_F32, 1, 4, 0, (uint8_t *)fsrc + 1);
    t2 = ten(QUANT_S8, 1, 4, 0, qdst);
    EXPECT(quant_quantize(&t, &t2, &a), QUANT_ERR_ALIGN, "f32 src at an odd address");
    t = ten(QUANT_S8, 1, 4, 0, qsrc); t2 = ten(QUANT_F32, 1, 4, 0, (uint8_t *)fdst + 2);
    EXPECT(quant_dequantize(&t, &t2, &a), QUANT_ERR_ALIGN, "f32 dst at an odd address");
    t = ten(QUANT_F32, 1, 1, 0, (uint8_t *)fdst + 8 * 4 + 1);
    EXPECT(quant_dynamic_quantize(&f, &t, NULL, &q, NULL), QUANT_ERR_ALIGN, "f32 scales at an odd address");
    {
        static int32_t zbuf32[4];
        t = ten(QUANT_S32, 1, 1, 0, (uint8_t *)zbuf32 + 1);
        EXPECT(quant_dynamic_quantize(&f, &sc, &t, &q, NULL), QUANT_ERR_ALIGN, "s32 zps at an odd address");
    }
    t = ten(QUANT_F32, 1, 4, 0, fsrc); t2 = ten(QUANT_S8, 1, 4, 0, qdst + 3);
    EXPECT(quant_quantize(&t, &t2, &a), QUANT_OK, "s8 dst at an odd address");

    /* rank 12 with every dim 1: one element, any axis */
    {
        quant_tensor t12 = ten(QUANT_F32, QUANT_MAX_RANK, 1, 1, fsrc), q12 = ten(QUANT_S8, QUANT_MAX_RANK, 1, 1, qdst);
        int d;
        for (d = 0; d < QUANT_MAX_RANK; ++d) t12.dims[d] = q12.dims[d] = 1;
        fsrc[0] = 3.0f;
        EXPECT(quant_quantize(&t12, &q12, &a), QUANT_OK, "rank 12, per tensor");
        CHECK(qdst[0] == 6, "rank 12 value %d", qdst[0]);
        b = a; b.qtype = QUANT_PER_CHANNEL; b.axis = 11;
        EXPECT(quant_quantize(&t12, &q12, &b), QUANT_OK, "rank 12, axis 11");
        b.axis = -12;
        EXPECT(quant_quantize(&t12, &q12, &b), QUANT_OK, "rank 12, axis -12");
        b.axis = 12;
        EXPECT(quant_quantize(&t12, &q12, &b), QUANT_ERR_AXIS, "rank 12, axis 12");
        b.axis = -13;
        EXPECT(quant_quantize(&t12, &q12, &b), QUANT_ERR_AXIS, "rank 12, axis -13");
        fsrc[0] = 0.0f;
    }
    /* dims whose product passes SIZE_MAX while each is small */
    {
        quant_tensor big = ten(QUANT_F32, 4, 1, 1, fsrc), bq = ten(QUANT_S8, 4, 1, 1, qdst);
        int d;
        for (d = 0; d < 4; ++d) big.dims[d] = bq.dims[d] = (int64_t)1 << 17; /* 2^68 elements */
        EXPECT(quant_quantize(&big, &bq, &a), QUANT_ERR_SHAPE, "2^68 elements");
        big.dims[3] = bq.dims[3] = 0; /* a zero dim makes it empty, and valid */
        EXPECT(quant_quantize(&big, &bq, &a), QUANT_OK, "2^51 x 0 elements");
    }

    /* an empty tensor is valid, may have NULL data, writes nothing */
    t = ten(QUANT_F32, 2, 3, 0, NULL); t2 = ten(QUANT_S8, 2, 3, 0, NULL);
    EXPECT(quant_quantize(&t, &t2, &a), QUANT_OK, "empty tensor, NULL data");
    b = a; b.qtype = QUANT_PER_CHANNEL; b.axis = 1; b.n_scales = 0;
    EXPECT(quant_quantize(&t, &t2, &b), QUANT_OK, "per-channel on a zero-length axis");
    z = ten(QUANT_F32, 1, 0, 0, NULL);
    EXPECT(quant_dynamic_quantize(&t, &z, NULL, &t2, &b), QUANT_OK, "empty scales tensor, NULL data");

    /* section 7.1: the MX and NVFP4 scales, tensor_scale, the block-scale
       schemes, s2/u2 */
    {
        static uint8_t e8[1], f8s[1];
        static float sum_scale[1] = { 1.0f }, cs[8];
        static const uint32_t bad_ts[] = { 0x00000000u /* none: fine */, 0x80000001u, 0x00400000u, 0x7F800000u,
                                           0xFF800000u, 0x7FC00000u, 0xBF800000u };
        quant_tensor te = ten(QUANT_E8M0, 1, 1, 0, e8), tf8 = ten(QUANT_F8_E4M3, 1, 1, 0, f8s);
        quant_tensor q4 = ten(QUANT_F4_E2M1, 2, 4, 6, qdst), q2 = ten(QUANT_S2, 2, 4, 6, qdst);
        quant_tensor tcs = ten(QUANT_F32, 2, 4, 1, cs), tce = ten(QUANT_E8M0, 2, 4, 1, qsrc);
        static const uint8_t bad_f8[] = { 0x00, 0x80, 0x7F, 0xFF, 0xB8 /* -1 */ };
        for (i = 0; i < N; ++i) fsrc[i] = (float)i - 11.5f;
        e8[0] = 127;
        EXPECT(quant_dynamic_quantize(&f, &te, NULL, &q4, NULL), QUANT_OK, "f4 with an e8m0 scale of 1");
        e8[0] = 0;
        EXPECT(quant_dynamic_quantize(&f, &te, NULL, &q4, NULL), QUANT_OK, "e8m0 code 0 (2^-127) is a scale");
        e8[0] = 0xFF;
        EXPECT(quant_dynamic_quantize(&f, &te, NULL, &q4, NULL), QUANT_ERR_SCALE_VALUE, "e8m0 0xFF (NaN) scale");
        EXPECT(quant_dynamic_dequantize(&q4, &te, NULL, &fd, NULL), QUANT_ERR_SCALE_VALUE, "e8m0 NaN scale, dequantize");
        for (i = 0; i < sizeof bad_f8; ++i) {
            char what[64];
            f8s[0] = bad_f8[i];
            snprintf(what, sizeof what, "f8_e4m3 scale 0x%02x", bad_f8[i]);
            EXPECT(quant_dynamic_quantize(&f, &tf8, NULL, &q4, NULL), QUANT_ERR_SCALE_VALUE, what);
        }
        f8s[0] = 0x38; /* 1 */
        for (i = 0; i < sizeof bad_ts / sizeof bad_ts[0]; ++i) {
            char what[64];
            b = quant_attrs_default();
            b.tensor_scale = check_float_bits(bad_ts[i]);
            snprintf(what, sizeof what, "tensor_scale 0x%08x", (unsigned)bad_ts[i]);
            EXPECT(quant_dynamic_quantize(&f, &tf8, NULL, &q4, &b), i ? QUANT_ERR_SCALE_VALUE : QUANT_OK, what);
            b.scales = sum_scale; b.n_scales = 1;
            EXPECT(quant_dequantize(&qs, &fd, &b), i ? QUANT_ERR_SCALE_VALUE : QUANT_OK, what);
        }
        {
            /* quant_explain names tensor_scale (the scales were never read) */
            char line[256];
            b = quant_attrs_default();
            b.tensor_scale = -1.0f;
            b.scales = sum_scale; b.n_scales = 1;
            CHECK(quant_explain(QUANT_OP_QUANTIZE, &f, NULL, NULL, &q, &b, line, sizeof line) == QUANT_ERR_SCALE_VALUE &&
                  strstr(line, "tensor_scale") != NULL, "explain of a bad tensor_scale: %s", line);
        }
        /* NVFP4 fused: a block scale of 2^-9 times a tensor_scale of 2^-126 is no scale; nothing written */
        {
            static float tiny[4] = { 0.0f, 1e-45f, -1e-42f, 0.0f };
            static uint8_t code[1] = { 0xA5 };
            quant_tensor tx = ten(QUANT_F32, 1, 4, 0, tiny), tq = ten(QUANT_F4_E2M1, 1, 4, 0, qdst), tc = ten(QUANT_F8_E4M3, 0, 0, 0, code);
            b = quant_attrs_default();
            b.tensor_scale = ldexpf(1.0f, -126);
            EXPECT(quant_choose_and_quantize(&tx, &tq, QUANT_NVFP4, &b, &tc, NULL), QUANT_ERR_SCALE_VALUE, "NVFP4 folded scale below 2^-128");
            CHECK(code[0] == 0xA5, "NVFP4 scale written on error");
        }
        /* the same in the last of 600 groups, batches apart from the first: still nothing written */
        {
            enum { G = 600 };
            float *xs = (float *)malloc(G * 16 * sizeof(float));
            uint8_t *qs4 = (uint8_t *)malloc(G * 8), *cs8 = (uint8_t *)malloc(G);
            quant_tensor tx = ten(QUANT_F32, 2, G, 16, xs), tq = ten(QUANT_F4_E2M1, 2, G, 16, qs4), tc = ten(QUANT_F8_E4M3, 2, G, 1, cs8);
            int ok = 1;
            for (i = 0; i < G * 16; ++i) xs[i] = i < (G - 1) * 16 ? 1.0f : 0.0f;
            memset(qs4, 0xA5, G * 8); memset(cs8, 0xA5, G);
            b = quant_attrs_default();
            b.qtype = QUANT_PER_GROUP; b.group_shape[0] = 1; b.group_shape[1] = 16;
            b.tensor_scale = ldexpf(1.0f, -126);
            CHECK(quant_choose_and_quantize(&tx, &tq, QUANT_NVFP4, &b, &tc, NULL) == QUANT_ERR_SCALE_VALUE, "NVFP4 fold, last group");
            for (i = 0; i < G * 8; ++i) ok &= qs4[i] == 0xA5;
            for (i = 0; i < G; ++i) ok &= cs8[i] == 0xA5;
            CHECK(ok, "NVFP4 fold, last group: written on error");
            free(xs); free(qs4); free(cs8);
        }
        b = quant_attrs_default();
        b.tensor_scale = 3e38f; /* a folded scale past the largest float */
        sum_scale[0] = 4.0f; b.scales = sum_scale; b.n_scales = 1;
        EXPECT(quant_quantize(&f, &q, &b), QUANT_ERR_SCALE_VALUE, "folded scale overflows");
        /* the schemes: the types they take, their scales' dtypes, no zero points */
        b = quant_attrs_default();
        b.qtype = QUANT_PER_GROUP; b.group_shape[0] = 1; b.group_shape[1] = 6;
        memset(cs, 0xA5, sizeof cs);
        CHECK(quant_choose_qparams(&f, QUANT_U8, QUANT_MX, &b, &tce, NULL) == QUANT_ERR_DTYPE, "MX with u8");
        CHECK(quant_choose_qparams(&f, QUANT_S8, QUANT_NVFP4, &b, &tcs, NULL) == QUANT_ERR_DTYPE, "NVFP4 with s8");
        CHECK(quant_choose_qparams(&f, QUANT_S2, QUANT_MX_RCEIL, &b, &tce, NULL) == QUANT_ERR_DTYPE, "MX_RCEIL with s2");
        CHECK(quant_choose_qparams(&f, QUANT_F4_E2M1, QUANT_SYMMETRIC, &b, &tcs, NULL) == QUANT_ERR_DTYPE, "f4 symmetric");
        tce.dtype = QUANT_F8_E4M3;
        CHECK(quant_choose_qparams(&f, QUANT_F4_E2M1, QUANT_MX, &b, &tce, NULL) == QUANT_ERR_SCALES, "MX into e4m3 scales");
        tce.dtype = QUANT_E8M0;
        z = ten(QUANT_S32, 2, 4, 1, z32);
        CHECK(quant_choose_qparams(&f, QUANT_F4_E2M1, QUANT_MX, &b, &tce, &z) == QUANT_ERR_ZPS, "MX with zero points");
        b.tensor_scale = 2.0f;
        CHECK(quant_choose_qparams(&f, QUANT_F4_E2M1, QUANT_MX, &b, &tce, NULL) == QUANT_ERR_ATTR, "MX with tensor_scale");
        EXPECT(quant_choose_and_quantize(&f, &q4, QUANT_MX, &b, &tce, NULL), QUANT_ERR_ATTR, "fused MX with tensor_scale");
        for (i = 0; i < 6; ++i) CHECK(((uint8_t *)cs)[i] == 0xA5, "scales untouched");
        /* s2/u2: a ragged group is fine; an s2 zero point the type cannot hold is refused by the choose pair */
        b = quant_attrs_default();
        b.qtype = QUANT_PER_GROUP; b.group_shape[0] = 1; b.group_shape[1] = 4; /* rows of 6: groups of 4 and 2 */
        memset(cs, 0, sizeof cs);
        tcs.dims[1] = 2;
        EXPECT(quant_choose_and_quantize(&f, &q2, QUANT_SYMMETRIC, &b, &tcs, NULL), QUANT_OK, "s2, ragged groups");
        {
            static uint8_t zu8[8];
            quant_tensor zu = ten(QUANT_U8, 2, 4, 2, zu8);
            CHECK(quant_choose_qparams(&f, QUANT_S2, QUANT_ASYMMETRIC, &b, &tcs, &zu) == QUANT_ERR_ZPS, "s2 zps in u8");
            zu.dtype = QUANT_S8;
            CHECK(quant_choose_qparams(&f, QUANT_U2, QUANT_ASYMMETRIC, &b, &tcs, &zu) == QUANT_OK, "u2 zps in s8");
            zu.dtype = QUANT_S2; /* a packed zero-point tensor is read, never written */
            CHECK(quant_choose_qparams(&f, QUANT_S2, QUANT_ASYMMETRIC, &b, &tcs, &zu) == QUANT_ERR_ZPS, "s2 zps written");
        }
        /* an s2 dst overlapping src by one byte: 20 elements are 5 bytes */
        {
            quant_tensor src2 = ten(QUANT_F32, 2, 4, 5, (uint8_t *)fdst + 8), dst2 = ten(QUANT_S2, 2, 4, 5, (uint8_t *)fdst + 3);
            memset(fdst, 0, sizeof fdst);
            CHECK(quant_quantize(&src2, &dst2, &a) == QUANT_OK, "s2 dst of 5 bytes just before src");
            dst2.data = (uint8_t *)fdst + 4;
            CHECK(quant_quantize(&src2, &dst2, &a) == QUANT_ERR_OVERLAP, "s2 dst overlapping src by one byte");
        }
        for (i = 0; i < N; ++i) fsrc[i] = 0.0f;
    }

    return check_done("test_validation");
}
