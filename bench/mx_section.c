/* The MX and NVFP4 rows of quant-bench, side by side with the traffic
   limit and, when it can be loaded, ggml's own MXFP4 and NVFP4 functions
   (libggml-base.so: dequantize_row_mxfp4/nvfp4, quantize_row_mxfp4_ref,
   quantize_row_nvfp4_ref). ggml is looked up at run time, from
   QUANT_BENCH_GGML (a path) or the loader's search path; without it its
   column is "-". ggml's blocks interleave scales and codes (MXFP4: 17
   bytes a 32, NVFP4: 36 a 64) and decode to f32 only, so the comparison
   is of time for the same elements, not of bits.

   Rows, at 64 Ki and 16 Mi elements:
   - mxfp4->f32, mxfp4->bf16: quant_mxfp4_to_* (an e8m0 scale a 32);
     the limit reads n/2 bytes and writes 4n (2n);
   - nvfp4->f32, nvfp4->bf16: quant_nvfp4_to_* (an e4m3 scale a 16, no
     tensor scale);
   - f32->mxfp4, f32->mxfp8, f32->nvfp4 fused: quant_choose_and_quantize
     with QUANT_MX (f4_e2m1, f8_e4m3) or QUANT_NVFP4 on a [n / 4096, 4096]
     tensor, groups of 32 (16) along the rows, rounding exact; fused-p the
     same with on_error partial (no read of src for infinities first); the
     limit reads 4n bytes and writes n/2 (n). */
#define _POSIX_C_SOURCE 200809L
#include "../quant.h"
#include "baselines.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void (*ggml_dq_fn)(const void *, float *, int64_t);
typedef void (*ggml_q_fn)(const float *, void *, int64_t);

enum { R_MX_F32, R_MX_BF16, R_NV_F32, R_NV_BF16, R_Q_MX4, R_Q_MX4P, R_Q_MX8, R_Q_NV4, N_ROWS };
static const char *const row_names[N_ROWS] = { "mxfp4->f32", "mxfp4->bf16", "nvfp4->f32", "nvfp4->bf16",
                                               "f32->mxfp4 fused", "f32->mxfp4 fused-p", "f32->mxfp8 fused", "f32->nvfp4 fused" };

typedef struct mctx {
    int row, which; /* which: 0 quant.h, 1 limit, 2 ggml */
    size_t n;
    const float *x;
    uint8_t *q, *sc, *blocks;
    void *y;
    ggml_dq_fn gdq;
    ggml_q_fn gq;
} mctx;

