/* tests/oracle.h - the independent reference for quant.h.

   It shares no code with quant.h: it computes in double with libm, follows
   SPEC section 3 word by word, and finds f8 codes by searching the code
   table for the nearest value instead of manipulating bits. A double
   holds every product of two floats exactly, and double rounding of one
   float +, -, *, / through double is innocuous (53 >= 2 * 24 + 2), so
   (float)((double)a op (double)b) is exactly fl(a op b). */
#ifndef ORACLE_H
#define ORACLE_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/* oneDNN's own f8 conversion route, transcribed: rounding `onednn` with an
   f8 type follows it. quant.h keeps the -0 of that conversion, which
   oneDNN's reference reorder turns into +0 by adding a zero point of 0. */
#define ODNN_F8_ADD_ZP 0
#include "onednn_f8.h"

#if defined(__GNUC__)
#define O_UNUSED __attribute__((unused))
#else
#define O_UNUSED
#endif

enum { O_EXACT = 0, O_ONEDNN = 1, O_ONNX = 2, O_TORCH = 3 };

O_UNUSED static float o_div(float a, float b) { return (float)((double)a / (double)b); }
O_UNUSED static float o_mul(float a, float b) { return (float)((double)a * (double)b); }
O_UNUSED static float o_add(float a, float b) { return (float)((double)a + (double)b); }
O_UNUSED static float o_recip(float s) { return (float)(1.0 / (double)s); }

