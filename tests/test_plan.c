/* test_plan: prepared plans (quant_prepare, quant_run, quant_run_range).

   For each case: the plan run whole equals the one-shot op bit for bit,
   with the data of the prepare call and with new buffers and new data;
   every split of the units into two ranges, and random splits into more,
   writes what the whole run writes, each range writing only its own
   bytes (found by running it over two different fills); misuse (another
   shape, dtype, scales or zps shape, bad scale values, NULL, misaligned
   or overlapping data, a range past the end or backwards, an unprepared
   plan) gets its status with dst untouched; a failed prepare leaves the
   plan untouched; a plan copied elsewhere runs the same. The f32 <-> s8/u8
   cases are also checked element by element against the oracle. */
#include "../quant.h"
#include "check.h"
#include "oracle.h"

#include <math.h>

typedef struct pcase {
    const char *name;
    quant_op op;
    quant_dtype sdt, ddt; /* src and dst */
    int rank;
    int64_t dims[4];
    quant_qtype qtype;
    int axis;
    int64_t group[4];
    quant_rounding rounding;
    quant_dtype scdt, zdt; /* scales and zps tensors (dynamic ops); zdt UNDEF: no zps */
    int static_zps;       /* static ops: a zps list */
} pcase;

static const pcase cases[] = {
    { "f32->s8 tensor torch", QUANT_OP_QUANTIZE, QUANT_F32, QUANT_S8, 1, { 1000 }, QUANT_PER_TENSOR, 0, { 0 },
      QUANT_ROUND_TORCH, QUANT_UNDEF, QUANT_UNDEF, 1 },
    { "f32->s8 tensor exact", QUANT_OP_QUANTIZE, QUANT_F32, QUANT_S8, 2, { 17, 300 }, QUANT_PER_TENSOR, 0, { 0 },
      QUANT_ROUND_EXACT, QUANT_UNDEF, QUANT_UNDEF, 1 },
    { "f32->u8 axis1 long runs", QUANT_OP_QUANTIZE, QUANT_F32, QUANT_U8, 3, { 3, 5, 70 }, QUANT_PER_CHANNEL, 1,
      { 0 }, QUANT_ROUND_ONEDNN, QUANT_UNDEF, QUANT_UNDEF, 1 },
    { "f32->s8 axis1 short runs", QUANT_OP_QUANTIZE, QUANT_F32, QUANT_S8, 3, { 4, 16, 3 }, QUANT_PER_CHANNEL, 1,
      { 0 }, QUANT_ROUND_EXACT, QUANT_UNDEF, QUANT_UNDEF, 1 },
    { "f32->s8 last axis", QUANT_OP_QUANTIZE, QUANT_F32, QUANT_S8, 3, { 6, 7, 33 }, QUANT_PER_CHANNEL, -1, { 0 },
      QUANT_ROUND_ONNX, QUANT_UNDEF, QUANT_UNDEF, 1 },
    { "f32->s8 [1,64,8,8] axis1", QUANT_OP_QUANTIZE, QUANT_F32, QUANT_S8, 4, { 1, 64, 8, 8 }, QUANT_PER_CHANNEL, 1,
      { 0 }, QUANT_ROUND_TORCH, QUANT_UNDEF, QUANT_UNDEF, 0 },
    { "s8->f32 axis0", QUANT_OP_DEQUANTIZE, QUANT_S8, QUANT_F32, 2, { 9, 130 }, QUANT_PER_CHANNEL, 0, { 0 },
      QUANT_ROUND_EXACT, QUANT_UNDEF, QUANT_UNDEF, 1 },
    { "u8->f32 tensor dynamic", QUANT_OP_DYNAMIC_DEQUANTIZE, QUANT_U8, QUANT_F32, 1, { 777 }, QUANT_PER_TENSOR, 0,
      { 0 }, QUANT_ROUND_EXACT, QUANT_F32, QUANT_U8, 0 },
    { "f32->u8 axis1 dynamic", QUANT_OP_DYNAMIC_QUANTIZE, QUANT_F32, QUANT_U8, 3, { 5, 9, 11 }, QUANT_PER_CHANNEL,
      1, { 0 }, QUANT_ROUND_TORCH, QUANT_F32, QUANT_S32, 0 },
    { "f32->f8_e4m3 axis1", QUANT_OP_QUANTIZE, QUANT_F32, QUANT_F8_E4M3, 3, { 2, 10, 20 }, QUANT_PER_CHANNEL, 1,
      { 0 }, QUANT_ROUND_EXACT, QUANT_UNDEF, QUANT_UNDEF, 0 },
    { "bf16->s8 tensor dynamic", QUANT_OP_DYNAMIC_QUANTIZE, QUANT_BF16, QUANT_S8, 2, { 5, 301 }, QUANT_PER_TENSOR,
      0, { 0 }, QUANT_ROUND_EXACT, QUANT_F32, QUANT_S8, 0 },
    { "f32->u4 group 1x8 odd rows", QUANT_OP_DYNAMIC_QUANTIZE, QUANT_F32, QUANT_U4, 2, { 6, 37 }, QUANT_PER_GROUP,
      0, { 1, 8 }, QUANT_ROUND_EXACT, QUANT_F32, QUANT_U4, 0 },
    { "u4->bf16 group 1x32", QUANT_OP_DYNAMIC_DEQUANTIZE, QUANT_U4, QUANT_BF16, 2, { 8, 64 }, QUANT_PER_GROUP, 0,
      { 1, 32 }, QUANT_ROUND_EXACT, QUANT_F16, QUANT_U4, 0 },
    { "f32->u2 group 1x8 rows of 37", QUANT_OP_DYNAMIC_QUANTIZE, QUANT_F32, QUANT_U2, 2, { 9, 37 }, QUANT_PER_GROUP,
      0, { 1, 8 }, QUANT_ROUND_EXACT, QUANT_F32, QUANT_U2, 0 },
    { "bf16->s2 axis0 rows of 38", QUANT_OP_DYNAMIC_QUANTIZE, QUANT_BF16, QUANT_S2, 2, { 7, 38 }, QUANT_PER_CHANNEL,
      0, { 0 }, QUANT_ROUND_ONEDNN, QUANT_F32, QUANT_S2, 0 },
    { "s2->f16 group 1x3", QUANT_OP_DYNAMIC_DEQUANTIZE, QUANT_S2, QUANT_F16, 2, { 10, 13 }, QUANT_PER_GROUP, 0,
      { 1, 3 }, QUANT_ROUND_TORCH, QUANT_F32, QUANT_U2, 0 },
    { "f32->s4 tensor odd", QUANT_OP_DYNAMIC_QUANTIZE, QUANT_F32, QUANT_S4, 1, { 999 }, QUANT_PER_TENSOR, 0, { 0 },
      QUANT_ROUND_ONNX, QUANT_F32, QUANT_UNDEF, 0 },
    { "s32->f32 axis1", QUANT_OP_DYNAMIC_DEQUANTIZE, QUANT_S32, QUANT_F32, 3, { 3, 4, 5 }, QUANT_PER_CHANNEL, 1,
      { 0 }, QUANT_ROUND_EXACT, QUANT_F32, QUANT_S32, 0 },
    { "bf16->s8 axis0 rows", QUANT_OP_DYNAMIC_QUANTIZE, QUANT_BF16, QUANT_S8, 2, { 12, 40 }, QUANT_PER_CHANNEL, 0,
      { 0 }, QUANT_ROUND_ONEDNN, QUANT_BF16, QUANT_UNDEF, 0 },
    { "f32->s8 scalar", QUANT_OP_QUANTIZE, QUANT_F32, QUANT_S8, 0, { 0 }, QUANT_PER_TENSOR, 0, { 0 },
      QUANT_ROUND_EXACT, QUANT_UNDEF, QUANT_UNDEF, 1 },
};

