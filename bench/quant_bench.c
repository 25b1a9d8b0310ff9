/* quant-bench: quant.h side by side with the memory-traffic limit, a plain
   C loop, oneDNN's reorder and XNNPACK's convert, in one run.

     quant-bench [--quick] [--runs N] [--filter TEXT] [--json | --csv]

   Each row times every implementation in N rounds (default 7) after a
   warm-up, each implementation once per round; a run repeats the call
   until it has taken about 2 ms. ns/element is the median of the runs; a
   ratio is the median over the rounds of quant.h's time over the other's
   in that round (below 1 quant.h is faster), so that the two times it
   divides were taken moments apart on a shared, noisy machine. GB/s
   counts bytes read plus bytes written. Every row also checks results:
   the onednn rounding against oneDNN's reorder and the torch rounding
   against XNNPACK, bit for bit; a mismatch makes the exit status 1.

   "dispatch" is quant.h again, built with no -march (bench/dispatch_copy.c,
   runtime dispatch on x86-64); its column is that copy's time over this
   build's (above 1: the dispatch build is slower), and its results must
   equal this build's bit for bit.

   The rows of the 4-bit and bf16 formats come after the others, at 64 Ki
   and 1 Mi elements only:
   - u4->bf16, u4->f16, u4->f32, s4->bf16: the row kernels
     quant_{u4,s4}_to_* on one packed row, a scale and a packed zero point
     per group of 32 (layout g32) or 128 (g128); C is the number of groups.
     The limit reads n/2 bytes and writes 2n (4n for f32).
   - bf16->s8 exact, tensor: quant_bf16_to_s8 on the whole tensor;
     bf16->s8 onednn, tensor: quant_quantize (the row kernel has no
     rounding choice); layout rows: quant_quantize per_channel on axis 0
     of a [C, 4096] bf16 tensor, a scale per row of 4096; layout rowk: the
     same result by C calls of quant_bf16_to_s8, one per row. The limit
     reads 2n bytes and writes n.
   On these rows the plain C loop is checked too (plain:), and oneDNN's
   bf16 reorder against the onednn rows; every check is binding. GB/s
   counts the data only, not the scales and zero points. */
#define _POSIX_C_SOURCE 200809L
#define QUANT_IMPLEMENTATION
#include "../quant.h"
#include "baselines.h"
#include "dispatch_copy.h"

void mx_section(int runs, const char *filter, const float *x, size_t nmax); /* mx_section.c */
int ggml_section(int runs, const char *filter, const float *x, size_t nmax); /* ggml_section.c: failed checks */
int rq_section(int runs, const char *filter, size_t nmax); /* rq_section.c: failed checks */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

enum { OP_Q, OP_DQ, OP_W4 };
enum { PT, PC_AXIS1, PC_LAST, PG, PC_ROWS, PC_ROWK };
enum { ROW_LEN = 4096 }; /* rows, rowk: a scale per row of 4096 elements */
enum { I_QUANT, I_LIMIT, I_PLAIN, I_DNNL, I_XNN, I_DISP, N_IMPL };
static const char *impl_names[N_IMPL] = { "quant.h", "limit", "plain", "oneDNN", "XNNPACK", "dispatch" };
static const char *round_names[4] = { "exact", "onednn", "onnx", "torch" };
static const char *layout_names[6] = { "tensor", "axis1", "last", "group", "rows", "rowk" };

typedef struct row {
    int op, layout, rounding;
    quant_dtype qt;
    size_t n, C;
    quant_dtype ft; /* the float side: f32, f16 or bf16 */
    size_t g;       /* OP_W4: the group size */
} row;

typedef struct bufs {
    float *x, *y, *scales;
    uint8_t *q, *qref;
    uint16_t *h; /* bf16 source */
    uint8_t *gz; /* packed 4-bit zero points, one per group */
} bufs;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int is_f8(quant_dtype t) { return t == QUANT_F8_E4M3 || t == QUANT_F8_E5M2; }
static int32_t row_zp(const row *r) { return is_f8(r->qt) ? 0 : r->qt == QUANT_U8 ? 128 : 3; }
static size_t outer_of(const row *r) { return r->layout == PC_AXIS1 ? 1 : r->layout == PC_LAST ? r->n / r->C : 1; }
static size_t inner_of(const row *r)
{
    return r->layout == PC_AXIS1 || r->layout == PC_ROWS || r->layout == PC_ROWK ? r->n / r->C
           : r->layout == PC_LAST ? 1 : r->n;
}
static size_t chans_of(const row *r) { return r->layout == PT ? 1 : r->C; }
static quant_dtype fdt(const row *r) { return r->ft; }
/* the rows of the newer formats: packed 4-bit rows and bf16 sources */
static int is_new(const row *r) { return r->op == OP_W4 || fdt(r) != QUANT_F32; }
static int w4_sgn(const row *r) { return r->qt == QUANT_S4; }
/* MXFP4 weights: packed f4_e2m1 with an e8m0 scale per 32 (the codes in gz) */
static int is_f4(const row *r) { return r->op == OP_W4 && r->qt == QUANT_F4_E2M1; }
static int w4_out(const row *r) { return fdt(r) == QUANT_F32 ? 0 : fdt(r) == QUANT_F16 ? 1 : 2; }
/* the bytes of one destination element; of data read and written per element */
static size_t out_size(const row *r) { return r->op == OP_W4 ? (fdt(r) == QUANT_F32 ? 4 : 2) : r->op == OP_Q ? 1 : 4; }
static double bytes_per_elem(const row *r)
{
    if (r->op == OP_W4) return 0.5 + (double)out_size(r);
    return fdt(r) == QUANT_F32 ? 5.0 : 3.0;
}
static const char *layout_name(const row *r, char *buf, size_t len)
{
    if (r->layout != PG) return layout_names[r->layout];
    snprintf(buf, len, "g%zu", r->g);
    return buf;
}

typedef struct ctx {
    const row *r;
    bufs *b;
    quant_tensor tf, tq;
    quant_attrs a;
    int64_t zp64;
    peer *p;
    int impl;
} ctx;

