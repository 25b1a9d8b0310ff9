/* libFuzzer target over the operation API. The input bytes choose the op,
   rank, dims, dtypes, qtype, axis, rounding, f8 overflow mode, scales and
   zero points (0, NaN, Inf, subnormal, huge or raw bits), the data, and
   NULL or overlapping pointers, all inside buffers this harness owns.

   Each case runs twice on identical arenas: through the backend this file
   is built for, and through a forced-scalar copy of quant.h in the same
   binary (tests/ref_scalar.c). Checked: the same status; status OK => the
   same bytes everywhere; status not OK => the arena exactly as it was
   (dst canary untouched); and in both, nothing outside dst ever written.
   Address and undefined-behaviour sanitizers catch the rest. */
#define QUANT_IMPLEMENTATION
#include "../../quant.h"
#include "../ref_scalar.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ARENA 8192   /* src and dst live in one arena, so they can overlap */
#define MAX_ELEMS 1024

typedef struct reader { const uint8_t *p; size_t n; } reader;

static uint32_t take(reader *r, unsigned bytes)
{
    uint32_t v = 0;
    unsigned k;
    for (k = 0; k < bytes; ++k) {
        v |= (uint32_t)(r->n ? *r->p : 0) << (8 * k);
        if (r->n) { ++r->p; --r->n; }
    }
    return v;
}

static float pick_scale(reader *r)
{
    static const uint32_t special[] = {
        0x3F800000u, 0x3DCCCCCDu, 0xBE800000u, 0x00000000u, 0x80000000u, 0x7FC00000u, 0x7F800000u,
        0xFF800000u, 0x00200000u, 0x00200001u, 0x00000001u, 0x7F7FFFFFu, 0x3A83126Fu, 0x4B800000u
    };
    const uint32_t k = take(r, 1);
    union { uint32_t u; float f; } v;
    v.u = k < 200 ? special[k % (sizeof special / sizeof *special)] : take(r, 4);
    return v.f;
}

static int64_t pick_zp(reader *r)
{
    static const int64_t special[] = { 0, 1, -1, 127, -128, 255, 128, INT32_MAX, INT32_MIN,
                                       (int64_t)INT32_MAX + 1, (int64_t)INT32_MIN - 1, 1048577, INT64_MIN };
    const uint32_t k = take(r, 1);
    return k < 200 ? special[k % (sizeof special / sizeof *special)] : (int64_t)(int32_t)take(r, 4);
}

static quant_dtype pick_dtype(reader *r)
{
    static const quant_dtype d[] = { QUANT_F32, QUANT_S8, QUANT_U8, QUANT_F8_E4M3, QUANT_F8_E5M2,
                                     QUANT_S32, QUANT_UNDEF, (quant_dtype)9 };
    return d[take(r, 1) % (sizeof d / sizeof *d)];
}

static size_t esize(quant_dtype t) { return t == QUANT_F32 || t == QUANT_S32 ? 4 : 1; }

/* The element count when every dim is sane and small; 0 with *ok = 0 when
   the shape is one the library must reject or the harness cannot hold. */
static size_t count_of(const quant_tensor *t, int *ok)
{
    size_t n = 1;
    int i;
    *ok = t->rank >= 0 && t->rank <= QUANT_MAX_RANK;
    for (i = 0; *ok && i < t->rank; ++i) *ok = t->dims[i] >= 0 && t->dims[i] <= MAX_ELEMS;
    for (i = 0; *ok && i < t->rank; ++i) if (t->dims[i] == 0) return 0;
    for (i = 0; *ok && i < t->rank; ++i) {
        n *= (size_t)t->dims[i];
        if (n > MAX_ELEMS) *ok = 0;
    }
    return *ok ? n : 0;
}

