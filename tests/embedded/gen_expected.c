/* Host program: the expected hashes of the bare-metal test's cases,
   computed with the independent oracle (tests/oracle.h), printed as a C
   header; then, from ggml's own vectors in DIR (tests/data/ggml), the
   block formats' inputs, blocks and the hashes of ggml's results.

     gen_expected DIR > expected.h */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../oracle.h"
#include "cases.h"

static int64_t lo_of(int dt) { return dt == 1 ? 0 : -128; }
static int64_t hi_of(int dt) { return dt == 1 ? 255 : 127; }

static uint32_t q_one(int dt, float x, float s, int64_t z, int rnd, int ov)
{
    if (emb_is_f8(dt)) return o_quant_f8(x, s, rnd, dt - 2, ov);
    return (uint32_t)(uint8_t)o_quant_int(x, s, z, rnd, lo_of(dt), hi_of(dt));
}

/* ---- ggml's block formats ---- */

static const char *const blk_names[EMB_BLK_TYPES] = {
    "q4_0", "q4_1", "q5_0", "q5_1", "q8_0", "q2_K", "q3_K", "q4_K", "q5_K", "q6_K", "q8_K",
    "iq4_nl", "iq4_xs", "mxfp4", "nvfp4"
};
typedef struct blk_file {
    uint8_t *data;
    size_t size;
    uint32_t be, bb, rows, cols, nblk;
    const uint8_t *flags, *input, *encoded, *roundtrip, *blocks, *decoded;
} blk_file;

static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

static void die(const char *what, const char *name)
{
    fprintf(stderr, "gen_expected: %s: %s\n", name, what);
    exit(1);
}

/* reads and checks DIR/<name>.bin */
static void blk_read(const char *dir, const char *name, blk_file *f)
{
    char path[4096];
    FILE *fp;
    long n;
    size_t off, need;
    if (snprintf(path, sizeof path, "%s/%s.bin", dir, name) >= (int)sizeof path) die("path too long", name);
    fp = fopen(path, "rb");
    if (!fp) die("cannot open", path);
    if (fseek(fp, 0, SEEK_END) != 0 || (n = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) != 0) die("cannot seek", path);
    f->size = (size_t)n;
    f->data = (uint8_t *)malloc(f->size ? f->size : 1);
    if (!f->data || fread(f->data, 1, f->size, fp) != f->size) die("cannot read", path);
    fclose(fp);
    if (f->size < 24 || memcmp(f->data, "QGGMLV1", 8) != 0) die("not a QGGMLV1 file", path);
    f->be = rd32(f->data + 8);
    f->bb = rd32(f->data + 12);
    f->rows = rd32(f->data + 16);
    f->cols = rd32(f->data + 20);
    if (f->cols != EMB_BLK_COLS || f->be == 0 || f->cols % f->be || f->bb == 0 || f->rows == 0 || f->rows > 4096)
        die("unexpected header", path);
    off = 24;
    f->flags = f->data + off; off += f->rows;
    f->input = f->data + off; off += (size_t)f->rows * f->cols * 4;
    f->encoded = f->data + off; off += (size_t)f->rows * (f->cols / f->be) * f->bb;
    f->roundtrip = f->data + off; off += (size_t)f->rows * f->cols * 4;
    if (off + 4 > f->size) die("truncated", path);
    f->nblk = rd32(f->data + off); off += 4;
    if (f->nblk > 4096) die("too many blocks", path);
    f->blocks = f->data + off; off += (size_t)f->nblk * f->bb;
    f->decoded = f->data + off;
    need = off + (size_t)f->nblk * f->be * 4;
    if (need != f->size) die("size does not match its header", path);
}

/* the rows taken: all but those where ggml's C is undefined (row_flags
   bit2: ggml's bytes are what its x86-64 build happens to do) */
static int blk_taken(const blk_file *f, uint32_t r) { return r < f->rows && !(f->flags[r] & 4); }

/* hash of n little-endian floats, NaN canonical */
static uint32_t hash_f32s(uint32_t h, const uint8_t *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; ++i) h = emb_hash(h, emb_canon32(rd32(p + 4 * i)));
    return h;
}

