/* test_ggml.c - ggml's block formats (QUANT_Q4_0 .. QUANT_NVFP4_BLOCK)
   against vectors ggml itself wrote and against tests/oracle_ggml.h, an
   independent decoder checked bit for bit against ggml's
   dequantize_row_* on millions of blocks.

     test_ggml DIR [N]  DIR holds <name>.bin for the 15 types (meson passes
                        tests/data/ggml); without DIR only the checks that
                        need no file run. N: random blocks per type
                        (default 10000, rounded down to hundreds)

   A vector file, little-endian:
     char magic[8] "QGGMLV1\0"; uint32 block_elems, block_bytes, rows, cols;
     uint8 row_flags[rows] (bit0: the row is exactly bf16 values, bit1:
     exactly f16, bit2: x86-64 ggml's bytes for it come from C-undefined
     behaviour; such rows are checked like the others: quant.h gives
     those bytes on every platform); float input[rows * cols]; uint8
     encoded[...] (ggml's quantizer, tests/ggml/gen_vectors.c); float
     roundtrip[rows * cols] (ggml's decode of encoded);
     uint32 dec_blocks; uint8 blocks[dec_blocks * block_bytes] (any bytes);
     float decoded[dec_blocks * block_elems] (ggml's decode of blocks).

   Per type: quantize of input (f32, and the flagged rows from bf16 and
   f16) gives encoded; dequantize of blocks and encoded gives ggml's
   floats, and the oracle's, bit for bit (f16/bf16: the oracle's f32
   rounded once more to nearest even); plans split into random ranges
   write what the whole op writes, each range its own bytes; the dynamic
   ops with no scales give the same; 10000 random blocks decode as the
   oracle decodes them; bad arguments get their status with dst
   untouched; names round-trip. NaN results compare as NaN == NaN (the
   payload of a NaN ggml computes is the hardware's). Every buffer is its
   own allocation of exactly its size. */
#include "../quant.h"
#include "check.h"
#include "oracle_ggml.h"

#include <math.h>
#include <stdio.h>

static const quant_dtype gtypes[OG_NTYPES] = {
    QUANT_Q4_0, QUANT_Q4_1, QUANT_Q5_0, QUANT_Q5_1, QUANT_Q8_0, QUANT_Q2_K, QUANT_Q3_K, QUANT_Q4_K,
    QUANT_Q5_K, QUANT_Q6_K, QUANT_Q8_K, QUANT_IQ4_NL, QUANT_IQ4_XS, QUANT_MXFP4, QUANT_NVFP4_BLOCK
};

/* malloc(0) may return NULL: an empty buffer is one byte, never read */
static void *alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) { fprintf(stderr, "out of memory\n"); exit(1); }
    return p;
}

static quant_tensor tensor(quant_dtype t, int rank, int64_t d0, int64_t d1, void *data)
{
    quant_tensor x;
    memset(&x, 0, sizeof x);
    x.dtype = t;
    x.rank = rank;
    x.dims[0] = d0;
    x.dims[1] = d1;
    x.data = data;
    return x;
}

/* the fills dst starts from: a and its complement, never equal */
static uint8_t fill_a(size_t i) { return (uint8_t)(0x5A + 7 * i + (i >> 8)); }
static uint8_t fill_b(size_t i) { return (uint8_t)(0xFFu ^ fill_a(i)); }
static void fill(uint8_t *p, size_t n, int second)
{
    size_t i;
    for (i = 0; i < n; ++i) p[i] = second ? fill_b(i) : fill_a(i);
}
static int untouched(const uint8_t *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; ++i)
        if (p[i] != fill_a(i)) return 0;
    return 1;
}

static int f32_same(float a, float b)
{
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
    return check_bits_float(a) == check_bits_float(b);
}
static int h_nan(uint16_t h, int f16) { return f16 ? (h & 0x7C00) == 0x7C00 && (h & 0x3FF) : (h & 0x7F80) == 0x7F80 && (h & 0x7F); }
static int h_same(uint16_t a, uint16_t b, int f16)
{
    if (h_nan(a, f16) || h_nan(b, f16)) return h_nan(a, f16) && h_nan(b, f16);
    return a == b;
}

static void hex(const char *label, const uint8_t *p, size_t n)
{
    size_t i;
    fprintf(stderr, "    %s:", label);
    for (i = 0; i < n; ++i) fprintf(stderr, "%s%02x", i % 32 ? " " : "\n      ", p[i]);
    fputc('\n', stderr);
}

/* ---- comparisons, one check per block, the first failures shown ---- */

static long nan_payload_diffs;

/* encoded bytes: nb blocks of bb bytes */
static void cmp_blocks(int t, const char *what, const uint8_t *want, const uint8_t *got, size_t nb, size_t bb,
                       const float *input)
{
    size_t i, shown = 0;
    for (i = 0; i < nb; ++i) {
        const int ok = memcmp(want + i * bb, got + i * bb, bb) == 0;
        CHECK(ok, "%s %s: block %zu differs", og_name(t), what, i);
        if (!ok && shown++ < 2) {
            size_t k, first = 0;
            while (want[i * bb + first] == got[i * bb + first]) ++first;
            fprintf(stderr, "  %s %s block %zu: first differing byte %zu (want %02x got %02x)\n", og_name(t), what, i,
                    first, want[i * bb + first], got[i * bb + first]);
            hex("want", want + i * bb, bb);
            hex("got ", got + i * bb, bb);
            if (input) {
                const size_t be = (size_t)og_block_elems(t);
                fprintf(stderr, "    input bits:");
                for (k = 0; k < be; ++k)
                    fprintf(stderr, "%s%08x", k % 8 ? " " : "\n      ", (unsigned)check_bits_float(input[i * be + k]));
                fputc('\n', stderr);
            }
        }
    }
}

