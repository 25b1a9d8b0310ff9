/* quant_requantize and quant_quantize_multiplier (SPEC 7.3) against the
   references of tests/requant_ref.h: TFLite's MultiplyByQuantizedMultiplier
   in its two builds (with CMSIS-NN's arm_nn_requantize, checked here to
   give the same bits), XNNPACK's fp32 requantization, and TFLite's
   QuantizeMultiplier.

   Where the references wrap in int32 (shift > 0 with acc * 2^shift outside
   int32; + zp near the int32 ends), SPEC 7.3 has quant.h compute exactly
   and saturate: the expected value there is, for both builds,
   floor((acc * m + 2^(30 - shift)) / 2^(31 - shift)) in int64, + zp, then
   the clamp. Every buffer is malloc'ed at its exact size, so that an
   out-of-bounds access is seen by the sanitizers and valgrind. */
#include "../quant.h"
#include "check.h"
#include "requant_ref.h"
#include <math.h>
#include <float.h>

#define SENTINEL 0xA5

/* ---- expected values ---------------------------------------------------- */

static int64_t floor_pow2(int64_t v, int k) /* floor(v / 2^k) */
{
    return v >= 0 ? v >> k : -((-(v + 1)) >> k) - 1;
}

/* The fixed-point part, before + zp: the reference's bits, or the exact
   value where the reference wraps (shift > 0; for shift > 0 the exact value
   is also what both references give whenever they do not wrap, checked in
   check_references). */
static int64_t expect_fixed(int32_t acc, int32_t m, int shift, quant_requant_rounding r)
{
    if (shift > 0) return floor_pow2((int64_t)acc * m + ((int64_t)1 << (30 - shift)), 31 - shift);
    return r == QUANT_RQ_SINGLE ? rqref_tflite_mbqm_single(acc, m, shift) : rqref_tflite_mbqm_double(acc, m, shift);
}

static int32_t clamp64(int64_t v, int32_t lo, int32_t hi)
{
    return v < lo ? lo : v > hi ? hi : (int32_t)v;
}

static int32_t expect_one(const quant_requant *rq, size_t c, int32_t acc)
{
    if (rq->rounding == QUANT_RQ_FLOAT) {
        int32_t a = rqref_xnn_requantize_fp32_lrintf(acc, rq->scales[c], rq->zp, rq->act_min, rq->act_max);
        return a;
    }
    return clamp64(expect_fixed(acc, rq->multipliers[c], rq->shifts[c], rq->rounding) + rq->zp, rq->act_min,
                   rq->act_max);
}

/* ---- tensors ------------------------------------------------------------ */

static size_t esize(quant_dtype t) { return t == QUANT_S16 ? 2 : t == QUANT_S32 ? 4 : 1; }

static int32_t type_min(quant_dtype t) { return t == QUANT_S8 ? -128 : t == QUANT_U8 ? 0 : -32768; }
static int32_t type_max(quant_dtype t) { return t == QUANT_S8 ? 127 : t == QUANT_U8 ? 255 : 32767; }

static size_t count(int rank, const int64_t *dims)
{
    size_t n = 1;
    int i;
    for (i = 0; i < rank; ++i) n *= (size_t)dims[i];
    return n;
}

/* malloc exactly n bytes (n > 0), filled with the sentinel */
static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    memset(p, SENTINEL, n);
    return p;
}

static int32_t get_out(quant_dtype t, const void *p, size_t i)
{
    if (t == QUANT_S8) return ((const int8_t *)p)[i];
    if (t == QUANT_U8) return ((const uint8_t *)p)[i];
    return ((const int16_t *)p)[i];
}

static int untouched(const void *p, size_t nbytes)
{
    size_t i;
    for (i = 0; i < nbytes; ++i)
        if (((const uint8_t *)p)[i] != SENTINEL) return 0;
    return 1;
}

static quant_requant rq_default(quant_requant_rounding r, quant_dtype dt)
{
    quant_requant rq;
    memset(&rq, 0, sizeof rq);
    rq.rounding = r;
    rq.qtype = QUANT_PER_TENSOR;
    rq.n = 1;
    rq.act_min = type_min(dt);
    rq.act_max = type_max(dt);
    return rq;
}

static const char *dt_name(quant_dtype t) { return t == QUANT_S8 ? "s8" : t == QUANT_U8 ? "u8" : "s16"; }
static const char *r_name(quant_requant_rounding r)
{
    return r == QUANT_RQ_DOUBLE ? "double" : r == QUANT_RQ_SINGLE ? "single" : "float";
}

/* Runs quant_requantize on acc (shape rank/dims, s32), dst dtype dt, and
   compares every element with the reference. The channel of element i is
   (i / inner) % dims[axis]. */
static void run(const char *label, const int32_t *acc, int rank, const int64_t *dims, quant_dtype dt,
                const quant_requant *rq)
{
    size_t n = count(rank, dims), inner = 1, nch = 1, i;
    int32_t *src = NULL;
    void *dst = NULL;
    quant_tensor s, d;
    quant_status st;
    long bad = 0;
    if (rq->qtype == QUANT_PER_CHANNEL) {
        int ax = (int)(rq->axis < 0 ? rq->axis + rank : rq->axis), k;
        for (k = ax + 1; k < rank; ++k) inner *= (size_t)dims[k];
        nch = (size_t)dims[ax];
    }
    if (n > 0) {
        src = (int32_t *)xmalloc(n * 4);
        memcpy(src, acc, n * 4);
        dst = xmalloc(n * esize(dt));
    }
    s = check_tensor(QUANT_S32, rank, dims, src);
    d = check_tensor(dt, rank, dims, dst);
    st = quant_requantize(&s, &d, rq);
    CHECK(st == QUANT_OK, "%s (%s, %s): status %s", label, r_name(rq->rounding), dt_name(dt), quant_status_str(st));
    if (st == QUANT_OK)
        for (i = 0; i < n; ++i) {
            size_t c = rq->qtype == QUANT_PER_CHANNEL ? (i / inner) % nch : 0;
            int32_t want = expect_one(rq, c, acc[i]), got = get_out(dt, dst, i);
            if (got != want && ++bad <= 3)
                CHECK(0, "%s (%s, %s): [%lu] acc %ld mult %ld shift %d scale %a zp %ld act [%ld, %ld]: got %ld, want %ld",
                      label, r_name(rq->rounding), dt_name(dt), (unsigned long)i, (long)acc[i],
                      rq->multipliers ? (long)rq->multipliers[c] : 0L, rq->shifts ? rq->shifts[c] : 0,
                      rq->scales ? (double)rq->scales[c] : 0.0, (long)rq->zp, (long)rq->act_min,
                      (long)rq->act_max, (long)got, (long)want);
        }
    CHECK(bad == 0, "%s (%s, %s): %ld of %lu elements differ", label, r_name(rq->rounding), dt_name(dt), bad,
          (unsigned long)n);
    free(src);
    free(dst);
}