static size_t nbytes(quant_dtype t, size_t n)
{
    switch (t) {
    case QUANT_F32: case QUANT_S32: return 4 * n;
    case QUANT_F16: case QUANT_BF16: return 2 * n;
    case QUANT_S4: case QUANT_U4: return (n + 1) / 2;
    case QUANT_S2: case QUANT_U2: return (n + 3) / 4;
    default: return n;
    }
}

static size_t count(int rank, const int64_t *dims)
{
    size_t n = 1;
    int i;
    for (i = 0; i < rank; ++i) n *= (size_t)dims[i];
    return n;
}

/* the scale grid of a case: dims (rank r, or 1 unless per group) */
static int grid(const pcase *c, int64_t *g)
{
    int i;
    if (c->qtype == QUANT_PER_TENSOR) { g[0] = 1; return 1; }
    if (c->qtype == QUANT_PER_CHANNEL) { g[0] = c->dims[c->axis < 0 ? c->axis + c->rank : c->axis]; return 1; }
    for (i = 0; i < c->rank; ++i) g[i] = (c->dims[i] + c->group[i] - 1) / c->group[i];
    return c->rank;
}

static void fill_random(void *p, size_t bytes)
{
    size_t i;
    for (i = 0; i < bytes; ++i) ((uint8_t *)p)[i] = (uint8_t)check_rand();
}