/* quant_{u4,s4}_to_{f32,f16,bf16}, as disp_w4 */
static void quant_w4(const uint8_t *src, void *dst, size_t n, const float *scales, const uint8_t *zps, size_t g,
                     int sgn, int out)
{
    switch (sgn * 3 + out) {
    case 0: quant_u4_to_f32(src, (float *)dst, n, scales, zps, g); break;
    case 1: quant_u4_to_f16(src, (uint16_t *)dst, n, scales, zps, g); break;
    case 2: quant_u4_to_bf16(src, (uint16_t *)dst, n, scales, zps, g); break;
    case 3: quant_s4_to_f32(src, (float *)dst, n, scales, zps, g); break;
    case 4: quant_s4_to_f16(src, (uint16_t *)dst, n, scales, zps, g); break;
    default: quant_s4_to_bf16(src, (uint16_t *)dst, n, scales, zps, g); break;
    }
}

/* the 4-bit and bf16 rows: 4-bit rows from q into y, bf16 from h into q */
static void call_new(ctx *c)
{
    const row *r = c->r;
    bufs *b = c->b;
    const int u8 = r->qt == QUANT_U8, recip = r->rounding == QUANT_ROUND_ONEDNN;
    const int32_t z = row_zp(r);
    size_t k;
    switch (c->impl) {
    case I_QUANT:
    case I_DISP: {
        void (*w4)(const uint8_t *, void *, size_t, const float *, const uint8_t *, size_t, int, int) =
            c->impl == I_DISP ? disp_w4 : quant_w4;
        void (*h8)(const uint16_t *, int8_t *, size_t, float, int32_t) =
            c->impl == I_DISP ? disp_bf16_to_s8 : quant_bf16_to_s8;
        if (is_f4(r)) {
            if (w4_out(r) == 0) quant_mxfp4_to_f32(b->q, b->y, r->n, b->gz);
            else (w4_out(r) == 1 ? quant_mxfp4_to_f16 : quant_mxfp4_to_bf16)(b->q, (uint16_t *)(void *)b->y, r->n, b->gz);
        } else if (r->op == OP_W4) w4(b->q, b->y, r->n, b->scales, b->gz, r->g, w4_sgn(r), w4_out(r));
        else if (r->layout == PT && r->rounding == QUANT_ROUND_EXACT) h8(b->h, (int8_t *)b->q, r->n, b->scales[0], z);
        else if (r->layout == PC_ROWK)
            for (k = 0; k < r->C; ++k) h8(b->h + k * ROW_LEN, (int8_t *)b->q + k * ROW_LEN, ROW_LEN, b->scales[k], z);
        else if (c->impl == I_DISP) disp_quantize(&c->tf, &c->tq, &c->a);
        else quant_quantize(&c->tf, &c->tq, &c->a);
        break;
    }
    case I_LIMIT:
        if (r->op != OP_W4) limit_narrow16(b->h, b->q, r->n);
        else if (w4_out(r) == 0) limit_w4_32(b->q, b->y, r->n);
        else limit_w4_16(b->q, (uint16_t *)(void *)b->y, r->n);
        break;
    case I_PLAIN:
        if (r->op == OP_W4) plain_w4(b->q, b->y, r->n, b->scales, b->gz, r->g, w4_sgn(r), w4_out(r));
        else if (r->layout == PT) plain_bf16_quantize(b->h, b->q, r->n, b->scales[0], z, u8, recip);
        else plain_bf16_quantize_rows(b->h, b->q, r->C, ROW_LEN, b->scales, z, u8, recip);
        break;
    default:
        peer_run(c->p);
    }
}

static void call(ctx *c)
{
    const row *r = c->r;
    bufs *b = c->b;
    const int u8 = r->qt == QUANT_U8;
    if (is_new(r)) { call_new(c); return; }
    switch (c->impl) {
    case I_QUANT:
        if (r->op == OP_Q) quant_quantize(&c->tf, &c->tq, &c->a);
        else quant_dequantize(&c->tq, &c->tf, &c->a);
        break;
    case I_LIMIT:
        if (r->op == OP_Q) limit_narrow(b->x, b->q, r->n);
        else limit_widen(b->q, b->y, r->n);
        break;
    case I_PLAIN:
        if (is_f8(r->qt)) {
            if (r->op == OP_Q) plain_f32_to_f8(b->x, b->q, r->n, b->scales[0], r->qt == QUANT_F8_E5M2);
            else plain_f8_to_f32(b->q, b->y, r->n, b->scales[0], r->qt == QUANT_F8_E5M2);
        } else if (r->op == OP_DQ) plain_dequantize(b->q, b->y, r->n, b->scales[0], row_zp(r), u8);
        else if (r->layout == PT)
            plain_quantize(b->x, b->q, r->n, b->scales[0], row_zp(r), u8,
                           r->rounding == QUANT_ROUND_ONEDNN || r->rounding == QUANT_ROUND_TORCH);
        else plain_quantize_channels(b->x, b->q, outer_of(r), chans_of(r), inner_of(r), b->scales, row_zp(r), u8);
        break;
    case I_DISP:
        if (r->op == OP_Q) disp_quantize(&c->tf, &c->tq, &c->a);
        else disp_dequantize(&c->tq, &c->tf, &c->a);
        break;
    default:
        peer_run(c->p);
    }
}

static double median(double *v, int n)
{
    int i, j;
    for (i = 1; i < n; ++i) /* insertion sort: n is small */
        for (j = i; j > 0 && v[j] < v[j - 1]; --j) {
            double t = v[j]; v[j] = v[j - 1]; v[j - 1] = t;
        }
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* calls of c that take about 2 ms, after a warm-up */
static long calibrate(ctx *c)
{
    double t0, one;
    call(c);
    t0 = now(); call(c); one = now() - t0;
    return one < 2e6 ? (long)(2e6 / (one > 1 ? one : 1)) : 1;
}

/* ns per element of one timed run of reps calls */
static double timed(ctx *c, long reps)
{
    const double t0 = now();
    long k;
    for (k = 0; k < reps; ++k) call(c);
    return (now() - t0) / ((double)reps * (double)c->r->n);
}

static void fill(bufs *b, size_t n, size_t C)
{
    size_t i;
    uint64_t s = 0x243F6A8885A308D3ull;
    for (i = 0; i < n; ++i) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        /* around +-150 quantization steps: some values saturate s8 */
        b->x[i] = ((float)(s >> 40) / 16777216.0f - 0.5f) * 300.0f * 0.05f;
        b->q[i] = (uint8_t)(s >> 32);
    }
    for (i = 0; i < C; ++i) b->scales[i] = 0.05f + 0.001f * (float)(i % 17);
}

