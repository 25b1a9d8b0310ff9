/* Baselines the benchmark measures quant.h against, built at -O3 with the
   same target flags as quant.h:
   - the memory-traffic limit: the same source bytes loaded and the same
     destination bytes stored, with no arithmetic;
   - the plain C loop a user would write instead of a library call. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "baselines.h"

void limit_narrow(const float *src, uint8_t *dst, size_t n)
{
    const uint32_t *s = (const uint32_t *)(const void *)src;
    size_t i;
    for (i = 0; i < n; ++i) dst[i] = (uint8_t)s[i];
}

void limit_widen(const uint8_t *src, float *dst, size_t n)
{
    uint32_t *d = (uint32_t *)(void *)dst;
    size_t i;
    for (i = 0; i < n; ++i) d[i] = src[i];
}

/* bf16/f16 -> s8/u8: 2n bytes in, n out */
void limit_narrow16(const uint16_t *src, uint8_t *dst, size_t n)
{
    size_t i;
    for (i = 0; i < n; ++i) dst[i] = (uint8_t)src[i];
}

/* packed 4-bit -> 16-bit floats: n/2 bytes in, 2n out (each source byte
   stored twice, for its two elements) */
void limit_w4_16(const uint8_t *src, uint16_t *dst, size_t n)
{
    size_t i;
    for (i = 0; i < n / 2; ++i) { dst[2 * i] = src[i]; dst[2 * i + 1] = src[i]; }
}

/* packed 4-bit -> f32: n/2 bytes in, 4n out */
void limit_w4_32(const uint8_t *src, float *dst, size_t n)
{
    uint32_t *d = (uint32_t *)(void *)dst;
    size_t i;
    for (i = 0; i < n / 2; ++i) { d[2 * i] = src[i]; d[2 * i + 1] = src[i]; }
}

void plain_quantize(const float *x, uint8_t *q, size_t n, float s, int32_t z, int is_u8, int recip)
{
    const float lo = is_u8 ? 0.0f : -128.0f, hi = is_u8 ? 255.0f : 127.0f, r = 1.0f / s, zf = (float)z;
    size_t i;
    for (i = 0; i < n; ++i) {
        float v = nearbyintf((recip ? x[i] * r : x[i] / s) + zf);
        v = v < lo ? lo : v > hi ? hi : v;
        q[i] = (uint8_t)(int32_t)v;
    }
}

void plain_quantize_channels(const float *x, uint8_t *q, size_t outer, size_t C, size_t inner,
                             const float *s, int32_t z, int is_u8)
{
    size_t o, c;
    for (o = 0; o < outer; ++o)
        for (c = 0; c < C; ++c)
            plain_quantize(x + (o * C + c) * inner, q + (o * C + c) * inner, inner, s[c], z, is_u8, 0);
}

void plain_dequantize(const uint8_t *q, float *y, size_t n, float s, int32_t z, int is_u8)
{
    size_t i;
    if (is_u8) for (i = 0; i < n; ++i) y[i] = (float)((int32_t)q[i] - z) * s;
    else for (i = 0; i < n; ++i) y[i] = (float)((int32_t)(int8_t)q[i] - z) * s;
}

/* f8 the obvious way: frexp-free, but one branchy element at a time */
static uint8_t plain_f8_one(float v, int e5m2)
{
    const int mbits = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
    const float maxv = e5m2 ? 57344.0f : 448.0f;
    uint32_t u;
    uint8_t sign;
    float a;
    memcpy(&u, &v, 4);
    sign = (uint8_t)((u >> 24) & 0x80);
    if (v != v) return (uint8_t)(0x7F | sign);
    a = fabsf(v);
    if (a > maxv) a = maxv;
    {
        int e;
        float m = frexpf(a, &e); /* a = m * 2^e, m in [0.5, 1) */
        int E = e - 1 + bias;
        int code;
        if (a == 0.0f) return sign;
        if (E <= 0) code = (int)nearbyintf(a * ldexpf(1.0f, bias - 1 + mbits));
        else code = (E << mbits) + (int)nearbyintf((m * 2.0f - 1.0f) * (float)(1 << mbits));
        return (uint8_t)(sign | code);
    }
}