/* decoded floats: nb blocks of be elements */
static void cmp_f32(int t, const char *what, const float *want, const float *got, size_t nb, size_t be)
{
    size_t i, k, shown = 0;
    for (i = 0; i < nb; ++i) {
        size_t bad = 0, first = 0;
        for (k = 0; k < be; ++k) {
            const float w = want[i * be + k], g = got[i * be + k];
            if (!f32_same(w, g)) {
                if (!bad++) first = k;
            } else if (isnan(w) && check_bits_float(w) != check_bits_float(g)) {
                ++nan_payload_diffs;
            }
        }
        CHECK(bad == 0, "%s %s: block %zu, %zu elements differ", og_name(t), what, i, bad);
        if (bad && shown++ < 3)
            fprintf(stderr, "  %s %s block %zu element %zu: want %08x got %08x\n", og_name(t), what, i, first,
                    (unsigned)check_bits_float(want[i * be + first]), (unsigned)check_bits_float(got[i * be + first]));
    }
}

static void cmp_half(int t, const char *what, const float *ref, const uint16_t *got, size_t nb, size_t be, int f16)
{
    size_t i, k, shown = 0;
    for (i = 0; i < nb; ++i) {
        size_t bad = 0, first = 0;
        for (k = 0; k < be; ++k) {
            const uint16_t w = f16 ? og_f32_to_f16(ref[i * be + k]) : og_f32_to_bf16(ref[i * be + k]);
            if (!h_same(w, got[i * be + k], f16) && !bad++) first = k;
        }
        CHECK(bad == 0, "%s %s: block %zu, %zu elements differ", og_name(t), what, i, bad);
        if (bad && shown++ < 3)
            fprintf(stderr, "  %s %s block %zu element %zu: f32 %08x, want %04x got %04x\n", og_name(t), what, i, first,
                    (unsigned)check_bits_float(ref[i * be + first]),
                    f16 ? og_f32_to_f16(ref[i * be + first]) : og_f32_to_bf16(ref[i * be + first]),
                    got[i * be + first]);
    }
}

/* ---- the vector files ---- */

typedef struct gdata {
    uint32_t be, bb, rows, cols, nd;
    size_t n, nb;              /* input elements, encoded blocks */
    uint8_t *flags, *enc, *blocks;
    float *input, *rt, *dec;
} gdata;

typedef struct reader { const uint8_t *p; size_t left; int ok; } reader;

