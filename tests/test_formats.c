/* test_formats.c - SPEC section 6 against the oracle: f16 and bf16 sources,
   destinations and scales, s4 and u4 tensors and zero points, per-group
   grids (ragged last groups included), per tensor and per channel through
   the same types, static and dynamic, every rounding. Each buffer is its
   own allocation of exactly its size. */
#include "../quant.h"
#include "check.h"
#include "hooks.h"
#include "oracle.h"
#include "bytes.h"
#include <math.h>

static const float scales_pool[] = { 1.0f, 0.1f, 0.37f, 3.0f, 0.0625f, 1e-3f, 7.5f, 2.5e-5f,
                                     1.00048828125f /* 1 + 2^-11: f16 ties */, 1.001953125f /* 1 + 2^-9 */,
                                     1.00390625f /* 1 + 2^-8: bf16 ties */, 1.01171875f /* 1 + 3 * 2^-8: ties up */,
                                     1.00146484375f /* 1 + 3 * 2^-11 */, 65504.0f, 3.0e38f, 1.5e-5f };
#define NPOOL (sizeof scales_pool / sizeof scales_pool[0])

/* the packed integer types: s4, u4 two to a byte, s2, u2 four */
static int is4(quant_dtype t) { return t == QUANT_S4 || t == QUANT_U4 || t == QUANT_S2 || t == QUANT_U2; }
static int isf8(quant_dtype t) { return t == QUANT_F8_E4M3 || t == QUANT_F8_E5M2; }

/* element i of a tensor of dtype t, as the oracle reads it */
static float get_float(const void *p, quant_dtype t, size_t i)
{
    if (t == QUANT_F16) return o_f16_value(((const uint16_t *)p)[i]);
    if (t == QUANT_BF16) return o_bf16_value(((const uint16_t *)p)[i]);
    return ((const float *)p)[i];
}
static int64_t get_int(const void *p, quant_dtype t, size_t i)
{
    const uint8_t *b = (const uint8_t *)p;
    switch (t) {
    case QUANT_S8: return (int8_t)b[i];
    case QUANT_U8: return b[i];
    case QUANT_S32: return ((const int32_t *)p)[i];
    case QUANT_S16: return ((const int16_t *)p)[i];
    case QUANT_S4: { int v = (b[i / 2] >> (4 * (i % 2))) & 15; return v >= 8 ? v - 16 : v; }
    case QUANT_U4: return (b[i / 2] >> (4 * (i % 2))) & 15;
    case QUANT_S2: { int v = (b[i / 4] >> (2 * (i % 4))) & 3; return v >= 2 ? v - 4 : v; }
    case QUANT_U2: return (b[i / 4] >> (2 * (i % 4))) & 3;
    default: return 0;
    }
}
static void put_int(void *p, quant_dtype t, size_t i, int64_t v)
{
    uint8_t *b = (uint8_t *)p;
    switch (t) {
    case QUANT_S8: case QUANT_U8: b[i] = (uint8_t)v; break;
    case QUANT_S32: ((int32_t *)p)[i] = (int32_t)v; break;
    case QUANT_S16: ((int16_t *)p)[i] = (int16_t)v; break;
    case QUANT_S4: case QUANT_U4:
        b[i / 2] = (uint8_t)((b[i / 2] & (i % 2 ? 0x0F : 0xF0)) | ((v & 15) << (4 * (i % 2))));
        break;
    case QUANT_S2: case QUANT_U2:
        b[i / 4] = (uint8_t)((b[i / 4] & ~(3 << (2 * (i % 4)))) | ((v & 3) << (2 * (i % 4))));
        break;
    default: break;
    }
}
static void put_float(void *p, quant_dtype t, size_t i, float v)
{
    if (t == QUANT_F16) ((uint16_t *)p)[i] = o_f16_code(v);
    else if (t == QUANT_BF16) ((uint16_t *)p)[i] = o_bf16_code(v);
    else ((float *)p)[i] = v;
}

typedef struct tcase {
    int rank;
    int64_t dims[4];
    quant_qtype qtype;
    int axis;
    int64_t group[4];
} tcase;

/* the grid entry of element i */
static size_t grid_of(const tcase *c, size_t i, size_t *count)
{
    size_t at = 0, stride = 1, rem = i;
    int d;
    for (d = c->rank - 1; d >= 0; --d) {
        const size_t dim = (size_t)c->dims[d];
        size_t g = c->qtype == QUANT_PER_GROUP ? (size_t)c->group[d]
                 : c->qtype == QUANT_PER_CHANNEL && d == c->axis ? 1 : dim;
        size_t gd = (dim + g - 1) / g;
        at += (rem % dim) / g * stride;
        stride *= gd;
        rem /= dim;
    }
    *count = stride;
    return at;
}

static float random_input(float s)
{
    uint32_t r = check_rand();
    switch (r % 6) {
    case 0: return ((float)(int)(check_rand() % 41) - 20.0f + 0.5f) * s;    /* ties */
    case 1: return o_from_bits(check_rand());                               /* any bits */
    case 2: { static const uint32_t e[] = { 0, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0x00000001u,
                                            0x477FF000u, 0x7F7FFFFFu, 0x38800000u, 0x33000000u };
              return o_from_bits(e[check_rand() % 10]); }
    default: return ((float)(int)(check_rand() % 4001) - 2000.0f) * 0.01f * s;
    }
}

