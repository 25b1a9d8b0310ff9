#ifndef REF_SCALAR_H
#define REF_SCALAR_H
#include <stddef.h>
#include <stdint.h>
void ref_f32_to_i8(const float *src, uint8_t *dst, size_t n, const float *scale, size_t sstep,
                   const int32_t *zp, size_t zstep, unsigned flags);
void ref_i8_to_f32(const uint8_t *src, float *dst, size_t n, const float *scale, size_t sstep,
                   const int32_t *zp, size_t zstep, unsigned flags);
void ref_i32_to_f32(const int32_t *src, float *dst, size_t n, const float *scale, size_t sstep,
                    const int32_t *zp, size_t zstep);
void ref_f32_to_f8(const float *src, uint8_t *dst, size_t n, const float *scale, size_t sstep, unsigned flags);
void ref_f8_to_f32(const uint8_t *src, float *dst, size_t n, const float *scale, size_t sstep, unsigned flags);
const char *ref_backend(void);
/* the operations of the scalar copy (quant.h's types must be declared first) */
#ifdef QUANT_H_INCLUDED
quant_status ref_quantize(const quant_tensor *src, quant_tensor *dst, const quant_attrs *attrs);
quant_status ref_dequantize(const quant_tensor *src, quant_tensor *dst, const quant_attrs *attrs);
quant_status ref_dynamic_quantize(const quant_tensor *src, const quant_tensor *scales, const quant_tensor *zps,
                                  quant_tensor *dst, const quant_attrs *attrs);
quant_status ref_dynamic_dequantize(const quant_tensor *src, const quant_tensor *scales, const quant_tensor *zps,
                                    quant_tensor *dst, const quant_attrs *attrs);
quant_status ref_choose_qparams(const quant_tensor *src, quant_dtype qdt, quant_scheme scheme,
                                const quant_attrs *attrs, quant_tensor *scales, quant_tensor *zps);
quant_status ref_choose_and_quantize(const quant_tensor *src, quant_tensor *dst, quant_scheme scheme,
                                     const quant_attrs *attrs, quant_tensor *scales, quant_tensor *zps);
#endif
#endif
