/* The backend this program is built for against the scalar backend, bit for
   bit, kernel by kernel: every flag combination, one scale and a vector of
   scales, every length 0..300 (so every tail), unaligned pointers, guard
   bytes after the end; data from edge values, ties (k + 1/2) * s and a few
   ulps around them, and random bits; a table of scales and zero points
   including the ones a SIMD kernel hands to scalar.

   "all K N": shard K of N of the slow sweep, all 2^32 f32 bit patterns
   through s8/u8 quantize at three scales in each rounding, and through
   f8 encode (both formats, both overflow modes) at one of them, the
   scalar kernel run where the bytes change (sweep_cmp). */
#include "../quant.h"
#include "check.h"
#include "hooks.h"
#include "ref_scalar.h"

#define MAXN 300
#define GUARD 64

static const float scales[] = {
    1.0f, 0.1f, -0.25f, 3.7f, 1e-3f, 6.5e4f, 0.0078125f, 1.17549435e-38f, 5.8774718e-39f,
    3.0e38f, 1e-20f, 1e20f, 0.3333333f, -1e-30f,
    /* either side of the range where the kernels divide without a division
       (2^-75 <= |s| <= 2^100), and a significand of all ones below it */
    0x1.000002p-75f, -0x1.fffffep-76f, 0x1.fffffep99f, 0x1.000002p100f, 0x1.fffffep-126f,
    /* a subnormal reciprocal: x * r corrected once gives 1 for 0x7F400001 / s, not 2 */
    0x1.000002p127f
};
/* entries 10 to 17 are the kernels' zero-point bounds and one past them
   (QUANT__ZP_PACK, QUANT__ZP_FAST), which main sets from tests/hooks.h */
static int32_t zps[] = {
    0, 1, -1, 10, 127, -128, 128, 255, -300, 77777, 0, 0, 0, 0, 0, 0, 0, 0, INT32_MAX, INT32_MIN, 16777217
};
#define NSC (sizeof scales / sizeof *scales)
#define NZP (sizeof zps / sizeof *zps)
static const uint32_t edges[] = {
    0x00000000, 0x80000000, 0x3F000000, 0xBF000000, 0x3FC00000, 0x40200000, 0x7F800000, 0xFF800000,
    0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFBFFFFF, 0x7F7FFFFF, 0xFF7FFFFF, 0x00800000, 0x00000001,
    0x807FFFFF, 0x42FF0000, 0xC3008000, 0x437F8000, 0x4F000000, 0xCF000000, 0x4F800000, 0x4B400001,
    0x43E80000, 0x43E80001, 0x47700000, 0x476FFFFF, 0x3B000000, 0x3A800000, 0x37800000, 0x36800000,
    0x7F400001, 0xFF400001
};

static void fill(float *x, size_t n, float s)
{
    size_t i;
    for (i = 0; i < n; ++i) {
        const uint32_t k = check_rand() % 8;
        if (k == 0) x[i] = check_float_bits(edges[check_rand() % (sizeof edges / sizeof *edges)]);
        else if (k < 4) {
            float t = ((float)((int)(check_rand() % 701) - 350) + 0.5f) * s;
            x[i] = check_float_bits(check_bits_float(t) + (uint32_t)((int)(check_rand() % 9) - 4));
        } else if (k < 6) x[i] = check_float_bits(check_rand());
        else x[i] = ((float)(check_rand() % 60001) / 100.0f - 300.0f) * s;
    }
}

static float xs[MAXN + 8], sv[MAXN + 8], rv[MAXN + 8], ya[MAXN + GUARD], yb[MAXN + GUARD];
static int32_t zv[MAXN + 8];
static uint8_t qa[MAXN + GUARD], qb[MAXN + GUARD], qin[MAXN + 8];
static int32_t qin32[MAXN + 8];

static float sp[MAXN + 8];
static int32_t zpat[MAXN + 8];

/* period > 0: the kernel under test walks a pattern of `period` scales (and
   zero points) over and over; the reference gets the pattern written out */