/* ---- the references agree with each other ------------------------------- */

/* TFLite and CMSIS-NN, each build, give the same bits (scalar and MVE
   default build per lane); for shift > 0 both builds give the exact value
   wherever they do not wrap. Cheap, and it pins down what "the references"
   means in SPEC 7.3. */
static void check_references(int32_t acc, int32_t m, int shift)
{
    int32_t d = rqref_tflite_mbqm_double(acc, m, shift), s = rqref_tflite_mbqm_single(acc, m, shift);
    CHECK(d == rqref_cmsis_requantize_double(acc, m, shift) && d == rqref_cmsis_requantize_mve_double(acc, m, shift),
          "references: TFLite and CMSIS-NN double rounding differ at acc %ld m %ld shift %d", (long)acc, (long)m,
          shift);
    CHECK(s == rqref_cmsis_requantize_single(acc, m, shift),
          "references: TFLite and CMSIS-NN single rounding differ at acc %ld m %ld shift %d", (long)acc, (long)m,
          shift);
    if (shift > 0) {
        int64_t ex = expect_fixed(acc, m, shift, QUANT_RQ_DOUBLE), sh = (int64_t)acc * ((int64_t)1 << shift);
        if (sh >= INT32_MIN && sh <= INT32_MAX)
            CHECK(d == ex, "references: double rounding not exact at acc %ld m %ld shift %d", (long)acc, (long)m,
                  shift);
        if (ex >= INT32_MIN && ex <= INT32_MAX)
            CHECK(s == ex, "references: single rounding not exact at acc %ld m %ld shift %d", (long)acc, (long)m,
                  shift);
    }
}

/* ---- the sweep: every shift, several multipliers ------------------------ */

#define MAXA 512

/* accumulators for (m, shift): the int32 ends, small values, the edges where
   acc * 2^shift leaves int32, ties of both rounding steps, random ones */
static size_t accs_for(int32_t *a, int32_t m, int shift)
{
    size_t n = 0;
    int t, k;
    static const int32_t fixed[] = { INT32_MIN, INT32_MIN + 1, INT32_MAX, INT32_MAX - 1, 0, 1, -1, 2, -2, 3, -3,
                                     127, -128, 255, 32767, -32768, 65535, -65536, 1 << 30, -(1 << 30),
                                     (1 << 30) - 1, -(1 << 30) - 1, 0x12345678, -0x12345678 };
    for (k = 0; k < (int)(sizeof fixed / sizeof fixed[0]); ++k) a[n++] = fixed[k];
    if (shift > 0) {
        int32_t e = (int32_t)((int64_t)1 << (31 - shift) > INT32_MAX ? INT32_MAX : (int64_t)1 << (31 - shift));
        a[n++] = e; a[n++] = e - 1; a[n++] = -e; a[n++] = -e + 1; a[n++] = (int32_t)(-(int64_t)e - 1);
    }
    /* ties: m = 2^k exactly (k = log2 m) gives acc * m with a .5 at the
       final step for acc = (2t + 1) * 2^(30 - shift - k), and at the
       doubling high multiply for acc = (2t + 1) * 2^(30 - k) */
    if (m > 0 && (m & (m - 1)) == 0) {
        int lg = 0;
        while (((int32_t)1 << lg) != m) ++lg;
        for (t = -12; t < 12; ++t) {
            int e1 = 30 - shift - lg, e2 = 30 - lg;
            int64_t v;
            if (e1 >= 0 && e1 <= 31) {
                v = (int64_t)(2 * t + 1) * ((int64_t)1 << e1);
                if (v >= INT32_MIN && v <= INT32_MAX) a[n++] = (int32_t)v;
            }
            if (e2 >= 0 && e2 <= 31) {
                v = (int64_t)(2 * t + 1) * ((int64_t)1 << e2);
                if (v >= INT32_MIN && v <= INT32_MAX) a[n++] = (int32_t)v;
            }
        }
    }
    while (n < 160) {
        uint32_t u = check_rand();
        int32_t v = (int32_t)u;
        if (n & 1) v = (int32_t)floor_pow2(v, (int)(check_rand() % 32)); /* every magnitude */
        a[n++] = v;
    }
    return n;
}

static void sweep(void)
{
    static const quant_dtype dts[3] = { QUANT_S8, QUANT_U8, QUANT_S16 };
    int32_t acc[MAXA], mults[16], shifts[1], mm[1];
    int r, di, shift, k, nm;
    char label[96];
    for (r = 0; r < 2; ++r)
        for (di = 0; di < 3; ++di)
            for (shift = -31; shift <= 30; ++shift) {
                nm = 0;
                mults[nm++] = 0; mults[nm++] = 1; mults[nm++] = 1 << 30; mults[nm++] = INT32_MAX;
                mults[nm++] = 1 << 20; mults[nm++] = 1 << 29; mults[nm++] = 0x40000001;
                mults[nm++] = (int32_t)(check_rand() & 0x7FFFFFFF);
                mults[nm++] = (int32_t)(0x40000000u | (check_rand() & 0x3FFFFFFF));
                mults[nm] = (int32_t)(check_rand() & 0x7FFFFFFF);
                mults[nm] >>= check_rand() % 32;
                ++nm;
                for (k = 0; k < nm; ++k) {
                    quant_dtype dt = dts[di];
                    quant_requant rq = rq_default(r ? QUANT_RQ_SINGLE : QUANT_RQ_DOUBLE, dt);
                    int64_t dims[1];
                    size_t i, na = accs_for(acc, mults[k], shift);
                    mm[0] = mults[k];
                    shifts[0] = shift;
                    rq.multipliers = mm;
                    rq.shifts = shifts;
                    /* zero points: 0, the type's ends, and one inside */
                    switch ((shift + 31 + k) % 4) {
                    case 0: rq.zp = 0 > type_min(dt) ? 0 : type_min(dt); break;
                    case 1: rq.zp = type_min(dt); break;
                    case 2: rq.zp = type_max(dt); break;
                    default: rq.zp = type_min(dt) + (int32_t)(check_rand() % (uint32_t)(type_max(dt) - type_min(dt) + 1));
                    }
                    if (r == 0 && di == 0)
                        for (i = 0; i < na; ++i) check_references(acc[i], mults[k], shift);
                    dims[0] = (int64_t)na;
                    sprintf(label, "sweep shift %d mult %ld", shift, (long)mults[k]);
                    run(label, acc, 1, dims, dt, &rq);
                }
            }
}

/* ---- float (XNNPACK fp32) ----------------------------------------------- */

static float rand_scale(void)
{
    /* normal positive floats from 2^-40 to 2^12, a quarter powers of two
       (exact ties), and the smallest normal and large ones now and then */
    uint32_t u = check_rand();
    int e = (int)(u % 53) - 40;
    float mant = (u >> 8) % 4 == 0 ? 1.0f : 1.0f + (float)(check_rand() & 0x7FFFFF) / 8388608.0f;
    if (u % 97 == 0) return FLT_MIN;
    if (u % 89 == 0) return 1e30f;
    return ldexpf(mant, e);
}

