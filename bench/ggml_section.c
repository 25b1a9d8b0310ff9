/* The rows of quant-bench for ggml's block formats (GGUF): the 15 block
   dtypes of quant.h (q4_0 .. q8_K, iq4_nl, iq4_xs, mxfp4, nvfp4), side by
   side with the traffic limit and ggml itself, loaded at run time from
   QUANT_BENCH_GGML (a path), else
   /tmp/npm/package/bins/linux-x64/libggml-base.so, else the loader's
   search path (libggml-base.so). Without it the ggml column is "-" and
   the rows are unchecked.

   Rows, for each type, on [n / 4096, 4096] tensors, n = 64 Ki and 16 Mi
   elements (64 Ki only with --quick):
   - <type>->f32: quant_dequantize, one call for the whole tensor; ggml:
     dequantize_row_<type> on all n elements; the limit reads
     quant_dtype_bytes(t, n) bytes and writes 4n;
   - <type>->bf16: quant_dequantize to bf16; the limit writes 2n. ggml
     decodes to f32 only: its column is dequantize_row_<type> to f32
     again, timed in the same rounds (note "ggml f32");
   - f32-><type>: quant_quantize; ggml: quantize_row_<type>_ref on all n
     elements, or for iq4_nl and iq4_xs ggml_quantize_chunk with no
     importance matrix (the definition quant.h follows); the limit reads
     4n bytes and writes quant_dtype_bytes(t, n). The encodes of q2_K ..
     q6_K, iq4_nl and iq4_xs take tens to hundreds of ns an element
     (ggml's too), so their 16 Mi rows are timed on the first 1 Mi
     elements (note "1 Mi of 16 Mi"; the n column shows 1048576).
   The blocks the decode rows read are quant.h's encoding of the first
   1 Mi elements of x, repeated.

   Each row first checks quant.h against ggml, once, on the same input:
   the encoded bytes, the decoded f32 bits, and for bf16 quant.h's bits
   against ggml's f32 rounded to nearest even. A row that differs prints
   MISMATCH and no times, and counts as a failed check (exit status 1). */
#define _POSIX_C_SOURCE 200809L
#include "../quant.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifndef RTLD_NODELETE
#define RTLD_NODELETE 0
#endif

typedef void (*gg_dq_fn)(const void *, float *, int64_t);
typedef void (*gg_q_fn)(const float *, void *, int64_t);
typedef size_t (*gg_chunk_fn)(int, const float *, void *, int64_t, int64_t, int64_t, const float *);
typedef const char *(*gg_name_fn)(int);

enum { GG_NT = 15, GG_COLS = 4096 };
enum { GG_SRC_N = 1048576, GG_ENC_CAP = 1048576 };
enum { OP_DF32, OP_DBF16, OP_ENC, N_OPS };

/* elements and bytes of a block, in dtype order from QUANT_Q4_0; slow:
   the encodes timed on at most GG_ENC_CAP elements */
#define GG_TYPES(X)                                                                                                    \
    X(0, 32, 18, 0) X(1, 32, 20, 0) X(2, 32, 22, 0) X(3, 32, 24, 0) X(4, 32, 34, 0) X(5, 256, 84, 1)                   \
    X(6, 256, 110, 1) X(7, 256, 144, 1) X(8, 256, 176, 1) X(9, 256, 210, 1) X(10, 256, 292, 0) X(11, 32, 18, 1)      \
    X(12, 256, 136, 1) X(13, 32, 17, 0) X(14, 64, 36, 0)
static const struct { unsigned be, bb, slow; } gg_blk[GG_NT] = {
#define X(i, be, bb, slow) { be, bb, slow },
    GG_TYPES(X)
#undef X
};

#if defined(__GNUC__) || defined(__clang__)
#define GG_INLINE static inline __attribute__((always_inline))
#else
#define GG_INLINE static inline
#endif

/* The traffic limits, in runs of 256 elements (whole blocks of every
   type; GCC reduces a run's kilobyte of f32 in vector registers, where a
   32-element block's 128 bytes it folds with scalar loads), the run's
   byte count a compile-time constant (one copy per type below), so that
   the loops run at cache or memory speed. Decode: a run's sb block bytes
   read as 8-byte words (the last one overlapping) and folded, the fold
   stored over its ob output bytes. Encode: a run's 1024 bytes of f32
   folded, the fold stored over its sb block bytes. Every byte read
   reaches a byte written. */
