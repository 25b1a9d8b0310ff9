/* test_choose.c - quant_choose_qparams and quant_choose_and_quantize
   against the oracle: ONNX DynamicQuantizeLinear's own cases, XNNPACK's
   nudged parameters, edge ranges (ties in the zero point, one element,
   constant, one-signed, NaN-sprinkled, signed zeros, ranges that overflow
   to Inf, ranges below 2^-126), random shapes per tensor, per channel on
   every axis and per group, f32/f16/bf16 sources, every result type and
   rounding; errors leave every output as it was. Each buffer is its own
   allocation of exactly its size. */
#include "../quant.h"
#include "check.h"
#include "oracle.h"
#include "bytes.h"
#include "qrange.h"
#include <math.h>

static int isf8(quant_dtype t) { return t == QUANT_F8_E4M3 || t == QUANT_F8_E5M2; }
static float get_float(const void *p, quant_dtype t, size_t i)
{
    if (t == QUANT_F16) return o_f16_value(((const uint16_t *)p)[i]);
    if (t == QUANT_BF16) return o_bf16_value(((const uint16_t *)p)[i]);
    return ((const float *)p)[i];
}
static int64_t get_zp(const void *p, quant_dtype t, size_t i)
{
    if (t == QUANT_S32) return ((const int32_t *)p)[i];
    if (t == QUANT_S8) return ((const int8_t *)p)[i];
    return ((const uint8_t *)p)[i];
}
static int64_t get_q(const void *p, quant_dtype t, size_t i)
{
    const uint8_t *b = (const uint8_t *)p;
    if (t == QUANT_S4 || t == QUANT_U4) {
        int v = (b[i / 2] >> (4 * (i % 2))) & 15;
        return t == QUANT_S4 && v >= 8 ? v - 16 : v;
    }
    if (t == QUANT_S2 || t == QUANT_U2) {
        int v = (b[i / 4] >> (2 * (i % 4))) & 3;
        return t == QUANT_S2 && v >= 2 ? v - 4 : v;
    }
    if (t == QUANT_S8) return (int8_t)b[i];
    return b[i];
}

/* ---- the oracle's walk: the grid entry of every element ---------------- */

typedef struct {
    quant_tensor src;
    quant_dtype qdt;
    int scheme;
    quant_attrs a;
    size_t n, cells;
    int64_t cell[QUANT_MAX_RANK], grid[QUANT_MAX_RANK];
} choice;

static void grid_of(choice *c)
{
    int d;
    const int axis = c->a.axis < 0 ? (int)c->a.axis + c->src.rank : (int)c->a.axis;
    c->cells = 1;
    for (d = 0; d < c->src.rank; ++d) {
        const int64_t n = c->src.dims[d];
        int64_t g = n;
        if (c->a.qtype == QUANT_PER_CHANNEL && d == axis) g = 1;
        if (c->a.qtype == QUANT_PER_GROUP) g = c->a.group_shape[d] < n ? c->a.group_shape[d] : n;
        if (g < 1) g = 1;
        c->cell[d] = g;
        c->grid[d] = (n + g - 1) / g;
        c->cells *= (size_t)c->grid[d];
    }
}

static size_t cell_of(const choice *c, size_t i)
{
    size_t at = 0, stride = 1, rem = i;
    int d;
    for (d = c->src.rank - 1; d >= 0; --d) {
        const size_t k = rem % (size_t)c->src.dims[d];
        rem /= (size_t)c->src.dims[d];
        at += k / (size_t)c->cell[d] * stride;
        stride *= (size_t)c->grid[d];
    }
    return at;
}

/* the oracle's scales, zero points and multipliers; 0 when a range is infinite */
static int oracle_params(const choice *c, float *s, int64_t *z, float *m, unsigned char *good)
{
    float *mn = malloc(c->cells * sizeof *mn), *mx = malloc(c->cells * sizeof *mx);
    int64_t lo, hi;
    size_t i;
    int ok = 1;
    o_qrange(c->qdt, &lo, &hi);
    for (i = 0; i < c->cells; ++i) { mn[i] = INFINITY; mx[i] = -INFINITY; }
    for (i = 0; i < c->n; ++i) {
        const float x = get_float(c->src.data, c->src.dtype, i);
        const size_t k = cell_of(c, i);
        if (isnan(x)) continue;
        if (x < mn[k]) mn[k] = x;
        if (x > mx[k]) mx[k] = x;
    }
    for (i = 0; i < c->cells; ++i) {
        good[i] = (unsigned char)o_qparams(mn[i], mx[i], c->scheme, lo, hi, c->qdt == QUANT_U8 || c->qdt == QUANT_U4 || c->qdt == QUANT_U2,
                                           &s[i], &z[i], &m[i]);
        ok &= good[i];
    }
    free(mn);
    free(mx);
    return ok;
}

