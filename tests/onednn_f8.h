/* tests/onednn_f8.h - oneDNN's f8 bits, transcribed to plain C99.

   What quant.h's rounding `onednn` has to reproduce for f8 (SPEC section 6).
   It shares no code with quant.h: each function below is a line-by-line C
   transcription of the oneDNN routine named in its comment (oneDNN v3.x,
   github.com/oneapi-src/oneDNN; these routines are unchanged since v3.4,
   2023-10). Only <stdint.h>, <string.h>, <math.h>.

   The route oneDNN takes, f32 -> f8 (src/common/float8.cpp,
   float8_e4m3_t/float8_e5m2_t::operator=(float)): f32 -> f16 with round to
   nearest even (float16_t::operator=(float)), then f16 -> f8 with round to
   nearest even (operator=(float16_t)). Two roundings, so it is not the
   correctly rounded f8 of the f32 value. f8 -> f32 goes f8 -> f16 -> f32
   (operator float16_t(), then float16_t::operator float()).

   The reorder (src/cpu/reorder/simple_reorder.hpp, the spec::reference
   simple_reorder_impl for any format; on x86 it is the only f8 reorder
   unless the CPU has AMX, since jit_uni_reorder.cpp asks
   mayiuse(avx512_core_amx) for f8) computes, per element,
       d = src_scale * (src - src_zp);  d = d * dst_scale + dst_zp;
       dst = (dst type)d;
   with dst_scale = 1.f / s for a single dst scale
   (DEFINE_ARG_SCALES_BUFFER_ATTR, src/cpu/cpu_primitive.hpp) and int32 zero
   points 0 when unset. The `+ dst_zp` is a binary32 `+ 0.0f`, which turns
   an f32 -0 into +0 (set ODNN_F8_ADD_ZP to 0 for the AMX jit reorder,
   which skips the zero-point add when there is none and keeps -0). oneDNN
   builds x86 with -msse4.1 and no FMA, so nothing is contracted. */
#ifndef ONEDNN_F8_H
#define ONEDNN_F8_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__)
#define ODNN_UNUSED __attribute__((unused))
#else
#define ODNN_UNUSED
#endif

/* 1: the reference reorder's `d * dst_scale + dst_zp` (zero products give
   +0, f8 code 0x00); 0: the AMX jit reorder (-0 kept, code 0x80). */
#ifndef ODNN_F8_ADD_ZP
#define ODNN_F8_ADD_ZP 1
#endif

enum { ODNN_E4M3 = 0, ODNN_E5M2 = 1 };

