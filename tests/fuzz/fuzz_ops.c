/* libFuzzer target over the four operations, differential against code
   that shares nothing with quant.h:

   - every success is compared, element by element and bit for bit, with
     the independent oracle (tests/oracle.h: double arithmetic, a code-table
     search for f8, oneDNN's f8 route transcribed in tests/onednn_f8.h);
   - every status is compared with a status model written in this file from
     the README's "Bad input" table and SPEC section 4 (not from quant.h's
     validation): a call that must fail has to return one of the statuses of
     the rows that apply, a call that must succeed has to return QUANT_OK;
   - a failure must leave every byte (dst, src, scales, zero points, the
     tensor and attribute structs) as it was, a success every byte but dst's.

   The input bytes choose the op, rank (-1..13), dims (0, negative, 2^32,
   2^32 + 3, INT64_MAX, ...), dtypes (invalid ones too), qtype, axis,
   rounding and f8 mode (invalid values too), scales (0, NaN, +-Inf,
   subnormal, 2^-128 and its neighbour, raw bits), zero points (the int32
   ends, beyond them, raw), the data, NULL tensors, attributes and data
   pointers, misaligned pointers, and dst overlapping (or touching) src,
   scales or zero points.

   A first byte of 252 or more runs a row kernel instead (n = 0 with NULL
   pointers included), against the oracle where its scale is valid.

   Every buffer the library may read or write is its own malloc of exactly
   its size (a zero-size one is NULL or a malloc(0) pointer), so that
   AddressSanitizer reports a one-element over-read; two buffers that
   overlap share one allocation sized to their union. Tensors whose memory
   the harness cannot hold (2^32 elements, say) stand in as 8-byte
   placeholders, and are only passed where the call must fail for a reason
   that does not depend on their addresses.

   The same case also runs through a forced-scalar copy of quant.h in the
   same binary (tests/ref_scalar.c, FUZZ_SCALAR_COPY), which must agree
   byte for byte. tests/fuzz/replay.c runs the corpus without libFuzzer (on
   every build, 32-bit armhf under qemu included). Built with -DFUZZ_STATS
   it prints at exit how the calls ended, and with FUZZ_VERBOSE set in the
   environment each case and its status. */
#define QUANT_IMPLEMENTATION
#include "../../quant.h"
#include "../oracle.h"

#ifndef FUZZ_SCALAR_COPY
#define FUZZ_SCALAR_COPY 1
#endif
#if FUZZ_SCALAR_COPY
#include "../ref_scalar.h"
#endif

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CAP 1024       /* elements of the largest src/dst the harness allocates */
#define LIST_CAP 1100  /* entries of the longest scales or zero-point list or tensor */
#define N(a) (sizeof(a) / sizeof *(a))

/* ------------------------------------------------------------------ input */

typedef struct reader { const uint8_t *p; size_t n; } reader;

static unsigned rd8(reader *r)
{
    unsigned v = 0;
    if (r->n) { v = *r->p++; --r->n; }
    return v;
}
static uint32_t rd32(reader *r)
{
    uint32_t v = 0;
    unsigned k;
    for (k = 0; k < 4; ++k) v |= (uint32_t)rd8(r) << (8 * k);
    return v;
}
static uint64_t rd64(reader *r)
{
    const uint64_t lo = rd32(r);
    return lo | (uint64_t)rd32(r) << 32;
}

static const int64_t wild_dims[15] = {
    -1, -2, INT64_MIN, INT64_MAX, (int64_t)1 << 32, ((int64_t)1 << 32) + 3, ((int64_t)1 << 32) + 1,
    ((int64_t)1 << 32) - 1, (int64_t)1 << 31, ((int64_t)1 << 31) - 1, (int64_t)1 << 30, ((int64_t)1 << 30) + 1,
    (int64_t)1 << 62, INT64_MAX / 4 + 1 /* four bytes each: past INT64_MAX */, (int64_t)1 << 40
};

static int64_t pick_dim(reader *r)
{
    static const int64_t small[12] = { 2, 3, 1, 4, 5, 0, 1, 2, 3, 6, 7, 8 };
    static const int64_t mid[] = { 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 255, 256, 257, 1000, 1024 };
    const unsigned b = rd8(r);
    if (b < 216) return small[b % 12];
    if (b < 240) return mid[(b - 216) % N(mid)];
    return b == 255 ? (int64_t)rd64(r) : wild_dims[b - 240];
}

static const quant_dtype wild_dtypes[] = {
    QUANT_UNDEF, QUANT_F32, QUANT_S8, QUANT_U8, QUANT_S32, QUANT_F8_E4M3, QUANT_F8_E5M2,
    (quant_dtype)11, (quant_dtype)-1, (quant_dtype)1000 /* 7..10 (section 6) are outside this model */
};

static float bits_f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static uint32_t pick_scale_bits(reader *r)
{
    static const uint32_t good[] = {
        0x3F800000u /* 1 */, 0x3F000000u /* 0.5 */, 0x40000000u, 0x3DCCCCCDu /* 0.1 */, 0xBE800000u /* -0.25 */,
        0x40400000u /* 3 */, 0x3EAAAAABu /* 1/3 */, 0x3A83126Fu /* 0.001 */, 0x4B800000u /* 2^24 */,
        0x3C23D70Au /* 0.01 */, 0xC0A00000u /* -5 */, 0x00800000u /* 2^-126 */, 0x7F7FFFFFu /* max */,
        0x00200001u /* just above 2^-128: fl(1/s) finite */, 0x3F8CCCCDu /* 1.1 */, 0x42FE0000u /* 127 */
    };
    static const uint32_t special[] = {
        0x00000000u, 0x80000000u, 0x7FC00000u, 0xFFC00000u, 0x7F800001u /* signalling */, 0x7F800000u,
        0xFF800000u, 0x00200000u /* 2^-128: fl(1/s) infinite */, 0x80200000u, 0x00200001u, 0x80200001u,
        0x00000001u, 0x007FFFFFu, 0x001FFFFFu, 0x80000001u, 0x00400000u
    };
    const unsigned b = rd8(r);
    if (b < 144) return good[b % N(good)];
    if (b < 224) return special[b % N(special)];
    return rd32(r);
}

static int64_t pick_zp(reader *r)
{
    static const int64_t special[] = {
        1, -1, 3, 127, -128, 255, 128, -129, 256, INT32_MAX, INT32_MIN, (int64_t)INT32_MAX + 1,
        (int64_t)INT32_MIN - 1, INT64_MIN, INT64_MAX, 1 << 24, (1 << 24) + 1, 5, -7, 100
    };
    const unsigned b = rd8(r);
    if (b < 128) return 0;
    if (b < 232) return special[b % N(special)];
    if (b < 248) return (int64_t)(int32_t)rd32(r);
    return (int64_t)rd64(r);
}

static float pick_f32(reader *r, size_t i)
{
    static const uint32_t special[] = {
        0x00000000u, 0x80000000u, 0x3F000000u, 0x3FC00000u, 0x40200000u, 0xC0200000u, 0x7FC00000u, 0xFFC00000u,
        0x7FA00001u, 0x7F800000u, 0xFF800000u, 0x42FF0000u /* 127.5 */, 0x43000000u, 0xC3008000u /* -128.5 */,
        0x437F8000u /* 255.5 */, 0x43E00000u /* 448 */, 0x43E80000u /* 464 */, 0x43E80001u, 0x43F00000u /* 480 */,
        0x47600000u /* 57344 */, 0x47700000u /* 61440 */, 0x477FF000u /* 65520 */, 0x501502F9u /* 1e10 */,
        0x7F7FFFFFu, 0x00000001u, 0x3F880000u /* 1.0625 */, 0x3F880100u, 0x3B000000u, 0x3A800000u, 0x4F000000u
    };
    const unsigned b = rd8(r);
    if (!r->n && !b) return (float)((int)(i * 37 % 511) - 255) * 0.37f;  /* input used up */
    if (b < 96) return (float)(int8_t)rd8(r) * 0.5f;                       /* ties at scale 1 */
    if (b < 192) return bits_f(special[b % N(special)]);
    return bits_f(rd32(r));
}

