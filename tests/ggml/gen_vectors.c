/* gen_vectors: reference vectors for quant.h's GGUF block formats, made by
   ggml itself.

     gen_vectors LIBPATH OUTDIR                  write OUTDIR/<name>.bin
     gen_vectors LIBPATH OUTDIR --check DATADIR  regenerate in memory and
                                                 compare with DATADIR/<name>.bin
     (add -v for statistics on stderr)

   LIBPATH is ggml's libggml-base.so, opened with dlopen (no link-time
   dependency); "-" takes it from the environment variable QUANT_GGML_LIB.
   Exit status: 0 written / equal, 1 failure / difference, 77 the library
   cannot be opened (or LIBPATH is "-" and QUANT_GGML_LIB is unset), which
   Meson reports as a skipped test. With --check, a file that differs is
   also written to OUTDIR (unless OUTDIR is "-") for inspection.

   The vectors in tests/data/ggml were made from ggml 0.25.1 (commit
   0ad4a86), the libggml-base.so of the npm package
   @node-llama-cpp/linux-x64@3.22.1 on x86-64 Linux with glibc's libm.

   Each type's ggml enum value is looked up by name with ggml_type_name
   (never assumed), and ggml_blck_size / ggml_type_size must agree with the
   block sizes below.

   File format (<name>.bin, little-endian):
     char     magic[8]      "QGGMLV1\0"
     uint32   block_elems   32, 64 or 256
     uint32   block_bytes
     uint32   rows          encode section
     uint32   cols          256 for every type (one q*_K super-block, eight
                            32-element blocks, four nvfp4 blocks a row)
     uint8    row_flags[rows]
                bit0 every input of the row is exactly a bf16 value
                bit1 every input of the row is exactly an f16 value
                bit2 ggml's encoding of the row goes through behaviour C
                     leaves undefined (a float -> integer conversion of an
                     out-of-range, infinite or NaN value); the bytes are what
                     this x86-64 build does, another build may differ
     float    input[rows*cols]
     uint8    encoded[rows*cols/block_elems*block_bytes]
                ggml_quantize_chunk(type, input, out, 0, rows, cols, NULL),
                out zeroed first; q8_K: the exported quantize_row_q8_K_ref
                over all rows at once, as ggml_quantize_chunk has no q8_K
                case (it aborts) and q8_K's type traits in libggml-base have
                no from_float_ref
     float    roundtrip[rows*cols]     dequantize_row_<name>(encoded)
     uint32   dec_blocks
     uint8    blocks[dec_blocks*block_bytes]   arbitrary block bytes
     float    decoded[dec_blocks*block_elems]  dequantize_row_<name>(blocks)

   Inputs are finite (no NaN, no infinity). The generator makes them with
   exact float arithmetic only, from a fixed seed per type and row, and
   from ggml's own output (ties are planted against the scales ggml chose);
   build it without contraction (-ffp-contract=off).

   Excluded: inputs whose ggml output is not a function of the input.
   ggml-quants.c (0.25.1 and the newer tree) has one such case:
   quantize_row_iq4_nl_impl leaves the codes of a 32-element block with
   max|x| < 1e-15 (GROUP_MAX_EPS) unset, so they keep what the caller's
   stack array L held, but only when called with ntry <= 0 and one block
   per super-block, i.e. from quantize_row_iq4_nl_ref. ggml_quantize_chunk
   calls quantize_iq4_nl / quantize_iq4_xs (ntry = 7), which recompute
   every code, so such blocks are kept (zero and tiny blocks are in the
   iq4_nl and iq4_xs files). Every row is still quantized alone three times
   with different garbage on the stack below the call (0x00, 0xff,
   pseudo-random bytes): a row whose bytes differ is dropped (none is, with
   the library above); all rows in one call, twice more, must give the
   same bytes as the rows alone.

   Kept but flagged with bit2, the rows where ggml relies on C-undefined
   behaviour (checked with ggml-quants.c under UBSan: these rows and no
   others): q4_0, q5_0, q8_0 with a block where 0 < |d| <= 2^-128, so that
   1/d is infinite and (int8_t)(x*id + 8.5f) or roundf(x*id) converts an
   infinity or NaN; q4_1, q5_1 the same with d = (max - min)/n; mxfp4 with
   a block where amax < 2^-125, as (uint8_t)(floorf(log2f(amax)) - 2 + 127)
   converts a negative value (x86-64 wraps it: 2^-126 gives code 255);
   q2_K when 15/max_min is infinite, so that nearest_int gives -4194304 to
   l << 4 (flagged for every super-block with 0 < max|x| < 1e-30).

   Not flagged, but worth knowing: in some rows ggml's nearest_int gets
   |x| > 4194303, beyond its assert() (compiled out in release builds), and
   returns the magic-number trick's (bits(x + 12582912.f) & 0x7fffff) -
   0x400000. With the library above (row numbers from 0, in the order of
   ROWS below): q2_K 9 10 12 24 25, q3_K 9 10 25, q4_K 9 10 12 23 24 25,
   q5_K 9 10 12 24 25, q6_K 9 10, q8_K 12, iq4_xs 9 10. Flagged with bit2:
   row 12 of q4_0 q4_1 q5_0 q5_1 q8_0 q2_K, rows 12 and 31 of mxfp4.
*/
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#define COLS 256
#define MAX_ROWS 48

enum {
    T_Q4_0, T_Q4_1, T_Q5_0, T_Q5_1, T_Q8_0,
    T_Q2_K, T_Q3_K, T_Q4_K, T_Q5_K, T_Q6_K, T_Q8_K,
    T_IQ4_NL, T_IQ4_XS, T_MXFP4, T_NVFP4,
    NT
};

static const struct {
    const char *name;
    int be, bb, ndec;
} TY[NT] = {
    {"q4_0", 32, 18, 48},   {"q4_1", 32, 20, 48},   {"q5_0", 32, 22, 48},
    {"q5_1", 32, 24, 48},   {"q8_0", 32, 34, 48},   {"q2_K", 256, 84, 16},
    {"q3_K", 256, 110, 16}, {"q4_K", 256, 144, 16}, {"q5_K", 256, 176, 16},
    {"q6_K", 256, 210, 16}, {"q8_K", 256, 292, 16}, {"iq4_nl", 32, 18, 48},
    {"iq4_xs", 256, 136, 16}, {"mxfp4", 32, 17, 48}, {"nvfp4", 64, 36, 64},
};

static int verbose;

/* ---------------------------------------------------------------- ggml -- */

typedef const char *(*type_name_fn)(int);
typedef int64_t (*blck_size_fn)(int);
typedef size_t (*type_size_fn)(int);
typedef size_t (*quantize_chunk_fn)(int, const float *, void *, int64_t, int64_t, int64_t, const float *);
typedef void (*to_float_fn)(const void *, float *, int64_t);
typedef void (*from_float_fn)(const float *, void *, int64_t);
typedef const void *(*get_traits_fn)(int);

/* ggml.h's struct ggml_type_traits, used only to cross-check pointers */
struct gg_traits {
    const char *type_name;
    int64_t blck_size;
    int64_t blck_size_interleave;
    size_t type_size;
    _Bool is_quantized;
    to_float_fn to_float;
    from_float_fn from_float_ref;
};

static struct {
    void *h;
    type_name_fn type_name;
    blck_size_fn blck_size;
    type_size_fn type_size;
    quantize_chunk_fn quantize_chunk;
    get_traits_fn get_traits;
    int id[NT];
    to_float_fn dq[NT];
    from_float_fn q8k_ref;
} G;

static void *sym(const char *name)
{
    void *p;
    dlerror();
    p = dlsym(G.h, name);
    if (!p) fprintf(stderr, "gen_vectors: %s not found in the library\n", name);
    return p;
}

#define SYM(dst, name) do { void *p_ = sym(name); if (!p_) return 0; memcpy(&(dst), &p_, sizeof p_); } while (0)

static int printable_name(const char *s)
{
    int n = 0;
    if (!s) return 0;
    for (; *s && n < 96; s++, n++)
        if ((unsigned char)*s < 32 || (unsigned char)*s > 126) return 0;
    return *s == 0;
}