static void run(const tcase *c, int quantize, quant_dtype ft, quant_dtype qt, quant_dtype st_dt, int dynamic,
                int zmode, quant_dtype zt, int rnd, int ov)
{
    size_t n = 1, i, ns, nz;
    int d;
    quant_dtype srct = quantize ? ft : qt, dstt = quantize ? qt : ft;
    void *src, *dst, *sc, *zp = NULL;
    float *scf;
    int64_t *zp64;
    quant_tensor ts, td, tsc, tz;
    quant_attrs a = quant_attrs_default();
    quant_status st;
    for (d = 0; d < c->rank; ++d) n *= (size_t)c->dims[d];
    grid_of(c, 0, &ns);
    nz = zmode == 0 ? 0 : zmode == 1 ? 1 : ns;
    if (isf8(qt) && zmode) nz = 0;
    src = alloc(nbytes(srct, n));
    dst = alloc(nbytes(dstt, n));
    sc = alloc(nbytes(dynamic ? st_dt : QUANT_F32, ns));
    scf = (float *)alloc(ns * 4);
    zp64 = (int64_t *)alloc(nz * 8);
    if (nz) zp = alloc(nbytes(dynamic ? zt : QUANT_S32, nz));
    memset(dst, 0xA5, nbytes(dstt, n));
    for (i = 0; i < ns; ++i) {
        float s = scales_pool[check_rand() % NPOOL] * (check_rand() % 2 ? -1.0f : 1.0f);
        if (dynamic) {
            put_float(sc, st_dt, i, s);
            if (isinf(get_float(sc, st_dt, i))) put_float(sc, st_dt, i, 1.0f); /* past f16's range */
            s = get_float(sc, st_dt, i);
        }
        else ((float *)sc)[i] = s;
        scf[i] = s;
    }
    for (i = 0; i < nz; ++i) {
        quant_dtype zz = dynamic ? zt : QUANT_S32;
        int64_t v = (int64_t)(check_rand() % 40) - 20;
        if (zz == QUANT_U4 || zz == QUANT_U8) v = (int64_t)(check_rand() % 16);
        if (zz == QUANT_S4) v = (int64_t)(check_rand() % 16) - 8;
        if (zz == QUANT_U2) v = (int64_t)(check_rand() % 4);
        if (zz == QUANT_S2) v = (int64_t)(check_rand() % 4) - 2;
        if (zz == QUANT_S16 && check_rand() % 2) v = (int64_t)(int16_t)check_rand();
        if (!dynamic && check_rand() % 4 == 0) v = (int64_t)(int32_t)check_rand();
        if (dynamic) { put_int(zp, zz, i, v); v = get_int(zp, zz, i); }
        zp64[i] = v;
    }
    if (quantize) {
        for (i = 0; i < n; ++i) put_float(src, ft, i, random_input(scf[0]));
    } else {
        /* packed: the bits past the last element are random, and ignored */
        for (i = 0; i < nbytes(qt, n); ++i) ((uint8_t *)src)[i] = (uint8_t)check_rand();
        for (i = 0; i < n; ++i) {
            int64_t v = (int64_t)check_rand();
            if (qt == QUANT_S32) { if (check_rand() % 2) v = (int64_t)(check_rand() % 2001) - 1000; put_int(src, qt, i, v); }
            else if (is4(qt) || qt == QUANT_S16) put_int(src, qt, i, v);
            else ((uint8_t *)src)[i] = (uint8_t)v;
        }

    }
    memset(&ts, 0, sizeof ts);
    ts.rank = c->rank;
    memcpy(ts.dims, c->dims, sizeof c->dims);
    td = ts;
    ts.dtype = srct; ts.data = src;
    td.dtype = dstt; td.data = dst;
    a.qtype = c->qtype;
    a.axis = c->axis;
    memcpy(a.group_shape, c->group, sizeof c->group);
    a.rounding = (quant_rounding)rnd;
    a.f8_overflow = (quant_f8_overflow)ov;
    memset(&tsc, 0, sizeof tsc);
    memset(&tz, 0, sizeof tz);
    if (dynamic) {
        /* the grid as a tensor of src's rank */
        tsc.dtype = st_dt; tsc.rank = c->rank; tsc.data = sc;
        for (d = 0; d < c->rank; ++d) {
            int64_t g = c->qtype == QUANT_PER_GROUP ? c->group[d] : c->qtype == QUANT_PER_CHANNEL && d == c->axis ? 1 : c->dims[d];
            tsc.dims[d] = (c->dims[d] + g - 1) / g;
        }
        if (c->qtype != QUANT_PER_GROUP) { tsc.rank = 1; tsc.dims[0] = (int64_t)ns; }
        tz = tsc;
        tz.dtype = zt; tz.data = zp;
        if (nz == 1) { tz.rank = 1; tz.dims[0] = 1; }
        st = quantize ? quant_dynamic_quantize(&ts, &tsc, nz ? &tz : NULL, &td, &a)
                      : quant_dynamic_dequantize(&ts, &tsc, nz ? &tz : NULL, &td, &a);
    } else {
        a.scales = (const float *)sc; a.n_scales = ns;
        if (nz) { a.zps = zp64; a.n_zps = nz; }
        st = quantize ? quant_quantize(&ts, &td, &a) : quant_dequantize(&ts, &td, &a);
    }
    CHECK(st == QUANT_OK, "%s %s->%s qtype %d rank %d: status %s", dynamic ? "dynamic" : "static",
          quant_dtype_name(srct), quant_dtype_name(dstt), (int)c->qtype, c->rank, quant_status_str(st));
    if (st != QUANT_OK) goto out;
    for (i = 0; i < n; ++i) {
        size_t cnt, g = grid_of(c, i, &cnt);
        const float s = scf[g];
        const int64_t z = nz == 0 ? 0 : zp64[nz == 1 ? 0 : g];
        if (quantize) {
            const float x = get_float(src, ft, i);
            int64_t want, got;
            if (isf8(qt)) {
                want = o_quant_f8(x, s, rnd, qt == QUANT_F8_E5M2, ov);
                got = ((uint8_t *)dst)[i];
            } else {
                const int64_t lo = qt == QUANT_S8 ? -128 : qt == QUANT_S4 ? -8 : qt == QUANT_S2 ? -2 : qt == QUANT_S16 ? -32768 : 0;
                const int64_t hi = qt == QUANT_S8 ? 127 : qt == QUANT_U8 ? 255 : qt == QUANT_S4 ? 7 : qt == QUANT_S2 ? 1
                                 : qt == QUANT_U2 ? 3 : qt == QUANT_S16 ? 32767 : 15;
                want = o_quant_int(x, s, z, rnd, lo, hi);
                got = get_int(dst, qt, i);
            }
            CHECK(got == want, "quantize %s->%s rnd %d qtype %d [%zu] x=%a s=%a z=%lld: got %lld want %lld",
                  quant_dtype_name(ft), quant_dtype_name(qt), rnd, (int)c->qtype, i, (double)x, (double)s,
                  (long long)z, (long long)got, (long long)want);
        } else {
            float y;
            uint32_t want, got;
            if (isf8(qt)) y = o_dequant_f8_r(((uint8_t *)src)[i], s, qt == QUANT_F8_E5M2, rnd);
            else y = o_dequant_int(get_int(src, qt, i), s, z);
            if (ft == QUANT_F32) { want = check_bits_float(y); got = check_bits_float(((float *)dst)[i]); }
            else {
                want = ft == QUANT_F16 ? o_f16_code(y) : rnd == QUANT_ROUND_ONEDNN ? o_bf16_code_onednn(y) : o_bf16_code(y);
                got = ((uint16_t *)dst)[i];
            }
            CHECK(got == want, "dequantize %s->%s qtype %d [%zu] q=%lld s=%a z=%lld: got 0x%x want 0x%x",
                  quant_dtype_name(qt), quant_dtype_name(ft), (int)c->qtype, i, (long long)get_int(src, qt, i),
                  (double)s, (long long)z, got, want);
        }
    }
    if (quantize && is4(qt) && n % 2 && (qt == QUANT_S4 || qt == QUANT_U4))
        CHECK((((uint8_t *)dst)[n / 2] >> 4) == 0, "odd count: last high nibble 0x%x", ((uint8_t *)dst)[n / 2] >> 4);
    if (quantize && (qt == QUANT_S2 || qt == QUANT_U2) && n % 4)
        CHECK((((uint8_t *)dst)[n / 4] >> (2 * (n % 4))) == 0, "%zu elements: the last byte's bits past them 0x%x", n,
              ((uint8_t *)dst)[n / 4]);
out:
    free(src); free(dst); free(sc); free(scf); free(zp64); free(zp);
}


