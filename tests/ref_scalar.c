/* The scalar backend, compiled into the same program as the backend under
   test (QUANT_STATIC keeps the two copies apart). Its kernels are reached
   through these wrappers. */
#define QUANT_STATIC
#undef QUANT_SIMD
#define QUANT_SIMD QUANT_SIMD_SCALAR
#define QUANT_IMPLEMENTATION
#include "../quant.h"
#include "ref_scalar.h"

void ref_f32_to_i8(const float *src, uint8_t *dst, size_t n, const float *scale, size_t sstep,
                   const int32_t *zp, size_t zstep, unsigned flags)
{
    quant__f32_to_i8(src, dst, n, scale, sstep, zp, zstep, 0, flags);
}
void ref_i8_to_f32(const uint8_t *src, float *dst, size_t n, const float *scale, size_t sstep,
                   const int32_t *zp, size_t zstep, unsigned flags)
{
    quant__i8_to_f32(src, dst, n, scale, sstep, zp, zstep, 0, flags);
}
void ref_i32_to_f32(const int32_t *src, float *dst, size_t n, const float *scale, size_t sstep,
                    const int32_t *zp, size_t zstep)
{
    quant__i32_to_f32(src, dst, n, scale, sstep, zp, zstep, 0);
}
void ref_f32_to_f8(const float *src, uint8_t *dst, size_t n, const float *scale, size_t sstep, unsigned flags)
{
    quant__f32_to_f8(src, dst, n, scale, sstep, 0, flags);
}
void ref_f8_to_f32(const uint8_t *src, float *dst, size_t n, const float *scale, size_t sstep, unsigned flags)
{
    quant__f8_to_f32(src, dst, n, scale, sstep, 0, flags);
}
const char *ref_backend(void) { return quant_backend(); }

quant_status ref_quantize(const quant_tensor *src, quant_tensor *dst, const quant_attrs *attrs)
{
    return quant_quantize(src, dst, attrs);
}
quant_status ref_dequantize(const quant_tensor *src, quant_tensor *dst, const quant_attrs *attrs)
{
    return quant_dequantize(src, dst, attrs);
}
quant_status ref_dynamic_quantize(const quant_tensor *src, const quant_tensor *scales, const quant_tensor *zps,
                                  quant_tensor *dst, const quant_attrs *attrs)
{
    return quant_dynamic_quantize(src, scales, zps, dst, attrs);
}
quant_status ref_dynamic_dequantize(const quant_tensor *src, const quant_tensor *scales, const quant_tensor *zps,
                                    quant_tensor *dst, const quant_attrs *attrs)
{
    return quant_dynamic_dequantize(src, scales, zps, dst, attrs);
}
quant_status ref_choose_qparams(const quant_tensor *src, quant_dtype qdt, quant_scheme scheme,
                                const quant_attrs *attrs, quant_tensor *scales, quant_tensor *zps)
{
    return quant_choose_qparams(src, qdt, scheme, attrs, scales, zps);
}
quant_status ref_choose_and_quantize(const quant_tensor *src, quant_tensor *dst, quant_scheme scheme,
                                     const quant_attrs *attrs, quant_tensor *scales, quant_tensor *zps)
{
    return quant_choose_and_quantize(src, dst, scheme, attrs, scales, zps);
}
