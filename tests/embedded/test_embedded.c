/* Bare-metal test: quant.h's operations on the cases of cases.h, reduced to
   hashes and compared with what the oracle gives on the host; then the
   validation rows that leave dst untouched. Output and exit status go out
   through semihosting. No libc. */
#define QUANT_IMPLEMENTATION
#include "../../quant.h"
#include "cases.h"
#include "emb.h"
#include "expected.h"

static float xs[EMB_N], ys[256];
static uint8_t qs[EMB_N];
static int failures, checks;

static void check(int ok, const char *what, int index)
{
    ++checks;
    if (!ok && ++failures <= 20) {
        emb_puts("FAIL ");
        emb_puts(what);
        emb_puts(" #");
        emb_put_u32((uint32_t)index);
        emb_puts("\n");
    }
}

static quant_tensor ten(quant_dtype t, int rank, int64_t d0, int64_t d1, void *data)
{
    quant_tensor x;
    int k;
    x.dtype = t;
    x.rank = rank;
    for (k = 0; k < QUANT_MAX_RANK; ++k) x.dims[k] = 1;
    x.dims[0] = d0;
    x.dims[1] = d1;
    x.data = data;
    return x;
}

static const quant_dtype dts[4] = { QUANT_S8, QUANT_U8, QUANT_F8_E4M3, QUANT_F8_E5M2 };

int main(void)
{
    int dt, rnd, ov, si, zi, i, layout, count = 0;
    uint32_t h;
    quant_attrs a;
    emb_puts("quant.h bare-metal test, backend ");
    emb_puts(quant_backend());
    emb_puts("\n");

    for (dt = 0; dt < 4; ++dt)
        for (rnd = 0; rnd < 4; ++rnd)
            for (ov = 0; ov < (emb_is_f8(dt) ? 2 : 1); ++ov)
                for (si = 0; si < EMB_NS; ++si)
                    for (zi = 0; zi < (emb_is_f8(dt) ? 1 : EMB_NZ); ++zi) {
                        quant_tensor tf = ten(QUANT_F32, 1, EMB_N, 1, xs), tq = ten(dts[dt], 1, EMB_N, 1, qs);
                        emb_inputs(xs, EMB_N, emb_scales[si], (uint32_t)(count + 1));
                        a = quant_attrs_default();
                        a.scales = &emb_scales[si]; a.n_scales = 1;
                        a.zps = &emb_zps[zi]; a.n_zps = 1;
                        a.rounding = (quant_rounding)rnd;
                        a.f8_overflow = (quant_f8_overflow)ov;
                        check(quant_quantize(&tf, &tq, &a) == QUANT_OK, "quantize status", count);
                        h = EMB_HASH0;
                        for (i = 0; i < EMB_N; ++i) h = emb_hash(h, qs[i]);
                        check(h == emb_expected[count], "quantize", count);
                        ++count;
                    }
    for (dt = 0; dt < 4; ++dt)
        for (si = 0; si < EMB_NS; ++si)
            for (zi = 0; zi < (emb_is_f8(dt) ? 1 : EMB_NZ); ++zi) {
                quant_tensor tq = ten(dts[dt], 1, 256, 1, qs), tf = ten(QUANT_F32, 1, 256, 1, ys);
                static uint8_t codes[256];
                for (i = 0; i < 256; ++i) codes[i] = (uint8_t)i;
                tq.data = codes;
                a = quant_attrs_default();
                a.scales = &emb_scales[si]; a.n_scales = 1;
                a.zps = &emb_zps[zi]; a.n_zps = 1;
                check(quant_dequantize(&tq, &tf, &a) == QUANT_OK, "dequantize status", count);
                h = EMB_HASH0;
                for (i = 0; i < 256; ++i) h = emb_hash(h, emb_u(ys[i]));
                check(h == emb_expected[count], "dequantize", count);
                ++count;
            }
    for (dt = 0; dt < 2; ++dt)
        for (rnd = 0; rnd < 4; ++rnd)
            for (layout = 0; layout < 2; ++layout) {
                float sc[EMB_CH];
                int64_t zp[EMB_CH];
                quant_tensor tf = layout == 0 ? ten(QUANT_F32, 2, EMB_ROWS, EMB_CH, xs) : ten(QUANT_F32, 2, EMB_CH, EMB_ROWS, xs);
                quant_tensor tq = tf;
                tq.dtype = dts[dt];
                tq.data = qs;
                for (i = 0; i < EMB_CH; ++i) { sc[i] = emb_scales[(i * 3 + rnd) % EMB_NS]; zp[i] = emb_zps[(i * 5) % EMB_NZ]; }
                emb_inputs(xs, EMB_ROWS * EMB_CH, 0.1f, (uint32_t)(count + 1));
                a = quant_attrs_default();
                a.qtype = QUANT_PER_CHANNEL; a.axis = layout == 0 ? 1 : 0;
                a.scales = sc; a.n_scales = EMB_CH; a.zps = zp; a.n_zps = EMB_CH;
                a.rounding = (quant_rounding)rnd;
                check(quant_quantize(&tf, &tq, &a) == QUANT_OK, "per-channel status", count);
                h = EMB_HASH0;
                for (i = 0; i < EMB_ROWS * EMB_CH; ++i) h = emb_hash(h, qs[i]);
                check(h == emb_expected[count], "per-channel", count);
                ++count;
            }
    check(count == EMB_EXPECTED, "case count", count);

    /* validation: the status, and dst untouched */
    {
        static const float bad_scales[4] = { 0.0f, 1e-45f, 0.0f, 0.0f };
        float one = 1.0f;
        int64_t big = (int64_t)2147483647 + 1;
        quant_tensor tf = ten(QUANT_F32, 1, 8, 1, xs), tq = ten(QUANT_S8, 1, 8, 1, qs);
        quant_status st;
        for (i = 0; i < 8; ++i) qs[i] = 0xA5;
        a = quant_attrs_default();
        a.scales = &bad_scales[0]; a.n_scales = 1;
        st = quant_quantize(&tf, &tq, &a);
        check(st == QUANT_ERR_SCALE_VALUE, "scale 0", 0);
        a.scales = &bad_scales[1];
        check(quant_quantize(&tf, &tq, &a) == QUANT_ERR_SCALE_VALUE, "scale 1e-45", 0);
        a.scales = &one; a.zps = &big; a.n_zps = 1;
        check(quant_quantize(&tf, &tq, &a) == QUANT_ERR_ZP_VALUE, "zp 2^31", 0);
        a.zps = 0; a.n_zps = 0; a.rounding = (quant_rounding)9;
        check(quant_quantize(&tf, &tq, &a) == QUANT_ERR_ATTR, "rounding 9", 0);
        a.rounding = QUANT_ROUND_EXACT; a.qtype = QUANT_PER_CHANNEL; a.axis = 3;
        check(quant_quantize(&tf, &tq, &a) == QUANT_ERR_AXIS, "axis 3", 0);
        tq.data = xs;
        a.qtype = QUANT_PER_TENSOR;
        check(quant_quantize(&tf, &tq, &a) == QUANT_ERR_OVERLAP, "overlap", 0);
        for (i = 0; i < 8; ++i) check(qs[i] == 0xA5, "dst untouched", i);
    }

    emb_puts("test_embedded: ");
    emb_put_u32((uint32_t)checks);
    emb_puts(" checks, ");
    emb_put_u32((uint32_t)failures);
    emb_puts(" failed\n");
    return failures ? 1 : 0;
}
