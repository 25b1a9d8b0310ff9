/* QUANT_NO_F8 and QUANT_ONLY_EXACT: what they leave out answers with the
   documented status, and what they keep still works. */
#define QUANT_NO_F8
#define QUANT_ONLY_EXACT
#define QUANT_IMPLEMENTATION
#include "quant.h"

#include <stdio.h>

int main(void)
{
    float x[2] = { 1.0f, -0.75f }, s = 0.25f;
    uint8_t q[2] = { 0xA5, 0xA5 };
    quant_tensor tf = { QUANT_F32, 1, { 2 }, x }, tq = { QUANT_F8_E4M3, 1, { 2 }, q };
    quant_attrs a = quant_attrs_default();
    int bad = 0;
    a.scales = &s;
    a.n_scales = 1;
    bad |= quant_quantize(&tf, &tq, &a) != QUANT_ERR_DTYPE;          /* f8 left out */
    tq.dtype = QUANT_S8;
    a.rounding = QUANT_ROUND_TORCH;
    bad |= quant_quantize(&tf, &tq, &a) != QUANT_ERR_ATTR;           /* roundings left out */
    bad |= q[0] != 0xA5 || q[1] != 0xA5;                             /* and nothing written */
    a.rounding = QUANT_ROUND_EXACT;
    bad |= quant_quantize(&tf, &tq, &a) != QUANT_OK;                 /* exact s8 still works */
    bad |= (int8_t)q[0] != 4 || (int8_t)q[1] != -3;
    printf("config_macros: %s\n", bad ? "FAILED" : "ok");
    return bad;
}
