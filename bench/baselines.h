#ifndef BASELINES_H
#define BASELINES_H
#include <stddef.h>
#include <stdint.h>
void limit_narrow(const float *src, uint8_t *dst, size_t n);
void limit_widen(const uint8_t *src, float *dst, size_t n);
void limit_narrow16(const uint16_t *src, uint8_t *dst, size_t n);
void limit_w4_16(const uint8_t *src, uint16_t *dst, size_t n);
void limit_w4_32(const uint8_t *src, float *dst, size_t n);
void plain_quantize(const float *x, uint8_t *q, size_t n, float s, int32_t z, int is_u8, int recip);
void plain_quantize_channels(const float *x, uint8_t *q, size_t outer, size_t C, size_t inner,
                             const float *s, int32_t z, int is_u8);
void plain_dequantize(const uint8_t *q, float *y, size_t n, float s, int32_t z, int is_u8);
void plain_f32_to_f8(const float *x, uint8_t *q, size_t n, float s, int e5m2);
void plain_f8_to_f32(const uint8_t *q, float *y, size_t n, float s, int e5m2);
/* packed s4 (sgn 1) or u4 rows, a scale and a packed zero point per group
   of g; out 0 f32, 1 f16, 2 bf16 */
void plain_w4(const uint8_t *q, void *y, size_t n, const float *s, const uint8_t *zps, size_t g, int sgn, int out);
void plain_bf16_quantize(const uint16_t *x, uint8_t *q, size_t n, float s, int32_t z, int is_u8, int recip);
void plain_bf16_quantize_rows(const uint16_t *x, uint8_t *q, size_t rows, size_t len, const float *s, int32_t z,
                              int is_u8, int recip);
uint32_t limit_read(const float *src, size_t n);
/* asymmetric scales per row of len (rows 1, len n: per tensor); fused:
   each row quantized right after its range */
void plain_choose(const float *x, size_t rows, size_t len, float *s, int32_t *z, int is_u8);
void plain_choose_quantize(const float *x, uint8_t *q, size_t rows, size_t len, float *s, int32_t *z, int is_u8);

/* Peers: prepare once (outside the timing), run many times. A peer that is
   not built in, or does not do the operation, returns 0 from prepare. */
typedef struct peer peer;
peer *peer_dnnl_prepare(int quantize, int is_u8, size_t outer, size_t C, size_t inner,
                        const float *scales, int32_t zp, void *src, void *dst);
peer *peer_xnn_prepare(int quantize, int is_u8, size_t n, float scale, int32_t zp, void *src, void *dst);
/* oneDNN: bf16 -> s8/u8 reorder, scales per channel of [outer, C, inner] */
peer *peer_dnnl_prepare_bf16(int is_u8, size_t outer, size_t C, size_t inner, const float *scales, int32_t zp,
                             void *src, void *dst);
void peer_run(peer *p);
void peer_free(peer *p);

/* requantize s32 -> s8 channels last; mode 0 TFLite's double rounding, 1
   single rounding, 2 float (lrintf) */
void plain_requantize(const int32_t *acc, int8_t *out, size_t rows, size_t C, const int32_t *m, const int32_t *sh,
                      const float *s, int mode, int32_t zp, int32_t amin, int32_t amax);
#endif