GG_INLINE void gg_limit_dec_body(const uint8_t *src, uint8_t *dst, size_t nr, const size_t sb, const size_t ob)
{
    size_t k, j;
    for (k = 0; k < nr; ++k) {
        const uint8_t *s = src + k * sb;
        uint8_t *d = dst + k * ob;
        uint64_t v, w;
        memcpy(&v, s + sb - 8, 8);
        for (j = 0; j + 8 < sb; j += 8) {
            memcpy(&w, s + j, 8);
            v ^= w;
        }
        for (j = 0; j < ob; j += 8) memcpy(d + j, &v, 8);
    }
}

GG_INLINE void gg_limit_enc_body(const float *src, uint8_t *dst, size_t nr, const size_t sb)
{
    const uint64_t *s0 = (const uint64_t *)(const void *)src;
    size_t k, j;
    for (k = 0; k < nr; ++k) {
        const uint64_t *s = s0 + k * 128;
        uint8_t *d = dst + k * sb;
        uint64_t v = 0;
        for (j = 0; j < 128; ++j) v ^= s[j];
        for (j = 0; j + 8 <= sb; j += 8) memcpy(d + j, &v, 8);
        memcpy(d + sb - 8, &v, 8);
    }
}

static void gg_limit_dec(int ti, int bf16, const uint8_t *src, void *dst, size_t n)
{
    switch (ti * 2 + bf16) {
#define X(i, be, bb, slow)                                                                                             \
    case 2 * (i): gg_limit_dec_body(src, (uint8_t *)dst, n / 256, 256 / (be) * (bb), 1024); break;                    \
    case 2 * (i) + 1: gg_limit_dec_body(src, (uint8_t *)dst, n / 256, 256 / (be) * (bb), 512); break;
        GG_TYPES(X)
#undef X
    default: abort();
    }
}

static void gg_limit_enc(int ti, const float *src, uint8_t *dst, size_t n)
{
    switch (ti) {
#define X(i, be, bb, slow) case i: gg_limit_enc_body(src, dst, n / 256, 256 / (be) * (bb)); break;
        GG_TYPES(X)
#undef X
    default: abort();
    }
}

typedef struct gctx {
    int ti, op, which; /* which: 0 quant.h, 1 limit, 2 ggml */
    size_t n;
    const float *x;
    const uint8_t *blk; /* decode source */
    void *y;            /* decode destination */
    uint8_t *q;         /* encode destination */
    gg_dq_fn gdq;
    gg_q_fn gq;
    gg_chunk_fn gchunk;
    int gtype;
    quant_status st;
} gctx;

static double gg_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static quant_status gg_quant(int ti, int op, size_t n, const void *src, void *dst)
{
    const quant_dtype t = (quant_dtype)(QUANT_Q4_0 + ti);
    quant_tensor s, d;
    quant_attrs a = quant_attrs_default();
    memset(&s, 0, sizeof s);
    s.rank = 2;
    s.dims[0] = (int64_t)(n / GG_COLS);
    s.dims[1] = GG_COLS;
    d = s;
    s.data = (void *)(uintptr_t)src;
    d.data = dst;
    if (op == OP_ENC) {
        s.dtype = QUANT_F32;
        d.dtype = t;
        return quant_quantize(&s, &d, &a);
    }
    s.dtype = t;
    d.dtype = op == OP_DBF16 ? QUANT_BF16 : QUANT_F32;
    return quant_dequantize(&s, &d, &a);
}

/* ggml's encode of n elements of x into dst */
static void gg_ggml_enc(const gctx *c, const float *x, void *dst, size_t n)
{
    if (c->gchunk) c->gchunk(c->gtype, x, dst, 0, (int64_t)(n / GG_COLS), GG_COLS, NULL);
    else c->gq(x, dst, (int64_t)n);
}

static void gg_call(gctx *c)
{
    if (c->which == 0) {
        const quant_status st = c->op == OP_ENC ? gg_quant(c->ti, c->op, c->n, c->x, c->q)
                                                : gg_quant(c->ti, c->op, c->n, c->blk, c->y);
        if (st != QUANT_OK) c->st = st;
    } else if (c->which == 1) {
        if (c->op == OP_ENC) gg_limit_enc(c->ti, c->x, c->q, c->n);
        else gg_limit_dec(c->ti, c->op == OP_DBF16, c->blk, c->y, c->n);
    } else if (c->op == OP_ENC) gg_ggml_enc(c, c->x, c->q, c->n);
    else c->gdq(c->blk, (float *)c->y, (int64_t)c->n); /* f32 out, for the bf16 rows too */
}