/* src data: floats near the quantized range, 16-bit floats from them,
   small s32 values, random bytes */
static void fill_src(quant_dtype t, void *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; ++i) {
        const float v = ((float)(check_rand() >> 8) / 16777216.0f - 0.5f) * 40.0f;
        uint32_t u;
        memcpy(&u, &v, 4);
        if (t == QUANT_F32) ((float *)p)[i] = (check_rand() & 63) == 0 ? (float)(int)v * 0.5f : v;
        else if (t == QUANT_BF16) ((uint16_t *)p)[i] = (uint16_t)(u >> 16);
        else if (t == QUANT_S32) ((int32_t *)p)[i] = (int32_t)(check_rand() % 2001) - 1000;
    }
    if (t != QUANT_F32 && t != QUANT_BF16 && t != QUANT_S32) fill_random(p, nbytes(t, n));
}

/* scale values in [0.1, 0.4), as f32, f16 or bf16 */
static void fill_scales(quant_dtype t, void *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; ++i) {
        const float s = 0.1f + 0.3f * (float)(check_rand() >> 8) / 16777216.0f;
        uint32_t u;
        memcpy(&u, &s, 4);
        if (t == QUANT_F32) ((float *)p)[i] = s;
        else if (t == QUANT_BF16) ((uint16_t *)p)[i] = (uint16_t)(u >> 16);
        else ((uint16_t *)p)[i] = (uint16_t)(0x2E66 + check_rand() % 0x400); /* f16 0.1 .. 0.2 */
    }
}

static void fill_zps(quant_dtype t, quant_dtype q, void *p, size_t n)
{
    size_t i;
    fill_random(p, nbytes(t, n));
    if (t == QUANT_S32)
        for (i = 0; i < n; ++i) ((int32_t *)p)[i] = (int32_t)(check_rand() % 300) - 150;
    (void)q;
}

/* Everything one case runs on; every buffer at its exact size. */
typedef struct bufs {
    quant_tensor src, dst, sc, zp;
    quant_attrs a;
    float *slist;
    int64_t *zlist;
    size_t n, nsc, nzp, sbytes, dbytes;
} bufs;

