/* gguf_dump.c - a GGUF file's metadata and tensors, and one tensor decoded
   to f32 by quant.h.

       gguf_dump FILE                  the header, the key/value pairs, the tensors
       gguf_dump FILE TENSOR           and TENSOR decoded: its first values, min, max, mean
       gguf_dump FILE TENSOR OUT.f32   and its values written to OUT.f32 (raw f32, host order)

   GGUF v2/v3 (ggml's gguf.h), little-endian: "GGUF", u32 version, i64
   tensor count, i64 pair count; the pairs (key, u32 value type, value);
   the tensor infos (name, u32 n_dims, i64 ne[n_dims] with ne[0] the
   fastest dim, u32 ggml type, u64 offset); the data, from the next
   multiple of general.alignment (default 32). A string is a u64 length
   and its bytes. The file is read whole and parsed by a cursor that checks
   every length against what is left: a truncated or hostile file is an
   error, never a read past the buffer. quant.h decodes the block types;
   f32, f16 and bf16 are widened here.

       cc -O2 -I.. gguf_dump.c -o gguf_dump    (quant.h's implementation is in here) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* The implementation, with only what a GGUF reader needs: the block formats
   and the status sentences (QUANT_MINIMAL leaves out the rest, and the
   build takes half the time). This project's own build and test link the
   implementation its tests share instead (GGUF_DUMP_NO_IMPL). */
#if !defined(GGUF_DUMP_NO_MAIN) && !defined(GGUF_DUMP_NO_IMPL)
#define QUANT_IMPLEMENTATION
#define QUANT_MINIMAL
#define QUANT_WITH_BLOCKS
#define QUANT_WITH_STATUS_TEXT
#endif
#include "quant.h"

/* ggml's type ids (ggml.h's enum ggml_type) that quant.h knows */
static const struct { unsigned id; const char *name; quant_dtype dt; } types[] = {
    { 0, "f32", QUANT_F32 },     { 1, "f16", QUANT_F16 },     { 30, "bf16", QUANT_BF16 },
    { 2, "q4_0", QUANT_Q4_0 },   { 3, "q4_1", QUANT_Q4_1 },   { 6, "q5_0", QUANT_Q5_0 },
    { 7, "q5_1", QUANT_Q5_1 },   { 8, "q8_0", QUANT_Q8_0 },   { 10, "q2_K", QUANT_Q2_K },
    { 11, "q3_K", QUANT_Q3_K },  { 12, "q4_K", QUANT_Q4_K },  { 13, "q5_K", QUANT_Q5_K },
    { 14, "q6_K", QUANT_Q6_K },  { 15, "q8_K", QUANT_Q8_K },  { 20, "iq4_nl", QUANT_IQ4_NL },
    { 23, "iq4_xs", QUANT_IQ4_XS }, { 39, "mxfp4", QUANT_MXFP4 }, { 40, "nvfp4", QUANT_NVFP4_BLOCK },
};
#define N_TYPES (sizeof types / sizeof types[0])

/* GGUF's value types, 0 to 12: names and sizes (0: string, array) */
enum { V_U32 = 4, V_F32 = 6, V_BOOL = 7, V_STR = 8, V_ARR = 9, V_F64 = 12, V_TYPES = 13 };
static const char *const vnames[V_TYPES] = { "u8", "i8", "u16", "i16", "u32", "i32", "f32", "bool",
                                             "str", "arr", "u64", "i64", "f64" };
static const unsigned char vsizes[V_TYPES] = { 1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8 };

typedef struct { const unsigned char *p; size_t left; const char *err; } cursor;
typedef struct { const char *s; size_t n; } str;
typedef struct { str name; uint32_t n_dims, type; int64_t ne[4]; uint64_t offset; size_t bytes; int k; } tinfo;
typedef struct { tinfo *t; uint64_t n; const unsigned char *data; size_t size; } gguf;

