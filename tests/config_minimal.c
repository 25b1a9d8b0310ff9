/* QUANT_MINIMAL, alone or with one QUANT_WITH_ macro (given with -D): each
   feature it leaves out answers with its documented status and writes
   nothing, each feature kept back with QUANT_WITH_ works, and exact s8
   works in every build. compile.sh builds this once per QUANT_WITH_ macro. */
#define QUANT_MINIMAL
#define QUANT_IMPLEMENTATION
#include "quant.h"

#include <stdio.h>
#include <string.h>

static int bad;

static void expect(int ok, const char *what)
{
    if (!ok) {
        printf("config_minimal: %s\n", what);
        bad = 1;
    }
}

int main(void)
{
    float x[4] = { 1.0f, -0.75f, 0.5f, 2.0f }, s = 0.25f;
    uint16_t h[4] = { 0x3C00, 0x3C00, 0x3C00, 0x3C00 };
    uint8_t q[4] = { 0xA5, 0xA5, 0xA5, 0xA5 };
    int64_t strides[QUANT_MAX_RANK] = { 1 };
    quant_tensor tf = { QUANT_F32, 1, { 4 }, x }, tq = { QUANT_F8_E4M3, 1, { 4 }, q };
    quant_tensor th = { QUANT_F16, 1, { 4 }, h };
    quant_attrs a = quant_attrs_default();
    quant_status st;
    a.scales = &s;
    a.n_scales = 1;

    st = quant_quantize(&tf, &tq, &a);
#ifdef QUANT_WITH_F8
    expect(st == QUANT_OK && q[0] == 0x48, "f8 kept"); /* 4.0 in e4m3 */
#else
    expect(st == QUANT_ERR_DTYPE && q[0] == 0xA5, "f8 left out");
#endif
    memset(q, 0xA5, sizeof q);
    tq.dtype = QUANT_S8;
    a.rounding = QUANT_ROUND_TORCH;
    st = quant_quantize(&tf, &tq, &a);
#ifdef QUANT_WITH_ROUNDINGS
    expect(st == QUANT_OK && q[1] == (uint8_t)-3, "roundings kept");
#else
    expect(st == QUANT_ERR_ATTR && q[0] == 0xA5, "roundings left out");
#endif
    memset(q, 0xA5, sizeof q);
    a.rounding = QUANT_ROUND_EXACT;

    tq.dtype = QUANT_S4;
    st = quant_quantize(&tf, &tq, &a);
#ifdef QUANT_WITH_4BIT
    expect(st == QUANT_OK && q[0] == 0xD4, "4-bit kept");
#else
    expect(st == QUANT_ERR_DTYPE && q[0] == 0xA5, "4-bit left out");
#endif
    memset(q, 0xA5, sizeof q);
    tq.dtype = QUANT_S8;

    st = quant_quantize(&th, &tq, &a);
#ifdef QUANT_WITH_HALF
    expect(st == QUANT_OK && q[0] == 4, "f16 kept");
#else
    expect(st == QUANT_ERR_DTYPE && q[0] == 0xA5, "f16 left out");
#endif
    memset(q, 0xA5, sizeof q);

    a.qtype = QUANT_PER_GROUP;
    a.group_shape[0] = 4;
    st = quant_quantize(&tf, &tq, &a);
#ifdef QUANT_WITH_GROUPS
    expect(st == QUANT_OK && q[0] == 4, "groups kept");
#else
    expect(st == QUANT_ERR_QTYPE && q[0] == 0xA5, "groups left out");
#endif
    memset(q, 0xA5, sizeof q);
    a = quant_attrs_default();
    a.scales = &s;
    a.n_scales = 1;

#ifdef QUANT_WITH_STATUS_TEXT
    expect(strcmp(quant_status_str(QUANT_ERR_QTYPE), "ERR_QTYPE") != 0, "status sentences kept");
#else
    expect(strcmp(quant_status_str(QUANT_ERR_QTYPE), "ERR_QTYPE") == 0, "short status names");
#endif

#ifdef QUANT_WITH_PARSE
    expect(quant_attrs_set(&a, "axis", "-1") == QUANT_OK && a.axis == -1, "parse kept");
    a.axis = 1;
#endif
#ifdef QUANT_WITH_CHOOSE
    {
        float cs = 0.0f;
        quant_tensor ts = { QUANT_F32, 1, { 1 }, &cs };
        expect(quant_choose_qparams(&tf, QUANT_S8, QUANT_SYMMETRIC, NULL, &ts, NULL) == QUANT_OK && cs == 2.0f / 127.0f,
               "choose kept");
    }
#endif
#ifdef QUANT_WITH_EXPLAIN
    {
        char msg[256];
        quant_explain(QUANT_OP_QUANTIZE, &tf, NULL, NULL, &tq, &a, msg, sizeof msg);
        expect(msg[0] != '\0', "explain kept");
    }
#endif
#ifdef QUANT_WITH_PLAN
    {
        quant_plan plan;
        expect(quant_prepare(&plan, QUANT_OP_QUANTIZE, &tf, NULL, NULL, &tq, &a) == QUANT_OK &&
               quant_run(&plan, &tf, NULL, NULL, &tq) == QUANT_OK && q[0] == 4, "plan kept");
        memset(q, 0xA5, sizeof q);
    }
#endif

    tq.dtype = QUANT_F4_E2M1;
    a.tensor_scale = 0.5f;
    st = quant_quantize(&tf, &tq, &a);
#ifdef QUANT_WITH_MX
    expect(st == QUANT_OK && q[0] == 0xF7, "f4 and tensor_scale kept"); /* 8 -> 6, -6 */
#else
    expect(st == QUANT_ERR_DTYPE && q[0] == 0xA5, "f4 left out");
    tq.dtype = QUANT_S8;
    st = quant_quantize(&tf, &tq, &a);
    expect(st == QUANT_ERR_ATTR && q[0] == 0xA5, "tensor_scale left out");
#endif
    memset(q, 0xA5, sizeof q);
    a.tensor_scale = 0.0f;
    tq.dtype = QUANT_S8;

    tq.dtype = QUANT_S16;
    {
        int16_t q16[4] = { 0x5A5A, 0x5A5A, 0x5A5A, 0x5A5A };
        tq.data = q16;
        st = quant_quantize(&tf, &tq, &a);
#ifdef QUANT_WITH_S16
        expect(st == QUANT_OK && q16[0] == 4 && q16[1] == -3, "s16 kept");
#else
        expect(st == QUANT_ERR_DTYPE && q16[0] == 0x5A5A, "s16 left out");
#endif
        tq.data = q;
    }
    tq.dtype = QUANT_S8;

    {
        /* one q8_0 block of -16 .. 15: d = 16/127, element 31 is rne(15 * 127/16) = 119 */
        float xb[32];
        uint8_t blk[34];
        int i;
        quant_tensor tx = { QUANT_F32, 1, { 32 }, xb }, tb = { (quant_dtype)QUANT_Q8_0, 1, { 32 }, blk };
        for (i = 0; i < 32; ++i) xb[i] = (float)(i - 16);
        memset(blk, 0xA5, sizeof blk);
#ifdef QUANT_WITH_BLOCKS
        a.scales = NULL; /* a block holds its own */
        a.n_scales = 0;
#endif
        st = quant_quantize(&tx, &tb, &a);
#ifdef QUANT_WITH_BLOCKS
        expect(st == QUANT_OK && blk[33] == 119 && (int8_t)blk[2] == -127, "blocks kept");
#else
        expect(st == QUANT_ERR_DTYPE && blk[0] == 0xA5 && blk[33] == 0xA5, "blocks left out");
#endif
        a.scales = &s;
        a.n_scales = 1;
    }

    a.src_strides = strides;
    st = quant_quantize(&tf, &tq, &a);
#ifdef QUANT_WITH_STRIDES
    expect(st == QUANT_OK && q[0] == 4, "strides kept");
#else
    expect(st == QUANT_ERR_STRIDE && q[0] == 0xA5, "strides left out");
#endif
    memset(q, 0xA5, sizeof q);
    a.src_strides = NULL;

    st = quant_quantize(&tf, &tq, &a); /* exact s8, in every build */
    expect(st == QUANT_OK && q[0] == 4 && (int8_t)q[1] == -3 && q[2] == 2 && q[3] == 8, "exact s8");
    printf("config_minimal: %s\n", bad ? "FAILED" : "ok");
    return bad;
}