/* 1 loaded, 0 bad library (message printed) */
static int gg_load(void)
{
    int t, i, found = 0;
    char nm[64];

    SYM(G.type_name, "ggml_type_name");
    SYM(G.blck_size, "ggml_blck_size");
    SYM(G.type_size, "ggml_type_size");
    SYM(G.quantize_chunk, "ggml_quantize_chunk");
    SYM(G.get_traits, "ggml_get_type_traits");
    SYM(G.q8k_ref, "quantize_row_q8_K_ref");
    for (t = 0; t < NT; t++) {
        sprintf(nm, "dequantize_row_%s", TY[t].name);
        SYM(G.dq[t], nm);
        G.id[t] = -1;
    }
    /* ggml_type_name does not check its argument: stop at the first name
       that does not look like one, and once every type is found */
    for (i = 0; i < 256 && found < NT; i++) {
        const char *s = G.type_name(i);
        if (!printable_name(s)) break;
        for (t = 0; t < NT; t++)
            if (G.id[t] < 0 && strcmp(s, TY[t].name) == 0) { G.id[t] = i; found++; }
    }
    for (t = 0; t < NT; t++) {
        int64_t be;
        size_t bb;
        const struct gg_traits *tr;
        if (G.id[t] < 0) {
            fprintf(stderr, "gen_vectors: ggml has no type named %s\n", TY[t].name);
            return 0;
        }
        be = G.blck_size(G.id[t]);
        bb = G.type_size(G.id[t]);
        if (be != TY[t].be || bb != (size_t)TY[t].bb) {
            fprintf(stderr, "gen_vectors: %s (ggml type %d): ggml says %lld elements in %zu bytes, expected %d in %d\n",
                    TY[t].name, G.id[t], (long long)be, bb, TY[t].be, TY[t].bb);
            return 0;
        }
        tr = (const struct gg_traits *)G.get_traits(G.id[t]);
        if (tr && tr->type_name == G.type_name(G.id[t]) && tr->blck_size == be && tr->type_size == bb) {
            /* (q8_K's traits in libggml-base have neither) */
            if (tr->to_float && tr->to_float != G.dq[t])
                fprintf(stderr, "gen_vectors: note: %s: traits to_float is not dequantize_row_%s\n", TY[t].name, TY[t].name);
            if (t == T_Q8_K && tr->from_float_ref && tr->from_float_ref != G.q8k_ref)
                fprintf(stderr, "gen_vectors: note: q8_K: traits from_float_ref is not quantize_row_q8_K_ref\n");
        } else if (verbose) {
            fprintf(stderr, "gen_vectors: note: struct ggml_type_traits layout differs, pointers not cross-checked\n");
        }
        if (verbose) fprintf(stderr, "%-7s ggml type %2d, %3lld elements, %3zu bytes\n", TY[t].name, G.id[t], (long long)be, bb);
    }
    return 1;
}

/* Garbage on the stack below the caller, where ggml's frames will go. */
static void scribble_impl(unsigned pat)
{
    volatile unsigned char buf[1 << 16];
    uint32_t s = 0x9e3779b9u * (pat + 1);
    size_t i;
    for (i = 0; i < sizeof buf; i++) {
        s = s * 1103515245u + 12345u;
        buf[i] = pat == 0 ? 0x00 : pat == 1 ? 0xff : (unsigned char)(s >> 16);
    }
}
static void (*volatile scribble)(unsigned) = scribble_impl;

static size_t row_bytes(int t) { return (size_t)(COLS / TY[t].be) * (size_t)TY[t].bb; }

static void gg_quant(int t, const float *x, uint8_t *out, int nrows, unsigned pat)
{
    memset(out, 0, row_bytes(t) * (size_t)nrows);
    scribble(pat);
    if (t == T_Q8_K)
        G.q8k_ref(x, out, (int64_t)nrows * COLS);
    else
        G.quantize_chunk(G.id[t], x, out, 0, nrows, COLS, NULL);
}

/* ------------------------------------------------------- float helpers -- */

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bitsf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
/* an order-preserving key: -0 just below +0 */
static uint32_t fkey(float f) { uint32_t u = fbits(f); return (u & 0x80000000u) ? ~u : (u | 0x80000000u); }
static float keyf(uint32_t k) { return bitsf((k & 0x80000000u) ? (k & 0x7fffffffu) : ~k); }
static float fnext(float f) { return keyf(fkey(f) + 1); }
static float fprev(float f) { return keyf(fkey(f) - 1); }
/* 2^e, e in [-149, 127] */
static float p2(int e) { return e >= -126 ? bitsf((uint32_t)(e + 127) << 23) : bitsf(1u << (e + 149)); }
static float fabs_(float f) { return bitsf(fbits(f) & 0x7fffffffu); }
static int finite_(float f) { return (fbits(f) & 0x7f800000u) != 0x7f800000u; }

static float h2f(uint16_t h)
{
    uint32_t s = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 31, m = h & 1023;
    if (e == 31) return bitsf(s | 0x7f800000u | (m << 13));
    if (e == 0) return bitsf(s) + (s ? -1.0f : 1.0f) * (float)m * p2(-24);
    return bitsf(s | ((e + 112) << 23) | (m << 13));
}

/* round to nearest even, NaN -> 0x7e00 (as ggml) */
static uint16_t f2h(float f)
{
    uint32_t u = fbits(f), s = (u >> 16) & 0x8000, a = u & 0x7fffffffu;
    if (a > 0x7f800000u) return (uint16_t)(s | 0x7e00);
    if (a >= 0x477ff000u) return (uint16_t)(s | 0x7c00); /* >= 65520 */
    if (a >= 0x38800000u) {                               /* normal f16 */
        uint32_t r = a - 0x38000000u, q = r >> 13, rem = r & 0x1fff;
        if (rem > 0x1000 || (rem == 0x1000 && (q & 1))) q++;
        return (uint16_t)(s | q);
    } else {                                             /* subnormal or 0 */
        int e = (int)(a >> 23);
        uint32_t m = (a & 0x7fffff) | (e ? 0x800000u : 0), q, rem, half;
        int sh = 126 - e; /* value = m * 2^(e-150) ; f16 sub = q * 2^-24 */
        if (e == 0) sh = 125;
        if (sh > 31) return (uint16_t)s;
        q = m >> sh; rem = m & ((1u << sh) - 1); half = 1u << (sh - 1);
        if (rem > half || (rem == half && (q & 1))) q++;
        return (uint16_t)(s | q);
    }
}

static int f16_exact(float v)
{
    uint32_t a = fbits(v) & 0x7fffffffu;
    if (!finite_(v)) return 0;
    if (a == 0) return 1;
    return h2f(f2h(v)) == v;
}
static int bf16_exact(float v) { return finite_(v) && (fbits(v) & 0xffffu) == 0; }

/* ------------------------------------------------------------------ rng -- */

