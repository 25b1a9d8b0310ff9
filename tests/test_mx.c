/* test_mx.c - SPEC section 7.1 so far, against the oracle: f4_e2m1 tensors
   (quantize from f32/f16/bf16 with every rounding, dequantize to each),
   e8m0 and f8_e4m3 scales tensors (every code decoded), attrs.tensor_scale
   folded into every scale, per tensor, per channel and per group, static
   and dynamic; the bad input of these types, outputs untouched. Every
   buffer is its own allocation of exactly its size.

     test_mx              the cases above
     test_mx all K N      shard K of N of every f32 bit pattern through the
                          f4 encoder (the slow suite) */
#include "../quant.h"
#include "check.h"
#include "oracle.h"
#include "bytes.h"

static size_t f4_bytes(size_t n) { return nbytes(QUANT_S4, n); } /* packed as s4 */
static unsigned nib(const uint8_t *b, size_t i) { return b[i / 2] >> (4 * (i % 2)) & 15u; }

static quant_tensor tensor(quant_dtype t, int rank, const int64_t *dims, void *data)
{
    quant_tensor x;
    memset(&x, 0, sizeof x);
    x.dtype = t;
    x.rank = rank;
    x.data = data;
    if (rank) memcpy(x.dims, dims, (size_t)rank * sizeof *dims);
    return x;
}

static float get_float(const void *p, quant_dtype t, size_t i)
{
    if (t == QUANT_F16) return o_f16_value(((const uint16_t *)p)[i]);
    if (t == QUANT_BF16) return o_bf16_value(((const uint16_t *)p)[i]);
    return ((const float *)p)[i];
}
static void put_float(void *p, quant_dtype t, size_t i, float v)
{
    if (t == QUANT_F16) ((uint16_t *)p)[i] = o_f16_code(v);
    else if (t == QUANT_BF16) ((uint16_t *)p)[i] = o_bf16_code(v);
    else ((float *)p)[i] = v;
}

/* a source value near the e2m1 grid of scale s: every midpoint and code
   value in both signs, one ulp either side, or anything */
static float mx_input(float s)
{
    static const float grid[] = { 0.0f, 0.25f, 0.5f, 0.75f, 1.0f, 1.25f, 1.5f, 1.75f, 2.0f, 2.5f, 3.0f, 3.5f, 4.0f, 5.0f, 6.0f, 7.0f };
    const uint32_t r = check_rand();
    float v = grid[r % 16] * s;
    switch (r / 16 % 8) {
    case 0: v = nextafterf(v, INFINITY); break;
    case 1: v = nextafterf(v, -INFINITY); break;
    case 2: { static const uint32_t e[] = { 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00000u, 0x00000001u,
                                            0x7F7FFFFFu, 0x00800000u };
              return o_from_bits(e[check_rand() % 8]); }
    case 3: return o_from_bits(check_rand());
    default: break;
    }
    return r & 0x80000000u ? -v : v;
}

/* an f32 scale that e8m0 or f8_e4m3 holds exactly (and f32 itself can) */
static float mx_scale(quant_dtype st, uint8_t *code)
{
    if (st == QUANT_E8M0) {
        *code = (uint8_t)(100 + check_rand() % 50); /* 2^-27 .. 2^22 */
        return o_e8m0_value(*code);
    }
    if (st == QUANT_F8_E4M3) {
        *code = (uint8_t)(1 + check_rand() % 0x7E); /* positive, not NaN */
        return o_f8_decode(*code, 0);
    }
    *code = 0;
    return (float)ldexp(1.0 + (double)(check_rand() % 64) / 64.0, (int)(check_rand() % 20) - 10);
}

/* One random op on [rows, cols] against the oracle: f4_e2m1 on one side,
   f32/f16/bf16 on the other, scales per tensor, per row or per group of g
   along the last dim, given as a list (f32) or a tensor (f32, e8m0,
   f8_e4m3), with or without a tensor_scale. */