static quant_tensor tensor(quant_dtype t, int rank, const int64_t *dims, void *data)
{
    quant_tensor x;
    memset(&x, 0, sizeof x);
    x.dtype = t; x.rank = rank; x.data = data;
    if (rank) memcpy(x.dims, dims, (size_t)rank * sizeof *dims);
    return x;
}

/* bad input of section 6: the status, and dst untouched */
static void validation(void)
{
    static float xs[64], s8s[64];
    static uint16_t hs[65], h_scales[16];
    static uint8_t dst[64], before[64], codes[64];
    const int64_t d2[2] = { 4, 6 }, g22[2] = { 2, 2 }, gd[2] = { 4, 3 }, one[1] = { 1 }, six[1] = { 6 };
    quant_tensor x = tensor(QUANT_F32, 2, d2, xs), q = tensor(QUANT_S4, 2, d2, dst), sc, zp;
    quant_attrs a = quant_attrs_default();
    int i;
    quant_status st;
#define EXPECT(call, want)                                                                         \
    do {                                                                                            \
        memset(dst, 0x5A, sizeof dst); memcpy(before, dst, sizeof dst);                             \
        st = (call);                                                                                \
        CHECK(st == (want), "line %d: %s, want %s", __LINE__, quant_status_str(st), quant_status_str(want)); \
        if ((want) != QUANT_OK) CHECK(memcmp(dst, before, sizeof dst) == 0, "line %d: dst changed", __LINE__); \
    } while (0)
    for (i = 0; i < 64; ++i) { xs[i] = (float)i * 0.25f - 3.0f; s8s[i] = 0.5f; codes[i] = (uint8_t)(i * 37); }
    for (i = 0; i < 16; ++i) h_scales[i] = 0x3C00; /* 1.0 in f16 */
    a.qtype = QUANT_PER_GROUP;
    a.scales = s8s;
    /* grid of 2x2 groups over [4, 6]: 2 x 3 entries */
    a.group_shape[0] = 2; a.group_shape[1] = 2; a.n_scales = 6;
    EXPECT(quant_quantize(&x, &q, &a), QUANT_OK);
    a.n_scales = 5;
    EXPECT(quant_quantize(&x, &q, &a), QUANT_ERR_SCALES);
    a.n_scales = 6; a.group_shape[1] = 0;
    EXPECT(quant_quantize(&x, &q, &a), QUANT_ERR_ATTR);
    a.group_shape[1] = -2;
    EXPECT(quant_quantize(&x, &q, &a), QUANT_ERR_ATTR);
    a.group_shape[1] = 2; a.group_shape[2] = 1; /* set past rank */
    EXPECT(quant_quantize(&x, &q, &a), QUANT_ERR_ATTR);
    a.group_shape[2] = 0;
    a.group_shape[1] = 7; a.n_scales = 2; /* a group past the dim is the whole dim */
    EXPECT(quant_quantize(&x, &q, &a), QUANT_OK);
    a.group_shape[1] = 2; a.n_scales = 6;
    /* dynamic: grid-shaped tensors */
    sc = tensor(QUANT_F16, 2, d2, h_scales); sc.dims[0] = 2; sc.dims[1] = 3;
    EXPECT(quant_dynamic_quantize(&x, &sc, NULL, &q, &a), QUANT_OK);
    sc.dims[1] = 2; sc.dims[0] = 3; /* 6 entries, the wrong shape */
    EXPECT(quant_dynamic_quantize(&x, &sc, NULL, &q, &a), QUANT_ERR_SCALES);
    sc = tensor(QUANT_F16, 1, six, h_scales); /* 1-D, but the grid has two dims above 1 */
    EXPECT(quant_dynamic_quantize(&x, &sc, NULL, &q, &a), QUANT_ERR_SCALES);
    sc = tensor(QUANT_S8, 2, g22, h_scales); sc.dims[1] = 3;
    EXPECT(quant_dynamic_quantize(&x, &sc, NULL, &q, &a), QUANT_ERR_SCALES);
    sc.dtype = QUANT_BF16;
    zp = tensor(QUANT_U4, 1, one, codes);
    EXPECT(quant_dynamic_quantize(&x, &sc, &zp, &q, &a), QUANT_OK); /* one zero point for all */
    zp = tensor(QUANT_U4, 2, g22, codes); zp.dims[1] = 3;
    EXPECT(quant_dynamic_quantize(&x, &sc, &zp, &q, &a), QUANT_OK);
    zp.dims[1] = 2;
    EXPECT(quant_dynamic_quantize(&x, &sc, &zp, &q, &a), QUANT_ERR_ZPS);
    zp.dtype = QUANT_F16; zp.dims[1] = 3;
    EXPECT(quant_dynamic_quantize(&x, &sc, &zp, &q, &a), QUANT_ERR_ZPS);
    /* 1-D scales when one grid dim is above 1 */
    a.group_shape[0] = 4; a.group_shape[1] = 2;
    sc = tensor(QUANT_BF16, 1, d2 + 0, h_scales); sc.dims[0] = 3;
    EXPECT(quant_dynamic_quantize(&x, &sc, NULL, &q, &a), QUANT_OK);
    a.group_shape[0] = 2;
    /* scale values */
    sc = tensor(QUANT_F16, 2, gd, h_scales); sc.dims[0] = 2; sc.dims[1] = 3;
    h_scales[4] = 0x0000;
    EXPECT(quant_dynamic_quantize(&x, &sc, NULL, &q, &a), QUANT_ERR_SCALE_VALUE);
    h_scales[4] = 0x7C00;
    EXPECT(quant_dynamic_quantize(&x, &sc, NULL, &q, &a), QUANT_ERR_SCALE_VALUE);
    h_scales[4] = 0x0001; /* 2^-24: fine in f16 */
    EXPECT(quant_dynamic_quantize(&x, &sc, NULL, &q, &a), QUANT_OK);
    sc.dtype = QUANT_BF16; /* 0x0001 in bf16 is 2^-133 */
    EXPECT(quant_dynamic_quantize(&x, &sc, NULL, &q, &a), QUANT_ERR_SCALE_VALUE);
    h_scales[4] = 0x3C00;
    /* alignment of 16-bit data */
    sc.data = (uint8_t *)h_scales + 1;
    EXPECT(quant_dynamic_quantize(&x, &sc, NULL, &q, &a), QUANT_ERR_ALIGN);
    sc.data = h_scales;
    {
        quant_tensor xh = tensor(QUANT_F16, 2, d2, (uint8_t *)hs + 1);
        EXPECT(quant_quantize(&xh, &q, &a), QUANT_ERR_ALIGN);
        xh.data = hs;
        EXPECT(quant_quantize(&xh, &q, &a), QUANT_OK);
    }
    /* types */
    {
        quant_tensor xh = tensor(QUANT_F16, 2, d2, hs), y16 = tensor(QUANT_F16, 2, d2, dst), y32 = tensor(QUANT_S32, 2, d2, dst);
        EXPECT(quant_quantize(&xh, &y16, &a), QUANT_ERR_DTYPE);
        EXPECT(quant_quantize(&xh, &y32, &a), QUANT_ERR_DTYPE);
        q.data = codes;
        EXPECT(quant_dequantize(&q, &y16, &a), QUANT_OK);
        y16.dtype = QUANT_S8;
        EXPECT(quant_dequantize(&q, &y16, &a), QUANT_ERR_DTYPE);
        q.data = dst;
    }
    /* overlap: a 4-bit tensor of 5 elements takes 3 bytes */
    {
        const int64_t five[1] = { 5 };
        static uint8_t buf[16];
        quant_tensor q5 = tensor(QUANT_U4, 1, five, buf), y = tensor(QUANT_BF16, 1, five, buf + 4);
        quant_attrs t = quant_attrs_default();
        float s1 = 1.0f;
        t.scales = &s1; t.n_scales = 1;
        CHECK(quant_dequantize(&q5, &y, &t) == QUANT_OK, "adjacent: ok");
        y.data = buf + 2;
        CHECK(quant_dequantize(&q5, &y, &t) == QUANT_ERR_OVERLAP, "dst on the packed tensor's last byte");
        {
            quant_tensor x5 = tensor(QUANT_BF16, 1, five, buf), q3 = tensor(QUANT_S4, 1, five, buf + 9);
            CHECK(quant_quantize(&x5, &q3, &t) == QUANT_ERR_OVERLAP, "packed dst on the last source byte");
            q3.data = buf + 10;
            CHECK(quant_quantize(&x5, &q3, &t) == QUANT_OK, "packed dst after the source");
        }
    }
    /* an empty tensor per group: the grid has no entries */
    {
        const int64_t d0[2] = { 0, 5 };
        quant_tensor e = tensor(QUANT_BF16, 2, d0, NULL), eq = tensor(QUANT_U4, 2, d0, NULL);
        a.n_scales = 0;
        EXPECT(quant_quantize(&e, &eq, &a), QUANT_OK);
        a.n_scales = 3;
        EXPECT(quant_quantize(&e, &eq, &a), QUANT_ERR_SCALES);
    }
    /* names and attributes */
    {
        quant_attrs b = quant_attrs_default();
        quant_dtype t;
        static const char *const names[] = { "s4", "u4", "f16", "bf16" };
        for (i = 0; i < 4; ++i) {
            CHECK(quant_dtype_from_name(names[i], &t) == QUANT_OK && t == (quant_dtype)(QUANT_S4 + i), "name %s", names[i]);
            CHECK(strcmp(quant_dtype_name((quant_dtype)(QUANT_S4 + i)), names[i]) == 0, "name of %d", i);
        }
        CHECK(quant_attrs_set(&b, "qtype", "per_group") == QUANT_OK && b.qtype == QUANT_PER_GROUP, "per_group");
        b.group_shape[5] = 9;
        CHECK(quant_attrs_set(&b, "group_shape", "1x128") == QUANT_OK && b.group_shape[0] == 1 &&
              b.group_shape[1] == 128 && b.group_shape[2] == 0 && b.group_shape[5] == 0, "1x128");
        CHECK(quant_attrs_set(&b, "group_shape", "32") == QUANT_OK && b.group_shape[0] == 32 && b.group_shape[1] == 0, "32");
        {
            static const char *const bad[] = { "", "0x4", "4x", "x4", "4x0", "-1", "4 x 4", "1x2x3x4x5x6x7x8x9x10x11x12x13",
                                               "99999999999999999999", "4x+4", "9223372036854775808",
                                               "3x9223372036854775808", "92233720368547758070" };
            for (i = 0; i < (int)(sizeof bad / sizeof bad[0]); ++i) {
                CHECK(quant_attrs_set(&b, "group_shape", bad[i]) == QUANT_ERR_PARSE && b.group_shape[0] == 32 &&
                      b.group_shape[1] == 0, "group_shape \"%s\" rejected, attrs unchanged", bad[i]);
            }
        }
        CHECK(quant_attrs_set(&b, "group_shape", "1x2x3x4x5x6x7x8x9x10x11x12") == QUANT_OK && b.group_shape[11] == 12, "12 entries");
        /* every decimal up to INT64_MAX parses, as axis does: the last ten below it and the max */
        for (i = 0; i < 10; ++i) {
            char buf[48];
            snprintf(buf, sizeof buf, "%lldx3", (long long)(INT64_MAX - i));
            CHECK(quant_attrs_set(&b, "group_shape", buf) == QUANT_OK && b.group_shape[0] == INT64_MAX - i &&
                  b.group_shape[1] == 3 && b.group_shape[2] == 0, "group_shape \"%s\"", buf);
        }
    }
#undef EXPECT
}