/* n bytes, or NULL with c->err set when fewer are left (and after any error) */
static const unsigned char *take(cursor *c, uint64_t n) {
    if (!c->err && n > c->left) c->err = "truncated file";
    if (c->err) return NULL;
    c->p += n, c->left -= (size_t)n;
    return c->p - n;
}
static uint64_t num(cursor *c, int n) {   /* an n-byte little-endian number; 0 after an error */
    const unsigned char *p = take(c, (uint64_t)n);
    uint64_t v = 0;
    while (p && n--) v = v << 8 | p[n];
    return v;
}
static str string(cursor *c) {
    str s = { "", 0 };
    uint64_t n = num(c, 8);
    const unsigned char *p = take(c, n);
    if (p) s.s = (const char *)p, s.n = (size_t)n;
    return s;
}
/* s padded to width, at most 64 bytes of it, control bytes as '?' */
static void put(FILE *o, str s, int width) {
    size_t i, n = s.n > 64 ? 64 : s.n;
    for (i = 0; i < n; i++) fputc((unsigned char)s.s[i] < 32 || s.s[i] == 127 ? '?' : s.s[i], o);
    fprintf(o, "%s%*s", n < s.n ? "..." : "", width > (int)n ? width - (int)n : 0, "");
}

/* one value of type t, printed to o unless o is NULL (of arrays the first 4 items) */
static void value(cursor *c, uint32_t t, FILE *o, int depth) {
    uint64_t v, i, n, top;
    if (t >= V_TYPES || depth > 4) c->err = t >= V_TYPES ? "unknown value type" : "arrays nested too deep";
    if (c->err) return;
    if (t == V_STR) {
        str s = string(c);
        if (o && !c->err) fputc('"', o), put(o, s, 0), fputc('"', o);
    } else if (t == V_ARR) {
        t = (uint32_t)num(c, 4), n = num(c, 8);
        if (t >= V_TYPES) c->err = "unknown value type";
        else if (vsizes[t] && n > c->left / vsizes[t]) c->err = "truncated file";
        if (o && !c->err) fprintf(o, "%s[%llu]", vnames[t], (unsigned long long)n);
        for (i = 0; i < n && !c->err; i++) {   /* items take a byte or more: at most c->left turns */
            if (o && i < 4) fputs(i ? ", " : " ", o);
            value(c, t, i < 4 ? o : NULL, depth + 1);
        }
        if (o && n > 4 && !c->err) fputs(", ...", o);
    } else {
        v = num(c, vsizes[t]), top = 1ull << (8 * vsizes[t] - 1);
        if (!o || c->err) return;
        if (t == V_F32) { uint32_t b = (uint32_t)v; float f; memcpy(&f, &b, 4); fprintf(o, "%g", f); }
        else if (t == V_F64) { double d; memcpy(&d, &v, 8); fprintf(o, "%g", d); }
        else if (t == V_BOOL) fputs(v ? "true" : "false", o);
        else if (t % 2 == 1 || t == 11)   /* i8 i16 i32 i64: sign-extended */
            fprintf(o, "%lld", v & top ? -(long long)(~v & (top - 1)) - 1 : (long long)v);
        else fprintf(o, "%llu", (unsigned long long)v);
    }
}