static void one_case(int k)
{
    static const quant_dtype floats[] = { QUANT_F32, QUANT_F16, QUANT_BF16 };
    static const quant_dtype stypes[] = { QUANT_F32, QUANT_E8M0, QUANT_F8_E4M3 };
    const int quantize = (int)(check_rand() % 2), dynamic = (int)(check_rand() % 2);
    const quant_dtype ft = floats[check_rand() % 3], st = dynamic ? stypes[check_rand() % 3] : QUANT_F32;
    const int64_t rows = 1 + (int64_t)(check_rand() % 5), cols = 1 + (int64_t)(check_rand() % 100);
    const int qtype = (int)(check_rand() % 3);
    const int64_t g = qtype == 2 ? (int64_t)(1 + check_rand() % 40) : 1;
    const int64_t gcols = qtype == 2 ? (cols + g - 1) / g : 1;
    const size_t n = (size_t)(rows * cols), ns = qtype == 0 ? 1 : qtype == 1 ? (size_t)rows : (size_t)(rows * gcols);
    const int rnd = (int)(check_rand() % 4);
    const float tscale = check_rand() % 3 == 0 ? (float)ldexp(1.0 + (double)(check_rand() % 8) / 8.0, (int)(check_rand() % 9) - 4) : 0.0f;
    const int64_t dims[2] = { rows, cols }, sdims[1] = { (int64_t)ns };
    float *scf = (float *)alloc(ns * 4);
    void *sc = alloc(ns * (st == QUANT_F32 ? 4 : 1));
    void *fbuf = alloc(n * (ft == QUANT_F32 ? 4 : 2));
    uint8_t *q = (uint8_t *)alloc(f4_bytes(n));
    quant_tensor tf = tensor(ft, 2, dims, fbuf), tq = tensor(QUANT_F4_E2M1, 2, dims, q), ts;
    quant_attrs a = quant_attrs_default();
    quant_status status;
    size_t i;
    for (i = 0; i < ns; ++i) {
        uint8_t code;
        const float s = mx_scale(st, &code);
        if (st == QUANT_F32) ((float *)sc)[i] = s;
        else ((uint8_t *)sc)[i] = code;
        /* the scale the op reads: folded with the tensor scale */
        scf[i] = tscale != 0.0f ? o_mul(s, tscale) : s;
    }
    a.rounding = (quant_rounding)rnd;
    a.tensor_scale = tscale;
    if (qtype == 1) { a.qtype = QUANT_PER_CHANNEL; a.axis = 0; }
    if (qtype == 2) { a.qtype = QUANT_PER_GROUP; a.group_shape[0] = 1; a.group_shape[1] = g; }
    ts = tensor(st, 1, sdims, sc);
    if (qtype == 2) { ts.rank = 2; ts.dims[0] = rows; ts.dims[1] = gcols; }
    if (!dynamic) { a.scales = (const float *)sc; a.n_scales = ns; }
    if (quantize) {
        for (i = 0; i < n; ++i) {
            const size_t e = qtype == 0 ? 0 : qtype == 1 ? i / (size_t)cols : i / (size_t)cols * (size_t)gcols + i % (size_t)cols / (size_t)g;
            put_float(fbuf, ft, i, mx_input(scf[e]));
        }
        memset(q, 0xA5, f4_bytes(n));
        status = dynamic ? quant_dynamic_quantize(&tf, &ts, NULL, &tq, &a) : quant_quantize(&tf, &tq, &a);
    } else {
        for (i = 0; i < f4_bytes(n); ++i) q[i] = (uint8_t)check_rand();
        memset(fbuf, 0xA5, n * (ft == QUANT_F32 ? 4 : 2));
        status = dynamic ? quant_dynamic_dequantize(&tq, &ts, NULL, &tf, &a) : quant_dequantize(&tq, &tf, &a);
    }
    CHECK(status == QUANT_OK, "case %d: %s", k, quant_status_str(status));
    for (i = 0; i < n && status == QUANT_OK; ++i) {
        const size_t e = qtype == 0 ? 0 : qtype == 1 ? i / (size_t)cols : i / (size_t)cols * (size_t)gcols + i % (size_t)cols / (size_t)g;
        if (quantize) {
            const float x = get_float(fbuf, ft, i);
            const unsigned want = o_quant_f4(x, scf[e], rnd), got = nib(q, i);
            CHECK(got == want, "case %d: %s -> f4 rounding %d [%zu] x=%a s=%a: got 0x%x want 0x%x", k, quant_dtype_name(ft), rnd,
                  i, (double)x, (double)scf[e], got, want);
        } else {
            const float y = o_dequant_f4((uint8_t)nib(q, i), scf[e]);
            uint32_t want, got;
            if (ft == QUANT_F32) { want = check_bits_float(y); got = check_bits_float(((float *)fbuf)[i]); }
            else {
                want = ft == QUANT_F16 ? o_f16_code(y) : rnd == QUANT_ROUND_ONEDNN ? o_bf16_code_onednn(y) : o_bf16_code(y);
                got = ((uint16_t *)fbuf)[i];
            }
            CHECK(got == want, "case %d: f4 -> %s [%zu] code 0x%x s=%a: got 0x%x want 0x%x", k, quant_dtype_name(ft), i,
                  nib(q, i), (double)scf[e], got, want);
        }
    }
    if (quantize && status == QUANT_OK && n % 2) CHECK(q[n / 2] >> 4 == 0, "case %d: odd count's last high nibble", k);
    free(scf); free(sc); free(fbuf); free(q);
}

/* every e8m0 and every f8_e4m3 code as a scale: a code-1.0 (0x2) f4 element
   dequantizes to the scale itself; the codes that are no scale refused */