static void make(const pcase *c, bufs *b)
{
    int64_t g[QUANT_MAX_RANK];
    const int gr = grid(c, g);
    size_t i;
    memset(b, 0, sizeof *b);
    b->n = count(c->rank, c->dims);
    b->src.dtype = c->sdt;
    b->src.rank = c->rank;
    memcpy(b->src.dims, c->dims, sizeof c->dims);
    b->dst = b->src;
    b->dst.dtype = c->ddt;
    b->sbytes = nbytes(c->sdt, b->n);
    b->dbytes = nbytes(c->ddt, b->n);
    b->src.data = malloc(b->sbytes ? b->sbytes : 1);
    b->dst.data = malloc(b->dbytes ? b->dbytes : 1);
    fill_src(c->sdt, b->src.data, b->n);
    b->nsc = count(gr, g);
    b->a = quant_attrs_default();
    b->a.qtype = c->qtype;
    b->a.axis = c->axis;
    b->a.rounding = c->rounding;
    for (i = 0; i < 4; ++i) b->a.group_shape[i] = c->qtype == QUANT_PER_GROUP && (int)i < c->rank ? c->group[i] : 0;
    if (c->op == QUANT_OP_QUANTIZE || c->op == QUANT_OP_DEQUANTIZE) {
        b->slist = malloc(b->nsc * 4);
        fill_scales(QUANT_F32, b->slist, b->nsc);
        b->a.scales = b->slist;
        b->a.n_scales = b->nsc;
        if (c->static_zps) {
            const int u8 = c->ddt == QUANT_U8 || c->sdt == QUANT_U8;
            b->nzp = b->nsc;
            b->zlist = malloc(b->nzp * 8);
            for (i = 0; i < b->nzp; ++i) b->zlist[i] = (int64_t)(check_rand() % 100) - (u8 ? -50 : 50);
            b->a.zps = b->zlist;
            b->a.n_zps = b->nzp;
        }
    } else {
        b->sc.dtype = c->scdt;
        b->sc.rank = gr;
        memcpy(b->sc.dims, g, sizeof(int64_t) * (size_t)gr);
        b->sc.data = malloc(nbytes(c->scdt, b->nsc));
        fill_scales(c->scdt, b->sc.data, b->nsc);
        if (c->zdt != QUANT_UNDEF) {
            b->zp = b->sc;
            b->zp.dtype = c->zdt;
            b->nzp = b->nsc;
            b->zp.data = malloc(nbytes(c->zdt, b->nzp));
            fill_zps(c->zdt, c->ddt == QUANT_F32 || c->ddt == QUANT_BF16 ? c->sdt : c->ddt, b->zp.data, b->nzp);
        }
    }
}

static void unmake(bufs *b)
{
    free(b->src.data);
    free(b->dst.data);
    free(b->sc.data);
    free(b->zp.data);
    free(b->slist);
    free(b->zlist);
}

static int dynamic(const pcase *c) { return c->op == QUANT_OP_DYNAMIC_QUANTIZE || c->op == QUANT_OP_DYNAMIC_DEQUANTIZE; }

static quant_status one_shot(const pcase *c, bufs *b)
{
    const quant_tensor *zp = b->nzp && dynamic(c) ? &b->zp : NULL;
    switch (c->op) {
    case QUANT_OP_QUANTIZE: return quant_quantize(&b->src, &b->dst, &b->a);
    case QUANT_OP_DEQUANTIZE: return quant_dequantize(&b->src, &b->dst, &b->a);
    case QUANT_OP_DYNAMIC_QUANTIZE: return quant_dynamic_quantize(&b->src, &b->sc, zp, &b->dst, &b->a);
    default: return quant_dynamic_dequantize(&b->src, &b->sc, zp, &b->dst, &b->a);
    }
}

static quant_status prepare(quant_plan *p, const pcase *c, bufs *b)
{
    return quant_prepare(p, c->op, &b->src, dynamic(c) ? &b->sc : NULL, dynamic(c) && b->nzp ? &b->zp : NULL,
                         &b->dst, &b->a);
}

static quant_status run_range(const quant_plan *p, const pcase *c, bufs *b, size_t u0, size_t u1)
{
    return quant_run_range(p, &b->src, dynamic(c) ? &b->sc : NULL, dynamic(c) && b->nzp ? &b->zp : NULL,
                           &b->dst, u0, u1);
}