/* after fill: x truncated to bf16 in h, and random packed zero points */
static void fill_new(bufs *b, const row *r)
{
    size_t i;
    uint64_t s = 0x13198A2E03707344ull;
    for (i = 0; i < r->n; ++i) {
        uint32_t u;
        memcpy(&u, &b->x[i], 4);
        b->h[i] = (uint16_t)(u >> 16);
    }
    for (i = 0; i < (chans_of(r) + 1) / 2; ++i) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        b->gz[i] = (uint8_t)(s >> 32);
    }
    if (is_f4(r)) /* a valid e8m0 code a group: 2^-7 .. 2^0 */
        for (i = 0; i < chans_of(r); ++i) b->gz[i] = (uint8_t)(120u + b->gz[i] % 8u);
}

typedef struct result {
    double ns[N_IMPL];    /* median ns per element; 0: not measured */
    double ratio[N_IMPL]; /* median over the rounds of quant.h's time over this one's */
    long mismatches[N_IMPL];
    int checked[N_IMPL];
} result;


static void run_row(const row *r, bufs *b, int runs, result *res)
{
    ctx c, cs[N_IMPL];
    const size_t C = chans_of(r);
    const int u8 = r->qt == QUANT_U8;
    int impl, k, i, have[N_IMPL];
    long reps[N_IMPL];
    double t[N_IMPL][64];
    memset(res, 0, sizeof *res);
    memset(&c, 0, sizeof c);
    c.r = r; c.b = b;
    c.tf.dtype = QUANT_F32; c.tf.rank = 3;
    c.tf.dims[0] = (int64_t)outer_of(r); c.tf.dims[1] = (int64_t)C; c.tf.dims[2] = (int64_t)inner_of(r);
    c.tq = c.tf;
    c.tq.dtype = r->qt;
    c.tf.data = r->op == OP_Q ? (void *)b->x : (void *)b->y;
    c.tq.data = b->q;
    c.a = quant_attrs_default();
    c.a.qtype = r->layout == PT ? QUANT_PER_TENSOR : QUANT_PER_CHANNEL;
    c.a.axis = 1;
    c.a.scales = b->scales; c.a.n_scales = C;
    c.zp64 = row_zp(r);
    c.a.zps = &c.zp64; c.a.n_zps = 1;
    c.a.rounding = (quant_rounding)r->rounding;
    if (is_new(r) && r->op == OP_Q) { /* bf16 -> s8; rows: a [C, 4096] tensor, axis 0 */
        c.tf.dtype = fdt(r);
        c.tf.data = b->h;
        if (r->layout == PC_ROWS) {
            c.tf.rank = 2; c.tf.dims[0] = (int64_t)C; c.tf.dims[1] = ROW_LEN; c.tf.dims[2] = 0;
            c.a.axis = 0;
        }
        c.tq = c.tf;
        c.tq.dtype = r->qt;
        c.tq.data = b->q;
    }

    /* set up every implementation there is for this row */
    for (impl = 0; impl < N_IMPL; ++impl) {
        cs[impl] = c;
        cs[impl].impl = impl;
        have[impl] = 1;
        if (is_f4(r) && (impl == I_PLAIN || impl == I_DISP)) { have[impl] = 0; continue; } /* quant.h and the limit */
        if (impl == I_DNNL && is_new(r)) {
            /* bf16 -> s8 with output scales, as the f32 rows; oneDNN 2.6 has no 4-bit types */
            have[impl] = 0;
            if (r->op != OP_Q || fdt(r) != QUANT_BF16 || r->rounding != QUANT_ROUND_ONEDNN) continue;
            cs[impl].p = peer_dnnl_prepare_bf16(u8, outer_of(r), C, inner_of(r), b->scales, row_zp(r), b->h, b->q);
            have[impl] = cs[impl].p != NULL;
        } else if (impl == I_DNNL) {
            /* oneDNN's reorder is the onednn rounding; it has no f8 here */
            have[impl] = 0;
            if (is_f8(r->qt) || (r->op == OP_Q && r->rounding != QUANT_ROUND_ONEDNN)) continue;
            cs[impl].p = peer_dnnl_prepare(r->op == OP_Q, u8, outer_of(r), C, inner_of(r), b->scales,
                                           row_zp(r), r->op == OP_Q ? (void *)b->x : (void *)b->q,
                                           r->op == OP_Q ? (void *)b->q : (void *)b->y);
            have[impl] = cs[impl].p != NULL;
        }
        if (impl == I_XNN) {
            /* XNNPACK's convert is the torch rounding, per tensor only */
            have[impl] = 0;
            if (is_new(r) || is_f8(r->qt) || r->layout != PT || (r->op == OP_Q && r->rounding != QUANT_ROUND_TORCH))
                continue;
            cs[impl].p = peer_xnn_prepare(r->op == OP_Q, u8, r->n, b->scales[0], row_zp(r),
                                          r->op == OP_Q ? (void *)b->x : (void *)b->q,
                                          r->op == OP_Q ? (void *)b->q : (void *)b->y);
            have[impl] = cs[impl].p != NULL;
        }
    }

    /* checks first: quant.h's output is kept (dequantize borrows x for
       it), then each peer's output is compared with it */
    if (is_new(r)) {
        /* the plain loop too; each output, quant.h's first, is written
           over a poisoned buffer and compared element by element */
        uint8_t *out = r->op == OP_W4 ? (uint8_t *)(void *)b->y : b->q;
        const size_t es = out_size(r);
        memset(out, 0xA5, r->n * es);
        call(&cs[I_QUANT]);
        memcpy(b->qref, out, r->n * es);
        for (impl = I_PLAIN; impl <= I_DISP; ++impl) {
            size_t i;
            long bad = 0;
            if (!have[impl]) continue;
            memset(out, 0xA5, r->n * es);
            call(&cs[impl]);
            for (i = 0; i < r->n; ++i) bad += memcmp(out + i * es, b->qref + i * es, es) != 0;
            res->checked[impl] = 1;
            res->mismatches[impl] = bad;
        }
    } else {
        call(&cs[I_QUANT]);
        if (r->op == OP_Q) memcpy(b->qref, b->q, r->n);
        else memcpy(b->x, b->y, r->n * 4);
        for (impl = I_DNNL; impl <= I_DISP; ++impl) {
            size_t i;
            long bad = 0;
            if (!have[impl]) continue;
            call(&cs[impl]);
            if (r->op == OP_Q) { for (i = 0; i < r->n; ++i) bad += b->q[i] != b->qref[i]; }
            else { for (i = 0; i < r->n; ++i) bad += memcmp(&b->y[i], &b->x[i], 4) != 0; }
            res->checked[impl] = 1;
            res->mismatches[impl] = bad;
        }
    }

    /* timing in rounds, each implementation once per round, so that every
       ratio compares runs made moments apart on this noisy machine: a
       ratio is the median over the rounds of that round's ratio. The
       dispatch copy runs right after quant.h, and quant.h right after an
       untimed call of itself, so that both follow the same kernels: a
       peer's dirty cache lines (up to an L3 of them) would otherwise be
       written back inside whichever ran next, and the streaming stores
       of the 32 Mi rows leave none. */
    for (impl = 0; impl < N_IMPL; ++impl)
        if (have[impl]) reps[impl] = calibrate(&cs[impl]);
    for (k = 0; k < runs; ++k) {
        static const int order[N_IMPL] = { I_QUANT, I_DISP, I_LIMIT, I_PLAIN, I_DNNL, I_XNN };
        call(&cs[I_QUANT]);
        for (i = 0; i < N_IMPL; ++i)
            if (have[order[i]]) t[order[i]][k] = timed(&cs[order[i]], reps[order[i]]);
    }
    for (impl = 0; impl < N_IMPL; ++impl) {
        double q[64];
        if (!have[impl]) continue;
        for (k = 0; k < runs; ++k) q[k] = t[I_QUANT][k] / t[impl][k];
        res->ratio[impl] = median(q, runs);
        res->ns[impl] = median(t[impl], runs);
        peer_free(cs[impl].p);
    }
    if (r->op == OP_DQ) fill(b, r->n, C); /* the dequantize check borrowed x */
}


