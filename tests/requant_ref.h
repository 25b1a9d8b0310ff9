/* tests/requant_ref.h - reference integer requantization, transcribed to
   plain C99 from the sources the library claims to match (SPEC 7.3), for
   tests/test_requant.c. It shares no code with quant.h: every function
   here is written from the named source, one statement of the original
   to one statement here where the original is C, and from the Arm
   Architecture Reference Manual's pseudocode for the MVE intrinsics.

   Sources (the snapshots read; the functions have been stable for years):
     TFLite Micro  github.com/tensorflow/tflite-micro @ 90b983c2b3f1480642e040bbd2ddb37b998f3424
                   tensorflow/lite/kernels/internal/common.cc        (last changed ff3209d0, 2026-08-12)
                   tensorflow/lite/kernels/internal/quantization_util.cc (last changed 365a9f3f, 2021-12-08)
                   tensorflow/lite/kernels/internal/cppmath.h        (TfLiteRound = std::round)
                   (the same files as tensorflow/tensorflow's tensorflow/lite/kernels/internal/)
     gemmlowp      github.com/google/gemmlowp @ 16e8662c34917be0065110bfcd9cc27d30f52fdf
                   fixedpoint/fixedpoint.h (last changed 13d57703, 2021-01-13)
     CMSIS-NN      github.com/ARM-software/CMSIS-NN @ 99f736a63036613032f9b70de36b493bcd7802d4 (v7.0.0-43)
                   Include/arm_nnsupportfunctions.h (V.22.11.0, last changed 91f84c80, 2026-06-15)
     XNNPACK       github.com/google/XNNPACK @ 3d9e67b55415e3cf23cda947d7ef419243e336be
                   (the parent of e821f662c8 "Remove unused requantization kernels", 2024-10-23)
                   src/qs8-requantization/qs8-requantization-fp32-scalar-{fmagic,lrintf}.c
                   src/qu8-requantization/qu8-requantization-fp32-scalar-{fmagic,lrintf}.c
                   and, at 75db3c093b6d74fe90b8df82670cd8a01102ba38 (current),
                   src/xnnpack/requantization.h xnn_qs8_requantize_fp32 / xnn_qu8_requantize_fp32
                   (the same arithmetic, lrintf) and src/xnnpack/math.h (math_min_f32,
                   math_max_f32, float_as_uint32).

   Undefined behaviour. The originals rely on what a two's complement
   machine does in a few places that C leaves undefined or
   implementation-defined; here those steps are spelled out so that this
   file is defined C99 for every input and gives what the machine gives:
     - `x * (1 << left_shift)` (TFLite double rounding, CMSIS-NN default
       build): signed overflow, wraps mod 2^32 on the machine. Affected:
       shift > 0 with x * 2^shift outside int32, i.e.
       |x| >= 2^(31 - shift) (x = -2^(31-shift) itself does not wrap).
       Done here through uint32_t (rqref__mul_wrap).
     - the int64 -> int32 result casts (TFLite single rounding's
       static_cast, CMSIS-NN single rounding's implicit `return result`,
       gemmlowp's static_cast): implementation-defined, modular on every
       compiler. Affected: single rounding, shift > 0 with the exact result
       outside int32; gemmlowp only for INT32_MIN * INT32_MIN, where its
       overflow flag replaces the value anyway. rqref__wrap32.
     - `(1 << exponent) - 1` with exponent 31 (CMSIS-NN
       arm_nn_divide_by_power_of_two, reached by shift = -31): 1 << 31 is
       undefined, and INT32_MIN - 1 overflows; the machine gives
       0x7FFFFFFF, as gemmlowp's `(1ll << exponent) - 1` does. Done in
       uint32_t here.
     - `>>` of a negative value: implementation-defined, arithmetic on every
       compiler these run on; rqref__asr32/64 compute the floor.
     - TFLite QuantizeMultiplier on NaN or +-Inf: std::frexp leaves the
       exponent unspecified and static_cast<int64_t> of NaN or Inf is
       undefined; rqref_tflite_quantize_multiplier returns -1 there and
       writes nothing. */
#ifndef REQUANT_REF_H
#define REQUANT_REF_H

#include <stdint.h>
#include <math.h>
#include <string.h>

#if defined(__GNUC__)
#define RQREF_UNUSED __attribute__((unused))
#else
#define RQREF_UNUSED
#endif

/* ---- two's complement helpers (no counterpart in the sources) ---------- */