/* The f32 <-> s8/u8 cases element by element against the oracle. */
static void oracle_check(const pcase *c, const bufs *b)
{
    const int q = c->op == QUANT_OP_QUANTIZE || c->op == QUANT_OP_DYNAMIC_QUANTIZE;
    const quant_dtype qt = q ? c->ddt : c->sdt;
    const int u8 = qt == QUANT_U8;
    const int r = c->rounding == QUANT_ROUND_EXACT ? O_EXACT : c->rounding == QUANT_ROUND_ONEDNN ? O_ONEDNN
                : c->rounding == QUANT_ROUND_ONNX  ? O_ONNX : O_TORCH;
    size_t i, inner = 1, C = 1, bad = 0;
    int d, axis = c->axis < 0 ? c->axis + c->rank : c->axis;
    if ((q ? c->sdt : c->ddt) != QUANT_F32 || (qt != QUANT_S8 && qt != QUANT_U8)) return;
    if (c->qtype == QUANT_PER_CHANNEL) {
        C = (size_t)c->dims[axis];
        for (d = axis + 1; d < c->rank; ++d) inner *= (size_t)c->dims[d];
    }
    for (i = 0; i < b->n; ++i) {
        const size_t ch = i / inner % C;
        float s;
        int64_t z = 0;
        if (dynamic(c)) {
            s = ((const float *)b->sc.data)[ch];
            if (b->nzp) {
                const size_t k = b->nzp > 1 ? ch : 0;
                z = c->zdt == QUANT_S32 ? ((const int32_t *)b->zp.data)[k]
                  : c->zdt == QUANT_S8  ? ((const int8_t *)b->zp.data)[k] : ((const uint8_t *)b->zp.data)[k];
            }
        } else {
            s = b->slist[ch];
            if (b->nzp) z = b->zlist[b->nzp > 1 ? ch : 0];
        }
        if (q) {
            const int64_t want = o_quant_int(((const float *)b->src.data)[i], s, z, r, u8 ? 0 : -128, u8 ? 255 : 127);
            const int64_t got = u8 ? ((const uint8_t *)b->dst.data)[i] : ((const int8_t *)b->dst.data)[i];
            bad += want != got;
        } else {
            const int64_t v = u8 ? ((const uint8_t *)b->src.data)[i] : ((const int8_t *)b->src.data)[i];
            const float want = o_dequant_int(v, s, z), got = ((const float *)b->dst.data)[i];
            bad += memcmp(&want, &got, 4) != 0;
        }
    }
    CHECK(bad == 0, "%s: %zu elements differ from the oracle", c->name, bad);
}

/* Runs [u0, u1) over two fills of dst: on return, mask[k] is 1 for the
   bytes the range wrote, and out holds what it wrote there. */
static int range_writes(const quant_plan *p, const pcase *c, bufs *b, size_t u0, size_t u1, uint8_t *out,
                        uint8_t *mask)
{
    uint8_t *d = b->dst.data;
    size_t k;
    memset(d, 0x55, b->dbytes);
    if (run_range(p, c, b, u0, u1) != QUANT_OK) return 0;
    memcpy(out, d, b->dbytes);
    memset(d, 0xAA, b->dbytes);
    if (run_range(p, c, b, u0, u1) != QUANT_OK) return 0;
    for (k = 0; k < b->dbytes; ++k) {
        /* a 4-bit byte may be written nibble by nibble: whole or not at all */
        mask[k] = d[k] != 0xAA || out[k] != 0x55;
        if (mask[k] && d[k] != out[k]) return 0;
    }
    return 1;
}

/* Every two-way split, and random splits into up to eight ranges: each
   range writes bytes no other range writes, and together all of them,
   with the whole run's values. */
static void check_splits(const quant_plan *p, const pcase *c, bufs *b, const uint8_t *ref)
{
    const size_t units = quant_plan_units(p);
    uint8_t *out = malloc(b->dbytes), *mask = malloc(b->dbytes), *owner = malloc(b->dbytes);
    size_t a, k, cuts[9], trial;
    long bad = 0;
    for (trial = 0; trial < units + 40; ++trial) {
        size_t m = 2, i;
        if (trial <= units) {
            cuts[0] = 0; cuts[1] = trial; cuts[2] = units;
        } else {
            m = 2 + check_rand() % 7;
            cuts[0] = 0;
            cuts[m] = units;
            for (i = 1; i < m; ++i) cuts[i] = units ? check_rand() % (units + 1) : 0;
            for (i = 1; i < m; ++i) /* sorted */
                for (a = i; a > 1 && cuts[a] < cuts[a - 1]; --a) { size_t t = cuts[a]; cuts[a] = cuts[a - 1]; cuts[a - 1] = t; }
        }
        memset(owner, 0, b->dbytes);
        for (i = 0; i < m; ++i) {
            if (!range_writes(p, c, b, cuts[i], cuts[i + 1], out, mask)) { ++bad; continue; }
            for (k = 0; k < b->dbytes; ++k)
                if (mask[k]) {
                    if (owner[k] || out[k] != ref[k]) ++bad;
                    owner[k] = 1;
                }
        }
        for (k = 0; k < b->dbytes; ++k) bad += !owner[k];
    }
    CHECK(bad == 0, "%s: splits of %zu units: %ld bytes wrong, written twice or not at all", c->name, units, bad);
    free(out);
    free(mask);
    free(owner);
}