static void float_tests(void)
{
    static const quant_dtype dts[3] = { QUANT_S8, QUANT_U8, QUANT_S16 };
    int32_t acc[MAXA];
    float sc[1];
    int di, it, e2;
    size_t i, na;
    for (di = 0; di < 3; ++di)
        for (it = 0; it < 60; ++it) {
            quant_dtype dt = dts[di];
            quant_requant rq = rq_default(QUANT_RQ_FLOAT, dt);
            int64_t dims[1];
            na = accs_for(acc, 1 << 30, 0);
            sc[0] = rand_scale();
            rq.scales = sc;
            rq.zp = it % 3 == 0 ? type_min(dt) : it % 3 == 1 ? type_max(dt)
                  : type_min(dt) + (int32_t)(check_rand() % (uint32_t)(type_max(dt) - type_min(dt) + 1));
            if (it % 4 == 3) { /* a narrower activation range around the zero point */
                rq.act_min = rq.zp - 6 < type_min(dt) ? type_min(dt) : rq.zp - 6;
                rq.act_max = rq.zp + 20 > type_max(dt) ? type_max(dt) : rq.zp + 20;
            }
            /* accumulators that land on x.5 for power-of-two scales */
            if (frexpf(sc[0], &e2) == 0.5f)
                for (i = 0; i < 40 && na < MAXA; ++i) {
                    float q = (float)((int32_t)(check_rand() % 200) - 100) + 0.5f, v = q / sc[0];
                    if (fabsf(v) < 2147483520.0f) acc[na++] = (int32_t)v;
                }
            for (i = 0; i < na; ++i) /* the fmagic and lrintf kernels agree */
                CHECK(rqref_xnn_requantize_fp32_fmagic(acc[i], sc[0], rq.zp, rq.act_min, rq.act_max) ==
                          rqref_xnn_requantize_fp32_lrintf(acc[i], sc[0], rq.zp, rq.act_min, rq.act_max),
                      "references: fmagic and lrintf differ at acc %ld scale %a", (long)acc[i], (double)sc[0]);
            dims[0] = (int64_t)na;
            run("float per tensor", acc, 1, dims, dt, &rq);
        }
}

/* FLOAT in the type's whole range: where every scale is below 1, x86
   leaves the upper clamp to its packs; one scale of 1 or more among
   them (in any place of a row, in the part read four at a time and in
   the tail) brings the clamp back, as fl(acc) s may reach 2^31 */
static void float_top(void)
{
    static const quant_dtype dts[2] = { QUANT_S8, QUANT_U8 };
    /* 16 channels in 520 rows: x86 lays their scales out and runs its
       blocks of four vectors; 100 in a row: blocks in each row */
    static const size_t chans[5] = { 1, 7, 16, 37, 100 };
    static const float big[3] = { 1.0f, 1.5f, 0.99999994f };
    static int32_t acc[520 * 16];
    float sc[100];
    int di, bi;
    size_t ci, at, i;
    for (di = 0; di < 2; ++di)
        for (ci = 0; ci < 5; ++ci)
            for (bi = 0; bi < 3; ++bi)
                for (at = 0; at < chans[ci]; at += chans[ci] > 8 ? 5 : 1) {
                    const size_t nc = chans[ci], rows = nc == 16 ? 520 : 40;
                    quant_requant rq = rq_default(QUANT_RQ_FLOAT, dts[di]);
                    int64_t dims[2];
                    for (i = 0; i < nc; ++i) sc[i] = i == at ? big[bi] : 0.9999999f - (float)i * 1e-3f;
                    for (i = 0; i < rows * nc; ++i) {
                        const uint32_t u = check_rand();
                        acc[i] = u % 3 == 0 ? INT32_MAX - (int32_t)(u >> 24) : u % 3 == 1 ? INT32_MIN + (int32_t)(u >> 24)
                                                                               : (int32_t)u;
                    }
                    rq.scales = sc;
                    rq.zp = (int32_t)(check_rand() % 60u) + (dts[di] == QUANT_S8 ? -30 : 0);
                    rq.qtype = nc == 1 ? QUANT_PER_TENSOR : QUANT_PER_CHANNEL;
                    rq.axis = 1;
                    rq.n = (int64_t)nc;
                    dims[0] = (int64_t)rows;
                    dims[1] = (int64_t)nc;
                    run("float, a scale of 1 or more", acc, 2, dims, dts[di], &rq);
                }
}

/* ---- per channel -------------------------------------------------------- */