/* v mod 2^32, as int32_t: what a cast to int32_t does on the machine. */
RQREF_UNUSED static int32_t rqref__wrap32(int64_t v)
{
    uint32_t u = (uint32_t)((uint64_t)v & 0xFFFFFFFFu);
    if (u <= 0x7FFFFFFFu) return (int32_t)u;
    return (int32_t)(u - 0x80000000u) - 0x7FFFFFFF - 1;
}

/* a * b mod 2^32: int32 multiplication as the machine wraps it. */
RQREF_UNUSED static int32_t rqref__mul_wrap(int32_t a, int32_t b)
{
    return rqref__wrap32((int64_t)((uint32_t)a * (uint32_t)b));
}

/* floor(v / 2^k), 0 <= k <= 63: an arithmetic shift right. */
RQREF_UNUSED static int64_t rqref__asr64(int64_t v, int k)
{
    if (v >= 0) return v >> k;
    return -((-(v + 1)) >> k) - 1;
}

RQREF_UNUSED static int32_t rqref__asr32(int32_t v, int k)
{
    return (int32_t)rqref__asr64(v, k);
}

/* ======================================================================
   gemmlowp, fixedpoint/fixedpoint.h
   ====================================================================== */

/* gemmlowp SaturatingRoundingDoublingHighMul(std::int32_t a, std::int32_t b)
   (fixedpoint.h, the scalar int32 overload). Rounds half up (toward +inf):
   the nudge 1 - 2^30 for a negative product with C's truncating division
   is floor((ab + 2^30) / 2^31). Saturates only INT32_MIN * INT32_MIN. */
RQREF_UNUSED static int32_t rqref_gemmlowp_srdhm(int32_t a, int32_t b)
{
    int overflow = a == b && a == INT32_MIN;
    int64_t a_64 = a;
    int64_t b_64 = b;
    int64_t ab_64 = a_64 * b_64;
    int32_t nudge = ab_64 >= 0 ? (1 << 30) : (1 - (1 << 30));
    int32_t ab_x2_high32 = rqref__wrap32((ab_64 + nudge) / ((int64_t)1 << 31));
    return overflow ? INT32_MAX : ab_x2_high32;
}

/* gemmlowp RoundingDivideByPOT(IntegerType x, ExponentType exponent), the
   scalar int32 instance (fixedpoint.h); exponent in [0, 31]. Rounds half
   away from zero. */
RQREF_UNUSED static int32_t rqref_gemmlowp_rdbpot(int32_t x, int exponent)
{
    const int32_t mask = (int32_t)(((int64_t)1 << exponent) - 1);
    const int32_t zero = 0;
    const int32_t one = 1;
    const int32_t remainder = x & mask;
    const int32_t threshold = (mask >> 1) + ((x < zero ? -1 : 0) & one);
    return rqref__asr32(x, exponent) + ((remainder > threshold ? -1 : 0) & one);
}

/* ======================================================================
   TFLite, tensorflow/lite/kernels/internal/common.cc
   ====================================================================== */

/* TFLite MultiplyByQuantizedMultiplier(int32_t x, int32_t
   quantized_multiplier, int shift), the default (double-rounding) build:
   `#else` branch of `#if TFLITE_SINGLE_ROUNDING` in common.cc.
   x * (1 << left_shift) wraps for shift > 0 and |x| >= 2^(31 - shift). */
RQREF_UNUSED static int32_t rqref_tflite_mbqm_double(int32_t x, int32_t quantized_multiplier, int shift)
{
    int left_shift = shift > 0 ? shift : 0;
    int right_shift = shift > 0 ? 0 : -shift;
    return rqref_gemmlowp_rdbpot(
        rqref_gemmlowp_srdhm(rqref__mul_wrap(x, (int32_t)1 << left_shift), quantized_multiplier),
        right_shift);
}

/* TFLite MultiplyByQuantizedMultiplier(int32_t x, int32_t
   quantized_multiplier, int shift) built with TFLITE_SINGLE_ROUNDING
   (common.cc): floor((x * m + 2^(30 - shift)) / 2^(31 - shift)), one
   rounding, half up. The int64 arithmetic never overflows; the final
   static_cast<int32_t> wraps for shift > 0 when the result is outside
   int32 (the original only DCHECKs it). */
RQREF_UNUSED static int32_t rqref_tflite_mbqm_single(int32_t x, int32_t quantized_multiplier, int shift)
{
    const int64_t total_shift = 31 - shift;
    const int64_t round = (int64_t)1 << (total_shift - 1);
    int64_t result = x * (int64_t)quantized_multiplier + round;
    result = rqref__asr64(result, (int)total_shift);
    return rqref__wrap32(result);
}

