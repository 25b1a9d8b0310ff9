/* test_strided: src and dst with strides (attrs.src_strides, dst_strides).

   For random shapes, layouts (dims permuted in memory, rows padded, src
   dims read again with stride 0), dtypes (packed s4/u4 on either side
   included: their strides count nibbles), qtypes and roundings, the
   expected dst is the oracle's result for each logical element, written
   at its strided place into a copy of dst's fill; the strided op,
   one-shot and through a plan (whole and in ranges), must give exactly
   those bytes, padding (and a packed dst's other nibbles) untouched.
   Buffers are allocated at their strided extents. Then the rules:
   negative strides, dst strides that give two elements one address,
   strides in the choose pair are QUANT_ERR_STRIDE; a strided tensor
   overlapping the other is QUANT_ERR_OVERLAP over its whole extent; a
   plan keeps the strides it was prepared with; dst untouched on every
   error. */
#include "../quant.h"
#include "check.h"
#include "bytes.h"
#include "oracle.h"

/* elements a byte holds: s4, u4, f4 two, s2, u2 four, the rest one */
static unsigned per(quant_dtype t)
{
    return t == QUANT_S2 || t == QUANT_U2 ? 4u : t == QUANT_S4 || t == QUANT_U4 || t == QUANT_F4_E2M1 ? 2u : 1u;
}
static int is4(quant_dtype t) { return per(t) > 1; } /* packed */
static size_t esize(quant_dtype t) { return nbytes(t, 1); }
/* the bytes that hold elements 0 .. elems-1 of a strided layout */
static size_t span(quant_dtype t, size_t elems) { return is4(t) ? (elems + per(t) - 1) / per(t) : elems * esize(t); }

/* element k of packed data of type t: its bits, and set to v */
static unsigned pk_get(const void *p, quant_dtype t, size_t k)
{
    const unsigned w = 8u / per(t);
    return ((const uint8_t *)p)[k / per(t)] >> (k % per(t) * w) & ((1u << w) - 1u);
}
static void pk_set(void *p, quant_dtype t, size_t k, unsigned v)
{
    const unsigned w = 8u / per(t), at = (unsigned)(k % per(t)) * w, m = (1u << w) - 1u;
    uint8_t *b = (uint8_t *)p + k / per(t);
    *b = (uint8_t)((*b & ~(m << at)) | (v & m) << at);
}

static size_t count(const quant_tensor *t)
{
    size_t n = 1;
    int d;
    for (d = 0; d < t->rank; ++d) n *= (size_t)t->dims[d];
    return n;
}

/* the offset in elements, with strides st, of the element with
   row-major index e */
static size_t offset(const quant_tensor *t, const int64_t *st, size_t e)
{
    size_t off = 0;
    int d;
    for (d = t->rank - 1; d >= 0; --d) {
        off += e % (size_t)t->dims[d] * (size_t)st[d];
        e /= (size_t)t->dims[d];
    }
    return off;
}

/* elements from the first to the last one the strides reach */
static size_t extent(const quant_tensor *t, const int64_t *st)
{
    size_t last = 0;
    int d;
    for (d = 0; d < t->rank; ++d) last += ((size_t)t->dims[d] - 1) * (size_t)st[d];
    return last + 1;
}

/* strides of a random layout: dims in a random order in memory, each
   step padded now and then; in src, now and then a dim read again
   (stride 0) */
static void random_strides(const quant_tensor *t, int64_t *st, int is_src)
{
    int order[QUANT_MAX_RANK], d, k;
    int64_t step = 1 + (check_rand() % 4 == 0);
    for (d = 0; d < t->rank; ++d) order[d] = d;
    for (d = t->rank - 1; d > 0; --d) {
        const int j = (int)(check_rand() % (unsigned)(d + 1)), x = order[d];
        order[d] = order[j];
        order[j] = x;
    }
    for (k = t->rank - 1; k >= 0; --k) { /* order[rank-1] steps finest */
        d = order[k];
        st[d] = step;
        step *= t->dims[d];
        if (check_rand() % 3 == 0) step += (int64_t)(check_rand() % 5);
    }
    if (is_src && t->rank > 1 && check_rand() % 6 == 0) st[check_rand() % (unsigned)t->rank] = 0;
}