/* A failing run leaves dst as it was. */
static void check_untouched(const quant_plan *p, const pcase *c, bufs *b, const char *what, quant_status want,
                            size_t u0, size_t u1)
{
    uint8_t *d = b->dst.data;
    size_t k, changed = 0;
    quant_status st;
    memset(d, 0x3C, b->dbytes);
    st = run_range(p, c, b, u0, u1);
    for (k = 0; k < b->dbytes; ++k) changed += d[k] != 0x3C;
    CHECK(st == want, "%s: %s: status %d, want %d", c->name, what, (int)st, (int)want);
    CHECK(changed == 0, "%s: %s: %zu bytes of dst written", c->name, what, changed);
}

static void misuse(const quant_plan *p, const pcase *c, bufs *b)
{
    const size_t units = quant_plan_units(p);
    quant_tensor keep = b->src, keepd = b->dst, keeps = b->sc, keepz = b->zp;
    quant_plan blank;
    void *odd;
    check_untouched(p, c, b, "range past the end", QUANT_ERR_RANGE, 0, units + 1);
    if (units > 0) check_untouched(p, c, b, "range backwards", QUANT_ERR_RANGE, 1, 0);
    if (c->rank > 0) {
        b->src.dims[c->rank - 1] += 1;
        check_untouched(p, c, b, "src of another shape", QUANT_ERR_SHAPE, 0, units);
        b->src = keep;
        b->dst.dims[0] -= 1;
        check_untouched(p, c, b, "dst of another shape", QUANT_ERR_SHAPE, 0, units);
        b->dst = keepd;
        b->src.rank += 1;
        b->src.dims[c->rank] = 1;
        check_untouched(p, c, b, "src of another rank", QUANT_ERR_SHAPE, 0, units);
        b->src = keep;
    }
    b->src.dtype = c->sdt == QUANT_F32 ? QUANT_BF16 : QUANT_F32;
    check_untouched(p, c, b, "src of another dtype", QUANT_ERR_DTYPE, 0, units);
    b->src = keep;
    b->src.data = NULL;
    check_untouched(p, c, b, "src data NULL", QUANT_ERR_NULL, 0, units);
    b->src = keep;
    if (nbytes(c->sdt, 1) == 4) {
        odd = malloc(b->sbytes + 4);
        b->src.data = (char *)odd + 1;
        check_untouched(p, c, b, "src misaligned", QUANT_ERR_ALIGN, 0, units);
        free(odd);
        b->src = keep;
    }
    if (b->sbytes >= 2 && b->dbytes >= 2) {
        /* src and dst overlap: dst is src's own memory, as big as dst needs */
        void *both = malloc(b->sbytes + b->dbytes);
        b->src.data = both;
        b->dst.data = (char *)both + (b->sbytes / 2 & ~(size_t)3);
        memset(both, 0x3C, b->sbytes + b->dbytes);
        CHECK(run_range(p, c, b, 0, units) == QUANT_ERR_OVERLAP, "%s: overlap not found", c->name);
        free(both);
        b->src = keep;
        b->dst = keepd;
    }
    if (dynamic(c)) {
        uint8_t saved[4];
        CHECK(quant_run(p, &b->src, NULL, b->nzp ? &b->zp : NULL, &b->dst) == QUANT_ERR_NULL,
              "%s: scales NULL", c->name);
        b->sc.dims[b->sc.rank - 1] += 1;
        check_untouched(p, c, b, "scales of another shape", QUANT_ERR_SCALES, 0, units);
        b->sc = keeps;
        memcpy(saved, b->sc.data, nbytes(c->scdt, 1));
        memset(b->sc.data, 0, nbytes(c->scdt, 1));
        check_untouched(p, c, b, "a zero scale", QUANT_ERR_SCALE_VALUE, 0, units);
        memcpy(b->sc.data, saved, nbytes(c->scdt, 1));
        if (b->nzp) {
            CHECK(quant_run(p, &b->src, &b->sc, NULL, &b->dst) == QUANT_ERR_ZPS, "%s: zps left out", c->name);
            b->zp.dtype = c->zdt == QUANT_S32 ? QUANT_S8 : QUANT_S32;
            check_untouched(p, c, b, "zps of another dtype", QUANT_ERR_ZPS, 0, units);
            b->zp = keepz;
        } else {
            quant_tensor z = b->sc;
            z.dtype = QUANT_S32;
            CHECK(quant_run(p, &b->src, &b->sc, &z, &b->dst) == QUANT_ERR_ZPS, "%s: zps not prepared", c->name);
        }
    }
    memset(&blank, 0, sizeof blank);
    check_untouched(&blank, c, b, "plan not prepared", QUANT_ERR_PLAN, 0, 0);
    CHECK(quant_plan_units(&blank) == 0, "%s: units of a blank plan", c->name);
    CHECK(quant_run(NULL, &b->src, &b->sc, NULL, &b->dst) == QUANT_ERR_NULL, "%s: plan NULL", c->name);
}

