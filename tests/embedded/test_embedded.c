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
    int i, count;
    emb_case c;
    quant_attrs a;
    emb_puts("quant.h bare-metal test, backend ");
    emb_puts(quant_backend());
    emb_puts("\n");

    for (count = 0; emb_case_at(count, &c); ++count) {
        const float *s = &emb_scales[c.si];
        uint32_t h = EMB_HASH0;
        a = quant_attrs_default();
        a.rounding = (quant_rounding)c.rnd;
        a.f8_overflow = (quant_f8_overflow)c.ov;
        if (c.kind == EMB_QUANT) {
            quant_tensor tf = ten(QUANT_F32, 1, EMB_N, 1, xs), tq = ten(dts[c.dt], 1, EMB_N, 1, qs);
            emb_inputs(xs, EMB_N, *s, (uint32_t)(count + 1));
            a.scales = s; a.n_scales = 1;
            a.zps = &emb_zps[c.zi]; a.n_zps = 1;
            check(quant_quantize(&tf, &tq, &a) == QUANT_OK, "quantize status", count);
            for (i = 0; i < EMB_N; ++i) h = emb_hash(h, qs[i]);
        } else if (c.kind == EMB_DEQUANT) {
            static uint8_t codes[256];
            quant_tensor tq = ten(dts[c.dt], 1, 256, 1, codes), tf = ten(QUANT_F32, 1, 256, 1, ys);
            for (i = 0; i < 256; ++i) codes[i] = (uint8_t)i;
            a.scales = s; a.n_scales = 1;
            a.zps = &emb_zps[c.zi]; a.n_zps = 1;
            check(quant_dequantize(&tq, &tf, &a) == QUANT_OK, "dequantize status", count);
            for (i = 0; i < 256; ++i) h = emb_hash(h, emb_u(ys[i]));
        } else if (c.kind == EMB_GROUP) {
            static uint8_t w[(EMB_ROWS * EMB_CH + 1) / 2];
            static uint16_t y16[EMB_ROWS * EMB_CH];
            float sc[EMB_ROWS * EMB_NG];
            int64_t zp[EMB_ROWS * EMB_NG];
            quant_tensor tw = ten(c.dt == 0 ? QUANT_S4 : QUANT_U4, 2, EMB_ROWS, EMB_CH, w);
            quant_tensor ty = ten(c.dt == 0 ? QUANT_F32 : QUANT_BF16, 2, EMB_ROWS, EMB_CH, c.dt == 0 ? (void *)xs : (void *)y16);
            for (i = 0; i < (EMB_ROWS * EMB_CH + 1) / 2; ++i) w[i] = emb_g_byte(i);
            for (i = 0; i < EMB_ROWS * EMB_NG; ++i) { sc[i] = emb_g_scale(i, c.si); zp[i] = emb_g_zp(i, c.dt); }
            a.qtype = QUANT_PER_GROUP; a.group_shape[0] = 1; a.group_shape[1] = EMB_G;
            a.scales = sc; a.n_scales = EMB_ROWS * EMB_NG; a.zps = zp; a.n_zps = EMB_ROWS * EMB_NG;
            check(quant_dequantize(&tw, &ty, &a) == QUANT_OK, "per-group status", count);
            for (i = 0; i < EMB_ROWS * EMB_CH; ++i) h = emb_hash(h, c.dt == 0 ? emb_u(xs[i]) : y16[i]);
        } else {
            float sc[EMB_CH];
            int64_t zp[EMB_CH];
            quant_tensor tf = c.layout == 0 ? ten(QUANT_F32, 2, EMB_ROWS, EMB_CH, xs) : ten(QUANT_F32, 2, EMB_CH, EMB_ROWS, xs);
            quant_tensor tq = tf;
            tq.dtype = dts[c.dt];
            tq.data = qs;
            for (i = 0; i < EMB_CH; ++i) { sc[i] = emb_ch_scale(i, c.rnd); zp[i] = emb_ch_zp(i); }
            emb_inputs(xs, EMB_ROWS * EMB_CH, 0.1f, (uint32_t)(count + 1));
            a.qtype = QUANT_PER_CHANNEL; a.axis = c.layout == 0 ? 1 : 0;
            a.scales = sc; a.n_scales = EMB_CH; a.zps = zp; a.n_zps = EMB_CH;
            check(quant_quantize(&tf, &tq, &a) == QUANT_OK, "per-channel status", count);
            for (i = 0; i < EMB_ROWS * EMB_CH; ++i) h = emb_hash(h, qs[i]);
        }
        check(h == emb_expected[count], c.kind == EMB_QUANT ? "quantize" : c.kind == EMB_DEQUANT ? "dequantize"
                                        : c.kind == EMB_GROUP ? "per-group 4-bit" : "per-channel", count);
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
