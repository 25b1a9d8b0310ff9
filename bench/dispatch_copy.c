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
const char *disp_backend(void) { return quant_backend(); }