static void blk_emit(const char *dir)
{
    static blk_file F[EMB_BLK_TYPES];
    uint32_t t, r, b, nrows = 0, nblk = 0, nbytes = 0, col;
    size_t i;
    for (t = 0; t < EMB_BLK_TYPES; ++t) blk_read(dir, blk_names[t], &F[t]);

    printf("\n/* ggml's block formats, from ggml's vectors (tests/data/ggml) */\n");
    printf("static const emb_blk_type emb_blk_types[EMB_BLK_TYPES] = {\n");
    for (t = 0; t < EMB_BLK_TYPES; ++t) {
        const blk_file *f = &F[t];
        uint32_t rows = 0, hb = EMB_HASH0, hh = EMB_HASH0;
        for (r = 0; r < f->rows; ++r) rows += (uint32_t)blk_taken(f, r);
        for (i = 0; i < (size_t)f->nblk * f->be; ++i) {
            const float y = emb_f(rd32(f->decoded + 4 * i));
            hb = emb_hash(hb, emb_canon_bf16(o_bf16_code(y)));
            hh = emb_hash(hh, emb_canon_f16(o_f16_code(y)));
        }
        printf("    { %uu, %uu, %uu, %uu, %uu, %uu, %uu, 0x%08xu, 0x%08xu }, /* %s */\n", f->be, f->bb, nrows, rows,
               nblk, f->nblk, nbytes, hb, hh, blk_names[t]);
        nrows += rows;
        nblk += f->nblk;
        nbytes += f->nblk * f->bb;
    }
    printf("};\n#define EMB_BLK_NROWS %u\n#define EMB_BLK_NBLK %u\n", nrows, nblk);

    printf("static const emb_blk_row emb_blk_rows[EMB_BLK_NROWS] = {\n");
    for (t = 0; t < EMB_BLK_TYPES; ++t) {
        const blk_file *f = &F[t];
        const size_t rb = (size_t)(f->cols / f->be) * f->bb;
        for (r = 0; r < f->rows; ++r) {
            uint32_t he = EMB_HASH0;
            if (!blk_taken(f, r)) continue;
            for (col = 0; col < f->cols; ++col) { /* the flags the target relies on */
                const uint32_t u = rd32(f->input + ((size_t)r * f->cols + col) * 4);
                if (((f->flags[r] & 1) && (u & 0xFFFFu)) || ((f->flags[r] & 2) && o_f16_value(emb_f16_exact(u)) != emb_f(u)))
                    die("a row's flags do not hold", blk_names[t]);
            }
            for (i = 0; i < rb; ++i) he = emb_hash(he, f->encoded[r * rb + i]);
            printf("    { %uu, %uu, 0x%08xu, 0x%08xu }, /* %s */\n", r, f->flags[r], he,
                   hash_f32s(EMB_HASH0, f->roundtrip + (size_t)r * f->cols * 4, f->cols), blk_names[t]);
        }
    }
    printf("};\n");

    printf("static const uint32_t emb_blk_in[EMB_BLK_NROWS * EMB_BLK_COLS] = {");
    i = 0;
    for (t = 0; t < EMB_BLK_TYPES; ++t)
        for (r = 0; r < F[t].rows; ++r)
            if (blk_taken(&F[t], r))
                for (col = 0; col < F[t].cols; ++col)
                    printf("%s0x%08xu,", i++ % 8 ? " " : "\n", rd32(F[t].input + ((size_t)r * F[t].cols + col) * 4));
    printf("\n};\n");

    printf("static const uint32_t emb_blk_dec[EMB_BLK_NBLK] = {");
    i = 0;
    for (t = 0; t < EMB_BLK_TYPES; ++t)
        for (b = 0; b < F[t].nblk; ++b)
            printf("%s0x%08xu,", i++ % 6 ? " " : "\n", hash_f32s(EMB_HASH0, F[t].decoded + (size_t)b * F[t].be * 4, F[t].be));
    printf("\n};\n");

    printf("static const uint8_t emb_blk_bytes[%u] = {", nbytes);
    i = 0;
    for (t = 0; t < EMB_BLK_TYPES; ++t)
        for (b = 0; b < F[t].nblk * F[t].bb; ++b) printf("%s0x%02x,", i++ % 16 ? " " : "\n", F[t].blocks[b]);
    printf("\n};\n");
    for (t = 0; t < EMB_BLK_TYPES; ++t) free(F[t].data);
}

int main(int argc, char **argv)
{
    float x[EMB_N];
    int k, i;
    emb_case c;
    printf("/* generated by gen_expected from the oracle; do not edit */\nstatic const uint32_t emb_expected[] = {\n");
    for (k = 0; emb_case_at(k, &c); ++k) {
        uint32_t h = EMB_HASH0;
        const float s = emb_scales[c.si];
        if (c.kind == EMB_QUANT) {
            emb_inputs(x, EMB_N, s, (uint32_t)(k + 1));
            for (i = 0; i < EMB_N; ++i) h = emb_hash(h, q_one(c.dt, x[i], s, emb_zps[c.zi], c.rnd, c.ov));
        } else if (c.kind == EMB_DEQUANT) {
            for (i = 0; i < 256; ++i) {
                float y;
                if (emb_is_f8(c.dt)) y = o_dequant_f8((uint8_t)i, s, c.dt - 2);
                else y = o_dequant_int(c.dt == 1 ? i : (int8_t)i, s, emb_zps[c.zi]);
                h = emb_hash(h, emb_u(y));
            }
        } else if (c.kind == EMB_GROUP) {
            for (i = 0; i < EMB_ROWS * EMB_CH; ++i) {
                const int v = emb_g_byte(i / 2) >> (4 * (i % 2)) & 15, q = c.dt == 0 && v >= 8 ? v - 16 : v;
                const int g = i / EMB_CH * EMB_NG + i % EMB_CH / EMB_G;
                const float y = o_dequant_int(q, emb_g_scale(g, c.si), emb_g_zp(g, c.dt));
                h = emb_hash(h, c.dt == 0 ? emb_u(y) : o_bf16_code(y));
            }
        } else {
            emb_inputs(x, EMB_ROWS * EMB_CH, 0.1f, (uint32_t)(k + 1));
            for (i = 0; i < EMB_ROWS * EMB_CH; ++i) {
                const int ch = c.layout == 0 ? i % EMB_CH : i / EMB_ROWS;
                h = emb_hash(h, q_one(c.dt, x[i], emb_ch_scale(ch, c.rnd), emb_ch_zp(ch), c.rnd, 0));
            }
        }
        printf("0x%08xu,%s", h, (k + 1) % 6 ? " " : "\n");
    }
    printf("};\n#define EMB_EXPECTED %d\n", k);
    if (argc != 2) {
        fprintf(stderr, "usage: gen_expected DIR (ggml's vectors, tests/data/ggml)\n");
        return 1;
    }
    blk_emit(argv[1]);
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
