/* Bare-metal test: quant.h's operations on the cases of cases.h, reduced to
   hashes and compared with what the oracle gives on the host; ggml's block
   formats against ggml's own vectors (encoding, decoding to f32, bf16 and
   f16); then the validation rows that leave dst untouched. Output and exit
   status go out through semihosting. No libc. */
#define QUANT_IMPLEMENTATION
#include "../../quant.h"
#include "cases.h"
#include "emb.h"
#include "expected.h"
#ifndef QUANT_NO_REQUANT
#include "../requant_ref.h"
#endif

static float xs[EMB_N], ys[256];
static uint8_t qs[EMB_N];
static int failures, checks;

static int check(int ok, const char *what, int index)
{
    ++checks;
    if (!ok && ++failures <= 20) {
        emb_puts("FAIL ");
        emb_puts(what);
        emb_puts(" #");
        emb_put_u32((uint32_t)index);
        emb_puts("\n");
    }
    return ok;
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

#ifndef QUANT_NO_BLOCKS
/* ggml's block formats: the rows of expected.h encoded (from f32, and from
   bf16 and f16 where the row's values are exactly those) and decoded back,
   the file's blocks decoded to f32, bf16 and f16, each hashed and compared
   with the hash of ggml's own result (every NaN hashed as one NaN) */
#define BLK_MAX_ELEMS 4096 /* the most a type's blocks hold: 16 x 256, 48 x 32, 64 x 64 */
static float blk_x[EMB_BLK_COLS], blk_y[BLK_MAX_ELEMS];
static uint16_t blk_x16[EMB_BLK_COLS], blk_y16[BLK_MAX_ELEMS];
static uint8_t blk_q[EMB_BLK_COLS / 256 * 292 + 64]; /* a q8_K row (the longest) and 64 bytes that stay 0xA5 */

/* n bytes in hex, 32 a line, after a failure (the first 20 only) */
static void put_hex(const uint8_t *p, uint32_t n)
{
    static const char digits[] = "0123456789abcdef";
    char line[2 + 2 * 32 + 2];
    uint32_t i, k;
    if (failures > 20) return;
    for (i = 0; i < n; i += 32) {
        char *o = line;
        *o++ = ' ';
        *o++ = ' ';
        for (k = i; k < n && k < i + 32; ++k) { *o++ = digits[p[k] >> 4]; *o++ = digits[p[k] & 15]; }
        *o++ = '\n';
        *o = '\0';
        emb_puts(line);
    }
}

/* after a failure: the type's name, and what and which row or block (what NULL: none) */
static void blk_name(quant_dtype t, const char *what, uint32_t row)
{
    if (failures > 20) return;
    emb_puts("  ");
    emb_puts(quant_dtype_name(t));
    if (what) {
        emb_puts(what);
        emb_put_u32(row);
    }
    emb_puts("\n");
}

static uint32_t hash_f32(const float *y, uint32_t n)
{
    uint32_t h = EMB_HASH0, i;
    for (i = 0; i < n; ++i) h = emb_hash(h, emb_canon32(emb_u(y[i])));
    return h;
}

/* quantizes [1, 256] of type `in` (blk_x or blk_x16) into blk_q; the hash of the bytes */
static uint32_t blk_encode(quant_dtype t, quant_dtype in, uint32_t nbytes, const char *what, uint32_t row)
{
    quant_tensor src = ten(in, 2, 1, EMB_BLK_COLS, in == QUANT_F32 ? (void *)blk_x : (void *)blk_x16);
    quant_tensor dst = ten(t, 2, 1, EMB_BLK_COLS, blk_q);
    const quant_attrs a = quant_attrs_default();
    uint32_t h = EMB_HASH0, i, past = 0;
    for (i = 0; i < sizeof blk_q; ++i) blk_q[i] = 0xA5;
    if (!check(quant_quantize(&src, &dst, &a) == QUANT_OK, what, (int)row)) blk_name(t, " row ", row);
    for (i = 0; i < nbytes; ++i) h = emb_hash(h, blk_q[i]);
    for (; i < sizeof blk_q; ++i) past |= blk_q[i] ^ 0xA5u;
    if (!check(past == 0, "block encode wrote past its row", (int)row)) blk_name(t, " row ", row);
    return h;
}

static void blocks(void)
{
    int ti;
    for (ti = 0; ti < EMB_BLK_TYPES; ++ti) {
        const emb_blk_type *bt = &emb_blk_types[ti];
        const quant_dtype t = (quant_dtype)(QUANT_Q4_0 + ti);
        const uint32_t rb = EMB_BLK_COLS / bt->block_elems * bt->block_bytes, n = bt->nblk * bt->block_elems;
        const quant_attrs a = quant_attrs_default();
        quant_tensor src, dst;
        uint32_t r, b, i, h;
        check(quant_dtype_bytes(t, (int64_t)bt->block_elems) == bt->block_bytes && rb <= sizeof blk_q &&
              n <= BLK_MAX_ELEMS, "block type's size", ti);
        if (rb > sizeof blk_q || n > BLK_MAX_ELEMS) continue;

        for (r = 0; r < bt->rows; ++r) {
            const emb_blk_row *row = &emb_blk_rows[bt->row0 + r];
            const uint32_t *in = &emb_blk_in[(bt->row0 + r) * EMB_BLK_COLS];
            for (i = 0; i < EMB_BLK_COLS; ++i) blk_x[i] = emb_f(in[i]);
            h = blk_encode(t, QUANT_F32, rb, "block encode status", row->row);
            if (!check(h == row->enc_hash, "block encode (f32 in), ggml row", (int)row->row)) {
                blk_name(t, " row ", row->row);
                put_hex(blk_q, rb);
            }
            /* its decoding: ggml's decoding of ggml's bytes when they are the same */
            src = ten(t, 2, 1, EMB_BLK_COLS, blk_q);
            dst = ten(QUANT_F32, 2, 1, EMB_BLK_COLS, blk_y);
            check(quant_dequantize(&src, &dst, &a) == QUANT_OK, "block round trip status", (int)row->row);
            if (!check(hash_f32(blk_y, EMB_BLK_COLS) == row->rt_hash, "block round trip, ggml row", (int)row->row))
                blk_name(t, " row ", row->row);
            if (row->flags & 1) { /* every value a bf16 */
                for (i = 0; i < EMB_BLK_COLS; ++i) blk_x16[i] = (uint16_t)(in[i] >> 16);
                h = blk_encode(t, QUANT_BF16, rb, "block encode status (bf16)", row->row);
                if (!check(h == row->enc_hash, "block encode (bf16 in), ggml row", (int)row->row)) blk_name(t, " row ", row->row);
            }
            if (row->flags & 2) { /* every value an f16 */
                for (i = 0; i < EMB_BLK_COLS; ++i) blk_x16[i] = emb_f16_exact(in[i]);
                h = blk_encode(t, QUANT_F16, rb, "block encode status (f16)", row->row);
                if (!check(h == row->enc_hash, "block encode (f16 in), ggml row", (int)row->row)) blk_name(t, " row ", row->row);
            }
        }

        /* the file's blocks, all of them in one call, hashed block by block */
        src = ten(t, 2, (int64_t)bt->nblk, (int64_t)bt->block_elems, (void *)(uintptr_t)&emb_blk_bytes[bt->byte0]);
        dst = ten(QUANT_F32, 2, (int64_t)bt->nblk, (int64_t)bt->block_elems, blk_y);
        check(quant_dequantize(&src, &dst, &a) == QUANT_OK, "block decode status", ti);
        for (b = 0; b < bt->nblk; ++b)
            if (!check(hash_f32(blk_y + b * bt->block_elems, bt->block_elems) == emb_blk_dec[bt->blk0 + b],
                       "block decode (f32), ggml block", (int)b)) {
                blk_name(t, " block ", b);
                put_hex(&emb_blk_bytes[bt->byte0 + b * bt->block_bytes], bt->block_bytes);
            }
        for (i = 0; i < 2; ++i) {
            const int bf = i == 0;
            dst = ten(bf ? QUANT_BF16 : QUANT_F16, 2, (int64_t)bt->nblk, (int64_t)bt->block_elems, blk_y16);
            check(quant_dequantize(&src, &dst, &a) == QUANT_OK, "block decode status (16-bit)", ti);
            h = EMB_HASH0;
            for (b = 0; b < n; ++b) h = emb_hash(h, bf ? emb_canon_bf16(blk_y16[b]) : emb_canon_f16(blk_y16[b]));
            if (!check(h == (bf ? bt->bf16_hash : bt->f16_hash), bf ? "block decode (bf16), type" : "block decode (f16), type", ti))
                blk_name(t, 0, 0);
        }
    }
}
#endif


#ifndef QUANT_NO_REQUANT
/* requantize against the transcribed references (TFLite's two builds,
   XNNPACK's fp32 fmagic): per tensor and per channel (the last dim, 12
   channels: a vector kernel's whole vectors and a scalar tail), into s8,
   u8 and s16, every shift with accumulators that do not wrap int32 there */
#define RQ_ROWS 5
#define RQ_CH 12
static int32_t rq_acc[RQ_ROWS * RQ_CH];
static uint8_t rq_out[RQ_ROWS * RQ_CH * 2 + 4];
static void requantize(void)
{
    static const quant_dtype outs[3] = { QUANT_S8, QUANT_U8, QUANT_S16 };
    static const int32_t lims[3][2] = { { -128, 127 }, { 0, 255 }, { -32768, 32767 } };
    int32_t m[RQ_CH], sh[RQ_CH];
    float sc[RQ_CH];
    uint32_t st = 2463534242u;
    int rnd, o, pc, shift, i, bad = 0, runs = 0;
    for (shift = -31; shift <= 30; ++shift)
        for (rnd = 0; rnd < 3; ++rnd)
            for (o = 0; o < 3; ++o)
                for (pc = 0; pc < 2; ++pc) {
                    quant_tensor ts = ten(QUANT_S32, 2, RQ_ROWS, RQ_CH, rq_acc), td = ten(outs[o], 2, RQ_ROWS, RQ_CH, rq_out);
                    quant_requant rq;
                    const int32_t zp = o == 1 ? 128 : o == 2 ? -300 : 5;
                    const int32_t lo = o == 2 ? -20000 : lims[o][0], hi = lims[o][1];
                    int c;
                    for (c = 0; c < RQ_CH; ++c) {
                        st ^= st << 13; st ^= st >> 17; st ^= st << 5;
                        m[c] = c == 0 ? 0 : c == 1 ? 0x7FFFFFFF : c == 2 ? 0x40000000 : (int32_t)(st >> 1);
                        sh[c] = pc ? (shift + 31 + c * 5) % 62 - 31 : shift;
                        sc[c] = (float)(st >> 8) * 5.9604645e-8f * (shift > 0 ? 4.0f : 1.0f / (float)(1u << (-shift & 15)));
                        if (sc[c] < 1e-30f) sc[c] = 1e-30f;
                    }
                    for (i = 0; i < RQ_ROWS * RQ_CH; ++i) {
                        const int ci = i % RQ_CH, k = pc ? sh[ci] : shift;
                        st ^= st << 13; st ^= st >> 17; st ^= st << 5;
                        rq_acc[i] = i == 0 ? INT32_MIN : i == 1 ? INT32_MAX : (int32_t)st >> (st & 31);
                        if (k > 0) rq_acc[i] = (int32_t)((uint32_t)rq_acc[i] >> 1) >> k; /* no wrap of acc * 2^k */
                    }
                    rq.rounding = (quant_requant_rounding)rnd;
                    rq.qtype = pc ? QUANT_PER_CHANNEL : QUANT_PER_TENSOR;
                    rq.axis = -1;
                    rq.multipliers = m; rq.shifts = sh; rq.scales = sc;
                    rq.n = pc ? RQ_CH : 1;
                    rq.zp = zp; rq.act_min = lo; rq.act_max = hi;
                    ++runs;
                    if (!check(quant_requantize(&ts, &td, &rq) == QUANT_OK, "requantize status", runs)) continue;
                    for (i = 0; i < RQ_ROWS * RQ_CH; ++i) {
                        const int ci = pc ? i % RQ_CH : 0;
                        int64_t v = rnd == 2 ? rqref_xnn_requantize_fp32_fmagic(rq_acc[i], sc[ci], zp, lo, hi)
                                  : (int64_t)(rnd == 0 ? rqref_tflite_mbqm_double(rq_acc[i], m[ci], sh[ci])
                                                       : rqref_tflite_mbqm_single(rq_acc[i], m[ci], sh[ci])) + zp;
                        int32_t got;
                        v = v < lo ? lo : v > hi ? hi : v;
                        got = o == 0 ? (int8_t)rq_out[i] : o == 1 ? rq_out[i] : (int16_t)((const int16_t *)(const void *)rq_out)[i];
                        if (got != v) ++bad;
                    }
                }
    check(bad == 0, "requantize against the references", bad);
    {   /* bad input: the status, dst untouched */
        quant_tensor ts = ten(QUANT_S32, 2, 1, 4, rq_acc), td = ten(QUANT_S8, 2, 1, 4, rq_out);
        quant_requant rq;
        int32_t mm = 1 << 30, ss = 31;
        for (i = 0; i < 4; ++i) rq_out[i] = 0xA5;
        rq.rounding = QUANT_RQ_DOUBLE; rq.qtype = QUANT_PER_TENSOR; rq.axis = 0;
        rq.multipliers = &mm; rq.shifts = &ss; rq.scales = sc; rq.n = 1; rq.zp = 0; rq.act_min = -128; rq.act_max = 127;
        check(quant_requantize(&ts, &td, &rq) == QUANT_ERR_SCALE_VALUE, "requantize shift 31", 0);
        ss = 0; rq.act_max = 128;
        check(quant_requantize(&ts, &td, &rq) == QUANT_ERR_ATTR, "requantize act_max 128", 0);
        rq.act_max = 127; rq.n = 2;
        check(quant_requantize(&ts, &td, &rq) == QUANT_ERR_SCALES, "requantize n 2", 0);
        for (i = 0; i < 4; ++i) check(rq_out[i] == 0xA5, "requantize dst untouched", i);
    }
    {
        int32_t qm = 0;
        int qs_ = 0;
        check(quant_quantize_multiplier(0.0035, &qm, &qs_) == QUANT_OK && qm == 1924145349 && qs_ == -8,
              "quant_quantize_multiplier(0.0035)", qm);
    }
}
#endif

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
#ifndef QUANT_NO_BLOCKS
    blocks();
#endif
#ifndef QUANT_NO_REQUANT
    requantize();
#endif

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
