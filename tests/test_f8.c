/* f8 in both formats: all 256 codes decoded against the oracle at several
   scales, and encode over a sweep of f32 bit patterns (every 4096th in the
   normal run; all 2^32 with the argument "all", the slow suite, which
   may be split: "all K N" runs shard K of N; there the oracle runs where
   the codes change, check_runs in check.h). */
#include "../quant.h"
#include "oracle.h"
#include "check.h"

#include <stdlib.h>

#define BLOCK 4096

/* one encoded element against the oracle */
struct enc {
    const float *x;
    const uint8_t *q;
    int fmt, ov;
};
static int enc_at(void *ctx, size_t k)
{
    const struct enc *e = (const struct enc *)ctx;
    const uint8_t want = o_f8_encode(e->x[k], e->x[k], e->fmt, e->ov);
    CHECK(e->q[k] == want, "encode %s ov=%d x=0x%08x: 0x%02x want 0x%02x", e->fmt ? "e5m2" : "e4m3", e->ov,
          check_bits_float(e->x[k]), e->q[k], want);
    return e->q[k] == want;
}

int main(int argc, char **argv)
{
    check_cpu();
    static const float scales[] = { 1.0f, -1.0f, 0.375f, 3.0e38f, 1e-30f, -2.5e-3f, 5.8774718e-39f };
    const uint64_t step = (argc > 1 && !strcmp(argv[1], "all")) ? 1 : 4096;
    const uint64_t shards = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    const uint64_t shard = argc > 3 ? strtoull(argv[2], NULL, 10) : 0;
    const uint64_t first = (1ull << 32) / shards * shard, last = (1ull << 32) / shards * (shard + 1);
    int fmt, si, c;

    for (fmt = 0; fmt < 2; ++fmt)
        for (si = 0; si < (int)(sizeof scales / sizeof *scales); ++si) {
            uint8_t q[256];
            float y[256];
            for (c = 0; c < 256; ++c) q[c] = (uint8_t)c;
            (fmt ? quant_f8_e5m2_to_f32 : quant_f8_e4m3_to_f32)(q, y, 256, scales[si]);
            for (c = 0; c < 256; ++c) {
                float want = o_dequant_f8((uint8_t)c, scales[si], fmt);
                CHECK(check_bits_float(y[c]) == check_bits_float(want), "%s code 0x%02x scale %a: 0x%08x want 0x%08x",
                      fmt ? "e5m2" : "e4m3", c, (double)scales[si], check_bits_float(y[c]), check_bits_float(want));
            }
        }

    /* encode: scale 1 makes v = x, so this is the rounding itself; both
       overflow modes through the op layer */
    {
        float *x = (float *)malloc(BLOCK * sizeof(float));
        uint8_t *q = (uint8_t *)malloc(BLOCK);
        float one = 1.0f;
        quant_attrs a = quant_attrs_default();
        quant_tensor tx, tq;
        uint64_t u = first;
        int ov, k;
        a.scales = &one;
        a.n_scales = 1;
        memset(&tx, 0, sizeof tx);
        tx.dtype = QUANT_F32; tx.rank = 1; tx.dims[0] = BLOCK; tx.data = x;
        tq = tx; tq.data = q;
        while (u < last) {
            for (k = 0; k < BLOCK; ++k, u += step)
                x[k] = check_float_bits((uint32_t)(u + (step > 1 ? (u / step) % step : 0)));
            for (fmt = 0; fmt < 2; ++fmt)
                for (ov = 0; ov < 2; ++ov) {
                    tq.dtype = fmt ? QUANT_F8_E5M2 : QUANT_F8_E4M3;
                    a.f8_overflow = (quant_f8_overflow)ov;
                    CHECK(quant_quantize(&tx, &tq, &a) == QUANT_OK, "status");
                    if (step == 1) { /* consecutive patterns: the oracle where q changes */
                        struct enc e;
                        e.x = x; e.q = q; e.fmt = fmt; e.ov = ov;
                        CHECK(check_runs(q, 1, BLOCK, enc_at, &e), "sweep block 0x%08x", (unsigned)(u - BLOCK));
                    } else
                        for (k = 0; k < BLOCK; ++k) enc_at(&(struct enc){ x, q, fmt, ov }, (size_t)k);
                }
        }
        free(x); free(q);
    }
    return check_done("test_f8");
}