static int32_t pick_s32(reader *r)
{
    static const int32_t special[] = {
        0, 1, -1, INT32_MAX, INT32_MIN, (1 << 24) + 1, (1 << 24) + 3, -(1 << 24) - 1, (1 << 30) + 1, 127, -128, 255
    };
    const unsigned b = rd8(r);
    if (b < 128) return (int32_t)(int8_t)rd8(r);
    if (b < 224) return special[b % N(special)];
    return (int32_t)rd32(r);
}

/* ------------------------------------------------------------------ the case */

enum { B_SRC, B_DST, B_SC, B_ZP, B_XS, B_XZ, NBUF };   /* XS, XZ: a dynamic op's ignored attrs lists */
static const char *const buf_name[NBUF] = { "src", "dst", "scales", "zps", "attrs.scales (ignored)", "attrs.zps (ignored)" };
enum { K_OWN, K_NULL, K_MIS };
enum { OV_NONE, OV_SRC, OV_SC, OV_ZP, OV_XS, OV_SAME, OV_SRC_SC };

typedef struct fcase {
    int op;                                   /* quantize, dequantize, dynamic_quantize, dynamic_dequantize */
    int src_tnull, dst_tnull, sc_tnull, zp_tnull, attrs_null;
    quant_tensor src, dst, sc, zp;            /* sc, zp: the dynamic ops' tensors */
    quant_attrs a;
    size_t bytes[NBUF];                       /* what the harness allocates for each buffer */
    int unheld[NBUF];                         /* its declared size is more than that */
    void *ptr[NBUF];
    int ov;
} fcase;

static const char *const op_name[4] = { "quantize", "dequantize", "dynamic_quantize", "dynamic_dequantize" };

static size_t esize(quant_dtype t) { return t == QUANT_F32 || t == QUANT_S32 ? 4 : 1; }
static int is_f8(quant_dtype t) { return t == QUANT_F8_E4M3 || t == QUANT_F8_E5M2; }
static int misaligned(const void *p) { return ((uintptr_t)p & 3) != 0; }

typedef struct shape_info {
    int rank_ok, neg, zero, over, known;      /* known: a valid shape, count meaningful */
    uint64_t count;
} shape_info;

/* SPEC section 4: a negative dim, or an element or byte count past SIZE_MAX
   or INT64_MAX, is an invalid shape; a zero dim makes a valid empty one. */
static shape_info shape_of(const quant_tensor *t, size_t es)
{
    const uint64_t limit = (uint64_t)SIZE_MAX < (uint64_t)INT64_MAX ? (uint64_t)SIZE_MAX : (uint64_t)INT64_MAX;
    shape_info s;
    int i, n;
    memset(&s, 0, sizeof s);
    s.rank_ok = t->rank >= 0 && t->rank <= QUANT_MAX_RANK;
    n = t->rank < 0 ? 0 : t->rank > QUANT_MAX_RANK ? QUANT_MAX_RANK : t->rank;
    for (i = 0; i < n; ++i) {
        s.neg |= t->dims[i] < 0;
        s.zero |= t->dims[i] == 0;
    }
    s.count = s.zero ? 0 : 1;
    for (i = 0; i < n && !s.zero && !s.neg; ++i) {
        const uint64_t d = (uint64_t)t->dims[i];
        if (s.count > limit / d) { s.over = 1; break; }
        s.count *= d;
    }
    if (!s.neg && !s.over && s.count > limit / es) s.over = 1;
    s.known = s.rank_ok && !s.neg && !s.over;
    return s;
}

static void dump_tensor(const char *name, const quant_tensor *t, int tnull)
{
    int i;
    if (tnull) { fprintf(stderr, "  %s: NULL tensor\n", name); return; }
    fprintf(stderr, "  %s: dtype %d rank %d dims {", name, (int)t->dtype, t->rank);
    for (i = 0; i < QUANT_MAX_RANK; ++i) fprintf(stderr, "%s%lld", i ? "," : "", (long long)t->dims[i]);
    fprintf(stderr, "} data %p\n", t->data);
}

static void dump_case(const fcase *c)
{
    const int dyn = c->op >= 2;
    size_t i;
    fprintf(stderr, "fuzz_ops: %s, backend %s, %u-bit size_t\n", op_name[c->op], quant_backend(),
            (unsigned)(sizeof(size_t) * 8));
    dump_tensor("src", &c->src, c->src_tnull);
    dump_tensor("dst", &c->dst, c->dst_tnull);
    if (dyn) {
        dump_tensor("scales", &c->sc, c->sc_tnull);
        dump_tensor("zps", &c->zp, c->zp_tnull);
    }
    if (c->attrs_null) fprintf(stderr, "  attrs: NULL\n");
    else {
        fprintf(stderr, "  attrs: qtype %d axis %lld rounding %d f8_overflow %d scales %p n_scales %lu zps %p n_zps %lu\n",
                (int)c->a.qtype, (long long)c->a.axis, (int)c->a.rounding, (int)c->a.f8_overflow,
                (const void *)c->a.scales, (unsigned long)c->a.n_scales, (const void *)c->a.zps,
                (unsigned long)c->a.n_zps);
        if (!dyn && c->a.scales)
            for (i = 0; i < c->a.n_scales && i < 8; ++i)
                fprintf(stderr, "    scales[%lu] = %a (0x%08lx)\n", (unsigned long)i, (double)c->a.scales[i],
                        (unsigned long)f_bits(c->a.scales[i]));
        if (!dyn && c->a.zps)
            for (i = 0; i < c->a.n_zps && i < 8; ++i)
                fprintf(stderr, "    zps[%lu] = %lld\n", (unsigned long)i, (long long)c->a.zps[i]);
    }
    for (i = 0; i < NBUF; ++i)
        if (c->ptr[i] || c->bytes[i])
            fprintf(stderr, "  buffer %s: %p, %lu bytes allocated%s\n", buf_name[i], c->ptr[i],
                    (unsigned long)c->bytes[i], c->unheld[i] ? " (placeholder)" : "");
    fprintf(stderr, "  overlap mode %d\n", c->ov);
}

static void fail_case(const fcase *c, const char *what)
{
    fprintf(stderr, "fuzz_ops: FAILED: %s\n", what);
    dump_case(c);
    abort();
}

/* ------------------------------------------------------------------ status model
   From the README's "Bad input" table and SPEC section 4, row by row.
   `set` collects the statuses of every row that applies (when several
   apply, any of them is a right answer); `fail` says whether some row
   certainly applies, so that QUANT_OK would be wrong. A row whose
   application is arguable (an invalid shape makes a size unknowable) adds
   its status without setting `fail`. */

typedef struct verdict { unsigned set; int fail; } verdict;

static void row(verdict *v, quant_status s, int definite)
{
    v->set |= 1u << (unsigned)s;
    v->fail |= definite;
}

static int bad_scale(float s) { return isnan(s) || isinf(s) || s == 0.0f || isinf(o_recip(s)); }

static int srcset(int op, quant_dtype t)
{
    if (op % 2 == 0) return t == QUANT_F32;
    return t == QUANT_S8 || t == QUANT_U8 || t == QUANT_S32 || is_f8(t);
}
static int dstset(int op, quant_dtype t)
{
    if (op % 2 == 0) return t == QUANT_S8 || t == QUANT_U8 || is_f8(t);
    return t == QUANT_F32;
}

static int overlap(const void *a, uint64_t na, const void *b, uint64_t nb)
{
    const uint64_t pa = (uint64_t)(uintptr_t)a, pb = (uint64_t)(uintptr_t)b;
    if (!a || !b || !na || !nb) return 0;
    return pa < pb + nb && pb < pa + na;
}

