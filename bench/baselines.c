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