static void fill_random(void *p, size_t bytes)
{
    size_t i;
    for (i = 0; i < bytes; ++i) ((uint8_t *)p)[i] = (uint8_t)check_rand();
}

/* a float-side value of t at element i: ordinary magnitudes, now and then
   a tie, zero or NaN */
static void put_float(quant_dtype t, void *p, size_t i)
{
    float x = (float)((int)(check_rand() % 2001) - 1000) / 8.0f;
    uint32_t u = check_bits_float(x);
    if (check_rand() % 50 == 0) u = 0x7FC00000u;
    if (t == QUANT_F32) memcpy((char *)p + 4 * i, &u, 4);
    else {
        const uint16_t h = t == QUANT_BF16 ? (uint16_t)(u >> 16) : (uint16_t)(((u >> 16) & 0x8000u) | 0x3C00u | (check_rand() & 0x3FFu));
        memcpy((char *)p + 2 * i, &h, 2);
    }
}

static const quant_dtype fdts[] = { QUANT_F32, QUANT_F16, QUANT_BF16 };
/* the quantized side: the first eight quantize, all nine dequantize */
static const quant_dtype qdts[] = { QUANT_S8, QUANT_U8, QUANT_F8_E4M3, QUANT_F8_E5M2, QUANT_S4, QUANT_U4, QUANT_F4_E2M1,
                                    QUANT_S2, QUANT_U2, QUANT_S16, QUANT_S32 };

typedef struct scase {
    quant_op op;
    quant_tensor src, dst, scales, zps;
    int has_zps;
    quant_attrs a;
    float sc[64];
    int64_t zl[64];
    int64_t sst[QUANT_MAX_RANK], dst_st[QUANT_MAX_RANK]; /* the layouts; all 0: dense */
} scase;

/* the scale grid's count of a case, with its dims into g[] */
static size_t grid(const scase *c, int64_t *g)
{
    size_t n = 1;
    int d;
    for (d = 0; d < c->src.rank; ++d) {
        if (c->a.qtype == QUANT_PER_TENSOR) g[d] = 1;
        else if (c->a.qtype == QUANT_PER_CHANNEL) g[d] = d == c->a.axis ? c->src.dims[d] : 1;
        else g[d] = (c->src.dims[d] + c->a.group_shape[d] - 1) / c->a.group_shape[d];
        n *= (size_t)g[d];
    }
    return n;
}

static quant_status run_op(const scase *c, const quant_tensor *src, quant_tensor *dst)
{
    switch (c->op) {
    case QUANT_OP_QUANTIZE: return quant_quantize(src, dst, &c->a);
    case QUANT_OP_DEQUANTIZE: return quant_dequantize(src, dst, &c->a);
    case QUANT_OP_DYNAMIC_QUANTIZE: return quant_dynamic_quantize(src, &c->scales, c->has_zps ? &c->zps : NULL, dst, &c->a);
    default: return quant_dynamic_dequantize(src, &c->scales, c->has_zps ? &c->zps : NULL, dst, &c->a);
    }
}

static int strided(int rank, const int64_t *st)
{
    int d;
    for (d = 0; d < rank; ++d)
        if (st[d]) return 1;
    return 0;
}

static float scale_store[64];
static int32_t zp_store[64];
static void set_scales(scase *c, quant_dtype q);