static void one(size_t n, size_t off, size_t boff, size_t sstep, size_t zstep, unsigned f, int si, int zi,
                size_t period)
{
    const float *x = xs + off, *s = ((f >> 1) & hook_k.f_recip_given ? rv : sv) + off;
    const int32_t *z = zv + off;
    const float *sr = s;
    const int32_t *zr = z;
    const uint8_t *qi = qin + boff;
    size_t i;
    int f8 = (f & 1u) != 0; /* bit 0 of the test's code picks f8 */
    unsigned kf = f >> 1;
    if ((kf & hook_k.f_recip_given) && (!(kf & hook_k.f_recip) || sstep == 0)) return;
    if (period) {
        for (i = 0; i < n; ++i) {
            sp[i] = s[i % period];
            zpat[i] = z[i % period];
        }
        sr = sp;
        zr = zpat;
    }
    memset(qa, 0xA5, sizeof qa); memset(qb, 0xA5, sizeof qb);
    memset(ya, 0xA5, sizeof ya); memset(yb, 0xA5, sizeof yb);
    if (!f8) {
        hook_f32_to_i8(x, qa + boff, n, s, sstep, z, zstep, period, kf);
        ref_f32_to_i8(x, qb + boff, n, sr, sstep, zr, zstep, kf);
        hook_i8_to_f32(qi, ya + off, n, s, sstep, z, zstep, period, kf);
        ref_i8_to_f32(qi, yb + off, n, sr, sstep, zr, zstep, kf);
        if (kf == 0) { /* s32 dequantize has no flags: its own comparison */
            float y32a[MAXN + GUARD], y32b[MAXN + GUARD];
            memset(y32a, 0xA5, sizeof y32a); memset(y32b, 0xA5, sizeof y32b);
            hook_i32_to_f32(qin32 + off, y32a + off, n, s, sstep, z, zstep, period);
            ref_i32_to_f32(qin32 + off, y32b + off, n, sr, sstep, zr, zstep);
            for (i = 0; i < sizeof y32a / 4; ++i)
                CHECK(check_bits_float(y32a[i]) == check_bits_float(y32b[i]),
                      "i32->f32 n=%zu off=%zu sstep=%zu zstep=%zu period=%zu scale#%d zp#%d: float %zu got 0x%08x want 0x%08x",
                      n, off, sstep, zstep, period, si, zi, i, check_bits_float(y32a[i]), check_bits_float(y32b[i]));
        }
    } else {
        hook_f32_to_f8(x, qa + boff, n, s, sstep, period, kf);
        ref_f32_to_f8(x, qb + boff, n, sr, sstep, kf);
        hook_f8_to_f32(qi, ya + off, n, s, sstep, period, kf);
        ref_f8_to_f32(qi, yb + off, n, sr, sstep, kf);
    }
    for (i = 0; i < sizeof qa; ++i)
        CHECK(qa[i] == qb[i], "%s flags=%u n=%zu off=%zu sstep=%zu zstep=%zu period=%zu scale#%d zp#%d: byte %zu x=0x%08x got 0x%02x want 0x%02x",
              f8 ? "f32->f8" : "f32->i8", kf, n, off, sstep, zstep, period, si, zi, i,
              i >= boff && i - boff < n ? check_bits_float(x[i - boff]) : 0, qa[i], qb[i]);
    for (i = 0; i < sizeof ya / 4; ++i)
        CHECK(check_bits_float(ya[i]) == check_bits_float(yb[i]),
              "%s flags=%u n=%zu off=%zu sstep=%zu zstep=%zu period=%zu scale#%d zp#%d: float %zu got 0x%08x want 0x%08x",
              f8 ? "f8->f32" : "i8->f32", kf, n, off, sstep, zstep, period, si, zi, i, check_bits_float(ya[i]),
              check_bits_float(yb[i]));
}

/* One pass of the sweep over a block: the scalar kernel is the reference
   for check_runs (tests/check.h), which runs it where the kernel's bytes
   change. */
struct sweep_pass {
    const char *what;
    unsigned f;
    const float *s;
    const int32_t *z; /* NULL: f8 */
    const float *x;
    const uint8_t *a;
};

static int sweep_at(void *ctx, size_t j)
{
    const struct sweep_pass *p = (const struct sweep_pass *)ctx;
    uint8_t b;
    if (p->z) ref_f32_to_i8(p->x + j, &b, 1, p->s, 0, p->z, 0, p->f);
    else ref_f32_to_f8(p->x + j, &b, 1, p->s, 0, p->f);
    if (b == p->a[j]) return 1;
    CHECK(0, "sweep %s flags=%u scale %g x=0x%08x: got 0x%02x want 0x%02x", p->what, p->f, (double)*p->s,
          check_bits_float(p->x[j]), p->a[j], b);
    return 0;
}

static void sweep_cmp(struct sweep_pass *p, const float *x, const uint8_t *a, size_t n)
{
    p->x = x;
    p->a = a;
    if (check_runs(a, 1, n, sweep_at, p)) CHECK(1, "-");
}