/* q of element x with scale s, zero point z (multiplier m under nudged) */
static int64_t oracle_q(const choice *c, float x, float s, int64_t z, float m, int rounding, int inf_nan)
{
    int64_t lo, hi;
    o_qrange(c->qdt, &lo, &hi);
    if (isf8(c->qdt)) return o_quant_f8(x, s, rounding, c->qdt == QUANT_F8_E5M2, inf_nan);
    if (c->scheme == 2) {
        const float v = o_mul(x, m);
        if (isnan(v)) return o_clamp((double)z, lo, hi);
        if (isinf(v)) return v > 0 ? hi : lo;
        return o_clamp(nearbyint((double)v) + (double)z, lo, hi);
    }
    return o_quant_int(x, s, z, rounding, lo, hi);
}

/* ---- one case: both calls against the oracle ---------------------------- */

static const quant_dtype zp_types[] = { QUANT_S32, QUANT_S8, QUANT_U8 };

static int zp_fits(quant_dtype zt, quant_dtype q, int scheme)
{
    if (scheme == 1 || zt == QUANT_S32) return 1;
    if (zt == QUANT_S8) return q != QUANT_U8;
    return q == QUANT_U8 || q == QUANT_U4 || q == QUANT_U2;
}

static long cases_run;

/* on_error: attrs' on_error (partial: the same results, and on error the
   status, with every scale either untouched or right) */
static void run_case(choice *c, quant_dtype zt, int rounding, int on_error, const char *what)
{
    float *os = malloc(c->cells * sizeof *os), *om = malloc(c->cells * sizeof *om);
    int64_t *oz = malloc(c->cells * sizeof *oz);
    unsigned char *good = malloc(c->cells);
    const int ok = oracle_params(c, os, oz, om, good);
    const size_t sb = 4 * c->cells, zb = nbytes(zt, c->cells), db = nbytes(c->qdt, c->n);
    unsigned char *sbuf = alloc(sb), *zbuf = alloc(zb), *dbuf = alloc(db);
    quant_tensor st, zt_, dt;
    const int with_zp = c->scheme != 1 || (check_rand() & 1);
    int fused, d;
    size_t i;
    ++cases_run;
    /* the grid's shape: rank 0 / 1 per tensor and per channel, else rank(src) */
    memset(&st, 0, sizeof st);
    if (c->a.qtype == QUANT_PER_GROUP) {
        st.rank = c->src.rank;
        for (d = 0; d < c->src.rank; ++d) st.dims[d] = c->grid[d];
    } else {
        st.rank = c->a.qtype == QUANT_PER_TENSOR && (check_rand() & 1) ? 0 : 1;
        st.dims[0] = (int64_t)c->cells;
    }
    zt_ = st;
    st.dtype = QUANT_F32;
    st.data = sbuf;
    zt_.dtype = zt;
    zt_.data = zbuf;
    dt = c->src;
    dt.dtype = c->qdt;
    dt.data = dbuf;
    c->a.rounding = (quant_rounding)rounding;
    c->a.on_error = (quant_on_error)on_error;
    for (fused = 0; fused < 2; ++fused) {
        quant_status r;
        memset(sbuf, 0xA5, sb);
        memset(zbuf, 0xA5, zb);
        memset(dbuf, 0xA5, db);
        r = fused ? quant_choose_and_quantize(&c->src, &dt, (quant_scheme)c->scheme, &c->a, &st, with_zp ? &zt_ : NULL)
                  : quant_choose_qparams(&c->src, c->qdt, (quant_scheme)c->scheme, &c->a, &st, with_zp ? &zt_ : NULL);
        if (!ok && c->a.on_error == QUANT_ON_ERROR_PARTIAL) {
            CHECK(r == QUANT_ERR_SCALE_VALUE, "%s fused %d, partial: infinite range gives %d", what, fused, (int)r);
            for (i = 0; i < c->cells; ++i) {
                const float s = ((const float *)sbuf)[i];
                CHECK(check_bits_float(s) == 0xA5A5A5A5u || (good[i] && check_bits_float(s) == check_bits_float(os[i])),
                      "%s fused %d, partial: scale %zu is %.9g", what, fused, i, s);
            }
            continue;
        }
        if (!ok) {
            int untouched = 1;
            for (i = 0; i < sb; ++i) untouched &= sbuf[i] == 0xA5;
            for (i = 0; i < zb; ++i) untouched &= zbuf[i] == 0xA5;
            for (i = 0; i < db; ++i) untouched &= dbuf[i] == 0xA5;
            CHECK(r == QUANT_ERR_SCALE_VALUE && untouched, "%s fused %d: infinite range gives %d, outputs %s", what,
                  fused, (int)r, untouched ? "untouched" : "written");
            continue;
        }
        CHECK(r == QUANT_OK, "%s fused %d: status %d", what, fused, (int)r);
        if (r != QUANT_OK) continue;
        for (i = 0; i < c->cells; ++i) {
            const float s = ((const float *)sbuf)[i];
            CHECK(check_bits_float(s) == check_bits_float(os[i]), "%s fused %d: scale %zu is %.9g, oracle %.9g", what,
                  fused, i, s, os[i]);
            if (with_zp)
                CHECK(get_zp(zbuf, zt, i) == oz[i], "%s fused %d: zero point %zu is %lld, oracle %lld", what, fused, i,
                      (long long)get_zp(zbuf, zt, i), (long long)oz[i]);
        }
        if (!fused) continue;
        for (i = 0; i < c->n; ++i) {
            const size_t k = cell_of(c, i);
            const float x = get_float(c->src.data, c->src.dtype, i);
            const int64_t want = oracle_q(c, x, os[k], oz[k], om[k], rounding, c->a.f8_overflow == QUANT_F8_INF_NAN);
            const int64_t got = get_q(dbuf, c->qdt, i);
            CHECK(got == want, "%s: element %zu (x %.9g, entry %zu, s %.9g z %lld) is %lld, oracle %lld", what, i,
                  (double)x, k, os[k], (long long)oz[k], (long long)got, (long long)want);
        }
        if ((c->qdt == QUANT_S4 || c->qdt == QUANT_U4) && (c->n & 1))
            CHECK((dbuf[c->n / 2] >> 4) == 0, "%s: the last high nibble of an odd count is not 0", what);
        if ((c->qdt == QUANT_S2 || c->qdt == QUANT_U2) && (c->n & 3))
            CHECK((dbuf[c->n / 4] >> (2 * (c->n & 3))) == 0, "%s: the bits past the last 2-bit element are not 0", what);
    }
    free(os); free(om); free(oz); free(good); free(sbuf); free(zbuf); free(dbuf);
}