static void per_channel(void)
{
    static const struct { int rank; int64_t dims[4]; int64_t axis; } shapes[] = {
        { 2, { 5, 7 }, 0 }, { 2, { 7, 5 }, 1 }, { 2, { 7, 5 }, -1 }, { 3, { 3, 4, 5 }, 1 },
        { 3, { 3, 4, 5 }, -2 }, { 3, { 2, 6, 3 }, 0 }, { 4, { 2, 3, 4, 3 }, 2 }, { 1, { 9 }, 0 },
        /* rows long enough for whole blocks of vectors, starting anywhere
           (streaming stores in the build that streams from 256 bytes) */
        { 2, { 9, 100 }, 1 }, { 2, { 100, 9 }, 0 },
        /* channels last, enough rows that x86 lays the parameters out for
           several rows a call (a part call at the end of the first two) */
        { 2, { 300, 37 }, 1 }, { 3, { 5, 41, 64 }, 2 }, { 2, { 17, 512 }, -1 },
        /* rows shorter than a vector (1, 3, 5 channels), one vector
           (16), and between one and two (20) */
        { 2, { 8300, 1 }, 1 }, { 2, { 2800, 3 }, 1 }, { 2, { 1700, 5 }, 1 }, { 2, { 600, 16 }, 1 },
        { 2, { 500, 20 }, 1 },
    };
    static const quant_dtype dts[3] = { QUANT_S8, QUANT_U8, QUANT_S16 };
    int si, di, r, rep;
    for (si = 0; si < (int)(sizeof shapes / sizeof shapes[0]); ++si)
        for (di = 0; di < 3; ++di)
            for (r = 0; r < 3; ++r)
                for (rep = 0; rep < 6; ++rep) {
                    int rank = shapes[si].rank, ax = (int)(shapes[si].axis < 0 ? shapes[si].axis + rank : shapes[si].axis);
                    size_t n = count(rank, shapes[si].dims), nch = (size_t)shapes[si].dims[ax], i;
                    quant_dtype dt = dts[di];
                    quant_requant rq = rq_default((quant_requant_rounding)r, dt);
                    int32_t *acc = (int32_t *)xmalloc(n * 4), *m = (int32_t *)xmalloc(nch * 4),
                            *sh = (int32_t *)xmalloc(nch * 4);
                    float *sc = (float *)xmalloc(nch * 4);
                    char label[80];
                    for (i = 0; i < nch; ++i) {
                        m[i] = (int32_t)(0x40000000u | (check_rand() & 0x3FFFFFFF));
                        if (i == 1) m[i] = INT32_MAX;
                        if (i == 2) m[i] = 0;
                        /* shifts spread over [-31, 30], the ends included */
                        sh[i] = i == 0 ? -31 : i == nch - 1 ? 30 : (int32_t)(check_rand() % 62) - 31;
                        if (rep & 1) sh[i] = (int32_t)(check_rand() % 20) - 18; /* where the outputs are not all saturated */
                        /* right shifts only, 0 and -31 in every lane position: the
                           vector kernels that take no left shift run */
                        if (rep == 3) sh[i] = i % 5 == 0 ? 0 : i % 7 == 1 ? -31 : -(int32_t)(check_rand() % 20);
                        /* right shifts only, none 0 (x86's layouts of
                           the parameters, which DOUBLE, and SSE2's
                           SINGLE, take only then), the whole range and
                           (rep 5) a narrower one */
                        if (rep >= 4) sh[i] = i % 5 == 0 ? -1 : i % 7 == 1 ? -31 : -1 - (int32_t)(check_rand() % 20);
                        sc[i] = rand_scale();
                    }
                    for (i = 0; i < n; ++i) {
                        acc[i] = (int32_t)check_rand();
                        if (i & 1) acc[i] = (int32_t)floor_pow2(acc[i], (int)(check_rand() % 32));
                        if (i % 11 == 0) acc[i] = i % 2 ? INT32_MIN : INT32_MAX;
                    }
                    rq.qtype = QUANT_PER_CHANNEL;
                    rq.axis = shapes[si].axis;
                    rq.n = nch;
                    rq.multipliers = m;
                    rq.shifts = sh;
                    rq.scales = sc;
                    rq.zp = rep == 2 ? type_max(dt) : rep == 3 ? type_min(dt) : (type_min(dt) + type_max(dt)) / 2;
                    if (rep == 1 || rep == 5) { rq.act_min = rq.zp - 50; rq.act_max = rq.zp + 60; }
                    sprintf(label, "per channel rank %d axis %ld", rank, (long)shapes[si].axis);
                    run(label, acc, rank, shapes[si].dims, dt, &rq);
                    free(acc); free(m); free(sh); free(sc);
                }
}

/* ---- accumulators at the rounding boundaries ---------------------------- */

/* The result's steps: with y = acc m / 2^(31+k) (k = -shift), SINGLE's
   result steps where y + 1/2 is an integer, DOUBLE's where y + 1/2 +
   2^-(k+1) is (y >= 0) or y + 1/2 - 2^-(k+1) (y below about -1/2). Each
   element takes the accumulators nearest such a step for its channel, up
   to 3 either side, at steps from -300 to 300 (every s8 and u8 result, the
   clamp's ends and past them), per tensor and channels last: these are
   where a kernel that rounds in floats, or drops DOUBLE's first rounding,
   gives another answer. */
static void boundaries(void)
{
    static const int64_t shapes[5][2] = { { 64, 256 }, { 300, 37 }, { 1000, 8 }, { 4000, 1 }, { 40, 500 } };
    static const quant_dtype dts[3] = { QUANT_S8, QUANT_U8, QUANT_S16 };
    int si, di, r, rep;
    for (si = 0; si < 5; ++si)
        for (di = 0; di < 3; ++di)
            for (r = 0; r < 2; ++r)
                for (rep = 0; rep < 3; ++rep) {
                    const size_t nch = (size_t)shapes[si][1], n = (size_t)shapes[si][0] * nch;
                    const quant_dtype dt = dts[di];
                    quant_requant rq = rq_default(r ? QUANT_RQ_SINGLE : QUANT_RQ_DOUBLE, dt);
                    int32_t *acc = (int32_t *)xmalloc(n * 4), *m = (int32_t *)xmalloc(nch * 4),
                            *sh = (int32_t *)xmalloc(nch * 4);
                    size_t i;
                    char label[80];
                    for (i = 0; i < nch; ++i) {
                        m[i] = (int32_t)(0x40000000u | (check_rand() & 0x3FFFFFFF));
                        if (rep == 1 && i % 3 == 0) m[i] = (int32_t)(check_rand() & 0x7FFFFFFF) >> (check_rand() % 12);
                        sh[i] = -1 - (int32_t)(check_rand() % 24); /* right shifts, none 0 */
                        if (rep == 2) sh[i] = -(int32_t)(check_rand() % 31); /* 0 too */
                    }
                    for (i = 0; i < n; ++i) {
                        const size_t c = i % nch;
                        const int k = -sh[c], t = (int)(check_rand() % 601) - 300, off = (int)(check_rand() % 7) - 3;
                        /* acc m at the step: (2t + 1) 2^(30+k), DOUBLE less or more 2^30;
                           past 2^62 the accumulator is beyond int32 (m < 2^31) */
                        const int64_t o = 2 * (int64_t)t + 1;
                        int64_t b, a;
                        if ((o < 0 ? -o : o) > ((int64_t)1 << 62 >> (30 + k))) a = o < 0 ? INT32_MIN : INT32_MAX;
                        else {
                            b = o * ((int64_t)1 << (30 + k));
                            if (r == 0 && k > 0) b += t >= 0 ? -((int64_t)1 << 30) : (int64_t)1 << 30;
                            a = m[c] ? b / m[c] + off : off;
                        }
                        acc[i] = a < INT32_MIN ? INT32_MIN : a > INT32_MAX ? INT32_MAX : (int32_t)a;
                    }
                    rq.zp = rep == 0 ? 0 : type_min(dt) + (int32_t)(check_rand() % (uint32_t)(type_max(dt) - type_min(dt) + 1));
                    if (rep == 1) { rq.act_min = rq.zp - 50 < type_min(dt) ? type_min(dt) : rq.zp - 50; rq.act_max = rq.act_min + 100 > type_max(dt) ? type_max(dt) : rq.act_min + 100; }
                    if (nch > 1) {
                        rq.qtype = QUANT_PER_CHANNEL;
                        rq.axis = 1;
                        rq.n = nch;
                    }
                    rq.multipliers = m;
                    rq.shifts = sh;
                    sprintf(label, "boundaries [%ld, %ld] rep %d", (long)shapes[si][0], (long)nch, rep);
                    run(label, acc, 2, shapes[si], dt, &rq);
                    free(acc); free(m); free(sh);
                }
}

/* One parameter out of range, or one left shift, at each place of 13
   channels: x86 checks the lists four at a time and the rest one by one,
   so each place is in a vector or in the tail. The left shift must be
   seen wherever it is, or the right-shift kernel would take it. */