static uint64_t rng_s;
static uint64_t rnd64(void)
{
    uint64_t z = (rng_s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static uint32_t rnd32(void) { return (uint32_t)(rnd64() >> 32); }
static int rndi(int lo, int hi) { return lo + (int)(rnd64() % (uint64_t)(hi - lo + 1)); }
static float rsign(float v) { return (rnd32() & 1) ? -v : v; }
/* random magnitude in [2^e, 2^(e+1)), e >= -149 */
static float rmag(int e)
{
    if (e >= -126) return bitsf(((uint32_t)(e + 127) << 23) | (rnd32() >> 9));
    return bitsf((1u << (e + 149)) | ((rnd32() >> 9) & ((1u << (e + 149)) - 1)));
}
static void seed(int t, int row)
{
    const char *s = TY[t].name;
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    rng_s = h ^ ((uint64_t)(row + 1) * 0x2545f4914f6cdd1dull);
}

/* random values below amax in magnitude (spread over 2^-6 of it) */
static void fill_below(float *x, int n, float amax)
{
    int i, e;
    if (amax == 0) { for (i = 0; i < n; i++) x[i] = 0; return; }
    e = (int)((fbits(amax) >> 23) & 0xff) - 127;
    for (i = 0; i < n; i++) {
        float v;
        int k = e - rndi(0, 6);
        if (e == -127) { x[i] = bitsf(rnd32() % (fbits(amax) + 1)); x[i] = rsign(x[i]); continue; }
        if (k < -149) k = -149;
        v = rmag(k);
        if (v >= amax) v = fprev(amax);
        x[i] = rsign(v);
    }
}
/* a unit whose max |x| is exactly amax, with sign s (0 random) */
static void unit_amax(float *x, int n, float amax, int s)
{
    int k;
    fill_below(x, n, amax);
    k = rndi(0, n - 1); /* one draw a statement: C leaves the order of two open */
    x[k] = s > 0 ? amax : s < 0 ? -amax : rsign(amax);
}

/* an a with fl(a / n) == q, searched near q * n; q * n if there is none */
static float inv_div(float q, float n)
{
    float a = q * n, lo = a, hi = a;
    int k;
    for (k = 0; k < 256; k++, lo = fprev(lo), hi = fnext(hi)) {
        if (lo / n == q) return lo;
        if (hi / n == q) return hi;
    }
    return a;
}

/* ------------------------------------------------------- scale contexts -- */

/* What ggml rounds for an element, once the block's scales are fixed:
   pre(x) is compared with the tie points of the type (nearest_int, roundf,
   truncation after + n.5f, best_index_*). */
typedef struct {
    float id, mn;      /* q4_0 q5_0 q8_0 q8_K: x*id ; q4_1 q5_1: (x-mn)*id */
    float dd[16], dm[16];
    int ok[16];
    float idl[8];      /* iq4: idl*x per 32 */
    float d[16];       /* mxfp4 (per 32), nvfp4 (per 16): x/d */
} ctx_t;

static int unit_size(int t)
{
    switch (t) {
    case T_Q2_K: case T_Q3_K: case T_Q6_K: case T_NVFP4: return 16;
    case T_Q8_K: return 256;
    default: return 32;
    }
}

static float pre(int t, const ctx_t *c, int sub, float x)
{
    switch (t) {
    case T_Q4_0: case T_Q5_0: case T_Q8_0: return x * c->id;
    case T_Q8_K: return c->id * x;
    case T_Q4_1: case T_Q5_1: return (x - c->mn) * c->id;
    case T_Q2_K: case T_Q4_K: case T_Q5_K: return (x + c->dm[sub]) / c->dd[sub];
    case T_Q3_K: case T_Q6_K: return x / c->dd[sub];
    case T_IQ4_NL: case T_IQ4_XS: return c->idl[sub] * x;
    default: return x / c->d[sub];
    }
}

static const int8_t KV_IQ4NL[16] = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};
static const float MXMID[7] = {0.5f, 1.5f, 2.5f, 3.5f, 5.0f, 7.0f, 10.0f};

static int ntargets(int t)
{
    switch (t) {
    case T_Q8_0: case T_Q8_K: return 254;
    case T_Q4_0: return 16;
    case T_Q5_0: return 32;
    case T_Q4_1: case T_Q4_K: return 15;
    case T_Q5_1: case T_Q5_K: return 31;
    case T_Q2_K: return 3;
    case T_Q3_K: return 7;
    case T_Q6_K: return 63;
    case T_IQ4_NL: case T_IQ4_XS: return 15;
    default: return 14;
    }
}
static float target(int t, int i)
{
    switch (t) {
    case T_Q8_0: case T_Q8_K: return (float)(i - 127) + 0.5f;
    case T_Q4_0: return (float)(i - 8) + 0.5f;
    case T_Q5_0: return (float)(i - 16) + 0.5f;
    case T_Q3_K: return (float)(i - 4) + 0.5f;
    case T_Q6_K: return (float)(i - 32) + 0.5f;
    case T_IQ4_NL: case T_IQ4_XS: return ((float)KV_IQ4NL[i] + (float)KV_IQ4NL[i + 1]) * 0.5f;
    case T_MXFP4: case T_NVFP4: return i < 7 ? MXMID[i] : -MXMID[i - 7];
    default: return (float)i + 0.5f;
    }
}

static int nearest_int(float f)
{
    float v = f + 12582912.f;
    int32_t i;
    memcpy(&i, &v, 4);
    return (i & 0x007fffff) - 0x00400000;
}

static int best_index_int8(const int8_t *val, float x)
{
    int ml = 0, mu = 15;
    if (x <= val[0]) return 0;
    if (x >= val[15]) return 15;
    while (mu - ml > 1) {
        int mav = (ml + mu) / 2;
        if (x < val[mav]) mu = mav; else ml = mav;
    }
    return x - val[mu - 1] < val[mu] - x ? mu - 1 : mu;
}

/* A model of ggml's quantize_row_iq4_nl_impl as ggml_quantize_chunk calls it
   (no importance weights, ntry = 7), written from ggml-quants.c: the
   reciprocal scale of each 32 and the block's bytes, to plant ties against
   the f32 scales ggml never stores (checked against ggml with -v). */
static void iq4_model(int super, const float *x, float *idl, uint8_t *out)
{
    float scales[8], weight[32], max_scale = 0, amax_scale = 0;
    uint8_t L[256];
    int ib, j, nb = super / 32;
    memset(L, 0, sizeof L);
    for (ib = 0; ib < nb; ib++) {
        const float *xb = x + 32 * ib;
        uint8_t *Lb = L + 32 * ib;
        float amax = 0, max = 0, d, id, sumqx = 0, sumq2 = 0, best;
        int itry;
        for (j = 0; j < 32; j++) weight[j] = xb[j] * xb[j];
        for (j = 0; j < 32; j++) {
            float ax = fabs_(xb[j]);
            if (ax > amax) { amax = ax; max = xb[j]; }
        }
        if (amax < 1e-15f) { scales[ib] = 0; continue; }
        d = -max / (float)KV_IQ4NL[0];
        id = 1 / d;
        for (j = 0; j < 32; j++) {
            float al = id * xb[j];
            int l = best_index_int8(KV_IQ4NL, al);
            float q = (float)KV_IQ4NL[l], w = weight[j];
            Lb[j] = (uint8_t)l;
            sumqx += w * q * xb[j];
            sumq2 += w * q * q;
        }
        d = sumq2 > 0 ? sumqx / sumq2 : 0.f;
        best = d * sumqx;
        for (itry = -7; itry <= 7; itry++) {
            id = (float)(itry + KV_IQ4NL[0]) / max;
            sumqx = sumq2 = 0;
            for (j = 0; j < 32; j++) {
                float al = id * xb[j];
                int l = best_index_int8(KV_IQ4NL, al);
                float q = (float)KV_IQ4NL[l], w = weight[j];
                sumqx += w * q * xb[j];
                sumq2 += w * q * q;
            }
            if (sumq2 > 0 && sumqx * sumqx > best * sumq2) { d = sumqx / sumq2; best = d * sumqx; }
        }
        scales[ib] = d;
        if (fabs_(d) > amax_scale) { amax_scale = fabs_(d); max_scale = d; }
    }
    if (nb > 1) {
        float d = -max_scale / 32, id = d != 0 ? 1 / d : 0.f;
        uint16_t h = f2h(d), sh = 0;
        out[0] = (uint8_t)h; out[1] = (uint8_t)(h >> 8);
        memset(out + 4, 0, 4);
        for (ib = 0; ib < nb; ib++) {
            int l = nearest_int(id * scales[ib]);
            float dl;
            l = l < -32 ? -32 : l > 31 ? 31 : l;
            dl = d * (float)l;
            idl[ib] = dl != 0 ? 1 / dl : 0.f;
            for (j = 0; j < 32; j++) L[32 * ib + j] = (uint8_t)best_index_int8(KV_IQ4NL, idl[ib] * x[32 * ib + j]);
            l += 32;
            if (ib % 2 == 0) out[4 + ib / 2] = (uint8_t)(l & 0xf);
            else out[4 + ib / 2] |= (uint8_t)((l & 0xf) << 4);
            sh |= (uint16_t)((l >> 4) << (2 * (ib % 8)));
        }
        out[2] = (uint8_t)sh; out[3] = (uint8_t)(sh >> 8);
        out += 8;
    } else {
        uint16_t h = f2h(scales[0]);
        out[0] = (uint8_t)h; out[1] = (uint8_t)(h >> 8);
        idl[0] = scales[0] != 0 ? 1 / scales[0] : 0;
        for (j = 0; j < 32; j++) L[j] = (uint8_t)best_index_int8(KV_IQ4NL, idl[0] * x[j]);
        out += 2;
    }
    for (ib = 0; ib < nb; ib++)
        for (j = 0; j < 16; j++) out[16 * ib + j] = (uint8_t)(L[32 * ib + j] | (L[32 * ib + 16 + j] << 4));
}

static float ue4m3_to_f32(uint8_t x)
{
    int e = (x >> 3) & 0xf, m = x & 7;
    if (x == 0 || x == 0x7f) return 0.0f;
    if (e == 0) return (float)m * p2(-9) * 0.5f;
    return (1.0f + (float)m / 8.0f) * p2(e - 7) * 0.5f;
}

static float e8m0_half(uint8_t e) { return e < 2 ? bitsf(0x00200000u << e) : bitsf((uint32_t)(e - 1) << 23); }

/* the contexts of block b (index in the row) */
static void block_ctx(int t, const float *xb, const uint8_t *eb, ctx_t *c)
{
    int j, n = TY[t].be;
    memset(c, 0, sizeof *c);
    switch (t) {
    case T_Q4_0: case T_Q5_0: case T_Q8_0: case T_Q8_K: {
        float amax = 0, max = 0, d;
        for (j = 0; j < n; j++)
            if (amax < fabs_(xb[j])) { amax = fabs_(xb[j]); max = xb[j]; }
        if (t == T_Q8_0) d = amax / 127;
        else if (t == T_Q4_0) d = max / -8;
        else if (t == T_Q5_0) d = max / -16;
        else { c->id = amax != 0 ? -127.f / max : 0; c->ok[0] = amax != 0 && finite_(c->id); return; }
        c->id = d != 0 ? 1.0f / d : 0.0f;
        c->ok[0] = d != 0 && finite_(c->id);
        return;
    }
    case T_Q4_1: case T_Q5_1: {
        float mn = 3.4e38f, mx = -3.4e38f, d;
        for (j = 0; j < n; j++) {
            if (xb[j] < mn) mn = xb[j];
            if (xb[j] > mx) mx = xb[j];
        }
        d = (mx - mn) / (t == T_Q4_1 ? 15 : 31);
        c->mn = mn;
        c->id = d != 0 ? 1.0f / d : 0.0f;
        c->ok[0] = d != 0 && finite_(c->id);
        return;
    }
    case T_Q2_K: {
        float d = h2f((uint16_t)(eb[80] | eb[81] << 8)), dmin = h2f((uint16_t)(eb[82] | eb[83] << 8));
        for (j = 0; j < 16; j++) {
            c->dd[j] = d * (float)(eb[j] & 0xf);
            c->dm[j] = dmin * (float)(eb[j] >> 4);
        }
        break;
    }
    case T_Q3_K: {
        float d = h2f((uint16_t)(eb[108] | eb[109] << 8));
        const uint8_t *s = eb + 96;
        for (j = 0; j < 16; j++) {
            int sc = j < 8 ? s[j] & 0xf : s[j - 8] >> 4;
            sc = (sc | (((s[8 + j % 4] >> (2 * (j / 4))) & 3) << 4)) - 32;
            c->dd[j] = d * (float)sc;
        }
        break;
    }
    case T_Q4_K: case T_Q5_K: {
        float d = h2f((uint16_t)(eb[0] | eb[1] << 8)), dmin = h2f((uint16_t)(eb[2] | eb[3] << 8));
        const uint8_t *q = eb + 4;
        for (j = 0; j < 8; j++) {
            int sc, m;
            if (j < 4) { sc = q[j] & 63; m = q[j + 4] & 63; }
            else { sc = (q[j + 4] & 0xf) | ((q[j - 4] >> 6) << 4); m = (q[j + 4] >> 4) | ((q[j] >> 6) << 4); }
            c->dd[j] = d * (float)sc;
            c->dm[j] = dmin * (float)m;
        }
        break;
    }
    case T_Q6_K: {
        float d = h2f((uint16_t)(eb[208] | eb[209] << 8));
        for (j = 0; j < 16; j++) c->dd[j] = d * (float)(int8_t)eb[192 + j];
        break;
    }
    case T_IQ4_NL: case T_IQ4_XS: {
        uint8_t tmp[136];
        iq4_model(n, xb, c->idl, tmp);
        for (j = 0; j < n / 32; j++) c->ok[j] = c->idl[j] != 0 && finite_(c->idl[j]);
        return;
    }
    case T_MXFP4:
        c->d[0] = e8m0_half(eb[0]);
        c->ok[0] = 1;
        return;
    case T_NVFP4:
        for (j = 0; j < 4; j++) { c->d[j] = ue4m3_to_f32(eb[j]); c->ok[j] = c->d[j] != 0; }
        return;
    }
    for (j = 0; j < 16; j++) c->ok[j] = c->dd[j] != 0 && finite_(c->dd[j]) && finite_(c->dm[j]);
}

/* Smallest and largest x in [lo, hi] with pre(x) == tau; 0 if none. */
static int solve(int t, const ctx_t *c, int sub, float lo, float hi, float tau, float *first, float *last)
{
    float flo = pre(t, c, sub, lo), fhi = pre(t, c, sub, hi);
    int inc = fhi >= flo;
    uint32_t a, b, a0 = fkey(lo), b0 = fkey(hi);
    if (lo > hi || !finite_(flo) || !finite_(fhi)) return 0;
    if (inc ? !(flo <= tau && tau <= fhi) : !(fhi <= tau && tau <= flo)) return 0;
    a = a0; b = b0; /* first key with pre >= tau (inc) / <= tau (dec) */
    while (a < b) {
        uint32_t m = a + (b - a) / 2;
        float v = pre(t, c, sub, keyf(m));
        if (inc ? v >= tau : v <= tau) b = m; else a = m + 1;
    }
    if (pre(t, c, sub, keyf(a)) != tau) return 0;
    *first = keyf(a);
    b = b0; /* first key with pre > tau (inc) / < tau (dec), or past the end */
    while (a < b) {
        uint32_t m = a + (b - a) / 2;
        float v = pre(t, c, sub, keyf(m));
        if (inc ? v > tau : v < tau) b = m; else a = m + 1;
    }
    if (pre(t, c, sub, keyf(a)) != tau) a--;
    *last = keyf(a);
    return 1;
}

/* ---------------------------------------------------------------- ties -- */

typedef struct { int j, kind, ti; } slot_t; /* kind -1: dropped */

static int is_k(int t) { return t >= T_Q2_K && t <= T_Q6_K; }
static int has_min(int t) { return t == T_Q4_1 || t == T_Q5_1 || t == T_Q2_K || t == T_Q4_K || t == T_Q5_K; }

/* the index of the scale context (sub-block) of element e of a block */
static int sub_of(int t, int e)
{
    switch (t) {
    case T_Q2_K: case T_Q3_K: case T_Q6_K: case T_NVFP4: return e / 16;
    case T_Q4_K: case T_Q5_K: case T_IQ4_XS: return e / 32;
    default: return 0;
    }
}

static int tie_stats[NT][2];

/* the scale contexts of every block of row x, from ggml's bytes where the
   scales are ggml's choice */
static void row_ctx(int t, const float *x, ctx_t *cx)
{
    uint8_t enc[COLS / 32 * 34 + 64];
    int b, be = TY[t].be;
    if (is_k(t) || t == T_MXFP4 || t == T_NVFP4) gg_quant(t, x, enc, 1, 0);
    for (b = 0; b < COLS / be; b++) block_ctx(t, x + b * be, enc + (size_t)b * TY[t].bb, &cx[b]);
}

/* is tau exactly the value ggml rounds for v (mxfp4, nvfp4: is v exactly
   tau times the scale)? */
static int at_tie(int t, const ctx_t *c, int sub, float v, float tau)
{
    if (t == T_MXFP4 || t == T_NVFP4) return v == tau * c->d[sub] && v / c->d[sub] == tau;
    return pre(t, c, sub, v) == tau;
}

/* kind 0: v is a tie; 1: the next float above v is, v is not; 2: the one below */
static int slot_ok(int t, const ctx_t *c, int sub, float v, int kind, float tau)
{
    if (!c->ok[sub]) return 0;
    if (kind == 0) return at_tie(t, c, sub, v, tau);
    return !at_tie(t, c, sub, v, tau) && at_tie(t, c, sub, kind == 1 ? fnext(v) : fprev(v), tau);
}

/* Plant exact ties (kind 0) and their neighbours one ulp below (1) and
   above (2) on about den/8 of each unit's elements (never the unit's
   extremes), one at a time: where the scales depend on the values (q*_K,
   iq4: a search), the element is moved to the tie of the scales ggml (or
   the model of iq4) chooses with it there, until it stays; the move is
   kept only if every tie planted before it still holds. */
static void plant(int t, float *x, int den)
{
    static slot_t sl[COLS];
    static float tau_of[COLS];
    int ns = 0, U = unit_size(t), be = TY[t].be, u, i, s, k, g0, g1;
    int search = is_k(t) || t == T_IQ4_NL || t == T_IQ4_XS;
    ctx_t cx[COLS / 32];

    /* a super-block's first 32 lead (4 times the others' magnitude, no
       ties) so that their scale, the largest, fixes the super-block's */
    if (be == 256 && t != T_Q8_K)
        for (i = 0; i < 32; i++) x[i] *= 4.0f;
    for (u = 0; u < COLS / U; u++) {
        float *xu = x + u * U;
        int imax = 0, imin = 0, iabs = 0, cnt = 0;
        if (be == 256 && t != T_Q8_K && u * U < 32) continue;
        for (i = 1; i < U; i++) {
            if (xu[i] > xu[imax]) imax = i;
            if (xu[i] < xu[imin]) imin = i;
            if (fabs_(xu[i]) > fabs_(xu[iabs])) iabs = i;
        }
        for (i = 0; i < U; i++) {
            if (i == imax || i == imin || i == iabs || fabs_(xu[i]) == fabs_(xu[iabs])) continue;
            /* where the scales come from a search, ties on the smaller
               elements, which weigh less in it (iq4_nl's f32 scale moves
               with every element: the smallest only) */
            if (search && fabs_(xu[i]) > fabs_(xu[iabs]) * (t == T_IQ4_NL ? 0.125f : 0.5f)) continue;
            if (rndi(0, 7) >= den) continue;
            if (t == T_IQ4_NL && cnt == 3) continue;
            sl[ns].j = u * U + i;
            sl[ns].kind = cnt++ % 3;
            sl[ns].ti = -1;
            ns++;
        }
    }
    row_ctx(t, x, cx);
    /* one slot at a time; iq4_nl's 32 have one f32 scale that every element
       moves: their slots go together, to one tie point */
    for (g0 = 0; g0 < ns; g0 = g1) {
        int j0 = sl[g0].j, b = j0 / be, sub = sub_of(t, j0 % be), it, ok = 0, gti = -1;
        float saved[COLS], tau = 0;
        g1 = g0 + 1;
        if (t == T_IQ4_NL)
            while (g1 < ns && sl[g1].j / be == b) g1++;
        for (s = g0; s < g1; s++) saved[s - g0] = x[sl[s].j];
        for (it = 0; it < 20 && !ok; it++) {
            const ctx_t *c = &cx[b];
            const float *xu = x + (j0 / U) * U;
            float lo, hi, first = 0, last = 0, amax = 0, mn = 3.4e38f, mx = -3.4e38f;
            int found = 0, ti = -1, near = 0, moved = 0;
            if (!c->ok[sub]) break;
            for (i = 0; i < U; i++) {
                if (fabs_(xu[i]) > amax) amax = fabs_(xu[i]);
                if (xu[i] < mn) mn = xu[i];
                if (xu[i] > mx) mx = xu[i];
            }
            if (has_min(t)) { lo = fnext(mn); hi = fprev(mx); }
            else { lo = fnext(-amax); hi = fprev(amax); }
            if (!(lo < hi)) break;
            { /* the tie point nearest to x, then its neighbours, then any
                 (after a move, the same one first: the scales may have
                 moved so that no float lands on it exactly any more) */
                float p0 = pre(t, c, sub, x[j0]), bd = 3.4e38f;
                for (k = 0; k < ntargets(t); k++)
                    if (fabs_(target(t, k) - p0) < bd) { bd = fabs_(target(t, k) - p0); near = k; }
            }
            for (k = 0; k < 24 && !found; k++) {
                ti = k == 0 && gti >= 0 ? gti : k <= 1 ? near : k == 2 ? near - 1 : k == 3 ? near + 1 : rndi(0, ntargets(t) - 1);
                if (ti < 0 || ti >= ntargets(t)) continue;
                tau = target(t, ti);
                if (t == T_MXFP4 || t == T_NVFP4) {
                    first = last = tau * c->d[sub];
                    found = first >= lo && first <= hi && first != 0 && at_tie(t, c, sub, first, tau);
                } else {
                    found = solve(t, c, sub, lo, hi, tau, &first, &last);
                }
            }
            if (!found) break;
            gti = ti;
            for (s = g0; s < g1; s++) {
                int j = sl[s].j;
                float v;
                if (slot_ok(t, c, sub, x[j], sl[s].kind, tau)) continue;
                v = sl[s].kind == 0 ? ((rnd32() & 1) ? first : last) : sl[s].kind == 1 ? fprev(first) : fnext(last);
                if (v >= lo && v <= hi && v != x[j]) { x[j] = v; moved = 1; }
            }
            if (!moved) {
                ok = 1;
                for (s = g0; s < g1; s++) ok &= slot_ok(t, c, sub, x[sl[s].j], sl[s].kind, tau);
                break;
            }
            if (search || t == T_MXFP4 || t == T_NVFP4) row_ctx(t, x, cx);
            else block_ctx(t, x + b * be, NULL, &cx[b]);
        }
        /* every tie so far must hold under the scales of the row as it is now */
        for (s = 0; ok && s < g1; s++) {
            int j2 = sl[s].j;
            if (s < g0 && sl[s].kind < 0) continue;
            if (!slot_ok(t, &cx[j2 / be], sub_of(t, j2 % be), x[j2], sl[s].kind, s >= g0 ? tau : tau_of[s])) ok = 0;
        }
        if (ok) {
            for (s = g0; s < g1; s++) {
                tau_of[s] = tau;
                tie_stats[t][0] += sl[s].kind == 0;
                tie_stats[t][1] += sl[s].kind != 0;
            }
        } else {
            int back = 0;
            for (s = g0; s < g1; s++) {
                if (x[sl[s].j] != saved[s - g0]) { x[sl[s].j] = saved[s - g0]; back = 1; }
                sl[s].kind = -1; /* dropped */
            }
            if (back) {
                if (search || t == T_MXFP4 || t == T_NVFP4) row_ctx(t, x, cx);
                else block_ctx(t, x + b * be, NULL, &cx[b]);
            }
        }
    }
}

/* ------------------------------------------------------------ the rows -- */

typedef void (*row_fn)(int t, float *x);

static void r_random(int t, float *x)
{
    int u, i;
    (void)t;
    for (u = 0; u < COLS / 32; u++) {
        int e = rndi(-10, 9);
        for (i = 0; i < 32; i++) x[32 * u + i] = rsign(rmag(e - rndi(0, 5)));
    }
}

static void r_wide(int t, float *x)
{
    int i;
    (void)t;
    for (i = 0; i < COLS; i++) x[i] = rsign(rmag(rndi(-10, 9)));
}

static void r_sub16(int t, float *x)
{
    int u, i;
    (void)t;
    for (u = 0; u < COLS / 16; u++) {
        int e = (u & 1) ? rndi(-10, -4) : rndi(3, 9);
        for (i = 0; i < 16; i++) x[16 * u + i] = rsign(rmag(e - rndi(0, 3)));
    }
}

static void r_signs(int t, float *x)
{
    int u, i;
    (void)t;
    for (u = 0; u < COLS / 16; u++) {
        int e = rndi(-6, 6), m = u % 3;
        for (i = 0; i < 16; i++) {
            float v = rmag(e - rndi(0, 4));
            x[16 * u + i] = m == 0 ? v : m == 1 ? -v : rsign(v);
        }
    }
}

static void r_allpos(int t, float *x)
{
    int u, i;
    (void)t;
    for (u = 0; u < COLS / 32; u++) {
        int e = rndi(-8, 8);
        for (i = 0; i < 32; i++) x[32 * u + i] = rmag(e - rndi(0, 4));
    }
}

static void r_allneg(int t, float *x)
{
    int i;
    r_allpos(t, x);
    for (i = 0; i < COLS; i++) x[i] = -x[i];
}

static void r_zeros(int t, float *x)
{
    int U = t == T_NVFP4 || t == T_Q2_K || t == T_Q3_K || t == T_Q6_K ? 16 : 32, u, i, k;
    for (u = 0; u < COLS / U; u++) {
        float *xu = x + u * U;
        switch (u % 6) {
        case 0: for (i = 0; i < U; i++) xu[i] = 0.0f; break;
        case 1: for (i = 0; i < U; i++) xu[i] = rsign(0.0f); break;
        case 2: for (i = 0; i < U; i++) xu[i] = 0.0f; k = rndi(0, U - 1); xu[k] = rsign(rmag(rndi(-5, 5))); break;
        case 3: for (i = 0; i < U; i++) xu[i] = -0.0f; break;
        case 4: for (i = 0; i < U; i++) xu[i] = (rnd32() & 3) ? rsign(rmag(rndi(-4, 2))) : rsign(0.0f); break;
        default: for (i = 0; i < U; i++) xu[i] = rsign(rmag(rndi(-4, 2))); break;
        }
    }
}

static void r_zero_row(int t, float *x) { int i; (void)t; for (i = 0; i < COLS; i++) x[i] = 0.0f; }

static void r_pm_zero(int t, float *x)
{
    int i;
    (void)t;
    for (i = 0; i < COLS; i++) x[i] = i < 32 ? -0.0f : rsign(0.0f);
}

static void r_outliers(int t, float *x)
{
    int u, i, k;
    (void)t;
    for (u = 0; u < COLS / 32; u++) {
        int e = rndi(-12, 0);
        for (i = 0; i < 32; i++) x[32 * u + i] = rsign(rmag(e - rndi(0, 3)));
        k = rndi(0, 31);
        x[32 * u + k] = u == 7 ? rsign(1e30f) : rsign(rmag(rndi(10, 99)));
    }
    for (i = 0; i < 32; i++) if (fabs_(x[224 + i]) != 1e30f) x[224 + i] = rsign(rmag(rndi(-100, -90)));
}

static void r_huge(int t, float *x)
{
    static const int E[8] = {16, 19, 23, 33, 50, 70, 90, 99};
    int u, i, k;
    (void)t;
    for (u = 0; u < COLS / 32; u++)
        for (i = 0; i < 32; i++) x[32 * u + i] = rsign(rmag(E[u] - rndi(0, 3)));
    k = rndi(224, 255);
    x[k] = rsign(1e30f);
}

static void r_tiny(int t, float *x)
{
    static const int E[16] = {-14, -16, -20, -24, -25, -27, -30, -40, -50, -60, -70, -80, -90, -100, -105, -110};
    int U = t == T_NVFP4 || t == T_Q2_K || t == T_Q3_K || t == T_Q6_K ? 16 : 32, u, i;
    for (u = 0; u < COLS / U; u++)
        for (i = 0; i < U; i++) x[U * u + i] = rsign(rmag(E[(u * 16 / (COLS / U)) % 16] - rndi(0, 4)));
}

/* amax subnormal or near the bottom of the normal range */
static void r_subnormal(int t, float *x)
{
    static const float A[8] = {1e-40f, 1e-44f, 1.4e-45f, 1.17549435e-38f, 1e-38f, 2.9387359e-39f, 5.877472e-39f, 3e-42f};
    int u;
    (void)t;
    for (u = 0; u < COLS / 32; u++) unit_amax(x + 32 * u, 32, A[u], 0);
}

/* amax at and around 1e-15 (GROUP_MAX_EPS), and where q6_K's super-block
   scale is near it */
static void r_eps(int t, float *x)
{
    const float A[8] = {fprev(1e-15f), 1e-15f, fnext(1e-15f), 1e-16f, 1e-14f, 3.2e-14f, 5e-14f, 1e-13f};
    int u;
    (void)t;
    for (u = 0; u < COLS / 32; u++) unit_amax(x + 32 * u, 32, A[u], 0);
}

static void r_eps_low(int t, float *x)
{
    const float A[8] = {2e-14f, 3e-14f, 3.1e-14f, 3.2e-14f, 3.3e-14f, 5e-16f, 2.9e-14f, 1e-15f};
    int u;
    (void)t;
    for (u = 0; u < COLS / 32; u++) unit_amax(x + 32 * u, 32, A[(u + 3) % 8], 0);
}

static void r_bf16(int t, float *x)
{
    int u, i;
    (void)t;
    for (u = 0; u < COLS / 16; u++) {
        int e = rndi(-10, 9);
        for (i = 0; i < 16; i++) {
            uint32_t b = (uint32_t)(e - rndi(0, 4) + 127) << 23;
            b |= (rnd32() & 0x7f) << 16;
            x[16 * u + i] = rsign(bitsf(b));
        }
    }
}

static void r_f16(int t, float *x)
{
    int u, i;
    (void)t;
    for (u = 0; u < COLS / 16; u++) {
        int e = u == 0 ? 1 : u == 1 ? 30 : rndi(1, 30);
        for (i = 0; i < 16; i++) {
            int ee = e - rndi(0, 3);
            uint16_t h = (uint16_t)(((ee < 0 ? 0 : ee) << 10) | (rnd32() & 1023));
            if (u == 1 && i == 0) h = 0x7bff;
            x[16 * u + i] = rsign(h2f(h));
        }
    }
}

static void r_grid(int t, float *x)
{
    int u, i;
    (void)t;
    for (u = 0; u < COLS / 32; u++) {
        int e = rndi(-10, 6);
        for (i = 0; i < 32; i++) x[32 * u + i] = (float)rndi(-16, 16) * p2(e);
    }
}

static void r_const(int t, float *x)
{
    int U = t == T_NVFP4 || t == T_Q2_K || t == T_Q3_K || t == T_Q6_K ? 16 : 32, u, i;
    for (u = 0; u < COLS / U; u++) {
        float *xu = x + u * U, c = rmag(rndi(-6, 6));
        switch (u % 6) {
        case 0: for (i = 0; i < U; i++) xu[i] = c; break;
        case 1: for (i = 0; i < U; i++) xu[i] = -c; break;
        case 2: for (i = 0; i < U; i++) xu[i] = c; xu[rndi(0, U - 1)] = fnext(c); break;
        case 3: for (i = 0; i < U; i++) xu[i] = -c; xu[rndi(0, U - 1)] = 0.0f; break;
        case 4: for (i = 0; i < U; i++) xu[i] = (i & 1) ? c : -c; break;
        default: for (i = 0; i < U; i++) xu[i] = 1.0f; break;
        }
    }
}

/* +A and -A in the same unit: ggml keeps the first of equal |x| */
static void r_amax_sign(int t, float *x)
{
    int U = t == T_NVFP4 || t == T_Q2_K || t == T_Q3_K || t == T_Q6_K ? 16 : 32, u;
    for (u = 0; u < COLS / U; u++) {
        float *xu = x + u * U, a = rmag(rndi(-3, 3));
        int p = rndi(0, U / 2 - 1), q = rndi(U / 2, U - 1);
        fill_below(xu, U, a);
        if (u & 1) { xu[p] = a; xu[q] = -a; } else { xu[p] = -a; xu[q] = a; }
    }
    /* across the row too (q8_K, q3_K/q6_K super-block scales): the largest
       |x| of the row twice, negative first */
    x[40] = -16.0f; x[200] = 16.0f;
}

/* the q*_K and iq4_xs super-blocks get magnitudes within 2^+-3 of each other,
   so that no sub-block scale rounds to 0 */
static void r_ties_rand(int t, float *x)
{
    int u, i, e0 = rndi(-8, 8);
    for (u = 0; u < COLS / 32; u++) {
        int e = TY[t].be == 256 ? e0 + rndi(-2, 2) : rndi(-10, 9);
        for (i = 0; i < 32; i++) x[32 * u + i] = rsign(rmag(e - rndi(0, 3)));
    }
    plant(t, x, 6);
}

static void r_ties_wide(int t, float *x)
{
    int u, i;
    int e0 = rndi(-40, 40);
    for (u = 0; u < COLS / 32; u++) {
        int e = TY[t].be == 256 ? e0 + rndi(-2, 2) : rndi(-40, 40);
        for (i = 0; i < 32; i++) x[32 * u + i] = rsign(rmag(e - rndi(0, 4)));
    }
    plant(t, x, 6);
}

/* scales whose reciprocal is exact: amax = n 2^e (n the type's largest code) */
static void r_ties_pow2(int t, float *x)
{
    int u, i;
    int e0 = rndi(-10, 6);
    for (u = 0; u < COLS / 32; u++) {
        int e = TY[t].be == 256 ? e0 + rndi(-1, 1) : rndi(-12, 8);
        float *xu = x + 32 * u;
        switch (t) {
        case T_Q8_0: unit_amax(xu, 32, 127.0f * p2(e), 0); break;
        case T_Q4_0: unit_amax(xu, 32, 8.0f * p2(e), 0); break;
        case T_Q5_0: unit_amax(xu, 32, 16.0f * p2(e), 0); break;
        case T_Q4_1: case T_Q5_1: {
            float d = p2(e), mn = -(float)rndi(0, 15) * d, mx = mn + (t == T_Q4_1 ? 15.0f : 31.0f) * d;
            for (i = 0; i < 32; i++) xu[i] = mn + (float)rndi(0, 1 << 12) * (mx - mn) * p2(-12);
            xu[rndi(0, 15)] = mn; xu[rndi(16, 31)] = mx;
            break;
        }
        case T_Q8_K: fill_below(xu, 32, 127.0f * p2(e)); break;
        case T_MXFP4: unit_amax(xu, 32, 12.0f * p2(e), 0); break;
        case T_NVFP4: unit_amax(xu, 16, 6.0f * p2(e), 0); unit_amax(xu + 16, 16, 6.0f * 1.25f * p2(e), 0); break;
        case T_IQ4_NL: case T_IQ4_XS:
            for (i = 0; i < 32; i++) xu[i] = (float)KV_IQ4NL[rndi(0, 15)] * p2(e);
            xu[rndi(0, 31)] = -127.0f * p2(e);
            break;
        default: /* q*_K: a grid of integers */
            for (i = 0; i < 32; i++) xu[i] = (float)rndi(-31, 31) * p2(e);
            break;
        }
    }
    if (t == T_Q8_K) { i = rndi(0, 255); x[i] = rsign(127.0f * p2(e0 + 2)); }
    plant(t, x, 7);
}

/* f16 edges of the stored scales: overflow to infinity (65520 rounds to
   even, i.e. to infinity), the largest finite, the subnormals and the tie
   at 2^-25 that rounds to zero; q4_1 and q5_1 take the min's edges in
   every other block (half of each list a row, v the half) */
static void f16_edges(int t, float *x, int v)
{
    const float D[8] = {65504.0f, 65520.0f, fprev(65520.0f), 65536.0f, p2(-24), p2(-25), fnext(p2(-25)), p2(-14) - p2(-25)};
    const float M[8] = {-65520.0f, -65504.0f, fnext(-65520.0f), -p2(-25), 1.5f * p2(-24), 65504.0f, -1e9f, p2(-25)};
    int u, i;
    for (u = 0; u < COLS / 32; u++) {
        float *xu = x + 32 * u, d = D[u], a;
        int um = (u + v) & 1;
        switch (t) {
        case T_Q8_0: case T_Q4_0: case T_Q5_0: {
            float n = t == T_Q8_0 ? 127.0f : t == T_Q4_0 ? 8.0f : 16.0f;
            a = inv_div(d, n); /* d = amax/n (or max/-n) is exactly D[u] */
            unit_amax(xu, 32, a, 0);
            break;
        }
        case T_Q4_1: case T_Q5_1: {
            float n = t == T_Q4_1 ? 15.0f : 31.0f, mn;
            if (um) {  /* the min's f16 */
                mn = M[u];
                a = M[u] < 0 ? -M[u] * p2(-8) : M[u] * p2(-4);
                for (i = 0; i < 32; i++) xu[i] = mn + (float)rndi(0, 1 << 10) * a * p2(-10);
                xu[rndi(0, 31)] = mn;
            } else {    /* d's */
                mn = -(float)rndi(1, 4) * d;
                for (i = 0; i < 32; i++) xu[i] = mn + (float)rndi(0, 1 << 10) * n * d * p2(-10);
                xu[rndi(0, 15)] = mn; xu[rndi(16, 31)] = mn + n * d;
            }
            break;
        }
        default: {
            static const float N[4] = {1.0f, 6.0f, 63.0f, 127.0f};
            unit_amax(xu, 32, d * N[(u + v) % 4], 0);
            break;
        }
        }
    }
}
static void r_f16_edges(int t, float *x) { f16_edges(t, x, 0); }
static void r_f16_edges2(int t, float *x) { f16_edges(t, x, 1); }

/* mxfp4: amax a power of two, n ulps below and above one */
static void mx_units(float *x, const float *A)
{
    int u;
    for (u = 0; u < COLS / 32; u++) unit_amax(x + 32 * u, 32, A[u], 0);
}
static float below(float v, int n) { while (n--) v = fprev(v); return v; }
static float above(float v, int n) { while (n--) v = fnext(v); return v; }

static void r_mx_pow2a(int t, float *x)
{
    const float A[8] = {p2(-125), p2(-124), p2(-100), p2(-3), p2(-1), 1.0f, 2.0f, 4.0f};
    mx_units(x, A); plant(t, x, 4);
}
static void r_mx_pow2b(int t, float *x)
{
    const float A[8] = {8.0f, p2(10), p2(64), p2(100), p2(126), p2(127), p2(-125) * 1.5f, 0.5f};
    mx_units(x, A); plant(t, x, 4);
}
static void r_mx_below_a(int t, float *x)
{
    const float A[8] = {below(1.0f, 1), below(2.0f, 1), below(4.0f, 1), below(8.0f, 1),
                        below(p2(-3), 1), below(p2(64), 1), below(p2(127), 1), below(p2(-124), 1)};
    mx_units(x, A); plant(t, x, 4);
}
static void r_mx_below_b(int t, float *x)
{
    const float A[8] = {below(4.0f, 2), below(4.0f, 3), below(8.0f, 4), below(p2(20), 16),
                        below(p2(64), 32), below(p2(100), 64), below(p2(20), 17), below(p2(-60), 8)};
    mx_units(x, A); plant(t, x, 4);
}
static void r_mx_above(int t, float *x)
{
    const float A[8] = {above(1.0f, 1), above(2.0f, 1), above(4.0f, 1), above(p2(-3), 1),
                        above(p2(-125), 1), above(p2(64), 2), above(0.5f, 1), above(p2(126), 1)};
    mx_units(x, A); plant(t, x, 4);
}
/* amax < 2^-125: the e8m0 code computed by ggml is negative (bit2) */
static void r_mx_under(int t, float *x)
{
    const float A[8] = {below(p2(-125), 1), p2(-126), below(p2(-126), 1), p2(-127), p2(-130), 1e-40f, 1e-44f, p2(-149)};
    (void)t;
    mx_units(x, A);
}
static void r_mx_top(int t, float *x)
{
    const float A[8] = {3.4028235e38f, p2(127), below(p2(127), 1), 1e38f, 3e38f, 1.5f * p2(127), 1.99f * p2(126), 1e30f};
    mx_units(x, A); plant(t, x, 4);
}

/* nvfp4: amax/6 at UE4M3 values, at their round-half-up ties, one ulp
   either side, and the edges: > 448 (clamped), [256, 448) (ggml gives
   0x7e), the subnormal codes, and below 2^-10 (scale 0) */
static void nv_units(int t, float *x, const float *S)
{
    int u;
    for (u = 0; u < COLS / 16; u++) unit_amax(x + 16 * u, 16, inv_div(S[u], 6.0f), 0);
    (void)t;
}
static void r_nv_ties(int t, float *x)
{
    const float S[16] = {1.0f, 1.0625f, below(1.0625f, 1), above(1.0625f, 1), 1.9375f, 1.125f * p2(-3), 1.1875f * p2(4), 1.8125f * p2(7),
                         1.0625f * p2(-6), 1.9375f * p2(-4), 1.0f * p2(-6), 1.75f * p2(8), 1.8125f * p2(8), 1.9375f * p2(7), 0.75f, 3.0f};
    nv_units(t, x, S); plant(t, x, 4);
}
static void r_nv_edges(int t, float *x)
{
    const float S[16] = {448.0f, above(448.0f, 1), 464.0f, 1e6f, 256.0f, below(256.0f, 1), 240.0f, 255.0f,
                         p2(-6), below(p2(-6), 1), p2(-9), p2(-10), below(p2(-10), 1), 1.5f * p2(-9), 3.5f * p2(-9), 7.5f * p2(-9)};
    nv_units(t, x, S); plant(t, x, 4);
}

typedef struct { const char *name; row_fn fn; int only; } rowdef_t;

/* only: -1 all types, else the one type */
static const rowdef_t ROWS[] = {
    {"random", r_random, -1},
    {"wide", r_wide, -1},
    {"sub16", r_sub16, -1},
    {"signs", r_signs, -1},
    {"allpos", r_allpos, -1},
    {"allneg", r_allneg, -1},
    {"zeros", r_zeros, -1},
    {"zero_row", r_zero_row, -1},
    {"pm_zero_row", r_pm_zero, -1},
    {"outliers", r_outliers, -1},
    {"huge", r_huge, -1},
    {"tiny", r_tiny, -1},
    {"subnormal", r_subnormal, -1},
    {"eps", r_eps, -1},
    {"eps_low", r_eps_low, -1},
    {"bf16", r_bf16, -1},
    {"f16", r_f16, -1},
    {"grid", r_grid, -1},
    {"const", r_const, -1},
    {"amax_sign", r_amax_sign, -1},
    {"ties_pow2", r_ties_pow2, -1},
    {"ties_rand", r_ties_rand, -1},
    {"ties_rand2", r_ties_rand, -1},
    {"ties_wide", r_ties_wide, -1},
    {"f16_edges", r_f16_edges, -1},
    {"f16_edges2", r_f16_edges2, -1},
    {"pow2_a", r_mx_pow2a, T_MXFP4},
    {"pow2_b", r_mx_pow2b, T_MXFP4},
    {"pow2_below_a", r_mx_below_a, T_MXFP4},
    {"pow2_below_b", r_mx_below_b, T_MXFP4},
    {"pow2_above", r_mx_above, T_MXFP4},
    {"under_2^-125", r_mx_under, T_MXFP4},
    {"e8m0_top", r_mx_top, T_MXFP4},
    {"ue4m3_ties", r_nv_ties, T_NVFP4},
    {"ue4m3_edges", r_nv_edges, T_NVFP4},
};
#define NROWDEF ((int)(sizeof ROWS / sizeof ROWS[0]))

/* does ggml's encoding of row x go through a C-undefined conversion? */
static int row_ub(int t, const float *x)
{
    int b, j, be = TY[t].be;
    for (b = 0; b < COLS / be; b++) {
        const float *xb = x + b * be;
        float amax = 0, max = 0, mn = 3.4e38f, mx = -3.4e38f, d;
        for (j = 0; j < be; j++) {
            if (amax < fabs_(xb[j])) { amax = fabs_(xb[j]); max = xb[j]; }
            if (xb[j] < mn) mn = xb[j];
            if (xb[j] > mx) mx = xb[j];
        }
        switch (t) {
        case T_Q8_0: d = amax / 127; break;
        case T_Q4_0: d = max / -8; break;
        case T_Q5_0: d = max / -16; break;
        case T_Q4_1: d = (mx - mn) / 15; break;
        case T_Q5_1: d = (mx - mn) / 31; break;
        case T_MXFP4:
            if (amax > 0.0f && floorf(log2f(amax)) - 2 + 127 < 0) return 1;
            continue;
        case T_Q2_K:
            /* 15/max_min infinite (max_min, the largest fitted min, below
               15/FLT_MAX), then nearest_int(inf) < 0 goes into l << 4;
               max_min is not known here: every super-block whose max |x|
               is below 1e-30 is flagged */
            if (amax > 0.0f && amax < 1e-30f) return 1;
            continue;
        default: return 0;
        }
        if (d != 0 && !finite_(1.0f / d)) return 1;
    }
    return 0;
}

/* ------------------------------------------------------- decode blocks -- */

static const uint16_t H_SPECIAL[16] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00,
                                       0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0x7fff};