static void every_scale_code(void)
{
    const int64_t one[1] = { 1 };
    uint8_t q = 0x2, code;
    float y;
    quant_tensor tq = tensor(QUANT_F4_E2M1, 1, one, &q), ty = tensor(QUANT_F32, 1, one, &y), ts = tensor(QUANT_E8M0, 1, one, &code);
    unsigned c;
    for (c = 0; c < 256; ++c) {
        quant_status st;
        code = (uint8_t)c;
        ts.dtype = QUANT_E8M0;
        y = 12345.0f;
        st = quant_dynamic_dequantize(&tq, &ts, NULL, &ty, NULL);
        if (c == 0xFF) CHECK(st == QUANT_ERR_SCALE_VALUE && y == 12345.0f, "e8m0 0xFF: %s", quant_status_str(st));
        else /* 0 (2^-127) included: the one subnormal scale */
            CHECK(st == QUANT_OK && check_bits_float(y) == check_bits_float(o_e8m0_value((uint8_t)c)), "e8m0 0x%02x: %s, %a",
                  c, quant_status_str(st), (double)y);
        ts.dtype = QUANT_F8_E4M3;
        y = 12345.0f;
        st = quant_dynamic_dequantize(&tq, &ts, NULL, &ty, NULL);
        {
            const float v = o_f8_decode((uint8_t)c, 0);
            if (isnan(v) || v <= 0.0f) /* 0, -0, negative, NaN: no scale */
                CHECK(st == QUANT_ERR_SCALE_VALUE && y == 12345.0f, "e4m3 scale 0x%02x: %s", c, quant_status_str(st));
            else CHECK(st == QUANT_OK && check_bits_float(y) == check_bits_float(v), "e4m3 scale 0x%02x: %a want %a", c,
                       (double)y, (double)v);
        }
    }
    /* every f4 code decoded, and scaled */
    for (c = 0; c < 16; ++c) {
        float s = 0.375f;
        quant_attrs a = quant_attrs_default();
        q = (uint8_t)c;
        a.scales = &s;
        a.n_scales = 1;
        CHECK(quant_dequantize(&tq, &ty, &a) == QUANT_OK && check_bits_float(y) == check_bits_float(o_dequant_f4((uint8_t)c, s)),
              "f4 code 0x%x: %a", c, (double)y);
    }
}

/* bad input of these types: its status, the output untouched */
static void validation(void)
{
    const int64_t four[1] = { 4 }, one[1] = { 1 };
    float x[4] = { 1.0f, -2.0f, 0.5f, 6.0f }, s = 1.0f;
    int64_t zp = 1, zp0 = 0;
    uint8_t q[2] = { 0x5A, 0x5A }, code = 0x7F;
    quant_tensor tx = tensor(QUANT_F32, 1, four, x), tq = tensor(QUANT_F4_E2M1, 1, four, q);
    quant_tensor ts = tensor(QUANT_E8M0, 1, one, &code);
    quant_attrs a = quant_attrs_default();
    static const uint32_t bad_t[] = { 0x7FC00000u, 0x7F800000u, 0xFF800000u, 0xBF800000u, 0x00400000u, 0x80000001u };
    size_t i;
#define UNTOUCHED (q[0] == 0x5A && q[1] == 0x5A)
    a.scales = &s;
    a.n_scales = 1;
    /* 1, -2, 0.5, 6: codes 0x2, 0xC, 0x1, 0x7 */
    CHECK(quant_quantize(&tx, &tq, &a) == QUANT_OK && q[0] == 0xC2 && q[1] == 0x71, "f4 quantize: 0x%02x 0x%02x", q[0], q[1]);
    q[0] = q[1] = 0x5A;
    a.zps = &zp; a.n_zps = 1;
    CHECK(quant_quantize(&tx, &tq, &a) == QUANT_ERR_ZPS && UNTOUCHED, "f4 with a zero point");
    a.zps = &zp0;
    CHECK(quant_quantize(&tx, &tq, &a) == QUANT_OK, "f4 with a zero point of 0");
    q[0] = q[1] = 0x5A;
    a.zps = NULL; a.n_zps = 0;
    for (i = 0; i < sizeof bad_t / sizeof bad_t[0]; ++i) {
        a.tensor_scale = o_from_bits(bad_t[i]);
        CHECK(quant_quantize(&tx, &tq, &a) == QUANT_ERR_SCALE_VALUE && UNTOUCHED, "tensor_scale %a", (double)a.tensor_scale);
    }
    a.tensor_scale = -0.0f; /* none */
    CHECK(quant_quantize(&tx, &tq, &a) == QUANT_OK, "tensor_scale -0");
    q[0] = q[1] = 0x5A;
    s = 0x1p100f;
    a.tensor_scale = 0x1p100f; /* folded: infinite */
    CHECK(quant_quantize(&tx, &tq, &a) == QUANT_ERR_SCALE_VALUE && UNTOUCHED, "folded scale overflows");
    s = 0x1p-100f;
    a.tensor_scale = 0x1p-100f; /* folded: 0 */
    CHECK(quant_quantize(&tx, &tq, &a) == QUANT_ERR_SCALE_VALUE && UNTOUCHED, "folded scale underflows");
    a.tensor_scale = 0.0f;
    s = 1.0f;
    /* scales tensors: e8m0 NaN, e4m3 zero and negative */
    CHECK(quant_dynamic_quantize(&tx, &ts, NULL, &tq, NULL) == QUANT_OK, "e8m0 scale 0x7F");
    q[0] = q[1] = 0x5A;
    code = 0xFF;
    CHECK(quant_dynamic_quantize(&tx, &ts, NULL, &tq, NULL) == QUANT_ERR_SCALE_VALUE && UNTOUCHED, "e8m0 NaN scale");
    ts.dtype = QUANT_F8_E4M3;
    code = 0x00;
    CHECK(quant_dynamic_quantize(&tx, &ts, NULL, &tq, NULL) == QUANT_ERR_SCALE_VALUE && UNTOUCHED, "e4m3 scale 0");
    code = 0xB8; /* -1 */
    CHECK(quant_dynamic_quantize(&tx, &ts, NULL, &tq, NULL) == QUANT_ERR_SCALE_VALUE && UNTOUCHED, "e4m3 scale -1");
    /* e8m0 scales for an s8 tensor too */
    {
        int8_t q8[4] = { 0 };
        quant_tensor t8 = tensor(QUANT_S8, 1, four, q8);
        ts.dtype = QUANT_E8M0;
        code = 126; /* 0.5 */
        CHECK(quant_dynamic_quantize(&tx, &ts, NULL, &t8, NULL) == QUANT_OK && q8[0] == 2 && q8[1] == -4 && q8[3] == 12,
              "s8 with an e8m0 scale");
    }
    /* f4 is no choose type, e8m0 no data type */
    {
        float cs;
        quant_tensor tcs = tensor(QUANT_F32, 1, one, &cs), te = tensor(QUANT_E8M0, 1, four, q);
        CHECK(quant_choose_qparams(&tx, QUANT_F4_E2M1, QUANT_SYMMETRIC, NULL, &tcs, NULL) == QUANT_ERR_DTYPE, "choose f4");
        CHECK(quant_quantize(&tx, &te, &a) == QUANT_ERR_DTYPE && UNTOUCHED, "quantize to e8m0");
    }
    /* names */
    {
        static const char *const names[] = { "f4_e2m1", "e8m0", "s2", "u2", "s16" };
        quant_dtype t;
        for (i = 0; i < 5; ++i) {
            CHECK(strcmp(quant_dtype_name((quant_dtype)(QUANT_F4_E2M1 + (int)i)), names[i]) == 0, "name %zu", i);
            CHECK(quant_dtype_from_name(names[i], &t) == QUANT_OK && t == (quant_dtype)(QUANT_F4_E2M1 + (int)i), "from %s", names[i]);
        }
    }
#undef UNTOUCHED
}