/* ---- choosing scales from the data -------------------------------------- */
/* Rows: choose (quant_choose_qparams) and fused (quant_choose_and_quantize)
   per tensor (asymmetric u8, rounding onnx: ONNX DynamicQuantizeLinear)
   and per row of 4096 (nudged s8, XNNPACK's qd8; rows-p: the same with
   on_error partial, which reads src once). Columns: the limit
   (read-only for choose; read 4n, write n for fused), quantize-only
   (quant_dynamic_quantize with the chosen scales, same rounding), the
   plain C two-pass loop (asymmetric, ONNX's formula), the dispatch build. */
enum { C_QUANT, C_LIMIT, C_QONLY, C_PLAIN, C_DISP, N_C };

typedef struct cctx {
    int fused, rows, which; /* rows: 1 per row, 2 per row with on_error partial */
    size_t n;
    const float *x;
    uint8_t *q;
    float *s;
    int32_t *z;
    quant_tensor src, dst, st, zt;
    quant_attrs a;
    volatile uint32_t sink;
} cctx;

static void ccall(cctx *c)
{
    const quant_scheme sch = c->rows ? QUANT_ASYMMETRIC_NUDGED : QUANT_ASYMMETRIC;
    const quant_dtype qt = c->rows ? QUANT_S8 : QUANT_U8;
    const size_t nr = c->rows ? c->n / ROW_LEN : 1, len = c->rows ? ROW_LEN : c->n;
    switch (c->which) {
    case C_QUANT:
        if (c->fused) quant_choose_and_quantize(&c->src, &c->dst, sch, &c->a, &c->st, &c->zt);
        else quant_choose_qparams(&c->src, qt, sch, &c->a, &c->st, &c->zt);
        break;
    case C_DISP:
        if (c->fused) disp_choose_quantize(&c->src, &c->dst, sch, &c->a, &c->st, &c->zt);
        else disp_choose(&c->src, qt, sch, &c->a, &c->st, &c->zt);
        break;
    case C_LIMIT:
        if (c->fused) limit_narrow(c->x, c->q, c->n);
        else c->sink = limit_read(c->x, c->n);
        break;
    case C_QONLY:
        quant_dynamic_quantize(&c->src, &c->st, &c->zt, &c->dst, &c->a);
        break;
    default:
        if (c->fused) plain_choose_quantize(c->x, c->q, nr, len, c->s, c->z, !c->rows);
        else plain_choose(c->x, nr, len, c->s, c->z, !c->rows);
    }
}

static double ctimed(cctx *c, long reps)
{
    const double t0 = now();
    long k;
    for (k = 0; k < reps; ++k) ccall(c);
    return (now() - t0) / ((double)reps * (double)c->n);
}

