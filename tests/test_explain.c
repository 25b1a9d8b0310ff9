/* quant_explain: the line for each kind of bad input, the status it
   returns against the op's own, truncation, and that nothing is written. */
#include "../quant.h"
#include "check.h"

#define LINE 200

static char line[LINE];

/* explain, then the op itself on the same arguments: the same status, the
   expected line, and dst untouched by explain */
static void expect(quant_op op, const quant_tensor *src, const quant_tensor *scales, const quant_tensor *zps,
                   quant_tensor *dst, const quant_attrs *a, quant_status want, const char *text)
{
    quant_status got, op_st;
    memset(line, 'Z', sizeof line);
    got = quant_explain(op, src, scales, zps, dst, a, line, sizeof line);
    CHECK(got == want, "%s: explain gave %d, want %d (%s)", text, (int)got, (int)want, line);
    CHECK(strcmp(line, text) == 0, "line '%s', want '%s'", line, text);
    switch (op) {
    case QUANT_OP_QUANTIZE: op_st = quant_quantize(src, dst, a); break;
    case QUANT_OP_DEQUANTIZE: op_st = quant_dequantize(src, dst, a); break;
    case QUANT_OP_DYNAMIC_QUANTIZE: op_st = quant_dynamic_quantize(src, scales, zps, dst, a); break;
    default: op_st = quant_dynamic_dequantize(src, scales, zps, dst, a); break;
    }
    CHECK(op_st == got, "%s: the op gave %d, explain %d", text, (int)op_st, (int)got);
}

static float w[64 * 27], sc[64], y[64 * 27];
static int8_t q[64 * 27];
static int64_t zl[4] = { 0, 1, 5000000000ll, 2 };
static int32_t z32[64];
static uint16_t hs[4];

/* Random arguments, most of them a step away from valid: explain must give
   each op's own status and a line that is not empty, has no newline and
   fits the buffer. */