/* the row kernels: packed 4-bit weights with a scale (and zero point) per
   group, and 16-bit float rows to s8/u8, exact rounding */
static void row_kernels(void)
{
    static const size_t gs[] = { 0, 1, 2, 3, 7, 32, 128, 1000 };
    /* subnormal scales (some conversion instructions flush them), the
       largest subnormal and the two smallest normal binades */
    const float tiny_pool[6] = { check_float_bits(1u), check_float_bits(0x00012345u), check_float_bits(0x00400000u),
                                 check_float_bits(0x007FFFFFu), check_float_bits(0x00800000u),
                                 check_float_bits(0x01000001u) };
    int it;
    for (it = 0; it < 3000; ++it) {
        const size_t n = it < 40 ? (size_t)it : (size_t)(check_rand() % 700), g = gs[check_rand() % 8];
        const size_t ng = g == 0 || g > n ? 1 : (n + g - 1) / g;
        const int sgn = (int)(check_rand() % 2), out = (int)(check_rand() % 3), with_zp = (int)(check_rand() % 2);
        uint8_t *src = (uint8_t *)alloc((n + 1) / 2), *zps = with_zp ? (uint8_t *)alloc((ng + 1) / 2) : NULL;
        float *sc = (float *)alloc(ng * 4);
        void *dst = alloc(n * (out == 0 ? 4 : 2));
        const quant_dtype qt = sgn ? QUANT_S4 : QUANT_U4;
        size_t i;
        for (i = 0; i < (n + 1) / 2; ++i) src[i] = (uint8_t)check_rand();
        if (zps) for (i = 0; i < (ng + 1) / 2; ++i) zps[i] = (uint8_t)check_rand();
        for (i = 0; i < ng; ++i)
            sc[i] = (check_rand() % 64 ? scales_pool[check_rand() % NPOOL] : tiny_pool[check_rand() % 6]) *
                    (check_rand() % 2 ? -1.0f : 1.0f);
        if (sgn) {
            if (out == 0) quant_s4_to_f32(src, (float *)dst, n, sc, zps, g);
            else if (out == 1) quant_s4_to_f16(src, (uint16_t *)dst, n, sc, zps, g);
            else quant_s4_to_bf16(src, (uint16_t *)dst, n, sc, zps, g);
        } else {
            if (out == 0) quant_u4_to_f32(src, (float *)dst, n, sc, zps, g);
            else if (out == 1) quant_u4_to_f16(src, (uint16_t *)dst, n, sc, zps, g);
            else quant_u4_to_bf16(src, (uint16_t *)dst, n, sc, zps, g);
        }
        for (i = 0; i < n; ++i) {
            const size_t gi = g == 0 ? 0 : i / g;
            const int64_t z = zps ? get_int(zps, qt, gi) : 0;
            const float y = o_dequant_int(get_int(src, qt, i), sc[gi], z);
            const uint32_t want = out == 0 ? check_bits_float(y) : out == 1 ? o_f16_code(y) : o_bf16_code(y);
            const uint32_t got = out == 0 ? check_bits_float(((float *)dst)[i]) : ((uint16_t *)dst)[i];
            CHECK(got == want, "%s_to_%s n=%zu g=%zu zps=%d [%zu]: got 0x%x want 0x%x", sgn ? "s4" : "u4",
                  out == 0 ? "f32" : out == 1 ? "f16" : "bf16", n, g, with_zp, i, got, want);
        }
        free(src); free(zps); free(sc); free(dst);
    }
    {
        /* an invalid scale (the row kernels do not validate): every lane
           and the scalar tail of one call agree */
        static const float bad[3] = { NAN, INFINITY, -INFINITY };
        uint8_t src[40], zp = 0x88;
        uint16_t y[80];
        float yf[80];
        int b, i;
        memset(src, 0x88, sizeof src);
        for (b = 0; b < 3; ++b) {
            quant_u4_to_f16(src, y, 80, &bad[b], &zp, 0);
            for (i = 1; i < 80; ++i) CHECK(y[i] == y[0], "f16 scale %g: [%d] 0x%04x, [0] 0x%04x", (double)bad[b], i, y[i], y[0]);
            quant_u4_to_bf16(src, y, 80, &bad[b], &zp, 0);
            for (i = 1; i < 80; ++i) CHECK(y[i] == y[0], "bf16 scale %g: [%d] 0x%04x, [0] 0x%04x", (double)bad[b], i, y[i], y[0]);
            quant_u4_to_f32(src, yf, 80, &bad[b], &zp, 0);
            for (i = 1; i < 80; ++i) CHECK(check_bits_float(yf[i]) == check_bits_float(yf[0]), "f32 scale %g: [%d]", (double)bad[b], i);
        }
    }
    {
        /* groups of 32 and 128 (the fast paths) with one infinite or NaN
           scale among valid ones, the first group among them (a NaN whose
           payload fills the mantissa turns into -0 if the bf16 rounding
           add meets it): every group as the oracle has it */
        static const size_t gg[2] = { 32, 128 };
        const float bad[4] = { NAN, INFINITY, -INFINITY, check_float_bits(0x7FFFFFFFu) };
        enum { N = 1024 };
        static uint8_t src[N / 2], zps[N / 64];
        static float sc[N / 32], yf[N];
        static uint16_t y[N];
        int b, gk, out, sgn, badg;
        size_t i;
        for (i = 0; i < N / 2; ++i) src[i] = (uint8_t)check_rand();
        for (i = 0; i < N / 64; ++i) zps[i] = (uint8_t)check_rand();
        for (gk = 0; gk < 2; ++gk)
            for (b = 0; b < 4; ++b)
                for (badg = 0; badg < 4; ++badg)
                    for (sgn = 0; sgn < 2; ++sgn)
                        for (out = 0; out < 3; ++out) {
                            const size_t g = gg[gk], ng = N / g;
                            const quant_dtype qt = sgn ? QUANT_S4 : QUANT_U4;
                            for (i = 0; i < ng; ++i) sc[i] = scales_pool[check_rand() % NPOOL];
                            sc[(size_t)badg * (ng - 1) / 3] = bad[b];
                            if (out == 0) (sgn ? quant_s4_to_f32 : quant_u4_to_f32)(src, yf, N, sc, zps, g);
                            else if (out == 1) (sgn ? quant_s4_to_f16 : quant_u4_to_f16)(src, y, N, sc, zps, g);
                            else (sgn ? quant_s4_to_bf16 : quant_u4_to_bf16)(src, y, N, sc, zps, g);
                            for (i = 0; i < N; ++i) {
                                const size_t gi = i / g;
                                const uint32_t got = out == 0 ? check_bits_float(yf[i]) : y[i];
                                const float yv = o_dequant_int(get_int(src, qt, i), sc[gi], get_int(zps, qt, gi));
                                const uint32_t want = out == 0 ? check_bits_float(yv) : out == 1 ? o_f16_code(yv) : o_bf16_code(yv);
                                /* NaN (0 * Inf, a NaN scale) of any payload where the oracle has one */
                                const int nan = out == 0 ? (got & 0x7FFFFFFFu) > 0x7F800000u
                                              : out == 1 ? (got & 0x7FFFu) > 0x7C00u : (got & 0x7FFFu) > 0x7F80u;
                                CHECK(got == want || (yv != yv && nan), "g=%zu out=%d sgn=%d, bad group %zu: [%zu] 0x%x want 0x%x",
                                      g, out, sgn, (size_t)badg * (ng - 1) / 3, i, got, want);
                            }
                        }
    }
    {
        /* f32 results at every element offset from a 64-byte line (the
           AVX-512 kernel lays its stores from the next line, and one vector
           crosses each group boundary), whole and ragged groups of 32, 64
           and 128, an infinite or NaN scale in some group or none */
        static const size_t gg[3] = { 32, 64, 128 };
        static const float bad[3] = { NAN, INFINITY, -INFINITY };
        enum { N = 1100, PAD = 16 };
        static uint8_t src[N / 2 + 1], zps[N / 64 + 1];
        static float sc[N / 32 + 1];
        static union { float f[N + 2 * PAD]; uint64_t align[8]; } line; /* at least 8-byte aligned */
        size_t off, i;
        int gk, sgn, it;
        float *base = line.f + (size_t)((0u - (uintptr_t)line.f) & 63u) / 4; /* on a line */
        for (i = 0; i < N / 2 + 1; ++i) src[i] = (uint8_t)check_rand();
        for (i = 0; i < N / 64 + 1; ++i) zps[i] = (uint8_t)check_rand();
        CHECK(base + PAD + N <= line.f + N + 2 * PAD && ((uintptr_t)base & 63u) == 0, "aligned base");
        for (gk = 0; gk < 3; ++gk)
            for (off = 0; off < PAD; ++off)
                for (sgn = 0; sgn < 2; ++sgn)
                    for (it = 0; it < 4; ++it) {
                        const size_t g = gg[gk];
                        const size_t n = it == 0 ? 3 * g : it == 1 ? g : N - (size_t)(check_rand() % 200);
                        const size_t ng = (n + g - 1) / g;
                        const int with_zp = it != 1;
                        const size_t badg = it == 3 ? (size_t)check_rand() % ng : (size_t)-1;
                        const quant_dtype qt = sgn ? QUANT_S4 : QUANT_U4;
                        float *y = base + off;
                        for (i = 0; i < ng; ++i) sc[i] = scales_pool[check_rand() % NPOOL];
                        if (badg < ng) sc[badg] = bad[check_rand() % 3];
                        for (i = 0; i < N; ++i) base[i] = -1.0f;
                        (sgn ? quant_s4_to_f32 : quant_u4_to_f32)(src, y, n, sc, with_zp ? zps : NULL, g);
                        for (i = 0; i < n; ++i) {
                            const size_t gi = i / g;
                            const float yv = o_dequant_int(get_int(src, qt, i), sc[gi], with_zp ? get_int(zps, qt, gi) : 0);
                            const uint32_t got = check_bits_float(y[i]), want = check_bits_float(yv);
                            CHECK(got == want || (yv != yv && (got & 0x7FFFFFFFu) > 0x7F800000u),
                                  "%s_to_f32 offset %zu n=%zu g=%zu bad group %zu: [%zu] 0x%x want 0x%x", sgn ? "s4" : "u4",
                                  off, n, g, badg, i, got, want);
                        }
                        for (i = n; off + i < N; ++i)
                            CHECK(check_bits_float(y[i]) == check_bits_float(-1.0f), "offset %zu n=%zu g=%zu: [%zu] written past n",
                                  off, n, g, i);
                        for (i = 0; i < off; ++i) CHECK(base[i] == -1.0f, "offset %zu: [-%zu] written", off, off - i);
                    }
    }
    {
        /* every 16-bit code as a source row (the four-vector loop widens
           in registers), at scales and zero points of each path */
        static const float ss[4] = { 1.0f, 0.37f, 3.0e-5f, -7.5f };
        static const int32_t zz[4] = { 0, -77, 129, 40000 };
        static uint16_t src[65536];
        static uint8_t dst[65536];
        int bf, u8, k;
        uint32_t u;
        for (u = 0; u < 65536; ++u) src[u] = (uint16_t)u;
        for (bf = 0; bf < 2; ++bf)
            for (u8 = 0; u8 < 2; ++u8)
                for (k = 0; k < 4; ++k) {
                    const float s = ss[k];
                    const int32_t z = zz[(k + bf + u8) % 4];
                    if (bf) { if (u8) quant_bf16_to_u8(src, dst, 65536, s, z); else quant_bf16_to_s8(src, (int8_t *)dst, 65536, s, z); }
                    else { if (u8) quant_f16_to_u8(src, dst, 65536, s, z); else quant_f16_to_s8(src, (int8_t *)dst, 65536, s, z); }
                    for (u = 0; u < 65536; ++u) {
                        const float x = get_float(src, bf ? QUANT_BF16 : QUANT_F16, u);
                        const int64_t want = o_quant_int(x, s, z, O_EXACT, u8 ? 0 : -128, u8 ? 255 : 127);
                        const int64_t got = u8 ? dst[u] : (int8_t)dst[u];
                        CHECK(got == want, "every code: %s_to_%s 0x%04x s=%a z=%d: got %lld want %lld", bf ? "bf16" : "f16",
                              u8 ? "u8" : "s8", (unsigned)u, (double)s, z, (long long)got, (long long)want);
                    }
                }
    }
    for (it = 0; it < 2000; ++it) {
        const size_t n = it < 40 ? (size_t)it : (size_t)(check_rand() % 1100);
        const int bf = (int)(check_rand() % 2), u8 = (int)(check_rand() % 2);
        const float s = scales_pool[check_rand() % NPOOL] * (check_rand() % 2 ? -1.0f : 1.0f);
        const int32_t z = (int32_t)(check_rand() % 300) - 150;
        uint16_t *src = (uint16_t *)alloc(2 * n);
        uint8_t *dst = (uint8_t *)alloc(n);
        size_t i;
        for (i = 0; i < n; ++i) put_float(src, bf ? QUANT_BF16 : QUANT_F16, i, random_input(s));
        if (bf) { if (u8) quant_bf16_to_u8(src, dst, n, s, z); else quant_bf16_to_s8(src, (int8_t *)dst, n, s, z); }
        else { if (u8) quant_f16_to_u8(src, dst, n, s, z); else quant_f16_to_s8(src, (int8_t *)dst, n, s, z); }
        for (i = 0; i < n; ++i) {
            const float x = get_float(src, bf ? QUANT_BF16 : QUANT_F16, i);
            const int64_t want = o_quant_int(x, s, z, O_EXACT, u8 ? 0 : -128, u8 ? 255 : 127);
            const int64_t got = u8 ? dst[i] : (int8_t)dst[i];
            CHECK(got == want, "%s_to_%s n=%zu [%zu] x=%a s=%a z=%d: got %lld want %lld", bf ? "bf16" : "f16",
                  u8 ? "u8" : "s8", n, i, (double)x, (double)s, z, (long long)got, (long long)want);
        }
        free(src); free(dst);
    }
}