/* ======================================================================
   TFLite, tensorflow/lite/kernels/internal/quantization_util.cc
   ====================================================================== */

/* TFLite IntegerFrExp(double input, int* shift) (quantization_util.cc),
   used by QuantizeMultiplier only under TFLITE_EMULATE_FLOAT. Keeps 30
   fraction bits plus the implicit one and rounds the 22 dropped bits half
   DOWN (`> kFractionRoundingThreshold`), where std::round goes half away;
   NaN gives (0, INT_MAX), +Inf (INT64_MAX, INT_MAX), -Inf (INT64_MIN,
   INT_MAX); subnormals get the exponent of 2^-1022 with an implicit one
   (wrong, but QuantizeMultiplier flushes them anyway). */
RQREF_UNUSED static int64_t rqref_tflite_integer_frexp(double input, int *shift)
{
    const uint64_t kSignMask = 0x8000000000000000ull;
    const uint64_t kExponentMask = 0x7ff0000000000000ull;
    const int32_t kExponentShift = 52;
    const int32_t kExponentBias = 1023;
    const uint32_t kExponentIsBadNum = 0x7ff;
    const uint64_t kFractionMask = 0x000fffffffc00000ull;
    const uint32_t kFractionShift = 22;
    const uint32_t kFractionRoundingMask = 0x003fffff;
    const uint32_t kFractionRoundingThreshold = 0x00200000;
    uint64_t u;
    uint32_t exponent_part;
    int64_t fraction;
    memcpy(&u, &input, sizeof u);
    if ((u & ~kSignMask) == 0) {
        *shift = 0;
        return 0;
    }
    exponent_part = (uint32_t)((u & kExponentMask) >> kExponentShift);
    if (exponent_part == kExponentIsBadNum) {
        *shift = 0x7FFFFFFF; /* std::numeric_limits<int>::max(), int = 32 bits */
        if (u & kFractionMask) {
            return 0;
        } else {
            if (u & kSignMask) return INT64_MIN;
            else return INT64_MAX;
        }
    }
    *shift = ((int)exponent_part - kExponentBias) + 1;
    fraction = 0x40000000 + (int64_t)((u & kFractionMask) >> kFractionShift);
    if ((u & kFractionRoundingMask) > kFractionRoundingThreshold) {
        fraction += 1;
    }
    if (u & kSignMask) {
        fraction *= -1;
    }
    return fraction;
}

/* TFLite QuantizeMultiplier(double double_multiplier, int32_t*
   quantized_multiplier, int* shift) (quantization_util.cc).
   single_rounding: built with TFLITE_SINGLE_ROUNDING (a shift above 30
   becomes (2^31 - 1, 30)); emulate_float: built with TFLITE_EMULATE_FLOAT
   (IntegerFrExp instead of std::frexp + std::round).
   The default build (0, 0) is what SPEC 7.3 names. Returns 0 with the
   original's outputs, or -1 (nothing written) where the original is
   undefined (default build: NaN, +-Inf) or aborts in a TFLITE_CHECK
   (emulate_float: +Inf fails `q_fixed <= 1LL << 31`). Under
   emulate_float NaN passes every check and gives (0, INT_MAX), -Inf
   gives (0, INT_MAX) too (INT64_MIN cast to int32), and with
   single_rounding both become (2^31 - 1, 30).
   Negative multipliers are not rejected by the original: -x gives
   (-m, s) for x's (m, s), except that -2^31 fits and is not carried
   (e.g. -(1 - 2^-40) gives (INT32_MIN, 0)). Shifts above 30 are returned
   as they are by the default build. */