static const uint8_t *take(reader *r, size_t n)
{
    const uint8_t *p = r->p;
    if (!r->ok || n > r->left) { r->ok = 0; return NULL; }
    r->p += n;
    r->left -= n;
    return p;
}
static uint32_t take_u32(reader *r)
{
    const uint8_t *p = take(r, 4);
    return p ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24 : 0;
}
static uint8_t *take_bytes(reader *r, size_t n)
{
    const uint8_t *p = take(r, n);
    uint8_t *out;
    if (!p) return NULL;
    out = alloc(n);
    memcpy(out, p, n);
    return out;
}
static float *take_floats(reader *r, size_t n)
{
    const uint8_t *p;
    float *out;
    size_t i;
    if (n > r->left / 4) { r->ok = 0; return NULL; }
    p = take(r, 4 * n);
    if (!p) return NULL;
    out = alloc(4 * n);
    for (i = 0; i < n; ++i) {
        const uint32_t u = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 | (uint32_t)p[4 * i + 2] << 16 |
                           (uint32_t)p[4 * i + 3] << 24;
        out[i] = check_float_bits(u);
    }
    return out;
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0, got;
    if (!f) return NULL;
    do {
        if (n == cap) {
            uint8_t *nb;
            cap = cap ? 2 * cap : 1 << 16;
            nb = realloc(buf, cap);
            if (!nb) { free(buf); fclose(f); return NULL; }
            buf = nb;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    *len = n;
    return buf;
}

static void free_gdata(gdata *g)
{
    free(g->flags); free(g->enc); free(g->blocks); free(g->input); free(g->rt); free(g->dec);
    memset(g, 0, sizeof *g);
}

static int read_gdata(const char *dir, int t, gdata *g)
{
    char path[4096];
    size_t len = 0;
    uint8_t *file;
    reader r;
    const uint8_t *magic;
    memset(g, 0, sizeof *g);
    snprintf(path, sizeof path, "%s/%s.bin", dir, og_name(t));
    file = slurp(path, &len);
    CHECK(file != NULL, "%s: cannot read %s", og_name(t), path);
    if (!file) return 0;
    r.p = file; r.left = len; r.ok = 1;
    magic = take(&r, 8);
    CHECK(magic && memcmp(magic, "QGGMLV1", 8) == 0, "%s: bad magic", path);
    g->be = take_u32(&r); g->bb = take_u32(&r); g->rows = take_u32(&r); g->cols = take_u32(&r);
    CHECK(r.ok && g->be == (uint32_t)og_block_elems(t) && g->bb == (uint32_t)og_block_bytes(t),
          "%s: block %u elements, %u bytes; expected %d, %d", path, g->be, g->bb, og_block_elems(t), og_block_bytes(t));
    CHECK(r.ok && g->cols % g->be == 0, "%s: %u columns, not whole blocks", path, g->cols);
    if (!r.ok || !magic || memcmp(magic, "QGGMLV1", 8) || g->be != (uint32_t)og_block_elems(t) ||
        g->bb != (uint32_t)og_block_bytes(t) || g->cols % g->be || (uint64_t)g->rows * g->cols > ((size_t)-1) / 8) {
        free(file);
        return 0;
    }
    g->n = (size_t)g->rows * g->cols;
    g->nb = g->n / g->be;
    g->flags = take_bytes(&r, g->rows);
    g->input = take_floats(&r, g->n);
    g->enc = take_bytes(&r, g->nb * g->bb);
    g->rt = take_floats(&r, g->n);
    g->nd = take_u32(&r);
    if (r.ok && g->nd > r.left / g->bb) r.ok = 0;
    g->blocks = take_bytes(&r, (size_t)g->nd * g->bb);
    g->dec = take_floats(&r, (size_t)g->nd * g->be);
    CHECK(r.ok, "%s: truncated", path);
    CHECK(!r.ok || r.left == 0, "%s: %zu bytes past the end", path, r.left);
    free(file);
    if (!r.ok) free_gdata(g);
    return r.ok;
}

/* ---- the checks with a file ---- */

/* x exactly as f16 (NaN: its payload's top 10 bits), or 0 when it is not
   exactly an f16 value */
static int to_f16_exact(float x, uint16_t *h)
{
    const uint32_t u = check_bits_float(x);
    *h = isnan(x) ? (uint16_t)((u >> 16 & 0x8000u) | 0x7C00u | (u >> 13 & 0x3FFu)) : og_f32_to_f16(x);
    return check_bits_float(og_f16(*h)) == u;
}

static void encode_checks(int t, const gdata *g)
{
    const quant_dtype qt = gtypes[t];
    const quant_attrs a = quant_attrs_default();
    const size_t bytes = quant_dtype_bytes(qt, (int64_t)g->n);
    int kind;
    CHECK(bytes == g->nb * g->bb, "%s: quant_dtype_bytes(%zu) = %zu, want %zu", og_name(t), g->n, bytes, g->nb * g->bb);
    {
        quant_tensor src = tensor(QUANT_F32, 2, g->rows, g->cols, g->input);
        uint8_t *d = alloc(g->nb * g->bb);
        quant_tensor dst = tensor(qt, 2, g->rows, g->cols, d);
        quant_status st;
        fill(d, g->nb * g->bb, 0);
        st = quant_quantize(&src, &dst, &a);
        CHECK(st == QUANT_OK, "%s: quantize f32: status %d", og_name(t), (int)st);
        if (st == QUANT_OK) cmp_blocks(t, "quantize f32", g->enc, d, g->nb, g->bb, g->input);
        free(d);
    }
    /* the rows that are exactly bf16 (kind 0) or f16 (kind 1) values, from those */
    for (kind = 0; kind < 2; ++kind) {
        size_t rows = 0, r, k, inexact = 0;
        uint16_t *h;
        uint8_t *want, *d;
        float *in;
        for (r = 0; r < g->rows; ++r) rows += (g->flags[r] >> kind) & 1;
        if (rows == 0) continue;
        h = alloc(rows * g->cols * 2);
        in = alloc(rows * g->cols * 4);
        want = alloc(rows * (g->cols / g->be) * g->bb);
        d = alloc(rows * (g->cols / g->be) * g->bb);
        rows = 0;
        for (r = 0; r < g->rows; ++r) {
            if (!((g->flags[r] >> kind) & 1)) continue;
            for (k = 0; k < g->cols; ++k) {
                const float x = g->input[r * g->cols + k];
                uint16_t *o = h + rows * g->cols + k;
                if (kind == 0) {
                    *o = (uint16_t)(check_bits_float(x) >> 16);
                    inexact += (check_bits_float(x) & 0xFFFFu) != 0;
                } else {
                    inexact += !to_f16_exact(x, o);
                }
                in[rows * g->cols + k] = x;
            }
            memcpy(want + rows * (g->cols / g->be) * g->bb, g->enc + r * (g->cols / g->be) * g->bb,
                   (g->cols / g->be) * g->bb);
            ++rows;
        }
        CHECK(inexact == 0, "%s: %zu inputs of rows flagged %s are not %s values", og_name(t), inexact,
              kind ? "f16" : "bf16", kind ? "f16" : "bf16");
        {
            quant_tensor src = tensor(kind ? QUANT_F16 : QUANT_BF16, 2, (int64_t)rows, g->cols, h);
            quant_tensor dst = tensor(qt, 2, (int64_t)rows, g->cols, d);
            quant_status st;
            fill(d, rows * (g->cols / g->be) * g->bb, 0);
            st = quant_quantize(&src, &dst, &a);
            CHECK(st == QUANT_OK, "%s: quantize %s: status %d", og_name(t), kind ? "f16" : "bf16", (int)st);
            if (st == QUANT_OK)
                cmp_blocks(t, kind ? "quantize f16 rows" : "quantize bf16 rows", want, d, rows * (g->cols / g->be),
                           g->bb, in);
        }
        free(h); free(in); free(want); free(d);
    }
}

/* src (nb blocks) to f32, f16 and bf16 against ref (ggml's floats) and
   the oracle */
static void decode_checks(int t, const char *what, const uint8_t *blocks, size_t nb, const float *ggml_out,
                          int64_t d0, int64_t d1)
{
    const quant_dtype qt = gtypes[t];
    const quant_attrs a = quant_attrs_default();
    const size_t be = (size_t)og_block_elems(t), n = nb * be;
    const int rank = d1 ? 2 : 1;
    float *og = alloc(n * 4), *y = alloc(n * 4);
    uint16_t *h = alloc(n * 2);
    quant_tensor src = tensor(qt, rank, d0, d1, (void *)blocks);
    quant_tensor dst = tensor(QUANT_F32, rank, d0, d1, y);
    quant_status st;
    char label[64];
    og_decode(t, blocks, nb, og);
    if (ggml_out) {
        snprintf(label, sizeof label, "%s: oracle vs ggml", what);
        cmp_f32(t, label, ggml_out, og, nb, be);
    }
    fill((uint8_t *)y, n * 4, 0);
    st = quant_dequantize(&src, &dst, &a);
    CHECK(st == QUANT_OK, "%s %s: dequantize f32: status %d", og_name(t), what, (int)st);
    if (st == QUANT_OK) {
        if (ggml_out) {
            snprintf(label, sizeof label, "%s -> f32 vs ggml", what);
            cmp_f32(t, label, ggml_out, y, nb, be);
        }
        snprintf(label, sizeof label, "%s -> f32 vs oracle", what);
        cmp_f32(t, label, og, y, nb, be);
    }
    {
        int f16;
        for (f16 = 0; f16 < 2; ++f16) {
            quant_tensor hd = tensor(f16 ? QUANT_F16 : QUANT_BF16, rank, d0, d1, h);
            fill((uint8_t *)h, n * 2, 0);
            st = quant_dequantize(&src, &hd, &a);
            CHECK(st == QUANT_OK, "%s %s: dequantize %s: status %d", og_name(t), what, f16 ? "f16" : "bf16", (int)st);
            snprintf(label, sizeof label, "%s -> %s", what, f16 ? "f16" : "bf16");
            if (st == QUANT_OK) cmp_half(t, label, og, h, nb, be, f16);
        }
    }
    free(og); free(y); free(h);
}

/* ---- plans ---- */

/* Runs [u0, u1) over both fills of d: mask[k] is 1 for the bytes it wrote
   (those it left differ between the fills), out what it wrote there. */
static int range_writes(const quant_plan *p, const quant_tensor *src, quant_tensor *dst, size_t bytes, size_t u0,
                        size_t u1, uint8_t *out, uint8_t *mask)
{
    uint8_t *d = dst->data;
    size_t k;
    fill(d, bytes, 0);
    if (quant_run_range(p, src, NULL, NULL, dst, u0, u1) != QUANT_OK) return 0;
    memcpy(out, d, bytes);
    fill(d, bytes, 1);
    if (quant_run_range(p, src, NULL, NULL, dst, u0, u1) != QUANT_OK) return 0;
    for (k = 0; k < bytes; ++k) {
        mask[k] = d[k] == out[k];
        if (!mask[k] && (out[k] != fill_a(k) || d[k] != fill_b(k))) return 0;
    }
    return 1;
}

/* op on src into dst (bytes long, already holding the one-shot result in
   whole): prepared, run whole and in random splits */
static void plan_checks(int t, const char *what, quant_op op, const quant_tensor *src, quant_tensor *dst,
                        size_t bytes, const uint8_t *whole, size_t nblocks)
{
    const quant_attrs a = quant_attrs_default();
    quant_plan p;
    quant_status st;
    size_t units, trial;
    uint8_t *d = dst->data, *out = alloc(bytes), *mask = alloc(bytes), *owner = alloc(bytes);
    st = quant_prepare(&p, op, src, NULL, NULL, dst, &a);
    CHECK(st == QUANT_OK, "%s %s: prepare: status %d", og_name(t), what, (int)st);
    if (st != QUANT_OK) goto done;
    units = quant_plan_units(&p);
    CHECK(units >= 1 && units <= nblocks, "%s %s: %zu units for %zu blocks", og_name(t), what, units, nblocks);
    fill(d, bytes, 0);
    st = quant_run(&p, src, NULL, NULL, dst);
    CHECK(st == QUANT_OK && memcmp(d, whole, bytes) == 0, "%s %s: run (status %d) differs from the op", og_name(t),
          what, (int)st);
    /* bad ranges: nothing written */
    fill(d, bytes, 0);
    st = quant_run_range(&p, src, NULL, NULL, dst, 0, units + 1);
    CHECK(st == QUANT_ERR_RANGE && untouched(d, bytes), "%s %s: range past the end: status %d", og_name(t), what, (int)st);
    if (units > 0) {
        st = quant_run_range(&p, src, NULL, NULL, dst, 1, 0);
        CHECK(st == QUANT_ERR_RANGE && untouched(d, bytes), "%s %s: range backwards: status %d", og_name(t), what,
              (int)st);
    }
    for (trial = 0; trial < 12; ++trial) {
        size_t cuts[12], m, i, j, k, bad = 0, missing = 0;
        if (trial == 0) { /* every unit alone, when few */
            if (units > 10) continue;
            m = units;
            for (i = 0; i <= m; ++i) cuts[i] = i;
        } else {
            m = 2 + check_rand() % 8;
            cuts[0] = 0;
            cuts[m] = units;
            for (i = 1; i < m; ++i) cuts[i] = check_rand() % (units + 1);
            if (m >= 4) { /* an empty range and a single unit */
                cuts[2] = cuts[1];
                cuts[3] = cuts[1] < units ? cuts[1] + 1 : cuts[1];
            }
            for (i = 1; i < m; ++i)
                for (j = i; j > 1 && cuts[j] < cuts[j - 1]; --j) { size_t x = cuts[j]; cuts[j] = cuts[j - 1]; cuts[j - 1] = x; }
        }
        memset(owner, 0, bytes);
        for (i = 0; i < m; ++i) {
            size_t wrote = 0;
            if (!range_writes(&p, src, dst, bytes, cuts[i], cuts[i + 1], out, mask)) {
                CHECK(0, "%s %s: range %zu..%zu of %zu failed or wrote different bytes on two fills", og_name(t), what,
                      cuts[i], cuts[i + 1], units);
                bad = 1;
                break;
            }
            for (k = 0; k < bytes; ++k) {
                if (!mask[k]) continue;
                ++wrote;
                if (owner[k] || out[k] != whole[k]) ++bad;
                owner[k] = 1;
            }
            CHECK(cuts[i] != cuts[i + 1] || wrote == 0, "%s %s: empty range %zu wrote %zu bytes", og_name(t), what,
                  cuts[i], wrote);
            CHECK(cuts[i] == cuts[i + 1] || wrote > 0, "%s %s: range %zu..%zu wrote nothing", og_name(t), what,
                  cuts[i], cuts[i + 1]);
        }
        for (k = 0; k < bytes; ++k) missing += !owner[k];
        CHECK(bad == 0 && missing == 0, "%s %s: split %zu into %zu ranges: %zu bytes shared or wrong, %zu not written",
              og_name(t), what, trial, m, bad, missing);
        /* all ranges into one buffer */
        fill(d, bytes, 0);
        for (i = 0; i < m; ++i) (void)quant_run_range(&p, src, NULL, NULL, dst, cuts[i], cuts[i + 1]);
        CHECK(memcmp(d, whole, bytes) == 0, "%s %s: split %zu: ranges together differ from the op", og_name(t), what,
              trial);
    }
done:
    free(out); free(mask); free(owner);
}

/* quantize and dequantize through plans and the dynamic ops, on the
   file's data (at most 64 rows and 64 blocks) */
static void plan_and_dynamic(int t, const gdata *g)
{
    const quant_dtype qt = gtypes[t];
    const quant_attrs a = quant_attrs_default();
    const size_t rows = g->rows < 64 ? g->rows : 64, nbq = rows * (g->cols / g->be), qbytes = nbq * g->bb;
    const size_t nbd = g->nd < 64 ? g->nd : 64, n = nbd * g->be;
    quant_status st;
    if (rows > 0) {
        uint8_t *whole = alloc(qbytes), *d = alloc(qbytes);
        quant_tensor src = tensor(QUANT_F32, 2, (int64_t)rows, g->cols, g->input);
        quant_tensor dst = tensor(qt, 2, (int64_t)rows, g->cols, d);
        fill(d, qbytes, 0);
        st = quant_quantize(&src, &dst, &a);
        CHECK(st == QUANT_OK, "%s: quantize: status %d", og_name(t), (int)st);
        memcpy(whole, d, qbytes);
        if (st == QUANT_OK) plan_checks(t, "plan quantize", QUANT_OP_QUANTIZE, &src, &dst, qbytes, whole, nbq);
        fill(d, qbytes, 0);
        st = quant_dynamic_quantize(&src, NULL, NULL, &dst, NULL);
        CHECK(st == QUANT_OK && memcmp(d, whole, qbytes) == 0, "%s: dynamic quantize (attrs NULL): status %d, %s",
              og_name(t), (int)st, st ? "" : "bytes differ");
        fill(d, qbytes, 0);
        st = quant_dynamic_quantize(&src, NULL, NULL, &dst, &a);
        CHECK(st == QUANT_OK && memcmp(d, whole, qbytes) == 0, "%s: dynamic quantize: status %d, %s", og_name(t),
              (int)st, st ? "" : "bytes differ");
        free(whole); free(d);
    }
    if (nbd > 0) {
        static const quant_dtype fdt[3] = { QUANT_F32, QUANT_F16, QUANT_BF16 };
        int k;
        for (k = 0; k < 3; ++k) {
            const size_t bytes = n * (k ? 2 : 4);
            uint8_t *whole = alloc(bytes), *d = alloc(bytes);
            quant_tensor src = tensor(qt, 2, (int64_t)nbd, g->be, g->blocks);
            quant_tensor dst = tensor(fdt[k], 2, (int64_t)nbd, g->be, d);
            char label[48];
            fill(d, bytes, 0);
            st = quant_dequantize(&src, &dst, &a);
            CHECK(st == QUANT_OK, "%s: dequantize: status %d", og_name(t), (int)st);
            memcpy(whole, d, bytes);
            snprintf(label, sizeof label, "plan dequantize %s", quant_dtype_name(fdt[k]));
            if (st == QUANT_OK) plan_checks(t, label, QUANT_OP_DEQUANTIZE, &src, &dst, bytes, whole, nbd);
            fill(d, bytes, 0);
            st = quant_dynamic_dequantize(&src, NULL, NULL, &dst, NULL);
            CHECK(st == QUANT_OK && memcmp(d, whole, bytes) == 0, "%s: dynamic dequantize %s (attrs NULL): status %d",
                  og_name(t), quant_dtype_name(fdt[k]), (int)st);
            fill(d, bytes, 0);
            st = quant_dynamic_dequantize(&src, NULL, NULL, &dst, &a);
            CHECK(st == QUANT_OK && memcmp(d, whole, bytes) == 0, "%s: dynamic dequantize %s: status %d", og_name(t),
                  quant_dtype_name(fdt[k]), (int)st);
            free(whole); free(d);
        }
    }
}

static void file_checks(int t, const char *dir)
{
    gdata g;
    if (!read_gdata(dir, t, &g)) return;
    encode_checks(t, &g);
    decode_checks(t, "blocks", g.blocks, g.nd, g.dec, (int64_t)g.nd * g.be, 0);
    decode_checks(t, "encoded", g.enc, g.nb, g.rt, g.rows, g.cols);
    plan_and_dynamic(t, &g);
    free_gdata(&g);
}

/* ---- random blocks ---- */

static uint16_t special_f16(void)
{
    static const uint16_t sp[] = { 0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x83FF, 0x0200, 0x0400, 0x8400, 0x7BFF,
                                   0xFBFF, 0x7C00, 0xFC00, 0x7C01, 0xFC01, 0x7E00, 0xFE00, 0x7FFF, 0xFFFF, 0x3C00 };
    const uint32_t r = check_rand();
    switch (r % 4) {
    case 0: return sp[(r >> 8) % (sizeof sp / sizeof *sp)];
    case 1: return (uint16_t)((r >> 8) & 0x83FFu);          /* zero or subnormal */
    case 2: return (uint16_t)(0x7C00u | ((r >> 8) & 0x83FFu)); /* Inf or NaN */
    default: return (uint16_t)(r >> 8);
    }
}
static uint32_t special_f32(void)
{
    const uint32_t r = check_rand(), m = check_rand();
    switch (r % 6) {
    case 0: return (r & 0x80000000u) | (m & 0x7FFFFFu);                                       /* subnormal */
    case 1: return (r & 0x80000000u) | 0x7F800000u | (m & 0x7FFFFFu);                         /* Inf, NaN */
    case 2: return (r & 0x80000000u) | (m % 30) << 23 | (check_rand() & 0x7FFFFFu);          /* tiny */
    case 3: return (r & 0x80000000u) | (0xFEu - m % 12) << 23 | (check_rand() & 0x7FFFFFu); /* huge */
    default: return m;
    }
}
static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }

/* random bytes, the f16/f32 scales often special */
static void random_block(int t, uint8_t *b)
{
    const int bb = og_block_bytes(t);
    int i;
    for (i = 0; i < bb; ++i) b[i] = (uint8_t)check_rand();
    if (check_rand() % 4 == 0) return;
    switch (t) {
    case OG_Q4_1: case OG_Q5_1: case OG_Q4_K: case OG_Q5_K: put16(b + 2, special_f16()); put16(b, special_f16()); break;
    case OG_Q4_0: case OG_Q5_0: case OG_Q8_0: case OG_IQ4_NL: case OG_IQ4_XS: put16(b, special_f16()); break;
    case OG_Q2_K: put16(b + 80, special_f16()); put16(b + 82, special_f16()); break;
    case OG_Q3_K: put16(b + 108, special_f16()); break;
    case OG_Q6_K: put16(b + 208, special_f16()); break;
    case OG_Q8_K: {
        const uint32_t u = special_f32();
        put16(b, (uint16_t)u);
        put16(b + 2, (uint16_t)(u >> 16));
        break;
    }
    default: break; /* mxfp4, nvfp4: every scale byte is some scale */
    }
}

static void random_checks(int t, size_t nblocks)
{
    const size_t bb = (size_t)og_block_bytes(t), be = (size_t)og_block_elems(t);
    uint8_t *b = alloc(nblocks * bb);
    size_t i;
    for (i = 0; i < nblocks; ++i) random_block(t, b + i * bb);
    /* 100 rows of nblocks / 100 blocks */
    decode_checks(t, "random", b, nblocks, NULL, 100, (int64_t)(nblocks / 100 * be));
    free(b);
}

/* ---- bad arguments: their status, dst untouched ---- */

/* quant_dtype_bytes of nb whole blocks: the exact byte count when it and
   the element count fit in size_t and int64, 0 when the bytes are past
   SIZE_MAX, either when only INT64_MAX or SIZE_MAX is passed */
static void bytes_near_limit(int t, uint64_t nb)
{
    const uint64_t be = (uint64_t)og_block_elems(t), bb = (uint64_t)og_block_bytes(t), sz_max = (size_t)-1;
    const uint64_t n = nb * be, want = nb * bb;
    size_t got;
    if (nb > (uint64_t)INT64_MAX / be) return; /* no int64 count */
    got = quant_dtype_bytes(gtypes[t], (int64_t)n);
    if (want > sz_max) {
        CHECK(got == 0, "%s: bytes of %llu elements: %zu, past SIZE_MAX", og_name(t), (unsigned long long)n, got);
    } else if (want > (uint64_t)INT64_MAX || n > sz_max) {
        CHECK(got == want || got == 0, "%s: bytes of %llu elements: %zu, want %llu or 0", og_name(t),
              (unsigned long long)n, got, (unsigned long long)want);
    } else {
        CHECK(got == want, "%s: bytes of %llu elements: %zu, want %llu", og_name(t), (unsigned long long)n, got,
              (unsigned long long)want);
    }
}

static void validation(int t)
{
    const quant_dtype qt = gtypes[t], other = gtypes[(t + 1) % OG_NTYPES];
    const int64_t be = og_block_elems(t), bb = og_block_bytes(t);
    const size_t cap = 4 * 4 * 300; /* every dst below fits in it */
    uint8_t *d = alloc(cap), *q = alloc((size_t)(4 * bb));
    float *x = alloc((size_t)(4 * be + 8) * 4);
    const float one = 1.0f;
    const int64_t zero = 0;
    quant_attrs a = quant_attrs_default();
    quant_status st;
    int64_t k;
    for (k = 0; k < 4 * be + 8; ++k) x[k] = (float)(k % 13) - 6.0f;
    for (k = 0; k < 4 * bb; ++k) q[k] = (uint8_t)(k * 37);

#define EXPECT(call, want, what)                                                                         \
    do {                                                                                                 \
        fill(d, cap, 0);                                                                                 \
        st = (call);                                                                                     \
        CHECK(st == (want) && untouched(d, cap), "%s: %s: status %d, want %d%s", og_name(t), what, (int)st, \
              (int)(want), untouched(d, cap) ? "" : ", dst written");                                     \
    } while (0)
#define EXPECT_ERR(call, what)                                                                           \
    do {                                                                                                 \
        fill(d, cap, 0);                                                                                 \
        st = (call);                                                                                     \
        CHECK(st != QUANT_OK && untouched(d, cap), "%s: %s: status %d%s", og_name(t), what, (int)st,        \
              untouched(d, cap) ? "" : ", dst written");                                                  \
    } while (0)
    {
        /* last dim not whole blocks */
        quant_tensor s1 = tensor(QUANT_F32, 2, 2, be + 1, x), d1 = tensor(qt, 2, 2, be + 1, d);
        quant_tensor s2 = tensor(QUANT_F32, 2, be, 4, x), d2 = tensor(qt, 2, be, 4, d); /* 4 * be elements */
        quant_tensor s3 = tensor(QUANT_F32, 1, be / 2, 0, x), d3 = tensor(qt, 1, be / 2, 0, d);
        quant_tensor s0 = tensor(QUANT_F32, 0, 0, 0, x), d0 = tensor(qt, 0, 0, 0, d);
        quant_tensor qs = tensor(qt, 2, be, 4, q), fd = tensor(QUANT_F32, 2, be, 4, d);
        quant_tensor qs1 = tensor(qt, 2, 2, be + 1, q), fd1 = tensor(QUANT_F32, 2, 2, be + 1, d);
        quant_plan p;
        EXPECT(quant_quantize(&s1, &d1, &a), QUANT_ERR_SHAPE, "quantize, last dim block + 1");
        EXPECT(quant_quantize(&s2, &d2, &a), QUANT_ERR_SHAPE, "quantize, last dim 4");
        EXPECT(quant_quantize(&s3, &d3, &a), QUANT_ERR_SHAPE, "quantize, half a block");
        EXPECT_ERR(quant_quantize(&s0, &d0, &a), "quantize, a scalar");
        EXPECT(quant_dequantize(&qs, &fd, &a), QUANT_ERR_SHAPE, "dequantize, last dim 4");
        EXPECT(quant_dequantize(&qs1, &fd1, &a), QUANT_ERR_SHAPE, "dequantize, last dim block + 1");
        EXPECT(quant_dynamic_quantize(&s1, NULL, NULL, &d1, NULL), QUANT_ERR_SHAPE, "dynamic quantize, last dim");
        EXPECT(quant_dynamic_dequantize(&qs, NULL, NULL, &fd, NULL), QUANT_ERR_SHAPE, "dynamic dequantize, last dim");
        memset(&p, 0, sizeof p);
        EXPECT(quant_prepare(&p, QUANT_OP_QUANTIZE, &s1, NULL, NULL, &d1, &a), QUANT_ERR_SHAPE, "prepare, last dim");
    }
    {
        quant_tensor src = tensor(QUANT_F32, 2, 4, be, x), dst = tensor(qt, 2, 4, be, d);
        quant_tensor qs = tensor(qt, 2, 4, be, q), fd = tensor(QUANT_F32, 2, 4, be, d);
        quant_tensor sc = tensor(QUANT_F32, 1, 1, 0, (void *)&one), sc0 = tensor(QUANT_F32, 0, 0, 0, (void *)&one);
        quant_attrs as = a, az = a;
        as.scales = &one; as.n_scales = 1;
        az.zps = &zero; az.n_zps = 1;
        EXPECT(quant_quantize(&src, &dst, &as), QUANT_ERR_SCALES, "quantize with a scales list");
        EXPECT(quant_dequantize(&qs, &fd, &as), QUANT_ERR_SCALES, "dequantize with a scales list");
        EXPECT(quant_quantize(&src, &dst, &az), QUANT_ERR_ZPS, "quantize with a zps list");
        EXPECT(quant_dequantize(&qs, &fd, &az), QUANT_ERR_ZPS, "dequantize with a zps list");
        EXPECT(quant_dynamic_quantize(&src, &sc, NULL, &dst, NULL), QUANT_ERR_SCALES, "dynamic quantize, scales [1]");
        EXPECT(quant_dynamic_quantize(&src, &sc0, NULL, &dst, NULL), QUANT_ERR_SCALES, "dynamic quantize, scalar scale");
        EXPECT(quant_dynamic_dequantize(&qs, &sc, NULL, &fd, NULL), QUANT_ERR_SCALES, "dynamic dequantize, scales [1]");
        {
            /* block -> block, block -> s8, f32 -> f32 through a block's op, a block as src of quantize */
            quant_tensor q2 = tensor(other, 2, 4, be, d), q3 = tensor(qt, 2, 4, be, d), s8 = tensor(QUANT_S8, 2, 4, be, d);
            EXPECT(quant_dequantize(&qs, &q2, &a), QUANT_ERR_DTYPE, "dequantize to another block type");
            EXPECT(quant_dequantize(&qs, &q3, &a), QUANT_ERR_DTYPE, "dequantize to itself");
            EXPECT(quant_quantize(&qs, &q2, &a), QUANT_ERR_DTYPE, "quantize block -> block");
            EXPECT(quant_quantize(&qs, &q3, &a), QUANT_ERR_DTYPE, "quantize block -> same block");
            EXPECT_ERR(quant_dequantize(&qs, &s8, &a), "dequantize block -> s8");
            EXPECT_ERR(quant_quantize(&qs, &fd, &a), "quantize block -> f32");
        }
        {
            /* a block type as a scales tensor of an ordinary dynamic dequantize */
            int8_t s8d[64];
            quant_tensor s8src = tensor(QUANT_S8, 2, 2, 32, s8d), bsc = tensor(qt, 1, be, 0, q);
            quant_tensor f = tensor(QUANT_F32, 2, 2, 32, d);
            memset(s8d, 3, sizeof s8d);
            EXPECT_ERR(quant_dynamic_dequantize(&s8src, &bsc, NULL, &f, NULL), "a block type as scales tensor");
        }
        {
            /* quant_choose_qparams with a block qdt */
            float s = 0;
            int32_t z = 0;
            quant_tensor sct = tensor(QUANT_F32, 0, 0, 0, &s), zt = tensor(QUANT_S32, 0, 0, 0, &z);
            st = quant_choose_qparams(&src, qt, QUANT_SYMMETRIC, NULL, &sct, NULL);
            CHECK(st == QUANT_ERR_DTYPE && s == 0, "%s: choose_qparams with qdt %s: status %d", og_name(t),
                  og_name(t), (int)st);
            st = quant_choose_qparams(&src, qt, QUANT_ASYMMETRIC, NULL, &sct, &zt);
            CHECK(st == QUANT_ERR_DTYPE && s == 0 && z == 0, "%s: choose_qparams asymmetric with qdt %s: status %d",
                  og_name(t), og_name(t), (int)st);
        }
    }
    {
        /* quant_dtype_bytes */
        const uint64_t sz_max = (size_t)-1, lim = sz_max < (uint64_t)INT64_MAX ? sz_max : (uint64_t)INT64_MAX;
        CHECK(quant_dtype_bytes(qt, 0) == 0, "%s: bytes of 0", og_name(t));
        CHECK(quant_dtype_bytes(qt, be) == (size_t)bb, "%s: bytes of one block", og_name(t));
        CHECK(quant_dtype_bytes(qt, 7 * be) == (size_t)(7 * bb), "%s: bytes of 7 blocks", og_name(t));
        CHECK(quant_dtype_bytes(qt, -1) == 0, "%s: bytes of -1", og_name(t));
        CHECK(quant_dtype_bytes(qt, -be) == 0, "%s: bytes of -block", og_name(t));
        CHECK(quant_dtype_bytes(qt, INT64_MIN) == 0, "%s: bytes of INT64_MIN", og_name(t));
        CHECK(quant_dtype_bytes(qt, 1) == 0, "%s: bytes of 1", og_name(t));
        CHECK(quant_dtype_bytes(qt, be + 1) == 0, "%s: bytes of block + 1", og_name(t));
        CHECK(quant_dtype_bytes(qt, be - 1) == 0, "%s: bytes of block - 1", og_name(t));
        CHECK(quant_dtype_bytes(qt, INT64_MAX) == 0, "%s: bytes of INT64_MAX (not whole)", og_name(t));
        /* whole blocks near the limits */
        bytes_near_limit(t, (uint64_t)INT64_MAX / (uint64_t)be); /* the most blocks an int64 count holds */
        bytes_near_limit(t, lim / (uint64_t)bb);                 /* the most whose bytes fit */
        bytes_near_limit(t, lim / (uint64_t)bb + 1);
        bytes_near_limit(t, sz_max / (uint64_t)be);              /* the most whose count fits in size_t */
        bytes_near_limit(t, sz_max / (uint64_t)be + 1);
    }
    {
        /* empty tensors, NULL data */
        quant_tensor es = tensor(QUANT_F32, 2, 0, be, NULL), ed = tensor(qt, 2, 0, be, NULL);
        quant_tensor es2 = tensor(QUANT_F32, 2, 3, 0, NULL), ed2 = tensor(qt, 2, 3, 0, NULL);
        quant_tensor eq = tensor(qt, 2, 0, be, NULL), ef = tensor(QUANT_BF16, 2, 0, be, NULL);
        quant_plan p;
        st = quant_quantize(&es, &ed, &a);
        CHECK(st == QUANT_OK, "%s: quantize [0, %lld]: status %d", og_name(t), (long long)be, (int)st);
        st = quant_quantize(&es2, &ed2, &a);
        CHECK(st == QUANT_OK, "%s: quantize [3, 0]: status %d", og_name(t), (int)st);
        st = quant_dequantize(&eq, &ef, &a);
        CHECK(st == QUANT_OK, "%s: dequantize [0, %lld]: status %d", og_name(t), (long long)be, (int)st);
        st = quant_dynamic_quantize(&es, NULL, NULL, &ed, NULL);
        CHECK(st == QUANT_OK, "%s: dynamic quantize empty: status %d", og_name(t), (int)st);
        st = quant_dynamic_dequantize(&eq, NULL, NULL, &ef, NULL);
        CHECK(st == QUANT_OK, "%s: dynamic dequantize empty: status %d", og_name(t), (int)st);
        st = quant_prepare(&p, QUANT_OP_DEQUANTIZE, &eq, NULL, NULL, &ef, &a);
        CHECK(st == QUANT_OK && quant_plan_units(&p) == 0, "%s: prepare empty: status %d", og_name(t), (int)st);
        if (st == QUANT_OK) {
            st = quant_run(&p, &eq, NULL, NULL, &ef);
            CHECK(st == QUANT_OK, "%s: run empty: status %d", og_name(t), (int)st);
        }
    }
#undef EXPECT
#undef EXPECT_ERR
    free(d); free(q); free(x);
}

static void names(void)
{
    int t, u;
    CHECK(QUANT_Q4_0 == QUANT_S16 + 1, "QUANT_Q4_0 is not right after QUANT_S16");
    for (t = 0; t < OG_NTYPES; ++t) {
        const char *n = quant_dtype_name(gtypes[t]);
        quant_dtype back = QUANT_UNDEF;
        CHECK(gtypes[t] == (quant_dtype)(QUANT_Q4_0 + t), "%s: not QUANT_Q4_0 + %d", og_name(t), t);
        CHECK(n != NULL && *n, "%s: no name", og_name(t));
        if (!n) continue;
        CHECK(quant_dtype_from_name(n, &back) == QUANT_OK && back == gtypes[t], "%s: name \"%s\" parses to %d",
              og_name(t), n, (int)back);
        for (u = 0; u <= (int)QUANT_S16 + OG_NTYPES; ++u) {
            const char *m = quant_dtype_name((quant_dtype)u);
            CHECK(u == (int)gtypes[t] || m == NULL || strcmp(m, n) != 0, "%s: name \"%s\" shared with dtype %d",
                  og_name(t), n, u);
        }
    }
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : NULL;
    const long nrand = argc > 2 ? atol(argv[2]) / 100 * 100 : 10000;
    int t;
    check_cpu();
    names();
    for (t = 0; t < OG_NTYPES; ++t) {
        validation(t);
        if (nrand > 0) random_checks(t, (size_t)nrand);
        if (dir) file_checks(t, dir);
    }
    if (!dir) printf("test_ggml: no vector directory given, ggml's vectors not checked\n");
    if (nan_payload_diffs) printf("test_ggml: %ld NaN results with another payload (not a failure)\n", nan_payload_diffs);
    return check_done("test_ggml");
}