static tcase random_case(void)
{
    tcase c;
    int d;
    memset(&c, 0, sizeof c);
    c.rank = 1 + (int)(check_rand() % 4);
    for (d = 0; d < c.rank; ++d) {
        c.dims[d] = 1 + (int64_t)(check_rand() % (d == c.rank - 1 ? 300 : 7));
        c.group[d] = 1 + (int64_t)(check_rand() % (uint32_t)(c.dims[d] + 1)); /* ragged, and past the dim */
    }
    if (check_rand() % 3 == 0) c.group[c.rank - 1] = (int64_t)(32 << (check_rand() % 3)); /* LLM-like */
    c.qtype = (quant_qtype)(check_rand() % 3);
    c.axis = (int)(check_rand() % (uint32_t)c.rank);
    if (c.qtype != QUANT_PER_GROUP) memset(c.group, 0, sizeof c.group);
    return c;
}

/* one narrowed element against the oracle */
struct narrow {
    const float *x;
    const uint16_t *code;
    int bf16;
};
static int narrow_at(void *ctx, size_t i)
{
    const struct narrow *n = (const struct narrow *)ctx;
    const uint16_t want = n->bf16 ? o_bf16_code(n->x[i]) : o_f16_code(n->x[i]);
    CHECK(n->code[i] == want, "0x%08x: %s 0x%04x want 0x%04x", (unsigned)check_bits_float(n->x[i]),
          n->bf16 ? "bf16" : "f16", n->code[i], want);
    return n->code[i] == want;
}