static uint8_t arena_a[ARENA], arena_b[ARENA], arena_0[ARENA];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = { data, size };
    const int op = (int)(take(&r, 1) % 4);
    const int dynamic = op >= 2, quantize = op % 2 == 0;
    quant_tensor src, dst, sc, zp;
    quant_attrs a = quant_attrs_default();
    float scales[64];
    int64_t zps64[64];
    uint8_t zbytes[256];
    size_t n_sc, n_zp, i, n_src, n_dst, src_off, dst_off;
    int ok_src, ok_dst, k, pointer_mode, use_zps;
    quant_status sa, sb;

    memset(&src, 0, sizeof src);
    src.rank = (int)(take(&r, 1) % 15) - 1;            /* -1 .. 13 */
    for (k = 0; k < QUANT_MAX_RANK; ++k) {
        const uint32_t d = take(&r, 1);
        src.dims[k] = d < 240 ? (int64_t)(d % 6) : d == 240 ? -1 : d == 241 ? INT64_MAX : d == 242 ? (int64_t)1 << 32 : 17;
    }
    src.rank = src.rank > QUANT_MAX_RANK ? 13 : src.rank;
    dst = src;
    src.dtype = quantize ? QUANT_F32 : QUANT_S8;
    dst.dtype = quantize ? QUANT_S8 : QUANT_F32;
    if (take(&r, 1) < 40) src.dtype = pick_dtype(&r);
    {
        const quant_dtype q = pick_dtype(&r);
        if (quantize) dst.dtype = q; else src.dtype = q;
    }
    if (take(&r, 1) < 16) {                                              /* shape mismatch */
        int64_t *d = &dst.dims[take(&r, 1) % QUANT_MAX_RANK];
        *d = *d == INT64_MAX ? 0 : *d + 1;
    }
    if (take(&r, 1) < 8) dst.rank = (int)(take(&r, 1) % 14);

    a.qtype = (quant_qtype)(take(&r, 1) % 3 == 2 ? (int)take(&r, 1) % 4 : (int)(take(&r, 1) % 2));
    a.axis = (int64_t)(int8_t)take(&r, 1) % 16;
    if (take(&r, 1) < 8) a.axis = INT64_MIN;
    a.rounding = (quant_rounding)(take(&r, 1) % 6 == 5 ? -1 : (int)(take(&r, 1) % 5));
    a.f8_overflow = (quant_f8_overflow)(int)(take(&r, 1) % 3);

    n_sc = take(&r, 1) % 9;
    if (n_sc == 8) n_sc = take(&r, 1) % 64;
    for (i = 0; i < n_sc; ++i) scales[i] = pick_scale(&r);
    n_zp = take(&r, 1) % 9;
    if (n_zp == 8) n_zp = take(&r, 1) % 64;
    use_zps = take(&r, 1) % 3;
    for (i = 0; i < n_zp; ++i) zps64[i] = pick_zp(&r);
    a.scales = take(&r, 1) < 8 ? NULL : scales;
    a.n_scales = n_sc;
    a.zps = use_zps == 0 ? NULL : zps64;
    a.n_zps = use_zps == 2 ? n_zp : (use_zps == 1 ? (n_zp ? n_zp : 0) : (take(&r, 1) < 8 ? 1 : 0));

    memset(&sc, 0, sizeof sc);
    sc.dtype = take(&r, 1) < 8 ? pick_dtype(&r) : QUANT_F32;
    sc.rank = take(&r, 1) < 16 ? (int)(take(&r, 1) % 3) : 1;
    sc.dims[0] = (int64_t)n_sc;
    sc.data = take(&r, 1) < 8 ? NULL : scales;
    memset(&zp, 0, sizeof zp);
    {
        static const quant_dtype zt[] = { QUANT_S32, QUANT_S8, QUANT_U8, QUANT_F32, QUANT_S32 };
        zp.dtype = zt[take(&r, 1) % 5];
    }
    zp.rank = take(&r, 1) < 16 ? (int)(take(&r, 1) % 3) : 1;
    zp.dims[0] = (int64_t)n_zp;
    for (i = 0; i < n_zp; ++i) {
        const int32_t z = (int32_t)zps64[i];
        if (zp.dtype == QUANT_S32) memcpy(zbytes + 4 * i, &z, 4);
        else zbytes[i] = (uint8_t)z;
    }
    zp.data = zbytes;

    /* data placement: apart, NULL, or overlapping */
    n_src = count_of(&src, &ok_src);
    n_dst = count_of(&dst, &ok_dst);
    pointer_mode = (int)(take(&r, 1) % 8);
    src_off = take(&r, 2) % 64;
    if (src_off < 48) src_off &= ~(size_t)3;                 /* mostly aligned; sometimes not */
    dst_off = pointer_mode == 6 ? src_off + take(&r, 1) % (n_src * esize(src.dtype) + 1)   /* overlap */
            : pointer_mode == 7 ? src_off                                                  /* src == dst */
            : ARENA / 2 + (take(&r, 2) % 64 & (take(&r, 1) < 32 ? 63u : 60u));
    if (ok_src && src_off + n_src * esize(src.dtype) > ARENA) return 0;
    if (ok_dst && dst_off + n_dst * esize(dst.dtype) > ARENA) return 0;
    /* a valid-looking shape the harness cannot hold: not called (its
       memory does not exist); an invalid one is called, and must fail */
    if (!ok_src && src.rank >= 0 && src.rank <= QUANT_MAX_RANK) {
        /* a shape the harness cannot hold is called only when the library
           must refuse it: a negative dim, or an f32 side past INT64_MAX bytes */
        uint64_t prod = 1;
        int over = 0, negative = 0;
        for (k = 0; k < src.rank; ++k) negative |= src.dims[k] < 0;
        for (k = 0; k < src.rank && !over && !negative; ++k) {
            const uint64_t d = (uint64_t)src.dims[k];
            if (d && prod > UINT64_MAX / d) over = 1; else prod *= d;
        }
        if (!negative && !over && prod <= (uint64_t)INT64_MAX / 4) return 0;
    }

    for (i = 0; i < ARENA; ++i) arena_0[i] = (uint8_t)(0xA5 ^ (i * 7));
    for (i = 0; r.n && i < ARENA / 2; ++i) arena_0[i] = (uint8_t)take(&r, 1);
    memcpy(arena_a, arena_0, ARENA);
    memcpy(arena_b, arena_0, ARENA);

    {
        quant_tensor sa_t = src, da_t = dst, sb_t = src, db_t = dst;
        sa_t.data = pointer_mode == 4 ? NULL : arena_a + src_off;
        sb_t.data = pointer_mode == 4 ? NULL : arena_b + src_off;
        da_t.data = pointer_mode == 5 ? NULL : arena_a + dst_off;
        db_t.data = pointer_mode == 5 ? NULL : arena_b + dst_off;
        {
            const quant_attrs *ap = dynamic && take(&r, 1) < 64 ? NULL : &a;
            const quant_tensor *zpp = take(&r, 1) < 100 ? NULL : &zp;
            switch (op) {
            case 0: sa = quant_quantize(&sa_t, &da_t, ap ? ap : &a); sb = ref_quantize(&sb_t, &db_t, ap ? ap : &a); break;
            case 1: sa = quant_dequantize(&sa_t, &da_t, ap ? ap : &a); sb = ref_dequantize(&sb_t, &db_t, ap ? ap : &a); break;
            case 2: sa = quant_dynamic_quantize(&sa_t, &sc, zpp, &da_t, ap);
                    sb = ref_dynamic_quantize(&sb_t, &sc, zpp, &db_t, ap); break;
            default: sa = quant_dynamic_dequantize(&sa_t, &sc, zpp, &da_t, ap);
                     sb = ref_dynamic_dequantize(&sb_t, &sc, zpp, &db_t, ap); break;
            }
        }
    }
    if (sa != sb) abort();                                   /* one validation for every backend */
    if (sa != QUANT_OK) {
        if (memcmp(arena_a, arena_0, ARENA) != 0) abort();  /* failed call wrote something */
        return 0;
    }
    if (memcmp(arena_a, arena_b, ARENA) != 0) abort();      /* backend differs from scalar */
    {
        /* nothing outside dst changed */
        const size_t lo = dst_off, hi = dst_off + n_dst * esize(dst.dtype);
        for (i = 0; i < ARENA; ++i)
            if ((i < lo || i >= hi) && arena_a[i] != arena_0[i]) abort();
    }
    return 0;
}