/* an element for the choose pair: magnitudes around 2^e, now and then a
   power of two, one ulp below one, zero, a subnormal or NaN */
static float choose_input(int e)
{
    const uint32_t r = check_rand();
    float v = (float)ldexp(1.0 + (double)(r % 1000) / 1000.0, e - (int)(r / 1000 % 6));
    switch (r / 6000 % 16) {
    case 0: v = (float)ldexp(1.0, e); break;
    case 1: v = nextafterf((float)ldexp(1.0, e), 0.0f); break;
    case 2: v = 0.0f; break;
    case 3: v = o_from_bits(1u + check_rand() % 0x7FFFFFu); break;
    case 4: v = NAN; break;
    default: break;
    }
    return check_rand() % 2 ? -v : v;
}

/* The block-scale schemes against the oracle: scales (written as e8m0,
   f8_e4m3 or f32) and the fused quantize, per group along the last dim,
   per row or per tensor, from f32, f16 and bf16, every rounding */
static void choose_case(int k)
{
    static const quant_dtype floats[] = { QUANT_F32, QUANT_F16, QUANT_BF16 };
    static const quant_dtype mxt[] = { QUANT_F8_E4M3, QUANT_F8_E5M2, QUANT_F4_E2M1, QUANT_S8 };
    /* one case in four: MX or MX_RCEIL to f8 or f4 from f32 in whole groups of a multiple of 16 along the rows (the fused kernel's case) */
    const int fast = k % 4 == 0;
    const int64_t gf = 16 * (1 + (int64_t)(check_rand() % 4));
    const quant_scheme scheme = (quant_scheme)(QUANT_MX + (int)(check_rand() % (fast ? 2 : 3)));
    const int type = fast ? (int)(check_rand() % 3) : scheme == QUANT_NVFP4 ? 2 : (int)(check_rand() % 4), fuse = (int)(check_rand() % 4 != 0);
    const quant_dtype ft = fast ? QUANT_F32 : floats[check_rand() % 3], qt = mxt[type];
    const quant_dtype sdt = check_rand() % 3 == 0 ? QUANT_F32 : scheme == QUANT_NVFP4 ? QUANT_F8_E4M3 : QUANT_E8M0;
    const int64_t rows = 1 + (int64_t)(check_rand() % 4), cols = fast ? gf * (1 + (int64_t)(check_rand() % 4)) : 1 + (int64_t)(check_rand() % 130);
    const int qtype = fast ? 3 : (int)(check_rand() % 4); /* 0 tensor, 1 row, 2 and 3 group */
    const int64_t g = fast ? gf : qtype == 3 ? (scheme == QUANT_NVFP4 ? 16 : 32) : qtype == 2 ? 1 + (int64_t)(check_rand() % 40) : cols;
    const int64_t gcols = qtype >= 2 ? (cols + g - 1) / g : 1;
    const size_t n = (size_t)(rows * cols), ns = qtype == 0 ? 1 : qtype == 1 ? (size_t)rows : (size_t)(rows * gcols);
    const int rnd = (int)(check_rand() % 4), ov = (int)(check_rand() % 2);
    const float tscale = scheme == QUANT_NVFP4 && check_rand() % 2 ? (float)ldexp(1.0 + (double)(check_rand() % 16) / 16.0, (int)(check_rand() % 20) - 10) : 0.0f;
    const float gv = tscale != 0.0f ? tscale : 1.0f;
    const int64_t dims[2] = { rows, cols }, sd1[1] = { (int64_t)ns }, sd2[2] = { rows, gcols };
    /* around 2^e: f16 holds up to 2^15 (an infinite element is an error, tested apart) */
    const int e = ft == QUANT_F16 ? (int)(check_rand() % 28) - 14 : (int)(check_rand() % 60) - 30 + (check_rand() % 8 == 0 ? 90 : 0);
    void *x = alloc(n * (ft == QUANT_F32 ? 4 : 2)), *sc = alloc(ns * (sdt == QUANT_F32 ? 4 : 1));
    uint8_t *q = (uint8_t *)alloc(type == 2 ? f4_bytes(n) : n);
    float *amax = (float *)alloc(ns * 4);
    quant_tensor tx = tensor(ft, 2, dims, x), tq = tensor(qt, 2, dims, q);
    quant_tensor ts = qtype >= 2 ? tensor(sdt, 2, sd2, sc) : tensor(sdt, 1, sd1, sc);
    quant_attrs a = quant_attrs_default();
    quant_status st;
    size_t i;
    if (qtype == 1) { a.qtype = QUANT_PER_CHANNEL; a.axis = 0; }
    if (qtype >= 2) { a.qtype = QUANT_PER_GROUP; a.group_shape[0] = 1; a.group_shape[1] = g; }
    a.rounding = (quant_rounding)rnd;
    a.f8_overflow = (quant_f8_overflow)ov;
    a.tensor_scale = tscale;
    for (i = 0; i < ns; ++i) amax[i] = 0.0f;
    for (i = 0; i < n; ++i) {
        const size_t en = qtype == 0 ? 0 : qtype == 1 ? i / (size_t)cols : i / (size_t)cols * (size_t)gcols + i % (size_t)cols / (size_t)g;
        float v;
        put_float(x, ft, i, choose_input(e));
        v = fabsf(get_float(x, ft, i));
        if (v > amax[en]) amax[en] = v; /* NaN fails the test: left out */
    }
    st = fuse ? quant_choose_and_quantize(&tx, &tq, scheme, &a, &ts, NULL) : quant_choose_qparams(&tx, qt, scheme, &a, &ts, NULL);
    CHECK(st == QUANT_OK, "choose case %d (scheme %d type %d e %d g %a fuse %d): %s", k, (int)scheme, type, e, (double)tscale, fuse,
          quant_status_str(st));
    for (i = 0; i < ns && st == QUANT_OK; ++i) {
        const int want = scheme == QUANT_MX ? o_mx_code(amax[i], type) : scheme == QUANT_MX_RCEIL ? o_mx_rceil_code(amax[i], type)
                       : o_nvfp4_code(amax[i], gv, rnd);
        const float wv = scheme == QUANT_NVFP4 ? o_f8_decode((uint8_t)want, 0) : o_e8m0_value((uint8_t)want);
        if (scheme == QUANT_MX) CHECK(want == odnn_mx_code(amax[i], type), "oracle against oneDNN's dynamic_mx: amax %a", (double)amax[i]);
        if (sdt == QUANT_F32)
            CHECK(check_bits_float(((float *)sc)[i]) == check_bits_float(wv), "choose case %d scheme %d [%zu] amax %a: scale %a want %a",
                  k, (int)scheme, i, (double)amax[i], (double)((float *)sc)[i], (double)wv);
        else
            CHECK(((uint8_t *)sc)[i] == want, "choose case %d scheme %d type %d rnd %d [%zu] amax %a: code 0x%02x want 0x%02x", k,
                  (int)scheme, type, rnd, i, (double)amax[i], ((uint8_t *)sc)[i], (unsigned)want);
        amax[i] = tscale != 0.0f ? o_mul(wv, tscale) : wv; /* now the scale the quantize takes */
    }
    for (i = 0; i < n && st == QUANT_OK && fuse; ++i) {
        const size_t en = qtype == 0 ? 0 : qtype == 1 ? i / (size_t)cols : i / (size_t)cols * (size_t)gcols + i % (size_t)cols / (size_t)g;
        const float xv = get_float(x, ft, i);
        const unsigned want = o_mx_quant(xv, amax[en], type, rnd, ov), got = type == 2 ? nib(q, i) : q[i];
        CHECK(got == want, "choose case %d scheme %d type %d rnd %d [%zu] x=%a s=%a: got 0x%02x want 0x%02x", k, (int)scheme, type,
              rnd, i, (double)xv, (double)amax[en], got, want);
    }
    if (fuse && st == QUANT_OK && type == 2 && n % 2) CHECK(q[n / 2] >> 4 == 0, "choose case %d: odd count's high nibble", k);
    free(x); free(sc); free(q); free(amax);
}