/* f32 bit patterns first, first + step, ... (count of them) narrowed to
   f16 and bf16 by the scalar code and, in SIMD builds, by the vector
   narrowing of the backend that runs, a block at a time: the vectors give
   the scalar codes everywhere, and the scalar codes the oracle's, which
   runs on every element, or for consecutive patterns where the codes
   change (check_runs in check.h) */
static void narrow_patterns(uint64_t first, uint64_t step, uint64_t count)
{
    enum { B = 4096 };
    static float x[B];
    static uint16_t vh[B], vb[B], sh[B], sb[B];
    const int runs = step == 1 && first % B == 0;
    uint64_t done;
    for (done = 0; done < count; done += B) {
        const size_t len = count - done < B ? (size_t)(count - done) : B;
        struct narrow nh, nb;
        size_t i;
        for (i = 0; i < len; ++i) x[i] = o_from_bits((uint32_t)(first + (done + i) * step));
        hook_narrow16(x, vh, len, 0);
        hook_narrow16(x, vb, len, 1);
        for (i = 0; i < len; ++i) {
            sh[i] = hook_f32_to_f16(x[i]);
            sb[i] = hook_f32_to_bf16(x[i]);
            ++check_count;
            if (vh[i] != sh[i] || vb[i] != sb[i])
                CHECK(0, "0x%08x: f16 0x%04x (vector 0x%04x), bf16 0x%04x (vector 0x%04x)",
                      (unsigned)check_bits_float(x[i]), sh[i], vh[i], sb[i], vb[i]);
        }
        nh.x = nb.x = x;
        nh.code = sh; nh.bf16 = 0;
        nb.code = sb; nb.bf16 = 1;
        if (runs) {
            check_runs(sh, 2, len, narrow_at, &nh);
            check_runs(sb, 2, len, narrow_at, &nb);
        } else
            for (i = 0; i < len; ++i) {
                narrow_at(&nh, i);
                narrow_at(&nb, i);
            }
    }
}