/* the header, pairs and tensor infos into g, listed to o */
static const char *list(const unsigned char *buf, size_t len, gguf *g, FILE *o) {
    cursor c = { buf, len, NULL };
    const unsigned char *magic = take(&c, 4);
    uint64_t version = num(&c, 4), n_kv, i, align = 32, d;
    uint32_t t, j;
    g->n = num(&c, 8), n_kv = num(&c, 8);
    if (!magic || memcmp(magic, "GGUF", 4) != 0) return "not a GGUF file";
    if (c.err || version < 2 || version > 3) return c.err ? c.err : "not GGUF version 2 or 3";
    if (g->n > (uint64_t)INT64_MAX || n_kv > (uint64_t)INT64_MAX) return "a negative count";
    fprintf(o, "GGUF v%u: %llu tensors, %llu key/value pairs\n", (unsigned)version,
            (unsigned long long)g->n, (unsigned long long)n_kv);
    for (i = 0; i < n_kv && !c.err; i++) {   /* a pair takes 13 bytes or more */
        str key = string(&c);
        t = (uint32_t)num(&c, 4);
        if (c.err) break;
        fputs("  ", o), put(o, key, 32), fprintf(o, " %-5s ", t < V_TYPES ? vnames[t] : "?");
        if (key.n == 17 && memcmp(key.s, "general.alignment", 17) == 0) {
            cursor peek = c;
            align = num(&peek, 4);
            if (t != V_U32 || align == 0 || (align & (align - 1)) != 0) return "general.alignment not a u32 power of two";
        }
        value(&c, t, o, 0);
        fputc('\n', o);
    }
    if (!c.err && g->n > c.left / 24) c.err = "truncated file";   /* a tensor info takes 24 bytes or more */
    if (c.err) return c.err;
    if (!(g->t = (tinfo *)calloc(g->n ? (size_t)g->n : 1, sizeof *g->t))) return "out of memory";
    for (i = 0; i < g->n && !c.err; i++) {
        tinfo *ti = &g->t[i];
        ti->name = string(&c), ti->n_dims = (uint32_t)num(&c, 4);
        if (ti->n_dims > 4) return "more than 4 dims";
        for (j = 0; j < 4; j++) {
            d = j < ti->n_dims ? num(&c, 8) : 1;
            if (d > (uint64_t)INT64_MAX) return "negative dim";
            ti->ne[j] = (int64_t)d;
        }
        ti->type = (uint32_t)num(&c, 4), ti->offset = num(&c, 8);
    }
    if (g->n) take(&c, (align - (len - c.left) % align) % align);   /* the data starts aligned */
    if (c.err) return c.err;
    g->data = c.p, g->size = c.left;
    for (i = 0; i < g->n; i++) {   /* each tensor's bytes, which must be in the file */
        tinfo *ti = &g->t[i];
        const char *err = NULL;
        for (ti->k = (int)N_TYPES - 1; ti->k >= 0 && types[ti->k].id != ti->type; ti->k--) {}
        /* no type packs more than 4 elements a byte: a longer row is past the end */
        if (ti->k >= 0 && (uint64_t)ti->ne[0] / 4 <= g->size)
            ti->bytes = quant_dtype_bytes(types[ti->k].dt, ti->ne[0]);
        if (ti->k >= 0 && ti->ne[0] && !ti->bytes) err = "a row past the end of the file, or not whole blocks";
        for (j = 1; j < 4 && !err; j++)
            if (ti->bytes && (uint64_t)ti->ne[j] > g->size / ti->bytes) err = "tensor data past the end of the file";
            else ti->bytes *= (size_t)ti->ne[j];
        if (ti->k >= 0 && (ti->offset > g->size || ti->bytes > g->size - ti->offset))
            err = "tensor data past the end of the file";
        fputs("  ", o), put(o, ti->name, 32);
        fprintf(o, " %-6s [%lld", ti->k < 0 ? "?" : types[ti->k].name, (long long)ti->ne[0]);
        for (j = 1; j < ti->n_dims; j++) fprintf(o, ", %lld", (long long)ti->ne[j]);
        fprintf(o, "] at %llu", (unsigned long long)ti->offset);
        if (ti->k < 0) fprintf(o, ", ggml type %u: not decoded\n", (unsigned)ti->type);
        else if (err) fputc('\n', o);
        else fprintf(o, ", %zu bytes\n", ti->bytes);
        if (err) return err;
    }
    return NULL;
}

static uint32_t f16_bits(uint32_t h) {   /* binary16 -> binary32, exactly */
    uint32_t s = (h & 0x8000u) << 16, e = h >> 10 & 31, m = h & 0x3ffu;
    if (e == 31) return s | 0x7f800000u | m << 13;
    if (e) return s | (e + 112) << 23 | m << 13;
    if (!m) return s;
    for (e = 113; !(m & 0x400); m <<= 1) e--;   /* subnormal: normalized */
    return s | e << 23 | (m & 0x3ffu) << 13;
}