static const uint16_t H_SPECIAL_K[10] = {0x0000, 0x8000, 0x0001, 0x03ff, 0x7bff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfbff};

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static uint16_t rnd_h_normal(void)
{
    uint32_t h = rnd32() & 0x8000;
    h |= (uint32_t)rndi(1, 30) << 10;
    h |= rnd32() & 1023;
    return (uint16_t)h;
}

static void dec_blocks(int t, uint8_t *blk)
{
    int n = TY[t].ndec, bb = TY[t].bb, b, i;
    seed(t, 1000);
    for (i = 0; i < n * bb; i++) blk[i] = (uint8_t)rnd32();
    for (b = 0; b < n; b++) {
        uint8_t *p = blk + (size_t)b * bb;
        switch (t) {
        case T_Q4_0: case T_Q5_0: case T_Q8_0: case T_IQ4_NL:
            if (b < 16) put16(p, H_SPECIAL[b]);
            else if (b < 32) put16(p, rnd_h_normal());
            break;
        case T_Q4_1: case T_Q5_1: {
            static const uint16_t P[8][2] = {{0x7c00, 0xfc00}, {0x0000, 0x7e00}, {0x7e00, 0x0000}, {0x8000, 0x8000},
                                             {0x7c00, 0x0000}, {0x0000, 0x7c00}, {0x7bff, 0x7bff}, {0x0001, 0x8001}};
            if (b < 16) { put16(p, H_SPECIAL[b]); put16(p + 2, rnd_h_normal()); }
            else if (b < 32) { put16(p, rnd_h_normal()); put16(p + 2, H_SPECIAL[b - 16]); }
            else if (b < 40) { put16(p, P[b - 32][0]); put16(p + 2, P[b - 32][1]); }
            break;
        }
        case T_Q2_K: case T_Q4_K: case T_Q5_K: {
            int od = t == T_Q2_K ? 80 : 0;
            static const uint16_t S6[6] = {0x0000, 0x8000, 0x0001, 0x7bff, 0x7c00, 0x7e00};
            if (b < 6) { put16(p + od, S6[b]); put16(p + od + 2, rnd_h_normal()); }
            else if (b < 12) { put16(p + od, rnd_h_normal()); put16(p + od + 2, S6[b - 6]); }
            else if (b == 12) { put16(p + od, 0x7c00); put16(p + od + 2, 0x7c00); }
            else if (b == 13) { put16(p + od, 0x0000); put16(p + od + 2, 0xfc00); }
            if (b == 0 || b == 6) { /* some sub-scales 0 (0 * inf, 0 * nan) */
                for (i = 0; i < (t == T_Q2_K ? 16 : 12); i++) if (i % 3 == 0) p[t == T_Q2_K ? i : 4 + i] = 0;
            }
            break;
        }
        case T_Q3_K: case T_Q6_K: case T_IQ4_XS: {
            int od = t == T_Q3_K ? 108 : t == T_Q6_K ? 208 : 0;
            if (b < 10) put16(p + od, H_SPECIAL_K[b]);
            else if (b < 13) put16(p + od, rnd_h_normal());
            break;
        }
        case T_Q8_K: {
            static const uint32_t F[13] = {0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x00800000u,
                                           0x3f800000u, 0xbf800000u, 0x7f7fffffu, 0x7f800000u, 0xff800000u,
                                           0x7fc00000u, 0xffc00000u, 0x7f800001u};
            if (b < 13) for (i = 0; i < 4; i++) p[i] = (uint8_t)(F[b] >> (8 * i));
            break;
        }
        case T_MXFP4: {
            static const uint8_t E[16] = {0, 1, 2, 3, 64, 125, 126, 127, 128, 129, 130, 192, 252, 253, 254, 255};
            if (b < 16) {
                uint8_t c[32];
                p[0] = E[b];
                for (i = 0; i < 32; i++) c[i] = (uint8_t)(i & 15);
                for (i = 31; i > 0; i--) { int k = rndi(0, i); uint8_t s = c[i]; c[i] = c[k]; c[k] = s; }
                for (i = 0; i < 16; i++) p[1 + i] = (uint8_t)(c[i] | c[16 + i] << 4);
            }
            break;
        }
        case T_NVFP4: { /* every scale byte once, with every code once */
            int s;
            for (s = 0; s < 4; s++) {
                uint8_t c[16];
                p[s] = (uint8_t)(4 * b + s);
                for (i = 0; i < 16; i++) c[i] = (uint8_t)i;
                for (i = 15; i > 0; i--) { int k = rndi(0, i); uint8_t v = c[i]; c[i] = c[k]; c[k] = v; }
                for (i = 0; i < 8; i++) p[4 + 8 * s + i] = (uint8_t)(c[i] | c[8 + i] << 4);
            }
            break;
        }
        }
    }
}