static double mnow(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* f32 -> packed 4-bit: 4n bytes in, n/2 out (a byte from each pair's 8 bytes) */
static void limit_nib(const float *src, uint8_t *dst, size_t n)
{
    const uint64_t *s = (const uint64_t *)(const void *)src;
    size_t i;
    for (i = 0; i < n / 2; ++i) dst[i] = (uint8_t)(s[i] ^ (s[i] >> 36));
}

static void mcall(mctx *c)
{
    const int r = c->row;
    if (c->which == 1) {
        if (r == R_MX_F32 || r == R_NV_F32) limit_w4_32(c->q, (float *)c->y, c->n);
        else if (r == R_MX_BF16 || r == R_NV_BF16) limit_w4_16(c->q, (uint16_t *)c->y, c->n);
        else if (r == R_Q_MX8) limit_narrow(c->x, c->q, c->n);
        else limit_nib(c->x, c->q, c->n);
        return;
    }
    if (c->which == 2) {
        if (c->gdq) c->gdq(c->blocks, (float *)c->y, (int64_t)c->n);
        else c->gq(c->x, c->blocks, (int64_t)c->n);
        return;
    }
    switch (r) {
    case R_MX_F32: quant_mxfp4_to_f32(c->q, (float *)c->y, c->n, c->sc); break;
    case R_MX_BF16: quant_mxfp4_to_bf16(c->q, (uint16_t *)c->y, c->n, c->sc); break;
    case R_NV_F32: quant_nvfp4_to_f32(c->q, (float *)c->y, c->n, c->sc, 0.0f); break;
    case R_NV_BF16: quant_nvfp4_to_bf16(c->q, (uint16_t *)c->y, c->n, c->sc, 0.0f); break;
    default: {
        const int g = r == R_Q_NV4 ? 16 : 32;
        quant_tensor src, dst, st;
        quant_attrs a = quant_attrs_default();
        memset(&src, 0, sizeof src);
        src.dtype = QUANT_F32; src.rank = 2; src.dims[0] = (int64_t)(c->n / 4096); src.dims[1] = 4096;
        src.data = (void *)(uintptr_t)c->x;
        dst = src; dst.dtype = r == R_Q_MX8 ? QUANT_F8_E4M3 : QUANT_F4_E2M1; dst.data = c->q;
        st = src; st.dtype = r == R_Q_NV4 ? QUANT_F8_E4M3 : QUANT_E8M0; st.dims[1] = 4096 / g; st.data = c->sc;
        a.qtype = QUANT_PER_GROUP; a.group_shape[0] = 1; a.group_shape[1] = g;
        if (r == R_Q_MX4P) a.on_error = QUANT_ON_ERROR_PARTIAL; /* src read once */
        if (quant_choose_and_quantize(&src, &dst, r == R_Q_NV4 ? QUANT_NVFP4 : QUANT_MX, &a, &st, NULL) != QUANT_OK) abort();
    }
    }
}

static double mtimed(mctx *c, long reps)
{
    const double t0 = mnow();
    long k;
    for (k = 0; k < reps; ++k) mcall(c);
    return (mnow() - t0) / ((double)reps * (double)c->n);
}

static double mmedian(double *v, int n)
{
    int i, j;
    for (i = 1; i < n; ++i)
        for (j = i; j > 0 && v[j - 1] > v[j]; --j) { const double t = v[j]; v[j] = v[j - 1]; v[j - 1] = t; }
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void mx_section(int runs, const char *filter, const float *x, size_t nmax)
{
    static const size_t sizes[2] = { 65536, 16777216 };
    const char *path = getenv("QUANT_BENCH_GGML");
    void *lib = dlopen(path ? path : "libggml-base.so", RTLD_NOW | RTLD_LOCAL);
    ggml_dq_fn dq_mx = NULL, dq_nv = NULL;
    ggml_q_fn q_mx = NULL, q_nv = NULL;
    uint8_t *q = malloc(nmax), *sc = malloc(nmax / 16), *blocks = malloc(nmax / 64 * 36 + nmax / 32 * 17);
    void *y = malloc(nmax * 4);
    size_t si, i;
    int r, head = 0;
    if (lib) {
        *(void **)&dq_mx = dlsym(lib, "dequantize_row_mxfp4");
        *(void **)&dq_nv = dlsym(lib, "dequantize_row_nvfp4");
        *(void **)&q_mx = dlsym(lib, "quantize_row_mxfp4_ref");
        *(void **)&q_nv = dlsym(lib, "quantize_row_nvfp4_ref");
    }
    if (!q || !sc || !blocks || !y) { fprintf(stderr, "out of memory\n"); exit(1); }
    for (si = 0; si < 2; ++si)
        for (r = 0; r < N_ROWS; ++r) {
            const size_t n = sizes[si];
            const int nv = r == R_NV_F32 || r == R_NV_BF16 || r == R_Q_NV4;
            mctx c[3];
            double t[3][64], ratio[3], ns;
            long reps[3];
            char name[96];
            int w, k, have[3] = { 1, 1, 0 };
            if (n > nmax) continue;
            snprintf(name, sizeof name, "%s n=%zu", row_names[r], n);
            if (filter && !strstr(name, filter)) continue;
            if (!head) {
                printf("\nMX and NVFP4 (e8m0 scale a 32, e4m3 a 16); ggml: %s\n",
                       lib ? (path ? path : "libggml-base.so") : "not found (set QUANT_BENCH_GGML to libggml-base.so)");
                printf("%-17s %9s %9s %8s %8s %10s\n", "op", "n", "ns/elem", "x limit", "x ggml", "ggml ns");
                head = 1;
            }
            /* valid codes and scales: e8m0 2^-7 .. 2^0, e4m3 0.5 .. 4; ggml's blocks from its own quantize */
            for (i = 0; i < n / 2; ++i) q[i] = (uint8_t)(x[i] * 97.0f);
            for (i = 0; i < n / 16; ++i) sc[i] = nv ? (uint8_t)(0x30 + i % 24) : (uint8_t)(120 + i % 8);
            for (w = 0; w < 3; ++w) {
                memset(&c[w], 0, sizeof c[w]);
                c[w].row = r; c[w].which = w; c[w].n = n; c[w].x = x; c[w].q = q; c[w].sc = sc; c[w].y = y;
                c[w].blocks = blocks;
            }
            if (r == R_MX_F32 && dq_mx && q_mx) { c[2].gdq = dq_mx; have[2] = 1; q_mx(x, blocks, (int64_t)n); }
            if (r == R_NV_F32 && dq_nv && q_nv) { c[2].gdq = dq_nv; have[2] = 1; q_nv(x, blocks, (int64_t)n); }
            if ((r == R_Q_MX4 || r == R_Q_MX4P) && q_mx) { c[2].gq = q_mx; have[2] = 1; }
            if (r == R_Q_NV4 && q_nv) { c[2].gq = q_nv; have[2] = 1; }
            for (w = 0; w < 3; ++w) {
                double one, t0;
                if (!have[w]) continue;
                mcall(&c[w]);
                t0 = mnow(); mcall(&c[w]); one = mnow() - t0;
                reps[w] = one < 2e6 ? (long)(2e6 / (one > 1 ? one : 1)) : 1;
            }
            for (k = 0; k < runs; ++k)
                for (w = 0; w < 3; ++w)
                    if (have[w]) t[w][k] = mtimed(&c[w], reps[w]);
            for (w = 0; w < 3; ++w) {
                double rr[64];
                if (!have[w]) { ratio[w] = 0; continue; }
                for (k = 0; k < runs; ++k) rr[k] = t[0][k] / t[w][k];
                ratio[w] = mmedian(rr, runs);
            }
            ns = mmedian(t[0], runs);
            if (have[2]) printf("%-17s %9zu %9.4f %8.2f %8.3f %10.4f\n", row_names[r], n, ns, ratio[1], ratio[2], mmedian(t[2], runs));
            else printf("%-17s %9zu %9.4f %8.2f %8s %10s\n", row_names[r], n, ns, ratio[1], "-", "-");
            fflush(stdout);
        }
    free(q); free(sc); free(blocks); free(y);
    if (lib) dlclose(lib);
}