/* every f32 bit pattern in shard k of n, narrowed to f16 and bf16 */
static int sweep(unsigned k, unsigned n)
{
    const uint64_t lo = ((uint64_t)1 << 32) * k / n, hi = ((uint64_t)1 << 32) * (k + 1) / n;
    narrow_patterns(lo, 1, hi - lo);
    ++check_count;
    return check_done("test_formats all");
}

/* every 16-bit code widened by the scalar code and the backend's vectors */
static void widen_all(void)
{
    static uint16_t codes[65536];
    static float vh[65536], vb[65536];
    uint32_t u;
    for (u = 0; u < 65536; ++u) codes[u] = (uint16_t)u;
    hook_widen16(codes, vh, 65536, 0);
    hook_widen16(codes, vb, 65536, 1);
    for (u = 0; u < 65536; ++u) {
        const float h = hook_f16_to_f32((uint16_t)u), b = hook_bf16_to_f32((uint16_t)u);
        const float wh = o_f16_value((uint16_t)u), wb = o_bf16_value((uint16_t)u);
        CHECK((isnan(h) && isnan(wh)) || check_bits_float(h) == check_bits_float(wh), "f16 0x%04x widened", (unsigned)u);
        CHECK((isnan(b) && isnan(wb)) || check_bits_float(b) == check_bits_float(wb), "bf16 0x%04x widened", (unsigned)u);
        /* the vectors give the scalar bits, NaN payloads included */
        CHECK(check_bits_float(vh[u]) == check_bits_float(h), "f16 0x%04x widened by vectors", (unsigned)u);
        CHECK(check_bits_float(vb[u]) == check_bits_float(b), "bf16 0x%04x widened by vectors", (unsigned)u);
    }
}

/* rounding onednn, dequantize to bf16: oneDNN's f32 -> bf16 flushes every
   result below 2^-126 to a signed zero; the other roundings keep bf16
   subnormals. Every source type, long enough for the vector paths and the
   4-bit row kernel, results straddling 2^-126 in both signs. */