static void run_case(const pcase *c)
{
    bufs b;
    quant_plan plan, *moved;
    uint8_t *ref, *ref2;
    quant_status st;
    size_t units;
    void *src0, *dst0;
    make(c, &b);
    ref = malloc(b.dbytes ? b.dbytes : 1);
    ref2 = malloc(b.dbytes ? b.dbytes : 1);
    st = one_shot(c, &b);
    CHECK(st == QUANT_OK, "%s: one-shot status %d", c->name, (int)st);
    oracle_check(c, &b);
    memcpy(ref, b.dst.data, b.dbytes);

    st = prepare(&plan, c, &b);
    CHECK(st == QUANT_OK, "%s: prepare status %d", c->name, (int)st);
    units = quant_plan_units(&plan);
    CHECK(units > 0, "%s: no units", c->name);
    memset(b.dst.data, 0x77, b.dbytes);
    CHECK(run_range(&plan, c, &b, 0, units) == QUANT_OK, "%s: run", c->name);
    CHECK(memcmp(b.dst.data, ref, b.dbytes) == 0, "%s: run differs from the one-shot op", c->name);
    check_splits(&plan, c, &b, ref);

    /* new buffers and new data (and new scales and zero points for the
       dynamic ops), through a copy of the plan somewhere else */
    src0 = b.src.data;
    dst0 = b.dst.data;
    b.src.data = malloc(b.sbytes ? b.sbytes : 1);
    b.dst.data = malloc(b.dbytes ? b.dbytes : 1);
    fill_src(c->sdt, b.src.data, b.n);
    if (dynamic(c)) {
        fill_scales(c->scdt, b.sc.data, b.nsc);
        if (b.nzp) fill_zps(c->zdt, c->ddt, b.zp.data, b.nzp);
    }
    CHECK(one_shot(c, &b) == QUANT_OK, "%s: one-shot on new data", c->name);
    oracle_check(c, &b);
    memcpy(ref2, b.dst.data, b.dbytes);
    moved = malloc(sizeof *moved);
    memcpy(moved, &plan, sizeof plan);
    memset(&plan, 0xEE, sizeof plan);
    memset(b.dst.data, 0x77, b.dbytes);
    CHECK(quant_run(moved, &b.src, dynamic(c) ? &b.sc : NULL, dynamic(c) && b.nzp ? &b.zp : NULL, &b.dst) == QUANT_OK,
          "%s: run on new data", c->name);
    CHECK(memcmp(b.dst.data, ref2, b.dbytes) == 0, "%s: run on new data differs", c->name);
    check_splits(moved, c, &b, ref2);
    misuse(moved, c, &b);
    free(moved);
    free(src0);
    free(dst0);
    free(ref);
    free(ref2);
    unmake(&b);
}