static void sweep(uint64_t shard, uint64_t shards)
{
    enum { B = 1 << 16 };
    static float x[B];
    static uint8_t a[B];
    /* 1 makes exact ties; the others have a reciprocal that is not exact,
       one with a significand of all ones */
    static const float sw_scales[3] = { 1.0f, 0x1.fffffep-4f, 0.3f };
    const uint64_t first = (1ull << 32) / shards * shard, last = (1ull << 32) / shards * (shard + 1);
    uint64_t u;
    int k;
    unsigned f;
    for (u = first; u < last; u += B) {
        for (k = 0; k < B; ++k) x[k] = check_float_bits((uint32_t)(u + (uint64_t)k));
        for (k = 0; k < 3; ++k)
            for (f = 0; f < 8; ++f) {
                const int32_t z = (f & hook_k.f_u8) ? 128 : -3;
                struct sweep_pass p = { "i8", f, &sw_scales[k], &z, NULL, NULL };
                /* u8 differs from s8 in its bounds and zero point, not in
                   the quotient: its sweep is the one at the scale of ties
                   (the other scales' u8 rows are in the random and edge
                   cases; the kernel's time is the sweep's now) */
                if ((f & hook_k.f_u8) && k > 0) continue;
                hook_f32_to_i8(x, a, B, &sw_scales[k], 0, &z, 0, 0, f);
                sweep_cmp(&p, x, a, B);
            }
        /* f8 at a scale whose quotient is not x itself (the division-free
           quotient's sign and ties; a session swept 0.3 too) */
        for (k = 1; k < 2; ++k)
            for (f = 0; f < 4; ++f) {
                const unsigned kf = (f & 1 ? hook_k.f_e5m2 : 0u) | (f & 2 ? hook_k.f_inf_nan : 0u);
                struct sweep_pass p = { "f8", kf, &sw_scales[k], NULL, NULL, NULL };
                hook_f32_to_f8(x, a, B, &sw_scales[k], 0, 0, kf);
                sweep_cmp(&p, x, a, B);
            }
    }
}

/* Long rows take another path: a first vector, then aligned loads (or
   stores) from a later start. Every start offset within a vector, every
   kernel flag set, one scale and a zero point, huge values at the start. */
static void long_rows(void)
{
    enum { L = 16384 + 77, PAD = 16 };
    static float x[L + PAD], ya2[L + PAD], yb2[L + PAD];
    static uint8_t a[L + PAD], b2[L + PAD], qs[L + PAD];
    const float s = 0.37f;
    const int32_t z = 5;
    size_t off, i;
    unsigned f;
    fill(x, L + PAD, s);
    /* the first vectors of every start hold magnitudes whose x * fl(1/s)
       overflows: the division-free quotient gives NaN there, which the
       first (unaligned) vector must not keep */
    for (i = 0; i < 2 * PAD; i += 3) x[i] = (i & 1) ? 0x1.8p127f : -0x1.fffffep127f;
    for (i = 0; i < L + PAD; ++i) qs[i] = (uint8_t)check_rand();
    for (off = 0; off < PAD; ++off)
        for (f = 0; f < 8; ++f) {
            memset(a, 0xA5, sizeof a); memset(b2, 0xA5, sizeof b2);
            hook_f32_to_i8(x + off, a + off, L, &s, 0, &z, 0, 0, f);
            ref_f32_to_i8(x + off, b2 + off, L, &s, 0, &z, 0, f);
            CHECK(memcmp(a, b2, sizeof a) == 0, "long f32->i8 flags=%u off=%zu", f, off);
            memset(ya2, 0xA5, sizeof ya2); memset(yb2, 0xA5, sizeof yb2);
            hook_i8_to_f32(qs + f, ya2 + off, L, &s, 0, &z, 0, 0, f & hook_k.f_u8);
            ref_i8_to_f32(qs + f, yb2 + off, L, &s, 0, &z, 0, f & hook_k.f_u8);
            CHECK(memcmp(ya2, yb2, sizeof ya2) == 0, "long i8->f32 u8=%u off=%zu", f & hook_k.f_u8, off);
        }
}

/* ggml's block formats: this backend's encoders and decoders against the
   scalar copy's, byte for byte and bit for bit (NaN payloads included), on
   rows of many kinds: mixed magnitudes, ties on small grids, zeros,
   subnormals, huge values, and Inf and NaN now and then */