static void random_cases(void)
{
    static float fs[256], fsc[16];
    static uint8_t qs[256];
    static int32_t zs[16];
    static const quant_dtype fl[] = { QUANT_F32, QUANT_F16, QUANT_BF16, QUANT_S8, QUANT_UNDEF };
    static const quant_dtype qd[] = { QUANT_S8, QUANT_U8, QUANT_S4, QUANT_U4, QUANT_F8_E4M3, QUANT_S32, QUANT_F32 };
    int k;
    for (k = 0; k < 256; ++k) { fs[k] = (float)k - 100.0f; qs[k] = (uint8_t)k; }
    for (k = 0; k < 20000; ++k) {
        const int op = (int)(check_rand() % 4), quantize = op == 0 || op == 2;
        quant_tensor x = { QUANT_F32, 2, { 4, 8 }, fs }, g = { QUANT_S8, 2, { 4, 8 }, qs };
        quant_tensor sct = { QUANT_F32, 1, { 1 }, fsc }, zpt = { QUANT_S32, 1, { 1 }, zs };
        quant_tensor *f = quantize ? &x : &g, *qq = quantize ? &g : &x;
        quant_attrs c = quant_attrs_default();
        int64_t zlist[16] = { 0 };
        const quant_tensor *zuse = check_rand() % 2 ? &zpt : NULL;
        quant_status e, o;
        int j, m = (int)(check_rand() % 4);
        for (j = 0; j < 16; ++j) { fsc[j] = 0.25f; zs[j] = 0; }
        f->dtype = QUANT_F32;
        qq->dtype = qd[check_rand() % 2];
        qq->data = qs;
        f->data = fs;
        c.scales = fsc;
        c.n_scales = 1;
        if (check_rand() % 3 == 0) {
            c.qtype = QUANT_PER_CHANNEL;
            c.axis = check_rand() % 2;
            sct.dims[0] = c.axis ? 8 : 4;
            zpt.dims[0] = sct.dims[0];
            c.n_scales = (size_t)sct.dims[0];
        }
        while (m--) switch (check_rand() % 16) {
            case 0: f->dtype = fl[check_rand() % 5]; break;
            case 1: qq->dtype = qd[check_rand() % 7]; break;
            case 2: x.rank = (int)(check_rand() % 15) - 1; break;
            case 3: g.dims[check_rand() % 2] = (int64_t)(check_rand() % 10) - 1; break;
            case 4: x.dims[check_rand() % 2] = (int64_t)(check_rand() % 10) - 1; g.dims[0] = x.dims[0]; g.dims[1] = x.dims[1]; break;
            case 5: c.qtype = (quant_qtype)(check_rand() % 4); c.group_shape[0] = 1; c.group_shape[1] = (int64_t)(check_rand() % 9); break;
            case 6: c.axis = (int)(check_rand() % 7) - 3; break;
            case 7: sct.dims[0] = (int64_t)(check_rand() % 10); c.n_scales = check_rand() % 10; break;
            case 8: sct.dtype = fl[check_rand() % 5]; sct.rank = (int)(check_rand() % 3); break;
            case 9: zpt.dtype = qd[check_rand() % 7]; zpt.dims[0] = (int64_t)(check_rand() % 10); break;
            case 10: fsc[check_rand() % 16] = check_rand() % 2 ? 0.0f : 1e-39f; break;
            case 11: if (check_rand() % 2) f->data = NULL; else qq->data = NULL; break;
            case 12: qq->data = (void *)((char *)fs + 4 * (check_rand() % 8)); break;
            case 13: c.rounding = (quant_rounding)(check_rand() % 6); c.on_error = (quant_on_error)(check_rand() % 3); break;
            case 14: c.zps = zlist; c.n_zps = check_rand() % 10; zlist[check_rand() % 16] = check_rand() % 2 ? 5000000000ll : 3; break;
            default: f->data = (void *)((char *)fs + 1 + check_rand() % 3); break;
        }
        memset(line, 'Z', sizeof line);
        e = quant_explain((quant_op)op, quantize ? &x : &g, &sct, zuse, quantize ? &g : &x, &c, line, 64);
        if (op == 0) o = quant_quantize(&x, &g, &c);
        else if (op == 1) o = quant_dequantize(&g, &x, &c);
        else if (op == 2) o = quant_dynamic_quantize(&x, &sct, zuse, &g, &c);
        else o = quant_dynamic_dequantize(&g, &sct, zuse, &x, &c);
        CHECK(e == o, "case %d op %d: explain %d, op %d (%s)", k, op, (int)e, (int)o, line);
        CHECK(line[0] != '\0' && strlen(line) < 64 && strchr(line, '\n') == NULL && line[64] == 'Z',
              "case %d: line '%.70s'", k, line);
    }
}