/* ------------------------------------------------------------ assembly -- */

typedef struct { uint8_t *p; size_t n, cap; } buf_t;

static void put(buf_t *b, const void *src, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->p = realloc(b->p, b->cap);
        if (!b->p) { fprintf(stderr, "gen_vectors: out of memory\n"); exit(1); }
    }
    memcpy(b->p + b->n, src, n);
    b->n += n;
}
static void put_u32(buf_t *b, uint32_t v)
{
    uint8_t q[4];
    q[0] = (uint8_t)v; q[1] = (uint8_t)(v >> 8); q[2] = (uint8_t)(v >> 16); q[3] = (uint8_t)(v >> 24);
    put(b, q, 4);
}
static void put_f32s(buf_t *b, const float *f, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) put_u32(b, fbits(f[i]));
}

/* 1 ok, 0 failure */
static int make_file(int t, buf_t *out)
{
    static float x[MAX_ROWS * COLS], rt[MAX_ROWS * COLS], dec[64 * 256];
    static uint8_t enc[MAX_ROWS * COLS / 32 * 34], e1[COLS / 32 * 34 * 2], e2[COLS / 32 * 34 * 2], all2[MAX_ROWS * COLS / 32 * 34];
    static uint8_t blk[64 * 292];
    static char names[MAX_ROWS][24];
    uint8_t flags[MAX_ROWS];
    size_t rb = row_bytes(t);
    int r, rows = 0, i, nub = 0;

    for (r = 0; r < NROWDEF; r++) {
        float *xr = x + (size_t)rows * COLS;
        int p, bad = 0;
        if (ROWS[r].only >= 0 && ROWS[r].only != t) continue;
        if (rows == MAX_ROWS) { fprintf(stderr, "gen_vectors: too many rows\n"); return 0; }
        seed(t, r);
        ROWS[r].fn(t, xr);
        for (i = 0; i < COLS; i++)
            if (!finite_(xr[i])) { fprintf(stderr, "gen_vectors: %s row %s: non-finite input\n", TY[t].name, ROWS[r].name); return 0; }
        /* the row alone, three kinds of stack garbage */
        gg_quant(t, xr, e1, 1, 0);
        for (p = 1; p < 3; p++) {
            gg_quant(t, xr, e2, 1, (unsigned)p);
            if (memcmp(e1, e2, rb)) bad = 1;
        }
        if (bad) {
            fprintf(stderr, "gen_vectors: %s row %s: ggml's bytes depend on the stack, dropped\n", TY[t].name, ROWS[r].name);
            continue;
        }
        memcpy(enc + (size_t)rows * rb, e1, rb);
        flags[rows] = 0;
        {
            int fb = 1, fh = 1;
            for (i = 0; i < COLS; i++) { fb &= bf16_exact(xr[i]); fh &= f16_exact(xr[i]); }
            flags[rows] = (uint8_t)(fb | fh << 1 | row_ub(t, xr) << 2);
            nub += flags[rows] >> 2 & 1;
        }
        sprintf(names[rows], "%.23s", ROWS[r].name);
        rows++;
    }
    /* all rows in one call, twice, against the rows alone */
    gg_quant(t, x, all2, rows, 3);
    for (r = 0; r < rows; r++)
        if (memcmp(all2 + r * rb, enc + r * rb, rb)) {
            fprintf(stderr, "gen_vectors: %s row %s: bytes differ from the row alone\n", TY[t].name, names[r]);
            return 0;
        }
    gg_quant(t, x, all2, rows, 4);
    if (memcmp(all2, enc, rb * rows)) { fprintf(stderr, "gen_vectors: %s: not deterministic\n", TY[t].name); return 0; }

    G.dq[t](enc, rt, (int64_t)rows * COLS);
    dec_blocks(t, blk);
    G.dq[t](blk, dec, (int64_t)TY[t].ndec * TY[t].be);

    if (verbose) {
        fprintf(stderr, "%-7s %2d rows (%d flagged undefined):", TY[t].name, rows, nub);
        for (r = 0; r < rows; r++) fprintf(stderr, " %s%s%s%s", names[r], flags[r] & 1 ? "[bf16]" : "", flags[r] & 2 ? "[f16]" : "", flags[r] & 4 ? "[UB]" : "");
        fprintf(stderr, "\n        planted: %d exact ties, %d one ulp from one\n", tie_stats[t][0], tie_stats[t][1]);
        if (t == T_IQ4_NL || t == T_IQ4_XS) {
            int agree = 0, nb = 0, b;
            for (r = 0; r < rows; r++)
                for (b = 0; b < COLS / TY[t].be; b++) {
                    uint8_t m[136];
                    float idl[8];
                    iq4_model(TY[t].be, x + (size_t)r * COLS + b * TY[t].be, idl, m);
                    nb++;
                    if (!memcmp(m, enc + r * rb + (size_t)b * TY[t].bb, (size_t)TY[t].bb)) agree++;
                    else if (verbose > 1) fprintf(stderr, "        model differs: row %s block %d\n", names[r], b);
                }
            fprintf(stderr, "        iq4 model agrees with ggml on %d of %d blocks\n", agree, nb);
        }
    }

    out->n = 0;
    put(out, "QGGMLV1", 8);
    put_u32(out, (uint32_t)TY[t].be);
    put_u32(out, (uint32_t)TY[t].bb);
    put_u32(out, (uint32_t)rows);
    put_u32(out, COLS);
    put(out, flags, (size_t)rows);
    put_f32s(out, x, (size_t)rows * COLS);
    put(out, enc, rb * rows);
    put_f32s(out, rt, (size_t)rows * COLS);
    put_u32(out, (uint32_t)TY[t].ndec);
    put(out, blk, (size_t)TY[t].ndec * TY[t].bb);
    put_f32s(out, dec, (size_t)TY[t].ndec * TY[t].be);
    return 1;
}