static double gg_timed(gctx *c, long reps)
{
    const double t0 = gg_now();
    long k;
    for (k = 0; k < reps; ++k) gg_call(c);
    return (gg_now() - t0) / ((double)reps * (double)c->n);
}

static double gg_median(const double *in, int n)
{
    double v[64];
    int i, j;
    memcpy(v, in, (size_t)n * sizeof *v);
    for (i = 1; i < n; ++i)
        for (j = i; j > 0 && v[j - 1] > v[j]; --j) { const double t = v[j]; v[j] = v[j - 1]; v[j - 1] = t; }
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* f32 to bf16, to nearest even (quiet NaN with its sign) */
static uint16_t gg_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)((u >> 16 & 0x8000u) | 0x7FC0u);
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

/* The check of a row: quant.h's output (in y or q) against ggml's (in yg
   or qg). 0 when equal; else the first differing element or byte, + 1. */
static size_t gg_diff(const gctx *c, const void *qh, const void *gg)
{
    size_t i;
    if (c->op == OP_ENC) {
        const size_t bytes = quant_dtype_bytes((quant_dtype)(QUANT_Q4_0 + c->ti), (int64_t)c->n);
        const uint8_t *a = (const uint8_t *)qh, *b = (const uint8_t *)gg;
        if (!memcmp(a, b, bytes)) return 0;
        for (i = 0; a[i] == b[i]; ++i) {}
        return i + 1;
    }
    if (c->op == OP_DF32) {
        if (!memcmp(qh, gg, c->n * 4)) return 0;
        for (i = 0; !memcmp((const float *)qh + i, (const float *)gg + i, 4); ++i) {}
        return i + 1;
    }
    for (i = 0; i < c->n; ++i)
        if (((const uint16_t *)qh)[i] != gg_bf16(((const float *)gg)[i])) return i + 1;
    return 0;
}

static void gg_row_name(char *buf, size_t cap, const char *tn, int op)
{
    if (op == OP_ENC) snprintf(buf, cap, "f32->%s", tn);
    else snprintf(buf, cap, "%s->%s", tn, op == OP_DBF16 ? "bf16" : "f32");
}

/* --filter TEXT selects the rows whose "ggml <op> n=<n>" holds TEXT:
   "q4_K", "f32->q", "->bf16", "n=65536", or "ggml" for the whole section */
static int gg_selected(const char *filter, const char *name, size_t n)
{
    char full[96];
    if (!filter) return 1;
    snprintf(full, sizeof full, "ggml %s n=%zu", name, n);
    return strstr(full, filter) != NULL;
}

/* ggml, from QUANT_BENCH_GGML, else the npm package's copy, else the
   loader's search path. ggml's static constructor installs a C++
   terminate handler and asserts that the one it replaces is not its own:
   after an earlier dlopen and dlclose of the same library (the MX
   section's), the handler left behind points into the unloaded copy, at
   the address the new copy gets, and that assert fires. So the handler
   goes back to the default first (libstdc++'s set_terminate(0)), and
   this copy stays loaded for the rest of the process. */
static void *gg_open(const char **path, gg_name_fn *tname, gg_chunk_fn *chunk)
{
    static const char *const tries[2] = { "/tmp/npm/package/bins/linux-x64/libggml-base.so", "libggml-base.so" };
    const char *env = getenv("QUANT_BENCH_GGML");
    void *cxx = NULL, *lib = NULL;
    int i;
#ifdef RTLD_NOLOAD
    cxx = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_NOLOAD);