/* ---- data --------------------------------------------------------------- */

static float pick_value(int style)
{
    const uint32_t r = check_rand();
    switch (style) {
    case 0: return ((float)(r % 20001) - 10000.0f) / 997.0f;              /* mixed signs */
    case 1: return (float)(r % 10000) / 313.0f + 0.5f;                   /* positive only */
    case 2: return -(float)(r % 10000) / 71.0f - 0.25f;                  /* negative only */
    case 3: return r % 5 == 0 ? NAN : ((float)(r % 2001) - 1000.0f) / 7.0f; /* NaN sprinkled */
    case 4: return r % 2 ? 0.0f : -0.0f;                                 /* signed zeros */
    case 5: return r % 7 == 0 ? (r & 8 ? -0.0f : NAN) : 3.25f;           /* constant, with -0 and NaN */
    case 6: return check_float_bits(r & 0x807FFFFFu);                    /* subnormals */
    case 7: return check_float_bits((r & 0x80000000u) | (0x7E000000u + (r & 0xFFFFFFu))); /* huge: near 2^125 */
    default: {
        /* anything but Inf: every exponent */
        uint32_t u = r;
        if ((u & 0x7F800000u) == 0x7F800000u) u &= 0xFF7FFFFFu;
        return check_float_bits(u);
    }
    }
}

static uint16_t to_half(float x, quant_dtype t) { return t == QUANT_F16 ? o_f16_code(x) : o_bf16_code(x); }

static void fill(choice *c, int style)
{
    size_t i;
    for (i = 0; i < c->n; ++i) {
        const float x = pick_value(style);
        if (c->src.dtype == QUANT_F32) ((float *)c->src.data)[i] = x;
        else ((uint16_t *)c->src.data)[i] = to_half(x, c->src.dtype);
    }
}

static const quant_dtype qtypes[] = { QUANT_S8, QUANT_U8, QUANT_S4, QUANT_U4, QUANT_F8_E4M3, QUANT_F8_E5M2, QUANT_S2, QUANT_U2 };
static const quant_dtype ftypes[] = { QUANT_F32, QUANT_F16, QUANT_BF16 };

