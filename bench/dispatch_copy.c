/* quant.h as a project that builds with no -march gets it: on x86-64,
   runtime dispatch. The benchmark times it next to the copy built with
   the Meson `simd` option's flags (QUANT_STATIC keeps the two apart). */
#define QUANT_STATIC
#define QUANT_IMPLEMENTATION
#include "../quant.h"
#include "dispatch_copy.h"

int disp_quantize(const quant_tensor *src, quant_tensor *dst, const quant_attrs *attrs)
{
    return (int)quant_quantize(src, dst, attrs);
}
int disp_dequantize(const quant_tensor *src, quant_tensor *dst, const quant_attrs *attrs)
{
    return (int)quant_dequantize(src, dst, attrs);
}
void disp_bf16_to_s8(const uint16_t *src, int8_t *dst, size_t n, float scale, int32_t zp)
{
    quant_bf16_to_s8(src, dst, n, scale, zp);
}
void disp_w4(const uint8_t *src, void *dst, size_t n, const float *scales, const uint8_t *zps, size_t g, int sgn,
             int out)
{
    switch (sgn * 3 + out) {
    case 0: quant_u4_to_f32(src, (float *)dst, n, scales, zps, g); break;
    case 1: quant_u4_to_f16(src, (uint16_t *)dst, n, scales, zps, g); break;
    case 2: quant_u4_to_bf16(src, (uint16_t *)dst, n, scales, zps, g); break;
    case 3: quant_s4_to_f32(src, (float *)dst, n, scales, zps, g); break;
    case 4: quant_s4_to_f16(src, (uint16_t *)dst, n, scales, zps, g); break;
    default: quant_s4_to_bf16(src, (uint16_t *)dst, n, scales, zps, g); break;
    }
}
int disp_choose(const quant_tensor *src, quant_dtype qdt, quant_scheme scheme, const quant_attrs *attrs,
                quant_tensor *scales, quant_tensor *zps)
{
    return (int)quant_choose_qparams(src, qdt, scheme, attrs, scales, zps);
}
int disp_choose_quantize(const quant_tensor *src, quant_tensor *dst, quant_scheme scheme, const quant_attrs *attrs,
                         quant_tensor *scales, quant_tensor *zps)
{
    return (int)quant_choose_and_quantize(src, dst, scheme, attrs, scales, zps);
}
const char *disp_backend(void) { return quant_backend(); }