/* tensor ti decoded to f32, shown on o, written to out_path unless NULL */
static const char *decode(const gguf *g, const tinfo *ti, const char *out_path, FILE *o) {
    quant_dtype dt = types[ti->k].dt;
    const unsigned char *p = g->data + ti->offset;
    uint64_t n = 1, i;
    int j, rank = ti->n_dims ? (int)ti->n_dims : 1;
    float *f, lo = 0, hi = 0;
    double sum = 0;
    quant_status st = QUANT_OK;
    const char *err = NULL;
    for (j = 0; j < 4; j++) n *= (uint64_t)ti->ne[j];   /* at most 4 a byte of the file: no overflow */
    if (n > SIZE_MAX / sizeof *f || !(f = (float *)malloc(n ? (size_t)n * sizeof *f : 1))) return "out of memory";
    if (dt == QUANT_F32 || dt == QUANT_F16 || dt == QUANT_BF16) {   /* little-endian, widened */
        for (i = 0; i < n; i++) {
            const unsigned char *b = p + i * (dt == QUANT_F32 ? 4 : 2);
            uint32_t v = b[0] | (uint32_t)b[1] << 8;
            v = dt == QUANT_F32 ? v | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24
                                : dt == QUANT_F16 ? f16_bits(v) : v << 16;
            memcpy(f + i, &v, 4);
        }
    } else {   /* dims reversed: ggml's ne[0] is quant.h's last dim */
        quant_tensor src, dst;
        quant_attrs attrs = quant_attrs_default();
        memset(&src, 0, sizeof src);
        src.dtype = dt, src.rank = rank, src.data = (void *)(uintptr_t)p;
        for (j = 0; j < rank; j++) src.dims[rank - 1 - j] = ti->ne[j];
        dst = src, dst.dtype = QUANT_F32, dst.data = f;
        st = quant_dequantize(&src, &dst, &attrs);
    }
    if (st != QUANT_OK) err = quant_status_str(st);
    for (i = 0; !err && i < n; i++) {
        if (i < 8) fprintf(o, i ? " %g" : "  %g", f[i]);
        lo = i == 0 || f[i] < lo ? f[i] : lo, hi = i == 0 || f[i] > hi ? f[i] : hi, sum += f[i];
    }
    if (!err) fprintf(o, "%s\n  %llu values: min %g, max %g, mean %g\n", n > 8 ? " ..." : "",
                      (unsigned long long)n, lo, hi, n ? sum / (double)n : 0);
    if (!err && out_path) {
        FILE *w = fopen(out_path, "wb");
        if (!w || fwrite(f, sizeof *f, (size_t)n, w) != n) err = "cannot write the output file";
        if (w && fclose(w) != 0) err = "cannot write the output file";
    }
    free(f);
    return err;
}

/* buf listed on o; the tensor named want (unless NULL) decoded, and written to out_path (unless NULL) */
static const char *dump(const unsigned char *buf, size_t len, const char *want, const char *out_path, FILE *o) {
    gguf g = { NULL, 0, NULL, 0 };
    const char *err = list(buf, len, &g, o);
    uint64_t i;
    for (i = 0; !err && want && i < g.n; i++)
        if (g.t[i].name.n == strlen(want) && memcmp(g.t[i].name.s, want, g.t[i].name.n) == 0) break;
    if (!err && want)
        err = i == g.n ? "no tensor of that name" : g.t[i].k < 0 ? "quant.h does not decode its type"
                                                             : decode(&g, &g.t[i], out_path, o);
    free(g.t);
    return err;
}

#ifndef GGUF_DUMP_NO_MAIN
int main(int argc, char **argv) {
    FILE *f = argc >= 2 && argc <= 4 ? fopen(argv[1], "rb") : NULL;
    unsigned char *buf = NULL;
    long len = -1;
    const char *err = "cannot read the file";
    if (argc < 2 || argc > 4) return fprintf(stderr, "usage: gguf_dump FILE [TENSOR [OUT.f32]]\n"), 2;
    if (f && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = (unsigned char *)malloc(len ? (size_t)len : 1)) != NULL && fread(buf, 1, (size_t)len, f) == (size_t)len)
        err = dump(buf, (size_t)len, argc > 2 ? argv[2] : NULL, argc > 3 ? argv[3] : NULL, stdout);
    if (f) fclose(f);
    if (err) fprintf(stderr, "gguf_dump: %s: %s\n", argv[1], err);
    free(buf);
    return err ? 1 : 0;
}
#endif
