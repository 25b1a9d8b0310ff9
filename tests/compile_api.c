/* Compiles in C99, C11, C++11 and C++17 without a warning, and calls every
   public function of SPEC sections 1 and 2 once, and a prepared plan. */
#define QUANT_IMPLEMENTATION
#include "quant.h"
#include "quant.h" /* a second include must be harmless */

#include <stdio.h>
#include <string.h>

int main(void)
{
    float x[4] = { -1.0f, 0.0f, 0.5f, 300.0f }, y[4], s = 0.5f;
    int8_t s8[4];
    uint8_t u8[4], f8[4];
    int64_t zp = 1;
    quant_attrs a = quant_attrs_default();
    quant_tensor tf, tq, ts;
    quant_dtype t = QUANT_UNDEF;
    quant_plan plan;
    int bad = 0;

    memset(&tf, 0, sizeof tf);
    tf.dtype = QUANT_F32; tf.rank = 1; tf.dims[0] = 4; tf.data = x;
    tq = tf; tq.dtype = QUANT_S8; tq.data = s8;
    ts = tf; ts.dims[0] = 1; ts.data = &s;
    a.scales = &s; a.n_scales = 1; a.zps = &zp; a.n_zps = 1;

    bad |= quant_quantize(&tf, &tq, &a) != QUANT_OK;
    bad |= s8[0] != -1 || s8[1] != 1 || s8[2] != 2 || s8[3] != 127;
    tf.data = y;
    bad |= quant_dequantize(&tq, &tf, &a) != QUANT_OK;
    bad |= y[0] != -1.0f || y[3] != 63.0f;
    tf.data = x;
    bad |= quant_dynamic_quantize(&tf, &ts, NULL, &tq, NULL) != QUANT_OK;
    tf.data = y;
    bad |= quant_dynamic_dequantize(&tq, &ts, NULL, &tf, &a) != QUANT_OK;
    quant_f32_to_s8(x, s8, 4, s, 0);
    quant_f32_to_u8(x, u8, 4, s, 0);
    quant_s8_to_f32(s8, y, 4, s, 0);
    quant_u8_to_f32(u8, y, 4, s, 0);
    quant_f32_to_f8_e4m3(x, f8, 4, s);
    quant_f8_e4m3_to_f32(f8, y, 4, s);
    quant_f32_to_f8_e5m2(x, f8, 4, s);
    quant_f8_e5m2_to_f32(f8, y, 4, s);
    bad |= y[3] != 320.0f; /* 300 / 0.5 = 600 rounds to 640 in e5m2 */
    tf.data = x;
    bad |= quant_prepare(&plan, QUANT_OP_QUANTIZE, &tf, NULL, NULL, &tq, &a) != QUANT_OK;
    bad |= quant_plan_units(&plan) != 1 || quant_run(&plan, &tf, NULL, NULL, &tq) != QUANT_OK;
    bad |= quant_run_range(&plan, &tf, NULL, NULL, &tq, 0, 1) != QUANT_OK || s8[3] != 127;
    bad |= quant_status_str(QUANT_ERR_PARSE) == NULL;
    bad |= strcmp(quant_dtype_name(QUANT_F8_E5M2), "f8_e5m2") != 0;
    bad |= quant_dtype_from_name("u8", &t) != QUANT_OK || t != QUANT_U8;
    bad |= quant_attrs_set(&a, "rounding", "torch") != QUANT_OK || a.rounding != QUANT_ROUND_TORCH;
    printf("compile_api: backend %s, %s\n", quant_backend(), bad ? "FAILED" : "ok");
    return bad;
}
