/* The requantize rows of quant-bench: s32 accumulators to s8, channels
   last ([n / 256, 256], a multiplier and shift or a float scale per
   channel, as a convolution's output), or one for the tensor; side by side
   with the traffic limit (4n bytes read, n written) and the plain C loop
   of the same formula at -O3 (bench/baselines.c: TFLite's reference
   MultiplyByQuantizedMultiplier, its single-rounding build, XNNPACK's fp32
   formula with lrintf). XNNPACK's public API has no operator that takes
   s32 accumulators, so it has no column here. Every row is checked
   against the plain loop before it is timed. */
#define _POSIX_C_SOURCE 200809L
#include "../quant.h"
#include "baselines.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { C = 256 };
static const char *const rq_names[4] = { "rq double pc", "rq single pc", "rq float pc", "rq double pt" };

typedef struct rctx {
    int row, which; /* 0 quant.h, 1 limit, 2 plain C */
    size_t n;
    const int32_t *acc, *m, *sh;
    const float *s;
    int8_t *y;
} rctx;

static void rcall(const rctx *c)
{
    const int mode = c->row == 3 ? 0 : c->row;
    if (c->which == 1) {
        limit_narrow((const float *)(const void *)c->acc, (uint8_t *)c->y, c->n);
    } else if (c->which == 2) {
        if (c->row == 3) plain_requantize(c->acc, c->y, c->n, 1, c->m, c->sh, c->s, 0, 3, -128, 127); /* one channel */
        else plain_requantize(c->acc, c->y, c->n / C, C, c->m, c->sh, c->s, mode, 3, -128, 127);
    } else {
        quant_tensor src, dst;
        quant_requant rq;
        memset(&src, 0, sizeof src);
        memset(&rq, 0, sizeof rq);
        src.dtype = QUANT_S32; src.rank = 2; src.dims[0] = (int64_t)(c->n / C); src.dims[1] = C;
        src.data = (void *)(uintptr_t)c->acc;
        dst = src; dst.dtype = QUANT_S8; dst.data = c->y;
        rq.rounding = (quant_requant_rounding)mode;
        rq.qtype = c->row == 3 ? QUANT_PER_TENSOR : QUANT_PER_CHANNEL;
        rq.axis = 1;
        rq.multipliers = c->m; rq.shifts = c->sh; rq.scales = c->s;
        rq.n = c->row == 3 ? 1 : C;
        rq.zp = 3; rq.act_min = -128; rq.act_max = 127;
        if (quant_requantize(&src, &dst, &rq) != QUANT_OK) abort();
    }
}

static double rnow(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static double rtimed(const rctx *c, long reps)
{
    const double t0 = rnow();
    long k;
    for (k = 0; k < reps; ++k) rcall(c);
    return (rnow() - t0) / ((double)reps * (double)c->n);
}

static double rmedian(const double *in, int n)
{
    double v[64];
    int i, j;
    for (i = 0; i < n; ++i) v[i] = in[i];
    for (i = 1; i < n; ++i)
        for (j = i; j > 0 && v[j - 1] > v[j]; --j) { const double t = v[j]; v[j] = v[j - 1]; v[j - 1] = t; }
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* failed checks */
int rq_section(int runs, const char *filter, size_t nmax)
{
    static const size_t sizes[2] = { 65536, 16777216 };
    int32_t *acc = malloc(nmax * 4), m[C], sh[C], m1[1] = { 1518500250 }, sh1[1] = { -9 };
    float s[C];
    int8_t *y = malloc(nmax), *want = malloc(nmax);
    uint32_t st = 12345;
    size_t si, i;
    int r, head = 0, failed = 0;
    if (!acc || !y || !want) { fprintf(stderr, "out of memory\n"); exit(1); }
    for (i = 0; i < nmax; ++i) { st = st * 1664525u + 1013904223u; acc[i] = (int32_t)st >> (st >> 27); }
    for (i = 0; i < C; ++i) { /* multipliers of scales around 2^-8 .. 2^-11, as int8 layers have */
        m[i] = (int32_t)(1073741824u + (uint32_t)i * 4194301u);
        sh[i] = -8 - (int)(i % 4);
        s[i] = (float)m[i] * 4.656612873e-10f / (float)(1 << (8 + i % 4));
    }
    for (si = 0; si < 2; ++si)
        for (r = 0; r < 4; ++r) {
            const size_t n = sizes[si];
            rctx c[3];
            double t[3][64], ratio[3];
            long reps[3];
            char name[64];
            int w, k;
            if (n > nmax) continue;
            snprintf(name, sizeof name, "%s n=%zu", rq_names[r], n);
            if (filter && !strstr(name, filter)) continue;
            if (!head) {
                printf("\nrequantize s32 -> s8 (pc: per channel, channels last, 256 of them; pt: per tensor)\n");
                printf("%-17s %9s %9s %8s %8s\n", "op", "n", "ns/elem", "x limit", "x plain");
                head = 1;
            }
            for (w = 0; w < 3; ++w) {
                c[w].row = r; c[w].which = w; c[w].n = n; c[w].acc = acc;
                c[w].m = r == 3 ? m1 : m; c[w].sh = r == 3 ? sh1 : sh; c[w].s = s;
                c[w].y = w == 2 ? want : y;
            }
            rcall(&c[2]);
            rcall(&c[0]);
            if (memcmp(y, want, n)) { printf("%-17s %9zu  MISMATCH against the plain loop\n", rq_names[r], n); ++failed; continue; }
            for (w = 0; w < 3; ++w) {
                double one, t0;
                rcall(&c[w]);
                t0 = rnow(); rcall(&c[w]); one = rnow() - t0;
                reps[w] = one < 2e6 ? (long)(2e6 / (one > 1 ? one : 1)) : 1;
            }
            for (k = 0; k < runs; ++k)
                for (w = 0; w < 3; ++w) t[w][k] = rtimed(&c[w], reps[w]);
            for (w = 1; w < 3; ++w) {
                double rr[64];
                for (k = 0; k < runs; ++k) rr[k] = t[0][k] / t[w][k];
                ratio[w] = rmedian(rr, runs);
            }
            printf("%-17s %9zu %9.4f %8.2f %8.3f\n", rq_names[r], n, rmedian(t[0], runs), ratio[1], ratio[2]);
            fflush(stdout);
        }
    free(acc); free(y); free(want);
    return failed;
}