static void random_cases(int count)
{
    int t;
    for (t = 0; t < count; ++t) {
        choice c;
        char what[160];
        int d, rounding;
        quant_dtype zt;
        memset(&c, 0, sizeof c);
        c.a = quant_attrs_default();
        c.src.dtype = ftypes[check_rand() % 3];
        c.src.rank = 1 + (int)(check_rand() % 4);
        c.n = 1;
        for (d = 0; d < c.src.rank; ++d) {
            c.src.dims[d] = 1 + (int64_t)(check_rand() % (c.src.rank <= 2 ? 70 : 9));
            c.n *= (size_t)c.src.dims[d];
        }
        c.qdt = qtypes[check_rand() % 8];
        c.scheme = isf8(c.qdt) ? 1 : (int)(check_rand() % 3);
        c.a.qtype = (quant_qtype)(check_rand() % 3);
        c.a.axis = (int64_t)(check_rand() % (unsigned)c.src.rank) - (check_rand() & 1 ? c.src.rank : 0);
        if (c.a.qtype == QUANT_PER_GROUP)
            for (d = 0; d < c.src.rank; ++d) {
                const uint32_t r = check_rand() % 4;
                c.a.group_shape[d] = r == 0 ? 1 : r == 1 ? c.src.dims[d] : 1 + (int64_t)(check_rand() % 40);
            }
        c.a.f8_overflow = (quant_f8_overflow)(check_rand() & 1);
        rounding = (int)(check_rand() % 4);
        do zt = zp_types[check_rand() % 3]; while (!zp_fits(zt, c.qdt, c.scheme));
        c.src.data = alloc(nbytes(c.src.dtype, c.n));
        grid_of(&c);
        fill(&c, (int)(check_rand() % 9));
        snprintf(what, sizeof what, "case %d (%s -> %s, scheme %d, qtype %d, rank %d, n %zu, rounding %d)", t,
                 quant_dtype_name(c.src.dtype), quant_dtype_name(c.qdt), c.scheme, (int)c.a.qtype, c.src.rank, c.n,
                 rounding);
        run_case(&c, zt, rounding, check_rand() % 3 == 0, what); /* one in three: partial */
        free(c.src.data);
    }
}

/* ---- fixed cases ---------------------------------------------------------- */

/* ONNX's three DynamicQuantizeLinear cases (onnx/backend/test/case/node/
   dynamicquantizelinear.py): scale, zero point and y, with rounding onnx */
static void onnx_cases(void)
{
    static const float x1[6] = { 0, 2, -3, -2.5f, 1.34f, 0.5f };
    static const float x2[6] = { -1.0f, -2.1f, -1.3f, -2.5f, -3.34f, -4.0f };
    static const float x3[12] = { 1, 2.1f, 1.3f, 2.5f, 3.34f, 4.0f, 1.5f, 2.6f, 3.9f, 4.0f, 3.0f, 2.345f };
    static const uint8_t y1[6] = { 153, 255, 0, 26, 221, 179 };
    static const uint8_t y2[6] = { 191, 121, 172, 96, 42, 0 };
    static const uint8_t y3[12] = { 64, 134, 83, 159, 213, 255, 96, 166, 249, 255, 191, 149 };
    const float *xs[3] = { x1, x2, x3 };
    const uint8_t *ys[3] = { y1, y2, y3 };
    static const float want_s[3] = { 0.0196078438f, 0.0156862754f, 0.0156862754f };
    static const uint8_t want_z[3] = { 153, 255, 0 };
    int k;
    for (k = 0; k < 3; ++k) {
        const size_t n = k == 2 ? 12 : 6;
        float *x = alloc(4 * n), *s = alloc(4);
        uint8_t *y = alloc(n), *z = alloc(1);
        quant_tensor src = { QUANT_F32, 2, { k == 2 ? 3 : 1, k == 2 ? 4 : 6 }, x }, dst = src;
        quant_tensor st = { QUANT_F32, 0, { 0 }, s }, zt = { QUANT_U8, 0, { 0 }, z };
        quant_attrs a = quant_attrs_default();
        size_t i;
        a.rounding = QUANT_ROUND_ONNX;
        memcpy(x, xs[k], 4 * n);
        dst.dtype = QUANT_U8;
        dst.data = y;
        CHECK(quant_choose_and_quantize(&src, &dst, QUANT_ASYMMETRIC, &a, &st, &zt) == QUANT_OK, "onnx %d: status", k);
        CHECK(*s == want_s[k] && *z == want_z[k], "onnx %d: scale %.9g zp %d, want %.9g %d", k, *s, *z, want_s[k],
              want_z[k]);
        for (i = 0; i < n; ++i) CHECK(y[i] == ys[k][i], "onnx %d: y[%zu] = %d, want %d", k, i, y[i], ys[k][i]);
        *s = 0;
        *z = 0;
        CHECK(quant_choose_qparams(&src, QUANT_U8, QUANT_ASYMMETRIC, NULL, &st, &zt) == QUANT_OK && *s == want_s[k] &&
                  *z == want_z[k], "onnx %d: choose alone", k);
        free(x); free(s); free(y); free(z);
    }
}

/* one range through choose on a two-element tensor */
static int one(float lo, float hi, quant_dtype q, int scheme, float *s, int32_t *z)
{
    float x[2];
    quant_tensor src = { QUANT_F32, 1, { 2 }, x }, st = { QUANT_F32, 1, { 1 }, s }, zt = { QUANT_S32, 1, { 1 }, z };
    x[0] = lo;
    x[1] = hi;
    return (int)quant_choose_qparams(&src, q, (quant_scheme)scheme, NULL, &st, &zt);
}