/* a random case; its buffers are allocated at their strided extents */
static void make_case(scase *c)
{
    const int quantize = check_rand() % 2, dynamic = check_rand() % 2;
    const quant_dtype f = fdts[check_rand() % 3], q = qdts[check_rand() % (quantize ? 10u : 11u)];
    int d;
    memset(c, 0, sizeof *c);
    c->op = quantize ? (dynamic ? QUANT_OP_DYNAMIC_QUANTIZE : QUANT_OP_QUANTIZE)
                     : (dynamic ? QUANT_OP_DYNAMIC_DEQUANTIZE : QUANT_OP_DEQUANTIZE);
    c->src.rank = c->dst.rank = 1 + (int)(check_rand() % 4);
    for (d = 0; d < c->src.rank; ++d) c->src.dims[d] = c->dst.dims[d] = 1 + (int64_t)(check_rand() % (d == c->src.rank - 1 ? 70u : 6u));
    if (check_rand() % 8 == 0) c->src.dims[c->src.rank - 1] = c->dst.dims[c->src.rank - 1] = 300; /* chunks of 256 */
    c->src.dtype = quantize ? f : q;
    c->dst.dtype = quantize ? q : f;
    c->a = quant_attrs_default();
    c->a.qtype = (quant_qtype)(check_rand() % 3);
    c->a.axis = check_rand() % (unsigned)c->src.rank;
    for (d = 0; d < c->src.rank; ++d) c->a.group_shape[d] = 1 + (int64_t)(check_rand() % 4);
    c->a.rounding = (quant_rounding)(check_rand() % 4);
    c->a.f8_overflow = (quant_f8_overflow)(check_rand() % 2);
    do {
        random_strides(&c->src, c->sst, 1);
        random_strides(&c->dst, c->dst_st, 0);
    } while (check_rand() % 4 != 0 && c->src.rank > 1 && c->sst[c->src.rank - 1] == 1 &&
             c->dst_st[c->src.rank - 1] == 1); /* mostly a real layout change */
    if (check_rand() % 5 == 0) memset(c->sst, 0, sizeof c->sst); /* one side dense */
    else if (check_rand() % 5 == 0) memset(c->dst_st, 0, sizeof c->dst_st);
    /* given as NULL, as zeros, or as the strides */
    c->a.src_strides = check_rand() % 8 == 0 && !strided(c->src.rank, c->sst) ? NULL : c->sst;
    c->a.dst_strides = check_rand() % 8 == 0 && !strided(c->dst.rank, c->dst_st) ? NULL : c->dst_st;
    set_scales(c, q);
}

/* random scales and zero points for c's grid (per tensor when the grid
   has more than 64 entries), as lists and as tensors */
static void set_scales(scase *c, quant_dtype q)
{
    int64_t g[QUANT_MAX_RANK];
    size_t ns, i;
    ns = grid(c, g);
    if (ns > 64) { c->a.qtype = QUANT_PER_TENSOR; ns = grid(c, g); }
    for (i = 0; i < ns; ++i) {
        scale_store[i] = c->sc[i] = (float)(1 + check_rand() % 16) / 4.0f;
        zp_store[i] = (int32_t)(check_rand() % 7) - 3 + (q == QUANT_U8 ? 100 : 0);
        if (quant_dtype_name(q)[0] == 'f') zp_store[i] = 0; /* f8: zero points 0 */
        c->zl[i] = zp_store[i];
    }
    c->has_zps = check_rand() % 2;
    c->a.scales = c->sc;
    c->a.n_scales = ns;
    c->a.zps = c->has_zps ? c->zl : NULL;
    c->a.n_zps = c->has_zps ? ns : 0;
    c->scales.dtype = QUANT_F32;
    c->scales.rank = c->src.rank;
    memcpy(c->scales.dims, g, sizeof g);
    c->scales.data = scale_store;
    c->zps.dtype = QUANT_S32;
    c->zps.rank = c->src.rank;
    memcpy(c->zps.dims, g, sizeof g);
    c->zps.data = zp_store;
    if (c->a.qtype == QUANT_PER_TENSOR) c->scales.rank = c->zps.rank = 0;
    else if (c->a.qtype == QUANT_PER_CHANNEL) {
        c->scales.rank = c->zps.rank = 1;
        c->scales.dims[0] = c->zps.dims[0] = (int64_t)ns;
    }
}