static float bx[16 * 256 + 64];
static uint8_t bq1[16 * 292], bq2[16 * 292];
static float by1[16 * 256], by2[16 * 256];
static uint16_t bh1[16 * 256], bh2[16 * 256];

static float block_value(int kind, float mag)
{
    const uint32_t r = check_rand();
    const float u = (float)(r >> 8) / 16777216.0f - 0.5f;
    switch (kind) {
    case 0: return u * mag;
    case 1: return (float)((int)(r % 33) - 16) * mag / 8.0f; /* a grid: ties */
    case 2: return r % 5 == 0 ? 0.0f : u * 1e-40f;            /* subnormals, zeros */
    case 3: return r % 97 == 0 ? u * 1e30f : u;              /* an outlier */
    case 4: return r % 61 == 0 ? check_float_bits(r % 2 ? 0x7F800000u : 0xFFC00123u) : u * mag; /* Inf, NaN */
    case 5: return r % 3 == 0 ? -0.0f : u * mag * mag;
    case 6: { /* with 127 in the block, Q8_0's and Q8_K's steps are 1: ties, and 0.5 - 2^-25 */
        static const float t[8] = { 127.0f, 0.49999997f, -0.49999997f, 0.5f, -1.5f, 2.5f, -126.5f, 3.4999998f };
        return t[r % 8];
    }
    case 7: return r % 4 < 2 ? (r % 2 ? -0.0f : 0.0f) : (float)(r % 9) * mag; /* a min of +0 or -0: the first met */
    case 8: return r % 4 < 2 ? (r % 2 ? -0.0f : 0.0f) : -(float)(r % 9) * mag; /* a max of +0 or -0 */
    case 10: return r % 3 ? 2.0f * u * 3.0e38f : u * mag; /* spreads whose differences overflow */
    default: { /* up to 96 ulps below a power of two, where MXFP4's log2f rounds up to it */
        uint32_t m;
        memcpy(&m, &mag, 4);
        return check_float_bits((m + (r >> 8) % 4 * 0x00800000u - r % 97) | (r & 0x80000000u));
    }
    }
}

static void blocks_vs_scalar(void)
{
    int t, it;
    quant_attrs a = quant_attrs_default();
    for (t = QUANT_Q4_0; t <= QUANT_NVFP4_BLOCK; ++t)
        for (it = 0; it < 300; ++it) {
            const int64_t be = (t >= QUANT_Q2_K && t <= QUANT_Q8_K) || t == QUANT_IQ4_XS ? 256 : t == QUANT_NVFP4_BLOCK ? 64 : 32;
            const int64_t nb = 1 + (int64_t)(check_rand() % (uint32_t)(be == 256 ? 16 : 64));
            const int64_t n = nb * be;
            const size_t bytes = quant_dtype_bytes((quant_dtype)t, n);
            const int kind = (int)(check_rand() % 11);
            const float mag = check_float_bits(0x3F800000u + ((check_rand() % 61) - 30) * 0x00800000u);
            quant_tensor x = { QUANT_F32, 1, { n }, bx }, q1 = { (quant_dtype)t, 1, { n }, bq1 }, q2 = q1;
            quant_tensor y1 = { QUANT_F32, 1, { n }, by1 }, y2 = { QUANT_F32, 1, { n }, by2 };
            quant_tensor h1 = { QUANT_BF16, 1, { n }, bh1 }, h2 = { QUANT_BF16, 1, { n }, bh2 };
            int64_t i;
            size_t k;
            q2.data = bq2;
            for (i = 0; i < n; ++i) bx[i] = block_value(kind, mag);
            memset(bq1, 0x5A, bytes);
            memset(bq2, 0xA5, bytes);
            CHECK(quant_quantize(&x, &q1, &a) == QUANT_OK && ref_quantize(&x, &q2, &a) == QUANT_OK, "%s encode status",
                  quant_dtype_name((quant_dtype)t));
            for (k = 0; k < bytes && bq1[k] == bq2[k]; ++k) {}
            CHECK(k == bytes, "%s encode, kind %d, %lld blocks: byte %zu is %02x, the scalar code's %02x",
                  quant_dtype_name((quant_dtype)t), kind, (long long)nb, k, k < bytes ? bq1[k] : 0, k < bytes ? bq2[k] : 0);
            /* decode those bytes, or random ones */
            if (it % 2) for (k = 0; k < bytes; ++k) bq1[k] = (uint8_t)check_rand();
            q2.data = bq1;
            CHECK(quant_dequantize(&q1, &y1, &a) == QUANT_OK && ref_dequantize(&q2, &y2, &a) == QUANT_OK, "decode status");
            CHECK(memcmp(by1, by2, (size_t)n * 4) == 0, "%s decode to f32 differs from the scalar code's",
                  quant_dtype_name((quant_dtype)t));
            h1.dtype = h2.dtype = it % 4 < 2 ? QUANT_BF16 : QUANT_F16;
            CHECK(quant_dequantize(&q1, &h1, &a) == QUANT_OK && ref_dequantize(&q2, &h2, &a) == QUANT_OK, "decode status");
            CHECK(memcmp(bh1, bh2, (size_t)n * 2) == 0, "%s decode to %s differs from the scalar code's",
                  quant_dtype_name((quant_dtype)t), quant_dtype_name(h1.dtype));
        }
}