static void one_bad_channel(void)
{
    enum { NC = 13 };
    static const int64_t dims[2] = { 3, NC };
    static const int32_t bad_shifts[5] = { 31, -32, 61, INT32_MIN, INT32_MAX };
    static const int32_t bad_mults[2] = { -1, INT32_MIN };
    static const uint32_t bad_scales[8] = { 0x00000000u, 0x80000000u, 0xBF800000u, 0x7FC00000u,
                                            0x7F800000u, 0xFF800000u, 0x00400000u, 0x007FFFFFu };
    /* the ends of the ranges, accepted */
    static const uint32_t ok_scales[2] = { 0x7F7FFFFFu, 0x00800000u };
    static const int32_t ok_shifts[2] = { 30, -31 };
    int32_t acc[3 * NC], m[NC], sh[NC], src[3 * NC];
    float sc[NC];
    int8_t dst[3 * NC];
    quant_tensor s, d;
    quant_requant rq;
    char label[100];
    int c, k, r;
    for (k = 0; k < 3 * NC; ++k) acc[k] = (int32_t)check_rand() >> (k % 24);
    for (c = 0; c < NC; ++c) {
        for (r = 0; r < 3; ++r) {
            for (k = 0; k < NC; ++k) { m[k] = 0x50000000 + k; sh[k] = -3; sc[k] = 0.01f; }
            rq = rq_default((quant_requant_rounding)r, QUANT_S8);
            rq.qtype = QUANT_PER_CHANNEL; rq.axis = 1; rq.n = NC;
            rq.multipliers = m; rq.shifts = sh; rq.scales = sc;
            memcpy(src, acc, sizeof src);
            s = check_tensor(QUANT_S32, 2, dims, src);
            d = check_tensor(QUANT_S8, 2, dims, dst);
            if (r == QUANT_RQ_FLOAT) {
                for (k = 0; k < 8; ++k) {
                    sc[c] = check_float_bits(bad_scales[k]);
                    memset(dst, SENTINEL, sizeof dst);
                    CHECK(quant_requantize(&s, &d, &rq) == QUANT_ERR_SCALE_VALUE && untouched(dst, sizeof dst),
                          "scale %a in channel %d of %d: not QUANT_ERR_SCALE_VALUE, or dst written", (double)sc[c], c, NC);
                }
                for (k = 0; k < 2; ++k) {
                    sc[c] = check_float_bits(ok_scales[k]);
                    sprintf(label, "scale %a in channel %d of %d", (double)sc[c], c, NC);
                    run(label, acc, 2, dims, QUANT_S8, &rq);
                }
                continue;
            }
            for (k = 0; k < 5; ++k) {
                sh[c] = bad_shifts[k];
                memset(dst, SENTINEL, sizeof dst);
                CHECK(quant_requantize(&s, &d, &rq) == QUANT_ERR_SCALE_VALUE && untouched(dst, sizeof dst),
                      "shift %ld in channel %d of %d: not QUANT_ERR_SCALE_VALUE, or dst written", (long)sh[c], c, NC);
            }
            sh[c] = -3;
            for (k = 0; k < 2; ++k) {
                m[c] = bad_mults[k];
                memset(dst, SENTINEL, sizeof dst);
                CHECK(quant_requantize(&s, &d, &rq) == QUANT_ERR_SCALE_VALUE && untouched(dst, sizeof dst),
                      "multiplier %ld in channel %d of %d: not QUANT_ERR_SCALE_VALUE, or dst written", (long)m[c], c, NC);
            }
            m[c] = INT32_MAX;
            for (k = 0; k < 2; ++k) {
                sh[c] = ok_shifts[k];
                sprintf(label, "shift %ld in channel %d of %d", (long)sh[c], c, NC);
                run(label, acc, 2, dims, QUANT_S8, &rq);
            }
            sh[c] = 1; /* the only left shift */
            sprintf(label, "shift 1 in channel %d of %d, the others -3", c, NC);
            run(label, acc, 2, dims, QUANT_S8, &rq);
        }
    }
}

/* ---- random accumulators, the activation clamp, + zp at the int32 ends --- */

static void random_and_clamp(void)
{
    static const quant_dtype dts[3] = { QUANT_S8, QUANT_U8, QUANT_S16 };
    enum { N = 4096 };
    int32_t *acc = (int32_t *)malloc(N * 4);
    int32_t m[1], sh[1];
    float sc[1];
    int di, r, it;
    size_t i;
    int64_t dims[1] = { N };
    if (acc == NULL) exit(2);
    for (di = 0; di < 3; ++di)
        for (r = 0; r < 3; ++r)
            for (it = 0; it < 20; ++it) {
                quant_dtype dt = dts[di];
                quant_requant rq = rq_default((quant_requant_rounding)r, dt);
                int32_t lo = type_min(dt), hi = type_max(dt), w = hi - lo + 1;
                for (i = 0; i < N; ++i) {
                    acc[i] = (int32_t)check_rand();
                    if (i % 3) acc[i] = (int32_t)floor_pow2(acc[i], (int)(check_rand() % 32));
                }
                m[0] = (int32_t)(check_rand() & 0x7FFFFFFF);
                sh[0] = (int32_t)(check_rand() % 62) - 31;
                if (it < 4) sh[0] = (int32_t)(check_rand() % 24) - 22;
                sc[0] = rand_scale();
                rq.multipliers = m;
                rq.shifts = sh;
                rq.scales = sc;
                rq.zp = lo + (int32_t)(check_rand() % (uint32_t)w);
                /* activation ranges: the whole type, a random sub-range, a
                   single value, ReLU (zp..max), ReLU6-like */
                switch (it % 5) {
                case 0: break;
                case 1: rq.act_min = lo + (int32_t)(check_rand() % (uint32_t)w);
                        rq.act_max = rq.act_min + (int32_t)(check_rand() % (uint32_t)(hi - rq.act_min + 1)); break;
                case 2: rq.act_min = rq.act_max = lo + (int32_t)(check_rand() % (uint32_t)w); break;
                case 3: rq.act_min = rq.zp; break;
                default: rq.act_min = rq.zp; rq.act_max = rq.zp + 6 > hi ? hi : rq.zp + 6; break;
                }
                run("random", acc, 1, dims, dt, &rq);
            }
    /* + zp where the references' int32 add wraps: the result near the
       int32 ends, zp at the type's ends */
    for (di = 0; di < 3; ++di)
        for (r = 0; r < 2; ++r) {
            quant_dtype dt = dts[di];
            quant_requant rq = rq_default((quant_requant_rounding)r, dt);
            int32_t few[6] = { INT32_MAX, INT32_MAX - 1, INT32_MIN, INT32_MIN + 1, INT32_MAX - 100, INT32_MIN + 100 };
            int64_t d6[1] = { 6 };
            m[0] = INT32_MAX;
            sh[0] = 0;
            rq.multipliers = m;
            rq.shifts = sh;
            rq.zp = type_max(dt);
            run("zp at the top, acc near INT32_MAX", few, 1, d6, dt, &rq);
            rq.zp = type_min(dt);
            run("zp at the bottom, acc near INT32_MIN", few, 1, d6, dt, &rq);
            sh[0] = 30; /* every one of them wraps in the references */
            run("shift 30, acc at the ends", few, 1, d6, dt, &rq);
        }
    free(acc);
}