RQREF_UNUSED static int rqref_tflite_quantize_multiplier(double double_multiplier, int32_t *quantized_multiplier,
                                                         int *shift, int single_rounding, int emulate_float)
{
    int64_t q_fixed;
    int sh = 0;
    if (double_multiplier == 0.) {
        *quantized_multiplier = 0;
        *shift = 0;
        return 0;
    }
    if (emulate_float) {
        q_fixed = rqref_tflite_integer_frexp(double_multiplier, &sh);
    } else {
        double q;
        if (double_multiplier != double_multiplier || double_multiplier - double_multiplier != 0.)
            return -1; /* NaN, +-Inf: undefined in the original */
        q = frexp(double_multiplier, &sh);
        q_fixed = (int64_t)round(q * (double)(1LL << 31));
    }
    if (!(q_fixed <= (1LL << 31))) return -1; /* TFLITE_CHECK aborts (+Inf under emulate_float) */
    if (q_fixed == (1LL << 31)) {
        q_fixed /= 2;
        ++sh;
    }
    /* TFLITE_CHECK_LE(q_fixed, INT32_MAX): cannot fail after the carry */
    if (sh < -31) {
        sh = 0;
        q_fixed = 0;
    }
    if (single_rounding) {
        if (sh > 30) {
            sh = 30;
            q_fixed = (1LL << 31) - 1;
        }
    }
    /* static_cast<int32_t>: q_fixed < -2^31 only for emulate_float's -Inf
       (INT64_MIN, shift INT_MAX); it wraps to 0 there. */
    *quantized_multiplier = rqref__wrap32(q_fixed);
    *shift = sh;
    return 0;
}

/* ======================================================================
   CMSIS-NN, Include/arm_nnsupportfunctions.h
   ====================================================================== */

/* CMSIS-NN arm_nn_doubling_high_mult_no_sat(int32_t m1, int32_t m2), the C
   branch (not CMSIS_NN_USE_REQUANTIZE_INLINE_ASSEMBLY, whose smull/lsrs/adc
   computes the same). The union arm_nn_long_long {low = 1 << 30, high = 0}
   is the int64 2^30 on the little-endian targets CMSIS-NN supports.
   floor((m1 * m2 + 2^30) / 2^31): the same as gemmlowp's srdhm except
   INT32_MIN * INT32_MIN, which wraps to INT32_MIN here (no saturation). */
RQREF_UNUSED static int32_t rqref_cmsis_doubling_high_mult_no_sat(int32_t m1, int32_t m2)
{
    int32_t result = 0;
    int64_t mult;
    mult = (int64_t)1 << 30;
    mult = mult + (int64_t)m1 * m2;
    result = rqref__wrap32(rqref__asr64(mult, 31));
    return result;
}

/* CMSIS-NN arm_nn_divide_by_power_of_two(const int32_t dividend, const
   int32_t exponent), the C branch; exponent in [0, 31]. Half away from
   zero, as gemmlowp's RoundingDivideByPOT. `(1 << exponent) - 1` for
   exponent 31 is undefined in C; done in uint32_t (0x7FFFFFFF). */
RQREF_UNUSED static int32_t rqref_cmsis_divide_by_power_of_two(int32_t dividend, int32_t exponent)
{
    int32_t result = 0;
    const int32_t remainder_mask = rqref__wrap32((int64_t)(((uint32_t)1 << exponent) - 1u));
    int32_t remainder = remainder_mask & dividend;
    int32_t threshold;
    result = rqref__asr32(dividend, (int)exponent);
    threshold = remainder_mask >> 1;
    if (result < 0) {
        threshold++;
    }
    if (remainder > threshold) {
        result++;
    }
    return result;
}

/* CMSIS-NN arm_nn_requantize(const int32_t val, const int32_t multiplier,
   const int32_t shift), the default build (neither
   CMSIS_NN_USE_SINGLE_ROUNDING nor CMSIS_NN_USE_REQUANTIZE_INLINE_ASSEMBLY;
   the inline-assembly branch splits on shift >= 0 but computes the same).
   val * (1 << LEFT_SHIFT(shift)) wraps as TFLite's does. */
RQREF_UNUSED static int32_t rqref_cmsis_requantize_double(int32_t val, int32_t multiplier, int32_t shift)
{
    const int32_t left = shift > 0 ? shift : 0;   /* LEFT_SHIFT(shift) */
    const int32_t right = shift > 0 ? 0 : -shift; /* RIGHT_SHIFT(shift) */
    return rqref_cmsis_divide_by_power_of_two(
        rqref_cmsis_doubling_high_mult_no_sat(rqref__mul_wrap(val, (int32_t)1 << left), multiplier), right);
}

/* CMSIS-NN arm_nn_requantize built with CMSIS_NN_USE_SINGLE_ROUNDING:
   (val * m) >> (30 - shift), then (r + 1) >> 1 -- the same floor as
   TFLite's single rounding (two floors nest into one); the int64 result is
   returned through int32_t (wraps for shift > 0 and a result outside
   int32). */
RQREF_UNUSED static int32_t rqref_cmsis_requantize_single(int32_t val, int32_t multiplier, int32_t shift)
{
    const int64_t total_shift = 31 - shift;
    const int64_t new_val = val * (int64_t)multiplier;
    int64_t result = rqref__asr64(new_val, (int)(total_shift - 1));
    result = rqref__asr64(result + 1, 1);
    return rqref__wrap32(result);
}