static void choose_section(int quick, int runs, const char *filter, const float *x, uint8_t *q)
{
    static const size_t sizes[] = { 65536, 1048576, 33554432 };
    static const char *names[N_C] = { "quant.h", "limit", "quantize", "plain", "dispatch" };
    const size_t nsizes = quick ? 2 : 3;
    float *s = malloc(sizeof(float) * (33554432 / ROW_LEN));
    int32_t *z = malloc(sizeof(int32_t) * (33554432 / ROW_LEN));
    size_t si;
    int fused, rows, head = 0;
    static const char *const layouts[3] = { "tensor", "rows", "rows-p" };
    (void)names;
    for (si = 0; si < nsizes; ++si)
        for (rows = 0; rows < 3; ++rows)
            for (fused = 0; fused < 2; ++fused) {
                cctx c[N_C];
                double t[N_C][64], ratio[N_C], ns;
                long reps[N_C];
                char name[96];
                int i, k;
                const size_t n = sizes[si];
                snprintf(name, sizeof name, "%s %s n=%zu", fused ? "fused" : "choose", layouts[rows], n);
                if (filter && !strstr(name, filter)) continue;
                if (!head) {
                    printf("\nscales from the data: choose = quant_choose_qparams, fused = quant_choose_and_quantize;\n"
                           "tensor: asymmetric u8 (ONNX), rows: nudged s8 per row of %d (XNNPACK qd8)\n", ROW_LEN);
                    printf("%-8s %-6s %9s %9s %8s %9s %8s %8s\n", "op", "layout", "n", "ns/elem", "x limit",
                           "x quantize", "x plain", "dispatch");
                    head = 1;
                }
                for (i = 0; i < N_C; ++i) {
                    memset(&c[i], 0, sizeof c[i]);
                    c[i].fused = fused; c[i].rows = rows; c[i].which = i; c[i].n = n;
                    c[i].x = x; c[i].q = q; c[i].s = s; c[i].z = z;
                    c[i].src.dtype = QUANT_F32; c[i].src.data = (void *)(uintptr_t)x;
                    c[i].a = quant_attrs_default();
                    if (rows) {
                        c[i].src.rank = 2; c[i].src.dims[0] = (int64_t)(n / ROW_LEN); c[i].src.dims[1] = ROW_LEN;
                        c[i].a.qtype = QUANT_PER_CHANNEL; c[i].a.axis = 0; c[i].a.rounding = QUANT_ROUND_TORCH;
                        c[i].st.rank = 1; c[i].st.dims[0] = (int64_t)(n / ROW_LEN);
                        if (rows == 2) c[i].a.on_error = QUANT_ON_ERROR_PARTIAL;
                    } else {
                        c[i].src.rank = 1; c[i].src.dims[0] = (int64_t)n; c[i].a.rounding = QUANT_ROUND_ONNX;
                        c[i].st.rank = 1; c[i].st.dims[0] = 1;
                    }
                    c[i].dst = c[i].src; c[i].dst.dtype = rows ? QUANT_S8 : QUANT_U8; c[i].dst.data = q;
                    c[i].zt = c[i].st; c[i].zt.dtype = QUANT_S32; c[i].zt.data = z;
                    c[i].st.dtype = QUANT_F32; c[i].st.data = s;
                }
                /* quantize-only needs the scales: one choose first */
                ccall(&c[C_QUANT]);
                for (i = 0; i < N_C; ++i) {
                    double one, t0;
                    ccall(&c[i]);
                    t0 = now(); ccall(&c[i]); one = now() - t0;
                    reps[i] = one < 2e6 ? (long)(2e6 / (one > 1 ? one : 1)) : 1;
                }
                for (k = 0; k < runs; ++k)
                    for (i = 0; i < N_C; ++i) t[i][k] = ctimed(&c[i], reps[i]);
                for (i = 0; i < N_C; ++i) {
                    double r[64];
                    for (k = 0; k < runs; ++k) r[k] = t[C_QUANT][k] / t[i][k];
                    ratio[i] = median(r, runs);
                }
                ns = median(t[C_QUANT], runs);
                printf("%-8s %-6s %9zu %9.4f %8.2f %9.2f %8.2f %8.2f\n", fused ? "fused" : "choose",
                       layouts[rows], n, ns, ratio[C_LIMIT], ratio[C_QONLY], ratio[C_PLAIN],
                       1.0 / ratio[C_DISP]);
                fflush(stdout);
            }
    free(s);
    free(z);
}

static const char *op_name(const row *r, char *buf, size_t len)
{
    const char *t = quant_dtype_name(r->qt), *f = quant_dtype_name(fdt(r));
    if (r->op == OP_Q) snprintf(buf, len, "%s->%s %s", f, t, is_f8(r->qt) ? "" : round_names[r->rounding]);
    else snprintf(buf, len, "%s->%s", t, f);
    return buf;
}

static void cpu_name(char *out, size_t len)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    snprintf(out, len, "unknown CPU");
    if (!f) return;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10)) {
            char *p = strchr(line, ':');
            if (p) { snprintf(out, len, "%s", p + 2); out[strcspn(out, "\n")] = 0; }
            break;
        }
    fclose(f);
}


/* ---- plans, threads and strides (issue-style rows) ---------------------- */

/* One timed thing of the plans section: what it runs, on which tensors. */
enum { P_PLAN, P_ONESHOT, P_LIMIT, P_XNN, P_PLAN2, P_STRIDED, N_P };
typedef struct pctx {
    int which;
    size_t n;
    quant_plan plan;
    quant_tensor src, dst;
    quant_attrs a;
    const float *x;
    uint8_t *q;
    peer *xnn;
} pctx;

typedef struct half_job { const quant_plan *plan; const quant_tensor *src; quant_tensor *dst; size_t b, e; } half_job;
static void *run_half(void *arg)
{
    half_job *j = (half_job *)arg;
    quant_run_range(j->plan, j->src, NULL, NULL, j->dst, j->b, j->e);
    return NULL;
}

static void pcall(pctx *c)
{
    switch (c->which) {
    case P_PLAN: quant_run(&c->plan, &c->src, NULL, NULL, &c->dst); break;
    case P_ONESHOT: quant_quantize(&c->src, &c->dst, &c->a); break;
    case P_LIMIT: limit_narrow(c->x, c->q, c->n); break;
    case P_XNN: if (c->xnn) peer_run(c->xnn); break;
    case P_STRIDED: quant_quantize(&c->src, &c->dst, &c->a); break;
    default: { /* two threads, each half of the plan's units */
        const size_t units = quant_plan_units(&c->plan);
        half_job j = { &c->plan, &c->src, &c->dst, units / 2, units };
        pthread_t t;
        if (pthread_create(&t, NULL, run_half, &j) != 0) { run_half(&j); j.e = j.b; }
        quant_run_range(&c->plan, &c->src, NULL, NULL, &c->dst, 0, units / 2);
        if (j.e != j.b) pthread_join(t, NULL);
    }
    }
}