int main(int argc, char **argv)
{
    size_t n, i;
    int si, zi, round, rounds;
    check_cpu();
    zps[10] = hook_k.zp_pack;
    zps[11] = -hook_k.zp_pack;
    zps[12] = hook_k.zp_pack + 1;
    zps[13] = -hook_k.zp_pack - 1;
    zps[14] = hook_k.zp_fast;
    zps[15] = -hook_k.zp_fast;
    zps[16] = hook_k.zp_fast + 1;
    zps[17] = -hook_k.zp_fast - 1;
    printf("backend %s against %s\n", quant_backend(), ref_backend());
    CHECK(strcmp(ref_backend(), "scalar") == 0, "reference is %s", ref_backend());
    if (argc > 3 && !strcmp(argv[1], "all")) {
        sweep(strtoull(argv[2], NULL, 10), strtoull(argv[3], NULL, 10));
        return check_done("test_backend sweep");
    }
    long_rows();
    blocks_vs_scalar();
    for (i = 0; i < sizeof qin; ++i) qin[i] = (uint8_t)(i * 37 + 11);
    rounds = check_light("test_backend", 3, 1);
    for (round = 0; round < rounds; ++round)
        for (si = 0; si < (int)NSC; ++si)
            for (zi = 0; zi < (int)NZP; ++zi) {
                unsigned code;
                fill(xs, MAXN + 8, scales[si]);
                for (i = 0; i < MAXN + 8; ++i) {
                    sv[i] = scales[(si + (check_rand() % 4 == 0 ? i : 0)) % NSC];
                    zv[i] = zps[(zi + (check_rand() % 3 == 0 ? i : 0)) % NZP];
                    if (check_rand() % 16 == 0) qin[i] = (uint8_t)check_rand();
                    {
                        /* s32 inputs around the SIMD kernel's +-2^30 bound and the ends */
                        static const int32_t e32[] = { 0, 1, -1, 1 << 30, (1 << 30) + 1, -(1 << 30),
                                                       -(1 << 30) - 1, INT32_MAX, INT32_MIN, 16777217 };
                        const uint32_t k = check_rand() % 8;
                        qin32[i] = k == 0 ? e32[check_rand() % 10] : k < 4 ? (int32_t)check_rand()
                                 : (int32_t)(check_rand() % 4001) - 2000;
                    }
                    rv[i] = 1.0f / sv[i];
                }
                /* code: bit 0 f8; then kernel flags: integer (u8, recip,
                   zp before), f8 (recip, e5m2, inf_nan), and for both the
                   reciprocals given in place of the scales */
                for (code = 0; code < 128; ++code) {
                    const int f8 = code & 1;
                    const unsigned kf = (code >> 1) & ~hook_k.f_recip_given;
                    if (!f8 && kf > 7) continue;
                    if (f8 && (kf & ~(hook_k.f_recip | hook_k.f_e5m2 | hook_k.f_inf_nan))) continue;
                    /* lengths: every one on the first pass, a sample after */
                    for (n = 0; n <= MAXN; n += (round == 0 && si == 0 && zi < 2) ? 1 : 37) {
                        const size_t off = (n + (size_t)si) % 4, boff = (n + (size_t)zi) % 8;
                        one(n, off, boff, 0, 0, code, si, zi, 0);
                        one(n, off, boff, 1, 1, code, si, zi, 0);
                        one(n, off, boff, 1, 0, code, si, zi, 0);
                        if (hook_k.simd_any) { /* scale patterns of one and two op-layer blocks */
                            one(n, off, boff, 1, 1, code, si, zi, hook_k.block);
                            one(n, off, boff, 1, 0, code, si, zi, 2 * hook_k.block);
                        }
                    }
                }
            }
    return check_done("test_backend");
}