/* ---- CMSIS-NN MVE (ARM_MATH_MVEI) variants, one lane in scalar C ------- */
/* The intrinsics, per lane, from the Arm ARM (MVE) pseudocode:
   VQRDMULH: SignedSat32((2 * a * b + 2^31) >> 32)
   VQDMULH:  SignedSat32((2 * a * b) >> 32)
   VSHL (register, signed): a << n for n >= 0, bits above 32 dropped
             (no saturation); a >> -n for n < 0
   VRSHL:    n < 0: (a + 2^(-n-1)) >> -n in full precision; n >= 0: a << n
   VQADD:    SignedSat32(a + b)
   VSHR #31: a >> 31 (arithmetic)
   2ab is exact in int64 except for INT32_MIN^2 (2^63), so the pair is
   computed as (ab + 2^30) >> 31 and ab >> 31 with that one case
   saturated. */
RQREF_UNUSED static int32_t rqref_mve_vqrdmulh(int32_t a, int32_t b)
{
    if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
    return (int32_t)rqref__asr64((int64_t)a * b + ((int64_t)1 << 30), 31);
}

RQREF_UNUSED static int32_t rqref_mve_vqdmulh(int32_t a, int32_t b)
{
    if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
    return (int32_t)rqref__asr64((int64_t)a * b, 31);
}

RQREF_UNUSED static int32_t rqref_mve_vshl(int32_t a, int32_t n)
{
    if (n >= 32 || n <= -32) return n > 0 ? 0 : (a < 0 ? -1 : 0);
    if (n >= 0) return rqref__wrap32((int64_t)((uint32_t)a << n));
    return rqref__asr32(a, -n);
}

RQREF_UNUSED static int32_t rqref_mve_vrshl(int32_t a, int32_t n)
{
    if (n >= 0) return rqref_mve_vshl(a, n);
    return rqref__wrap32(rqref__asr64((int64_t)a + ((int64_t)1 << (-n - 1)), -n));
}

RQREF_UNUSED static int32_t rqref_mve_vqadd(int32_t a, int32_t b)
{
    int64_t s = (int64_t)a + b;
    return s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : (int32_t)s;
}

/* CMSIS-NN arm_doubling_high_mult_mve(m1, m2) = vqrdmulhq_n_s32(m1, m2). */
RQREF_UNUSED static int32_t rqref_cmsis_doubling_high_mult_mve(int32_t m1, int32_t m2)
{
    return rqref_mve_vqrdmulh(m1, m2);
}

/* CMSIS-NN arm_divide_by_power_of_two_mve(dividend, exponent):
   shift = -exponent; fixup = (dividend & shift) >> 31 (-1 for a negative
   dividend when exponent > 0); vrshlq(vqaddq(dividend, fixup), shift).
   Half away from zero, as the scalar one, INT32_MIN included (the
   saturating add keeps it, and it is no tie). */
RQREF_UNUSED static int32_t rqref_cmsis_divide_by_power_of_two_mve(int32_t dividend, int32_t exponent)
{
    const int32_t shift = -exponent;
    const int32_t fixup = rqref__asr32(dividend & shift, 31);
    const int32_t fixed_up_dividend = rqref_mve_vqadd(dividend, fixup);
    return rqref_mve_vrshl(fixed_up_dividend, shift);
}

/* CMSIS-NN arm_requantize_mve(val, multiplier, shift), default build:
   arm_divide_by_power_of_two_mve(arm_doubling_high_mult_mve(
       vshlq_s32(val, LEFT_SHIFT(shift)), multiplier), RIGHT_SHIFT(shift)). */
RQREF_UNUSED static int32_t rqref_cmsis_requantize_mve_double(int32_t val, int32_t multiplier, int32_t shift)
{
    const int32_t left = shift > 0 ? shift : 0;
    const int32_t right = shift > 0 ? 0 : -shift;
    return rqref_cmsis_divide_by_power_of_two_mve(
        rqref_cmsis_doubling_high_mult_mve(rqref_mve_vshl(val, left), multiplier), right);
}

/* CMSIS-NN arm_requantize_mve with CMSIS_NN_USE_SINGLE_ROUNDING:
   right_shift = MIN(-1, shift); left_shift = shift - right_shift;
   vrshlq(vqdmulhq_n(vshlq(val, left_shift), multiplier), right_shift).
   The same floor as the scalar single rounding, but for shift >= 0 the
   input is shifted left by shift + 1 in 32 bits first, so it wraps for
   |val| >= 2^(30 - shift) -- one bit earlier than the double-rounding
   builds, and where the scalar single-rounding one (int64) does not wrap
   at all. */