/* ---- empty tensors ------------------------------------------------------- */

static void empty(void)
{
    int32_t m[4] = { 1 << 30, 1 << 30, 1 << 30, 1 << 30 }, sh[4] = { 0, 0, 0, 0 };
    float sc[4] = { 1, 1, 1, 1 };
    static const int64_t d0[2] = { 0, 4 }, d1[2] = { 4, 0 }, d2[3] = { 2, 0, 3 };
    int r;
    for (r = 0; r < 3; ++r) {
        quant_requant rq = rq_default((quant_requant_rounding)r, QUANT_S8);
        quant_tensor s, d;
        quant_status st;
        rq.multipliers = m; rq.shifts = sh; rq.scales = sc;
        s = check_tensor(QUANT_S32, 2, d0, NULL); d = check_tensor(QUANT_S8, 2, d0, NULL);
        CHECK(quant_requantize(&s, &d, &rq) == QUANT_OK, "empty per tensor (%s)", r_name(rq.rounding));
        rq.qtype = QUANT_PER_CHANNEL;
        rq.axis = 1; rq.n = 4; /* the zero dim elsewhere */
        CHECK(quant_requantize(&s, &d, &rq) == QUANT_OK, "empty, per channel on a non-empty axis (%s)",
              r_name(rq.rounding));
        rq.axis = 0; rq.n = 0; /* on the zero-length axis: zero multipliers */
        CHECK(quant_requantize(&s, &d, &rq) == QUANT_OK, "empty, per channel on the empty axis (%s)",
              r_name(rq.rounding));
        s = check_tensor(QUANT_S32, 2, d1, NULL); d = check_tensor(QUANT_S16, 2, d1, NULL);
        rq.axis = -2; rq.n = 4;
        CHECK(quant_requantize(&s, &d, &rq) == QUANT_OK, "empty s16 (%s)", r_name(rq.rounding));
        s = check_tensor(QUANT_S32, 3, d2, NULL); d = check_tensor(QUANT_U8, 3, d2, NULL);
        rq.axis = 2; rq.n = 3; rq.act_min = 0; rq.act_max = 255;
        st = quant_requantize(&s, &d, &rq);
        CHECK(st == QUANT_OK, "empty 3-D (%s): %s", r_name(rq.rounding), quant_status_str(st));
    }
}

/* ---- bad input: each its status, dst untouched --------------------------- */

static int32_t *g_src;
static void *g_dst;
static size_t g_dst_bytes;

/* src: 6 s32 (2 x 3), dst: dt, 2 x 3 */
static void expect_status(const char *label, quant_dtype sdt, quant_dtype dt, const quant_requant *rq,
                          quant_status want)
{
    static const int64_t dims[2] = { 2, 3 };
    quant_tensor s = check_tensor(sdt, 2, dims, g_src), d = check_tensor(dt, 2, dims, g_dst);
    quant_status st;
    memset(g_dst, SENTINEL, g_dst_bytes);
    st = quant_requantize(&s, &d, rq);
    CHECK(st == want, "%s: got %s, want %s", label, quant_status_str(st), quant_status_str(want));
    CHECK(st == QUANT_OK || untouched(g_dst, g_dst_bytes), "%s: dst written on error", label);
}

