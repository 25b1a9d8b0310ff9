#ifndef DISPATCH_COPY_H
#define DISPATCH_COPY_H
/* the baseline-flags build of quant.h (quant.h's types must be declared first) */
int disp_quantize(const quant_tensor *src, quant_tensor *dst, const quant_attrs *attrs);
int disp_dequantize(const quant_tensor *src, quant_tensor *dst, const quant_attrs *attrs);
void disp_bf16_to_s8(const uint16_t *src, int8_t *dst, size_t n, float scale, int32_t zp);
/* quant_{u4,s4}_to_{f32,f16,bf16}: sgn 1 for s4; out 0 f32, 1 f16, 2 bf16 */
void disp_w4(const uint8_t *src, void *dst, size_t n, const float *scales, const uint8_t *zps, size_t g, int sgn,
             int out);
int disp_choose(const quant_tensor *src, quant_dtype qdt, quant_scheme scheme, const quant_attrs *attrs,
                quant_tensor *scales, quant_tensor *zps);
int disp_choose_quantize(const quant_tensor *src, quant_tensor *dst, quant_scheme scheme, const quant_attrs *attrs,
                         quant_tensor *scales, quant_tensor *zps);
const char *disp_backend(void);
#endif