static void edge_cases(void)
{
    float s;
    int32_t z;
    /* XNNPACK's nudged parameters, by hand: [-1, 3]: m = 255/4 = 63.75,
       s = 1/63.75; errors -191.75 and 318.25 sum above 0, so the zero
       point is -128 + 63.75 = -64.25 -> -64 (u8: 64) */
    CHECK(one(-1, 3, QUANT_S8, 2, &s, &z) == 0 && s == (float)(1.0 / 63.75) && z == -64, "nudged s8: %.9g %d", s, z);
    CHECK(one(-1, 3, QUANT_U8, 2, &s, &z) == 0 && s == (float)(1.0 / 63.75) && z == 64, "nudged u8: %.9g %d", s, z);
    /* [-3, 1]: errors -128 - 191.25 and 127 + 63.75 sum below 0: from
       the max end, 127 - 63.75 = 63.25 -> 63 */
    CHECK(one(-3, 1, QUANT_S8, 2, &s, &z) == 0 && z == 63, "nudged from the max end: %d", z);
    /* asymmetric: zero point ties go to even: [-0.5, 127] u8 gives
       s = 127.5/255 = 0.5 and -min0/s = 1 exactly; [-1.5 * s .. ] */
    CHECK(one(-0.5f, 127.0f, QUANT_U8, 0, &s, &z) == 0 && s == 0.5f && z == 1, "asym u8: %.9g %d", s, z);
    CHECK(one(-1.25f, 126.25f, QUANT_U8, 0, &s, &z) == 0 && s == 0.5f && z == 2, "asym tie 2.5 -> 2: %.9g %d", s, z);
    CHECK(one(-1.75f, 125.75f, QUANT_U8, 0, &s, &z) == 0 && s == 0.5f && z == 4, "asym tie 3.5 -> 4: %.9g %d", s, z);
    /* symmetric: max |x| over qmax */
    CHECK(one(-254, 3, QUANT_S8, 1, &s, &z) == 0 && s == 2.0f && z == 0, "sym s8: %.9g %d", s, z);
    CHECK(one(-7, 448, QUANT_F8_E4M3, 1, &s, &z) == 0 && s == 1.0f, "sym e4m3: %.9g", s);
    /* zero range: scale 1, zero point 0 */
    CHECK(one(0.0f, -0.0f, QUANT_U8, 0, &s, &z) == 0 && s == 1.0f && z == 0, "zero range asym");
    /* nudged keeps XNNPACK's bits here too: its errors -128 and 127 sum
       below 0, so the zero point comes from the max end, 127 (u8 255) */
    CHECK(one(NAN, NAN, QUANT_S8, 2, &s, &z) == 0 && s == 1.0f && z == 127, "all NaN nudged: %.9g %d", s, z);
    CHECK(one(0.0f, 0.0f, QUANT_U8, 2, &s, &z) == 0 && s == 1.0f && z == 255, "all 0 nudged u8: %.9g %d", s, z);
    CHECK(one(-0.0f, NAN, QUANT_S4, 1, &s, &z) == 0 && s == 1.0f && z == 0, "zero range sym");
    /* a range below 2^-126 per step: the scale is 2^-126 */
    CHECK(one(0, 1e-37f, QUANT_U8, 0, &s, &z) == 0 && s == 1.17549435e-38f && z == 0, "scale floor: %.9g", s);
    CHECK(one(-1e-40f, 1e-40f, QUANT_S8, 2, &s, &z) == 0 && s == 1.17549435e-38f, "scale floor nudged: %.9g", s);
    /* subnormal bounds, vectors of them: 32-bit NEON's compares would take
       them as zero (found by a review session); the range 0.75 * 2^-126
       floors the scale to 2^-126 and puts the zero point at rne(0.75) */
    {
        float x[32], sv;
        int32_t zv;
        quant_tensor src = { QUANT_F32, 1, { 32 }, x }, st = { QUANT_F32, 0, { 0 }, &sv }, zt = { QUANT_S32, 0, { 0 }, &zv };
        int i;
        for (i = 0; i < 32; ++i) x[i] = i < 16 ? -(float)ldexp(1.0, -128) : -0.75f * (float)ldexp(1.0, -126);
        CHECK(quant_choose_qparams(&src, QUANT_U8, QUANT_ASYMMETRIC, NULL, &st, &zt) == 0 &&
                  sv == (float)ldexp(1.0, -126) && zv == 1, "subnormal bounds: %.9g %d", sv, zv);
        for (i = 0; i < 32; ++i) x[i] = i < 16 ? (float)ldexp(1.0, -128) : (float)ldexp(1.0, -127);
        x[31] = (float)ldexp(1.0, -118);
        x[30] = -(float)ldexp(1.0, -127);
        CHECK(quant_choose_qparams(&src, QUANT_U8, QUANT_ASYMMETRIC, NULL, &st, &zt) == 0 &&
                  sv == o_div(o_add((float)ldexp(1.0, -118), (float)ldexp(1.0, -127)), 255.0f),
              "subnormal low bound: %a", sv);
    }
    /* infinite ranges and elements are errors, nothing written */
    s = 5.0f;
    z = 7;
    CHECK(one(-3e38f, 3e38f, QUANT_S8, 0, &s, &z) == QUANT_ERR_SCALE_VALUE && s == 5.0f && z == 7, "range overflow");
    CHECK(one(-3e38f, 3e38f, QUANT_S8, 2, &s, &z) == QUANT_ERR_SCALE_VALUE && s == 5.0f, "range overflow nudged");
    CHECK(one(-3e38f, 3e38f, QUANT_S8, 1, &s, &z) == 0 && s == o_div(3e38f, 127.0f), "symmetric: no range to overflow");
    CHECK(one(-1.7e38f, 1.7e38f, QUANT_S8, 0, &s, &z) == 0 && s == o_div(3.4e38f, 255.0f), "largest finite range");
    CHECK(one(1.0f, INFINITY, QUANT_S8, 1, &s, &z) == QUANT_ERR_SCALE_VALUE, "Inf element, symmetric");
    CHECK(one(-INFINITY, 1.0f, QUANT_U8, 0, &s, &z) == QUANT_ERR_SCALE_VALUE, "-Inf element");
}