static double ptimed(pctx *c, long reps)
{
    const double t0 = now();
    long k;
    for (k = 0; k < reps; ++k) pcall(c);
    return (now() - t0) / ((double)reps * (double)c->n);
}

/* Rows: plan (quant_run) against the one-shot call, the traffic limit and
   XNNPACK at 4 Ki and 64 Ki per tensor (torch); per channel on axis 1 of
   [1, 64, 8, 8]; two threads on one plan at 1 Mi and 32 Mi; NCHW f32 ->
   NHWC s8 (attrs.dst_strides) at 1 Mi against the dense quantize. */
static void plan_section(int quick, int runs, const char *filter, const float *x, uint8_t *q)
{
    static const char *const kinds[5] = { "plan tensor", "plan axis1", "threads 2", "strided nhwc", NULL };
    static const size_t tsizes[2] = { 4096, 65536 }, thsizes[2] = { 1048576, 33554432 };
    static const float scales64[64] = { 0.5f, 0.25f, 0.125f, 0.75f, 0.5f, 0.25f, 0.125f, 0.75f, 0.5f, 0.25f, 0.125f, 0.75f,
        0.5f, 0.25f, 0.125f, 0.75f, 0.5f, 0.25f, 0.125f, 0.75f, 0.5f, 0.25f, 0.125f, 0.75f, 0.5f, 0.25f, 0.125f, 0.75f,
        0.5f, 0.25f, 0.125f, 0.75f, 0.5f, 0.25f, 0.125f, 0.75f, 0.5f, 0.25f, 0.125f, 0.75f, 0.5f, 0.25f, 0.125f, 0.75f,
        0.5f, 0.25f, 0.125f, 0.75f, 0.5f, 0.25f, 0.125f, 0.75f, 0.5f, 0.25f, 0.125f, 0.75f, 0.5f, 0.25f, 0.125f, 0.75f,
        0.5f, 0.25f, 0.125f, 0.75f };
    static const int64_t nhwc[4] = { 64 * 128 * 128, 1, 128 * 64, 64 };
    int kind, head = 0, si;
    for (kind = 0; kinds[kind]; ++kind)
        for (si = 0; si < (kind == 1 || kind == 3 ? 1 : quick && kind == 2 ? 1 : 2); ++si) {
            pctx c[N_P];
            double t[N_P][64], ratio[N_P], ns;
            long reps[N_P];
            char name[96];
            int i, k, used[N_P] = { 0 };
            const size_t n = kind == 0 ? tsizes[si] : kind == 1 ? 4096 : kind == 2 ? thsizes[si] : 1048576;
            snprintf(name, sizeof name, "%s n=%zu", kinds[kind], n);
            if (filter && !strstr(name, filter)) continue;
            if (!head) {
                printf("\nplans, threads, strides (f32 -> s8; x: the first column's time over the other's, same run)\n");
                printf("%-13s %9s %9s %9s %8s %8s %8s\n", "row", "n", "ns/elem", "x 1-shot", "x limit", "x XNNPACK",
                       "x 1 thr");
                head = 1;
            }
            used[P_LIMIT] = 1;
            used[kind == 2 ? P_PLAN2 : kind == 3 ? P_STRIDED : P_PLAN] = 1;
            used[kind == 2 ? P_PLAN : P_ONESHOT] = 1;
            if (kind == 0) used[P_XNN] = 1;
            for (i = 0; i < N_P; ++i) {
                pctx *p = &c[i];
                memset(p, 0, sizeof *p);
                p->which = i; p->n = n; p->x = x; p->q = q;
                p->a = quant_attrs_default();
                p->a.rounding = QUANT_ROUND_TORCH;
                p->src.dtype = QUANT_F32; p->src.data = (void *)(uintptr_t)x;
                p->src.rank = 1; p->src.dims[0] = (int64_t)n;
                if (kind == 1 || kind == 3) {
                    p->src.rank = 4; p->src.dims[0] = 1; p->src.dims[1] = 64;
                    p->src.dims[2] = p->src.dims[3] = kind == 1 ? 8 : 128;
                }
                p->dst = p->src; p->dst.dtype = QUANT_S8; p->dst.data = q;
                p->a.scales = scales64;
                p->a.n_scales = kind == 1 ? 64 : 1;
                if (kind == 1) p->a.qtype = QUANT_PER_CHANNEL;
                if (i == P_STRIDED) p->a.dst_strides = nhwc;
                if (!used[i]) continue;
                if (i == P_PLAN || i == P_PLAN2)
                    if (quant_prepare(&p->plan, QUANT_OP_QUANTIZE, &p->src, NULL, NULL, &p->dst, &p->a) != QUANT_OK) {
                        printf("%s: prepare failed\n", name);
                        return;
                    }
                if (i == P_XNN) p->xnn = peer_xnn_prepare(1, 0, n, scales64[0], 0, (void *)(uintptr_t)x, q);
            }
            for (i = 0; i < N_P; ++i) {
                double one, t0;
                if (!used[i]) continue;
                pcall(&c[i]);
                t0 = now(); pcall(&c[i]); one = now() - t0;
                reps[i] = one < 2e6 ? (long)(2e6 / (one > 1 ? one : 1)) : 1;
            }
            for (k = 0; k < runs; ++k)
                for (i = 0; i < N_P; ++i)
                    if (used[i]) t[i][k] = ptimed(&c[i], reps[i]);
            {
                const int first = kind == 2 ? P_PLAN2 : kind == 3 ? P_STRIDED : P_PLAN;
                char col[N_P][16];
                for (i = 0; i < N_P; ++i) {
                    double r[64];
                    if (!used[i] || (i == P_XNN && !c[i].xnn)) { snprintf(col[i], sizeof col[i], "-"); continue; }
                    for (k = 0; k < runs; ++k) r[k] = t[first][k] / t[i][k];
                    ratio[i] = median(r, runs);
                    snprintf(col[i], sizeof col[i], "%.2f", ratio[i]);
                }
                ns = median(t[first], runs);
                printf("%-13s %9zu %9.4f %9s %8s %8s %8s\n", kinds[kind], n, ns, kind == 2 ? "-" : col[P_ONESHOT],
                       col[P_LIMIT], col[P_XNN], kind == 2 ? col[P_PLAN] : "-");
            }
            for (i = 0; i < N_P; ++i)
                if (c[i].xnn) peer_free(c[i].xnn);
            fflush(stdout);
        }
}