/* a data pointer: NULL where elements exist, alignment of f32/s32 data */
static void data_rows(verdict *v, const quant_tensor *t, const shape_info *s, int wide, int type_ok)
{
    if (!t->data) {
        if (s->known && s->count > 0) row(v, QUANT_ERR_NULL, 1);
        else if (!s->known) row(v, QUANT_ERR_NULL, 0);
    } else if (misaligned(t->data)) {
        if (wide) row(v, QUANT_ERR_ALIGN, s->known && s->count > 0);
        else if (!type_ok) row(v, QUANT_ERR_ALIGN, 0);
    }
}

/* per tensor: rank 0, or 1-D of 1; per channel: 1-D of C (scales), of 1 or C (zps) */
static void count_rows(verdict *v, const quant_tensor *t, const shape_info *s, quant_status st, int qt_ok,
                       int per_ch, int c_ok, int64_t C, int one_ok)
{
    int64_t n;
    if (!s->rank_ok) { row(v, st, 1); row(v, QUANT_ERR_RANK, 0); return; }
    if (t->rank > 1) { row(v, st, 1); if (s->neg || s->over) row(v, QUANT_ERR_SHAPE, 0); return; }
    if (s->neg) { row(v, st, 1); row(v, QUANT_ERR_SHAPE, 0); return; }
    if (s->over) { row(v, st, 1); row(v, QUANT_ERR_SHAPE, 1); return; }
    n = t->rank == 0 ? 1 : t->dims[0];
    if (!qt_ok) row(v, st, 0);
    else if (!per_ch) { if (n != 1) row(v, st, 1); }
    else if (t->rank == 0) row(v, st, 1);
    else if (!c_ok) row(v, st, 0);
    else if (n != C && !(one_ok && n == 1)) row(v, st, 1);
}

static verdict model(const fcase *c)
{
    verdict v = { 0, 0 };
    const int dyn = c->op >= 2, quantize = c->op % 2 == 0;
    const quant_attrs *A = c->attrs_null ? NULL : &c->a;
    const quant_tensor *src = c->src_tnull ? NULL : &c->src, *dst = c->dst_tnull ? NULL : &c->dst;
    const quant_tensor *sc = dyn && !c->sc_tnull ? &c->sc : NULL, *zp = dyn && !c->zp_tnull ? &c->zp : NULL;
    const quant_tensor *qside = quantize ? dst : src;
    shape_info ss, ds, scs, zs;
    long long qtype = A ? (long long)A->qtype : 0, rounding = A ? (long long)A->rounding : 0;
    long long f8o = A ? (long long)A->f8_overflow : 0;
    int64_t axis = A ? A->axis : 1, C = 0;
    int qt_ok, per_ch, c_ok = 0, f8 = -1;   /* f8: 1 an f8 type, 0 an integer one, -1 unknown */
    size_t i;

    memset(&ss, 0, sizeof ss);
    ds = scs = zs = ss;
    /* NULL structs */
    if (!src || !dst) row(&v, QUANT_ERR_NULL, 1);
    if (!dyn && !A) row(&v, QUANT_ERR_NULL, 1);
    if (dyn && !sc) row(&v, QUANT_ERR_NULL, 1);
    /* attribute values, for every op */
    if (rounding < 0 || rounding > 3) row(&v, QUANT_ERR_ATTR, 1);
    if (f8o < 0 || f8o > 1) row(&v, QUANT_ERR_ATTR, 1);
    qt_ok = qtype == 0 || qtype == 1;
    if (!qt_ok) row(&v, QUANT_ERR_QTYPE, 1);
    per_ch = qtype == 1;
    /* dtypes */
    if (src && !srcset(c->op, src->dtype)) row(&v, QUANT_ERR_DTYPE, 1);
    if (dst && !dstset(c->op, dst->dtype)) row(&v, QUANT_ERR_DTYPE, 1);
    if (qside && (quantize ? dstset(c->op, qside->dtype) : srcset(c->op, qside->dtype))) f8 = is_f8(qside->dtype);
    /* ranks and shapes */
    if (src) {
        ss = shape_of(src, esize(src->dtype));
        if (!ss.rank_ok) row(&v, QUANT_ERR_RANK, 1);
        else if (ss.neg || ss.over) row(&v, QUANT_ERR_SHAPE, 1);
        else if (!srcset(c->op, src->dtype) && shape_of(src, 4).over) row(&v, QUANT_ERR_SHAPE, 0);
        data_rows(&v, src, &ss, src->dtype == QUANT_F32 || src->dtype == QUANT_S32, srcset(c->op, src->dtype));
    }
    if (dst) {
        ds = shape_of(dst, esize(dst->dtype));
        if (!ds.rank_ok) row(&v, QUANT_ERR_RANK, 1);
        else if (ds.neg || ds.over) row(&v, QUANT_ERR_SHAPE, 1);
        else if (!dstset(c->op, dst->dtype) && shape_of(dst, 4).over) row(&v, QUANT_ERR_SHAPE, 0);
        data_rows(&v, dst, &ds, dst->dtype == QUANT_F32 || dst->dtype == QUANT_S32, dstset(c->op, dst->dtype));
    }
    if (src && dst) {
        if (src->rank != dst->rank) row(&v, QUANT_ERR_SHAPE, 1);
        else
            for (i = 0; ss.rank_ok && i < (size_t)src->rank; ++i)
                if (src->dims[i] != dst->dims[i]) row(&v, QUANT_ERR_SHAPE, 1);
    }
    /* the channel axis */
    if (qt_ok && per_ch && src) {
        if (!ss.rank_ok) row(&v, QUANT_ERR_AXIS, 0);
        else if (src->rank == 0 || axis < -(int64_t)src->rank || axis >= (int64_t)src->rank)
            row(&v, QUANT_ERR_AXIS, 1);
        else {
            c_ok = 1;
            C = src->dims[axis < 0 ? axis + src->rank : axis];
        }
    }
    if (!dyn && A) {
        /* static lists */
        if (!A->scales) row(&v, QUANT_ERR_NULL, 1);
        if (!qt_ok || (per_ch && !c_ok)) row(&v, QUANT_ERR_SCALES, 0);
        else if (!per_ch ? A->n_scales != 1 : (C < 0 || (uint64_t)A->n_scales != (uint64_t)C))
            row(&v, QUANT_ERR_SCALES, 1);
        for (i = 0; A->scales && i < A->n_scales; ++i)
            if (bad_scale(A->scales[i])) row(&v, QUANT_ERR_SCALE_VALUE, 1);
        if (!A->zps) {
            if (A->n_zps > 0) { row(&v, QUANT_ERR_NULL, 1); row(&v, QUANT_ERR_ZPS, 0); }
        } else {
            const uint64_t n = A->n_zps;
            if (n == 0) row(&v, QUANT_ERR_ZPS, 1);
            if (!qt_ok || (per_ch && !c_ok)) row(&v, QUANT_ERR_ZPS, 0);
            else if (!per_ch ? n != 1 : (n != 1 && (C < 0 || n != (uint64_t)C))) row(&v, QUANT_ERR_ZPS, 1);
            for (i = 0; i < A->n_zps; ++i) {
                const int64_t z = A->zps[i];
                if (z < INT32_MIN || z > INT32_MAX) row(&v, QUANT_ERR_ZP_VALUE, 1);
                if (z != 0 && f8 != 0) row(&v, QUANT_ERR_ZPS, f8 == 1);
            }
        }
    }
    if (sc) {
        scs = shape_of(sc, esize(sc->dtype));
        if (sc->dtype != QUANT_F32) row(&v, QUANT_ERR_SCALES, 1);
        count_rows(&v, sc, &scs, QUANT_ERR_SCALES, qt_ok, per_ch, c_ok, C, 0);
        data_rows(&v, sc, &scs, sc->dtype == QUANT_F32 || sc->dtype == QUANT_S32, sc->dtype == QUANT_F32);
        if (sc->data && sc->dtype == QUANT_F32 && scs.known && scs.count * 4 <= c->bytes[B_SC])
            for (i = 0; i < scs.count; ++i) {
                float s;
                memcpy(&s, (const uint8_t *)sc->data + 4 * i, 4);
                if (bad_scale(s)) row(&v, QUANT_ERR_SCALE_VALUE, 1);
            }
        if (sc->dtype != QUANT_F32) row(&v, QUANT_ERR_SCALE_VALUE, 0);
    }
    if (zp) {
        const int zt_ok = zp->dtype == QUANT_S8 || zp->dtype == QUANT_U8 || zp->dtype == QUANT_S32;
        zs = shape_of(zp, esize(zp->dtype));
        if (!zt_ok) row(&v, QUANT_ERR_ZPS, 1);
        count_rows(&v, zp, &zs, QUANT_ERR_ZPS, qt_ok, per_ch, c_ok, C, 1);
        data_rows(&v, zp, &zs, zp->dtype == QUANT_S32 || zp->dtype == QUANT_F32, zt_ok);
        if (zp->data && zt_ok && zs.known && zs.count * esize(zp->dtype) <= c->bytes[B_ZP])
            for (i = 0; i < zs.count; ++i) {
                int64_t z;
                if (zp->dtype == QUANT_S32) { int32_t w; memcpy(&w, (const uint8_t *)zp->data + 4 * i, 4); z = w; }
                else if (zp->dtype == QUANT_S8) z = ((const int8_t *)zp->data)[i];
                else z = ((const uint8_t *)zp->data)[i];
                if (z != 0 && f8 != 0) row(&v, QUANT_ERR_ZPS, f8 == 1);
            }
    }
    /* dst overlapping what the op reads, with the sizes as declared (the
       harness's allocation where a declared size is unknowable). Only
       memory that exists can overlap for certain: a tensor declared larger
       than the harness could hold (a placeholder) may claim addresses past
       the end of the address space, where no overlap test has to work. */
    if (dst && dst->data) {
        const uint64_t dn = ds.known ? ds.count * esize(dst->dtype) : c->bytes[B_DST];
        const int dheld = ds.known && !c->unheld[B_DST];
        if (src && src->data) {
            const uint64_t sn = ss.known ? ss.count * esize(src->dtype) : c->bytes[B_SRC];
            if (overlap(dst->data, dn, src->data, sn)) row(&v, QUANT_ERR_OVERLAP, dheld && ss.known && !c->unheld[B_SRC]);
        }
        if (!dyn && A) {
            if (overlap(dst->data, dn, A->scales, (uint64_t)A->n_scales * 4)) row(&v, QUANT_ERR_OVERLAP, dheld);
            if (overlap(dst->data, dn, A->zps, (uint64_t)A->n_zps * 8)) row(&v, QUANT_ERR_OVERLAP, dheld);
        }
        if (sc && overlap(dst->data, dn, sc->data, scs.known ? scs.count * esize(sc->dtype) : c->bytes[B_SC]))
            row(&v, QUANT_ERR_OVERLAP, dheld && scs.known && !c->unheld[B_SC]);
        if (zp && overlap(dst->data, dn, zp->data, zs.known ? zs.count * esize(zp->dtype) : c->bytes[B_ZP]))
            row(&v, QUANT_ERR_OVERLAP, dheld && zs.known && !c->unheld[B_ZP]);
    }
    return v;
}