static void bad_input(void)
{
    static const quant_dtype dts[3] = { QUANT_S8, QUANT_U8, QUANT_S16 };
    int32_t m3[3] = { 1 << 30, 1 << 30, 1 << 30 }, s3[3] = { -1, -1, -1 };
    float f3[3] = { 0.5f, 0.5f, 0.5f };
    float bad_scales[8];
    int32_t bad_shifts[4] = { 31, -32, 100, INT32_MIN };
    int32_t bad_mults[2] = { -1, INT32_MIN };
    int di, r, k;
    char label[120];
    bad_scales[0] = 0.0f; bad_scales[1] = -0.0f; bad_scales[2] = -1.0f;
    bad_scales[3] = check_float_bits(0x7FC00000); bad_scales[4] = check_float_bits(0x7F800000);
    bad_scales[5] = check_float_bits(0xFF800000); bad_scales[6] = check_float_bits(0x00400000); /* subnormal */
    bad_scales[7] = check_float_bits(0x00000001);
    g_src = (int32_t *)xmalloc(6 * 4);
    for (k = 0; k < 6; ++k) g_src[k] = k * 1000 - 2500;
    for (di = 0; di < 3; ++di) {
        quant_dtype dt = dts[di];
        g_dst_bytes = 6 * esize(dt);
        g_dst = xmalloc(g_dst_bytes);
        for (r = 0; r < 3; ++r) {
            quant_requant base = rq_default((quant_requant_rounding)r, dt), rq;
            const char *nm = r_name(base.rounding);
            base.multipliers = m3; base.shifts = s3; base.scales = f3;
            sprintf(label, "baseline (%s, %s)", nm, dt_name(dt));
            expect_status(label, QUANT_S32, dt, &base, QUANT_OK);

            if (r != QUANT_RQ_FLOAT) {
                for (k = 0; k < 4; ++k) {
                    int32_t bs[3];
                    rq = base;
                    bs[0] = bs[1] = -1; bs[2] = bad_shifts[k];
                    rq.shifts = bs; /* per tensor reads bs[0]: put the bad one first */
                    bs[0] = bad_shifts[k];
                    sprintf(label, "shift %ld (%s, %s)", (long)bad_shifts[k], nm, dt_name(dt));
                    expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_SCALE_VALUE);
                    bs[0] = -1; /* per channel, the last channel bad */
                    rq.qtype = QUANT_PER_CHANNEL; rq.axis = 1; rq.n = 3;
                    sprintf(label, "shift %ld in the last channel (%s, %s)", (long)bad_shifts[k], nm, dt_name(dt));
                    expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_SCALE_VALUE);
                }
                for (k = 0; k < 2; ++k) {
                    int32_t bm[3] = { 1 << 30, 1 << 30, 1 << 30 };
                    rq = base;
                    bm[0] = bad_mults[k];
                    rq.multipliers = bm;
                    sprintf(label, "multiplier %ld (%s, %s)", (long)bad_mults[k], nm, dt_name(dt));
                    expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_SCALE_VALUE);
                    bm[0] = 1 << 30; bm[2] = bad_mults[k];
                    rq.qtype = QUANT_PER_CHANNEL; rq.axis = 1; rq.n = 3;
                    sprintf(label, "multiplier %ld in the last channel (%s, %s)", (long)bad_mults[k], nm, dt_name(dt));
                    expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_SCALE_VALUE);
                }
                rq = base; rq.multipliers = NULL;
                sprintf(label, "NULL multipliers (%s, %s)", nm, dt_name(dt));
                expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_NULL);
                rq = base; rq.shifts = NULL;
                sprintf(label, "NULL shifts (%s, %s)", nm, dt_name(dt));
                expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_NULL);
            } else {
                for (k = 0; k < 8; ++k) {
                    float bsc[3] = { 0.5f, 0.5f, 0.5f };
                    rq = base;
                    bsc[0] = bad_scales[k];
                    rq.scales = bsc;
                    sprintf(label, "scale %a (%s, %s)", (double)bad_scales[k], nm, dt_name(dt));
                    expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_SCALE_VALUE);
                    bsc[0] = 0.5f; bsc[2] = bad_scales[k];
                    rq.qtype = QUANT_PER_CHANNEL; rq.axis = 1; rq.n = 3;
                    sprintf(label, "scale %a in the last channel (%s, %s)", (double)bad_scales[k], nm, dt_name(dt));
                    expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_SCALE_VALUE);
                }
                rq = base; rq.scales = NULL;
                sprintf(label, "NULL scales (%s, %s)", nm, dt_name(dt));
                expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_NULL);
            }
            /* the activation range */
            rq = base; rq.act_min = 5; rq.act_max = 4;
            sprintf(label, "act_min > act_max (%s, %s)", nm, dt_name(dt));
            expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_ATTR);
            rq = base; rq.act_min = type_min(dt) - 1;
            sprintf(label, "act_min below the type (%s, %s)", nm, dt_name(dt));
            expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_ATTR);
            rq = base; rq.act_max = type_max(dt) + 1;
            sprintf(label, "act_max above the type (%s, %s)", nm, dt_name(dt));
            expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_ATTR);
            rq = base; rq.act_min = rq.act_max = type_max(dt) + 1;
            sprintf(label, "act range above the type (%s, %s)", nm, dt_name(dt));
            expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_ATTR);
            rq = base; rq.act_min = INT32_MIN; rq.act_max = INT32_MAX;
            sprintf(label, "act range the int32 ends (%s, %s)", nm, dt_name(dt));
            expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_ATTR);
            /* the zero point */
            rq = base; rq.zp = type_max(dt) + 1;
            sprintf(label, "zp above the type (%s, %s)", nm, dt_name(dt));
            expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_ZP_VALUE);
            rq = base; rq.zp = type_min(dt) - 1;
            sprintf(label, "zp below the type (%s, %s)", nm, dt_name(dt));
            expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_ZP_VALUE);
            rq = base; rq.zp = INT32_MIN;
            sprintf(label, "zp INT32_MIN (%s, %s)", nm, dt_name(dt));
            expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_ZP_VALUE);
            /* n */
            rq = base; rq.n = 2;
            sprintf(label, "per tensor n 2 (%s, %s)", nm, dt_name(dt));
            expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_SCALES);
            rq = base; rq.n = 0;
            sprintf(label, "per tensor n 0 (%s, %s)", nm, dt_name(dt));
            expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_SCALES);
            rq = base; rq.qtype = QUANT_PER_CHANNEL; rq.axis = 1; rq.n = 2;
            sprintf(label, "per channel n 2 for dims[1] 3 (%s, %s)", nm, dt_name(dt));
            expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_SCALES);
            rq = base; rq.qtype = QUANT_PER_CHANNEL; rq.axis = 0; rq.n = 3;
            sprintf(label, "per channel n 3 for dims[0] 2 (%s, %s)", nm, dt_name(dt));
            expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_SCALES);
            rq = base; rq.qtype = QUANT_PER_CHANNEL; rq.axis = 1; rq.n = 1;
            sprintf(label, "per channel n 1 for dims[1] 3 (%s, %s)", nm, dt_name(dt));
            expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_SCALES);
            /* qtype, axis */
            rq = base; rq.qtype = QUANT_PER_GROUP;
            sprintf(label, "per group (%s, %s)", nm, dt_name(dt));
            expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_QTYPE);
            rq = base; rq.qtype = QUANT_PER_CHANNEL; rq.axis = 2; rq.n = 3;
            sprintf(label, "axis 2 of rank 2 (%s, %s)", nm, dt_name(dt));
            expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_AXIS);
            rq = base; rq.qtype = QUANT_PER_CHANNEL; rq.axis = -3; rq.n = 3;
            sprintf(label, "axis -3 of rank 2 (%s, %s)", nm, dt_name(dt));
            expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_AXIS);
            /* dtypes */
            sprintf(label, "f32 src (%s, %s)", nm, dt_name(dt));
            expect_status(label, QUANT_F32, dt, &base, QUANT_ERR_DTYPE);
            sprintf(label, "s8 src (%s, %s)", nm, dt_name(dt));
            expect_status(label, QUANT_S8, dt, &base, QUANT_ERR_DTYPE);
            sprintf(label, "s16 src (%s, %s)", nm, dt_name(dt));
            expect_status(label, QUANT_S16, dt, &base, QUANT_ERR_DTYPE);
            /* unknown rounding (section 4: an unknown rounding value) */
            rq = base; rq.rounding = (quant_requant_rounding)3;
            sprintf(label, "rounding 3 (%s)", dt_name(dt));
            expect_status(label, QUANT_S32, dt, &rq, QUANT_ERR_ATTR);
        }
        free(g_dst);
    }
    /* dst types the op does not write, into a buffer big enough for them */
    {
        quant_requant rq = rq_default(QUANT_RQ_DOUBLE, QUANT_S8);
        rq.multipliers = m3; rq.shifts = s3;
        g_dst_bytes = 6 * 4;
        g_dst = xmalloc(g_dst_bytes);
        expect_status("s32 dst", QUANT_S32, QUANT_S32, &rq, QUANT_ERR_DTYPE);
        expect_status("f32 dst", QUANT_S32, QUANT_F32, &rq, QUANT_ERR_DTYPE);
        expect_status("s4 dst", QUANT_S32, QUANT_S4, &rq, QUANT_ERR_DTYPE);
        free(g_dst);
    }
    /* NULLs, shape mismatch, misaligned data */
    {
        static const int64_t dims[2] = { 2, 3 }, dims2[2] = { 3, 2 };
        quant_requant rq = rq_default(QUANT_RQ_DOUBLE, QUANT_S16);
        quant_tensor s, d;
        uint8_t *raw = (uint8_t *)xmalloc(6 * 2 + 1), *raw4 = (uint8_t *)xmalloc(6 * 4 + 2);
        quant_status st;
        rq.multipliers = m3; rq.shifts = s3;
        g_dst_bytes = 6 * 2;
        g_dst = raw + 1; /* off a 2-byte boundary (malloc aligns raw) */
        expect_status("s16 dst misaligned", QUANT_S32, QUANT_S16, &rq, QUANT_ERR_ALIGN);
        g_dst = raw;
        s = check_tensor(QUANT_S32, 2, dims, raw4 + 2); /* s32 src off a 4-byte boundary */
        d = check_tensor(QUANT_S16, 2, dims, raw);
        memset(raw, SENTINEL, 12);
        st = quant_requantize(&s, &d, &rq);
        CHECK(st == QUANT_ERR_ALIGN, "s32 src misaligned: got %s", quant_status_str(st));
        CHECK(untouched(raw, 12), "s32 src misaligned: dst written");
        s = check_tensor(QUANT_S32, 2, dims, g_src);
        st = quant_requantize(NULL, &d, &rq);
        CHECK(st == QUANT_ERR_NULL, "NULL src: got %s", quant_status_str(st));
        st = quant_requantize(&s, NULL, &rq);
        CHECK(st == QUANT_ERR_NULL, "NULL dst: got %s", quant_status_str(st));
        st = quant_requantize(&s, &d, NULL);
        CHECK(st == QUANT_ERR_NULL, "NULL rq: got %s", quant_status_str(st));
        CHECK(untouched(raw, 12), "NULL arguments: dst written");
        d = check_tensor(QUANT_S16, 2, dims2, raw);
        st = quant_requantize(&s, &d, &rq);
        CHECK(st == QUANT_ERR_SHAPE, "dims differ: got %s", quant_status_str(st));
        CHECK(untouched(raw, 12), "dims differ: dst written");
        free(raw);
        free(raw4);
    }
    free(g_src);
}