int main(void)
{
    const quant_op DQ = QUANT_OP_DYNAMIC_QUANTIZE;
    quant_tensor src = { QUANT_F32, 4, { 64, 3, 3, 3 }, w }, dst = { QUANT_S8, 4, { 64, 3, 3, 3 }, q };
    quant_tensor st = { QUANT_F32, 1, { 64 }, sc }, zt = { QUANT_S32, 1, { 64 }, z32 };
    quant_tensor t;
    quant_attrs a = quant_attrs_default(), b;
    size_t i;
    check_cpu();
    for (i = 0; i < 64; ++i) sc[i] = 0.5f;
    for (i = 0; i < 64 * 27; ++i) w[i] = (float)i;
    memset(q, 0x5A, sizeof q);

    /* the example of the documentation: 64 scales, axis 1 has 3 channels */
    a.qtype = QUANT_PER_CHANNEL;
    expect(DQ, &src, &st, NULL, &dst, &a, QUANT_ERR_SCALES, "scales: 64 given; per_channel on axis 1 (3 channels) needs 3");
    for (i = 0; i < sizeof q; ++i) CHECK(q[i] == 0x5A, "byte %zu written", i);
    a.axis = 0;
    expect(DQ, &src, &st, NULL, &dst, &a, QUANT_OK, "ok");
    memset(q, 0x5A, sizeof q);
    zt.dims[0] = 2;
    expect(DQ, &src, &st, &zt, &dst, &a, QUANT_ERR_ZPS,
           "zps: 2 given; dims [2]; per_channel on axis 0 (64 channels) needs 1 or 64, shaped as the scales");
    zt.dtype = QUANT_F32;
    expect(DQ, &src, &st, &zt, &dst, &a, QUANT_ERR_ZPS,
           "zps: dtype f32; zero points are s8, u8, s32, s16, s4, u4, s2, u2");
    a.axis = -5;
    expect(DQ, &src, &st, NULL, &dst, &a, QUANT_ERR_AXIS, "attrs.axis: -5; per_channel over src's rank 4 takes -4 to 3");
    a.axis = -4;
    sc[7] = 0.0f;
    expect(DQ, &src, &st, NULL, &dst, &a, QUANT_ERR_SCALE_VALUE,
           "scales[7]: 0x00000000 (f32 bits); a scale needs 2^-128 < |s| < inf");
    sc[7] = -__builtin_inff();
    expect(DQ, &src, &st, NULL, &dst, &a, QUANT_ERR_SCALE_VALUE,
           "scales[7]: 0xff800000 (f32 bits); a scale needs 2^-128 < |s| < inf");
    sc[7] = 0.5f;
    t = st;
    t.dtype = QUANT_S8;
    expect(DQ, &src, &t, NULL, &dst, &a, QUANT_ERR_SCALES,
           "scales: dtype s8; scales are f32, f16, bf16, e8m0 or f8_e4m3");
    t = st;
    t.rank = 2; t.dims[0] = 8; t.dims[1] = 8;
    expect(DQ, &src, &t, NULL, &dst, &a, QUANT_ERR_SCALES, "scales: dims [8, 8]; per_channel on axis -4 (64 channels) needs 64, in 1-D");

    /* tensors */
    dst.dims[2] = 4;
    expect(DQ, &src, &st, NULL, &dst, &a, QUANT_ERR_SHAPE, "dst: dims [64, 3, 4, 3]; src's are [64, 3, 3, 3], and they must be equal");
    dst.dims[2] = 3;
    t = src;
    t.dims[3] = -3;
    expect(DQ, &t, &st, NULL, &dst, &a, QUANT_ERR_SHAPE,
           "src: dims [64, 3, 3, -3] have a negative dim or more bytes than size_t and int64 hold");
    t = src;
    t.rank = QUANT_MAX_RANK + 1;
    expect(DQ, &t, &st, NULL, &dst, &a, QUANT_ERR_RANK, QUANT_MAX_RANK == 12 ? "src: rank 13; ranks are 0 to 12" : "-");
    t = dst;
    t.dtype = QUANT_F32;
    expect(DQ, &src, &st, NULL, &t, &a, QUANT_ERR_DTYPE,
           "dst: dtype f32; quantize writes s8, u8, s16, s4, u4, s2, u2, f8_e4m3, f8_e5m2, f4_e2m1, ggml's blocks q4_0 .. nvfp4");
    t = src;
    t.dtype = (quant_dtype)77;
    expect(DQ, &t, &st, NULL, &dst, &a, QUANT_ERR_DTYPE, "src: dtype 77; quantize reads f32, f16 or bf16");
    expect(QUANT_OP_DYNAMIC_DEQUANTIZE, &src, &st, NULL, &dst, &a, QUANT_ERR_DTYPE,
           "dst: dtype s8; dequantize writes f32, f16 or bf16");
    expect(QUANT_OP_DYNAMIC_DEQUANTIZE, &src, &st, NULL, &src, &a, QUANT_ERR_DTYPE,
           "src: dtype f32; dequantize reads s8, u8, s32, s16, s4, u4, s2, u2, f8_e4m3, f8_e5m2, f4_e2m1, ggml's blocks q4_0 .. nvfp4");
    {
        /* ggml's blocks: their own errors, each with its line; each op leaves dst alone */
        quant_tensor bf = { QUANT_F32, 2, { 4, 48 }, w }, bq = { QUANT_Q8_0, 2, { 4, 48 }, q };
        quant_attrs ba = quant_attrs_default();
        float one = 1.0f;
        int64_t strides[2] = { 96, 2 };
        const char *own = "; q8_0 blocks hold their own scales: per_tensor, no scales, zero points, tensor_scale or strides";
        char want[200];
        expect(QUANT_OP_QUANTIZE, &bf, NULL, NULL, &bq, &ba, QUANT_ERR_SHAPE,
               "src: last dim 48; a q8_0 tensor's last dim is whole blocks of 32");
        bf.dims[1] = bq.dims[1] = 64;
        ba.scales = &one;
        ba.n_scales = 1;
        snprintf(want, sizeof want, "attrs.scales: a list given%s", own);
        expect(QUANT_OP_QUANTIZE, &bf, NULL, NULL, &bq, &ba, QUANT_ERR_SCALES, want);
        ba = quant_attrs_default();
        ba.qtype = QUANT_PER_CHANNEL;
        snprintf(want, sizeof want, "attrs.qtype: 1%s", own);
        expect(QUANT_OP_QUANTIZE, &bf, NULL, NULL, &bq, &ba, QUANT_ERR_QTYPE, want);
        ba = quant_attrs_default();
        ba.tensor_scale = 2.0f;
        snprintf(want, sizeof want, "attrs.tensor_scale: given%s", own);
        expect(QUANT_OP_DEQUANTIZE, &bq, NULL, NULL, &bf, &ba, QUANT_ERR_ATTR, want);
        ba = quant_attrs_default();
        snprintf(want, sizeof want, "scales: a tensor given%s", own);
        expect(QUANT_OP_DYNAMIC_DEQUANTIZE, &bq, &st, NULL, &bf, &ba, QUANT_ERR_SCALES, want);
        ba.src_strides = strides;
        snprintf(want, sizeof want, "attrs: strides given%s", own);
        expect(QUANT_OP_QUANTIZE, &bf, NULL, NULL, &bq, &ba, QUANT_ERR_STRIDE, want);
    }
    t = src;
    t.data = NULL;
    expect(DQ, &t, &st, NULL, &dst, &a, QUANT_ERR_NULL, "src: data is NULL with 1728 elements");
    expect(DQ, NULL, &st, NULL, &dst, &a, QUANT_ERR_NULL, "src is NULL");
    expect(DQ, &src, &st, NULL, NULL, &a, QUANT_ERR_NULL, "dst is NULL");
    expect(DQ, &src, NULL, NULL, &dst, &a, QUANT_ERR_NULL, "scales is NULL: the dynamic ops take a scales tensor");
    t = src;
    t.data = (void *)((char *)w + 1);
    t.rank = 1;
    t.dims[0] = 10;
    {
        quant_tensor d2 = dst, s1 = st;
        d2.rank = 1;
        d2.dims[0] = 10;
        s1.dims[0] = 1;
        expect(DQ, &t, &s1, NULL, &d2, NULL, QUANT_ERR_ALIGN, "src: data of dtype f32 needs a 4-byte boundary");
        d2.data = w + 5; /* inside src's bytes */
        t.data = w;
        expect(DQ, &t, &s1, NULL, &d2, NULL, QUANT_ERR_OVERLAP, "dst overlaps src");
        d2.data = sc;
        expect(DQ, &t, &s1, NULL, &d2, NULL, QUANT_ERR_OVERLAP, "dst overlaps the scales or the zero points");
    }

    /* attrs */
    b = a;
    b.qtype = (quant_qtype)5;
    expect(DQ, &src, &st, NULL, &dst, &b, QUANT_ERR_QTYPE, "attrs.qtype: 5; per_tensor 0, per_channel 1 or per_group 2");
    b = a;
    b.rounding = (quant_rounding)9;
    expect(DQ, &src, &st, NULL, &dst, &b, QUANT_ERR_ATTR, "attrs: rounding 9; exact 0, onednn 1, onnx 2 or torch 3");
    b = a;
    b.f8_overflow = (quant_f8_overflow)2;
    expect(DQ, &src, &st, NULL, &dst, &b, QUANT_ERR_ATTR, "attrs: f8_overflow 2; saturate 0 or inf_nan 1");
    b = a;
    b.on_error = (quant_on_error)3;
    expect(DQ, &src, &st, NULL, &dst, &b, QUANT_ERR_ATTR, "attrs: on_error 3; untouched 0 or partial 1");
    b = quant_attrs_default();
    b.qtype = QUANT_PER_GROUP;
    b.group_shape[0] = 1; b.group_shape[1] = 0;
    expect(DQ, &src, &st, NULL, &dst, &b, QUANT_ERR_ATTR,
           "attrs: group_shape 1x0x0x0; src of rank 4 needs its first entries >= 1 and the rest 0");
    b.group_shape[1] = 3; b.group_shape[2] = 3; b.group_shape[3] = 1;
    expect(DQ, &src, &st, NULL, &dst, &b, QUANT_ERR_SCALES, "scales: dims [64]; per_group 1x3x3x1 over [64, 3, 3, 3] needs 64x1x1x3, shaped as the grid or 1-D");
    b.group_shape[3] = 3;
    expect(DQ, &src, &st, NULL, &dst, &b, QUANT_OK, "ok");
    b.group_shape[0] = 2;
    expect(DQ, &src, &st, NULL, &dst, &b, QUANT_ERR_SCALES, "scales: 64 given; per_group 2x3x3x3 over [64, 3, 3, 3] needs 32x1x1x1");

    /* the static ops' lists */
    expect(QUANT_OP_DEQUANTIZE, &dst, NULL, NULL, &src, NULL, QUANT_ERR_NULL, "attrs is NULL: the static ops take their scales from attrs");
    b = quant_attrs_default();
    expect(QUANT_OP_QUANTIZE, &src, NULL, NULL, &dst, &b, QUANT_ERR_NULL, "attrs.scales is NULL: the static ops take a scales list");
    b.scales = sc;
    b.n_scales = 2;
    expect(QUANT_OP_QUANTIZE, &src, NULL, NULL, &dst, &b, QUANT_ERR_SCALES, "attrs.scales: 2 given; per_tensor needs 1");
    b.n_scales = 1;
    b.zps = zl;
    b.n_zps = 4;
    expect(QUANT_OP_QUANTIZE, &src, NULL, NULL, &dst, &b, QUANT_ERR_ZPS, "attrs.zps: 4 given; per_tensor needs 1");
    b.qtype = QUANT_PER_CHANNEL;
    b.axis = 1;
    b.n_scales = 3;
    b.n_zps = 3;
    expect(QUANT_OP_QUANTIZE, &src, NULL, NULL, &dst, &b, QUANT_ERR_ZP_VALUE, "attrs.zps[2]: 5000000000; zero points are int32");
    b.zps = NULL;
    expect(QUANT_OP_QUANTIZE, &src, NULL, NULL, &dst, &b, QUANT_ERR_NULL, "attrs.zps is NULL with n_zps 3");
    b.n_zps = 0;
    expect(QUANT_OP_QUANTIZE, &src, NULL, NULL, &dst, &b, QUANT_OK, "ok");
    {   /* f8 takes zero points of 0 only; 16-bit scales are read as such */
        quant_tensor f8 = dst, h = { QUANT_BF16, 1, { 1 }, hs };
        quant_attrs c = quant_attrs_default();
        int64_t one = 1;
        f8.dtype = QUANT_F8_E4M3;
        c.scales = sc;
        c.n_scales = 1;
        c.zps = &one;
        c.n_zps = 1;
        expect(QUANT_OP_QUANTIZE, &src, NULL, NULL, &f8, &c, QUANT_ERR_ZPS, "zps: f8 takes no zero point but 0");
        hs[0] = 0x7F80; /* bf16 +inf */
        expect(DQ, &src, &h, NULL, &dst, NULL, QUANT_ERR_SCALE_VALUE,
               "scales[0]: 0x7f800000 (f32 bits); a scale needs 2^-128 < |s| < inf");
    }

    /* the op argument, truncation, no buffer */
    CHECK(quant_explain((quant_op)4, &src, &st, NULL, &dst, &a, line, sizeof line) == QUANT_ERR_ATTR, "op 4");
    CHECK(strcmp(line, "op: 4 is not an operation") == 0, "%s", line);
    memset(line, 'Z', sizeof line);
    a.axis = 1;
    CHECK(quant_explain(DQ, &src, &st, NULL, &dst, &a, line, 10) == QUANT_ERR_SCALES, "cut");
    CHECK(strcmp(line, "scales: 6") == 0 && line[10] == 'Z', "cut to 10 bytes: '%.12s'", line);
    memset(line, 'Z', sizeof line);
    CHECK(quant_explain(DQ, &src, &st, NULL, &dst, &a, line, 1) == QUANT_ERR_SCALES && line[0] == '\0' && line[1] == 'Z',
          "cap 1");
    CHECK(quant_explain(DQ, &src, &st, NULL, &dst, &a, NULL, 0) == QUANT_ERR_SCALES, "no buffer");
    (void)y;
    random_cases();
    return check_done("test_explain");
}