static void onednn_bf16_flush(void)
{
    enum { N = 203 };
    static const quant_dtype srcs[] = { QUANT_S8, QUANT_U8, QUANT_S4, QUANT_U4, QUANT_S32, QUANT_F8_E4M3, QUANT_F8_E5M2 };
    static uint8_t q[N * 4];
    static uint16_t y[N];
    const int64_t dims[2] = { 1, N };
    int t, r, k;
    size_t i;
    /* the case oneDNN 2.6 and main give: q = 1, scale 2^-127 */
    {
        int8_t one = 1;
        float s = ldexpf(1.0f, -127);
        const int64_t d1[1] = { 1 };
        quant_tensor ts = tensor(QUANT_S8, 1, d1, &one), td = tensor(QUANT_BF16, 1, d1, y);
        quant_attrs a = quant_attrs_default();
        a.scales = &s; a.n_scales = 1;
        a.rounding = QUANT_ROUND_ONEDNN;
        CHECK(quant_dequantize(&ts, &td, &a) == QUANT_OK && y[0] == 0x0000, "onednn: s8 1 * 2^-127 -> 0x%04x, want 0x0000", y[0]);
        a.rounding = QUANT_ROUND_EXACT;
        CHECK(quant_dequantize(&ts, &td, &a) == QUANT_OK && y[0] == 0x0040, "exact: s8 1 * 2^-127 -> 0x%04x, want 0x0040", y[0]);
        one = -1; a.rounding = QUANT_ROUND_ONEDNN;
        CHECK(quant_dequantize(&ts, &td, &a) == QUANT_OK && y[0] == 0x8000, "onednn: s8 -1 * 2^-127 -> 0x%04x, want 0x8000", y[0]);
    }
    for (t = 0; t < 7; ++t)
        for (r = 0; r < 4; ++r)
            for (k = 0; k < 3; ++k) {
                /* scales whose products straddle 2^-126 (the smallest one's reciprocal is finite) */
                static const float scales[3] = { 0x1.4p-128f, 0x1.8p-127f, 0x1p-120f };
                const quant_dtype st = srcs[t];
                const float s = scales[k];
                quant_tensor ts = tensor(st, 2, dims, q), td = tensor(QUANT_BF16, 2, dims, y);
                quant_attrs a = quant_attrs_default();
                quant_status status;
                a.scales = &s; a.n_scales = 1;
                a.rounding = (quant_rounding)r;
                for (i = 0; i < sizeof q; ++i) q[i] = (uint8_t)check_rand();
                if (st == QUANT_S32)
                    for (i = 0; i < N; ++i) {
                        const int32_t v = (int32_t)(check_rand() % 4001) - 2000;
                        memcpy(q + 4 * i, &v, 4);
                    }
                if (st == QUANT_S4 || st == QUANT_U4) { /* per group of 32: the 4-bit row kernel's layout */
                    static float gs[7];
                    for (i = 0; i < 7; ++i) gs[i] = s;
                    a.qtype = QUANT_PER_GROUP; a.group_shape[0] = 1; a.group_shape[1] = 32;
                    a.scales = gs; a.n_scales = 7;
                }
                status = quant_dequantize(&ts, &td, &a);
                CHECK(status == QUANT_OK, "%s -> bf16: %s", quant_dtype_name(st), quant_status_str(status));
                for (i = 0; i < N; ++i) {
                    float v;
                    uint16_t want;
                    if (st == QUANT_F8_E4M3 || st == QUANT_F8_E5M2) v = o_dequant_f8_r(q[i], s, st == QUANT_F8_E5M2, r);
                    else v = o_dequant_int(get_int(q, st, i), s, 0);
                    want = r == QUANT_ROUND_ONEDNN ? o_bf16_code_onednn(v) : o_bf16_code(v);
                    CHECK(y[i] == want, "%s -> bf16 rounding %d s=%a [%zu]: got 0x%04x want 0x%04x", quant_dtype_name(st), r,
                          (double)s, i, y[i], want);
                }
            }
}

int main(int argc, char **argv)
{
    static const quant_dtype floats[] = { QUANT_F32, QUANT_F16, QUANT_BF16 };
    static const quant_dtype qdst[] = { QUANT_S8, QUANT_U8, QUANT_S4, QUANT_U4, QUANT_F8_E4M3, QUANT_F8_E5M2, QUANT_S16,
                                        QUANT_S2, QUANT_U2 };
    static const quant_dtype qsrc[] = { QUANT_S8, QUANT_U8, QUANT_S4, QUANT_U4, QUANT_S32, QUANT_F8_E4M3, QUANT_F8_E5M2,
                                        QUANT_S16, QUANT_S2, QUANT_U2 };
    static const quant_dtype zts[] = { QUANT_S8, QUANT_U8, QUANT_S32, QUANT_S4, QUANT_U4, QUANT_S16, QUANT_S2, QUANT_U2 };
    int it, rounds;
    check_cpu();
    if (argc == 4 && strcmp(argv[1], "all") == 0) return sweep((unsigned)atoi(argv[2]), (unsigned)atoi(argv[3]));
    widen_all();
    /* every 2^32 / 2^22-th f32 pattern, an odd stride so that every low
       bit pattern comes round, and every pattern near the f16 and bf16
       edges: subnormal, overflow, Inf, NaN */
    narrow_patterns(0, 1021, ((uint64_t)1 << 32) / 1021);
    narrow_patterns(0x33000000u, 1, 0x01000000u);
    narrow_patterns(0x477FE000u, 1, 0x2000u);
    narrow_patterns(0x7F7F0000u, 1, 0x00810000u);
    narrow_patterns(0xFF7F0000u, 1, 0x00810000u);
    validation();
    row_kernels();
    onednn_bf16_flush();
    rounds = check_light("test_formats", 7000, 1500);
    for (it = 0; it < rounds; ++it) {
        const tcase c = random_case();
        const int quantize = (int)(check_rand() % 2), dynamic = (int)(check_rand() % 2);
        const quant_dtype ft = floats[check_rand() % 3];
        const quant_dtype qt = quantize ? qdst[check_rand() % 9] : qsrc[check_rand() % 10];
        const quant_dtype sdt = floats[check_rand() % 3], zt = zts[check_rand() % 8];
        const int zmode = (int)(check_rand() % 3), rnd = (int)(check_rand() % 4), ov = (int)(check_rand() % 2);
        run(&c, quantize, ft, qt, sdt, dynamic, zmode, zt, rnd, ov);
    }
    return check_done("test_formats");
}