/* the choose pair's bad input under the block-scale schemes */
static void choose_validation(void)
{
    const int64_t dims[2] = { 2, 32 }, one[1] = { 1 }, two[2] = { 2, 1 };
    static float x[64], sf[2];
    static uint8_t q[64], codes[2];
    quant_tensor tx = tensor(QUANT_F32, 2, dims, x), tq = tensor(QUANT_F4_E2M1, 2, dims, q), ts = tensor(QUANT_E8M0, 2, two, codes);
    quant_tensor tf = tensor(QUANT_F32, 2, two, sf);
    int32_t z[2];
    quant_tensor tz = tensor(QUANT_S32, 2, two, z);
    quant_attrs a = quant_attrs_default();
    size_t i;
    for (i = 0; i < 64; ++i) x[i] = (float)i - 20.0f;
    a.qtype = QUANT_PER_GROUP;
    a.group_shape[0] = 1;
    a.group_shape[1] = 32;
    memset(q, 0x5A, sizeof q);
    codes[0] = codes[1] = 0x5A;
#define KEPT (q[0] == 0x5A && codes[0] == 0x5A && codes[1] == 0x5A)
    CHECK(quant_choose_and_quantize(&tx, &tq, QUANT_MX, &a, &ts, NULL) == QUANT_OK && codes[0] == 127 + 4 - 2 &&
          codes[1] == 127 + 5 - 2, "MXFP4: codes %u %u", codes[0], codes[1]);
    memset(q, 0x5A, sizeof q);
    codes[0] = codes[1] = 0x5A;
    CHECK(quant_choose_and_quantize(&tx, &tq, QUANT_MX, &a, &ts, &tz) == QUANT_ERR_ZPS && KEPT, "MX with zero points");
    CHECK(quant_choose_and_quantize(&tx, &tq, QUANT_ASYMMETRIC, &a, &tf, &tz) == QUANT_ERR_DTYPE && KEPT, "f4 asymmetric");
    CHECK(quant_choose_and_quantize(&tx, &tq, QUANT_NVFP4, &a, &ts, NULL) == QUANT_ERR_SCALES && KEPT, "NVFP4 with e8m0 scales");
    ts.dtype = QUANT_F8_E4M3;
    CHECK(quant_choose_and_quantize(&tx, &tq, QUANT_MX, &a, &ts, NULL) == QUANT_ERR_SCALES && KEPT, "MX with e4m3 scales");
    CHECK(quant_choose_qparams(&tx, QUANT_S8, QUANT_NVFP4, &a, &ts, NULL) == QUANT_ERR_DTYPE && KEPT, "NVFP4 to s8");
    CHECK(quant_choose_qparams(&tx, QUANT_U8, QUANT_MX, &a, &tf, NULL) == QUANT_ERR_DTYPE, "MX to u8");
    CHECK(quant_choose_qparams(&tx, QUANT_S4, QUANT_MX_RCEIL, &a, &tf, NULL) == QUANT_ERR_DTYPE, "MX to s4");
    a.tensor_scale = 2.0f;
    ts.dtype = QUANT_E8M0;
    CHECK(quant_choose_and_quantize(&tx, &tq, QUANT_MX, &a, &ts, NULL) == QUANT_ERR_ATTR && KEPT, "MX with a tensor_scale");
    ts.dtype = QUANT_F8_E4M3;
    a.tensor_scale = -1.0f;
    CHECK(quant_choose_and_quantize(&tx, &tq, QUANT_NVFP4, &a, &ts, NULL) == QUANT_ERR_SCALE_VALUE && KEPT, "NVFP4, tensor_scale -1");
    a.tensor_scale = 0.0f;
    x[40] = INFINITY;
    CHECK(quant_choose_and_quantize(&tx, &tq, QUANT_NVFP4, &a, &ts, NULL) == QUANT_ERR_SCALE_VALUE && KEPT, "an infinite element");
    ts.dtype = QUANT_E8M0;
    CHECK(quant_choose_and_quantize(&tx, &tq, QUANT_MX, &a, &ts, NULL) == QUANT_ERR_SCALE_VALUE && KEPT, "MX: an infinite element");
    CHECK(quant_choose_and_quantize(&tx, &tq, QUANT_MX_RCEIL, &a, &ts, NULL) == QUANT_ERR_SCALE_VALUE && KEPT, "RCEIL: an infinite element");
    a.on_error = QUANT_ON_ERROR_PARTIAL; /* the first group's scale right or untouched; the second's untouched */
    CHECK(quant_choose_and_quantize(&tx, &tq, QUANT_MX, &a, &ts, NULL) == QUANT_ERR_SCALE_VALUE &&
          (codes[0] == 127 + 4 - 2 || codes[0] == 0x5A) && codes[1] == 0x5A && q[16] == 0x5A,
          "MX partial: an infinite element in the second group");
    a.on_error = QUANT_ON_ERROR_UNTOUCHED;
    memset(q, 0x5A, sizeof q);
    codes[0] = codes[1] = 0x5A;
    ts.dtype = QUANT_F8_E4M3;
    x[40] = 20.0f;
    /* RCEIL at the bottom of e8m0: fl(amax / 6) at 2^-127 is code 0, above
       it code 1; at 2^-126 code 1, above it code 2 */
    {
        static const struct { uint32_t amax; uint8_t code; } edge[] = {
            { 0x01400000u, 0 }, { 0x01400001u, 0 } /* a tie back to 2^-127 */, { 0x01400004u, 1 }, { 0x01C00000u, 1 }, { 0x01C00001u, 2 }, { 0x00C00000u, 0 }, { 0, 0 } };
        quant_tensor t1 = tensor(QUANT_F32, 1, one, x), e1 = tensor(QUANT_E8M0, 1, one, codes);
        for (i = 0; i < sizeof edge / sizeof edge[0]; ++i) {
            x[0] = o_from_bits(edge[i].amax);
            codes[0] = 0x5A;
            CHECK(quant_choose_qparams(&t1, QUANT_F4_E2M1, QUANT_MX_RCEIL, NULL, &e1, NULL) == QUANT_OK && codes[0] == edge[i].code,
                  "RCEIL amax %a: code %u want %u", (double)x[0], codes[0], edge[i].code);
        }
    }
#undef KEPT
}