/* the grid entry of the element with row-major index e */
static size_t entry_of(const scase *c, size_t e)
{
    size_t at = 0, stride = 1;
    int d;
    for (d = c->src.rank - 1; d >= 0; --d) {
        const size_t dim = (size_t)c->src.dims[d];
        const size_t g = c->a.qtype == QUANT_PER_GROUP ? (size_t)c->a.group_shape[d]
                       : c->a.qtype == QUANT_PER_CHANNEL && d == c->a.axis ? 1 : dim;
        at += e % dim / g * stride;
        stride *= (dim + g - 1) / g;
        e /= dim;
    }
    return at;
}

static float load_float(quant_dtype t, const void *p, size_t k)
{
    uint16_t h;
    float x;
    if (t == QUANT_F32) { memcpy(&x, (const char *)p + 4 * k, 4); return x; }
    memcpy(&h, (const char *)p + 2 * k, 2);
    return t == QUANT_F16 ? o_f16_value(h) : o_bf16_value(h);
}

/* the oracle's dst: each element computed from its strided src place and
   written at its strided dst place into want (which holds dst's fill) */
static void expect(const scase *c, const int64_t *ss, const int64_t *ds, uint8_t *want)
{
    const int quantize = c->op == QUANT_OP_QUANTIZE || c->op == QUANT_OP_DYNAMIC_QUANTIZE;
    const quant_dtype q = quantize ? c->dst.dtype : c->src.dtype, f = quantize ? c->src.dtype : c->dst.dtype;
    const int rnd = (int)c->a.rounding, e5 = q == QUANT_F8_E5M2, f8 = q == QUANT_F8_E4M3 || e5, f4 = q == QUANT_F4_E2M1;
    const size_t n = count(&c->src);
    size_t e;
    for (e = 0; e < n; ++e) {
        const size_t g = entry_of(c, e), so = offset(&c->src, ss, e), dof = offset(&c->dst, ds, e);
        const float s = c->sc[g];
        const int64_t z = c->has_zps && !f8 && !f4 ? c->zl[g] : 0;
        if (quantize) {
            const float x = load_float(f, c->src.data, so);
            int64_t v;
            if (f8) v = o_quant_f8(x, s, rnd, e5, c->a.f8_overflow == QUANT_F8_INF_NAN);
            else if (f4) v = o_quant_f4(x, s, rnd);
            else {
                const int64_t lo = q == QUANT_S8 ? -128 : q == QUANT_S4 ? -8 : q == QUANT_S2 ? -2 : q == QUANT_S16 ? -32768 : 0;
                const int64_t hi = q == QUANT_S8 ? 127 : q == QUANT_U8 ? 255 : q == QUANT_S4 ? 7 : q == QUANT_S2 ? 1
                                 : q == QUANT_U2 ? 3 : q == QUANT_S16 ? 32767 : 15;
                v = o_quant_int(x, s, z, rnd, lo, hi);
            }
            if (is4(q)) pk_set(want, q, dof, (unsigned)v);
            else if (q == QUANT_S16) { const int16_t h = (int16_t)v; memcpy(want + 2 * dof, &h, 2); }
            else want[dof] = (uint8_t)v;
        } else {
            float y;
            if (f8) y = o_dequant_f8_r(((const uint8_t *)c->src.data)[so], s, e5, rnd);
            else if (f4) y = o_dequant_f4((uint8_t)pk_get(c->src.data, q, so), s);
            else {
                int64_t v;
                if (q == QUANT_S32) { int32_t i32; memcpy(&i32, (const char *)c->src.data + 4 * so, 4); v = i32; }
                else if (q == QUANT_S16) { int16_t i16; memcpy(&i16, (const char *)c->src.data + 2 * so, 2); v = i16; }
                else if (is4(q)) {
                    const int64_t flip = q == QUANT_S4 ? 8 : q == QUANT_S2 ? 2 : 0;
                    v = ((int64_t)pk_get(c->src.data, q, so) ^ flip) - flip;
                }
                else v = q == QUANT_S8 ? (int8_t)((const uint8_t *)c->src.data)[so] : ((const uint8_t *)c->src.data)[so];
                y = o_dequant_int(v, s, z);
            }
            if (f == QUANT_F32) memcpy(want + 4 * dof, &y, 4);
            else {
                const uint16_t h = f == QUANT_F16                 ? o_f16_code(y)
                                 : rnd == QUANT_ROUND_ONEDNN       ? o_bf16_code_onednn(y) : o_bf16_code(y);
                memcpy(want + 2 * dof, &h, 2);
            }
        }
    }
    /* a dense packed dst: the bits of its last byte past its last element are 0 */
    if (is4(c->dst.dtype) && n % per(c->dst.dtype)) {
        int64_t step = 1;
        int d, dense = 1;
        for (d = c->dst.rank - 1; d >= 0; --d) {
            dense &= c->dst.dims[d] == 1 || ds[d] == step;
            step *= c->dst.dims[d];
        }
        for (e = n; dense && e % per(c->dst.dtype); ++e) pk_set(want, c->dst.dtype, e, 0);
    }
}