/* Many grid entries (more than one batch) and a bad range in the last
   one: nothing written, fused or not (unless on_error is partial); then
   the same without it. Rows of 100 and groups of 3 rows (the last one
   short) take the fused op's row at a time path. */
static void batch_cases(void)
{
    const size_t rows = 700;
    size_t k;
    int fused, bad;
    for (k = 37; k <= 100; k += 63)
    for (bad = 0; bad < 3; ++bad)
        for (fused = 0; fused < 2; ++fused) {
            choice c;
            char what[96];
            size_t i;
            memset(&c, 0, sizeof c);
            c.a = quant_attrs_default();
            c.a.qtype = QUANT_PER_CHANNEL;
            c.a.axis = 0;
            c.src.dtype = QUANT_F32;
            c.src.rank = 2;
            c.src.dims[0] = (int64_t)rows;
            c.src.dims[1] = (int64_t)k;
            c.n = rows * k;
            c.qdt = k == 100 && bad == 0 ? QUANT_U8 : QUANT_S8;
            c.scheme = fused ? 2 : 0;
            c.src.data = alloc(4 * c.n);
            grid_of(&c);
            fill(&c, 0);
            /* bad 1: an Inf in the last row; bad 2: a huge pair that overflows */
            if (bad == 1) ((float *)c.src.data)[c.n - 3] = INFINITY;
            if (bad == 2) { ((float *)c.src.data)[c.n - 1] = 3e38f; ((float *)c.src.data)[c.n - 2] = -3e38f; }
            /* bad 0 with one huge element that leaves the range finite */
            if (bad == 0) ((float *)c.src.data)[5] = 1.6e38f;
            snprintf(what, sizeof what, "%zu rows of %zu, bad %d, fused %d", rows, k, bad, fused);
            run_case(&c, QUANT_S32, QUANT_ROUND_TORCH, 0, what);
            run_case(&c, QUANT_S32, QUANT_ROUND_TORCH, 1, what);
            for (i = 0; i < 3; ++i) {
                c.a.qtype = QUANT_PER_GROUP;
                c.a.group_shape[0] = i == 2 ? 3 : 1;
                c.a.group_shape[1] = i == 1 ? 8 : (int64_t)k;
                grid_of(&c);
                run_case(&c, QUANT_S32, QUANT_ROUND_EXACT, (int)(i & 1), what);
                if (i == 2) run_case(&c, QUANT_S32, QUANT_ROUND_ONEDNN, 1, what);
            }
            free(c.src.data);
        }
}

/* The range kernel reads one vector where src starts, then from the next
   64-byte boundary on. Here the least and the greatest element sit at
   many pairs of positions among the first 40, at every element offset
   of src from a boundary (fused: the quantize kernel's own first vector,
   and its last one, which overlaps the one before, too). */