int main(int argc, char **argv)
{
    static const size_t sizes_full[] = { 4096, 65536, 1048576, 33554432 };
    static const size_t sizes_quick[] = { 65536, 1048576 };
    static const size_t last_cs_full[] = { 16, 256, 4096 };
    static const size_t last_cs_quick[] = { 256 };
    static const size_t sizes_new[] = { 65536, 1048576 }, groups[] = { 32, 128 };
    static const quant_dtype w4_outs[3] = { QUANT_BF16, QUANT_F16, QUANT_F32 };
    int quick = 0, runs = 7, json = 0, csv = 0, i, failures = 0, first = 1;
    const char *filter = NULL;
    const size_t *sizes, *last_cs;
    size_t nsizes, nlast, si, maxn = 0, maxnew = 0, maxc = 4096, k;
    row rows[512];
    int nrows = 0;
    bufs b;
    char cpu[128], name[64], date[32];
    time_t t = time(NULL);

    /* oneDNN threads through OpenMP, which reads this once at load time */
    if (!getenv("OMP_NUM_THREADS")) {
        setenv("OMP_NUM_THREADS", "1", 1);
        execv("/proc/self/exe", argv);
    }
#ifndef __OPTIMIZE__
    fprintf(stderr, "quant-bench: built without optimization (-O0); its figures say nothing of quant.h's speed\n");
#endif
    for (i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--quick")) quick = 1;
        else if (!strcmp(argv[i], "--json")) json = 1;
        else if (!strcmp(argv[i], "--csv")) csv = 1;
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--filter") && i + 1 < argc) filter = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--quick] [--runs N] [--filter TEXT] [--json | --csv]\n", argv[0]);
            return 2;
        }
    }
    if (runs < 5) runs = 5;
    if (runs > 63) runs = 63;
    sizes = quick ? sizes_quick : sizes_full;
    nsizes = quick ? 2 : 4;
    last_cs = quick ? last_cs_quick : last_cs_full;
    nlast = quick ? 1 : 3;

    for (si = 0; si < nsizes; ++si) {
        const size_t n = sizes[si];
        static const quant_dtype ints[2] = { QUANT_S8, QUANT_U8 }, f8s[2] = { QUANT_F8_E4M3, QUANT_F8_E5M2 };
        int d, rnd;
        for (d = 0; d < 2; ++d) {
            for (rnd = 0; rnd < 4; ++rnd) rows[nrows++] = (row){ OP_Q, PT, rnd, ints[d], n, 1, QUANT_F32, 0 };
            rows[nrows++] = (row){ OP_DQ, PT, 0, ints[d], n, 1, QUANT_F32, 0 };
        }
        for (d = 0; d < 2; ++d) {
            rows[nrows++] = (row){ OP_Q, PT, 0, f8s[d], n, 1, QUANT_F32, 0 };
            rows[nrows++] = (row){ OP_DQ, PT, 0, f8s[d], n, 1, QUANT_F32, 0 };
        }
        for (k = 0; k <= nlast; ++k) {
            const int layout = k == 0 ? PC_AXIS1 : PC_LAST;
            const size_t C = k == 0 ? 64 : last_cs[k - 1];
            rows[nrows++] = (row){ OP_Q, layout, QUANT_ROUND_EXACT, QUANT_S8, n, C, QUANT_F32, 0 };
            rows[nrows++] = (row){ OP_Q, layout, QUANT_ROUND_ONEDNN, QUANT_S8, n, C, QUANT_F32, 0 };
            rows[nrows++] = (row){ OP_DQ, layout, 0, QUANT_S8, n, C, QUANT_F32, 0 };
        }
        if (n > maxn) maxn = n;
    }
    /* the 4-bit and bf16 rows, after the rows above */
    for (si = 0; si < sizeof sizes_new / sizeof sizes_new[0]; ++si) {
        const size_t n = sizes_new[si];
        int d;
        for (k = 0; k < 2; ++k) {
            for (d = 0; d < 3; ++d) rows[nrows++] = (row){ OP_W4, PG, 0, QUANT_U4, n, n / groups[k], w4_outs[d], groups[k] };
            rows[nrows++] = (row){ OP_W4, PG, 0, QUANT_S4, n, n / groups[k], QUANT_BF16, groups[k] };
            if (groups[k] == 32)
                for (d = 0; d < 3; ++d) rows[nrows++] = (row){ OP_W4, PG, 0, QUANT_F4_E2M1, n, n / 32, w4_outs[d], 32 };
            if (n / groups[k] > maxc) maxc = n / groups[k];
        }
        rows[nrows++] = (row){ OP_Q, PT, QUANT_ROUND_EXACT, QUANT_S8, n, 1, QUANT_BF16, 0 };
        rows[nrows++] = (row){ OP_Q, PT, QUANT_ROUND_ONEDNN, QUANT_S8, n, 1, QUANT_BF16, 0 };
        rows[nrows++] = (row){ OP_Q, PC_ROWS, QUANT_ROUND_EXACT, QUANT_S8, n, n / ROW_LEN, QUANT_BF16, 0 };
        rows[nrows++] = (row){ OP_Q, PC_ROWS, QUANT_ROUND_ONEDNN, QUANT_S8, n, n / ROW_LEN, QUANT_BF16, 0 };
        rows[nrows++] = (row){ OP_Q, PC_ROWK, QUANT_ROUND_EXACT, QUANT_S8, n, n / ROW_LEN, QUANT_BF16, 0 };
        if (n > maxn) maxn = n;
        if (n > maxnew) maxnew = n;
    }

    b.x = malloc(maxn * 4); b.y = malloc(maxn * 4); b.q = malloc(maxn); b.qref = malloc(maxn * 4);
    b.scales = malloc(maxc * 4); b.h = malloc(maxnew * 2); b.gz = malloc(maxnew / 2 + 1);
    if (!b.x || !b.y || !b.q || !b.qref || !b.scales || !b.h || !b.gz) { fprintf(stderr, "out of memory\n"); return 1; }

    cpu_name(cpu, sizeof cpu);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&t));