/* st, or row-major strides of t when st has none, into out */
static void resolve(const quant_tensor *t, const int64_t *st, int64_t *out)
{
    int64_t step = 1;
    int d;
    for (d = t->rank - 1; d >= 0; --d) {
        out[d] = strided(t->rank, st) ? st[d] : step;
        step *= t->dims[d];
    }
}

static void check_case(scase c, int k)
{
    quant_plan plan;
    int64_t ss[QUANT_MAX_RANK], ds[QUANT_MAX_RANK]; /* the layouts, resolved */
    size_t n, sbytes, dbytes, e, units, cut;
    uint8_t *fill, *want;
    quant_status st;
    /* the strides this copy holds, so that clearing them below tests that a plan keeps its own */
    if (c.a.src_strides) c.a.src_strides = c.sst;
    if (c.a.dst_strides) c.a.dst_strides = c.dst_st;
    resolve(&c.src, c.sst, ss);
    resolve(&c.dst, c.dst_st, ds);
    n = count(&c.src);
    sbytes = span(c.src.dtype, extent(&c.src, ss));
    c.src.data = alloc(sbytes);
    fill_random(c.src.data, sbytes);
    if (c.op == QUANT_OP_QUANTIZE || c.op == QUANT_OP_DYNAMIC_QUANTIZE)
        for (e = 0; e < n; ++e) put_float(c.src.dtype, c.src.data, offset(&c.src, ss, e));
    else if (c.src.dtype == QUANT_S32)
        for (e = 0; e < n; ++e) ((int32_t *)c.src.data)[offset(&c.src, ss, e)] = (int32_t)(check_rand() % 100000) - 50000;
    dbytes = span(c.dst.dtype, extent(&c.dst, ds));
    fill = (uint8_t *)alloc(dbytes);
    want = (uint8_t *)alloc(dbytes);
    fill_random(fill, dbytes);
    memcpy(want, fill, dbytes);
    c.dst.data = alloc(dbytes);
    expect(&c, ss, ds, want);

    /* one-shot */
    memcpy(c.dst.data, fill, dbytes);
    st = run_op(&c, &c.src, &c.dst);
    CHECK(st == QUANT_OK && memcmp(c.dst.data, want, dbytes) == 0,
          "case %d (%s->%s rank %d qtype %d rounding %d): one-shot differs, status %d", k, quant_dtype_name(c.src.dtype),
          quant_dtype_name(c.dst.dtype), c.src.rank, (int)c.a.qtype, (int)c.a.rounding, (int)st);

    /* a plan, whole and in two ranges; it keeps the strides it was given */
    st = quant_prepare(&plan, c.op, &c.src, &c.scales, c.has_zps ? &c.zps : NULL, &c.dst, &c.a);
    CHECK(st == QUANT_OK, "case %d: prepare status %d", k, (int)st);
    memset(c.sst, 0x5A, sizeof c.sst);
    memset(c.dst_st, 0x5A, sizeof c.dst_st);
    memcpy(c.dst.data, fill, dbytes);
    st = quant_run(&plan, &c.src, &c.scales, c.has_zps ? &c.zps : NULL, &c.dst);
    CHECK(st == QUANT_OK && memcmp(c.dst.data, want, dbytes) == 0, "case %d: plan run differs, status %d", k, (int)st);
    units = quant_plan_units(&plan);
    cut = units ? check_rand() % (units + 1) : 0;
    memcpy(c.dst.data, fill, dbytes);
    st = quant_run_range(&plan, &c.src, &c.scales, c.has_zps ? &c.zps : NULL, &c.dst, cut, units);
    CHECK(st == QUANT_OK, "case %d: range status %d", k, (int)st);
    st = quant_run_range(&plan, &c.src, &c.scales, c.has_zps ? &c.zps : NULL, &c.dst, 0, cut);
    CHECK(st == QUANT_OK && memcmp(c.dst.data, want, dbytes) == 0, "case %d: ranges [0,%zu) [%zu,%zu) differ", k, cut, cut, units);
    free(c.src.data);
    free(c.dst.data);
    free(fill);
    free(want);
}