static int write_file(const char *dir, const char *name, const buf_t *b)
{
    char path[4096];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s.bin", dir, name);
    f = fopen(path, "wb");
    if (!f || fwrite(b->p, 1, b->n, f) != b->n || fclose(f)) {
        fprintf(stderr, "gen_vectors: cannot write %s: %s\n", path, strerror(errno));
        return 0;
    }
    return 1;
}

/* 1 equal, 0 differs (message printed) */
static int compare_file(const char *dir, const char *name, const buf_t *b)
{
    char path[4096];
    FILE *f;
    uint8_t *d;
    size_t n, i;
    snprintf(path, sizeof path, "%s/%s.bin", dir, name);
    f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "gen_vectors: cannot open %s: %s\n", path, strerror(errno)); return 0; }
    d = malloc(b->n + 1);
    n = d ? fread(d, 1, b->n + 1, f) : 0;
    fclose(f);
    if (!d) return 0;
    if (n == b->n && !memcmp(d, b->p, n)) { free(d); return 1; }
    for (i = 0; i < n && i < b->n && d[i] == b->p[i]; i++) {}
    fprintf(stderr, "gen_vectors: %s differs from ggml's output: %zu bytes there, %zu regenerated, first difference at byte %zu\n",
            path, n, b->n, i);
    free(d);
    return 0;
}