RQREF_UNUSED static int32_t rqref_cmsis_requantize_mve_single(int32_t val, int32_t multiplier, int32_t shift)
{
    const int32_t right_shift = -1 < shift ? -1 : shift; /* MIN(-1, shift) */
    const int32_t left_shift = shift - right_shift;
    int32_t result = rqref_mve_vqdmulh(rqref_mve_vshl(val, left_shift), multiplier);
    result = rqref_mve_vrshl(result, right_shift);
    return result;
}

/* ======================================================================
   XNNPACK fp32 requantization
   ====================================================================== */

/* math_min_f32 / math_max_f32 (src/xnnpack/math.h), the generic branch
   (ARMv8 gcc uses fminf/fmaxf; they differ only on NaN, which never
   reaches them here). */
RQREF_UNUSED static float rqref_xnn_min_f32(float a, float b) { return b < a ? b : a; }
RQREF_UNUSED static float rqref_xnn_max_f32(float a, float b) { return b < a ? a : b; }

RQREF_UNUSED static uint32_t rqref_xnn_float_as_uint32(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* XNNPACK xnn_qs8_requantize_fp32__scalar_fmagic (one element of its
   4-wide loop), src/qs8-requantization/qs8-requantization-fp32-scalar-fmagic.c.
   The clamp bounds and zero point are int32 here so that one function also
   serves u8 (qu8-requantization-fp32-scalar-fmagic.c: the same with
   uint8_t widened through uint32_t) and s16 (no XNNPACK kernel; the same
   formula). The magic-number rounding is exact (ties to even) while
   |clamped| < 2^22, which holds for every 8- and 16-bit clamp range. */
RQREF_UNUSED static int32_t rqref_xnn_requantize_fp32_fmagic(int32_t x, float scale, int32_t zero_point,
                                                             int32_t qmin, int32_t qmax)
{
    const float fmin = (float)(qmin - zero_point);
    const float fmax = (float)(qmax - zero_point);
    const float fmagic = 12582912.0f;
    const int32_t imagic = INT32_C(0x4B400000) - zero_point;
    const float x_scaled = (float)x * scale;
    const float x_clamped = rqref_xnn_min_f32(rqref_xnn_max_f32(x_scaled, fmin), fmax);
    const int32_t x_biased = (int32_t)rqref_xnn_float_as_uint32(x_clamped + fmagic) - imagic;
    return x_biased;
}

/* XNNPACK xnn_qs8_requantize_fp32__scalar_lrintf (one element),
   src/qs8-requantization/qs8-requantization-fp32-scalar-lrintf.c; also
   xnn_qs8_requantize_fp32 / xnn_qu8_requantize_fp32 in
   src/xnnpack/requantization.h, which are this with int8_t/uint8_t
   arguments. lrintf in the default rounding mode (to nearest even). */
RQREF_UNUSED static int32_t rqref_xnn_requantize_fp32_lrintf(int32_t x, float scale, int32_t zero_point,
                                                             int32_t qmin, int32_t qmax)
{
    const float fmin = (float)(qmin - zero_point);
    const float fmax = (float)(qmax - zero_point);
    const float x_scaled = (float)x * scale;
    const float x_clamped = rqref_xnn_min_f32(rqref_xnn_max_f32(x_scaled, fmin), fmax);
    const int32_t x_rounded = (int32_t)lrintf(x_clamped);
    const int32_t x_biased = x_rounded + zero_point;
    return x_biased;
}

/* The int8/uint8 signatures of XNNPACK, for the record. */
RQREF_UNUSED static int8_t rqref_xnn_qs8_requantize_fp32(int32_t input, float scale, int8_t zero_point,
                                                         int8_t min, int8_t max)
{
    return (int8_t)rqref_xnn_requantize_fp32_lrintf(input, scale, zero_point, min, max);
}

RQREF_UNUSED static uint8_t rqref_xnn_qu8_requantize_fp32(int32_t input, float scale, uint8_t zero_point,
                                                          uint8_t min, uint8_t max)
{
    return (uint8_t)rqref_xnn_requantize_fp32_lrintf(input, scale, (int32_t)(uint32_t)zero_point,
                                                     (int32_t)(uint32_t)min, (int32_t)(uint32_t)max);
}

#endif