static void one_case(int k)
{
    scase c;
    make_case(&c);
    check_case(c, k);
}

/* oneDNN's int4 K/V cache cases (sdpa with compressed int4 K/V, groups of
   32): a [2, 4, 128, 32] tensor stored with its last two dims swapped,
   strides (16384, 4096, 1, 128) elements, scales per 32 along the last
   dim; dequantized from it and quantized into it, s4 and u4, each
   rounding, static and dynamic */
static void kv_cache_layout(void)
{
    static const int64_t dims[4] = { 2, 4, 128, 32 }, kv[4] = { 16384, 4096, 1, 128 };
    int k;
    for (k = 0; k < 32; ++k) {
        const int quantize = k & 1, dynamic = k >> 1 & 1;
        const quant_dtype q = k >> 2 & 1 ? QUANT_U4 : QUANT_S4, f = fdts[k % 3];
        scase c;
        memset(&c, 0, sizeof c);
        c.op = quantize ? (dynamic ? QUANT_OP_DYNAMIC_QUANTIZE : QUANT_OP_QUANTIZE)
                        : (dynamic ? QUANT_OP_DYNAMIC_DEQUANTIZE : QUANT_OP_DEQUANTIZE);
        c.src.rank = c.dst.rank = 4;
        memcpy(c.src.dims, dims, sizeof dims);
        memcpy(c.dst.dims, dims, sizeof dims);
        c.src.dtype = quantize ? f : q;
        c.dst.dtype = quantize ? q : f;
        c.a = quant_attrs_default();
        c.a.qtype = QUANT_PER_GROUP;
        c.a.group_shape[0] = c.a.group_shape[1] = c.a.group_shape[2] = 64; /* grid 1 x 1 x 2 x 1 */
        c.a.group_shape[3] = 32;
        c.a.rounding = (quant_rounding)(k >> 3 & 3);
        memcpy(quantize ? c.dst_st : c.sst, kv, sizeof kv);
        c.a.src_strides = c.sst;
        c.a.dst_strides = c.dst_st;
        set_scales(&c, q);
        check_case(c, -1 - k);
    }
}

static quant_tensor t2(quant_dtype dt, int64_t d0, int64_t d1, void *data)
{
    quant_tensor t = { QUANT_UNDEF, 2, { 0 }, NULL };
    t.dtype = dt;
    t.dims[0] = d0;
    t.dims[1] = d1;
    t.data = data;
    return t;
}

static const int64_t *S(int64_t s0, int64_t s1)
{
    static int64_t st[4][2];
    static int k;
    k = (k + 1) % 4;
    st[k][0] = s0;
    st[k][1] = s1;
    return st[k];
}

/* quantize of [d0, d1] f32 at x to ddt at q with strides ss and ds */
static quant_status q2(quant_attrs *a, void *x, quant_dtype ddt, void *q, int64_t d0, int64_t d1, const int64_t *ss,
                       const int64_t *ds)
{
    const quant_tensor s = t2(QUANT_F32, d0, d1, x);
    quant_tensor d = t2(ddt, d0, d1, q);
    a->src_strides = ss;
    a->dst_strides = ds;
    return quant_quantize(&s, &d, a);
}