static void head_cases(void)
{
    const size_t n = 203;
    int t;
    for (t = 0; t < 3; ++t) {
        const quant_dtype ft = ftypes[t];
        const size_t es = ft == QUANT_F32 ? 4 : 2;
        unsigned char *buf = malloc(n * es + 64 + 63), *base = buf + (64 - (size_t)((uintptr_t)buf & 63));
        size_t off, lo, hi, i;
        for (off = 0; off < 64 / es; ++off)
            for (lo = 0; lo < 40; lo += 1 + (off & 1))
                for (hi = 0; hi < 40; hi += 3) {
                    choice c;
                    char what[96];
                    if (hi == lo) continue;
                    memset(&c, 0, sizeof c);
                    c.a = quant_attrs_default();
                    c.src.dtype = ft;
                    c.src.rank = 1;
                    c.src.dims[0] = (int64_t)n;
                    c.n = n;
                    c.src.data = base + off * es;
                    c.qdt = (lo + hi) & 1 ? QUANT_U8 : QUANT_S8;
                    c.scheme = (int)((lo + off) % 3);
                    for (i = 0; i < n; ++i) {
                        const float x = i == lo ? -9.5f : i == hi ? 13.25f : (float)(i % 17) - 8.0f;
                        if (ft == QUANT_F32) ((float *)c.src.data)[i] = x;
                        else ((uint16_t *)c.src.data)[i] = to_half(x, ft);
                    }
                    grid_of(&c);
                    snprintf(what, sizeof what, "%s head: offset %zu, min at %zu, max at %zu", quant_dtype_name(ft), off,
                             lo, hi);
                    run_case(&c, QUANT_S32, (int)(hi % 4), 0, what);
                }
        free(buf);
    }
}

/* ---- validation: a status, nothing written ------------------------------ */