#endif
    if (cxx) {
        void *(*set_terminate)(void *) = NULL;
        *(void **)&set_terminate = dlsym(cxx, "_ZSt13set_terminatePFvvE");
        if (set_terminate) set_terminate(NULL);
        dlclose(cxx);
    }
    if (env) lib = dlopen(*path = env, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    else
        for (i = 0; i < 2 && !lib; ++i) lib = dlopen(*path = tries[i], RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (lib) {
        *(void **)tname = dlsym(lib, "ggml_type_name");
        *(void **)chunk = dlsym(lib, "ggml_quantize_chunk");
    }
    return lib;
}

int ggml_section(int runs, const char *filter, const float *x, size_t nmax)
{
    static const size_t sizes[2] = { 65536, 16777216 };
    static const char *const gq_names[GG_NT] = { "quantize_row_q4_0_ref", "quantize_row_q4_1_ref",
                                                 "quantize_row_q5_0_ref", "quantize_row_q5_1_ref",
                                                 "quantize_row_q8_0_ref", "quantize_row_q2_K_ref",
                                                 "quantize_row_q3_K_ref", "quantize_row_q4_K_ref",
                                                 "quantize_row_q5_K_ref", "quantize_row_q6_K_ref",
                                                 "quantize_row_q8_K_ref", NULL, NULL,
                                                 "quantize_row_mxfp4_ref", "quantize_row_nvfp4_ref" };
    const char *path = NULL;
    void *lib = NULL;
    gg_name_fn tname = NULL;
    gg_chunk_fn chunk = NULL;
    size_t maxb = 0, si;
    uint8_t *blk, *q, *qg;
    void *y, *yg;
    int ti, op, head = 0, failures = 0, tried = 0;
    const size_t src_n = nmax < GG_SRC_N ? nmax : GG_SRC_N;

    for (ti = 0; ti < GG_NT; ++ti) {
        const size_t b = quant_dtype_bytes((quant_dtype)(QUANT_Q4_0 + ti), (int64_t)nmax);
        if (quant_dtype_bytes((quant_dtype)(QUANT_Q4_0 + ti), gg_blk[ti].be) != gg_blk[ti].bb) {
            fprintf(stderr, "ggml_section: %s: %u bytes a block here, quant_dtype_bytes says %zu\n",
                    quant_dtype_name((quant_dtype)(QUANT_Q4_0 + ti)), gg_blk[ti].bb,
                    quant_dtype_bytes((quant_dtype)(QUANT_Q4_0 + ti), gg_blk[ti].be));
            exit(1);
        }
        if (b > maxb) maxb = b;
    }
    blk = malloc(maxb); q = malloc(maxb); qg = malloc(maxb);
    y = malloc(nmax * 4); yg = malloc(nmax * 4);
    if (!blk || !q || !qg || !y || !yg) { fprintf(stderr, "out of memory\n"); exit(1); }

    for (ti = 0; ti < GG_NT; ++ti) {
        const quant_dtype t = (quant_dtype)(QUANT_Q4_0 + ti);
        const char *tn = quant_dtype_name(t);
        gg_dq_fn gdq = NULL;
        gg_q_fn gq = NULL;
        gg_chunk_fn gchunk = NULL;
        int gtype = -1, have_blk = 0;
        if (!tried) {
            /* only when a row of this section is selected */
            for (op = 0; op < N_OPS && !tried; ++op)
                for (si = 0; si < 2 && !tried; ++si) {
                    char name[64];
                    gg_row_name(name, sizeof name, tn, op);
                    if (sizes[si] <= nmax && gg_selected(filter, name, sizes[si])) tried = 1;
                }
            if (tried) lib = gg_open(&path, &tname, &chunk);
        }
        if (lib) {
            char sym[64];
            snprintf(sym, sizeof sym, "dequantize_row_%s", tn);
            *(void **)&gdq = dlsym(lib, sym);
            if (t == QUANT_IQ4_NL || t == QUANT_IQ4_XS) {
                /* ggml's type id: the index whose name is tn */
                int k;
                for (k = 0; tname && k < 64; ++k) {
                    const char *nm = tname(k);
                    if (!nm || !strcmp(nm, "NONE")) break;
                    if (!strcmp(nm, tn)) { gtype = k; break; }
                }
                if (gtype >= 0 && chunk) gchunk = chunk;
            } else if (gq_names[ti])
                *(void **)&gq = dlsym(lib, gq_names[ti]);
        }
        for (op = 0; op < N_OPS; ++op)
            for (si = 0; si < 2; ++si) {
                const size_t nominal = sizes[si];
                const int capped = op == OP_ENC && gg_blk[ti].slow && nominal > GG_ENC_CAP;
                const size_t n = capped ? GG_ENC_CAP : nominal;
                const int have_g = op == OP_ENC ? gq || gchunk : gdq != NULL;
                gctx c[3];
                double tm[3][64], rl[64], rg[64];
                long reps[3];
                char name[64], note[32];
                int w, k;
                size_t bad = 0;
                if (nominal > nmax) continue;
                gg_row_name(name, sizeof name, tn, op);
                if (!gg_selected(filter, name, nominal)) continue;
                if (!head) {
                    printf("\nggml block formats, [n / %d, %d] tensors; ggml: %s\n", GG_COLS, GG_COLS,
                           lib ? path : "not found (set QUANT_BENCH_GGML to libggml-base.so): rows unchecked");
                    printf("ns/element, median of %d rounds; x limit: quant.h / limit, ggml/q: ggml / quant.h "
                           "(above 1: quant.h is faster), both medians of per-round ratios\n", runs);
                    printf("%-13s %9s %9s %9s %9s %8s %8s  %-8s %s\n", "op", "n", "quant.h", "limit", "ggml", "x limit",
                           "ggml/q", "check", "note");
                    head = 1;
                }
                if (op != OP_ENC && !have_blk) {
                    /* the decode rows' blocks: quant.h's encoding of x's first src_n elements, repeated */
                    const size_t sb = quant_dtype_bytes(t, (int64_t)src_n), all = quant_dtype_bytes(t, (int64_t)nmax);
                    size_t o;
                    if (gg_quant(ti, OP_ENC, src_n, x, blk) != QUANT_OK) {
                        printf("%-13s quant_quantize failed\n", name);
                        ++failures;
                        continue;
                    }
                    for (o = sb; o < all; o += sb) memcpy(blk + o, blk, all - o < sb ? all - o : sb);
                    have_blk = 1;
                }
                for (w = 0; w < 3; ++w) {
                    memset(&c[w], 0, sizeof c[w]);
                    c[w].ti = ti; c[w].op = op; c[w].which = w; c[w].n = n; c[w].x = x;
                    c[w].blk = blk; c[w].y = y; c[w].q = q;
                    c[w].gdq = gdq; c[w].gq = gq; c[w].gchunk = gchunk; c[w].gtype = gtype;
                }
                /* the check, on the first calls: ggml's output into qg / yg, quant.h's into q / y */
                if (have_g) {
                    if (op == OP_ENC) {
                        memset(qg, 0, quant_dtype_bytes(t, (int64_t)n));
                        gg_ggml_enc(&c[2], x, qg, n);
                    } else gdq(blk, (float *)yg, (int64_t)n);
                }
                if (op == OP_ENC) memset(q, 0, quant_dtype_bytes(t, (int64_t)n));
                gg_call(&c[0]);
                if (c[0].st != QUANT_OK) {
                    printf("%-13s %9zu quant.h failed: %s\n", name, n, quant_status_str(c[0].st));
                    ++failures;
                    continue;
                }
                if (have_g && (bad = gg_diff(&c[0], op == OP_ENC ? (void *)q : y, op == OP_ENC ? (void *)qg : yg))) {
                    printf("%-13s %9zu  *** MISMATCH: quant.h differs from ggml at %s %zu; no times ***\n", name, n,
                           op == OP_ENC ? "byte" : "element", bad - 1);
                    ++failures;
                    fflush(stdout);
                    continue;
                }
                /* warm-up, and the repetitions that make a timing ~2 ms */
                for (w = 0; w < 3; ++w) {
                    double one, t0;
                    if (w == 2 && !have_g) continue;
                    gg_call(&c[w]);
                    t0 = gg_now();
                    gg_call(&c[w]);
                    one = gg_now() - t0;
                    reps[w] = one < 2e6 ? (long)(2e6 / (one > 1 ? one : 1)) : 1;
                }
                for (k = 0; k < runs; ++k)
                    for (w = 0; w < 3; ++w)
                        if (w < 2 || have_g) tm[w][k] = gg_timed(&c[w], reps[w]);
                if (c[0].st != QUANT_OK) {
                    printf("%-13s %9zu quant.h failed: %s\n", name, n, quant_status_str(c[0].st));
                    ++failures;
                    continue;
                }
                for (k = 0; k < runs; ++k) {
                    rl[k] = tm[0][k] / tm[1][k];
                    rg[k] = have_g ? tm[2][k] / tm[0][k] : 0;
                }
                note[0] = 0;
                if (capped) snprintf(note, sizeof note, "1 Mi of 16 Mi");
                if (op == OP_DBF16 && have_g) snprintf(note, sizeof note, "ggml f32");
                if (have_g)
                    printf("%-13s %9zu %9.4f %9.4f %9.4f %8.2f %8.2f  %-8s %s\n", name, n, gg_median(tm[0], runs),
                           gg_median(tm[1], runs), gg_median(tm[2], runs), gg_median(rl, runs), gg_median(rg, runs),
                           "ok", note);
                else
                    printf("%-13s %9zu %9.4f %9.4f %9s %8.2f %8s  %-8s %s\n", name, n, gg_median(tm[0], runs),
                           gg_median(tm[1], runs), "-", gg_median(rl, runs), "-", "unchecked", note);
                fflush(stdout);
            }
    }
    free(blk); free(q); free(qg); free(y); free(yg);
    /* lib stays loaded (RTLD_NODELETE): see gg_open */
    return failures;
}