/* A prepare that fails returns the op's own status and leaves the plan
   as it was; an empty tensor has no units and runs with NULL data. */
static void check_prepare(void)
{
    static float x[12];
    static int8_t q[12];
    const float sc[3] = { 0.5f, 0.25f, 2.0f }, bad_sc[1] = { 0.0f };
    quant_tensor s = { QUANT_F32, 2, { 4, 3 }, x }, d = { QUANT_S8, 2, { 4, 3 }, q };
    quant_tensor e = { QUANT_F32, 2, { 0, 3 }, NULL }, ed = { QUANT_S8, 2, { 0, 3 }, NULL };
    quant_attrs a = quant_attrs_default();
    quant_plan p, fill;
    size_t k;
    memset(&fill, 0xC3, sizeof fill);
    a.scales = bad_sc;
    a.n_scales = 1;
    p = fill;
    CHECK(quant_prepare(&p, QUANT_OP_QUANTIZE, &s, NULL, NULL, &d, &a) == QUANT_ERR_SCALE_VALUE &&
          quant_quantize(&s, &d, &a) == QUANT_ERR_SCALE_VALUE, "prepare: zero scale");
    CHECK(memcmp(&p, &fill, sizeof p) == 0, "prepare: a failed prepare wrote the plan");
    a.scales = sc;
    a.n_scales = 3;
    CHECK(quant_prepare(&p, QUANT_OP_QUANTIZE, &s, NULL, NULL, &d, &a) == QUANT_ERR_SCALES, "prepare: 3 scales per tensor");
    a.qtype = QUANT_PER_CHANNEL;
    a.axis = 0;
    CHECK(quant_prepare(&p, QUANT_OP_QUANTIZE, &s, NULL, NULL, &d, &a) == QUANT_ERR_SCALES, "prepare: axis 0 has 4");
    CHECK(quant_prepare(&p, (quant_op)7, &s, NULL, NULL, &d, &a) == QUANT_ERR_ATTR, "prepare: op 7");
    CHECK(quant_prepare(NULL, QUANT_OP_QUANTIZE, &s, NULL, NULL, &d, &a) == QUANT_ERR_NULL, "prepare: plan NULL");
    CHECK(quant_prepare(&p, QUANT_OP_DYNAMIC_QUANTIZE, &s, NULL, NULL, &d, &a) == QUANT_ERR_NULL,
          "prepare: dynamic without scales");
    CHECK(memcmp(&p, &fill, sizeof p) == 0, "prepare: failed prepares wrote the plan");
    a.axis = 1;
    CHECK(quant_prepare(&p, QUANT_OP_QUANTIZE, &e, NULL, NULL, &ed, &a) == QUANT_OK, "prepare: empty");
    CHECK(quant_plan_units(&p) == 0, "prepare: an empty tensor has %zu units", quant_plan_units(&p));
    CHECK(quant_run(&p, &e, NULL, NULL, &ed) == QUANT_OK, "run: empty");
    CHECK(quant_run_range(&p, &e, NULL, NULL, &ed, 0, 1) == QUANT_ERR_RANGE, "run: empty, range 0..1");
    for (k = 0; k < 12; ++k) x[k] = (float)k;
    CHECK(quant_prepare(&p, QUANT_OP_QUANTIZE, &s, NULL, NULL, &d, &a) == QUANT_OK, "prepare: axis 1");
    CHECK(quant_run(&p, &s, NULL, NULL, &d) == QUANT_OK && q[11] == 6 && q[1] == 4, "run: axis 1 values");
}

int main(void)
{
    size_t k;
    check_cpu();
    for (k = 0; k < sizeof cases / sizeof cases[0]; ++k) run_case(&cases[k]);
    check_prepare();
    return check_done("test_plan");
}