void plain_f32_to_f8(const float *x, uint8_t *q, size_t n, float s, int e5m2)
{
    size_t i;
    for (i = 0; i < n; ++i) q[i] = plain_f8_one(x[i] / s, e5m2);
}

void plain_f8_to_f32(const uint8_t *q, float *y, size_t n, float s, int e5m2)
{
    const int mbits = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
    size_t i;
    for (i = 0; i < n; ++i) {
        const int c = q[i] & 0x7F, e = c >> mbits, m = c & ((1 << mbits) - 1);
        float v = e == 0 ? ldexpf((float)m, 1 - bias - mbits) : ldexpf((float)((1 << mbits) + m), e - bias - mbits);
        y[i] = ((q[i] & 0x80) ? -v : v) * s;
    }
}

/* f32 to bf16 and f16 bit patterns, to nearest even, with integer steps;
   NaN becomes the quiet NaN with its sign (0x7FC0, 0x7E00) */
static uint16_t plain_to_bf16(float y)
{
    uint32_t u;
    memcpy(&u, &y, 4);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)((u >> 16 & 0x8000u) | 0x7FC0u);
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

static uint16_t plain_to_f16(float y)
{
    uint32_t u, a, sign;
    memcpy(&u, &y, 4);
    sign = (u >> 16) & 0x8000u;
    a = u & 0x7FFFFFFFu;
    if (a > 0x7F800000u) return (uint16_t)(sign | 0x7E00u);
    if (a >= 0x477FF000u) return (uint16_t)(sign | 0x7C00u); /* rounds to 65520 or more: Inf */
    if (a < 0x38800000u) { /* below 2^-14: a count of f16's subnormal steps 2^-24 */
        const uint32_t e = a >> 23, m = (a & 0x7FFFFFu) | 0x800000u, sh = 126u - e;
        if (sh > 24u) return (uint16_t)sign; /* below 2^-25: 0 (2^-25 itself ties to 0 below) */
        return (uint16_t)(sign | ((m + (1u << (sh - 1u)) - 1u + ((m >> sh) & 1u)) >> sh));
    }
    return (uint16_t)(sign | ((a - (112u << 23) + 0xFFFu + ((a >> 13) & 1u)) >> 13));
}

/* packed 4-bit rows: nibble out, (q - z) * s, narrowed; a scale and a
   packed zero point per group of g elements */
static inline void plain_w4_body(const uint8_t *q, void *y, size_t n, const float *s, const uint8_t *zps, size_t g,
                                 const int sgn, const int out)
{
    size_t i0, i, gi;
    for (i0 = 0, gi = 0; i0 < n; i0 += g, ++gi) {
        const size_t end = n - i0 < g ? n : i0 + g;
        int z = (zps[gi / 2] >> (gi % 2 * 4)) & 15;
        if (sgn && z > 7) z -= 16;
        for (i = i0; i < end; ++i) {
            int v = (q[i / 2] >> (i % 2 * 4)) & 15;
            float f;
            if (sgn && v > 7) v -= 16;
            f = (float)(v - z) * s[gi];
            if (out == 0) ((float *)y)[i] = f;
            else if (out == 1) ((uint16_t *)y)[i] = plain_to_f16(f);
            else ((uint16_t *)y)[i] = plain_to_bf16(f);
        }
    }
}

void plain_w4(const uint8_t *q, void *y, size_t n, const float *s, const uint8_t *zps, size_t g, int sgn, int out)
{
    switch (sgn * 3 + out) {
    case 0: plain_w4_body(q, y, n, s, zps, g, 0, 0); break;
    case 1: plain_w4_body(q, y, n, s, zps, g, 0, 1); break;
    case 2: plain_w4_body(q, y, n, s, zps, g, 0, 2); break;
    case 3: plain_w4_body(q, y, n, s, zps, g, 1, 0); break;
    case 4: plain_w4_body(q, y, n, s, zps, g, 1, 1); break;
    default: plain_w4_body(q, y, n, s, zps, g, 1, 2); break;
    }
}