/* the MXFP4 and NVFP4 row kernels against the oracle: every length up to
   300 (odd ones and ragged last groups), any scale code, NVFP4 with and
   without a tensor scale, each output type; buffers of exactly n. Then
   long rows whose MXFP4 scales mostly lie where the 16-bit outputs are an
   exponent add (bf16: codes 2 .. 252, f16: 114 .. 140), with now and then
   a code just outside, or 0, 254, NaN */
static void row_kernels(void)
{
    static const size_t longs[] = { 512, 1024, 1536 + 32, 2048 + 17, 4096 + 48, 8192, 3 * 2048, 3 * 1024 + 96 };
    static const uint8_t edges[] = { 0, 1, 2, 113, 114, 140, 141, 252, 253, 254, 0xFF };
    size_t n, li = 0;
    for (n = 0; n <= 300 || li < sizeof longs / sizeof longs[0]; n = n < 300 ? n + 1 + (n > 70) * 7 : longs[li++]) {
        int nv, out;
        for (nv = 0; nv < 2; ++nv)
            for (out = 0; out < 3; ++out) {
                const size_t g = nv ? 16 : 32, ng = (n + g - 1) / g;
                uint8_t *src = (uint8_t *)alloc(f4_bytes(n)), *sc = (uint8_t *)alloc(ng);
                void *dst = alloc(n * (out == 0 ? 4 : 2));
                float ts = nv && check_rand() % 2 ? (float)ldexp(1.0 + (double)(check_rand() % 16) / 16.0, (int)(check_rand() % 40) - 20) : 0.0f;
                size_t i;
                for (i = 0; i < f4_bytes(n); ++i) src[i] = (uint8_t)check_rand();
                for (i = 0; i < ng; ++i) sc[i] = nv ? (uint8_t)(check_rand() % 0x7F) : (uint8_t)(check_rand() % 255);
                if (n > 300 && nv) {
                    /* every code (negative, zero, NaN), and tensor scales that make the tables subnormal or infinite */
                    static const float tss[4] = { 0.0f, 0x1p-118f, 0x1p+100f, 0.75f };
                    for (i = 0; i < ng; ++i) sc[i] = (uint8_t)check_rand();
                    ts = tss[(li + (size_t)out) % 4];
                }
                if (n > 300 && !nv) {
                    for (i = 0; i < ng; ++i)
                        sc[i] = check_rand() % 64 == 0 ? edges[check_rand() % sizeof edges]
                              : out == 1 ? (uint8_t)(114 + check_rand() % 27) : (uint8_t)(2 + check_rand() % 251);
                    /* and one edge alone in each block of 16 groups, every edge in turn */
                    for (i = 0; 16 * i + 16 <= ng; ++i) sc[16 * i + check_rand() % 16] = edges[(i + li) % sizeof edges];
                }
                if (ng && check_rand() % 4 == 0 && n <= 300) sc[check_rand() % ng] = 0xFF; /* a NaN scale (-NaN for e4m3) */
                if (nv) {
                    if (out == 0) quant_nvfp4_to_f32(src, (float *)dst, n, sc, ts);
                    else (out == 1 ? quant_nvfp4_to_f16 : quant_nvfp4_to_bf16)(src, (uint16_t *)dst, n, sc, ts);
                } else {
                    if (out == 0) quant_mxfp4_to_f32(src, (float *)dst, n, sc);
                    else (out == 1 ? quant_mxfp4_to_f16 : quant_mxfp4_to_bf16)(src, (uint16_t *)dst, n, sc);
                }
                for (i = 0; i < n; ++i) {
                    float s = nv ? o_f8_decode(sc[i / g], 0) : o_e8m0_value(sc[i / g]);
                    float y;
                    uint32_t want, got;
                    if (ts != 0.0f) s = o_mul(s, ts);
                    y = o_dequant_f4((uint8_t)nib(src, i), s);
                    want = out == 0 ? check_bits_float(y) : out == 1 ? o_f16_code(y) : o_bf16_code(y);
                    got = out == 0 ? check_bits_float(((float *)dst)[i]) : ((uint16_t *)dst)[i];
                    if (isnan(s)) /* no validation: some NaN, written (its sign and payload unspecified) */
                        want = out == 0 ? (isnan(((float *)dst)[i]) ? got : 0x7FC00000u)
                             : (got & 0x7FFFu) == (out == 1 ? 0x7E00u : 0x7FC0u) ? got : (out == 1 ? 0x7E00u : 0x7FC0u);
                    CHECK(got == want, "%s row n=%zu out %d [%zu] code 0x%x scale 0x%02x ts %a: got 0x%x want 0x%x",
                          nv ? "nvfp4" : "mxfp4", n, out, i, nib(src, i), sc[i / g], (double)ts, got, want);
                }
                if (n > 300 && !nv && n % 32 == 0 && n % 3 == 0) {
                    /* the op layer, [3, n / 3] per group of 32 with an e8m0 scales tensor (rows of whole groups
                       when n / 3 is a multiple of 32) */
                    const int64_t dims[2] = { 3, (int64_t)n / 3 }, sd[2] = { 3, (int64_t)ng / 3 };
                    void *dst2 = alloc(n * (out == 0 ? 4 : 2));
                    quant_tensor tq = tensor(QUANT_F4_E2M1, 2, dims, src), ty = tensor(out == 0 ? QUANT_F32 : out == 1 ? QUANT_F16 : QUANT_BF16, 2, dims, dst2);
                    quant_tensor tsc = tensor(QUANT_E8M0, 2, sd, sc);
                    quant_attrs a = quant_attrs_default();
                    quant_status st;
                    for (i = 0; i < ng; ++i) if (sc[i] == 0xFF) sc[i] = 127; /* a NaN scale is refused by the ops */
                    a.qtype = QUANT_PER_GROUP; a.group_shape[0] = 1; a.group_shape[1] = 32;
                    st = quant_dynamic_dequantize(&tq, &tsc, NULL, &ty, &a);
                    CHECK(st == QUANT_OK, "mxfp4 op n=%zu out %d: %s", n, out, quant_status_str(st));
                    for (i = 0; i < n && st == QUANT_OK; ++i) {
                        const float y = o_dequant_f4((uint8_t)nib(src, i), o_e8m0_value(sc[i / 32]));
                        const uint32_t want = out == 0 ? check_bits_float(y) : out == 1 ? o_f16_code(y) : o_bf16_code(y);
                        const uint32_t got = out == 0 ? check_bits_float(((float *)dst2)[i]) : ((uint16_t *)dst2)[i];
                        CHECK(got == want, "mxfp4 op n=%zu out %d [%zu] code 0x%x scale 0x%02x: got 0x%x want 0x%x", n, out, i,
                              nib(src, i), sc[i / 32], got, want);
                    }
                    free(dst2);
                }
                free(src); free(sc); free(dst);
            }
    }
}