/* ---- quant_quantize_multiplier ------------------------------------------ */

static void one_multiplier(double v)
{
    int32_t m = 0x5A5A5A5A, rm = 0;
    int s = 0x5A5A, rs = 0;
    int rc = rqref_tflite_quantize_multiplier(v, &rm, &rs, 0, 0);
    quant_status st = quant_quantize_multiplier(v, &m, &s);
    if (rc == 0 && !(v < 0) && rs <= 30) {
        CHECK(st == QUANT_OK && m == rm && s == rs, "quantize_multiplier(%a): %s (%ld, %d), want (%ld, %d)", v,
              quant_status_str(st), (long)m, s, (long)rm, rs);
    } else {
        CHECK(st == QUANT_ERR_SCALE_VALUE && m == 0x5A5A5A5A && s == 0x5A5A,
              "quantize_multiplier(%a): %s (%ld, %d), want QUANT_ERR_SCALE_VALUE, outputs untouched", v,
              quant_status_str(st), (long)m, s);
    }
}

static double dbits(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

static void quantize_multiplier_tests(void)
{
    static const double fixed[] = {
        0.0, 1.0, 0.5, 0.25, 2.0, 0.75, 1.5, 3.0, 0.1, 1.0 / 3, 2.0 / 3, 1e-3, 1e-9, 1e-12,
        0x1p-31, 0x1p-32,              /* (2^30, -31): the smallest kept */
        0x1.ffffffffp-33,             /* below 2^-32, but carries up to (2^30, -31) */
        0x1.fffffffp-33, 0x1p-33, 0x1.8p-33, 1e-30, /* flushed to (0, 0) */
        0x1.fffffffffffffp-1, 0x1.ffffffffp-1, 0x1.fffffffe8p-1, /* carry: (2^30, 1) */
        0x1.fffffffe0p-1, 0x1.fffffffdfffffp-1,                  /* no carry */
        0x1.00000002p-1, 0x1.00000006p-1, 0x1.00000001p-1,      /* ties of q * 2^31: away from zero */
        0x1p29, 0x1.fffffffp29,                   /* shift 30 */
        0x1.ffffffffp29, 0x1p30, 0x1p31, 1e10, 1e300, /* shift 31 and up: errors */
        -1.0, -0.5, -1e-40, -3.0, -0x1.ffffffffp-1,  /* negative: errors */
    };
    size_t i;
    int k;
    for (i = 0; i < sizeof fixed / sizeof fixed[0]; ++i) one_multiplier(fixed[i]);
    one_multiplier(dbits(0x0000000000000001ull)); /* denormals: (0, 0) */
    one_multiplier(dbits(0x000FFFFFFFFFFFFFull));
    one_multiplier(dbits(0x0010000000000000ull)); /* DBL_MIN */
    one_multiplier(dbits(0x7FEFFFFFFFFFFFFFull)); /* DBL_MAX */
    one_multiplier(dbits(0x7FF0000000000000ull)); /* +Inf */
    one_multiplier(dbits(0xFFF0000000000000ull)); /* -Inf */
    one_multiplier(dbits(0x7FF8000000000000ull)); /* NaN */
    one_multiplier(dbits(0xFFF8000000000001ull));
    one_multiplier(dbits(0x7FF0000000000001ull)); /* signalling NaN */
    /* at every binade from 2^-40 to 2^33: random mantissas, and the ones
       whose rounding at bit 31 ties or carries */
    for (k = -40; k <= 33; ++k)
        for (i = 0; i < 24; ++i) {
            uint64_t e = (uint64_t)(1023 + k) << 52;
            uint64_t f = (uint64_t)check_rand() << 20;
            f = (f ^ check_rand()) & 0xFFFFFFFFFFFFFull;
            if (i == 1) f = 0xFFFFFFFFFFFFFull;
            if (i == 2) f = (f & ~0x3FFFFFull) | 0x200000; /* exactly .5 below bit 31 of q */
            if (i == 3) f = (f & ~0x3FFFFFull) | 0x1FFFFF;
            if (i == 4) f = 0xFFFFFFFE00000ull | (f & 0x1FFFFF);
            if (i == 5) f = 0;
            one_multiplier(dbits(e | f));
        }
    /* random positive doubles of every exponent */
    for (i = 0; i < 20000; ++i) {
        uint64_t u = (uint64_t)check_rand() << 32;
        u = (u | check_rand()) & 0x7FFFFFFFFFFFFFFFull;
        one_multiplier(dbits(u));
    }
    /* what it gives scales a per-channel requantize: DOUBLE with these
       multipliers is scale * acc rounded, within one step */
    for (i = 0; i < 200; ++i) {
        double v = 1.0 + (double)check_rand() / 4294967296.0;
        v = ldexp(v, (int)(check_rand() % 40) - 36);
        int32_t m;
        int s;
        int32_t acc = (int32_t)check_rand() >> 8;
        if (quant_quantize_multiplier(v, &m, &s) == QUANT_OK && s <= 30 && s >= -31) {
            double want = (double)acc * v;
            int32_t got = rqref_tflite_mbqm_double(acc, m, s);
            CHECK(fabs((double)got - want) <= 1.0 + fabs(want) * 1e-9, "quantize_multiplier(%a) then multiply %ld: %ld vs %g",
                  v, (long)acc, (long)got, want);
        }
    }
}

int main(void)
{
    check_cpu();
    sweep();
    float_tests();
    float_top();
    per_channel();
    boundaries();
    one_bad_channel();
    random_and_clamp();
    empty();
    bad_input();
    quantize_multiplier_tests();
    return check_done("test_requant");
}