static void validation(void)
{
    float x[6] = { 1, 2, 3, 4, 5, 6 }, s[3] = { 9, 9, 9 };
    int32_t z[3] = { 9, 9, 9 };
    uint8_t y[6] = { 9, 9, 9, 9, 9, 9 };
    quant_tensor src = { QUANT_F32, 2, { 2, 3 }, x }, st = { QUANT_F32, 1, { 1 }, s }, zt = { QUANT_S32, 1, { 1 }, z };
    quant_tensor dst = { QUANT_S8, 2, { 2, 3 }, y }, bad;
    quant_attrs a = quant_attrs_default();
    CHECK(quant_choose_qparams(NULL, QUANT_S8, QUANT_ASYMMETRIC, NULL, &st, &zt) == QUANT_ERR_NULL, "NULL src");
    CHECK(quant_choose_qparams(&src, QUANT_S8, QUANT_ASYMMETRIC, NULL, NULL, &zt) == QUANT_ERR_NULL, "NULL scales");
    CHECK(quant_choose_qparams(&src, QUANT_S8, QUANT_ASYMMETRIC, NULL, &st, NULL) == QUANT_ERR_NULL, "asym, no zps");
    CHECK(quant_choose_and_quantize(&src, NULL, QUANT_SYMMETRIC, NULL, &st, NULL) == QUANT_ERR_NULL, "NULL dst");
    CHECK(quant_choose_qparams(&src, QUANT_S8, (quant_scheme)6, NULL, &st, &zt) == QUANT_ERR_ATTR, "scheme 6");
    CHECK(quant_choose_qparams(&src, QUANT_S8, QUANT_MX, NULL, &st, &zt) == QUANT_ERR_ZPS, "MX with zero points");
    CHECK(quant_choose_qparams(&src, QUANT_F8_E4M3, QUANT_ASYMMETRIC, NULL, &st, &zt) == QUANT_ERR_DTYPE, "asym f8");
    CHECK(quant_choose_qparams(&src, QUANT_S32, QUANT_SYMMETRIC, NULL, &st, NULL) == QUANT_ERR_DTYPE, "s32");
    CHECK(quant_choose_qparams(&src, QUANT_F32, QUANT_SYMMETRIC, NULL, &st, NULL) == QUANT_ERR_DTYPE, "f32");
    bad = st; bad.dtype = QUANT_F16;
    CHECK(quant_choose_qparams(&src, QUANT_S8, QUANT_SYMMETRIC, NULL, &bad, NULL) == QUANT_ERR_SCALES, "f16 scales");
    bad = st; bad.dims[0] = 2;
    CHECK(quant_choose_qparams(&src, QUANT_S8, QUANT_SYMMETRIC, NULL, &bad, NULL) == QUANT_ERR_SCALES, "2 scales");
    a.qtype = QUANT_PER_CHANNEL; /* axis 1: 3 channels */
    CHECK(quant_choose_qparams(&src, QUANT_S8, QUANT_SYMMETRIC, &a, &st, NULL) == QUANT_ERR_SCALES, "per channel, 1");
    a.axis = 2;
    CHECK(quant_choose_qparams(&src, QUANT_S8, QUANT_SYMMETRIC, &a, &st, NULL) == QUANT_ERR_AXIS, "axis 2");
    a = quant_attrs_default();
    bad = zt; bad.dtype = QUANT_U8;
    CHECK(quant_choose_qparams(&src, QUANT_S8, QUANT_ASYMMETRIC, NULL, &st, &bad) == QUANT_ERR_ZPS, "u8 zp for s8");
    bad.dtype = QUANT_S8;
    CHECK(quant_choose_qparams(&src, QUANT_U8, QUANT_ASYMMETRIC_NUDGED, NULL, &st, &bad) == QUANT_ERR_ZPS, "s8 zp for u8");
    bad.dtype = QUANT_S4;
    CHECK(quant_choose_qparams(&src, QUANT_S4, QUANT_ASYMMETRIC, NULL, &st, &bad) == QUANT_ERR_ZPS, "s4 zps");
    bad = zt; bad.dims[0] = 2;
    CHECK(quant_choose_qparams(&src, QUANT_S8, QUANT_ASYMMETRIC, NULL, &st, &bad) == QUANT_ERR_ZPS, "2 zero points");
    bad = zt; bad.data = NULL;
    CHECK(quant_choose_qparams(&src, QUANT_S8, QUANT_ASYMMETRIC, NULL, &st, &bad) == QUANT_ERR_NULL, "NULL zps data");
    bad = st; bad.data = (char *)s + 1;
    CHECK(quant_choose_qparams(&src, QUANT_S8, QUANT_SYMMETRIC, NULL, &bad, NULL) == QUANT_ERR_ALIGN, "misaligned");
    bad = st; bad.data = x + 2;
    CHECK(quant_choose_qparams(&src, QUANT_S8, QUANT_SYMMETRIC, NULL, &bad, NULL) == QUANT_ERR_OVERLAP, "scales in src");
    bad = zt; bad.data = s;
    CHECK(quant_choose_qparams(&src, QUANT_S8, QUANT_ASYMMETRIC, NULL, &st, &bad) == QUANT_ERR_OVERLAP, "zps on scales");
    bad = dst; bad.data = z;
    CHECK(quant_choose_and_quantize(&src, &bad, QUANT_ASYMMETRIC, NULL, &st, &zt) == QUANT_ERR_OVERLAP, "dst on zps");
    bad = dst; bad.dims[1] = 2;
    CHECK(quant_choose_and_quantize(&src, &bad, QUANT_ASYMMETRIC, NULL, &st, &zt) == QUANT_ERR_SHAPE, "dst shape");
    bad = dst; bad.dtype = QUANT_F32;
    CHECK(quant_choose_and_quantize(&src, &bad, QUANT_SYMMETRIC, NULL, &st, NULL) == QUANT_ERR_DTYPE, "dst f32");
    a.rounding = (quant_rounding)9;
    CHECK(quant_choose_and_quantize(&src, &dst, QUANT_SYMMETRIC, &a, &st, NULL) == QUANT_ERR_ATTR, "rounding 9");
    a = quant_attrs_default();
    a.on_error = (quant_on_error)2;
    CHECK(quant_choose_and_quantize(&src, &dst, QUANT_SYMMETRIC, &a, &st, NULL) == QUANT_ERR_ATTR, "on_error 2");
    CHECK(quant_choose_qparams(&src, QUANT_S8, QUANT_SYMMETRIC, &a, &st, NULL) == QUANT_ERR_ATTR, "on_error 2, choose");
    a.on_error = QUANT_ON_ERROR_PARTIAL;
    bad = dst; bad.dims[1] = 2; /* argument errors write nothing under partial too */
    CHECK(quant_choose_and_quantize(&src, &bad, QUANT_ASYMMETRIC, &a, &st, &zt) == QUANT_ERR_SHAPE, "partial, dst shape");
    bad = dst; bad.data = z;
    CHECK(quant_choose_and_quantize(&src, &bad, QUANT_ASYMMETRIC, &a, &st, &zt) == QUANT_ERR_OVERLAP, "partial, overlap");
    CHECK(s[0] == 9 && z[0] == 9 && y[0] == 9 && y[5] == 9, "a failed call wrote something");
    /* an empty tensor: valid, NULL data fine, nothing written */
    {
        quant_tensor e = { QUANT_F32, 2, { 0, 3 }, NULL }, ed = { QUANT_S8, 2, { 0, 3 }, NULL };
        CHECK(quant_choose_qparams(&e, QUANT_S8, QUANT_ASYMMETRIC, NULL, &st, &zt) == QUANT_OK && s[0] == 9 && z[0] == 9,
              "empty per tensor");
        CHECK(quant_choose_and_quantize(&e, &ed, QUANT_SYMMETRIC, NULL, &st, NULL) == QUANT_OK && s[0] == 9, "empty fused");
    }
}

int main(int argc, char **argv)
{
    const int count = argc > 1 ? atoi(argv[1]) : 10000;
    check_cpu();
    onnx_cases();
    edge_cases();
    validation();
    batch_cases();
    head_cases();
    random_cases(count);
    printf("%ld cases against the oracle (%s)\n", cases_run, quant_backend());
    return check_done("test_choose");
}