#if defined(__clang__)
#define COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define COMPILER "gcc " __VERSION__
#else
#define COMPILER "unknown compiler"
#endif
    if (json) printf("{\"date\":\"%s\",\"cpu\":\"%s\",\"compiler\":\"%s\",\"backend\":\"%s\",\"runs\":%d,\"rows\":[\n",
                     date, cpu, COMPILER, quant_backend(), runs);
    else if (csv) printf("op,layout,channels,n,quant_ns,quant_gbs,x_limit,x_plain,x_onednn,x_xnnpack,dispatch,check\n");
    else {
        printf("quant-bench %s | %s | %s | backend %s (dispatch build: %s) | median of %d runs, one thread\n",
               date, cpu, COMPILER, quant_backend(), disp_backend(), runs);
        printf("ratios are quant.h time / other time (below 1: quant.h is faster);\n"
               "dispatch is the no-march build's time / this build's\n\n");
        printf("%-22s %-6s %5s %9s %9s %7s %8s %8s %8s %8s %8s  %s\n", "op", "layout", "C", "n", "ns/elem", "GB/s",
               "x limit", "x plain", "x oneDNN", "x XNNPACK", "dispatch", "check");
    }

    for (i = 0; i < nrows; ++i) {
        const row *r = &rows[i];
        result res;
        char ratio[N_IMPL][16], check[128], lay[16];
        const char *layout = layout_name(r, lay, sizeof lay);
        double bytes;
        int impl;
        op_name(r, name, sizeof name);
        {
            char full[160];
            snprintf(full, sizeof full, "%s %s C=%zu n=%zu", name, layout, chans_of(r), r->n);
            if (filter && !strstr(full, filter)) continue;
        }
        fill(&b, r->n, chans_of(r));
        if (is_new(r)) fill_new(&b, r);
        run_row(r, &b, runs, &res);
        bytes = (double)r->n * bytes_per_elem(r);
        snprintf(check, sizeof check, "-");
        for (impl = 1; impl < N_IMPL; ++impl) {
            if (res.ns[impl] > 0) snprintf(ratio[impl], 16, "%.2f", res.ratio[impl]);
            else snprintf(ratio[impl], 16, "-");
        }
        /* the dispatch column reads the other way: its time over this build's */
        if (res.ns[I_DISP] > 0) snprintf(ratio[I_DISP], 16, "%.2f", 1.0 / res.ratio[I_DISP]);
        for (impl = I_PLAIN; impl <= I_DISP; ++impl)
            if (res.checked[impl]) {
                /* the contract is onednn == oneDNN and torch == XNNPACK on
                   quantize, and the two builds of quant.h agree everywhere;
                   on the 4-bit and bf16 rows the plain loop must agree too */
                const int binding = r->op == OP_Q || impl == I_DISP || is_new(r);
                const size_t len = strcmp(check, "-") ? strlen(check) : 0;
                snprintf(check + len, sizeof check - len, "%s:%s ",
                         impl == I_PLAIN ? "plain" : impl == I_DNNL ? "dnnl" : impl == I_XNN ? "xnn" : "disp",
                         res.mismatches[impl] ? (binding ? "FAIL" : "differs") : "ok");
                if (res.mismatches[impl] && binding) ++failures;
            }
        if (json) {
            printf("%s{\"op\":\"%s\",\"layout\":\"%s\",\"channels\":%zu,\"n\":%zu", first ? "" : ",\n", name,
                   layout, chans_of(r), r->n);
            for (impl = 0; impl < N_IMPL; ++impl)
                if (res.ns[impl] > 0) printf(",\"%s_ns\":%.4f", impl_names[impl], res.ns[impl]);
            printf(",\"check\":\"%s\"}", check);
            first = 0;
        } else if (csv) {
            printf("%s,%s,%zu,%zu,%.4f,%.2f,%s,%s,%s,%s,%s,%s\n", name, layout, chans_of(r), r->n,
                   res.ns[I_QUANT], bytes / (res.ns[I_QUANT] * (double)r->n), ratio[I_LIMIT], ratio[I_PLAIN],
                   ratio[I_DNNL], ratio[I_XNN], ratio[I_DISP], check);
        } else {
            printf("%-22s %-6s %5zu %9zu %9.4f %7.1f %8s %8s %8s %8s %8s  %s\n", name, layout,
                   chans_of(r), r->n, res.ns[I_QUANT], bytes / (res.ns[I_QUANT] * (double)r->n), ratio[I_LIMIT],
                   ratio[I_PLAIN], ratio[I_DNNL], ratio[I_XNN], ratio[I_DISP], check);
        }
        fflush(stdout);
    }
    if (!json && !csv) {
        /* the largest size needs its own buffers */
        float *cx = malloc(33554432u * 4u);
        uint8_t *cq = malloc(33554432u);
        size_t j;
        uint64_t rs = 0x452821E638D01377ull;
        if (!cx || !cq) { fprintf(stderr, "out of memory\n"); return 1; }
        for (j = 0; j < 33554432u; ++j) {
            rs = rs * 6364136223846793005ull + 1442695040888963407ull;
            cx[j] = ((float)(rs >> 40) / 16777216.0f - 0.5f) * 15.0f;
        }
        choose_section(quick, runs, filter, cx, cq);
        plan_section(quick, runs, filter, cx, cq);
        mx_section(runs, filter, cx, quick ? 65536u : 16777216u);
        failures += ggml_section(runs, filter, cx, quick ? 65536u : 16777216u);
        failures += rq_section(runs, filter, quick ? 65536u : 16777216u);
        free(cx);
        free(cq);
    }
    if (json) printf("\n],\"check_failures\":%d}\n", failures);
    else if (!csv) printf("\nresult checks: %s\n", failures ? "FAILED" : "all passed");
    return failures ? 1 : 0;
}
