/* tests/impl.c - the implementation, compiled once per build for the
   test programs that use only the public API (as a user's project does:
   one .c file defines QUANT_IMPLEMENTATION, the others include plainly).
   check_cpu, which needs the backend selection, is reached from them
   through check_cpu_shared, and the internal kernels test_backend and
   test_formats call through the hooks of tests/hooks.h. */
#define QUANT_IMPLEMENTATION
#include "../quant.h"
#include "check.h"

void check_cpu_shared(void);
void check_cpu_shared(void) { check_cpu(); }

#ifndef QUANT_INT8 /* the preset has no f8 or f16 kernels, and no program of it uses the hooks */
#include "hooks.h"

const hook_consts hook_k = { QUANT__ZP_PACK, QUANT__ZP_FAST, QUANT__F_U8, QUANT__F_RECIP, QUANT__F_RECIP_GIVEN,
                             QUANT__F_E5M2, QUANT__F_INF_NAN, QUANT__BLOCK, QUANT__SIMD_ANY };

void hook_f32_to_i8(const float *x, uint8_t *q, size_t n, const float *s, size_t ss, const int32_t *z, size_t zs,
                    size_t per, unsigned f)
{
    quant__f32_to_i8(x, q, n, s, ss, z, zs, per, f);
}
void hook_i8_to_f32(const uint8_t *q, float *y, size_t n, const float *s, size_t ss, const int32_t *z, size_t zs,
                    size_t per, unsigned f)
{
    quant__i8_to_f32(q, y, n, s, ss, z, zs, per, f);
}
void hook_i32_to_f32(const int32_t *q, float *y, size_t n, const float *s, size_t ss, const int32_t *z, size_t zs,
                     size_t per)
{
    quant__i32_to_f32(q, y, n, s, ss, z, zs, per);
}
void hook_f32_to_f8(const float *x, uint8_t *q, size_t n, const float *s, size_t ss, size_t per, unsigned f)
{
    quant__f32_to_f8(x, q, n, s, ss, per, f);
}
void hook_f8_to_f32(const uint8_t *q, float *y, size_t n, const float *s, size_t ss, size_t per, unsigned f)
{
    quant__f8_to_f32(q, y, n, s, ss, per, f);
}
void hook_widen16(const uint16_t *h, float *x, size_t n, int bf)
{
#if QUANT__SIMD_ANY
    quant__widen16(h, x, n, bf);
#else
    size_t i;
    for (i = 0; i < n; ++i) x[i] = bf ? quant__bf16_to_f32(h[i]) : quant__f16_to_f32(h[i]);
#endif
}
void hook_narrow16(const float *x, uint16_t *h, size_t n, int bf)
{
#if QUANT__SIMD_ANY
    quant__narrow16(x, h, n, bf);
#else
    size_t i;
    for (i = 0; i < n; ++i) h[i] = bf ? quant__f32_to_bf16(x[i]) : quant__f32_to_f16(x[i]);
#endif
}
uint16_t hook_f32_to_f16(float f) { return quant__f32_to_f16(f); }
uint16_t hook_f32_to_bf16(float f) { return quant__f32_to_bf16(f); }
float hook_f16_to_f32(uint16_t h) { return quant__f16_to_f32(h); }
float hook_bf16_to_f32(uint16_t h) { return quant__bf16_to_f32(h); }
#endif
