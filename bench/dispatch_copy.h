#ifndef DISPATCH_COPY_H
#define DISPATCH_COPY_H
/* the baseline-flags build of quant.h (quant.h's types must be declared first) */
int disp_quantize(const quant_tensor *src, quant_tensor *dst, const quant_attrs *attrs);
int disp_dequantize(const quant_tensor *src, quant_tensor *dst, const quant_attrs *attrs);
const char *disp_backend(void);
#endif