/* ------------------------------------------------------------------ the oracle */

/* The expected dst bytes of a successful call, from the memory as it was
   before the call (src_mem, sc_mem, zp_mem point into the snapshots). */
static void oracle(const fcase *c, const uint8_t *src_mem, const uint8_t *sc_mem, const uint8_t *zp_mem,
                   uint8_t *expect, uint64_t n)
{
    const int dyn = c->op >= 2, quantize = c->op % 2 == 0;
    const quant_attrs *A = c->attrs_null ? NULL : &c->a;
    const int per_ch = A && A->qtype == QUANT_PER_CHANNEL;
    const int rounding = A ? (int)A->rounding : 0, inf_nan = A ? A->f8_overflow == QUANT_F8_INF_NAN : 0;
    const quant_dtype qt = quantize ? c->dst.dtype : c->src.dtype;
    const int fmt = qt == QUANT_F8_E5M2;
    uint64_t C = 1, inner = 1, i;
    size_t n_zps = 0;
    int k;

    if (per_ch) {
        const int ax = (int)(A->axis < 0 ? A->axis + c->src.rank : A->axis);
        C = (uint64_t)c->src.dims[ax];
        for (k = ax + 1; k < c->src.rank; ++k) inner *= (uint64_t)c->src.dims[k];
    }
    if (!dyn) n_zps = A->zps ? A->n_zps : 0;
    else if (!c->zp_tnull) n_zps = c->zp.rank == 0 ? 1 : (size_t)c->zp.dims[0];
    for (i = 0; i < n; ++i) {
        const uint64_t ch = per_ch ? (i / inner) % C : 0;
        const size_t zi = n_zps == 1 ? 0 : (size_t)ch;
        float s;
        int64_t z = 0;
        memcpy(&s, sc_mem + 4 * ch, 4);
        if (n_zps) {
            if (!dyn) memcpy(&z, zp_mem + 8 * zi, 8);
            else if (c->zp.dtype == QUANT_S32) { int32_t w; memcpy(&w, zp_mem + 4 * zi, 4); z = w; }
            else if (c->zp.dtype == QUANT_S8) z = (int8_t)zp_mem[zi];
            else z = zp_mem[zi];
        }
        if (quantize) {
            float x;
            memcpy(&x, src_mem + 4 * i, 4);
            if (is_f8(qt)) expect[i] = o_quant_f8(x, s, rounding, fmt, inf_nan);
            else if (qt == QUANT_S8) expect[i] = (uint8_t)(int8_t)o_quant_int(x, s, z, rounding, -128, 127);
            else expect[i] = (uint8_t)o_quant_int(x, s, z, rounding, 0, 255);
        } else {
            float y;
            if (is_f8(qt)) y = o_dequant_f8_r(src_mem[i], s, fmt, rounding);
            else if (qt == QUANT_S32) {
                int32_t q;
                memcpy(&q, src_mem + 4 * i, 4);
                y = o_dequant_int(q, s, z);
            } else y = o_dequant_int(qt == QUANT_S8 ? (int64_t)(int8_t)src_mem[i] : (int64_t)src_mem[i], s, z);
            memcpy(expect + 4 * i, &y, 4);
        }
    }
}

/* ------------------------------------------------------------------ memory */

typedef struct mem {
    uint8_t *blk[NBUF];       /* one malloc each; NULL when unused */
    size_t size[NBUF];
    uint8_t *snap[NBUF], *post[NBUF];
    int buf_blk[NBUF];        /* the block a buffer lives in, -1 for none */
    size_t buf_off[NBUF];
} mem;

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p && n) { fprintf(stderr, "fuzz_ops: out of memory\n"); abort(); }
    return p;
}

static void mem_free(mem *m)
{
    int b;
    for (b = 0; b < NBUF; ++b) {
        free(m->blk[b]);
        free(m->snap[b]);
        free(m->post[b]);
    }
}

/* ------------------------------------------------------------------ choices */

static int64_t pick_count(reader *r, int64_t right, int c_ok, int64_t C, int tensor)
{
    const unsigned b = rd8(r);
    int64_t n;
    if (b < 176) return right;
    if (b < 192) return 1;
    if (b < 200) return 0;
    if (b < 212) {                    /* the channel count narrowed to 32 bits */
        n = c_ok ? (int64_t)(uint32_t)(uint64_t)C : right;
        return n <= LIST_CAP ? n : right;
    }
    if (b < 224) return right + 1;
    if (b < 236) return right > 0 ? right - 1 : 2;
    if (b < 250 || !tensor) return (int64_t)(rd8(r) % 70);
    return wild_dims[rd8(r) % N(wild_dims)];
}