/* bf16 -> s8/u8: widened by a shift, then plain_quantize's loop */
void plain_bf16_quantize(const uint16_t *x, uint8_t *q, size_t n, float s, int32_t z, int is_u8, int recip)
{
    const float lo = is_u8 ? 0.0f : -128.0f, hi = is_u8 ? 255.0f : 127.0f, r = 1.0f / s, zf = (float)z;
    size_t i;
    for (i = 0; i < n; ++i) {
        const uint32_t u = (uint32_t)x[i] << 16;
        float f, v;
        memcpy(&f, &u, 4);
        v = nearbyintf((recip ? f * r : f / s) + zf);
        v = v < lo ? lo : v > hi ? hi : v;
        q[i] = (uint8_t)(int32_t)v;
    }
}

void plain_bf16_quantize_rows(const uint16_t *x, uint8_t *q, size_t rows, size_t len, const float *s, int32_t z,
                              int is_u8, int recip)
{
    size_t k;
    for (k = 0; k < rows; ++k) plain_bf16_quantize(x + k * len, q + k * len, len, s[k], z, is_u8, recip);
}

/* read-only: n floats loaded, their bits folded so that the loads stay */
uint32_t limit_read(const float *src, size_t n)
{
    const uint32_t *s = (const uint32_t *)(const void *)src;
    uint32_t acc = 0;
    size_t i;
    for (i = 0; i < n; ++i) acc |= s[i];
    return acc;
}

/* Choosing scales as a user would without a library: the range in one
   loop, then (fused) the quantize loop, per row of len elements (len = n:
   per tensor). Asymmetric, ONNX's formula, to u8 (is_u8) or s8. */
void plain_choose(const float *x, size_t rows, size_t len, float *s, int32_t *z, int is_u8)
{
    const float qmin = is_u8 ? 0.0f : -128.0f, qmax = is_u8 ? 255.0f : 127.0f;
    size_t r, i;
    for (r = 0; r < rows; ++r) {
        const float *p = x + r * len;
        float lo = 0.0f, hi = 0.0f;
        for (i = 0; i < len; ++i) {
            if (p[i] < lo) lo = p[i];
            if (p[i] > hi) hi = p[i];
        }
        s[r] = hi == lo ? 1.0f : (hi - lo) / (qmax - qmin);
        z[r] = (int32_t)nearbyintf(qmin - lo / s[r]);
    }
}

void plain_choose_quantize(const float *x, uint8_t *q, size_t rows, size_t len, float *s, int32_t *z, int is_u8)
{
    size_t r;
    for (r = 0; r < rows; ++r) {
        plain_choose(x + r * len, 1, len, s + r, z + r, is_u8);
        plain_quantize(x + r * len, q + r * len, len, s[r], z[r], is_u8, 1);
    }
}

/* TFLite's reference requantization as a user writes it in a layer's
   output loop (gemmlowp's SaturatingRoundingDoublingHighMul and
   RoundingDivideByPOT, then the zero point and the clamp), channels last;
   single: TFLITE_SINGLE_ROUNDING's one rounding; fp: XNNPACK's fp32
   formula with lrintf */
static int32_t tfl_mul(int32_t x, int32_t m, int shift)
{
    const int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
    const int32_t a = (int32_t)((uint32_t)x << left);
    const int64_t ab = (int64_t)a * m;
    const int32_t nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
    const int32_t h = (a == m && a == INT32_MIN) ? INT32_MAX : (int32_t)((ab + nudge) / (1ll << 31));
    const int32_t mask = (int32_t)((1ll << right) - 1), rem = h & mask;
    const int32_t threshold = (mask >> 1) + (h < 0 ? 1 : 0);
    return (h >> right) + (rem > threshold ? 1 : 0);
}

void plain_requantize(const int32_t *acc, int8_t *out, size_t rows, size_t C, const int32_t *m, const int32_t *sh,
                      const float *s, int mode, int32_t zp, int32_t amin, int32_t amax)
{
    size_t r, c;
    for (r = 0; r < rows; ++r)
        for (c = 0; c < C; ++c) {
            const int32_t x = acc[r * C + c];
            int32_t v;
            if (mode == 0) v = tfl_mul(x, m[c], sh[c]);
            else if (mode == 1) {
                const int ts = 31 - sh[c];
                v = (int32_t)(((int64_t)x * m[c] + ((int64_t)1 << (ts - 1))) >> ts);
            } else {
                v = (int32_t)lrintf((float)x * s[c]);
            }
            v += zp;
            out[r * C + c] = (int8_t)(v < amin ? amin : v > amax ? amax : v);
        }
}