/* every rule that refuses strides, with dst untouched */
static void rules(void)
{
    static float x[64], scale = 0.5f;
    static uint8_t q[64], before[64];
    quant_attrs a = quant_attrs_default();
    quant_tensor s, d, sc;
    quant_plan plan;
    a.scales = &scale;
    a.n_scales = 1;
    fill_random(q, sizeof q);
#define REFUSED(st_, want, what) CHECK((st_) == (want) && memcmp(q, before, sizeof q) == 0, "%s: status %d", what, (int)(st_))
    CHECK(q2(&a, x, QUANT_S8, q, 4, 4, NULL, S(1, 4)) == QUANT_OK, "transposed dst");
    memcpy(before, q, sizeof q);
    REFUSED(q2(&a, x, QUANT_S8, q, 4, 4, NULL, S(-4, 1)), QUANT_ERR_STRIDE, "negative dst stride");
    REFUSED(q2(&a, x, QUANT_S8, q, 4, 4, S(4, -1), NULL), QUANT_ERR_STRIDE, "negative src stride");
    REFUSED(q2(&a, x, QUANT_S8, q, 1, 4, S(-1, 1), NULL), QUANT_ERR_STRIDE, "negative stride on a dim of one element");
    CHECK(q2(&a, NULL, QUANT_S8, NULL, 0, 4, S(4, -1), NULL) == QUANT_ERR_STRIDE, "negative stride on an empty tensor");
    /* an empty tensor's other dims may be huge: their product is never taken */
    CHECK(q2(&a, NULL, QUANT_S8, NULL, 0, INT64_MAX, S(1, 1), S(1, 1)) == QUANT_OK, "empty, huge dim, strides");
    REFUSED(q2(&a, x, QUANT_S8, q, 4, 4, NULL, S(0, 1)), QUANT_ERR_STRIDE, "dst stride 0 on a dim of 4");
    REFUSED(q2(&a, x, QUANT_S8, q, 4, 4, NULL, S(3, 1)), QUANT_ERR_STRIDE, "dst rows overlapping (stride 3 < 4)");
    REFUSED(q2(&a, x, QUANT_S8, q, 4, 4, NULL, S(1, 3)), QUANT_ERR_STRIDE, "dst columns overlapping (stride 3 < 4)");
    REFUSED(q2(&a, x, QUANT_S8, q, 4, 4, NULL, S(2, 2)), QUANT_ERR_STRIDE, "dst dims with one stride");
    CHECK(q2(&a, x, QUANT_S8, q, 4, 4, NULL, S(16, 4)) == QUANT_OK, "spread dst"); /* every 4th byte of 64 */
    memcpy(before, q, sizeof q);
    CHECK(q2(&a, x, QUANT_S8, q, 4, 4, S(0, 1), S(1, 4)) == QUANT_OK, "src stride 0: every row read from the first");
    memcpy(before, q, sizeof q);
    CHECK(q2(&a, x, QUANT_S8, q, 4, 4, S(4, 1), S(0, 0)) == QUANT_OK, "row-major and zero strides: dense");
    memcpy(before, q, sizeof q);
    /* a packed dst's strides count nibbles: a transposed 4 x 4 u4 fills 8
       bytes, stride 3 along rows leaves nibbles 0..3, 3..6 sharing one */
    CHECK(q2(&a, x, QUANT_U4, q, 4, 4, NULL, S(1, 4)) == QUANT_OK, "u4 dst transposed");
    memcpy(before, q, sizeof q);
    REFUSED(q2(&a, x, QUANT_U4, q, 4, 4, NULL, S(3, 1)), QUANT_ERR_STRIDE, "u4 dst rows overlapping (stride 3 < 4)");
    REFUSED(q2(&a, x, QUANT_S4, q, 4, 4, NULL, S(-2, 1)), QUANT_ERR_STRIDE, "s4 dst negative stride");
    /* no strides in the choose pair */
    s = t2(QUANT_F32, 4, 4, x);
    d = t2(QUANT_S8, 4, 4, q);
    sc = t2(QUANT_F32, 1, 1, &scale);
    sc.rank = 0;
    a.src_strides = S(1, 4);
    a.dst_strides = NULL;
    REFUSED(quant_choose_qparams(&s, QUANT_S8, QUANT_SYMMETRIC, &a, &sc, NULL), QUANT_ERR_STRIDE, "choose: strided src");
    a.src_strides = NULL;
    a.dst_strides = S(1, 4);
    REFUSED(quant_choose_and_quantize(&s, &d, QUANT_SYMMETRIC, &a, &sc, NULL), QUANT_ERR_STRIDE, "fused: strided dst");
    /* overlap is checked over the whole extent: src's two elements are
       y[0] and y[10], dst's two bytes sit between them */
    {
        static float y[16];
        static const int64_t ten[1] = { 10 };
        quant_tensor fs = t2(QUANT_F32, 2, 1, y), dq = t2(QUANT_S8, 2, 1, (uint8_t *)(void *)y + 8);
        fs.rank = dq.rank = 1;
        a.src_strides = ten;
        a.dst_strides = NULL;
        fill_random(y, sizeof y);
        memcpy(x, y, sizeof y);
        CHECK(quant_quantize(&fs, &dq, &a) == QUANT_ERR_OVERLAP && memcmp(x, y, sizeof y) == 0, "dst inside src's extent");
        {   /* the line names src, measured as strided: densely its 8 bytes end where dst starts */
            char line[160];
            CHECK(quant_explain(QUANT_OP_QUANTIZE, &fs, NULL, NULL, &dq, &a, line, sizeof line) == QUANT_ERR_OVERLAP &&
                  strcmp(line, "dst overlaps src") == 0, "explain strided overlap: %s", line);
        }
        memset(x, 0, sizeof x);
    }
    /* quant_explain names the stride */
    {
        char line[160];
        quant_tensor u4 = t2(QUANT_U4, 4, 4, q);
        a.src_strides = NULL;
        a.dst_strides = S(-4, 1);
        CHECK(quant_explain(QUANT_OP_QUANTIZE, &s, NULL, NULL, &d, &a, line, sizeof line) == QUANT_ERR_STRIDE &&
              strcmp(line, "dst_strides[0] is -4; strides must be >= 0") == 0, "explain: %s", line);
        a.dst_strides = S(3, 1);
        CHECK(quant_explain(QUANT_OP_QUANTIZE, &s, NULL, NULL, &d, &a, line, sizeof line) == QUANT_ERR_STRIDE &&
              strcmp(line, "dst_strides give two elements of dst one address (dims [4, 4])") == 0, "explain: %s", line);
        a.dst_strides = S(3, 1);
        CHECK(quant_explain(QUANT_OP_QUANTIZE, &s, NULL, NULL, &u4, &a, line, sizeof line) == QUANT_ERR_STRIDE &&
              strcmp(line, "dst_strides give two elements of dst one address (dims [4, 4])") == 0, "explain u4: %s", line);
    }
    /* a plan keeps its strides: the caller's array may change */
    {
        int64_t ds[2] = { 1, 4 };
        static uint8_t want[64];
        CHECK(q2(&a, x, QUANT_S8, want, 4, 4, NULL, ds) == QUANT_OK, "transposed, for the plan");
        a.src_strides = NULL;
        a.dst_strides = ds;
        CHECK(quant_prepare(&plan, QUANT_OP_QUANTIZE, &s, NULL, NULL, &d, &a) == QUANT_OK, "strided plan");
        ds[0] = 4;
        ds[1] = 1;
        memset(q, 0, sizeof q);
        CHECK(quant_run(&plan, &s, NULL, NULL, &d) == QUANT_OK && memcmp(q, want, 16) == 0, "plan with its own strides");
    }
#undef REFUSED
}

int main(int argc, char **argv)
{
    int k, cases = argc > 1 ? atoi(argv[1]) : 3000;
    check_cpu();
    rules();
    kv_cache_layout();
    for (k = 0; k < cases; ++k) one_case(k);
    return check_done("test_strided");
}