ODNN_UNUSED static uint32_t odnn_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
ODNN_UNUSED static float odnn_float(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* float16_t::operator=(float), src/common/float16.hpp (software, not F16C).
   Round to nearest even; f32 denormals give +-0; overflow (|v| >= 65520
   after rounding) gives +-Inf; NaN keeps its sign and the top 9 payload
   bits and gets the quiet bit: h = s | 0x7C00 | 0x200 | (m >> 13). This is
   also what the F16C/AVX512-FP16 vcvtps2ph(x) instruction gives. */
ODNN_UNUSED static uint16_t odnn_f32_to_f16(float f)
{
    uint32_t i = odnn_bits(f);
    uint32_t s = i >> 31;
    uint32_t e = (i >> 23) & 0xFF;
    uint32_t m = i & 0x7FFFFF;
    uint32_t ss = s, mm = m >> 13, r = m & 0x1FFF, ee = 0;
    int32_t eee = (int32_t)e - 127 + 15;

    if (e == 0) {
        /* Denormal/zero floats all become zero. */
        ee = 0;
        mm = 0;
    } else if (e == 0xFF) {
        /* Preserve inf/nan, but set quiet bit for nan (snan->qnan). */
        ee = 0x1F;
        if (m != 0) mm |= 0x200;
    } else if (eee > 0 && eee < 0x1F) {
        /* Normal range: round to even on the mantissa. */
        ee = (uint32_t)eee;
        if (r > (0x1000 - (mm & 1))) {
            mm++;
            if (mm == 0x400) { /* rounds up to the next binade (or inf) */
                mm = 0;
                ee++;
            }
        }
    } else if (eee >= 0x1F) {
        /* Overflow. */
        ee = 0x1F;
        mm = 0;
    } else {
        /* Underflow: the binary32 add rounds |f| to a multiple of 2^-24
           (the ulp of 0.5), i.e. to nearest even f16 subnormal; volatile
           keeps it a binary32 operation. */
        volatile float ff = fabsf(f) + 0.5f;
        uint32_t ii = odnn_bits(ff);
        ee = 0;
        mm = ii & 0x7FF;
    }
    return (uint16_t)((ss << 15) | (ee << 10) | mm);
}

/* float16_t::operator float(), src/common/float16.hpp. Exact; f16
   subnormals via scalbn; Inf as Inf; NaN keeps sign and payload
   (m << 13) and gets the quiet bit 0x400000 (same as F16C vcvtph2ps). */
ODNN_UNUSED static float odnn_f16_to_f32(uint16_t raw)
{
    uint32_t ss = (uint32_t)raw >> 15;
    uint32_t ee = ((uint32_t)raw >> 10) & 0x1F;
    uint32_t mm = (uint32_t)raw & 0x3FF;
    uint32_t m = mm << 13, e;

    if (ee == 0) {
        if (mm == 0)
            e = 0;
        else /* half denormal -> float normal */
            return (ss ? -1.0f : 1.0f) * scalbnf((float)mm, -24);
    } else if (ee == 0x1F) {
        e = 0xFF;
        if (m != 0) m |= 0x400000; /* snan -> qnan */
    } else {
        e = ee - 15 + 127;
    }
    return odnn_float((ss << 31) | (e << 23) | m);
}

/* float8_e4m3_t::operator=(float16_t) and float8_e5m2_t::operator=(float16_t),
   src/common/float8.cpp. */
ODNN_UNUSED static uint8_t odnn_f16_to_f8(uint16_t h, int fmt)
{
    if (fmt == ODNN_E5M2) {
        uint16_t fraw = h;
        const uint16_t naninf_mask = 0x7c00;
        int is_special = (fraw & naninf_mask) == naninf_mask;
        int is_nan = is_special && (fraw & 0x03ff);
        if (is_nan) /* "we always set quiet bit for NaN": sign kept,
                       f16 mantissa bit 8 kept as the code's bit 0 */
            return (uint8_t)((fraw >> 8) | 0x02);
        if (is_special) /* +-Inf as is: 0x7C / 0xFC */
            return (uint8_t)(fraw >> 8);
        /* round to nearest even on the high byte; a carry runs into the
           exponent, so f16 >= 61440 (0x7B80) becomes Inf 0x7C */
        fraw = (uint16_t)(fraw + 0x007f + ((fraw & 0x0100) >> 8));
        return (uint8_t)(fraw >> 8);
    } else {
        int fraw = h;
        unsigned s8 = (unsigned)(fraw & 0x8000) >> 8;
        uint16_t shifter, rounded;
        float fsh;
        int e8, is_denorm;
        unsigned m8;

        fraw &= 0x7fff;
        /* overflow (> 464), Inf and NaN: NaN code with the f16's sign */
        if (fraw > 0x5f40) return (uint8_t)(s8 | 0x7f);
        /* underflow, |f| <= 2^-10 (2^-10 itself ties to 0) */
        if (fraw <= 0x1400) return (uint8_t)s8;

        /* rounding shifter 2^(e16 + 7), at least 2.0 (0x4000) for results
           that are f8 subnormals; f16 add then subtract rounds away all
           but 3 mantissa bits (float16_t + float16_t is binary32 add,
           rounded to f16 by float16_t::operator=(float)) */
        shifter = (uint16_t)((fraw & 0x7c00) + 0x1c00);
        is_denorm = shifter < 0x4000;
        if (is_denorm) shifter = 0x4000;
        fsh = odnn_f16_to_f32(shifter);
        {
            volatile float sum = odnn_f16_to_f32((uint16_t)fraw) + fsh; /* exact */
            rounded = odnn_f32_to_f16(sum);
        }
        {
            volatile float diff = odnn_f16_to_f32(rounded) - fsh; /* exact */
            rounded = odnn_f32_to_f16(diff);
        }
        e8 = ((rounded & 0x7c00) >> 10) - 8;
        m8 = (unsigned)(rounded & 0x03ff) >> 7;
        if (is_denorm) { /* make the implicit bit explicit */
            m8 = (m8 | 0x08) >> (-e8 + 1);
            e8 = 0;
        }
        return (uint8_t)(s8 | ((unsigned)e8 << 3) | m8);
    }
}

/* float8_e4m3_t::operator float16_t() and float8_e5m2_t::operator
   float16_t(), src/common/float8.cpp. */
ODNN_UNUSED static uint16_t odnn_f8_to_f16(uint8_t c, int fmt)
{
    if (fmt == ODNN_E5M2) {
        /* codes with (c & 0x7d) == 0x7d (0x7D, 0x7F, 0xFD, 0xFF) get the
           quiet bit 0x02; then the byte is the f16's high byte
           (bit_cast of {0, raw}, little-endian): 0x7D, 0x7F -> 0x7F00,
           0x7E -> 0x7E00, 0x7C -> Inf 0x7C00 */
        const uint8_t snan_mask = 0x7d, qnan_qbit = 0x02;
        uint8_t raw = (uint8_t)((c & snan_mask) == snan_mask ? c | qnan_qbit : c);
        return (uint16_t)((unsigned)raw << 8);
    } else {
        uint16_t s8 = (uint16_t)((c & 0x80) >> 7);
        uint16_t e8 = (uint16_t)((c & 0x78) >> 3);
        uint16_t m8 = (uint16_t)(c & 0x7);
        uint16_t s16 = s8, e16 = (uint16_t)(e8 + 8), m16 = m8;

        if (e8 == 0 && m8 != 0) { /* f8 denormal -> f16 normal */
            uint16_t count = 2;
            count = m8 > 0x1 ? 1 : count;
            count = m8 > 0x3 ? 0 : count;
            e16 = (uint16_t)(e16 - count);
            m16 = (uint16_t)((m16 << (count + 1)) & 0x7);
        } else if (e8 == 0 && m8 == 0) {
            e16 = 0;
        } else if (e8 == 0xf && m8 == 0x7) { /* NaN: Real Indefinite */
            e16 = 0x1f;
            m16 = 0x4; /* f16 0x7E00 / 0xFE00 */
        }
        return (uint16_t)((s16 << 15) | (e16 << 10) | (m16 << 7));
    }
}

/* oneDNN's f32 -> f8 reorder with one dst scale s (quantize x by s):
   simple_reorder.hpp spec::reference execute(), d = 1.f * (x - 0);
   d = d * fl(1/s) + 0; dst = float8_*_t(d), i.e. odnn_f16_to_f8(
   odnn_f32_to_f16(d)). A NaN x passes the arithmetic as itself, quieted
   (x86 mulss/addss return the NaN operand with the quiet bit set; written
   out here so the result does not depend on the host's NaN rules): e4m3
   gives 0x7F / 0xFF by x's sign; e5m2 gives 0x7E | sign | bit 21 of x
   (0x7FC00000 -> 0x7E, 0x7FE00000 -> 0x7F). */
ODNN_UNUSED static uint8_t odnn_quant_f8(float x, float s, int fmt)
{
    volatile float inv = 1.f / s; /* DEFINE_ARG_SCALES_BUFFER_ATTR: 1.f / s */
    volatile float d;
    if (x != x) {
        d = odnn_float(odnn_bits(x) | 0x00400000u);
    } else {
        d = x * inv; /* fl(x * fl(1/s)); volatile: no contraction with the add */
#if ODNN_F8_ADD_ZP
        d = d + 0.0f; /* + dst_zp (int32 0): -0 -> +0 */
#endif
    }
    return odnn_f16_to_f8(odnn_f32_to_f16(d), fmt);
}

/* oneDNN's f8 -> f32 reorder with one src scale s (dequantize):
   simple_reorder.hpp spec::reference execute(), d = s * (float(c) - 0);
   d = d * 1.f + 0; where float(c) is float8_*_t::operator float(), i.e.
   f8 -> f16 -> f32 as above. oneDNN does multiply the decoded value by s
   in binary32. A NaN code's value passes the multiply unchanged (x86 mulss
   returns the NaN operand, quieted; it is already quiet), so the payload
   survives: e4m3 0x7F/0xFF -> 0x7FC00000/0xFFC00000; e5m2 0x7E/0xFE ->
   0x7FC00000/0xFFC00000, 0x7D,0x7F/0xFD,0xFF -> 0x7FE00000/0xFFE00000.
   e5m2 +-Inf gives +-Inf times s. With ODNN_F8_ADD_ZP the final + 0 turns
   a -0 product (code 0x80, or 0 times a negative s) into +0. */
ODNN_UNUSED static float odnn_dequant_f8(uint8_t c, float s, int fmt)
{
    float v = odnn_f16_to_f32(odnn_f8_to_f16(c, fmt));
    volatile float d;
    if (v != v) return v;
    d = s * v;
#if ODNN_F8_ADD_ZP
    d = d * 1.f + 0.0f;
#endif
    return d;
}

#endif
