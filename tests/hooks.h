/* tests/hooks.h - quant.h's internal kernels and constants for the tests
   that hold one backend's kernel against the scalar one (test_backend,
   test_formats). tests/impl.c defines them next to the implementation, so
   these programs link the build's one compiled copy of it (and its
   QUANT_STREAM_BYTES=256 twin) rather than each compiling its own. */
#ifndef QUANT_TEST_HOOKS_H
#define QUANT_TEST_HOOKS_H
#include <stddef.h>
#include <stdint.h>

typedef struct {
    int32_t zp_pack, zp_fast;   /* QUANT__ZP_PACK, QUANT__ZP_FAST */
    unsigned f_u8, f_recip, f_recip_given, f_e5m2, f_inf_nan; /* QUANT__F_* kernel flags */
    size_t block;               /* QUANT__BLOCK */
    int simd_any;               /* QUANT__SIMD_ANY */
} hook_consts;
extern const hook_consts hook_k;

/* the op layer's kernel calls: quant__f32_to_i8 and its kin */
void hook_f32_to_i8(const float *x, uint8_t *q, size_t n, const float *s, size_t ss, const int32_t *z, size_t zs,
                    size_t per, unsigned f);
void hook_i8_to_f32(const uint8_t *q, float *y, size_t n, const float *s, size_t ss, const int32_t *z, size_t zs,
                    size_t per, unsigned f);
void hook_i32_to_f32(const int32_t *q, float *y, size_t n, const float *s, size_t ss, const int32_t *z, size_t zs,
                     size_t per);
void hook_f32_to_f8(const float *x, uint8_t *q, size_t n, const float *s, size_t ss, size_t per, unsigned f);
void hook_f8_to_f32(const uint8_t *q, float *y, size_t n, const float *s, size_t ss, size_t per, unsigned f);
/* f16 (bf 0) and bf16 (bf 1) to f32 and back, by the backend's vectors
   (the scalar functions in a scalar build), and one value by the scalar code */
void hook_widen16(const uint16_t *h, float *x, size_t n, int bf);
void hook_narrow16(const float *x, uint16_t *h, size_t n, int bf);
uint16_t hook_f32_to_f16(float f);
uint16_t hook_f32_to_bf16(float f);
float hook_f16_to_f32(uint16_t h);
float hook_bf16_to_f32(uint16_t h);
#endif