/* one f4 code of the sweep against the oracle */
struct f4_at_ctx {
    const float *x;
    const uint8_t *code;
    uint64_t u;
    int r;
};
static int f4_at(void *ctx, size_t i)
{
    const struct f4_at_ctx *c = (const struct f4_at_ctx *)ctx;
    const unsigned want = o_quant_f4(c->x[i], 1.0f, c->r ? O_ONEDNN : O_EXACT);
    if (c->code[i] == want) return 1;
    CHECK(0, "0x%08x rounding %d: got 0x%x want 0x%x", (unsigned)(c->u + i), c->r, c->code[i], want);
    return 0;
}

/* every f32 bit pattern in shard k of n through the f4 encoder, scale 1,
   rounding exact and onednn (the two NaN rules); the oracle runs where the
   codes change (check_runs in check.h) */
static int sweep(unsigned k, unsigned shards)
{
    enum { CHUNK = 1 << 16 };
    static float x[CHUNK];
    static uint8_t q[CHUNK / 2], code[CHUNK];
    const int64_t dims[1] = { CHUNK };
    const uint64_t first = ((uint64_t)1 << 32) / shards * k, last = ((uint64_t)1 << 32) / shards * (k + 1);
    quant_tensor tx = tensor(QUANT_F32, 1, dims, x), tq = tensor(QUANT_F4_E2M1, 1, dims, q);
    quant_attrs a = quant_attrs_default();
    float s = 1.0f;
    uint64_t u;
    int r;
    a.scales = &s;
    a.n_scales = 1;
    for (u = first; u < last; u += CHUNK) {
        size_t i;
        for (i = 0; i < CHUNK; ++i) x[i] = o_from_bits((uint32_t)(u + i));
        for (r = 0; r < 2; ++r) {
            a.rounding = r ? QUANT_ROUND_ONEDNN : QUANT_ROUND_EXACT;
            struct f4_at_ctx c;
            CHECK(quant_quantize(&tx, &tq, &a) == QUANT_OK, "sweep status");
            for (i = 0; i < CHUNK; ++i) code[i] = (uint8_t)nib(q, i);
            c.x = x; c.code = code; c.u = u; c.r = r;
            CHECK(check_runs(code, 1, CHUNK, f4_at, &c), "sweep block 0x%08x", (unsigned)u);
        }
    }
    return check_done("test_mx (all f32)");
}

int main(int argc, char **argv)
{
    int k;
    check_cpu();
    if (argc == 4 && strcmp(argv[1], "all") == 0) return sweep((unsigned)atoi(argv[2]), (unsigned)atoi(argv[3]));
    every_scale_code();
    validation();
    row_kernels();
    for (k = 0; k < 4000; ++k) one_case(k);
    choose_validation();
    for (k = 0; k < 3000; ++k) choose_case(k);
    return check_done("test_mx");
}