/* a dynamic op's scales or zps tensor of n entries */
static void pick_aux_shape(reader *r, quant_tensor *t, int64_t n, int per_tensor)
{
    const unsigned b = rd8(r);
    int k;
    for (k = 0; k < QUANT_MAX_RANK; ++k) t->dims[k] = (b & 1) ? -1 - k : 0;   /* past the rank: ignored */
    t->rank = 1;
    t->dims[0] = n;
    if (b < 64 && per_tensor && n == 1) t->rank = 0;
    else if (b >= 200 && b < 216) {
        t->rank = 2;
        t->dims[0] = (b & 2) ? n : 1;
        t->dims[1] = (b & 2) ? 1 : n;
    } else if (b >= 216 && b < 226) t->rank = 0;
    else if (b >= 226 && b < 236) t->rank = (b & 1) ? -1 : 13;
    else if (b >= 236 && b < 246) t->rank = (int)(b % 4) + 2;
}

/* bytes the harness gives a tensor: its declared size when that is valid
   and small enough; 8 bytes standing in for one whose size is invalid;
   returns 0 when the size is valid but too large to hold */
static int tensor_bytes(const quant_tensor *t, uint64_t cap, size_t *bytes, int *unheld)
{
    const shape_info s = shape_of(t, esize(t->dtype));
    *unheld = 0;
    if (s.known && s.count <= cap) { *bytes = (size_t)(s.count * esize(t->dtype)); return 1; }
    *bytes = 8;
    *unheld = 1;
    return !s.known;
}

/* ------------------------------------------------------------------ statistics
   -DFUZZ_STATS: at exit, how many calls of each op ended in each status,
   how many succeeded with elements to compare, and how many were skipped. */
#ifdef FUZZ_STATS
static unsigned long stat_status[4][16], stat_elems[4], stat_skipped, stat_expected_fail;
static void stats_print(void)
{
    int o, s;
    fprintf(stderr, "fuzz_ops stats: skipped %lu, model said fail %lu\n", stat_skipped, stat_expected_fail);
    for (o = 0; o < 4; ++o) {
        fprintf(stderr, "  %-18s compared %-8lu", op_name[o], stat_elems[o]);
        for (s = 0; s < 16; ++s) if (stat_status[o][s]) fprintf(stderr, " %d:%lu", s, stat_status[o][s]);
        fputc('\n', stderr);
    }
}
static int stat_once;
#define STAT(x) do { if (!stat_once) { stat_once = 1; atexit(stats_print); } x; } while (0)
#else
#define STAT(x) do { } while (0)
#endif

/* ------------------------------------------------------------------ the entry */

static quant_status call_op(int op, int lib, const quant_tensor *src, quant_tensor *dst, const quant_tensor *sc,
                            const quant_tensor *zp, const quant_attrs *a)
{
#if FUZZ_SCALAR_COPY
    if (!lib) {
        switch (op) {
        case 0: return ref_quantize(src, dst, a);
        case 1: return ref_dequantize(src, dst, a);
        case 2: return ref_dynamic_quantize(src, sc, zp, dst, a);
        default: return ref_dynamic_dequantize(src, sc, zp, dst, a);
        }
    }
#else
    (void)lib;
#endif
    switch (op) {
    case 0: return quant_quantize(src, dst, a);
    case 1: return quant_dequantize(src, dst, a);
    case 2: return quant_dynamic_quantize(src, sc, zp, dst, a);
    default: return quant_dynamic_dequantize(src, sc, zp, dst, a);
    }
}

/* The row kernels (no validation): exact-size buffers, NULL with n = 0,
   and the oracle's values (exact rounding, f8 saturate) where the scale is
   valid; with an invalid one only that exactly n outputs are written. */