O_UNUSED static float o_from_bits(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* The quotient every rounding starts from. */
O_UNUSED static float o_quotient(float x, float s, int rounding)
{
    return (rounding == O_ONEDNN || rounding == O_TORCH) ? o_mul(x, o_recip(s)) : o_div(x, s);
}

O_UNUSED static int64_t o_clamp(double v, int64_t lo, int64_t hi)
{
    if (v < (double)lo) return lo;
    if (v > (double)hi) return hi;
    return (int64_t)v;
}

/* Integer quantize of one element; lo/hi is the destination range. */
O_UNUSED static int64_t o_quant_int(float x, float s, int64_t z, int rounding, int64_t lo, int64_t hi)
{
    float v = o_quotient(x, s, rounding);
    if (isnan(v)) return o_clamp((double)z, lo, hi);
    if (rounding == O_EXACT || rounding == O_ONEDNN) {
        float w = o_add(v, (float)z);
        if (isinf(w)) return w > 0 ? hi : lo;
        return o_clamp(nearbyint((double)w), lo, hi);
    }
    if (isinf(v)) return v > 0 ? hi : lo;
    return o_clamp(nearbyint((double)v) + (double)z, lo, hi);
}

O_UNUSED static float o_dequant_int(int64_t q, float s, int64_t z)
{
    float d = (float)(q - z);
    return o_mul(d, s);
}

/* f8: fmt 0 = e4m3, 1 = e5m2. */
O_UNUSED static double o_f8_magnitude(int code, int fmt)
{
    int e, m;
    if (fmt == 0) {
        e = (code >> 3) & 15; m = code & 7;
        return e == 0 ? ldexp(m, -9) : ldexp(8 + m, e - 7 - 3);
    }
    e = (code >> 2) & 31; m = code & 3;
    return e == 0 ? ldexp(m, -16) : ldexp(4 + m, e - 15 - 2);
}

O_UNUSED static int o_f8_maxcode(int fmt) { return fmt == 0 ? 0x7E : 0x7B; }

/* the magnitudes of the positive codes, from the formula above, once */
O_UNUSED static double o_f8_table(int code, int fmt)
{
    static double table[2][128];
    static int ready[2];
    if (!ready[fmt]) {
        int c;
        for (c = 0; c < 128; ++c) table[fmt][c] = o_f8_magnitude(c, fmt);
        ready[fmt] = 1;
    }
    return table[fmt][code];
}

O_UNUSED static uint8_t o_f8_encode(float x, float v, int fmt, int inf_nan)
{
    int sign, best, lo, hi, maxc = o_f8_maxcode(fmt);
    double a, top = fmt == 0 ? 480.0 : 65536.0;
    if (isnan(v)) return (uint8_t)(0x7F | (signbit(x) ? 0x80 : 0));
    sign = signbit(v) ? 0x80 : 0;
    a = fabs((double)v);
    if (a >= top) best = maxc + 1; /* the code one past max stands for "beyond max" */
    else {
        /* magnitudes grow with the code: find the last code at or below a,
           then take the nearer of it and the next, ties to the even code */
        lo = 0; hi = maxc + 1;
        while (hi - lo > 1) {
            int mid = (lo + hi) / 2;
            if (o_f8_table(mid, fmt) <= a) lo = mid; else hi = mid;
        }
        {
            double below = o_f8_table(lo, fmt);
            double above = lo + 1 <= maxc ? o_f8_table(lo + 1, fmt) : top;
            double dl = a - below, du = above - a;
            best = dl < du ? lo : du < dl ? lo + 1 : ((lo & 1) ? lo + 1 : lo);
        }
    }
    if (best == maxc + 1) {
        if (!inf_nan) return (uint8_t)(sign | maxc);
        return (uint8_t)(sign | (fmt == 0 ? 0x7F : 0x7C));
    }
    return (uint8_t)(sign | best);
}

O_UNUSED static uint8_t o_quant_f8(float x, float s, int rounding, int fmt, int inf_nan)
{
    if (rounding == O_ONEDNN) {
        /* oneDNN knows only inf_nan; saturating, what it makes an overflow
           code (e4m3 0x7F from a number, e5m2 +-Inf) is +-max instead */
        uint8_t c = odnn_quant_f8(x, s, fmt);
        const int over = !isnan(x) && (c & 0x7F) == (fmt == 0 ? 0x7F : 0x7C);
        if (over && !inf_nan) c = (uint8_t)((c & 0x80) | o_f8_maxcode(fmt));
        return c;
    }
    return o_f8_encode(x, o_quotient(x, s, rounding), fmt, inf_nan);
}

O_UNUSED static float o_f8_decode(uint8_t code, int fmt)
{
    int a = code & 0x7F, neg = code & 0x80;
    double v;
    if (fmt == 0 && a == 0x7F) return o_from_bits(neg ? 0xFFC00000u : 0x7FC00000u);
    if (fmt == 1 && a > 0x7C) return o_from_bits(neg ? 0xFFC00000u : 0x7FC00000u);
    v = (fmt == 1 && a == 0x7C) ? INFINITY : o_f8_magnitude(a, fmt);
    return (float)(neg ? -v : v);
}

O_UNUSED static float o_dequant_f8(uint8_t code, float s, int fmt);
/* the same, where rounding `onednn` decodes through oneDNN's f16 route */
O_UNUSED static float o_dequant_f8_r(uint8_t code, float s, int fmt, int rounding)
{
    return rounding == O_ONEDNN ? odnn_dequant_f8(code, s, fmt) : o_dequant_f8(code, s, fmt);
}

O_UNUSED static float o_dequant_f8(uint8_t code, float s, int fmt)
{
    float d = o_f8_decode(code, fmt);
    if (isnan(d)) return d;
    return o_mul(d, s);
}

/* 16-bit floats: f16 (10 stored mantissa bits, 5 exponent bits) and bf16
   (7, 8). The value of a code by its definition, and the code of a float
   rounded to nearest even, found in double: the step at |x|'s binade (or
   the subnormal step), nearbyint of the exact quotient, overflow to Inf
   when the rounded value reaches 2^(emax + 1). NaN: the quiet NaN with x's
   sign (SPEC section 6). */
O_UNUSED static double o_h_value(uint16_t h, int mbits, int ebits)
{
    const int bias = (1 << (ebits - 1)) - 1, e = (h >> mbits) & ((1 << ebits) - 1), m = h & ((1 << mbits) - 1);
    double v;
    if (e == (1 << ebits) - 1) v = m ? NAN : INFINITY;
    else if (e == 0) v = ldexp((double)m, 1 - bias - mbits);
    else v = ldexp((double)(m + (1 << mbits)), e - bias - mbits);
    return (h >> (mbits + ebits)) & 1 ? -v : v;
}

O_UNUSED static uint16_t o_h_code(float x, int mbits, int ebits)
{
    const int bias = (1 << (ebits - 1)) - 1, emin = 1 - bias;
    const uint16_t sign = signbit(x) ? (uint16_t)(1u << (mbits + ebits)) : 0, inf = (uint16_t)(((1 << ebits) - 1) << mbits);
    double a = fabs((double)x), step, q, val;
    int e;
    if (isnan(x)) return (uint16_t)(sign | inf | (1 << (mbits - 1)));
    if (isinf(x)) return (uint16_t)(sign | inf);
    if (a == 0) return sign;
    frexp(a, &e);
    e -= 1; /* a in [2^e, 2^(e+1)) */
    if (e < emin) e = emin;
    step = ldexp(1.0, e - mbits);
    q = nearbyint(a / step);
    val = q * step;
    if (val >= ldexp(1.0, bias + 1)) return (uint16_t)(sign | inf);
    if (val < ldexp(1.0, emin)) return (uint16_t)(sign | (uint16_t)q);
    frexp(val, &e);
    e -= 1;
    return (uint16_t)(sign | (uint16_t)((e + bias) << mbits) | (uint16_t)(val / ldexp(1.0, e - mbits) - (1 << mbits)));
}

O_UNUSED static float o_f16_value(uint16_t h) { return (float)o_h_value(h, 10, 5); }
O_UNUSED static float o_bf16_value(uint16_t h) { return (float)o_h_value(h, 7, 8); }
O_UNUSED static uint16_t o_f16_code(float x) { return o_h_code(x, 10, 5); }
O_UNUSED static uint16_t o_bf16_code(float x) { return o_h_code(x, 7, 8); }
/* rounding onednn (SPEC section 6): oneDNN's f32 -> bf16 sends every f32
   below 2^-126 in magnitude (zeros and subnormals) to the zero of its sign */
O_UNUSED static uint16_t o_bf16_code_onednn(float x)
{
    return fabs((double)x) < ldexp(1.0, -126) ? (uint16_t)(signbit(x) ? 0x8000u : 0u) : o_bf16_code(x);
}


/* SPEC section 7.1: f4_e2m1. The code of a quotient v found by searching
   the eight magnitudes for the nearest, ties to the even code; beyond the
   largest (and Inf) the largest; v's sign kept. NaN gives 0, or under
   onednn 6 with x's sign (oneDNN's float2e2m1). */
static const double o_f4_mag[8] = { 0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0 };

O_UNUSED static uint8_t o_f4_encode(float x, float v, int rounding)
{
    const uint8_t sign = signbit(v) ? 8 : 0;
    double a = fabs((double)v), best_d = INFINITY;
    int k, best = 0;
    if (isnan(v)) return rounding == O_ONEDNN ? (uint8_t)((signbit(x) ? 8 : 0) | 7) : 0;
    for (k = 0; k < 8; ++k) {
        const double d = fabs(o_f4_mag[k] - a);
        if (d < best_d || (d == best_d && k % 2 == 0)) { best_d = d; best = k; }
    }
    if (a > 6.0) best = 7;
    return (uint8_t)(sign | best);
}

O_UNUSED static uint8_t o_quant_f4(float x, float s, int rounding) { return o_f4_encode(x, o_quotient(x, s, rounding), rounding); }

O_UNUSED static float o_f4_value(uint8_t code)
{
    const double m = o_f4_mag[code & 7];
    return (float)((code & 8) ? -m : m);
}

O_UNUSED static float o_dequant_f4(uint8_t code, float s) { return o_mul(o_f4_value(code), s); }

/* an e8m0 scale: 2^(c - 127); 0xFF NaN */
O_UNUSED static float o_e8m0_value(uint8_t c) { return c == 0xFF ? NAN : (float)ldexp(1.0, (int)c - 127); }

/* SPEC section 7.1, block scales from a group's amax (NaN left out; the
   caller passes 0 for a group of nothing but NaN). Element types: 0 e4m3,
   1 e5m2, 2 f4_e2m1, 3 s8. Returns the scale's code (e8m0 for the MX
   schemes, e4m3 for NVFP4). */
static const double o_mx_max[4] = { 448.0, 57344.0, 6.0, 127.0 };

/* the biased binary32 exponent of a >= 0: 0 for 0 and subnormals */
O_UNUSED static int o_biased_exp(float a)
{
    int e;
    if (a < ldexp(1.0, -126)) return 0;
    frexp((double)a, &e); /* a = m * 2^e, m in [0.5, 1) */
    return e - 1 + 127;
}

O_UNUSED static int o_mx_code(float amax, int type) /* QUANT_MX */
{
    const int c = o_biased_exp(amax) - (o_biased_exp((float)o_mx_max[type]) - 127); /* E(amax) - emax */
    return c < 0 ? 0 : c > 254 ? 254 : c;
}

O_UNUSED static int o_mx_rceil_code(float amax, int type) /* QUANT_MX_RCEIL */
{
    const double r = (double)o_div(amax, (float)o_mx_max[type]);
    int c;
    for (c = 0; c < 254; ++c)
        if (ldexp(1.0, c - 127) >= r) return c;
    return 254;
}

/* QUANT_NVFP4: rne(max(fl(fl(amax / 6) / g), 2^-9)) in e4m3, saturating;
   under onednn oneDNN's dynamic_fp: clamped to [2^-3, 448], then its f16
   route */
O_UNUSED static int o_nvfp4_code(float amax, float g, int rounding)
{
    float v = o_div(o_div(amax, 6.0f), g);
    if (rounding == O_ONEDNN) {
        v = v < 448.0f ? v : 448.0f;
        v = v > 0.125f ? v : 0.125f;
        return odnn_f16_to_f8(odnn_f32_to_f16(v), 0); /* float8_e4m3_t from float: through f16 */
    }
    if (v < (float)ldexp(1.0, -9)) v = (float)ldexp(1.0, -9);
    return o_f8_encode(v, v, 0, 0);
}

/* oneDNN's dynamic_mx scale, transcribed as its ref_matmul computes it:
   e8m0 truncates to the exponent field, the two powers of two are divided
   in f32, and the quotient truncated again */
O_UNUSED static int odnn_mx_code(float amax, int type)
{
    uint32_t ua, um, uq;
    float a2, m2, q;
    const float mx = (float)o_mx_max[type];
    memcpy(&ua, &amax, 4);
    memcpy(&um, &mx, 4);
    ua = (ua >> 23) & 0xFF;
    um = (um >> 23) & 0xFF;
    a2 = ua == 0 ? (float)ldexp(1.0, -127) : (float)ldexp(1.0, (int)ua - 127);
    m2 = (float)ldexp(1.0, (int)um - 127);
    q = a2 / m2;
    memcpy(&uq, &q, 4);
    return (int)((uq >> 23) & 0xFF);
}

/* the fused quantize of one element under the MX and NVFP4 schemes; s the
   scale it takes (the block scale, times g for NVFP4) */
O_UNUSED static uint8_t o_mx_quant(float x, float s, int type, int rounding, int inf_nan)
{
    if (rounding == O_ONEDNN) {
        const float mx = (float)o_mx_max[type];
        float v = o_mul(x, o_recip(s));
        v = isnan(v) ? -mx : v < -mx ? -mx : v > mx ? mx : v;
        if (type <= 1) return o_quant_f8(v, 1.0f, O_ONEDNN, type, 0);
        if (type == 2) return o_f4_encode(v, v, O_ONEDNN);
        return (uint8_t)(int8_t)nearbyint((double)v);
    }
    if (type <= 1) return o_quant_f8(x, s, rounding, type, inf_nan);
    if (type == 2) return o_quant_f4(x, s, rounding);
    return (uint8_t)(int8_t)o_quant_int(x, s, 0, rounding, -127, 127);
}

/* SPEC section 6, scales and zero points from data: one grid entry's from
   the least and greatest of its elements (NaN left out; mn > mx when it
   has none). scheme 0 asymmetric, 1 symmetric, 2 nudged; qlo/qhi the
   type's range (f8: -max, max); uns: u8/u4 (nudged moves the signed
   type's zero point). *mult is what the fused op multiplies by under
   nudged. Returns 0 when the range is infinite. */
O_UNUSED static int o_qparams(float mn, float mx, int scheme, int64_t qlo, int64_t qhi, int uns, float *s, int64_t *z,
                              float *mult)
{
    const float tiny = (float)ldexp(1.0, -126);
    const float min0 = mn < 0 ? mn : 0.0f, max0 = mx > 0 ? mx : 0.0f;
    *z = 0;
    *mult = 1.0f;
    if (isinf(min0) || isinf(max0)) return 0;
    if (scheme == 1) {
        const float a = -min0 > max0 ? -min0 : max0;
        *s = a == 0 ? 1.0f : o_div(a, (float)qhi);
        if (*s < tiny) *s = tiny;
        return 1;
    }
    if (scheme == 0) {
        const float range = o_add(max0, -min0);
        double q;
        if (isinf(range)) return 0;
        if (range == 0) { *s = 1.0f; return 1; }
        *s = o_div(range, (float)(qhi - qlo));
        if (*s < tiny) *s = tiny;
        q = (double)qlo + nearbyint((double)o_div(-min0, *s));
        *z = o_clamp(q, qlo, qhi);
        return 1;
    } else {
        /* xnn_qd8_asymmetric_quantization_params, XNNPACK
           src/xnnpack/quantization.h, with the signed type's range */
        const float slo = uns ? (float)(qlo - (qhi + 1) / 2) : (float)qlo;
        const float shi = uns ? (float)(qhi - (qhi + 1) / 2) : (float)qhi;
        float m = 1.0f, dmin, dmax, zf;
        if (min0 != max0) {
            const float range = o_add(max0, -min0);
            if (isinf(range)) return 0;
            m = o_div(shi - slo, range);
        }
        *s = o_recip(m);
        if (!(*s >= tiny)) { *s = tiny; m = (float)ldexp(1.0, 126); }
        dmin = o_mul(min0, m);
        dmax = o_mul(max0, m);
        zf = o_add(o_add(slo, dmin), o_add(shi, dmax)) > 0 ? o_add(slo, -dmin) : o_add(shi, -dmax);
        if (zf < slo) zf = slo;
        if (zf > shi) zf = shi;
        *z = (int64_t)nearbyint((double)zf) + (uns ? (qhi + 1) / 2 : 0);
        *mult = m;
        return 1;
    }
}

#endif