int main(int argc, char **argv)
{
    const char *lib, *outdir, *checkdir = NULL;
    int i, t, failed = 0, argn = 0;
    char *args[2];
    buf_t b = {NULL, 0, 0};

    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-v")) verbose++;
        else if (!strcmp(argv[i], "-vv")) verbose += 2;
        else if (!strcmp(argv[i], "--check") && i + 1 < argc) checkdir = argv[++i];
        else if (argn < 2) args[argn++] = argv[i];
        else argn = 3;
    }
    if (argn != 2) {
        fprintf(stderr, "usage: gen_vectors LIBPATH|- OUTDIR|- [--check DATADIR] [-v]\n");
        return 1;
    }
    lib = args[0];
    outdir = args[1];
    if (!strcmp(lib, "-")) {
        lib = getenv("QUANT_GGML_LIB");
        if (!lib || !*lib) {
            fprintf(stderr, "gen_vectors: QUANT_GGML_LIB is not set (path of ggml's libggml-base.so): skipped\n");
            return 77;
        }
    }
    G.h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!G.h) {
        fprintf(stderr, "gen_vectors: cannot load %s: %s: skipped\n", lib, dlerror());
        return 77;
    }
    if (!gg_load()) return 1;
    if (!checkdir || strcmp(outdir, "-")) {
        if (mkdir(outdir, 0777) && errno != EEXIST) {
            fprintf(stderr, "gen_vectors: cannot create %s: %s\n", outdir, strerror(errno));
            return 1;
        }
    }
    for (t = 0; t < NT; t++) {
        if (!make_file(t, &b)) { failed = 1; continue; }
        if (checkdir) {
            if (!compare_file(checkdir, TY[t].name, &b)) {
                failed = 1;
                if (strcmp(outdir, "-") && write_file(outdir, TY[t].name, &b))
                    fprintf(stderr, "gen_vectors: regenerated file written to %s/%s.bin\n", outdir, TY[t].name);
            }
        } else if (!write_file(outdir, TY[t].name, &b)) {
            failed = 1;
        } else if (verbose) {
            fprintf(stderr, "        %s/%s.bin: %zu bytes\n", outdir, TY[t].name, b.n);
        }
    }
    free(b.p);
    if (checkdir && !failed) printf("gen_vectors: %d files equal to ggml's output\n", NT);
    return failed;
}