static void row_kernel_case(reader *r)
{
    const unsigned k = rd8(r) % 8, nb = rd8(r);
    const int quantize = k == 0 || k == 1 || k == 4 || k == 5;
    const size_t n = nb < 64 ? 0 : nb < 192 ? nb % 40 : (size_t)(nb % 8) * 64 + rd8(r) % 64;
    const int null_ptrs = n == 0 && (rd8(r) & 1);
    const float s = bits_f(pick_scale_bits(r));
    const int32_t z = (k < 4) ? (int32_t)pick_zp(r) : 0;
    const size_t sb = n * (quantize ? 4 : 1), db = n * (quantize ? 1 : 4);
    uint8_t *src = null_ptrs ? NULL : (uint8_t *)malloc(sb), *dst = null_ptrs ? NULL : (uint8_t *)malloc(db);
    uint8_t *keep = (uint8_t *)xmalloc(sb ? sb : 1);
    size_t i;
    if (!null_ptrs && (!src || !dst)) { fprintf(stderr, "fuzz_ops: out of memory\n"); abort(); }
    for (i = 0; i < n; ++i) {
        if (quantize) { const float x = pick_f32(r, i); memcpy(src + 4 * i, &x, 4); }
        else src[i] = r->n ? (uint8_t)rd8(r) : (uint8_t)(i * 37 + 11);
    }
    for (i = 0; i < db; ++i) dst[i] = (uint8_t)(0x5A ^ i);
    if (sb) memcpy(keep, src, sb);
    switch (k) {
    case 0: quant_f32_to_s8((const float *)(void *)src, (int8_t *)dst, n, s, z); break;
    case 1: quant_f32_to_u8((const float *)(void *)src, dst, n, s, z); break;
    case 2: quant_s8_to_f32((const int8_t *)src, (float *)(void *)dst, n, s, z); break;
    case 3: quant_u8_to_f32(src, (float *)(void *)dst, n, s, z); break;
    case 4: quant_f32_to_f8_e4m3((const float *)(void *)src, dst, n, s); break;
    case 5: quant_f32_to_f8_e5m2((const float *)(void *)src, dst, n, s); break;
    case 6: quant_f8_e4m3_to_f32(src, (float *)(void *)dst, n, s); break;
    default: quant_f8_e5m2_to_f32(src, (float *)(void *)dst, n, s); break;
    }
    if (sb && memcmp(keep, src, sb) != 0) {
        fprintf(stderr, "fuzz_ops: FAILED: row kernel %u (n %lu) changed its src\n", k, (unsigned long)n);
        abort();
    }
    for (i = 0; i < n && !bad_scale(s); ++i) {
        uint32_t want = 0, got = 0;
        if (quantize) {
            float x;
            memcpy(&x, src + 4 * i, 4);
            want = k == 0 ? (uint8_t)(int8_t)o_quant_int(x, s, z, O_EXACT, -128, 127)
                 : k == 1 ? (uint8_t)o_quant_int(x, s, z, O_EXACT, 0, 255)
                          : o_quant_f8(x, s, O_EXACT, k == 5, 0);
            got = dst[i];
        } else {
            const float y = k == 2 ? o_dequant_int((int8_t)src[i], s, z) : k == 3 ? o_dequant_int(src[i], s, z)
                                                                           : o_dequant_f8(src[i], s, k == 7);
            want = f_bits(y);
            memcpy(&got, dst + 4 * i, 4);
        }
        if (want != got) {
            fprintf(stderr, "fuzz_ops: FAILED: row kernel %u, n %lu, scale 0x%08lx, zp %ld: element %lu (src bytes "
                    "%02x...) oracle 0x%08lx, library 0x%08lx\n", k, (unsigned long)n, (unsigned long)f_bits(s),
                    (long)z, (unsigned long)i, src[quantize ? 4 * i : i], (unsigned long)want, (unsigned long)got);
            abort();
        }
    }
    free(src);
    free(dst);
    free(keep);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = { data, size };
    fcase c;
    mem m;
    int kind[NBUF], zero_null[NBUF];
    unsigned mis[NBUF];
    int dyn, quantize, k, b, per_ch_gen, c_ok_gen = 0, zl_null = 0;
    int64_t C_gen = 0, right, n_sc = 0, n_zp = 0;
    unsigned ov_delta;
    quant_tensor *t_src, *t_dst, *t_sc, *t_zp, keep_t[4];
    quant_attrs *t_a, keep_a;
    verdict v;
    quant_status st;
    uint64_t n_out = 0;

    memset(&c, 0, sizeof c);
    memset(&m, 0, sizeof m);
    c.op = (int)rd8(&r);
    if (c.op >= 252) { row_kernel_case(&r); return 0; }
    c.op %= 4;
    dyn = c.op >= 2;
    quantize = c.op % 2 == 0;
    {
        const unsigned f = rd8(&r);
        c.attrs_null = f >= 236 && f < 252;
        c.sc_tnull = f == 252 || f == 253;
        c.dst_tnull = f == 254;
        c.src_tnull = f == 255;
    }
    /* src and dst shapes and types */
    c.src.rank = (int)((rd8(&r) + 3) % 15) - 1;                        /* -1 .. 13 */
    for (k = 0; k < QUANT_MAX_RANK; ++k) c.src.dims[k] = pick_dim(&r);
    c.dst = c.src;
    {
        static const quant_dtype qd[] = { QUANT_S8, QUANT_U8, QUANT_F8_E4M3, QUANT_F8_E5M2 };
        static const quant_dtype dqs[] = { QUANT_S8, QUANT_U8, QUANT_S32, QUANT_F8_E4M3, QUANT_F8_E5M2 };
        const unsigned t = rd8(&r), w = rd8(&r);
        const quant_dtype typ = quantize ? qd[t % 4] : dqs[t % 5];
        c.src.dtype = quantize ? QUANT_F32 : typ;
        c.dst.dtype = quantize ? typ : QUANT_F32;
        if (w >= 232) {
            const quant_dtype x = wild_dtypes[rd8(&r) % N(wild_dtypes)];
            if (w & 1) c.src.dtype = x; else c.dst.dtype = x;
        }
    }
    {
        const unsigned b2 = rd8(&r);
        if (b2 >= 236 && b2 < 244) {                                  /* dims differ */
            int64_t *d = &c.dst.dims[rd8(&r) % QUANT_MAX_RANK];
            const unsigned how = rd8(&r) % 3;
            *d = how == 0 ? (*d == INT64_MAX ? 0 : *d + 1) : how == 1 ? 0 : -1;
        } else if (b2 >= 244 && b2 < 250) c.dst.rank = (int)(rd8(&r) % 15) - 1;
        else if (b2 >= 250) {                                          /* dims past the rank: ignored */
            for (k = c.dst.rank < 0 ? 0 : c.dst.rank; k < QUANT_MAX_RANK; ++k) c.dst.dims[k] = -3;
        }
    }
    /* attributes */
    c.a = quant_attrs_default();
    {
        const unsigned q = rd8(&r), ax = rd8(&r), ro = rd8(&r), fo = rd8(&r);
        static const int wild_q[] = { 4, -1, 3, 1000 }; /* per_group (2) is outside this model */
        static const int64_t wild_axis[] = { INT64_MIN, INT64_MAX, 12, -12, 13, -13, ((int64_t)1 << 32) + 1,
                                             -((int64_t)1 << 32), (int64_t)1 << 31 };
        static const int wild_r[] = { 4, -1, 0x7FFFFFFF, 5 };
        static const int wild_f[] = { 2, -1, 0x7FFFFFFF };
        c.a.qtype = (quant_qtype)(q < 110 ? 0 : q < 236 ? 1 : wild_q[q % 4]);
        c.a.axis = ax < 216 ? (int64_t)(ax % 27) - 13 : wild_axis[ax % N(wild_axis)];
        c.a.rounding = (quant_rounding)(ro < 240 ? (int)(ro % 4) : wild_r[ro % 4]);
        c.a.f8_overflow = (quant_f8_overflow)(fo < 240 ? (int)(fo % 2) : wild_f[fo % 3]);
    }
    /* the channel count the lists are sized from */
    per_ch_gen = !c.attrs_null && c.a.qtype == QUANT_PER_CHANNEL;
    if (per_ch_gen && c.src.rank > 0 && c.src.rank <= QUANT_MAX_RANK && c.a.axis >= -c.src.rank &&
        c.a.axis < c.src.rank) {
        c_ok_gen = 1;
        C_gen = c.src.dims[c.a.axis < 0 ? c.a.axis + c.src.rank : c.a.axis];
    }
    right = per_ch_gen && c_ok_gen && C_gen >= 0 && C_gen <= LIST_CAP ? C_gen : 1;

    /* scales and zero points: counts and shapes */
    n_sc = pick_count(&r, right, c_ok_gen, C_gen, dyn);
    {
        const unsigned zm = rd8(&r);
        const int64_t zright = zm >= 150 && zm < 176 ? 1 : right;
        if (!dyn) {
            zl_null = zm < 100 || (zm >= 210 && zm < 220);
            if (zm < 100) n_zp = 0;                                       /* no list */
            else if (zm < 200) n_zp = zright;
            else if (zm < 210) n_zp = 0;                                  /* a list with n_zps 0 */
            else if (zm < 220) n_zp = -1;                                 /* NULL with n_zps > 0 */
            else n_zp = pick_count(&r, zright, c_ok_gen, C_gen, 0);
        } else {
            c.zp_tnull = zm < 90;
            n_zp = zm < 210 ? zright : pick_count(&r, zright, c_ok_gen, C_gen, 1);
        }
    }
    if (dyn) {
        const unsigned ds = rd8(&r), dz = rd8(&r);
        pick_aux_shape(&r, &c.sc, n_sc, !per_ch_gen);
        pick_aux_shape(&r, &c.zp, n_zp, !per_ch_gen);
        c.sc.dtype = ds < 240 ? QUANT_F32 : wild_dtypes[ds % N(wild_dtypes)];
        c.zp.dtype = dz < 231 ? (dz % 3 == 0 ? QUANT_S8 : dz % 3 == 1 ? QUANT_U8 : QUANT_S32)
                              : wild_dtypes[dz % N(wild_dtypes)];
    }
    /* sizes: an unholdable valid tensor is passed only where the call must
       fail for another reason; scales and zps tensors never */
    {
        int ok = 1;
        if (!tensor_bytes(&c.src, CAP, &c.bytes[B_SRC], &c.unheld[B_SRC])) c.unheld[B_SRC] = 2;
        if (!tensor_bytes(&c.dst, CAP, &c.bytes[B_DST], &c.unheld[B_DST])) c.unheld[B_DST] = 2;
        if (dyn) {
            ok &= tensor_bytes(&c.sc, LIST_CAP, &c.bytes[B_SC], &c.unheld[B_SC]);
            ok &= tensor_bytes(&c.zp, LIST_CAP, &c.bytes[B_ZP], &c.unheld[B_ZP]);
            if (c.zp_tnull) c.bytes[B_ZP] = 0, c.unheld[B_ZP] = 0;
            if (c.sc_tnull) c.bytes[B_SC] = 0, c.unheld[B_SC] = 0;
        } else {
            c.bytes[B_SC] = (size_t)n_sc * 4;
            c.bytes[B_ZP] = n_zp > 0 ? (size_t)n_zp * 8 : 0;
        }
        if (!ok) { STAT(++stat_skipped); return 0; }
    }
    /* the ignored static lists of a dynamic op */
    if (dyn) {
        const unsigned xs = rd8(&r), xz = rd8(&r);
        c.bytes[B_XS] = (xs & 1) ? 0 : (size_t)(xs >> 1) % 4 * 4;
        c.a.n_scales = (xs & 1) ? (size_t)(xs >> 1) : c.bytes[B_XS] / 4;
        c.bytes[B_XZ] = (xz & 1) ? 0 : (size_t)(xz >> 1) % 4 * 8;
        c.a.n_zps = (xz & 1) ? (size_t)(xz >> 1) : c.bytes[B_XZ] / 8;
    } else {
        c.a.n_scales = (size_t)n_sc;
        c.a.n_zps = n_zp < 0 ? (size_t)(1 + rd8(&r) % 4) : (size_t)n_zp;
    }

    /* pointers: own, NULL or misaligned; dst overlapping something */
    for (b = 0; b < NBUF; ++b) {
        const unsigned p = b < 4 ? rd8(&r) : 0;
        kind[b] = p < 214 ? K_OWN : p < 230 ? K_NULL : K_MIS;
        mis[b] = kind[b] == K_MIS ? 1 + p % 3 : 0;
        zero_null[b] = p & 1;
    }
    if (!dyn) {
        /* static lists: NULL or not as chosen above, never misaligned */
        kind[B_SC] = kind[B_SC] == K_NULL ? K_NULL : K_OWN;
        kind[B_ZP] = zl_null ? K_NULL : K_OWN;
        zero_null[B_SC] = 0;
        zero_null[B_ZP] = 0;                                          /* a list with n_zps 0: malloc(0) */
        mis[B_SC] = mis[B_ZP] = 0;
        kind[B_XS] = kind[B_XZ] = K_NULL;
    } else {
        kind[B_XS] = c.a.n_scales && !c.bytes[B_XS] ? K_NULL : K_OWN;
        kind[B_XZ] = c.a.n_zps && !c.bytes[B_XZ] ? K_NULL : K_OWN;
        if (c.sc_tnull) kind[B_SC] = K_NULL;
        if (c.zp_tnull) kind[B_ZP] = K_NULL;
    }
    {
        const unsigned o = rd8(&r);
        ov_delta = rd8(&r) | rd8(&r) << 8;
        c.ov = o < 196 ? OV_NONE : o < 208 ? OV_SRC : o < 218 ? OV_SC : o < 228 ? OV_ZP
             : o < 236 ? (dyn ? OV_XS : OV_SC) : o < 246 ? OV_SAME : OV_SRC_SC;
    }

    /* allocate */
    for (b = 0; b < NBUF; ++b) m.buf_blk[b] = -1;
    {
        int pa = -1, pb = -1;   /* the pair sharing one block: pa first in it */
        switch (c.ov) {
        case OV_SRC: case OV_SAME: pa = B_SRC; pb = B_DST; break;
        case OV_SC: pa = B_SC; pb = B_DST; break;
        case OV_ZP: pa = B_ZP; pb = B_DST; break;
        case OV_XS: pa = B_XS; pb = B_DST; break;
        case OV_SRC_SC: pa = B_SC; pb = B_SRC; break;
        default: break;
        }
        if (pa >= 0 && (kind[pa] == K_NULL || kind[pb] == K_NULL)) pa = pb = -1;
        if (pa >= 0) {
            /* pb at pa + delta, delta in [-bytes[pb], bytes[pa]]: overlapping or touching */
            const long long na = (long long)c.bytes[pa], nb = (long long)c.bytes[pb];
            const long long al = pa == B_ZP && !dyn ? 8 : 4;
            long long delta = c.ov == OV_SAME ? 0 : (long long)(ov_delta % (unsigned)(na + nb + 1)) - nb, lo, oa, ob;
            delta -= delta % al;
            delta += (long long)mis[pb] - (long long)mis[pa];
            lo = delta < 0 ? -delta : 0;
            lo = (lo + 7) / 8 * 8;
            oa = lo + (long long)mis[pa];
            ob = oa + delta;
            m.size[pa] = (size_t)((oa + na > ob + nb) ? oa + na : ob + nb);
            m.blk[pa] = (uint8_t *)xmalloc(m.size[pa] ? m.size[pa] : 1);
            m.buf_blk[pa] = m.buf_blk[pb] = pa;
            m.buf_off[pa] = (size_t)oa;
            m.buf_off[pb] = (size_t)ob;
        } else c.ov = OV_NONE;
        for (b = 0; b < NBUF; ++b) {
            if (m.buf_blk[b] >= 0 || kind[b] == K_NULL) continue;
            if (c.bytes[b] == 0 && kind[b] == K_OWN && zero_null[b]) continue;
            m.size[b] = c.bytes[b] + mis[b];
            m.blk[b] = (uint8_t *)malloc(m.size[b]);   /* malloc(0): a unique pointer to nothing */
            if (!m.blk[b]) {
                if (m.size[b]) { fprintf(stderr, "fuzz_ops: out of memory\n"); abort(); }
                continue;
            }
            m.buf_blk[b] = b;
            m.buf_off[b] = mis[b];
        }
        for (b = 0; b < NBUF; ++b) c.ptr[b] = m.buf_blk[b] >= 0 ? m.blk[m.buf_blk[b]] + m.buf_off[b] : NULL;
    }
    /* contents: a pattern, then the scales, zero points and src from the input */
    for (b = 0; b < NBUF; ++b) {
        size_t i;
        for (i = 0; i < m.size[b]; ++i) m.blk[b][i] = (uint8_t)(0xA5 ^ (i * 7) ^ ((size_t)b << 5));
    }
    {
        size_t i;
        uint8_t *p;
        if ((p = (uint8_t *)c.ptr[B_SC]) != NULL) {
            if (!dyn || c.sc.dtype == QUANT_F32 || c.unheld[B_SC])
                for (i = 0; i + 4 <= c.bytes[B_SC]; i += 4) { const uint32_t u = pick_scale_bits(&r); memcpy(p + i, &u, 4); }
            else for (i = 0; i < c.bytes[B_SC]; ++i) p[i] = (uint8_t)rd8(&r);
        }
        if ((p = (uint8_t *)c.ptr[B_ZP]) != NULL) {
            if (!dyn) for (i = 0; i + 8 <= c.bytes[B_ZP]; i += 8) { const int64_t z = pick_zp(&r); memcpy(p + i, &z, 8); }
            else if (c.zp.dtype == QUANT_S32)
                for (i = 0; i + 4 <= c.bytes[B_ZP]; i += 4) { const int32_t z = (int32_t)pick_zp(&r); memcpy(p + i, &z, 4); }
            else for (i = 0; i < c.bytes[B_ZP]; ++i) p[i] = (uint8_t)pick_zp(&r);
        }
        if ((p = (uint8_t *)c.ptr[B_XS]) != NULL)
            for (i = 0; i + 4 <= c.bytes[B_XS]; i += 4) { const uint32_t u = pick_scale_bits(&r); memcpy(p + i, &u, 4); }
        if ((p = (uint8_t *)c.ptr[B_SRC]) != NULL) {
            const size_t nb = c.bytes[B_SRC];
            if (c.src.dtype == QUANT_F32)
                for (i = 0; i + 4 <= nb; i += 4) { const float x = pick_f32(&r, i / 4); memcpy(p + i, &x, 4); }
            else if (c.src.dtype == QUANT_S32)
                for (i = 0; i + 4 <= nb; i += 4) { const int32_t q = pick_s32(&r); memcpy(p + i, &q, 4); }
            else for (i = 0; i < nb; ++i) p[i] = r.n ? (uint8_t)rd8(&r) : (uint8_t)(i * 37 + 11);
        }
    }
    /* the tensors and attributes, each in its own allocation */
    c.src.data = c.ptr[B_SRC];
    c.dst.data = c.ptr[B_DST];
    if (dyn) {
        c.sc.data = c.ptr[B_SC];
        c.zp.data = c.ptr[B_ZP];
        c.a.scales = (const float *)c.ptr[B_XS];
        c.a.zps = (const int64_t *)c.ptr[B_XZ];
    } else {
        c.a.scales = (const float *)c.ptr[B_SC];
        c.a.zps = (const int64_t *)c.ptr[B_ZP];
    }

    v = model(&c);
    /* a valid tensor the harness could not hold is only passed to a call
       that must fail before it reads it */
    if (!v.fail && (c.unheld[B_SRC] || c.unheld[B_DST] || (dyn && (c.unheld[B_SC] || c.unheld[B_ZP])))) {
        STAT(++stat_skipped);
        mem_free(&m);
        return 0;
    }
    for (b = 0; b < NBUF; ++b) {
        if (!m.blk[b]) continue;
        m.snap[b] = (uint8_t *)xmalloc(m.size[b] ? m.size[b] : 1);
        memcpy(m.snap[b], m.blk[b], m.size[b]);
    }
    t_src = c.src_tnull ? NULL : (quant_tensor *)xmalloc(sizeof *t_src);
    t_dst = c.dst_tnull ? NULL : (quant_tensor *)xmalloc(sizeof *t_dst);
    t_sc = !dyn || c.sc_tnull ? NULL : (quant_tensor *)xmalloc(sizeof *t_sc);
    t_zp = !dyn || c.zp_tnull ? NULL : (quant_tensor *)xmalloc(sizeof *t_zp);
    t_a = c.attrs_null ? NULL : (quant_attrs *)xmalloc(sizeof *t_a);
    if (t_src) *t_src = c.src;
    if (t_dst) *t_dst = c.dst;
    if (t_sc) *t_sc = c.sc;
    if (t_zp) *t_zp = c.zp;
    if (t_a) *t_a = c.a;
    keep_t[0] = c.src; keep_t[1] = c.dst; keep_t[2] = c.sc; keep_t[3] = c.zp; keep_a = c.a;

    STAT(if (getenv("FUZZ_VERBOSE")) { dump_case(&c); fprintf(stderr, "  model set 0x%x fail %d\n", v.set, v.fail); });
    st = call_op(c.op, 1, t_src, t_dst, t_sc, t_zp, t_a);

    {
        char msg[512];
        const int acceptable = v.fail ? st != QUANT_OK && ((v.set >> (unsigned)st) & 1u)
                                      : st == QUANT_OK || ((v.set >> (unsigned)st) & 1u);
        if ((unsigned)st >= 32 || !acceptable) {
            int s, len;
            len = snprintf(msg, sizeof msg, "status %d (%s); the model %s", (int)st, quant_status_str(st),
                           v.fail ? "says it must fail with one of:" : "says QUANT_OK, or one of:");
            for (s = 1; s < 32 && len > 0 && (size_t)len < sizeof msg; ++s)
                if ((v.set >> s) & 1u) len += snprintf(msg + len, sizeof msg - (size_t)len, " %d (%s)", s,
                                                       quant_status_str((quant_status)s));
            fail_case(&c, msg);
        }
        if ((t_src && memcmp(t_src, &keep_t[0], sizeof *t_src)) || (t_dst && memcmp(t_dst, &keep_t[1], sizeof *t_dst)) ||
            (t_sc && memcmp(t_sc, &keep_t[2], sizeof *t_sc)) || (t_zp && memcmp(t_zp, &keep_t[3], sizeof *t_zp)) ||
            (t_a && memcmp(t_a, &keep_a, sizeof *t_a)))
            fail_case(&c, "a tensor or attribute struct changed");
    }
    if (st == QUANT_OK && !c.dst_tnull) n_out = shape_of(&c.dst, esize(c.dst.dtype)).count;
    STAT(++stat_status[c.op][(unsigned)st & 15]; stat_expected_fail += (unsigned long)v.fail;
         stat_elems[c.op] += (unsigned long)n_out;
         if (getenv("FUZZ_VERBOSE")) fprintf(stderr, "  -> status %d\n", (int)st));
    {
        /* the expected memory: as it was, and on success dst as the oracle says */
        uint8_t *expect = NULL;
        const int db = m.buf_blk[B_DST];
        const size_t dbytes = (size_t)n_out * esize(c.dst.dtype);
        if (st == QUANT_OK && n_out) {
            const int sb = m.buf_blk[B_SRC], cb = m.buf_blk[B_SC], zb = m.buf_blk[B_ZP];
            expect = (uint8_t *)xmalloc(dbytes);
            oracle(&c, m.snap[sb] + m.buf_off[B_SRC], m.snap[cb] + m.buf_off[B_SC],
                   zb >= 0 ? m.snap[zb] + m.buf_off[B_ZP] : NULL, expect, n_out);
        }
        for (b = 0; b < NBUF; ++b) {
            size_t i;
            for (i = 0; i < m.size[b]; ++i) {
                const int in_dst = expect && b == db && i >= m.buf_off[B_DST] && i < m.buf_off[B_DST] + dbytes;
                const uint8_t want = in_dst ? expect[i - m.buf_off[B_DST]] : m.snap[b][i];
                if (m.blk[b][i] != want) {
                    char msg[512];
                    if (in_dst) {
                        const size_t e = (i - m.buf_off[B_DST]) / esize(c.dst.dtype), es = esize(c.dst.dtype);
                        uint32_t w = 0, g = 0;
                        memcpy(&w, expect + e * es, es);
                        memcpy(&g, m.blk[b] + m.buf_off[B_DST] + e * es, es);
                        snprintf(msg, sizeof msg, "dst element %lu: oracle 0x%08lx, library 0x%08lx (src element bytes "
                                 "%02x%02x%02x%02x as stored)", (unsigned long)e, (unsigned long)w, (unsigned long)g,
                                 m.snap[m.buf_blk[B_SRC]][m.buf_off[B_SRC] + e * esize(c.src.dtype)],
                                 esize(c.src.dtype) > 1 ? m.snap[m.buf_blk[B_SRC]][m.buf_off[B_SRC] + e * 4 + 1] : 0,
                                 esize(c.src.dtype) > 1 ? m.snap[m.buf_blk[B_SRC]][m.buf_off[B_SRC] + e * 4 + 2] : 0,
                                 esize(c.src.dtype) > 1 ? m.snap[m.buf_blk[B_SRC]][m.buf_off[B_SRC] + e * 4 + 3] : 0);
                    } else {
                        int which = -1, x;
                        for (x = 0; x < NBUF; ++x)
                            if (m.buf_blk[x] == b && i >= m.buf_off[x] && i < m.buf_off[x] + c.bytes[x]) which = x;
                        snprintf(msg, sizeof msg, "status %d, yet byte %lu of the block of %s (inside %s) changed: "
                                 "0x%02x -> 0x%02x", (int)st, (unsigned long)i, buf_name[b],
                                 which >= 0 ? buf_name[which] : "no buffer", m.snap[b][i], m.blk[b][i]);
                    }
                    free(expect);
                    fail_case(&c, msg);
                }
            }
        }
        free(expect);
    }
#if FUZZ_SCALAR_COPY
    {
        /* the forced-scalar copy from the same starting memory */
        quant_status st2;
        for (b = 0; b < NBUF; ++b) {
            if (!m.blk[b]) continue;
            m.post[b] = (uint8_t *)xmalloc(m.size[b] ? m.size[b] : 1);
            memcpy(m.post[b], m.blk[b], m.size[b]);
            memcpy(m.blk[b], m.snap[b], m.size[b]);
        }
        st2 = call_op(c.op, 0, t_src, t_dst, t_sc, t_zp, t_a);
        if (st2 != st) fail_case(&c, "the scalar copy returns another status");
        for (b = 0; b < NBUF; ++b)
            if (m.blk[b] && memcmp(m.blk[b], m.post[b], m.size[b]) != 0)
                fail_case(&c, "the scalar copy writes other bytes");
    }
#endif
    free(t_src);
    free(t_dst);
    free(t_sc);
    free(t_zp);
    free(t_a);
    mem_free(&m);
    return 0;
}
