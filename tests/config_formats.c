/* QUANT_NO_4BIT, QUANT_NO_HALF, QUANT_NO_GROUPS, QUANT_SHORT_STATUS and QUANT_NO_PARSE:
   what they leave out answers with the documented status, nothing is
   written, and what they keep still works. */
#define QUANT_NO_4BIT
#define QUANT_NO_HALF
#define QUANT_NO_GROUPS
#define QUANT_SHORT_STATUS
#define QUANT_NO_PARSE
#define QUANT_IMPLEMENTATION
#include "quant.h"

#include <stdio.h>
#include <string.h>

int main(void)
{
    float x[2] = { 1.0f, -0.75f }, s = 0.25f;
    uint16_t h[2] = { 0x3C00, 0x3C00 };
    uint8_t q[2] = { 0xA5, 0xA5 }, z4 = 0;
    quant_tensor tf = { QUANT_F32, 1, { 2 }, x }, tq = { QUANT_S4, 1, { 2 }, q };
    quant_tensor th = { QUANT_F16, 1, { 2 }, h }, ts = { QUANT_BF16, 1, { 1 }, h }, tz = { QUANT_U4, 1, { 1 }, &z4 };
    quant_attrs a = quant_attrs_default();
    int bad = 0;
    a.scales = &s;
    a.n_scales = 1;
    bad |= quant_quantize(&tf, &tq, &a) != QUANT_ERR_DTYPE;                 /* 4-bit left out */
    tq.dtype = QUANT_S8;
    bad |= quant_quantize(&th, &tq, &a) != QUANT_ERR_DTYPE;                 /* 16-bit floats left out */
    bad |= quant_dynamic_quantize(&tf, &ts, NULL, &tq, &a) != QUANT_ERR_SCALES;
    ts.dtype = QUANT_F32; ts.data = &s;
    bad |= quant_dynamic_quantize(&tf, &ts, &tz, &tq, &a) != QUANT_ERR_ZPS;
    a.qtype = QUANT_PER_GROUP; a.group_shape[0] = 1;
    bad |= quant_quantize(&tf, &tq, &a) != QUANT_ERR_QTYPE;                 /* groups left out */
    bad |= q[0] != 0xA5 || q[1] != 0xA5;                                    /* nothing written */
    bad |= strcmp(quant_status_str(QUANT_ERR_QTYPE), "ERR_QTYPE") != 0;     /* short names */
    bad |= strcmp(quant_status_str(QUANT_OK), "ok") != 0;
    a = quant_attrs_default();
    a.scales = &s; a.n_scales = 1;
    bad |= quant_quantize(&tf, &tq, &a) != QUANT_OK;                        /* s8 still works */
    bad |= (int8_t)q[0] != 4 || (int8_t)q[1] != -3;
    printf("config_formats: %s\n", bad ? "FAILED" : "ok");
    return bad;
}
