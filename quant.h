/* quant.h - exact f32/f16/bf16 <-> s8/u8/s16/s4/u4/s2/u2/f8/f4 quantization in one header.
   Public domain or MIT, at your choice; see the end of the file.

   WHAT IT IS

   The four oneDNN Graph operations Quantize, Dequantize, DynamicQuantize and
   DynamicDequantize, per tensor, per channel on any axis or per group, for
   s8, u8, s4, u4, f8_e4m3 and f8_e5m2 on one side and f32, f16 and bf16 on
   the other (and s32 -> f32 dequantize, for bias tensors), with results
   defined to the bit: the same bits on every backend, compiler and
   optimization level.

   s4/u4 pack two elements per byte, element 2k in the low nibble of byte
   k (ceil(n/2) bytes; an odd count's last high nibble is written 0); s2
   (-2..1) and u2 (0..3) pack four, element 4k+j in bits 2j and 2j+1 of
   byte k (ceil(n/4) bytes; the bits past the last element written 0); f16
   and bf16 are uint16_t bit patterns. Per group, attrs.group_shape[d] is
   the group size along dim d (>= 1 below the rank, 0 past it); the scales
   form a row-major grid of ceil(dims[d] / group_shape[d]) entries per dim,
   element (i0, i1, ...) using entry (i0 / g0, i1 / g1, ...); static ops take
   the grid as the scales list, dynamic ops a tensor of the grid's dims (or
   1-D when only one grid dim exceeds 1); zero points likewise, or one for
   the whole tensor.

   HOW TO INCLUDE IT

   In exactly one C or C++ file:

       #define QUANT_IMPLEMENTATION
       #include "quant.h"

   Everywhere else include it plainly. Define QUANT_STATIC as well to make
   every function static to that translation unit (several units may do so).

   CONFIGURATION MACROS (define before including the implementation)

   QUANT_SIMD        forces a backend: QUANT_SIMD_SCALAR, QUANT_SIMD_SSE2,
                     QUANT_SIMD_AVX2, QUANT_SIMD_AVX512, QUANT_SIMD_NEON or
                     QUANT_SIMD_HELIUM (Arm MVE with floating point, as on
                     Cortex-M55 and M85);
                     only that one is compiled. Forcing a backend the
                     compiler flags do not allow is a compile error.
                     Unset on x86-64 with gcc >= 9 or clang >= 8: runtime
                     dispatch. The SSE2, AVX2 and AVX-512 (with and without
                     VBMI and DQ) kernels are all compiled, whatever the flags,
                     and the first call picks the best one the CPU and OS
                     support (cpuid, xgetbv; the AVX2 and AVX-512 passes
                     also use x86-64-v3's BMI1, BMI2, LZCNT, POPCNT and
                     F16C, and need them); the choice is cached in one
                     int, the library's only mutable data, which any
                     thread may set, always to the same value. Flags that
                     already give AVX-512 F+BW+VL skip dispatch.
                     Otherwise unset: the best the compiler's own macros
                     allow: __AVX512F__+__AVX512BW__+__AVX512VL__ ->
                     avx512 (its VBMI pass with __AVX512VBMI__ and
                     __AVX512DQ__ too), __AVX2__+__FMA__ -> avx2, __SSE2__ -> sse2,
                     __ARM_NEON -> neon, __ARM_FEATURE_MVE with bit 1
                     (MVE-F) -> helium, else scalar (MSVC included: it
                     gets no dispatch). quant_backend() names the one in
                     use. The passes are compiled by including this file
                     again from itself: keep its name quant.h.
   QUANT_NO_DISPATCH no runtime dispatch: the backend the flags allow, and
                     no mutable data at all (about 170 KB less code).
   QUANT_STATIC      every public function is static.
   QUANT_NO_F8       leaves the f8 kernels out (f8 dtypes then give
                     QUANT_ERR_DTYPE); for firmware that needs only integers.
   QUANT_ONLY_EXACT  leaves the onednn, onnx and torch roundings out (they
                     then give QUANT_ERR_ATTR); the default exact stays.
   QUANT_NO_4BIT     leaves s4/u4 and s2/u2 out (QUANT_ERR_DTYPE; as zero
                     points QUANT_ERR_ZPS) and the quant_u4_ / quant_s4_ rows.
   QUANT_NO_HALF     leaves f16/bf16 out (QUANT_ERR_DTYPE; as scales
                     QUANT_ERR_SCALES) and the rows that read or write them.
   QUANT_NO_GROUPS   leaves per_group out (QUANT_ERR_QTYPE).
   QUANT_SHORT_STATUS  quant_status_str gives the status's name, not a
                     sentence (for firmware).
   QUANT_NO_PARSE    leaves quant_attrs_set and quant_dtype_from_name out.
   QUANT_NO_CHOOSE   leaves quant_choose_qparams and
                     quant_choose_and_quantize out.
   QUANT_NO_EXPLAIN  leaves quant_explain out.
   QUANT_NO_PLAN     leaves quant_prepare, quant_run, quant_run_range and
                     quant_plan_units out.
   QUANT_NO_STRIDES  leaves the strided path out: attrs with src_strides
                     or dst_strides non-NULL then give QUANT_ERR_STRIDE.
   QUANT_NO_MX       leaves f4_e2m1, e8m0 and f8_e4m3 scales tensors and
                     attrs.tensor_scale out (QUANT_ERR_DTYPE, as scales
                     QUANT_ERR_SCALES; a tensor_scale QUANT_ERR_ATTR).
   QUANT_NO_S16      leaves s16 tensors and zero points out (QUANT_ERR_DTYPE,
                     as zero points QUANT_ERR_ZPS).
   QUANT_NO_BLOCKS   leaves ggml's block formats out (QUANT_ERR_DTYPE); their
                     encoders take about 1 KiB of stack in a scalar build,
                     and up to about 23 KiB with AVX2 or AVX-512 (Q3_K
                     searches 8 blocks at a time with AVX2, 32 with
                     AVX-512, and keeps their levels and sums for the
                     groups still changing); with AVX-512 a large decode to
                     f32 takes about 4 KiB (a piece decoded in L1 before
                     it streams out).
   QUANT_NO_REQUANT  leaves quant_requantize and quant_quantize_multiplier
                     out.
   QUANT_MINIMAL     the smallest build (for firmware), in one macro: all
                     fifteen above, QUANT_NO_F8 to QUANT_NO_REQUANT. Keep a
                     feature by defining its QUANT_WITH_ macro as well:
                     QUANT_WITH_F8, _ROUNDINGS (onednn, onnx, torch), _4BIT,
                     _HALF, _GROUPS, _STATUS_TEXT (sentences), _PARSE,
                     _CHOOSE, _EXPLAIN, _PLAN, _STRIDES, _MX, _S16, _BLOCKS,
                     _REQUANT.
   QUANT_INT8        int8 inference on firmware: QUANT_MINIMAL with
                     QUANT_WITH_S16 and QUANT_WITH_REQUANT (quantize,
                     dequantize and requantize of s8, u8 and s16, exact
                     rounding only).
   QUANT_STREAM_BYTES  x86: an s8/u8 quantize or dequantize kernel call with
                     one scale whose destination is at least this many bytes,
                     and a requantize to s8/u8 of at least this many
                     elements (default 16 MiB; 0: never), writes it with
                     streaming stores, which leave the caches to data that
                     fits them.
   QUANT_PREFETCH_BYTES  x86: a quantize kernel call that reads at least
                     this many bytes (default 1 MiB; 0: never) prefetches
                     its source 8 KiB ahead. A requantize prefetches
                     2.5 KiB ahead when it streams, and in cache too where
                     it computes in floats (FLOAT, and DOUBLE and SINGLE
                     to s8/u8 with right shifts where AVX-512 or SSE2
                     tries floats first: see quant__v_rq_fput); 0: never.

   ATTRIBUTES FROM STRINGS: quant_attrs_set(&a, name, value)

     qtype        per_tensor | per_channel | per_group
     group_shape  x-separated decimals >= 1 ("1x128"): entries 0..k-1, the
                  rest cleared
     axis         decimal int64, optional sign; negative counts from the end
     rounding     exact | onednn | onnx | torch
     f8_overflow  saturate | inf_nan
     on_error     untouched | partial (see CHOOSING SCALES FROM THE DATA)
   An unknown name is QUANT_ERR_ATTR, a value that does not parse
   QUANT_ERR_PARSE; on either the attributes are unchanged.

   CHOOSING SCALES FROM THE DATA: quant_choose_qparams

   One scale and zero point per grid entry of attrs' qtype (per tensor,
   per channel, per group; attrs NULL: per tensor), from the entry's
   elements with NaN left out: lo and hi their least and greatest, min0 =
   min(0, lo), max0 = max(0, hi) (a zero bound is +0). qmin/qmax: s8
   -128/127, u8 0/255, s4 -8/7, u4 0/15, s2 -2/1, u2 0/3, f8 -448/448
   (e4m3), -57344/57344.

     asymmetric  s = fl(fl(max0 - min0) / (qmax - qmin)),
                 z = sat(qmin + rne(fl(-min0 / s)));
                 u8 per tensor is ONNX DynamicQuantizeLinear's reference
     symmetric   s = fl(max(-min0, max0) / qmax), z = 0
     nudged      XNNPACK's xnn_qd8_asymmetric_quantization_params, with
                 the signed type's range (s8; s4 as -8/7, s2 as -2/1): m = fl(255 /
                 fl(max0 - min0)) (1 when max0 == min0), s = fl(1/m),
                 dmin = fl(min0 * m), dmax = fl(max0 * m), z = rne(clamp(
                 fl(qmin - dmin) if fl(fl(qmin + dmin) + fl(qmax + dmax))
                 > 0, else fl(qmax - dmax))); u8 (u4, u2) adds 128 (8, 2), as
                 XNNPACK's qdu8. An all-zero range gives s = 1 and z =
                 qmax (u8: 255), XNNPACK's bits.

   Asymmetric and symmetric give s = 1, z = 0 for an all-zero (or all-NaN)
   entry; any computed s below 2^-126 becomes 2^-126 (nudged: then m =
   2^126), so every scale written passes validation. An entry whose
   max0 - min0 (asymmetric, nudged) or max(-min0, max0) is infinite (an
   infinite element, or a range past the largest float) is
   QUANT_ERR_SCALE_VALUE with nothing written (on_error partial: see
   below). f8 takes only symmetric
   (else QUANT_ERR_DTYPE). scales: an f32 tensor shaped as the dynamic ops
   take it (else QUANT_ERR_SCALES); zps: s32, s8 or u8 of the same shape,
   of a type that holds [qmin, qmax] (else QUANT_ERR_ZPS), or NULL for
   symmetric (else QUANT_ERR_NULL). Outputs overlapping src or each other
   are QUANT_ERR_OVERLAP.

   Block scales (OCP MX, NVFP4), from amax, the entry's largest |x| (NaN
   left out; an infinite element is QUANT_ERR_SCALE_VALUE), E(a) the
   biased exponent field of a (0 for 0 and subnormals), max 448, 57344,
   6, 127 for e4m3, e5m2, f4_e2m1, s8:

     QUANT_MX        e8m0 code clamp(E(amax) - E(max) + 127, 0, 254): the
                     power of two of amax over that of max (oneDNN's
                     dynamic_mx); qdt e4m3, e5m2, f4_e2m1 or s8 (MXINT8)
     QUANT_MX_RCEIL  e8m0 code of the smallest power of two >= fl(amax /
                     max), at most 254; same qdts
     QUANT_NVFP4     f8_e4m3 rne(max(fl(fl(amax / 6) / g), 2^-9)),
                     saturating at 448, g = attrs.tensor_scale or 1; qdt
                     f4_e2m1. Under onednn oneDNN's dynamic_fp: the value
                     clamped to [2^-3, 448], then to e4m3 through f16.

   The scales tensor is e8m0 (MX) or f8_e4m3 (NVFP4), or f32 holding the
   same values; zps must be NULL (QUANT_ERR_ZPS); a tensor_scale with an
   MX scheme is QUANT_ERR_ATTR (the old schemes take none either). The
   fused op quantizes with each scale s (NVFP4: fl(s * g)) by section 3's
   rules of the rounding, s8 kept to [-127, 127]; under onednn it is
   oneDNN's matmul dynamic quantization: fl(x * fl(1/s)) clamped to
   [-max, max], NaN to -max, then converted (f8 through f16). It quantizes
   an element at a time for now (no vector kernel yet); dequantize of f4
   and the quant_mxfp4_to_* / quant_nvfp4_to_* rows look each element up
   in its group's table of 16 results (AVX-512: vpermps / vpermw).

   quant_choose_and_quantize also writes dst (dtype qdt) with attrs'
   rounding and f8_overflow, as quant_dynamic_quantize would with those
   scales; nudged instead multiplies by m, as XNNPACK's convert does:
   q = sat(rne(fl(x * m)) + z) (fl(1/s) differs from m for about one m in
   six). It walks the grid in batches of entries whose elements stay in
   cache, each quantized right after its range is known. Reads: a grid of
   at most 256 entries (2 in a scalar build) is read once by
   quant_choose_qparams; the fused op reads each element twice, the
   second time from cache except per tensor and per column. With more
   entries (the fused op: more than 64 Ki elements), one more read of src
   first makes sure no range is infinite, because nothing may be written
   before that is known; attrs' on_error = QUANT_ON_ERROR_PARTIAL drops
   that read, and then an infinite range returns QUANT_ERR_SCALE_VALUE
   with the outputs partly written (which parts is unspecified). Errors in
   the arguments write nothing either way.

   FINDING YOUR WAY: grep for these tags

     >>select   backend choice and x86 runtime dispatch (near the top)
     >>parts    how the rest of the file is compiled, part by part
     >>prims    one backend's primitives over a float, an int and a mask vector
     >>unit     a kernel family: its scalar definition, its vector body, its
                row loop and its dispatch, next to each other (>>unit
                scales, quantize, dequantize, f8_encode, f8_decode); each
                family's functions share a stem (f32_to_i8, f8_to_f32, ...);
                >>unit run walks a validated operation over the kernels
     >>ops      validation and the op layer
     >>api      the public functions

   THE ARITHMETIC PROMISE

   fl(e) is e evaluated in binary32, round to nearest even; rne() rounds to
   the nearest integer, ties to even; sat() clamps to the destination range.
   x is a source element, s its scale, z its zero point.

     rounding   integer quantize q                   who does it this way
     exact      sat(rne(fl(fl(x / s) + (float)z)))   the seed formula (default)
     onednn     sat(rne(fl(fl(x * fl(1/s)) + (float)z)))  oneDNN reorder
     onnx       sat(rne(fl(x / s)) + z)              ONNX QuantizeLinear, MLAS
     torch      sat(rne(fl(x * fl(1/s))) + z)        PyTorch/FBGEMM, XNNPACK

   NaN quantizes to sat(z); an infinite quotient saturates by its sign; no
   magnitude ever wraps. Dequantize is fl((float)(q - z) * s) with q - z
   exact (s32 too). s4 saturates to [-8, 7], u4 to [0, 15]. f16/bf16
   sources and scales are widened exactly; dequantize to f16/bf16 rounds
   the f32 result once more to nearest even (f16 65520 and up is Inf), NaN
   to 0x7E00 / 0x7FC0 with its sign. f8 quantize rounds fl(x / s) (exact,
   onnx) or fl(x * fl(1/s)) (torch) once, to nearest even, straight to f8, keeping
   subnormals and the sign of zero; overflow and infinities give the max
   finite value (f8_overflow saturate, the default) or NaN / Inf (inf_nan);
   NaN gives 0x7F, or 0xFF when x has its sign bit set. f8 dequantize is
   fl(decode(q) * s); NaN codes give 0x7FC00000 / 0xFFC00000.

   onednn with f8 takes oneDNN's route instead, bit for bit: fl(x * fl(1/s))
   is rounded to f16 (nearest even; 65520 and up is infinite) and that to
   f8 (nearest even), two roundings; inf_nan then gives exactly oneDNN's
   codes. A NaN x gives e4m3 0x7F and e5m2 0x7E | (bit 21 of x), with x's
   sign, and e5m2 dequantize of 0x7D / 0x7F gives 0x7FE00000 (the payload
   bit oneDNN's f16 route keeps). -0 stays -0, as in oneDNN's conversion.
   onednn dequantize to bf16 flushes results below 2^-126 in magnitude to
   the zero of their sign, as oneDNN's f32 -> bf16 conversion does; the
   other roundings keep bf16 subnormals.

   s16 follows the integer rules above with [-32768, 32767] (TFLite's
   16x8 activations; element by element for now), and s16 zero-point
   tensors are taken; the choose pair does not take it yet.

   f4_e2m1 (OCP FP4, packed as s4): quantize rounds the rounding's
   quotient (fl(x / s), or fl(x * fl(1/s)) for onednn and torch) to the
   nearest of +-{0, .5, 1, 1.5, 2, 3, 4, 6}, ties to the even code (0.25
   -> 0, 0.75 -> 1, 1.25 -> 1, 1.75 -> 2, 2.5 -> 2, 3.5 -> 4, 5 -> 4);
   beyond 6 and +-Inf give +-6 whatever f8_overflow says; the quotient's
   sign is kept (-0 gives code 0x8). NaN gives 0, or under onednn 6 with
   x's sign (oneDNN's float2e2m1). Zero points as f8: all zero or none.
   Dequantize is fl(decode(q) * s). Scales tensors may also be e8m0 (code
   c is 2^(c - 127), 0xFF NaN; code 0, 2^-127, is the one subnormal scale
   accepted) or f8_e4m3 (decoded exactly; 0, negative or NaN is
   QUANT_ERR_SCALE_VALUE). attrs.tensor_scale, when not +-0, must be a
   finite normal positive float (else QUANT_ERR_SCALE_VALUE): every scale
   s of the op becomes fl(s * tensor_scale), in quantize and dequantize,
   and a folded scale that fails validation is QUANT_ERR_SCALE_VALUE.

   This holds in the default floating-point environment: round to nearest
   even, denormals neither flushed nor treated as zero. -ffast-math breaks
   it, so the implementation refuses to compile under __FAST_MATH__;
   -ffp-contract=fast is fine (products pass through an optimization
   barrier before any addition).

   Validation runs to completion before the first write: on any error the
   operation returns a non-zero quant_status and leaves dst untouched; an
   empty tensor (a zero dim) is valid, may have NULL data, and writes
   nothing. When several rows apply, any of their statuses may come back.

     QUANT_ERR_NULL         src, dst, a static op's attrs, the scales list or
                            tensor, or a needed data pointer is NULL; a zps
                            list NULL with n_zps > 0
     QUANT_ERR_DTYPE        dtype or combination the op does not take
     QUANT_ERR_RANK         rank < 0 or > QUANT_MAX_RANK
     QUANT_ERR_SHAPE        a negative dim; element or byte count past
                            SIZE_MAX or INT64_MAX; src and dst dims differ
     QUANT_ERR_QTYPE        qtype not per_tensor, per_channel or per_group
     QUANT_ERR_AXIS         per-channel axis outside [-rank, rank-1], rank 0
     QUANT_ERR_SCALES       not 1 scale (per tensor), dims[axis] scales
                            (per channel) or the grid's count (per group);
                            scales tensor not f32/f16/bf16/e8m0/e4m3, not 1-D (rank 0
                            is fine per tensor), per group not the grid's
                            shape
     QUANT_ERR_SCALE_VALUE  a scale 0, NaN, +-Inf, or <= 2^-128 in magnitude
     QUANT_ERR_ZPS          not 1 (or as many as the scales) zero points;
                            zps tensor not s8/u8/s32/s4/u4, or not shaped
                            as the scales (or, per group, one element); a
                            zps list with n_zps 0; a non-zero zero point
                            with f8
     QUANT_ERR_ZP_VALUE     a static zero point outside int32
     QUANT_ERR_ATTR         unknown rounding, f8_overflow or on_error value
                            (any op), unknown attribute name; per group, a
                            group_shape entry < 1 below the rank or set
                            past it
     QUANT_ERR_OVERLAP      dst overlaps src, the scales or the zero points
     QUANT_ERR_PARSE        a dtype name or attribute value does not parse
     QUANT_ERR_ALIGN        f32 or s32 data (src, dst, scales or zps tensor)
                            not on a 4-byte boundary, f16/bf16 data not on
                            a 2-byte one: reading it as such is
                            undefined in C (beyond the oneDNN documents, as
                            is the overlap rule for scales and zero points)
     QUANT_ERR_PLAN         quant_run on a plan quant_prepare did not fill
     QUANT_ERR_RANGE        a range of units with end < begin or past
                            quant_plan_units
     QUANT_ERR_STRIDE       a negative stride; dst strides that give two
                            elements one address; strides given to the
                            choose pair

   quant_explain(op, ...) validates an op's arguments, returns its status
   and writes one line naming the argument and the expected and given
   values into a caller's buffer, e.g. "scales: 64 given; per_channel on
   axis 1 (3 channels) needs 3".

   PREPARED PLANS AND THREADS

   quant_prepare(&plan, op, src, scales, zps, dst, attrs) validates an
   operation once, exactly as the op would, into a caller-owned quant_plan
   (about 750 bytes on 64-bit targets; no allocation). quant_run(&plan,
   src, scales, zps, dst) then runs it on tensors of the same dtypes and
   dims with any data: it checks only what depends on the data (the shapes
   against the plan's, NULL, alignment, overlap, and for the dynamic ops
   the scale and zero-point values), about a tenth of a one-shot call's
   validation. The static ops' scale and zero-point lists are read from
   the arrays given to quant_prepare: they must outlive the plan,
   unchanged. A plan holds no pointer into itself: it may be copied.

   Threads: quant_run_range(&plan, ..., begin, end) runs units
   [begin, end) of quant_plan_units(&plan). A unit is 64 elements of a
   tensor with one scale and zero point, one channel's run of elements
   (the per-channel kernels), or one row of the last dim (two when 4-bit
   rows have an odd length): no byte of dst belongs to two units. Running
   only reads the plan, so threads may run disjoint ranges of one plan at
   once; together the ranges write exactly what quant_run writes. quant.h
   starts no thread. An odd 4-bit count's last high nibble is cleared by
   the range that ends at the last unit.

   STRIDED TENSORS

   attrs.src_strides and attrs.dst_strides give the four operations'
   (one-shot or prepared) src and dst layouts: element (i0, i1, ...) at
   data + sum of i_d * strides[d] elements (for s4/u4, nibbles: element
   k at nibble k, the low half of byte k / 2 when k is even), rank entries
   each, the two free to differ, so a layout change (NCHW read, NHWC written) runs in
   the same call as the quantization, with the bits of the dense
   operation. NULL, or all zero below the rank, is dense row-major. A
   stride may be 0 in src (the element is read again) but not negative;
   dst's strides must give every element its own address (checked
   conservatively: sorted by stride, each dim of more than one element
   steps past everything the smaller strides reach), else
   QUANT_ERR_STRIDE. A strided s4/u4 dst has only its elements' nibbles
   written (the others keep their values), and a plan of one is a single
   unit, since its rows may share bytes. The choose pair takes no
   strides. The overlap check takes each strided tensor as the whole byte
   range from its first element to its last. quant_prepare copies the
   strides into the plan, which then runs every call with them. A strided
   operation walks rows of the dim that dst steps through most finely,
   gathering from src and scattering to dst through a buffer of 256
   elements when those rows are not contiguous; a plan's units are then
   those rows.

   BLOCK FORMATS (ggml's GGUF blocks)

   QUANT_Q4_0 .. QUANT_NVFP4_BLOCK are ggml's block types, byte for byte
   as ggml-common.h lays them out (ggml 0.25.1): each block of 32, 64 or
   256 elements holds its own scales (f16, e8m0, UE4M3 or packed 6-bit).

     dtype          name     block  bytes    dtype          name     block  bytes
     QUANT_Q4_0     q4_0     32     18       QUANT_Q5_K     q5_K     256    176
     QUANT_Q4_1     q4_1     32     20       QUANT_Q6_K     q6_K     256    210
     QUANT_Q5_0     q5_0     32     22       QUANT_Q8_K     q8_K     256    292
     QUANT_Q5_1     q5_1     32     24       QUANT_IQ4_NL   iq4_nl   32     18
     QUANT_Q8_0     q8_0     32     34       QUANT_IQ4_XS   iq4_xs   256    136
     QUANT_Q2_K     q2_K     256    84       QUANT_MXFP4    mxfp4    32     17
     QUANT_Q3_K     q3_K     256    110      QUANT_NVFP4_BLOCK nvfp4 64     36
     QUANT_Q4_K     q4_K     256    144

   A tensor of one has its last dim a multiple of the block (else
   QUANT_ERR_SHAPE), is dense (strides: QUANT_ERR_STRIDE) and takes
   quant_dtype_bytes(t, elements) bytes, rows of whole blocks. quant_quantize
   (f32, f16 or bf16 in) and quant_dequantize (f32, f16 or bf16 out) take
   NULL attrs (the defaults), or attrs with no scale or zero-point list
   (QUANT_ERR_SCALES, QUANT_ERR_ZPS),
   per_tensor (QUANT_ERR_QTYPE) and no tensor_scale (QUANT_ERR_ATTR); the
   dynamic ops take NULL for both tensors. A block type is never a scales
   tensor nor the type the choose pair chooses for (QUANT_ERR_DTYPE). A
   plan's unit is one block.

   Decoding is ggml's dequantize_row_* bit for bit, for any bytes (NaN and
   Inf scales included; a NaN comes out as a NaN, its payload unspecified),
   then rounded once to f16 or bf16 as elsewhere. Encoding is what
   ggml_quantize_chunk writes with no importance matrix (quantize_row_q8_K_ref
   for q8_K), bit for bit whatever attrs.rounding says: q8_0 rounds halves
   away from zero, q4_0 and q5_0 add 8.5 and 16.5 and truncate, mxfp4 takes
   its exponent from glibc's log2f (which rounds up just below a power of
   two) and the first of equally near codes, the K types and iq4 search
   their scales as ggml does. Where ggml's C is undefined (a scale whose
   reciprocal is infinite, converted to an integer), quant.h writes what
   x86 builds of ggml write; q8_K's bsums of an all-zero block are 0. The
   f16 and bf16 sources are widened to f32 first. Every block's arithmetic
   is f32, operation for operation as ggml's, so no build flag changes it.

   REQUANTIZE (int8 inference): quant_requantize(src, dst, rq)

   src s32 (a layer's accumulators), dst s8, u8 or s16 of the same dims,
   dense; rq per tensor (n 1) or per channel on rq->axis (n dims[axis]).
   Element acc with its channel's multiplier m (Q31, >= 0) and shift
   (TFLite's sign: > 0 left), or scale s:
     DOUBLE  v = RDBPOT(SRDHM(acc * 2^max(shift, 0), m), max(-shift, 0)):
             SRDHM(a, m) = floor((a * m + 2^30) / 2^31), RDBPOT(h, k) = h /
             2^k to nearest, halves away from zero. TFLite's reference
             MultiplyByQuantizedMultiplier, CMSIS-NN's arm_nn_requantize.
     SINGLE  v = floor((acc * m + 2^(30 - shift)) / 2^(31 - shift)): their
             single-rounding builds. With shift > 0 the two agree.
     FLOAT   v = rne(fl(fl(acc) * s)): XNNPACK's fp32 requantization.
   then q = clamp(v + zp, act_min, act_max), computed exactly: where the
   references' int32 arithmetic wraps (acc * 2^shift, + zp near the ends)
   quant.h saturates. Errors, outputs untouched: shift outside [-31, 30],
   m < 0, s not finite, positive and normal: QUANT_ERR_SCALE_VALUE; zp
   outside dst's type: QUANT_ERR_ZP_VALUE; act_min > act_max or outside
   the type, an unknown rounding: QUANT_ERR_ATTR; n wrong:
   QUANT_ERR_SCALES; per group: QUANT_ERR_QTYPE; src not s32 or dst not
   s8/u8/s16: QUANT_ERR_DTYPE; a NULL list (n > 0) or data: QUANT_ERR_NULL;
   src off a 4-byte or s16 dst off a 2-byte boundary: QUANT_ERR_ALIGN; dst
   over src or a list: QUANT_ERR_OVERLAP. quant_quantize_multiplier(scale,
   &m, &shift) is TFLite's QuantizeMultiplier (default build): 0 and
   scales below 2^-32 give (0, 0); negative, NaN or infinite scales, or a
   shift past 30, QUANT_ERR_SCALE_VALUE.
*/
#ifndef QUANT__PART /* the header and the main implementation; the parts are further down */
#ifndef QUANT_H_INCLUDED
#define QUANT_H_INCLUDED

#include <stddef.h>
#include <stdint.h>

#define QUANT_VERSION_MAJOR 0
#define QUANT_VERSION_MINOR 1

#ifdef QUANT_STATIC
#  if defined(__GNUC__) || defined(__clang__)
#    define QUANT_API static __attribute__((unused))
#  else
#    define QUANT_API static
#  endif
#else
#  define QUANT_API extern
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define QUANT_MAX_RANK 12

typedef enum quant_dtype {
    QUANT_UNDEF = 0, QUANT_F32, QUANT_S8, QUANT_U8, QUANT_S32,
    QUANT_F8_E4M3, QUANT_F8_E5M2,
    QUANT_S4, QUANT_U4,    /* two per byte, element 2k in the low nibble of byte k */
    QUANT_F16, QUANT_BF16, /* binary16 and bfloat16, stored as uint16_t bit patterns */
    QUANT_F4_E2M1,         /* OCP FP4: sign, 2 exponent bits (bias 1), 1 mantissa bit: +-{0, .5, 1, 1.5, 2, 3, 4, 6};
                              packed as s4 */
    QUANT_E8M0,            /* OCP MX scale: one byte c, the value 2^(c - 127); 0xFF is NaN (scales tensors only) */
    QUANT_S2, QUANT_U2,    /* 2-bit integers, four per byte, element 4k+j in bits 2j, 2j+1 of byte k */
    QUANT_S16,             /* int16 (TFLite's 16x8 activations): quantize, dequantize, zero points */
    /* ggml's block formats (GGUF), byte for byte as ggml lays them out: each
       block holds its own scales. A tensor of one has its last dim a
       multiple of the block and quant_dtype_bytes bytes; see BLOCK FORMATS */
    QUANT_Q4_0, QUANT_Q4_1, QUANT_Q5_0, QUANT_Q5_1, QUANT_Q8_0,            /* 32 a block */
    QUANT_Q2_K, QUANT_Q3_K, QUANT_Q4_K, QUANT_Q5_K, QUANT_Q6_K, QUANT_Q8_K, /* 256 a block */
    QUANT_IQ4_NL, QUANT_IQ4_XS,                                           /* 32; 256 */
    QUANT_MXFP4, QUANT_NVFP4_BLOCK                                        /* 32; 64 */
} quant_dtype;

typedef struct quant_tensor {
    quant_dtype dtype;
    int         rank;                  /* 0 .. QUANT_MAX_RANK; 0 is a scalar */
    int64_t     dims[QUANT_MAX_RANK];  /* row-major, last dim fastest (strides: see attrs) */
    void       *data;
} quant_tensor;

typedef enum quant_qtype { QUANT_PER_TENSOR = 0, QUANT_PER_CHANNEL = 1, QUANT_PER_GROUP = 2 } quant_qtype;

typedef enum quant_rounding {
    QUANT_ROUND_EXACT = 0, QUANT_ROUND_ONEDNN, QUANT_ROUND_ONNX, QUANT_ROUND_TORCH
} quant_rounding;

typedef enum quant_f8_overflow { QUANT_F8_SATURATE = 0, QUANT_F8_INF_NAN = 1 } quant_f8_overflow;
/* What an error found in the data (only the choose pair finds one: an
   infinite range) leaves in the outputs. Errors in the arguments always
   leave them untouched. */
typedef enum quant_on_error {
    QUANT_ON_ERROR_UNTOUCHED = 0, /* nothing written; may cost one more read of src */
    QUANT_ON_ERROR_PARTIAL = 1    /* outputs partly written; src read once */
} quant_on_error;

typedef struct quant_attrs {
    quant_qtype       qtype;       /* default QUANT_PER_TENSOR */
    int64_t           axis;        /* default 1; negative counts from the end */
    const float      *scales;      /* static ops: required list */
    size_t            n_scales;
    const int64_t    *zps;         /* static ops: optional list, NULL = all zero */
    size_t            n_zps;
    quant_rounding    rounding;    /* default QUANT_ROUND_EXACT */
    quant_f8_overflow f8_overflow; /* default QUANT_F8_SATURATE */
    int64_t           group_shape[QUANT_MAX_RANK]; /* per_group: group size along each src dim, >= 1 */
    quant_on_error    on_error;    /* default QUANT_ON_ERROR_UNTOUCHED */
    /* the four ops' src and dst layouts, rank entries each, in elements
       (see STRIDED TENSORS); NULL or all zero: dense row-major */
    const int64_t    *src_strides;
    const int64_t    *dst_strides;
    /* a second, per-tensor scale that multiplies every scale of the call
       (NVFP4's global scale): each s becomes fl(s * tensor_scale); 0: none */
    float             tensor_scale;
} quant_attrs;

typedef enum quant_status {
    QUANT_OK = 0, QUANT_ERR_NULL, QUANT_ERR_DTYPE, QUANT_ERR_RANK, QUANT_ERR_SHAPE,
    QUANT_ERR_QTYPE, QUANT_ERR_AXIS, QUANT_ERR_SCALES, QUANT_ERR_SCALE_VALUE, QUANT_ERR_ZPS,
    QUANT_ERR_ZP_VALUE, QUANT_ERR_ATTR, QUANT_ERR_OVERLAP, QUANT_ERR_PARSE,
    QUANT_ERR_ALIGN, /* 32-bit data not on a 4-byte boundary, 16-bit not on a 2-byte one */
    QUANT_ERR_PLAN,  /* a plan that quant_prepare did not fill in */
    QUANT_ERR_RANGE, /* a range of a plan's units past its end, or backwards */
    QUANT_ERR_STRIDE /* strides the operation does not take (see STRIDED TENSORS) */
} quant_status;

/* per_tensor, axis 1, exact, saturate, no lists */
QUANT_API quant_attrs quant_attrs_default(void);

/* Static ops: scales and zero points from attrs. */
QUANT_API quant_status quant_quantize(const quant_tensor *src, quant_tensor *dst,
                                      const quant_attrs *attrs);
QUANT_API quant_status quant_dequantize(const quant_tensor *src, quant_tensor *dst,
                                        const quant_attrs *attrs);
/* Dynamic ops: scales (1-D f32) and zero points (1-D s8/u8/s32, or NULL)
   from tensors; attrs may be NULL for the defaults, its lists are ignored. */
QUANT_API quant_status quant_dynamic_quantize(const quant_tensor *src, const quant_tensor *scales,
                                              const quant_tensor *zps, quant_tensor *dst,
                                              const quant_attrs *attrs);
QUANT_API quant_status quant_dynamic_dequantize(const quant_tensor *src, const quant_tensor *scales,
                                                const quant_tensor *zps, quant_tensor *dst,
                                                const quant_attrs *attrs);

/* Scales and zero points from the data (dynamic quantization). */
typedef enum quant_scheme {
    QUANT_ASYMMETRIC = 0, QUANT_SYMMETRIC = 1,
    QUANT_ASYMMETRIC_NUDGED = 2, /* XNNPACK qd8 / TFLite: zero point nudged from the end with less error */
    QUANT_MX = 3,        /* OCP MX / oneDNN dynamic_mx: an e8m0 scale, the power of two of the group's amax */
    QUANT_MX_RCEIL = 4,  /* the smallest power of two s with amax / s <= the type's max (NVIDIA's RCEIL) */
    QUANT_NVFP4 = 5      /* NVFP4 / oneDNN dynamic_fp: an f8_e4m3 scale per group, amax / 6 */
} quant_scheme;
/* One scale (f32) and zero point (s32, s8 or u8; NULL for symmetric) per
   grid entry of attrs' qtype (NULL: per tensor), in tensors shaped as the
   dynamic ops take them, for quantizing src to qdt. */
QUANT_API quant_status quant_choose_qparams(const quant_tensor *src, quant_dtype qdt, quant_scheme scheme,
                                            const quant_attrs *attrs, quant_tensor *scales, quant_tensor *zps);
/* The same, and src quantized with them into dst (of dtype qdt), with
   attrs' rounding (nudged: XNNPACK's multiplier, see the doc block). */
QUANT_API quant_status quant_choose_and_quantize(const quant_tensor *src, quant_tensor *dst, quant_scheme scheme,
                                                 const quant_attrs *attrs, quant_tensor *scales, quant_tensor *zps);

/* Row kernels: dense, per tensor, exact rounding, f8 saturate, no
   validation. With an invalid scale they still write exactly n outputs. */
QUANT_API void quant_f32_to_s8(const float *src, int8_t *dst, size_t n, float scale, int32_t zp);
QUANT_API void quant_f32_to_u8(const float *src, uint8_t *dst, size_t n, float scale, int32_t zp);
QUANT_API void quant_s8_to_f32(const int8_t *src, float *dst, size_t n, float scale, int32_t zp);
QUANT_API void quant_u8_to_f32(const uint8_t *src, float *dst, size_t n, float scale, int32_t zp);
QUANT_API void quant_f32_to_f8_e4m3(const float *src, uint8_t *dst, size_t n, float scale);
QUANT_API void quant_f32_to_f8_e5m2(const float *src, uint8_t *dst, size_t n, float scale);
QUANT_API void quant_f8_e4m3_to_f32(const uint8_t *src, float *dst, size_t n, float scale);
QUANT_API void quant_f8_e5m2_to_f32(const uint8_t *src, float *dst, size_t n, float scale);
/* 16-bit float rows, exact rounding: bf16 or f16 bit patterns in. */
QUANT_API void quant_bf16_to_s8(const uint16_t *src, int8_t *dst, size_t n, float scale, int32_t zp);
QUANT_API void quant_bf16_to_u8(const uint16_t *src, uint8_t *dst, size_t n, float scale, int32_t zp);
QUANT_API void quant_f16_to_s8(const uint16_t *src, int8_t *dst, size_t n, float scale, int32_t zp);
QUANT_API void quant_f16_to_u8(const uint16_t *src, uint8_t *dst, size_t n, float scale, int32_t zp);
/* Packed 4-bit weight rows (element 2k in the low nibble of byte k), one
   scale and zero point per group of g elements: element i uses scales[i / g]
   and zero point i / g of zps, packed like src (NULL: all 0); g 0: one
   group. dst gets fl((q - z) * s), as f32 or rounded once more to f16/bf16. */
QUANT_API void quant_u4_to_f32(const uint8_t *src, float *dst, size_t n, const float *scales, const uint8_t *zps, size_t g);
QUANT_API void quant_u4_to_f16(const uint8_t *src, uint16_t *dst, size_t n, const float *scales, const uint8_t *zps, size_t g);
QUANT_API void quant_u4_to_bf16(const uint8_t *src, uint16_t *dst, size_t n, const float *scales, const uint8_t *zps, size_t g);
QUANT_API void quant_s4_to_f32(const uint8_t *src, float *dst, size_t n, const float *scales, const uint8_t *zps, size_t g);
QUANT_API void quant_s4_to_f16(const uint8_t *src, uint16_t *dst, size_t n, const float *scales, const uint8_t *zps, size_t g);
QUANT_API void quant_s4_to_bf16(const uint8_t *src, uint16_t *dst, size_t n, const float *scales, const uint8_t *zps, size_t g);
/* MXFP4 and NVFP4 weight rows: packed f4_e2m1 (as s4), element i scaled by
   its group's scale: MXFP4 an e8m0 code per 32 elements (scales[i / 32]),
   NVFP4 an f8_e4m3 code per 16 (scales[i / 16]) times tensor_scale (0:
   none), folded as the ops fold it. dst gets fl(decode(q) * s), as f32 or
   rounded once more to f16/bf16. No validation. */
QUANT_API void quant_mxfp4_to_f32(const uint8_t *src, float *dst, size_t n, const uint8_t *scales);
QUANT_API void quant_mxfp4_to_f16(const uint8_t *src, uint16_t *dst, size_t n, const uint8_t *scales);
QUANT_API void quant_mxfp4_to_bf16(const uint8_t *src, uint16_t *dst, size_t n, const uint8_t *scales);
QUANT_API void quant_nvfp4_to_f32(const uint8_t *src, float *dst, size_t n, const uint8_t *scales, float tensor_scale);
QUANT_API void quant_nvfp4_to_f16(const uint8_t *src, uint16_t *dst, size_t n, const uint8_t *scales, float tensor_scale);
QUANT_API void quant_nvfp4_to_bf16(const uint8_t *src, uint16_t *dst, size_t n, const uint8_t *scales, float tensor_scale);

/* Requantize (int8 inference): s32 accumulators to s8, u8 or s16, with a
   fixed-point multiplier and shift or a float scale per tensor or per
   channel, then the output zero point and the fused activation's clamp;
   see REQUANTIZE. */
typedef enum quant_requant_rounding {
    QUANT_RQ_DOUBLE = 0, /* TFLite reference / gemmlowp: SaturatingRoundingDoublingHighMul, then RoundingDivideByPOT */
    QUANT_RQ_SINGLE = 1, /* one rounding: TFLite's and CMSIS-NN's single-rounding build option */
    QUANT_RQ_FLOAT  = 2  /* fl((float)acc * scale), rne, + zp: XNNPACK's fp32 requantization, ONNX QLinear ops */
} quant_requant_rounding;

typedef struct quant_requant {
    quant_requant_rounding rounding;
    quant_qtype    qtype;        /* QUANT_PER_TENSOR or QUANT_PER_CHANNEL */
    int64_t        axis;         /* per channel; negative counts from the end */
    const int32_t *multipliers;  /* DOUBLE, SINGLE: Q31 multipliers, n of them */
    const int32_t *shifts;       /* DOUBLE, SINGLE: TFLite's convention, > 0 shifts left, < 0 right */
    const float   *scales;       /* FLOAT: n of them */
    size_t         n;            /* 1 per tensor, dims[axis] per channel */
    int32_t        zp;           /* the output zero point */
    int32_t        act_min, act_max; /* the fused activation's clamp, inside the dst type */
} quant_requant;                 /* more fields may follow; a zero-filled tail means none */

QUANT_API quant_status quant_requantize(const quant_tensor *src, quant_tensor *dst, const quant_requant *rq);
/* TFLite's QuantizeMultiplier, bit for bit: scale = multiplier * 2^(shift - 31) */
QUANT_API quant_status quant_quantize_multiplier(double scale, int32_t *multiplier, int *shift);

/* Names and parsing. Strings are exact: no blanks, exact case. */
QUANT_API const char  *quant_status_str(quant_status s);
QUANT_API const char  *quant_dtype_name(quant_dtype t);
/* The bytes n elements of t take (packed types 2 or 4 a byte, block types
   whole blocks); 0 when n is negative, not whole blocks, or t no dtype. */
QUANT_API size_t       quant_dtype_bytes(quant_dtype t, int64_t n);
QUANT_API quant_status quant_dtype_from_name(const char *name, quant_dtype *out);
QUANT_API quant_status quant_attrs_set(quant_attrs *a, const char *name, const char *value);
QUANT_API const char  *quant_backend(void);

/* Why an operation fails, in one line: validates the arguments exactly as
   the op would (reading the scales and zero points, writing no tensor),
   returns the status the op would return, and writes a line naming the
   argument with the expected and the given values into buf (NUL-ended,
   cut to cap bytes; buf may be NULL when cap is 0), e.g. "scales: 64
   given; per_channel on axis 1 (3 channels) needs 3". The static ops
   ignore scales and zps. */
typedef enum quant_op {
    QUANT_OP_QUANTIZE = 0, QUANT_OP_DEQUANTIZE, QUANT_OP_DYNAMIC_QUANTIZE, QUANT_OP_DYNAMIC_DEQUANTIZE
} quant_op;
QUANT_API quant_status quant_explain(quant_op op, const quant_tensor *src, const quant_tensor *scales,
                                     const quant_tensor *zps, const quant_tensor *dst,
                                     const quant_attrs *attrs, char *buf, size_t cap);

/* A prepared operation: validated once by quant_prepare, run many times
   by quant_run with new data of the same shapes. The caller owns it (no
   allocation); its members are private. Running only reads it, so many
   threads may run one plan at once, each on its own range of units. */
struct quant__plan {
    unsigned char  quantize;   /* 1: float -> q, 0: q -> float */
    unsigned char  zp_kind;
    unsigned short flags;
    unsigned char  qdtype;     /* the quantized side's dtype */
    unsigned char  general;    /* 1: quant__run_general runs the op */
    unsigned char  fdtype;     /* the float side's dtype: f32, f16 or bf16 */
    unsigned char  sdtype;     /* the scales' dtype */
    unsigned char  qtype, rank, axis;
    unsigned char  strided;    /* 1: src has strides, 2: dst has, 3: both */
    const void    *src;
    void          *dst;
    size_t         outer, channels, inner; /* all 0 for an empty tensor */
    const float   *scales;     /* one, or one per channel (f32 scales only) */
    size_t         n_scales;
    const void    *zps;
    size_t         n_zps;
    const int64_t *dims;       /* src's */
    const int64_t *group;      /* per group: the group sizes */
    const void    *sraw;       /* the scales as given */
    float          tscale;     /* attrs.tensor_scale: every scale is multiplied by it (0: none) */
};
typedef struct quant_plan {
    struct quant__plan op_;          /* pointers replaced at each run */
    int64_t dims_[QUANT_MAX_RANK];   /* src's (and dst's) */
    int64_t group_[QUANT_MAX_RANK];
    int64_t sdims_[QUANT_MAX_RANK];  /* the scales tensor's (dynamic ops) */
    int64_t zdims_[QUANT_MAX_RANK];  /* the zps tensor's */
    int64_t sstrides_[QUANT_MAX_RANK], dstrides_[QUANT_MAX_RANK]; /* src's and dst's when op_.strided says so */
    size_t  units_, unit_;           /* how many units; elements or rows in one */
    size_t  bytes_[4];               /* src's, dst's, the scales' and zps' sizes */
    uint32_t magic_;                 /* set by quant_prepare */
    unsigned char op_code_, src_dt_, dst_dt_, s_dt_, z_dt_, mode_;
    signed char s_rank_, z_rank_;    /* -1: no tensor */
} quant_plan;

/* Validates op's arguments exactly as the op would (data pointers too) and
   fills in plan; on an error plan is untouched. The static ops' scales and
   zps lists stay the caller's: they must outlive the plan, unchanged. */
QUANT_API quant_status quant_prepare(quant_plan *plan, quant_op op, const quant_tensor *src,
                                     const quant_tensor *scales, const quant_tensor *zps,
                                     const quant_tensor *dst, const quant_attrs *attrs);
/* Runs a prepared plan on tensors of the dtypes and dims it was prepared
   with (QUANT_ERR_DTYPE or QUANT_ERR_SHAPE otherwise), and new data. What
   depends on the data is checked again (NULL, alignment, overlap, and the
   dynamic ops' scale and zero-point values); the static ops ignore
   scales and zps. quant_run_range runs units [begin, end) of
   quant_plan_units(plan): the units of one plan never share a byte of
   dst, so threads may run disjoint ranges at once; together the ranges
   write what quant_run writes, bit for bit. */
QUANT_API quant_status quant_run(const quant_plan *plan, const quant_tensor *src, const quant_tensor *scales,
                                 const quant_tensor *zps, quant_tensor *dst);
QUANT_API quant_status quant_run_range(const quant_plan *plan, const quant_tensor *src, const quant_tensor *scales,
                                       const quant_tensor *zps, quant_tensor *dst, size_t begin, size_t end);
/* How many units a plan splits into (0 for an empty tensor, or a plan
   that was not prepared). */
QUANT_API size_t quant_plan_units(const quant_plan *plan);

#ifdef __cplusplus
}
#endif

#define QUANT_SIMD_SCALAR 0
#define QUANT_SIMD_SSE2   1
#define QUANT_SIMD_AVX2   2
#define QUANT_SIMD_AVX512 3
#define QUANT_SIMD_NEON   4
#define QUANT_SIMD_HELIUM 5

#endif /* QUANT_H_INCLUDED */

/* ======================================================================== */
/*                              IMPLEMENTATION                              */
/* ======================================================================== */
#if defined(QUANT_IMPLEMENTATION) && !defined(QUANT__IMPLEMENTED)
#define QUANT__IMPLEMENTED

/* QUANT_MINIMAL: the fifteen leave-out macros in one; a QUANT_WITH_ macro
   keeps its feature (see CONFIGURATION MACROS) */
#ifdef QUANT_INT8
#  ifndef QUANT_MINIMAL
#    define QUANT_MINIMAL
#  endif
#  ifndef QUANT_WITH_S16
#    define QUANT_WITH_S16
#  endif
#  ifndef QUANT_WITH_REQUANT
#    define QUANT_WITH_REQUANT
#  endif
#endif
#ifdef QUANT_MINIMAL
#  if !defined(QUANT_WITH_F8) && !defined(QUANT_NO_F8)
#    define QUANT_NO_F8
#  endif
#  if !defined(QUANT_WITH_ROUNDINGS) && !defined(QUANT_ONLY_EXACT)
#    define QUANT_ONLY_EXACT
#  endif
#  if !defined(QUANT_WITH_4BIT) && !defined(QUANT_NO_4BIT)
#    define QUANT_NO_4BIT
#  endif
#  if !defined(QUANT_WITH_HALF) && !defined(QUANT_NO_HALF)
#    define QUANT_NO_HALF
#  endif
#  if !defined(QUANT_WITH_GROUPS) && !defined(QUANT_NO_GROUPS)
#    define QUANT_NO_GROUPS
#  endif
#  if !defined(QUANT_WITH_STATUS_TEXT) && !defined(QUANT_SHORT_STATUS)
#    define QUANT_SHORT_STATUS
#  endif
#  if !defined(QUANT_WITH_PARSE) && !defined(QUANT_NO_PARSE)
#    define QUANT_NO_PARSE
#  endif
#  if !defined(QUANT_WITH_CHOOSE) && !defined(QUANT_NO_CHOOSE)
#    define QUANT_NO_CHOOSE
#  endif
#  if !defined(QUANT_WITH_EXPLAIN) && !defined(QUANT_NO_EXPLAIN)
#    define QUANT_NO_EXPLAIN
#  endif
#  if !defined(QUANT_WITH_PLAN) && !defined(QUANT_NO_PLAN)
#    define QUANT_NO_PLAN
#  endif
#  if !defined(QUANT_WITH_STRIDES) && !defined(QUANT_NO_STRIDES)
#    define QUANT_NO_STRIDES
#  endif
#  if !defined(QUANT_WITH_MX) && !defined(QUANT_NO_MX)
#    define QUANT_NO_MX
#  endif
#  if !defined(QUANT_WITH_S16) && !defined(QUANT_NO_S16)
#    define QUANT_NO_S16
#  endif
#  if !defined(QUANT_WITH_BLOCKS) && !defined(QUANT_NO_BLOCKS)
#    define QUANT_NO_BLOCKS
#  endif
#  if !defined(QUANT_WITH_REQUANT) && !defined(QUANT_NO_REQUANT)
#    define QUANT_NO_REQUANT
#  endif
#endif

/* g++ 12 warns "'__Y' may be used uninitialized" inside its own
   avx512fintrin.h once the _mm512_undefined_* helpers there (which
   initialize a vector from itself on purpose) are inlined into these
   kernels: gcc bug 105593. The warning is about the compiler's header, not
   this code, so it is turned off for the implementation only and restored
   at its end; the user's own code keeps it. */
#if defined(__GNUC__) && !defined(__clang__)
#  pragma GCC diagnostic push
#  pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#  pragma GCC diagnostic ignored "-Wuninitialized"
#  define QUANT__GCC_UNINIT_OFF 1
#endif

#if defined(__FAST_MATH__)
#  error "quant.h: -ffast-math lets the compiler reassociate, contract and drop NaN checks, so the bit-exact results quant.h promises cannot hold; build this file without it"
#endif
/* 16: _Float16 in its own precision, float and double as 0 (gcc in GNU C
   mode with AVX512-FP16, e.g. -march=native on Zen 5 or Sapphire Rapids) */
#if defined(__FLT_EVAL_METHOD__) && (__FLT_EVAL_METHOD__ != 0) && (__FLT_EVAL_METHOD__ != -1) && (__FLT_EVAL_METHOD__ != 16)
#  error "quant.h: float expressions are evaluated in a wider type here (x87?), so fl() rounding cannot be kept; build with SSE math (-msse2 -mfpmath=sse)"
#endif

/* ---- >>select: backend selection -------------------------------------- */
/* On x86-64 with gcc >= 9 or clang >= 8, unless a backend is forced, the
   flags already give AVX-512, or QUANT_NO_DISPATCH is defined, every x86
   backend is compiled and the CPU picks one at run time. */
#if !defined(QUANT_SIMD) && !defined(QUANT_NO_DISPATCH) && (defined(__x86_64__) || defined(_M_X64)) && \
    ((defined(__clang__) && __clang_major__ >= 8) || (!defined(__clang__) && defined(__GNUC__) && __GNUC__ >= 9)) && \
    !(defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__))
#  define QUANT__DISPATCH 1
#  include <immintrin.h>
#else
#  define QUANT__DISPATCH 0
#endif

#if !defined(QUANT_SIMD) && !QUANT__DISPATCH
#  if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__)
#    define QUANT_SIMD QUANT_SIMD_AVX512
#  elif defined(__AVX2__) && defined(__FMA__)
#    define QUANT_SIMD QUANT_SIMD_AVX2
#  elif defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#    define QUANT_SIMD QUANT_SIMD_SSE2
#  elif defined(__ARM_NEON) || defined(__ARM_NEON__)
#    define QUANT_SIMD QUANT_SIMD_NEON
#  elif defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2)
#    define QUANT_SIMD QUANT_SIMD_HELIUM
#  else
#    define QUANT_SIMD QUANT_SIMD_SCALAR
#  endif
#endif

#if QUANT__DISPATCH
#  define QUANT__SIMD_ANY 1
#  define QUANT__X86 1
#  define QUANT__BLOCK 64 /* a multiple of every pass's four-vector block */
#elif QUANT_SIMD == QUANT_SIMD_AVX512
#  if !(defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__))
#    error "quant.h: QUANT_SIMD_AVX512 needs AVX-512 F, BW and VL enabled (-mavx512f -mavx512bw -mavx512vl)"
#  endif
#  include <immintrin.h>
#elif QUANT_SIMD == QUANT_SIMD_AVX2
#  if !(defined(__AVX2__) && defined(__FMA__))
#    error "quant.h: QUANT_SIMD_AVX2 needs AVX2 and FMA enabled (-mavx2 -mfma)"
#  endif
#  include <immintrin.h>
#elif QUANT_SIMD == QUANT_SIMD_SSE2
#  if !(defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2))
#    error "quant.h: QUANT_SIMD_SSE2 needs SSE2"
#  endif
#  include <emmintrin.h>
#elif QUANT_SIMD == QUANT_SIMD_NEON
#  if !(defined(__ARM_NEON) || defined(__ARM_NEON__))
#    error "quant.h: QUANT_SIMD_NEON needs NEON (-mfpu=neon on 32-bit ARM)"
#  endif
#  include <arm_neon.h>
#elif QUANT_SIMD == QUANT_SIMD_HELIUM
#  if !(defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2))
#    error "quant.h: QUANT_SIMD_HELIUM needs MVE with floating point (Helium: -mcpu=cortex-m55 or -march=armv8.1-m.main+mve.fp with -mfloat-abi=hard or softfp)"
#  endif
#  include <arm_mve.h>
#elif QUANT_SIMD != QUANT_SIMD_SCALAR
#  error "quant.h: QUANT_SIMD must be one of QUANT_SIMD_SCALAR, _SSE2, _AVX2, _AVX512, _NEON, _HELIUM"
#endif
#if !QUANT__DISPATCH
#  define QUANT__SIMD_ANY (QUANT_SIMD != QUANT_SIMD_SCALAR)
#  define QUANT__X86 (QUANT_SIMD == QUANT_SIMD_SSE2 || QUANT_SIMD == QUANT_SIMD_AVX2 || QUANT_SIMD == QUANT_SIMD_AVX512)
/* four vectors of the backend: scale patterns come in multiples of it */
#  define QUANT__BLOCK (QUANT_SIMD == QUANT_SIMD_AVX512 ? 64 : QUANT_SIMD == QUANT_SIMD_AVX2 ? 32 : 16)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* On x86 each private function starts on a 64-byte line, so a kernel's
   loops sit at the same offsets from a line whatever code comes before
   it: the same kernel in a -march=native build and in a dispatch build
   ran up to 10% apart from placement alone. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__OPTIMIZE__) && (defined(__x86_64__) || defined(__i386__))
#  define QUANT__PRIVATE static __attribute__((unused, aligned(64)))
#elif defined(__GNUC__) || defined(__clang__)
#  define QUANT__PRIVATE static __attribute__((unused))
#endif
#if defined(__GNUC__) || defined(__clang__)
#  ifdef __OPTIMIZE__
#    define QUANT__INLINE static __inline__ __attribute__((always_inline, unused))
#  else /* -O0 folds no constant flag: forced inlining there only made
           gcc 12 take 18 s instead of 0.9 s to compile a program */
#    define QUANT__INLINE static __inline__ __attribute__((unused))
#  endif
#  define QUANT__NOINLINE static __attribute__((noinline, unused))
/* the 4-vector loops must be unrolled at -O2 too, or their vectors go
   through the stack (measured: twice the time with gcc 12 -O2) */
#  define QUANT__UNROLL4 _Pragma("GCC unroll 4")
#else
#  define QUANT__UNROLL4
#  define QUANT__NOINLINE static
#  define QUANT__PRIVATE static
#  define QUANT__INLINE  static
#endif

#if defined(QUANT_STATIC)
#  define QUANT__DEF QUANT_API
#else
#  define QUANT__DEF
#endif

/* QUANT__FENCE(v): an empty asm that the compiler must assume changes v.
   With -ffp-contract=fast, gcc and clang fuse a product and a later sum
   into one FMA, which rounds once instead of twice and so changes bits;
   every product that feeds an addition passes through this fence first.
   The constraint keeps v in the register class floats live in, so the
   fence costs no instruction. */
#if defined(__GNUC__) || defined(__clang__)
#  if defined(__x86_64__) || (defined(__i386__) && defined(__SSE__))
#    define QUANT__FENCE(v) __asm__("" : "+x"(v))
#  elif defined(__aarch64__)
#    define QUANT__FENCE(v) __asm__("" : "+w"(v))
#  elif defined(__arm__) && defined(__ARM_FP) && !defined(__SOFTFP__)
#    define QUANT__FENCE(v) __asm__("" : "+t"(v))
#  elif defined(__arm__)
#    define QUANT__FENCE(v) __asm__("" : "+r"(v))
#  else
#    define QUANT__FENCE(v) __asm__("" : "+m"(v))
#  endif
#else
#  define QUANT__FENCE(v) ((void)0) /* MSVC contracts only under /fp:contract */
#endif

/* What a firmware build may leave out (section 6's formats) */
#ifdef QUANT_NO_4BIT
#  define QUANT__4BIT 0
#else
#  define QUANT__4BIT 1
#endif
#ifdef QUANT_NO_HALF
#  define QUANT__HALF 0
#else
#  define QUANT__HALF 1
#endif
#ifdef QUANT_NO_GROUPS
#  define QUANT__GROUPS 0
#else
#  define QUANT__GROUPS 1
#endif
#ifdef QUANT_NO_MX
#  define QUANT__MX 0
#else
#  define QUANT__MX 1
#endif
#ifdef QUANT_NO_BLOCKS
#  define QUANT__BLOCKS 0
#else
#  define QUANT__BLOCKS 1
#endif
#ifdef QUANT_NO_S16
#  define QUANT__S16 0
#else
#  define QUANT__S16 1
#endif
#ifdef QUANT_NO_REQUANT
#  define QUANT__RQ 0
#else
#  define QUANT__RQ 1
#endif
#ifdef QUANT_NO_F8
#  define QUANT__F8 0
#else
#  define QUANT__F8 1
#endif
/* QUANT_ONLY_EXACT without the choose pair: every integer quantize
   divides and adds z before rounding, so the scalar code keeps that form
   alone */
#if defined(QUANT_ONLY_EXACT) && defined(QUANT_NO_CHOOSE)
#  define QUANT__EXACT_ONLY 1
#else
#  define QUANT__EXACT_ONLY 0
#endif
/* packed types of either family: s4, u4, s2, u2; f4_e2m1 */
#define QUANT__PACKED (QUANT__4BIT || QUANT__MX)
/* elements a SIMD build converts per kernel call where it stages data
   (the general path, 16-bit rows); a scalar build converts one at a time,
   with no staging buffers, to keep within a firmware stack budget */
#define QUANT__STAGE 256

/* Kernel flags: the four roundings are two switches. */
#define QUANT__F_U8        1u  /* integer type is u8 (else s8) */
#define QUANT__F_RECIP     2u  /* x * fl(1/s) (else x / s) */
#define QUANT__F_ZP_BEFORE 4u  /* z added in float before rounding (else after, exactly) */
#define QUANT__F_E5M2      8u  /* f8 format is e5m2 (else e4m3) */
#define QUANT__F_INF_NAN  16u  /* f8 overflow gives NaN/Inf (else saturates) */
#define QUANT__F_RECIP_GIVEN 32u /* with RECIP: the scale array already holds fl(1/s) */
#define QUANT__F_VEC      64u  /* SIMD bodies only: a vector of scales (sstep 1) */
#define QUANT__F_STREAM  128u  /* SIMD bodies only: stores go past the caches */
#define QUANT__F_VIA_F16 256u  /* f8 as oneDNN makes it: rounded to f16 first */
#define QUANT__F_MARK    512u  /* SIMD bodies only: x / s without a division (quant__mark_ok) */
#define QUANT__F_BOUNDED 1024u /* SIMD bodies only: every quotient is NaN or below 2^15 in magnitude */
#define QUANT__F_AHEAD  2048u  /* SIMD quantize only: the source goes on QUANT__AHEAD bytes past n; prefetch to n */
#define QUANT__F_BF16_FTZ 4096u /* dequantize to bf16 as oneDNN does: results below 2^-126 become signed zeros */
#define QUANT__F_MX     8192u  /* the choose pair's fused quantize under an MX or NVFP4 scheme (quant__mx_code) */
#define QUANT__F_S16   16384u  /* integer type is s16 (scalar code only: quant__q_int) */

/* One scale for which the division-free quotient (QUANT__F_MARK, see
   quant__v_f32_to_i8_x4) is fl(x / s): 2^-75 <= |s| <= 2^100. */
#define QUANT__MARK_OK(s) (((s) < 0.0f ? -(s) : (s)) >= 2.6469779601696886e-23f && \
                           ((s) < 0.0f ? -(s) : (s)) <= 1.2676506002282294e30f)

/* Streaming stores on x86: a kernel call whose destination is at least
   QUANT_STREAM_BYTES long (and one scale) writes it with non-temporal
   stores, which skip reading each line before writing it and leave the
   caches to data that fits in them. */
#ifndef QUANT_STREAM_BYTES
#  define QUANT_STREAM_BYTES (16u << 20)
#endif
#if QUANT__X86 && QUANT_STREAM_BYTES > 0
/* the flag for a call over n elements of `size` bytes each */
#  define QUANT__STREAM_FLAG(n, size, sstep) \
    ((sstep) == 0 && (n) >= QUANT_STREAM_BYTES / (size) ? QUANT__F_STREAM : 0u)
#  define quant__sfence() _mm_sfence()
#else
#  define QUANT__STREAM_FLAG(n, size, sstep) 0u
#  define quant__sfence() ((void)0)
#endif

/* Prefetching on x86: a quantize kernel call that reads at least
   QUANT_PREFETCH_BYTES asks for the line QUANT__AHEAD bytes past each
   block of four vectors, one line a block (the hardware prefetchers take
   the rest of the stream once it is under way). QUANT__PREFETCH_END is
   the block start below which a call over n elements of `size` bytes
   does so, 0 for none; the line asked for is always within the source.
   A driver that calls the kernel row by row over a large tensor sets
   QUANT__F_AHEAD on each row the source goes on past. */
#ifndef QUANT_PREFETCH_BYTES
#  define QUANT_PREFETCH_BYTES (1u << 20)
#endif
#define QUANT__AHEAD 8192u
#if QUANT__X86 && QUANT_PREFETCH_BYTES > 0
#  define QUANT__PREFETCH(p) _mm_prefetch((const char *)(p), _MM_HINT_T0)
#  define QUANT__PREFETCH_BIG(n, size) ((n) >= QUANT_PREFETCH_BYTES / (size))
#else
#  define QUANT__PREFETCH(p) ((void)0)
#  define QUANT__PREFETCH_BIG(n, size) 0
#endif
#define QUANT__PREFETCH_END(n, size) \
    (QUANT__PREFETCH_BIG(n, size) && (n) > QUANT__AHEAD / (size) ? (n) - QUANT__AHEAD / (size) : (size_t)0)

/* A SIMD kernel handles zero points within this bound; a row with a larger
   one goes to the scalar kernel. Within it, lo - z and hi - z are exact
   floats and every sum fits in 32 bits with room to spare. */
#define QUANT__ZP_FAST 1048576
/* The four-vector loop adds z in saturating 16-bit lanes; within this
   bound no sum below the range can saturate back into it. */
#define QUANT__ZP_PACK 16384

typedef union quant__fbits { float f; uint32_t u; } quant__fbits;

QUANT__INLINE uint32_t quant__bits(float f) { quant__fbits b; b.f = f; return b.u; }
QUANT__INLINE float quant__float(uint32_t u) { quant__fbits b; b.u = u; return b.f; }

/* ---- helpers the kernels share ----------------------------------------- */

/* 4-byte unaligned load and store without memcpy */
QUANT__INLINE uint32_t quant__ld4(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
QUANT__INLINE void quant__st4(uint8_t *p, uint32_t u)
{
    p[0] = (uint8_t)u; p[1] = (uint8_t)(u >> 8); p[2] = (uint8_t)(u >> 16); p[3] = (uint8_t)(u >> 24);
}

QUANT__INLINE int quant__zp_fast(int32_t z) { return z >= -QUANT__ZP_FAST && z <= QUANT__ZP_FAST; }

QUANT__INLINE float quant__recip_of(const float *scale, unsigned f)
{
    return (f & QUANT__F_RECIP_GIVEN) ? scale[0] : 1.0f / scale[0];
}

/* A kernel may walk a repeating pattern of scales (and zero points) of
   `period` elements, a multiple of the kernel's 4-vector block; so counts within it. */
QUANT__INLINE size_t quant__wrap(size_t so, size_t period) { return so == period ? 0 : so; }

/* bytes from p to the next multiple of `align` (a power of two), at most n */
QUANT__INLINE size_t quant__head(const void *p, size_t align, size_t n)
{
    const size_t h = (size_t)(0u - (uintptr_t)p) & (align - 1u);
    return h < n ? h : n;
}

/* ---- the plan: one validated operation, as the op layer runs it -------- */

/* the packed kinds last: zp_kind >= QUANT__ZP_S4 means packed, >= QUANT__ZP_S2 four to a byte */
enum { QUANT__ZP_NONE = 0, QUANT__ZP_I64, QUANT__ZP_S8, QUANT__ZP_U8, QUANT__ZP_S32, QUANT__ZP_S16, QUANT__ZP_S4, QUANT__ZP_U4,
       QUANT__ZP_S2, QUANT__ZP_U2 };

/* Everything one operation needs, filled in by validation. The op sees a
   tensor as [outer, C, inner] around the channel axis. */
typedef struct quant__plan quant__plan; /* declared with quant_plan, above */

QUANT__PRIVATE int quant__is_f8(unsigned t)
{
    return t == QUANT_F8_E4M3 || t == QUANT_F8_E5M2;
}

QUANT__PRIVATE int32_t quant__zp_at(const quant__plan *p, size_t i)
{
    switch (p->zp_kind) {
    case QUANT__ZP_I64: return (int32_t)((const int64_t *)p->zps)[i];
    case QUANT__ZP_S8:  return ((const int8_t *)p->zps)[i];
    case QUANT__ZP_U8:  return ((const uint8_t *)p->zps)[i];
    case QUANT__ZP_S32: return ((const int32_t *)p->zps)[i];
#if QUANT__S16
    case QUANT__ZP_S16: return ((const int16_t *)p->zps)[i];
#endif
#ifndef QUANT_NO_4BIT
    case QUANT__ZP_S4:  return (int32_t)((((const uint8_t *)p->zps)[i >> 1] >> ((i & 1u) * 4u) & 15u) ^ 8u) - 8;
    case QUANT__ZP_U4:  return ((const uint8_t *)p->zps)[i >> 1] >> ((i & 1u) * 4u) & 15u;
    case QUANT__ZP_S2:  return (int32_t)((((const uint8_t *)p->zps)[i >> 2] >> ((i & 3u) * 2u) & 3u) ^ 2u) - 2;
    case QUANT__ZP_U2:  return ((const uint8_t *)p->zps)[i >> 2] >> ((i & 3u) * 2u) & 3u;
#endif
    default: return 0;
    }
}

/* How many scale and zero-point entries the op layer lays out on the
   stack at a time; small enough for a firmware stack budget on scalar. */
#ifndef QUANT__CHUNK
#  if !QUANT__SIMD_ANY
#    define QUANT__CHUNK 2
#  else
#    define QUANT__CHUNK 1024
#  endif
#endif
/* A run of this many elements with one scale is worth a kernel call. A
   scalar build lays out no scales: it walks them in place on the last axis
   and takes every longer run with a call of its own. */
#if QUANT__CHUNK >= 64
#  define QUANT__LONG_RUN 64
#  define QUANT__ROWS_RUN 1024 /* inner runs shorter than this take one kernel call per row of channels */
#else
#  define QUANT__LONG_RUN 2
#endif

/* ---- >>select, continued: runtime dispatch on x86-64 ------------------- */

#if QUANT__DISPATCH
/* Runtime dispatch: the SSE2, AVX2 and AVX-512 (with and without VBMI and
   DQ) kernels are all compiled, each for its own instruction set, and the
   first kernel call picks the best the CPU and the OS support. The
   choice is cached in one word, the only mutable data the library has;
   a thread that finds it unset computes it and stores it, and every
   thread stores the same value (relaxed atomics: no lock, no race in the
   C11 sense). */
enum { QUANT__L_UNSET = 0, QUANT__L_SSE2, QUANT__L_AVX2, QUANT__L_AVX512, QUANT__L_AVX512VBMI, QUANT__L_AVX512BF16 };
static int quant__level_word;

QUANT__INLINE void quant__cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
    __asm__ __volatile__("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(sub));
}

/* cpuid says what the CPU has; xgetbv says whether the OS saves the YMM
   (and, for AVX-512, the opmask and ZMM) state, without which those
   registers cannot be used */
QUANT__NOINLINE int quant__x86_detect(void)
{
    uint32_t r[4], max_leaf, xcr0 = 0, c1, b7 = 0, c7 = 0, a71 = 0, lzcnt = 0;
    quant__cpuid(0, 0, r);
    max_leaf = r[0];
    quant__cpuid(1, 0, r);
    c1 = r[2];
    if (c1 & (1u << 27)) { /* OSXSAVE */
        uint32_t lo, hi;
        __asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        (void)hi;
        xcr0 = lo;
    }
    if (max_leaf >= 7) {
        quant__cpuid(7, 0, r);
        b7 = r[1];
        c7 = r[2];
        if (r[0] >= 1) {
            quant__cpuid(7, 1, r);
            a71 = r[0];
        }
    }
    quant__cpuid(0x80000000u, 0, r);
    if (r[0] >= 0x80000001u) {
        quant__cpuid(0x80000001u, 0, r);
        lzcnt = r[2] & (1u << 5);
    }
    /* the AVX2 level is x86-64-v3's set: AVX, AVX2, FMA, F16C, BMI1, BMI2,
       LZCNT and POPCNT (c1 bits 28, 12, 29, 23; b7 bits 5, 3, 8) */
    if ((c1 & 0x30801000u) != 0x30801000u || (b7 & 0x128u) != 0x128u || !lzcnt || (xcr0 & 6u) != 6u)
        return QUANT__L_SSE2;
    if ((b7 & 0xC0010000u) != 0xC0010000u || (xcr0 & 0xE6u) != 0xE6u) return QUANT__L_AVX2; /* F, BW, VL */
    if (!(c7 & 2u) || !(b7 & (1u << 17))) return QUANT__L_AVX512; /* VBMI, and DQ */
    return (a71 & (1u << 5)) ? QUANT__L_AVX512BF16 : QUANT__L_AVX512VBMI; /* AVX512-BF16 */
}

QUANT__INLINE int quant__x86_level(void)
{
    int level = __atomic_load_n(&quant__level_word, __ATOMIC_RELAXED);
    if (level == QUANT__L_UNSET) {
        level = quant__x86_detect();
        __atomic_store_n(&quant__level_word, level, __ATOMIC_RELAXED);
    }
    return level;
}

/* Tests run every backend the CPU has: this sets the level (no higher
   than detected; returns 0 and changes nothing if the CPU lacks it). */
QUANT__PRIVATE int quant__x86_force(int level)
{
    if (level < QUANT__L_SSE2 || level > quant__x86_detect()) return 0;
    __atomic_store_n(&quant__level_word, level, __ATOMIC_RELAXED);
    return 1;
}

/* the kernel the op layer calls for a family: QUANT__BK(quant__simd_f32_to_i8) */
#  define QUANT__BK(name) name##_x86
#elif QUANT_SIMD != QUANT_SIMD_SCALAR
#  if QUANT_SIMD == QUANT_SIMD_AVX512 && defined(__AVX512VBMI__) && defined(__AVX512DQ__)
#    define QUANT__BK(name) name##_avx512vbmi
#  elif QUANT_SIMD == QUANT_SIMD_AVX512
#    define QUANT__BK(name) name##_avx512
#  elif QUANT_SIMD == QUANT_SIMD_AVX2
#    define QUANT__BK(name) name##_avx2
#  elif QUANT_SIMD == QUANT_SIMD_SSE2
#    define QUANT__BK(name) name##_sse2
#  elif QUANT_SIMD == QUANT_SIMD_HELIUM
#    define QUANT__BK(name) name##_helium
#  else
#    define QUANT__BK(name) name##_neon
#  endif
#endif

/* ---- the parts, in order (see >>parts) ---------------------------------- */
#define QUANT__PART 1 /* the scalar kernels */
#include "quant.h"
#undef QUANT__PART
#define QUANT__PART 2 /* the vector kernels, once per backend */
#if QUANT__DISPATCH
#  define QUANT__PASS_VBMI 0
#  define QUANT__PASS QUANT_SIMD_SSE2
#  include "quant.h"
#  undef QUANT__PASS
#  define QUANT__PASS QUANT_SIMD_AVX2
#  include "quant.h"
#  undef QUANT__PASS
#  define QUANT__PASS QUANT_SIMD_AVX512
#  include "quant.h"
#  undef QUANT__PASS_VBMI
#  define QUANT__PASS_VBMI 1
#  include "quant.h"
#  undef QUANT__PASS
#  undef QUANT__PASS_VBMI
#elif QUANT_SIMD != QUANT_SIMD_SCALAR
#  if QUANT_SIMD == QUANT_SIMD_AVX512 && defined(__AVX512VBMI__) && defined(__AVX512DQ__)
#    define QUANT__PASS_VBMI 1
#  else
#    define QUANT__PASS_VBMI 0
#  endif
#  define QUANT__PASS QUANT_SIMD
#  include "quant.h"
#  undef QUANT__PASS
#  undef QUANT__PASS_VBMI
#endif
#undef QUANT__PART
#define QUANT__PART 3 /* what the op layer calls: the dispatch of each family */
#include "quant.h"
#undef QUANT__PART
#define QUANT__PART 4 /* validation, the op layer, the public functions */
#include "quant.h"
#undef QUANT__PART

#ifdef __cplusplus
}
#endif

#ifdef QUANT__GCC_UNINIT_OFF
#  pragma GCC diagnostic pop
#endif

#endif /* QUANT_IMPLEMENTATION */

#else /* QUANT__PART */

/* ======================================================================== */
/*  >>parts  How the rest of this file is compiled                          */
/*                                                                          */
/*  The implementation includes this file from itself four times over,     */
/*  with QUANT__PART set:                                                   */
/*    1  the scalar kernels, which define the arithmetic;                   */
/*    2  the vector kernels, once per backend (QUANT__PASS names it, and    */
/*       QUANT__PASS_VBMI 1 marks the AVX-512 pass with VBMI): every name   */
/*       they define gets the backend's suffix (quant__ldf is               */
/*       quant__ldf_avx2 in the AVX2 pass), so the passes live side by side */
/*       in one translation unit; under runtime dispatch each is compiled   */
/*       for its own instruction set with the compiler's target pragmas;    */
/*    3  for each kernel family, the name the op layer calls: the x86       */
/*       dispatcher, the one compiled backend, or the scalar kernel;        */
/*    4  validation, the op layer and the public functions.                 */
/*  Each kernel family (>>unit) keeps its parts 1, 2 and 3 together.        */
/* ======================================================================== */

#if QUANT__PART == 2
/* ======================================================================== */
/*  >>prims  One backend's primitives                                       */
/*                                                                          */
/*  Each backend defines the same small set of primitives over a float      */
/*  vector quant__vf, an int32 vector quant__vi and a lane mask quant__vm;  */
/*  the kernels are written once over those primitives. A kernel handles    */
/*  whole vectors and hands the tail, and any rare case it does not take    */
/*  (a zero point beyond QUANT__ZP_FAST; on 32-bit ARM a scale small        */
/*  enough to meet NEON's flush-to-zero), to its scalar twin.               */
/*                                                                          */
/*  Float to int conversions assume the default rounding mode (round to     */
/*  nearest even) in MXCSR or FPCR; 32-bit NEON has no such conversion and  */
/*  rounds with the 1.5 * 2^23 addition instead.                            */
/* ======================================================================== */
#if QUANT__PASS == QUANT_SIMD_SSE2
#  define QUANT__SFX(name) name##_sse2
#elif QUANT__PASS == QUANT_SIMD_AVX2
#  define QUANT__SFX(name) name##_avx2
#elif QUANT__PASS == QUANT_SIMD_AVX512 && QUANT__PASS_VBMI
#  define QUANT__SFX(name) name##_avx512vbmi
#elif QUANT__PASS == QUANT_SIMD_AVX512
#  define QUANT__SFX(name) name##_avx512
#elif QUANT__PASS == QUANT_SIMD_HELIUM
#  define QUANT__SFX(name) name##_helium
#else
#  define QUANT__SFX(name) name##_neon
#endif
/* The dispatch build's second AVX-512 pass (VBMI, DQ) compiles only the
   families whose code differs from the first's; for the others
   (QUANT__TWIN) its names are the first pass's functions. */
#if QUANT__DISPATCH && QUANT__PASS_VBMI
#  define QUANT__TWIN 1
#else
#  define QUANT__TWIN 0
#endif
#define quant__add QUANT__SFX(quant__add)
#define quant__addi QUANT__SFX(quant__addi)
#define quant__and QUANT__SFX(quant__and)
#define quant__any QUANT__SFX(quant__any)
#define quant__any_nan4 QUANT__SFX(quant__any_nan4)
#define quant__asf QUANT__SFX(quant__asf)
#define quant__asi QUANT__SFX(quant__asi)
#define quant__cvt QUANT__SFX(quant__cvt)
#define quant__dec64 QUANT__SFX(quant__dec64)
#define quant__dec64_init QUANT__SFX(quant__dec64_init)
#define quant__div QUANT__SFX(quant__div)
#define quant__div_fma QUANT__SFX(quant__div_fma)
#define quant__mul_add QUANT__SFX(quant__mul_add)
#define quant__eq QUANT__SFX(quant__eq)
#define quant__f8_bytes QUANT__SFX(quant__f8_bytes)
#define quant__f8_order QUANT__SFX(quant__f8_order)
#define quant__f8tab QUANT__SFX(quant__f8tab)
#define quant__gt QUANT__SFX(quant__gt)
#define quant__i2f QUANT__SFX(quant__i2f)
#define quant__ld8 QUANT__SFX(quant__ld8)
#define quant__ldf QUANT__SFX(quant__ldf)
#define quant__ldi QUANT__SFX(quant__ldi)
#define quant__sti QUANT__SFX(quant__sti)
#define quant__max QUANT__SFX(quant__max)
#define quant__min QUANT__SFX(quant__min)
#define quant__mini QUANT__SFX(quant__mini)
#define quant__mul QUANT__SFX(quant__mul)
#define quant__neon_scales_ok QUANT__SFX(quant__neon_scales_ok)
#define quant__mve_scales_ok QUANT__SFX(quant__mve_scales_ok)
#define quant__or QUANT__SFX(quant__or)
#define quant__sel QUANT__SFX(quant__sel)
#define quant__setf QUANT__SFX(quant__setf)
#define quant__seti QUANT__SFX(quant__seti)
#define quant__simd_f32_to_f8 QUANT__SFX(quant__simd_f32_to_f8)
#define quant__simd_f32_to_i8 QUANT__SFX(quant__simd_f32_to_i8)
#define quant__simd_f32_to_i8_rows QUANT__SFX(quant__simd_f32_to_i8_rows)
#define quant__simd_i8_to_f32_rows QUANT__SFX(quant__simd_i8_to_f32_rows)
#define quant__simd_f8_to_f32 QUANT__SFX(quant__simd_f8_to_f32)
#define quant__simd_i32_to_f32 QUANT__SFX(quant__simd_i32_to_f32)
#define quant__simd_i8_to_f32 QUANT__SFX(quant__simd_i8_to_f32)
#define quant__simd_recip QUANT__SFX(quant__simd_recip)
#define quant__simd_scales_valid QUANT__SFX(quant__simd_scales_valid)
#define quant__sll QUANT__SFX(quant__sll)
#define quant__srl QUANT__SFX(quant__srl)
#define quant__st8 QUANT__SFX(quant__st8)
#define quant__st8x4 QUANT__SFX(quant__st8x4)
#define quant__stf QUANT__SFX(quant__stf)
#define quant__stf_nt QUANT__SFX(quant__stf_nt)
#define quant__subi QUANT__SFX(quant__subi)
#define quant__v_f16_round_abs QUANT__SFX(quant__v_f16_round_abs)
#define quant__v_f32_to_f8_body QUANT__SFX(quant__v_f32_to_f8_body)
#define quant__v_f32_to_i8_body QUANT__SFX(quant__v_f32_to_i8_body)
#define quant__v_f8_dec QUANT__SFX(quant__v_f8_dec)
#define quant__v_f8_enc QUANT__SFX(quant__v_f8_enc)
#define quant__v_f8_to_f32_body QUANT__SFX(quant__v_f8_to_f32_body)
#define quant__v_lo QUANT__SFX(quant__v_lo)
#define quant__v_hi QUANT__SFX(quant__v_hi)
#define quant__v_minmax_body QUANT__SFX(quant__v_minmax_body)
#define quant__v_minmax_cols_body QUANT__SFX(quant__v_minmax_cols_body)
#define quant__simd_minmax QUANT__SFX(quant__simd_minmax)
#define quant__simd_minmax_cols QUANT__SFX(quant__simd_minmax_cols)
#define quant__simd_minmax_groups QUANT__SFX(quant__simd_minmax_groups)
#define quant__v_minmax_groups_body QUANT__SFX(quant__v_minmax_groups_body)
#define quant__v_hlo QUANT__SFX(quant__v_hlo)
#define quant__v_hhi QUANT__SFX(quant__v_hhi)
#define quant__v_h4 QUANT__SFX(quant__v_h4)
#define quant__v_i32_to_f32_body QUANT__SFX(quant__v_i32_to_f32_body)
#define quant__v_i8_to_f32_body QUANT__SFX(quant__v_i8_to_f32_body)
#define quant__v_q_int QUANT__SFX(quant__v_q_int)
#define quant__v_quotient QUANT__SFX(quant__v_quotient)
#define quant__v_scale_at QUANT__SFX(quant__v_scale_at)
#define quant__v_zp_fast QUANT__SFX(quant__v_zp_fast)
#define quant__vf QUANT__SFX(quant__vf)
#define quant__vi QUANT__SFX(quant__vi)
#define quant__vm QUANT__SFX(quant__vm)
#define quant__zero_nan QUANT__SFX(quant__zero_nan)
#define quant__v_w4_body QUANT__SFX(quant__v_w4_body)
#define quant__v_w4_run QUANT__SFX(quant__v_w4_run)
#define quant__v_f16 QUANT__SFX(quant__v_f16)
#define quant__v_bf16 QUANT__SFX(quant__v_bf16)
#define quant__zip QUANT__SFX(quant__zip)
#define quant__ld16 QUANT__SFX(quant__ld16)
#define quant__ld_bf16 QUANT__SFX(quant__ld_bf16)
#define quant__st16 QUANT__SFX(quant__st16)
#define quant__v_from_f16 QUANT__SFX(quant__v_from_f16)
#define quant__v_to_half QUANT__SFX(quant__v_to_half)
#define quant__v_widen16 QUANT__SFX(quant__v_widen16)
#define quant__simd_widen16 QUANT__SFX(quant__simd_widen16)
#define quant__simd_gather32 QUANT__SFX(quant__simd_gather32)
#define quant__tr4x4 QUANT__SFX(quant__tr4x4)
#define quant__simd_narrow16 QUANT__SFX(quant__simd_narrow16)
#define quant__simd_half_to_i8 QUANT__SFX(quant__simd_half_to_i8)
#define quant__v_half_to_i8 QUANT__SFX(quant__v_half_to_i8)
#define quant__v_load QUANT__SFX(quant__v_load)
#define quant__w4_lut QUANT__SFX(quant__w4_lut)
#define quant__v_ph QUANT__SFX(quant__v_ph)
#define quant__w4_lut_g32 QUANT__SFX(quant__w4_lut_g32)
#define quant__w4_lut_f32a QUANT__SFX(quant__w4_lut_f32a)
#define quant__w4_table QUANT__SFX(quant__w4_table)
#define quant__w4_idx16 QUANT__SFX(quant__w4_idx16)
#define quant__simd_w4 QUANT__SFX(quant__simd_w4)
#define quant__simd_f4_row QUANT__SFX(quant__simd_f4_row)
#define quant__simd_rq QUANT__SFX(quant__simd_rq)
#define quant__v_rq_body QUANT__SFX(quant__v_rq_body)
#define quant__v_rq_forms QUANT__SFX(quant__v_rq_forms)
#define quant__v_rq_put QUANT__SFX(quant__v_rq_put)
#define quant__v_rq_fixed QUANT__SFX(quant__v_rq_fixed)
#define quant__v_rq_half QUANT__SFX(quant__v_rq_half)
#define quant__v_rq_right QUANT__SFX(quant__v_rq_right)
#define quant__v_rq_w8 QUANT__SFX(quant__v_rq_w8)
#define quant__v_rq_wide QUANT__SFX(quant__v_rq_wide)
#define quant__v_rq_wput QUANT__SFX(quant__v_rq_wput)
#define quant__v_rq_fput QUANT__SFX(quant__v_rq_fput)
#define quant__v_rq_fld QUANT__SFX(quant__v_rq_fld)
#define quant__v_rq_flt QUANT__SFX(quant__v_rq_flt)
#define quant__v_rq_fnear QUANT__SFX(quant__v_rq_fnear)
#define quant__v_rq_fmax QUANT__SFX(quant__v_rq_fmax)
#define quant__v_rq_one QUANT__SFX(quant__v_rq_one)
#define quant__v_rq_loop QUANT__SFX(quant__v_rq_loop)
#define quant__v_rq_repeat QUANT__SFX(quant__v_rq_repeat)
#define quant__v_rq_first QUANT__SFX(quant__v_rq_first)
#define quant__v_rq_rows QUANT__SFX(quant__v_rq_rows)
#define quant__bk_st QUANT__SFX(quant__bk_st)
#define quant__bk_tab QUANT__SFX(quant__bk_tab)
#define quant__bk_st32 QUANT__SFX(quant__bk_st32)
#define quant__bk_tab32 QUANT__SFX(quant__bk_tab32)
#define quant__bk_nib32 QUANT__SFX(quant__bk_nib32)
#define quant__bk_lin QUANT__SFX(quant__bk_lin)
#define quant__bk_dm QUANT__SFX(quant__bk_dm)
#define quant__bk_i8 QUANT__SFX(quant__bk_i8)
#define quant__bk_h QUANT__SFX(quant__bk_h)
#define quant__bk_bf2 QUANT__SFX(quant__bk_bf2)
#define quant__bk_k QUANT__SFX(quant__bk_k)
#define quant__bk_f16 QUANT__SFX(quant__bk_f16)
#define quant__bk_kinit QUANT__SFX(quant__bk_kinit)
#define quant__bk_kset QUANT__SFX(quant__bk_kset)
#define quant__bk_q8 QUANT__SFX(quant__bk_q8)
#define quant__bk_q6 QUANT__SFX(quant__bk_q6)
#define quant__bk_q6f QUANT__SFX(quant__bk_q6f)
#define quant__bk_cf QUANT__SFX(quant__bk_cf)
#define quant__bk_q6c QUANT__SFX(quant__bk_q6c)
#define quant__bk_q6ds QUANT__SFX(quant__bk_q6ds)
#define quant__bk_q3f QUANT__SFX(quant__bk_q3f)
#define quant__bk_q3ds QUANT__SFX(quant__bk_q3ds)
#define quant__bk_k45 QUANT__SFX(quant__bk_k45)
#define quant__bk_k45dm QUANT__SFX(quant__bk_k45dm)
#define quant__bk_k45f QUANT__SFX(quant__bk_k45f)
#define quant__bk_krun QUANT__SFX(quant__bk_krun)
#define quant__bk_ksc QUANT__SFX(quant__bk_ksc)
#define quant__bk_kblk QUANT__SFX(quant__bk_kblk)
#define quant__bk_q6dv QUANT__SFX(quant__bk_q6dv)
#define quant__bk_q3h QUANT__SFX(quant__bk_q3h)
#define quant__bk_k45s QUANT__SFX(quant__bk_k45s)
#define quant__bk_k45t QUANT__SFX(quant__bk_k45t)
#define quant__bk_one QUANT__SFX(quant__bk_one)
#define quant__bk5_k QUANT__SFX(quant__bk5_k)
#define quant__bk5_b QUANT__SFX(quant__bk5_b)
#define quant__bk5_kinit QUANT__SFX(quant__bk5_kinit)
#define quant__bk5_q5tab QUANT__SFX(quant__bk5_q5tab)
#define quant__bk5_q5idx QUANT__SFX(quant__bk5_q5idx)
#define quant__bk5_f4idx QUANT__SFX(quant__bk5_f4idx)
#define quant__bk5_ld QUANT__SFX(quant__bk5_ld)
#define quant__bk5_scales QUANT__SFX(quant__bk5_scales)
#define quant__bk5_run QUANT__SFX(quant__bk5_run)
#define quant__bk5_bf16i QUANT__SFX(quant__bk5_bf16i)
#define quant__bk5_batch QUANT__SFX(quant__bk5_batch)
#define quant__bk_kq_bf16i QUANT__SFX(quant__bk_kq_bf16i)
#define quant__bk_n4x QUANT__SFX(quant__bk_n4x)
#define quant__bk_n4c QUANT__SFX(quant__bk_n4c)
#define quant__bk_n4c_init QUANT__SFX(quant__bk_n4c_init)
#define quant__bk_n4q QUANT__SFX(quant__bk_n4q)
#define quant__bk_n4v QUANT__SFX(quant__bk_n4v)
#define quant__bk_n4dl QUANT__SFX(quant__bk_n4dl)
#define quant__bk_n4st2 QUANT__SFX(quant__bk_n4st2)
#define quant__bk_n4 QUANT__SFX(quant__bk_n4)
#define quant__bk_n4_bf16i QUANT__SFX(quant__bk_n4_bf16i)
#define quant__bk_n4_run QUANT__SFX(quant__bk_n4_run)
#define quant__simd_blk_dec QUANT__SFX(quant__simd_blk_dec)
#define quant__bk_dec QUANT__SFX(quant__bk_dec)
#define quant__simd_blk_enc QUANT__SFX(quant__simd_blk_enc)
#define quant__f4_pow2_block QUANT__SFX(quant__f4_pow2_block)
#define quant__simd_f4_enc QUANT__SFX(quant__simd_f4_enc)
#define quant__simd_f4_enc_g QUANT__SFX(quant__simd_f4_enc_g)
#define quant__simd_mx4_fused QUANT__SFX(quant__simd_mx4_fused)
#define quant__v_f4_codes QUANT__SFX(quant__v_f4_codes)
#define quant__v_f4_store QUANT__SFX(quant__v_f4_store)
#define quant__f4_g16_pairs QUANT__SFX(quant__f4_g16_pairs)
#define quant__f4_g16_pairs_bf16i QUANT__SFX(quant__f4_g16_pairs_bf16i)
#define quant__run_rows QUANT__SFX(quant__run_rows)
#define quant__v_i8_to_f32_x4 QUANT__SFX(quant__v_i8_to_f32_x4)
#define quant__v_f32_to_i8_zvec QUANT__SFX(quant__v_f32_to_i8_zvec)
#define quant__v_f32_to_i8_x4 QUANT__SFX(quant__v_f32_to_i8_x4)
#define quant__v_f32_to_i8_x4f QUANT__SFX(quant__v_f32_to_i8_x4f)
#define quant__v_f32_to_f8_x4 QUANT__SFX(quant__v_f32_to_f8_x4)
#define quant__exec QUANT__SFX(quant__exec)
#define quant__kernel QUANT__SFX(quant__kernel)
#define quant__layout QUANT__SFX(quant__layout)
#define quant__run QUANT__SFX(quant__run)
#define quant__run_short QUANT__SFX(quant__run_short)

#if QUANT__DISPATCH /* each pass for its own instruction set */
#  if defined(__clang__)
#    if QUANT__PASS == QUANT_SIMD_AVX2
#      pragma clang attribute push (__attribute__((target("avx2,fma,bmi,bmi2,lzcnt,popcnt,f16c"))), apply_to = function)
#    elif QUANT__PASS == QUANT_SIMD_AVX512 && QUANT__PASS_VBMI
#      pragma clang attribute push (__attribute__((target("avx2,fma,bmi,bmi2,lzcnt,popcnt,f16c,avx512f,avx512bw,avx512vl,avx512dq,avx512vbmi"))), apply_to = function)
#    elif QUANT__PASS == QUANT_SIMD_AVX512
#      pragma clang attribute push (__attribute__((target("avx2,fma,bmi,bmi2,lzcnt,popcnt,f16c,avx512f,avx512bw,avx512vl"))), apply_to = function)
#    else
#      pragma clang attribute push (__attribute__((target("sse2"))), apply_to = function)
#    endif
#  else
#    pragma GCC push_options
#    if QUANT__PASS == QUANT_SIMD_AVX2
#      pragma GCC target("avx2,fma,bmi,bmi2,lzcnt,popcnt,f16c")
#    elif QUANT__PASS == QUANT_SIMD_AVX512 && QUANT__PASS_VBMI
#      pragma GCC target("avx2,fma,bmi,bmi2,lzcnt,popcnt,f16c,avx512f,avx512bw,avx512vl,avx512dq,avx512vbmi")
#    elif QUANT__PASS == QUANT_SIMD_AVX512
#      pragma GCC target("avx2,fma,bmi,bmi2,lzcnt,popcnt,f16c,avx512f,avx512bw,avx512vl")
#    endif
#  endif
#endif

#if QUANT__PASS == QUANT_SIMD_SSE2
#define QUANT__W 4
typedef __m128 quant__vf;
typedef __m128i quant__vi;
typedef __m128i quant__vm;
#define QUANT__VFENCE(v) QUANT__FENCE(v)
QUANT__INLINE quant__vf quant__ldf(const float *p) { return _mm_loadu_ps(p); }
QUANT__INLINE void quant__stf(float *p, quant__vf v) { _mm_storeu_ps(p, v); }
QUANT__INLINE quant__vi quant__ldi(const int32_t *p) { return _mm_loadu_si128((const __m128i *)(const void *)p); }
QUANT__INLINE void quant__sti(int32_t *p, quant__vi v) { _mm_storeu_si128((__m128i *)(void *)p, v); }
QUANT__INLINE quant__vf quant__setf(float x) { return _mm_set1_ps(x); }
QUANT__INLINE quant__vi quant__seti(int32_t x) { return _mm_set1_epi32(x); }
QUANT__INLINE quant__vf quant__add(quant__vf a, quant__vf b) { return _mm_add_ps(a, b); }
QUANT__INLINE quant__vf quant__mul(quant__vf a, quant__vf b) { return _mm_mul_ps(a, b); }
QUANT__INLINE quant__vf quant__div(quant__vf a, quant__vf b) { return _mm_div_ps(a, b); }
QUANT__INLINE quant__vf quant__min(quant__vf a, quant__vf b) { return _mm_min_ps(a, b); }
QUANT__INLINE quant__vf quant__max(quant__vf a, quant__vf b) { return _mm_max_ps(a, b); }
QUANT__INLINE quant__vf quant__zero_nan(quant__vf v) { return _mm_and_ps(v, _mm_cmpord_ps(v, v)); }
/* whether any lane of four vectors is NaN (one test for the block) */
QUANT__INLINE int quant__any_nan4(const quant__vf v[4])
{
    return _mm_movemask_ps(_mm_or_ps(_mm_cmpunord_ps(v[0], v[1]), _mm_cmpunord_ps(v[2], v[3]))) != 0;
}
QUANT__INLINE quant__vi quant__cvt(quant__vf v) { return _mm_cvtps_epi32(v); }
QUANT__INLINE quant__vf quant__i2f(quant__vi v) { return _mm_cvtepi32_ps(v); }
QUANT__INLINE quant__vi quant__asi(quant__vf v) { return _mm_castps_si128(v); }
QUANT__INLINE quant__vf quant__asf(quant__vi v) { return _mm_castsi128_ps(v); }
QUANT__INLINE quant__vi quant__addi(quant__vi a, quant__vi b) { return _mm_add_epi32(a, b); }
QUANT__INLINE quant__vi quant__subi(quant__vi a, quant__vi b) { return _mm_sub_epi32(a, b); }
QUANT__INLINE quant__vi quant__and(quant__vi a, quant__vi b) { return _mm_and_si128(a, b); }
QUANT__INLINE quant__vi quant__or(quant__vi a, quant__vi b) { return _mm_or_si128(a, b); }
QUANT__INLINE quant__vi quant__srl(quant__vi a, unsigned n) { return _mm_srl_epi32(a, _mm_cvtsi32_si128((int)n)); }
QUANT__INLINE quant__vi quant__sll(quant__vi a, unsigned n) { return _mm_sll_epi32(a, _mm_cvtsi32_si128((int)n)); }
QUANT__INLINE quant__vm quant__gt(quant__vi a, quant__vi b) { return _mm_cmpgt_epi32(a, b); }
QUANT__INLINE quant__vm quant__eq(quant__vi a, quant__vi b) { return _mm_cmpeq_epi32(a, b); }
QUANT__INLINE quant__vi quant__sel(quant__vm m, quant__vi a, quant__vi b)
{
    return _mm_or_si128(_mm_and_si128(m, a), _mm_andnot_si128(m, b));
}
QUANT__INLINE quant__vi quant__mini(quant__vi a, quant__vi b) { return quant__sel(quant__gt(a, b), b, a); }
QUANT__INLINE int quant__any(quant__vm m) { return _mm_movemask_epi8(m) != 0; }
QUANT__INLINE quant__vi quant__ld8(const uint8_t *p, int is_signed)
{
    const __m128i b = _mm_cvtsi32_si128((int)quant__ld4(p));
    if (is_signed) /* put each byte at the top of its lane, then shift it down with its sign */
        return _mm_srai_epi32(_mm_unpacklo_epi16(_mm_unpacklo_epi8(b, b), _mm_unpacklo_epi8(b, b)), 24);
    return _mm_unpacklo_epi16(_mm_unpacklo_epi8(b, _mm_setzero_si128()), _mm_setzero_si128());
}
/* lanes hold values of the destination type, so saturating packs are exact */
QUANT__INLINE void quant__st8(uint8_t *p, quant__vi v, int is_signed)
{
    const __m128i w = _mm_packs_epi32(v, v);
    quant__st4(p, (uint32_t)_mm_cvtsi128_si32(is_signed ? _mm_packs_epi16(w, w) : _mm_packus_epi16(w, w)));
}
/* Four int32 vectors to 4W bytes with saturation, z added on the way in
   16 bits (saturating too); nt: a streaming store, p aligned to 4W. */
QUANT__INLINE void quant__st8x4(uint8_t *p, quant__vi a, quant__vi b, quant__vi c, quant__vi d,
                                int32_t z, int is_signed, int nt)
{
    const __m128i zz = _mm_set1_epi16((short)z);
    const __m128i ab = _mm_adds_epi16(_mm_packs_epi32(a, b), zz), cd = _mm_adds_epi16(_mm_packs_epi32(c, d), zz);
    const __m128i q = is_signed ? _mm_packs_epi16(ab, cd) : _mm_packus_epi16(ab, cd);
    if (nt) _mm_stream_si128((__m128i *)(void *)p, q);
    else _mm_storeu_si128((__m128i *)(void *)p, q);
}
QUANT__INLINE void quant__stf_nt(float *p, quant__vf v) { _mm_stream_ps(p, v); }
/* lanes of a and b interleaved: a0 b0 a1 b1 ... in *lo, the rest in *hi */
QUANT__INLINE void quant__zip(quant__vf a, quant__vf b, quant__vf *lo, quant__vf *hi)
{
    *lo = _mm_unpacklo_ps(a, b);
    *hi = _mm_unpackhi_ps(a, b);
}
/* W 16-bit values zero-extended to lanes; the low 16 bits of W lanes stored */
QUANT__INLINE quant__vi quant__ld16(const uint16_t *p)
{
    return _mm_unpacklo_epi16(_mm_loadl_epi64((const __m128i *)(const void *)p), _mm_setzero_si128());
}
/* W bf16 bit patterns as f32: each in the high half of its lane */
QUANT__INLINE quant__vf quant__ld_bf16(const uint16_t *p)
{
    return _mm_castsi128_ps(_mm_unpacklo_epi16(_mm_setzero_si128(), _mm_loadl_epi64((const __m128i *)(const void *)p)));
}
QUANT__INLINE void quant__st16(uint16_t *p, quant__vi v)
{
    const __m128i w = _mm_srai_epi32(_mm_slli_epi32(v, 16), 16); /* sign-extended: the signed pack is exact */
    _mm_storel_epi64((__m128i *)(void *)p, _mm_packs_epi32(w, w));
}
#define QUANT__SCALES_OK(s) 1

#elif QUANT__PASS == QUANT_SIMD_AVX2
#define QUANT__W 8
typedef __m256 quant__vf;
typedef __m256i quant__vi;
typedef __m256i quant__vm;
#define QUANT__VFENCE(v) QUANT__FENCE(v)
QUANT__INLINE quant__vf quant__ldf(const float *p) { return _mm256_loadu_ps(p); }
QUANT__INLINE void quant__stf(float *p, quant__vf v) { _mm256_storeu_ps(p, v); }
QUANT__INLINE quant__vi quant__ldi(const int32_t *p) { return _mm256_loadu_si256((const __m256i *)(const void *)p); }
QUANT__INLINE void quant__sti(int32_t *p, quant__vi v) { _mm256_storeu_si256((__m256i *)(void *)p, v); }
QUANT__INLINE quant__vf quant__setf(float x) { return _mm256_set1_ps(x); }
QUANT__INLINE quant__vi quant__seti(int32_t x) { return _mm256_set1_epi32(x); }
QUANT__INLINE quant__vf quant__add(quant__vf a, quant__vf b) { return _mm256_add_ps(a, b); }
QUANT__INLINE quant__vf quant__mul(quant__vf a, quant__vf b) { return _mm256_mul_ps(a, b); }
QUANT__INLINE quant__vf quant__div(quant__vf a, quant__vf b) { return _mm256_div_ps(a, b); }
/* x / s from r = fl(1/s): x * r, corrected once (see QUANT__F_MARK) */
#define QUANT__HAS_FMA 1
QUANT__INLINE quant__vf quant__div_fma(quant__vf x, quant__vf s, quant__vf r)
{
    const quant__vf q = _mm256_mul_ps(x, r);
    return _mm256_fmadd_ps(_mm256_fnmadd_ps(q, s, x), r, q);
}
/* a * b + c for an exact a * b: one instruction where there is one */
QUANT__INLINE quant__vf quant__mul_add(quant__vf a, quant__vf b, quant__vf c) { return _mm256_fmadd_ps(a, b, c); }
QUANT__INLINE quant__vf quant__min(quant__vf a, quant__vf b) { return _mm256_min_ps(a, b); }
QUANT__INLINE quant__vf quant__max(quant__vf a, quant__vf b) { return _mm256_max_ps(a, b); }
QUANT__INLINE quant__vf quant__zero_nan(quant__vf v) { return _mm256_and_ps(v, _mm256_cmp_ps(v, v, _CMP_ORD_Q)); }
QUANT__INLINE int quant__any_nan4(const quant__vf v[4])
{
    return _mm256_movemask_ps(_mm256_or_ps(_mm256_cmp_ps(v[0], v[1], _CMP_UNORD_Q), _mm256_cmp_ps(v[2], v[3], _CMP_UNORD_Q))) != 0;
}
QUANT__INLINE quant__vi quant__cvt(quant__vf v) { return _mm256_cvtps_epi32(v); }
QUANT__INLINE quant__vf quant__i2f(quant__vi v) { return _mm256_cvtepi32_ps(v); }
QUANT__INLINE quant__vi quant__asi(quant__vf v) { return _mm256_castps_si256(v); }
QUANT__INLINE quant__vf quant__asf(quant__vi v) { return _mm256_castsi256_ps(v); }
QUANT__INLINE quant__vi quant__addi(quant__vi a, quant__vi b) { return _mm256_add_epi32(a, b); }
QUANT__INLINE quant__vi quant__subi(quant__vi a, quant__vi b) { return _mm256_sub_epi32(a, b); }
QUANT__INLINE quant__vi quant__and(quant__vi a, quant__vi b) { return _mm256_and_si256(a, b); }
QUANT__INLINE quant__vi quant__or(quant__vi a, quant__vi b) { return _mm256_or_si256(a, b); }
QUANT__INLINE quant__vi quant__srl(quant__vi a, unsigned n) { return _mm256_srl_epi32(a, _mm_cvtsi32_si128((int)n)); }
QUANT__INLINE quant__vi quant__sll(quant__vi a, unsigned n) { return _mm256_sll_epi32(a, _mm_cvtsi32_si128((int)n)); }
QUANT__INLINE quant__vm quant__gt(quant__vi a, quant__vi b) { return _mm256_cmpgt_epi32(a, b); }
QUANT__INLINE quant__vm quant__eq(quant__vi a, quant__vi b) { return _mm256_cmpeq_epi32(a, b); }
QUANT__INLINE quant__vi quant__sel(quant__vm m, quant__vi a, quant__vi b) { return _mm256_blendv_epi8(b, a, m); }
QUANT__INLINE quant__vi quant__mini(quant__vi a, quant__vi b) { return _mm256_min_epi32(a, b); }
QUANT__INLINE int quant__any(quant__vm m) { return _mm256_movemask_epi8(m) != 0; }
QUANT__INLINE quant__vi quant__ld8(const uint8_t *p, int is_signed)
{
    const __m128i b = _mm_loadl_epi64((const __m128i *)(const void *)p);
    return is_signed ? _mm256_cvtepi8_epi32(b) : _mm256_cvtepu8_epi32(b);
}
QUANT__INLINE void quant__st8(uint8_t *p, quant__vi v, int is_signed)
{
    const __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    _mm_storel_epi64((__m128i *)(void *)p, is_signed ? _mm_packs_epi16(w, w) : _mm_packus_epi16(w, w));
}
QUANT__INLINE void quant__st8x4(uint8_t *p, quant__vi a, quant__vi b, quant__vi c, quant__vi d,
                                int32_t z, int is_signed, int nt)
{
    /* the packs work within 128-bit halves; one permute restores order */
    const __m256i zz = _mm256_set1_epi16((short)z);
    const __m256i ab = _mm256_adds_epi16(_mm256_packs_epi32(a, b), zz);
    const __m256i cd = _mm256_adds_epi16(_mm256_packs_epi32(c, d), zz);
    const __m256i q = _mm256_permutevar8x32_epi32(is_signed ? _mm256_packs_epi16(ab, cd) : _mm256_packus_epi16(ab, cd),
                                                  _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    if (nt) _mm256_stream_si256((__m256i *)(void *)p, q);
    else _mm256_storeu_si256((__m256i *)(void *)p, q);
}
QUANT__INLINE void quant__stf_nt(float *p, quant__vf v) { _mm256_stream_ps(p, v); }
QUANT__INLINE void quant__zip(quant__vf a, quant__vf b, quant__vf *lo, quant__vf *hi)
{
    const __m256 l = _mm256_unpacklo_ps(a, b), h = _mm256_unpackhi_ps(a, b); /* within 128-bit halves */
    *lo = _mm256_permute2f128_ps(l, h, 0x20);
    *hi = _mm256_permute2f128_ps(l, h, 0x31);
}
QUANT__INLINE quant__vi quant__ld16(const uint16_t *p)
{
    return _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)p));
}
/* the eight in both halves, then one byte shuffle moves four of them to
   the high halves of the lanes of each (index bytes of -1 give zeros) */
QUANT__INLINE quant__vf quant__ld_bf16(const uint16_t *p)
{
    const __m256i idx = _mm256_setr_epi8(-1, -1, 0, 1, -1, -1, 2, 3, -1, -1, 4, 5, -1, -1, 6, 7,
                                         -1, -1, 8, 9, -1, -1, 10, 11, -1, -1, 12, 13, -1, -1, 14, 15);
    return _mm256_castsi256_ps(
        _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)p)), idx));
}
QUANT__INLINE void quant__st16(uint16_t *p, quant__vi v)
{
    const __m256i w = _mm256_srai_epi32(_mm256_slli_epi32(v, 16), 16);
    const __m128i q = _mm_packs_epi32(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
    _mm_storeu_si128((__m128i *)(void *)p, q);
}
#define QUANT__SCALES_OK(s) 1

#elif QUANT__PASS == QUANT_SIMD_AVX512
#define QUANT__W 16
typedef __m512 quant__vf;
typedef __m512i quant__vi;
typedef __mmask16 quant__vm;
#if defined(__GNUC__) || defined(__clang__)
#  define QUANT__VFENCE(v) __asm__("" : "+v"(v))
#else
#  define QUANT__VFENCE(v) ((void)0)
#endif
QUANT__INLINE quant__vf quant__ldf(const float *p) { return _mm512_loadu_ps(p); }
QUANT__INLINE void quant__stf(float *p, quant__vf v) { _mm512_storeu_ps(p, v); }
QUANT__INLINE quant__vi quant__ldi(const int32_t *p) { return _mm512_loadu_si512((const void *)p); }
QUANT__INLINE void quant__sti(int32_t *p, quant__vi v) { _mm512_storeu_si512((void *)p, v); }
QUANT__INLINE quant__vf quant__setf(float x) { return _mm512_set1_ps(x); }
QUANT__INLINE quant__vi quant__seti(int32_t x) { return _mm512_set1_epi32(x); }
QUANT__INLINE quant__vf quant__add(quant__vf a, quant__vf b) { return _mm512_add_ps(a, b); }
QUANT__INLINE quant__vf quant__mul(quant__vf a, quant__vf b) { return _mm512_mul_ps(a, b); }
QUANT__INLINE quant__vf quant__div(quant__vf a, quant__vf b) { return _mm512_div_ps(a, b); }
#define QUANT__HAS_FMA 1
QUANT__INLINE quant__vf quant__div_fma(quant__vf x, quant__vf s, quant__vf r)
{
    const quant__vf q = _mm512_mul_ps(x, r);
    return _mm512_fmadd_ps(_mm512_fnmadd_ps(q, s, x), r, q);
}
/* a * b + c for an exact a * b: one instruction where there is one */
QUANT__INLINE quant__vf quant__mul_add(quant__vf a, quant__vf b, quant__vf c) { return _mm512_fmadd_ps(a, b, c); }
QUANT__INLINE quant__vf quant__min(quant__vf a, quant__vf b) { return _mm512_min_ps(a, b); }
QUANT__INLINE quant__vf quant__max(quant__vf a, quant__vf b) { return _mm512_max_ps(a, b); }
/* vfixupimmps classifies each lane and answers from a table of nibbles:
   QNaN and SNaN (nibbles 0, 1) give +0 (response 8), every other class
   keeps the lane (response 1). One instruction instead of compare + move. */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
/* unoptimized, gcc expands the intrinsic as a macro in this file, whose
   all-ones mask meets the builtin's signed parameter: -Wsign-conversion */
#  pragma GCC diagnostic push
#  pragma GCC diagnostic ignored "-Wsign-conversion"
#endif
QUANT__INLINE quant__vf quant__zero_nan(quant__vf v)
{
    return _mm512_fixupimm_ps(v, v, _mm512_set1_epi32(0x11111188), 0);
}
/* f32 to f16 bits, rounded to nearest even whatever MXCSR says (vcvtps2ph) */
QUANT__INLINE __m256i quant__v_ph(quant__vf v) { return _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#  pragma GCC diagnostic pop
#endif
QUANT__INLINE int quant__any_nan4(const quant__vf v[4])
{
    return !_mm512_kortestz(_mm512_cmp_ps_mask(v[0], v[1], _CMP_UNORD_Q), _mm512_cmp_ps_mask(v[2], v[3], _CMP_UNORD_Q));
}
QUANT__INLINE quant__vi quant__cvt(quant__vf v) { return _mm512_cvtps_epi32(v); }
QUANT__INLINE quant__vf quant__i2f(quant__vi v) { return _mm512_cvtepi32_ps(v); }
QUANT__INLINE quant__vi quant__asi(quant__vf v) { return _mm512_castps_si512(v); }
QUANT__INLINE quant__vf quant__asf(quant__vi v) { return _mm512_castsi512_ps(v); }
QUANT__INLINE quant__vi quant__addi(quant__vi a, quant__vi b) { return _mm512_add_epi32(a, b); }
QUANT__INLINE quant__vi quant__subi(quant__vi a, quant__vi b) { return _mm512_sub_epi32(a, b); }
QUANT__INLINE quant__vi quant__and(quant__vi a, quant__vi b) { return _mm512_and_si512(a, b); }
QUANT__INLINE quant__vi quant__or(quant__vi a, quant__vi b) { return _mm512_or_si512(a, b); }
QUANT__INLINE quant__vi quant__srl(quant__vi a, unsigned n) { return _mm512_srl_epi32(a, _mm_cvtsi32_si128((int)n)); }
QUANT__INLINE quant__vi quant__sll(quant__vi a, unsigned n) { return _mm512_sll_epi32(a, _mm_cvtsi32_si128((int)n)); }
QUANT__INLINE quant__vm quant__gt(quant__vi a, quant__vi b) { return _mm512_cmpgt_epi32_mask(a, b); }
QUANT__INLINE quant__vm quant__eq(quant__vi a, quant__vi b) { return _mm512_cmpeq_epi32_mask(a, b); }
QUANT__INLINE quant__vi quant__sel(quant__vm m, quant__vi a, quant__vi b) { return _mm512_mask_blend_epi32(m, b, a); }
QUANT__INLINE quant__vi quant__mini(quant__vi a, quant__vi b) { return _mm512_min_epi32(a, b); }
QUANT__INLINE int quant__any(quant__vm m) { return m != 0; }
QUANT__INLINE quant__vi quant__ld8(const uint8_t *p, int is_signed)
{
    const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)p);
    return is_signed ? _mm512_cvtepi8_epi32(b) : _mm512_cvtepu8_epi32(b);
}
QUANT__INLINE void quant__st8(uint8_t *p, quant__vi v, int is_signed)
{
    (void)is_signed; /* lanes are in range: truncation is exact */
    _mm_storeu_si128((__m128i *)(void *)p, _mm512_cvtepi32_epi8(v));
}
QUANT__INLINE void quant__st8x4(uint8_t *p, quant__vi a, quant__vi b, quant__vi c, quant__vi d,
                                int32_t z, int is_signed, int nt)
{
    /* the packs work within 128-bit lanes; one permute restores order */
    const __m512i zz = _mm512_set1_epi16((short)z);
    const __m512i ab = _mm512_adds_epi16(_mm512_packs_epi32(a, b), zz);
    const __m512i cd = _mm512_adds_epi16(_mm512_packs_epi32(c, d), zz);
    const __m512i q = _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15),
                                               is_signed ? _mm512_packs_epi16(ab, cd) : _mm512_packus_epi16(ab, cd));
    if (nt) _mm512_stream_si512((__m512i *)(void *)p, q);
    else _mm512_storeu_si512((void *)p, q);
}
QUANT__INLINE void quant__stf_nt(float *p, quant__vf v) { _mm512_stream_ps(p, v); }
QUANT__INLINE void quant__zip(quant__vf a, quant__vf b, quant__vf *lo, quant__vf *hi)
{
    const __m512i il = _mm512_set_epi32(23, 7, 22, 6, 21, 5, 20, 4, 19, 3, 18, 2, 17, 1, 16, 0);
    const __m512i ih = _mm512_set_epi32(31, 15, 30, 14, 29, 13, 28, 12, 27, 11, 26, 10, 25, 9, 24, 8);
    *lo = _mm512_permutex2var_ps(a, il, b);
    *hi = _mm512_permutex2var_ps(a, ih, b);
}
QUANT__INLINE quant__vi quant__ld16(const uint16_t *p)
{
    return _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(const void *)p));
}
/* one permute puts 16-bit value k in the high half of lane k and zeroes
   the low halves (bytes with VBMI, else words) */
QUANT__INLINE quant__vf quant__ld_bf16(const uint16_t *p)
{
    const __m512i h = _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)(const void *)p));
#if QUANT__PASS_VBMI
    const __m512i idx = _mm512_set_epi32(0x1F1E0000, 0x1D1C0000, 0x1B1A0000, 0x19180000, 0x17160000, 0x15140000,
                                         0x13120000, 0x11100000, 0x0F0E0000, 0x0D0C0000, 0x0B0A0000, 0x09080000,
                                         0x07060000, 0x05040000, 0x03020000, 0x01000000);
    return _mm512_castsi512_ps(_mm512_maskz_permutexvar_epi8(0xCCCCCCCCCCCCCCCCull, idx, h));
#else
    const __m512i idx = _mm512_set_epi32(15 << 16, 14 << 16, 13 << 16, 12 << 16, 11 << 16, 10 << 16, 9 << 16, 8 << 16,
                                         7 << 16, 6 << 16, 5 << 16, 4 << 16, 3 << 16, 2 << 16, 1 << 16, 0);
    return _mm512_castsi512_ps(_mm512_maskz_permutexvar_epi16(0xAAAAAAAAu, idx, h));
#endif
}
QUANT__INLINE void quant__st16(uint16_t *p, quant__vi v)
{
    _mm256_storeu_si256((__m256i *)(void *)p, _mm512_cvtepi32_epi16(v));
}
#define QUANT__SCALES_OK(s) 1
#elif QUANT__PASS == QUANT_SIMD_NEON
#define QUANT__W 4
typedef float32x4_t quant__vf;
typedef int32x4_t quant__vi;
typedef uint32x4_t quant__vm;
#if defined(__GNUC__) || defined(__clang__)
#  define QUANT__VFENCE(v) __asm__("" : "+w"(v))
#else
#  define QUANT__VFENCE(v) ((void)0)
#endif
QUANT__INLINE quant__vf quant__ldf(const float *p) { return vld1q_f32(p); }
QUANT__INLINE void quant__stf(float *p, quant__vf v) { vst1q_f32(p, v); }
QUANT__INLINE quant__vi quant__ldi(const int32_t *p) { return vld1q_s32(p); }
QUANT__INLINE quant__vf quant__setf(float x) { return vdupq_n_f32(x); }
QUANT__INLINE quant__vi quant__seti(int32_t x) { return vdupq_n_s32(x); }
QUANT__INLINE quant__vf quant__add(quant__vf a, quant__vf b) { return vaddq_f32(a, b); }
QUANT__INLINE quant__vf quant__mul(quant__vf a, quant__vf b) { return vmulq_f32(a, b); }
QUANT__INLINE quant__vf quant__min(quant__vf a, quant__vf b) { return vminq_f32(a, b); }
QUANT__INLINE quant__vf quant__max(quant__vf a, quant__vf b) { return vmaxq_f32(a, b); }
QUANT__INLINE quant__vi quant__asi(quant__vf v) { return vreinterpretq_s32_f32(v); }
QUANT__INLINE quant__vf quant__asf(quant__vi v) { return vreinterpretq_f32_s32(v); }
QUANT__INLINE quant__vf quant__zero_nan(quant__vf v)
{
    return vreinterpretq_f32_u32(vandq_u32(vreinterpretq_u32_f32(v), vceqq_f32(v, v)));
}
QUANT__INLINE int quant__any_nan4(const quant__vf v[4])
{
    const uint32x4_t ordered = vandq_u32(vandq_u32(vceqq_f32(v[0], v[0]), vceqq_f32(v[1], v[1])),
                                         vandq_u32(vceqq_f32(v[2], v[2]), vceqq_f32(v[3], v[3])));
    const uint32x2_t h = vand_u32(vget_low_u32(ordered), vget_high_u32(ordered));
    return (vget_lane_u32(h, 0) & vget_lane_u32(h, 1)) != 0xFFFFFFFFu;
}
QUANT__INLINE quant__vf quant__i2f(quant__vi v) { return vcvtq_f32_s32(v); }
#if defined(__aarch64__)
QUANT__INLINE quant__vf quant__div(quant__vf a, quant__vf b) { return vdivq_f32(a, b); }
QUANT__INLINE quant__vi quant__cvt(quant__vf v) { return vcvtnq_s32_f32(v); }
QUANT__INLINE int quant__any(quant__vm m) { return vmaxvq_u32(m) != 0; }
#  define QUANT__SCALES_OK(s) 1
#else
/* 32-bit NEON has no division: each lane divides in VFP, which is IEEE
   exact; it is only reached by the exact and onnx roundings. */
QUANT__INLINE quant__vf quant__div(quant__vf a, quant__vf b)
{
    float x[4], y[4];
    int k;
    vst1q_f32(x, a);
    vst1q_f32(y, b);
    for (k = 0; k < 4; ++k) x[k] = x[k] / y[k];
    return vld1q_f32(x);
}
/* no round-to-nearest convert either: lanes here are clamped below 2^22,
   where adding 1.5 * 2^23 leaves the rounded integer in the low bits */
QUANT__INLINE quant__vi quant__cvt(quant__vf v)
{
    const float32x4_t magic = vdupq_n_f32(12582912.0f);
    return vsubq_s32(vreinterpretq_s32_f32(vaddq_f32(v, magic)), vreinterpretq_s32_f32(magic));
}
#define QUANT__CVT_NEEDS_RANGE 1
#define QUANT__NAN_KEEPS_SIGN 0
QUANT__INLINE int quant__any(quant__vm m)
{
    const uint32x2_t h = vorr_u32(vget_low_u32(m), vget_high_u32(m));
    return (vget_lane_u32(h, 0) | vget_lane_u32(h, 1)) != 0;
}
/* 32-bit NEON flushes subnormals to zero. Scales outside [2^-64, 2^64]
   could meet one (x * r or (q - z) * s for a tiny scale, the reciprocal
   itself for a huge one), so they go to the scalar kernel: VFP keeps
   subnormals. */
QUANT__INLINE int quant__neon_scales_ok(quant__vf s)
{
    const uint32x4_t a = vandq_u32(vreinterpretq_u32_f32(s), vdupq_n_u32(0x7FFFFFFFu));
    return !quant__any(vorrq_u32(vcltq_u32(a, vdupq_n_u32(63u << 23)),
                                 vcgtq_u32(a, vdupq_n_u32(191u << 23))));
}
#  define QUANT__SCALES_OK(s) quant__neon_scales_ok(s)
#endif
QUANT__INLINE quant__vi quant__addi(quant__vi a, quant__vi b) { return vaddq_s32(a, b); }
QUANT__INLINE quant__vi quant__subi(quant__vi a, quant__vi b) { return vsubq_s32(a, b); }
QUANT__INLINE quant__vi quant__and(quant__vi a, quant__vi b) { return vandq_s32(a, b); }
QUANT__INLINE quant__vi quant__or(quant__vi a, quant__vi b) { return vorrq_s32(a, b); }
QUANT__INLINE quant__vi quant__srl(quant__vi a, unsigned n)
{
    return vreinterpretq_s32_u32(vshlq_u32(vreinterpretq_u32_s32(a), vdupq_n_s32(-(int32_t)n)));
}
QUANT__INLINE quant__vi quant__sll(quant__vi a, unsigned n) { return vshlq_s32(a, vdupq_n_s32((int32_t)n)); }
QUANT__INLINE quant__vm quant__gt(quant__vi a, quant__vi b) { return vcgtq_s32(a, b); }
QUANT__INLINE quant__vm quant__eq(quant__vi a, quant__vi b) { return vceqq_s32(a, b); }
QUANT__INLINE quant__vi quant__sel(quant__vm m, quant__vi a, quant__vi b) { return vbslq_s32(m, a, b); }
QUANT__INLINE quant__vi quant__mini(quant__vi a, quant__vi b) { return vminq_s32(a, b); }
QUANT__INLINE quant__vi quant__ld8(const uint8_t *p, int is_signed)
{
    const uint8x8_t b = vreinterpret_u8_u32(vdup_n_u32(quant__ld4(p)));
    if (is_signed) return vmovl_s16(vget_low_s16(vmovl_s8(vreinterpret_s8_u8(b))));
    return vreinterpretq_s32_u32(vmovl_u16(vget_low_u16(vmovl_u8(b))));
}
QUANT__INLINE void quant__st8(uint8_t *p, quant__vi v, int is_signed)
{
    const int16x4_t w = vmovn_s32(v); /* lanes are in range: truncation is exact */
    (void)is_signed;
    quant__st4(p, vget_lane_u32(vreinterpret_u32_s8(vmovn_s16(vcombine_s16(w, w))), 0));
}
QUANT__INLINE void quant__st8x4(uint8_t *p, quant__vi a, quant__vi b, quant__vi c, quant__vi d,
                                int32_t z, int is_signed, int nt)
{
    const int16x8_t zz = vdupq_n_s16((int16_t)z);
    const int16x8_t ab = vqaddq_s16(vcombine_s16(vqmovn_s32(a), vqmovn_s32(b)), zz);
    const int16x8_t cd = vqaddq_s16(vcombine_s16(vqmovn_s32(c), vqmovn_s32(d)), zz);
    (void)nt; /* no streaming stores on NEON: the flag is never set */
    if (is_signed) vst1q_s8((int8_t *)p, vcombine_s8(vqmovn_s16(ab), vqmovn_s16(cd)));
    else vst1q_u8(p, vcombine_u8(vqmovun_s16(ab), vqmovun_s16(cd)));
}
QUANT__INLINE void quant__stf_nt(float *p, quant__vf v) { vst1q_f32(p, v); }
QUANT__INLINE void quant__zip(quant__vf a, quant__vf b, quant__vf *lo, quant__vf *hi)
{
    const float32x4x2_t z = vzipq_f32(a, b);
    *lo = z.val[0];
    *hi = z.val[1];
}
QUANT__INLINE quant__vi quant__ld16(const uint16_t *p) { return vreinterpretq_s32_u32(vmovl_u16(vld1_u16(p))); }
QUANT__INLINE quant__vf quant__ld_bf16(const uint16_t *p) { return vreinterpretq_f32_u32(vshll_n_u16(vld1_u16(p), 16)); }
QUANT__INLINE void quant__st16(uint16_t *p, quant__vi v) { vst1_u16(p, vmovn_u32(vreinterpretq_u32_s32(v))); }
#elif QUANT__PASS == QUANT_SIMD_HELIUM
/* Helium (Armv8.1-M MVE with floating point): 128-bit vectors of 4 lanes,
   masks as predicates (mve_pred16_t, four bits a lane). Its float vector
   instructions behave as 32-bit NEON's do: they run with the standard
   FPSCR value (subnormal inputs and results flushed to zero, the default
   NaN; qemu 7.2 agrees), while the scalar FPU keeps IEEE behaviour. So it
   takes NEON's escape hatches: scales outside [2^-64, 2^64] go to the
   scalar kernel, a NaN's sign is taken from x, the range search runs the
   scalar code, and division goes lane by lane to the scalar FPU (MVE has
   no vector divide). Unlike 32-bit NEON it has a round-to-nearest-even
   convert that saturates (VCVTN), so no magic-number rounding. */
#define QUANT__W 4
typedef float32x4_t quant__vf;
typedef int32x4_t quant__vi;
typedef mve_pred16_t quant__vm;
#if defined(__GNUC__) || defined(__clang__)
#  define QUANT__VFENCE(v) __asm__("" : "+w"(v))
#else
#  define QUANT__VFENCE(v) ((void)0)
#endif
QUANT__INLINE quant__vf quant__ldf(const float *p) { return vld1q_f32(p); }
QUANT__INLINE void quant__stf(float *p, quant__vf v) { vst1q_f32(p, v); }
QUANT__INLINE quant__vi quant__ldi(const int32_t *p) { return vld1q_s32(p); }
QUANT__INLINE quant__vf quant__setf(float x) { return vdupq_n_f32(x); }
QUANT__INLINE quant__vi quant__seti(int32_t x) { return vdupq_n_s32(x); }
QUANT__INLINE quant__vf quant__add(quant__vf a, quant__vf b) { return vaddq_f32(a, b); }
QUANT__INLINE quant__vf quant__mul(quant__vf a, quant__vf b) { return vmulq_f32(a, b); }
/* no vector divide: each lane divides in the scalar FPU, which is IEEE
   exact (subnormals kept); only the exact and onnx roundings reach it */
QUANT__INLINE quant__vf quant__div(quant__vf a, quant__vf b)
{
    float x[4], y[4];
    int k;
    vst1q_f32(x, a);
    vst1q_f32(y, b);
    for (k = 0; k < 4; ++k) x[k] = x[k] / y[k];
    return vld1q_f32(x);
}
/* x86's semantics, a < b ? a : b: a NaN b passes on (VMINNM would drop
   it). MVE's VCMP LT and LE hold for unordered operands (the condition
   codes' LT is N != V), GT and GE do not: min compares b > a. */
QUANT__INLINE quant__vf quant__min(quant__vf a, quant__vf b) { return vpselq_f32(a, b, vcmpgtq_f32(b, a)); }
QUANT__INLINE quant__vf quant__max(quant__vf a, quant__vf b) { return vpselq_f32(a, b, vcmpgtq_f32(a, b)); }
QUANT__INLINE quant__vi quant__asi(quant__vf v) { return vreinterpretq_s32_f32(v); }
QUANT__INLINE quant__vf quant__asf(quant__vi v) { return vreinterpretq_f32_s32(v); }
QUANT__INLINE quant__vf quant__zero_nan(quant__vf v) { return vpselq_f32(v, vdupq_n_f32(0.0f), vcmpeqq_f32(v, v)); }
QUANT__INLINE int quant__any_nan4(const quant__vf v[4])
{
    const mve_pred16_t ordered = (mve_pred16_t)(vcmpeqq_f32(v[0], v[0]) & vcmpeqq_f32(v[1], v[1]) &
                                                vcmpeqq_f32(v[2], v[2]) & vcmpeqq_f32(v[3], v[3]));
    return ordered != 0xFFFFu;
}
QUANT__INLINE quant__vf quant__i2f(quant__vi v) { return vcvtq_f32_s32(v); }
/* round to nearest even; out of range saturates, NaN gives 0 */
QUANT__INLINE quant__vi quant__cvt(quant__vf v) { return vcvtnq_s32_f32(v); }
#define QUANT__NAN_KEEPS_SIGN 0
QUANT__INLINE quant__vi quant__addi(quant__vi a, quant__vi b) { return vaddq_s32(a, b); }
QUANT__INLINE quant__vi quant__subi(quant__vi a, quant__vi b) { return vsubq_s32(a, b); }
QUANT__INLINE quant__vi quant__and(quant__vi a, quant__vi b) { return vandq_s32(a, b); }
QUANT__INLINE quant__vi quant__or(quant__vi a, quant__vi b) { return vorrq_s32(a, b); }
QUANT__INLINE quant__vi quant__srl(quant__vi a, unsigned n)
{
    return vreinterpretq_s32_u32(vshlq_r_u32(vreinterpretq_u32_s32(a), -(int32_t)n));
}
QUANT__INLINE quant__vi quant__sll(quant__vi a, unsigned n) { return vshlq_r_s32(a, (int32_t)n); }
QUANT__INLINE quant__vm quant__gt(quant__vi a, quant__vi b) { return vcmpgtq_s32(a, b); }
QUANT__INLINE quant__vm quant__eq(quant__vi a, quant__vi b) { return vcmpeqq_s32(a, b); }
QUANT__INLINE quant__vi quant__sel(quant__vm m, quant__vi a, quant__vi b) { return vpselq_s32(a, b, m); }
QUANT__INLINE quant__vi quant__mini(quant__vi a, quant__vi b) { return vminq_s32(a, b); }
QUANT__INLINE int quant__any(quant__vm m) { return m != 0; }
/* scales outside [2^-64, 2^64] go to the scalar kernel (see above) */
QUANT__INLINE int quant__mve_scales_ok(quant__vf s)
{
    const quant__vi a = quant__and(quant__asi(s), quant__seti(0x7FFFFFFF));
    return !quant__any((quant__vm)(quant__gt(quant__seti(63 << 23), a) | quant__gt(a, quant__seti(191 << 23))));
}
#define QUANT__SCALES_OK(s) quant__mve_scales_ok(s)
/* widening loads and narrowing stores: four bytes or halfwords to lanes */
QUANT__INLINE quant__vi quant__ld8(const uint8_t *p, int is_signed)
{
    if (is_signed) return vldrbq_s32((const int8_t *)(const void *)p);
    return vreinterpretq_s32_u32(vldrbq_u32(p));
}
/* lanes are in range: the truncating store is exact */
QUANT__INLINE void quant__st8(uint8_t *p, quant__vi v, int is_signed)
{
    (void)is_signed;
    vstrbq_s32((int8_t *)(void *)p, v);
}
/* as the packs elsewhere: each lane saturated to 16 bits, z (as an int16)
   added with 16-bit saturation, then saturated to the byte type; within
   32-bit lanes the middle saturation is the byte type's own */
QUANT__INLINE void quant__st8x4(uint8_t *p, quant__vi a, quant__vi b, quant__vi c, quant__vi d,
                                int32_t z, int is_signed, int nt)
{
    const quant__vi zz = vdupq_n_s32((int32_t)(int16_t)z), h16 = vdupq_n_s32(32767), l16 = vdupq_n_s32(-32768);
    const quant__vi hi = vdupq_n_s32(is_signed ? 127 : 255), lo = vdupq_n_s32(is_signed ? -128 : 0);
    int8_t *q = (int8_t *)(void *)p;
    (void)nt; /* no streaming stores here: the flag is never set */
    vstrbq_s32(q, vmaxq_s32(vminq_s32(vaddq_s32(vmaxq_s32(vminq_s32(a, h16), l16), zz), hi), lo));
    vstrbq_s32(q + 4, vmaxq_s32(vminq_s32(vaddq_s32(vmaxq_s32(vminq_s32(b, h16), l16), zz), hi), lo));
    vstrbq_s32(q + 8, vmaxq_s32(vminq_s32(vaddq_s32(vmaxq_s32(vminq_s32(c, h16), l16), zz), hi), lo));
    vstrbq_s32(q + 12, vmaxq_s32(vminq_s32(vaddq_s32(vmaxq_s32(vminq_s32(d, h16), l16), zz), hi), lo));
}
QUANT__INLINE void quant__stf_nt(float *p, quant__vf v) { vst1q_f32(p, v); }
/* the interleaving store does the zip through memory */
QUANT__INLINE void quant__zip(quant__vf a, quant__vf b, quant__vf *lo, quant__vf *hi)
{
    float t[8];
    float32x4x2_t ab;
    ab.val[0] = a;
    ab.val[1] = b;
    vst2q_f32(t, ab);
    *lo = vld1q_f32(t);
    *hi = vld1q_f32(t + 4);
}
QUANT__INLINE quant__vi quant__ld16(const uint16_t *p) { return vreinterpretq_s32_u32(vldrhq_u32(p)); }
QUANT__INLINE quant__vf quant__ld_bf16(const uint16_t *p) { return vreinterpretq_f32_u32(vshlq_n_u32(vldrhq_u32(p), 16)); }
QUANT__INLINE void quant__st16(uint16_t *p, quant__vi v) { vstrhq_u32(p, vreinterpretq_u32_s32(v)); }
#endif

#ifndef QUANT__CVT_NEEDS_RANGE
#  define QUANT__CVT_NEEDS_RANGE 0 /* converts of out-of-range floats saturate or give INT_MIN */
#endif
/* x86 and AArch64 (FPCR.DN clear, the Linux default) pass a NaN operand
   through x / s and x * r with its sign; 32-bit NEON always makes the
   default NaN, so the sign is taken from x there. */
#ifndef QUANT__NAN_KEEPS_SIGN
#  define QUANT__NAN_KEEPS_SIGN 1
#endif
/* A block of four vectors is first tested for NaN (rare in real data)
   and its NaN lanes zeroed only when it has one. On AVX-512 the zeroing
   is one vfixupimmps a vector, and the test (two compares, one kortest)
   is still cheaper: f32 -> s8 `torch` at 64 Ki went from 1.08 to 1.02x
   the limit (ten interleaved runs). A backend may define this as 1 to
   zero every vector instead. */
#ifndef QUANT__NAN_CHEAP
#  define QUANT__NAN_CHEAP 0
#endif
#ifndef QUANT__HAS_FMA
#  define QUANT__HAS_FMA 0 /* no fused multiply-add: QUANT__F_MARK is never set */
QUANT__INLINE quant__vf quant__div_fma(quant__vf x, quant__vf s, quant__vf r) { (void)r; return quant__div(x, s); }
QUANT__INLINE quant__vf quant__mul_add(quant__vf a, quant__vf b, quant__vf c) { return quant__add(quant__mul(a, b), c); }
#endif

/* ---- helpers every vector kernel uses ---------------------------------- */

QUANT__INLINE int quant__v_zp_fast(quant__vi z)
{
    return !quant__any(quant__gt(z, quant__seti(QUANT__ZP_FAST))) &&
           !quant__any(quant__gt(quant__seti(-QUANT__ZP_FAST), z));
}

/* f16 bits in lanes (zero-extended) to f32, as quant__f16_to_f32 */
QUANT__INLINE quant__vf quant__v_from_f16(quant__vi h)
{
    const quant__vi a = quant__and(h, quant__seti(0x7FFF)), sign = quant__sll(quant__and(h, quant__seti(0x8000)), 16);
    const quant__vi bias = quant__seti(112 << 23);
    quant__vi r = quant__addi(quant__sll(a, 13), bias);                         /* normal */
    r = quant__sel(quant__gt(a, quant__seti(0x7BFF)), quant__addi(r, bias), r); /* Inf, NaN */
    r = quant__sel(quant__gt(quant__seti(0x400), a),                             /* zero, subnormal */
                   quant__asi(quant__mul(quant__i2f(a), quant__setf(5.9604644775390625e-8f))), r);
    return quant__asf(quant__or(r, sign));
}

/* W source elements from element j as f32: of p (half 0), or of h,
   bf16 (half 1) or f16 (2) */
QUANT__INLINE quant__vf quant__v_load(const float *p, const uint16_t *h, size_t j, const int half)
{
    if (half == 1) return quant__ld_bf16(h + j);
    if (half == 2) return quant__v_from_f16(quant__ld16(h + j));
    return quant__ldf(p + j);
}

/* x / s or x * r, fenced so that no later addition fuses with it */
QUANT__INLINE quant__vf quant__v_quotient(quant__vf x, quant__vf s, quant__vf r, unsigned f)
{
    quant__vf v = (f & QUANT__F_RECIP) ? quant__mul(x, r) : (f & QUANT__F_MARK) ? quant__div_fma(x, s, r) : quant__div(x, s);
    QUANT__VFENCE(v);
    return v;
}

/* Integer quantize of one vector; the same steps as quant__q_int. With z
   before rounding, lo/hi are the type's range; with z after, they are
   lo - z and hi - z, which clamps rne(v) + z without leaving 32 bits. */
QUANT__INLINE quant__vi quant__v_q_int(quant__vf x, quant__vf s, quant__vf r, quant__vf zf,
                                       quant__vi z, quant__vf lo, quant__vf hi, unsigned f)
{
    quant__vf v = quant__zero_nan(quant__v_quotient(x, s, r, f));
    if (f & QUANT__F_ZP_BEFORE)
        return quant__cvt(quant__min(quant__max(quant__add(v, zf), lo), hi));
    return quant__addi(quant__cvt(quant__min(quant__max(v, lo), hi)), z);
}

/* Scale and reciprocal vectors for the block at element i: the row's own
   (one scale), or loaded (a vector of scales; QUANT__F_RECIP_GIVEN says
   the array already holds fl(1/s)). */
QUANT__INLINE void quant__v_scale_at(const float *scale, size_t i, unsigned f, quant__vf s1, quant__vf r1,
                                     quant__vf *s, quant__vf *r)
{
    if (!(f & QUANT__F_VEC)) { *s = s1; *r = r1; return; }
    *s = quant__ldf(scale + i);
    *r = (f & QUANT__F_RECIP_GIVEN) || !(f & QUANT__F_RECIP) ? *s : quant__div(quant__setf(1.0f), *s);
}
/* The flags become constants inside each body, so every combination gets
   a loop with no flag tests in it; QUANT__F_VEC stands for sstep 1. */
#define QUANT__VEC_IF(sstep) ((sstep) ? QUANT__F_VEC : 0u)

#elif QUANT__PART == 3
/* name##_x86: the pass for this CPU */
#  if QUANT__DISPATCH
#    define QUANT__PICK(name, args)                                          \
    do {                                                                      \
        switch (quant__x86_level()) {                                         \
        case QUANT__L_AVX512BF16:                                             \
        case QUANT__L_AVX512VBMI: name##_avx512vbmi args; break;              \
        case QUANT__L_AVX512: name##_avx512 args; break;                      \
        case QUANT__L_AVX2: name##_avx2 args; break;                          \
        default: name##_sse2 args; break;                                     \
        }                                                                     \
    } while (0)
#  endif
#endif /* QUANT__PART 2, 3 */

/* ---- >>unit scales: validity and reciprocals of scale arrays ----------- */
#if QUANT__PART == 1

QUANT__PRIVATE void quant__scalar_recip(float *s, size_t n)
{
    size_t i;
    for (i = 0; i < n; ++i) s[i] = 1.0f / s[i];
}

/* A scale is valid when 2^-128 < |s| < Inf: fl(1/s) is infinite exactly
   for |s| <= 2^-128 (bits 0x00200000; the tests check every float), which
   takes zero and the smaller subnormals with it. */
#define QUANT__SCALE_MIN_BITS 0x00200001u
#define QUANT__SCALE_MAX_BITS 0x7F7FFFFFu

QUANT__PRIVATE int quant__scalar_scales_valid(const float *s, size_t n)
{
    uint32_t bad = 0;
    size_t i;
    for (i = 0; i < n; ++i)
        bad |= ((quant__bits(s[i]) & 0x7FFFFFFFu) - QUANT__SCALE_MIN_BITS) >
               (QUANT__SCALE_MAX_BITS - QUANT__SCALE_MIN_BITS);
    return !bad;
}

#elif QUANT__PART == 2

QUANT__PRIVATE int quant__simd_scales_valid(const float *s, size_t n)
{
    const quant__vi mag = quant__seti(0x7FFFFFFF);
    const quant__vi lo = quant__seti((int32_t)QUANT__SCALE_MIN_BITS), hi = quant__seti((int32_t)QUANT__SCALE_MAX_BITS);
    size_t i = 0;
    for (; i + QUANT__W <= n; i += QUANT__W) {
        const quant__vi a = quant__and(quant__asi(quant__ldf(s + i)), mag);
        if (quant__any(quant__gt(lo, a)) || quant__any(quant__gt(a, hi))) return 0;
    }
    return quant__scalar_scales_valid(s + i, n - i);
}

/* fl(1/s) in place, a vector at a time */
QUANT__PRIVATE void quant__simd_recip(float *s, size_t n)
{
    size_t i = 0;
    for (; i + QUANT__W <= n; i += QUANT__W) quant__stf(s + i, quant__div(quant__setf(1.0f), quant__ldf(s + i)));
    for (; i < n; ++i) s[i] = 1.0f / s[i];
}

#elif QUANT__PART == 3

#if QUANT__DISPATCH
QUANT__PRIVATE int quant__simd_scales_valid_x86(const float *s, size_t n)
{
    int ok;
    QUANT__PICK(ok = quant__simd_scales_valid, (s, n));
    return ok;
}
QUANT__PRIVATE void quant__simd_recip_x86(float *s, size_t n)
{
    QUANT__PICK(quant__simd_recip, (s, n));
}
#endif
#if QUANT__SIMD_ANY
#  define quant__recip        QUANT__BK(quant__simd_recip)
#  define quant__scales_valid QUANT__BK(quant__simd_scales_valid)
#else
#  define quant__recip        quant__scalar_recip
#  define quant__scales_valid quant__scalar_scales_valid
#endif

#endif

/* ---- >>unit quantize: f32 -> s8/u8 (f32_to_i8) ------------------------- */
#if QUANT__PART == 1

/* Round to nearest even for |v| <= 2^31. Adding 2^23 pushes the fraction
   out of a float's 24-bit significand, and the FPU's own round to nearest
   even does the rounding; at 2^23 and above every float is an integer. */
QUANT__INLINE int32_t quant__rne_i32(float v)
{
    float a = v < 0.0f ? -v : v;
    if (a < 8388608.0f) a = (a + 8388608.0f) - 8388608.0f;
    return (int32_t)(v < 0.0f ? -a : a);
}

/* One element of integer quantize, as the doc block's table defines it. */
QUANT__INLINE int32_t quant__q_int(float x, float s, float r, int32_t z, unsigned f)
{
    const int32_t lo = (QUANT__S16 && (f & QUANT__F_S16)) ? -32768 : (f & QUANT__F_U8) ? 0 : -128;
    const int32_t hi = (QUANT__S16 && (f & QUANT__F_S16)) ? 32767 : (f & QUANT__F_U8) ? 255 : 127;
    float v;
    if (!QUANT__EXACT_ONLY && (f & QUANT__F_RECIP)) { v = x * r; QUANT__FENCE(v); }
    else v = x / s;
    if (v != v) v = 0.0f;              /* NaN quantizes like zero: sat(z) */
    if (QUANT__EXACT_ONLY || (f & QUANT__F_ZP_BEFORE)) {
        v = v + (float)z;
        /* clamping before rounding is exact: lo and hi are integers. Then
           |v| <= 2^15, and adding 1.5 * 2^23 leaves v's fraction to the
           FPU's round to nearest even (as quant__rne_i32 does, for a
           smaller range) */
        if (v < (float)lo) v = (float)lo;
        if (v > (float)hi) v = (float)hi;
        return (int32_t)((v + 12582912.0f) - 12582912.0f);
    } else {
        /* rne(v) + z, saturated, in 32-bit steps. From 2^32 on the sum
           saturates for every int32 z. Between 2^31 and 2^32, |v| = 2^31 + w
           with w an even integer, and only a z of the other sign can bring
           the sum back; then zf, z with its top bit flipped, is z + 2^31
           (z < 0) or z - 2^31 (z >= 0), and the sum is w + zf or zf - w. */
        int32_t t;
        if (v <= -4294967296.0f) return lo;
        if (v >= 4294967296.0f) return hi;
        if (v >= 2147483648.0f || v <= -2147483648.0f) {
            const int up = v > 0.0f;
            const int32_t w = (int32_t)((up ? v : -v) - 2147483648.0f);
            const int32_t zf = (int32_t)((uint32_t)z ^ 0x80000000u);
            if (up) return z >= 0 || w > hi - zf ? hi : w + zf;
            return z < 0 || w > zf - lo ? lo : zf - w;
        }
        t = quant__rne_i32(v);
        {
            /* the sum in 32 bits, overflow told by the signs */
            const int32_t sum = (int32_t)((uint32_t)t + (uint32_t)z);
            if ((t >= 0) == (z >= 0) && (sum >= 0) != (t >= 0)) return t >= 0 ? hi : lo;
            return sum < lo ? lo : sum > hi ? hi : sum;
        }
    }
}

/* The scale and the reciprocal a multiply rounding uses, from one entry of
   a scale array (which holds fl(1/s) itself under QUANT__F_RECIP_GIVEN). */
QUANT__INLINE void quant__scale_pair(const float *scale, unsigned f, float *s, float *r)
{
    *s = scale[0];
    if (f & QUANT__F_RECIP) *r = (f & QUANT__F_RECIP_GIVEN) ? scale[0] : 1.0f / scale[0];
}

/* The four kernel shapes. scale (and zp) advance by sstep (zstep) per
   element: 0 for one scale, 1 for a vector of scales (per channel, last
   axis). Every backend has these four with these signatures. The scalar
   one also writes s16 (QUANT__F_S16: dst then holds int16_t), so that
   one copy of quant__q_int serves every integer type. */
QUANT__PRIVATE void quant__scalar_f32_to_i8(const float *src, uint8_t *dst, size_t n,
                                            const float *scale, size_t sstep,
                                            const int32_t *zp, size_t zstep, unsigned f)
{
    size_t i;
    float s = 0.0f, r = 0.0f;
    for (i = 0; i < n; ++i) {
        int32_t q;
        if (i == 0 || sstep) quant__scale_pair(scale + i * sstep, f, &s, &r);
        q = quant__q_int(src[i], s, r, zp[i * zstep], f);
        if (QUANT__S16 && (f & QUANT__F_S16)) ((int16_t *)(void *)dst)[i] = (int16_t)q;
        else dst[i] = (uint8_t)q;
    }
}

#elif QUANT__PART == 2

/* The four-vector loop of one zero point within QUANT__ZP_PACK, from
   element i (pattern position *so) on; returns where it stopped. It clamps
   only from above in float: below, the conversion's INT_MIN and the
   saturating packs give lo just as the clamp would, and z is added in 16
   bits with saturation, which cannot carry a sum below lo back into range
   while |z| <= QUANT__ZP_PACK. */
QUANT__INLINE size_t quant__v_f32_to_i8_x4f(const float *src, uint8_t *dst, size_t n, const float *scale,
                                            const int32_t *zp, size_t per, size_t *so_io, quant__vf s1,
                                            quant__vf r1, quant__vf zf, quant__vf vlo, quant__vf vhi,
                                            const unsigned f, const uint16_t *h, const int half)
{
    const int sgn = !(f & QUANT__F_U8), before = (f & QUANT__F_ZP_BEFORE) != 0;
    const size_t sstep = (f & QUANT__F_VEC) ? 1 : 0;
    const int32_t z16 = before ? 0 : zp[0];
    const size_t pf_end = (f & QUANT__F_AHEAD) ? n : QUANT__PREFETCH_END(n, half ? 2u : 4u);
    size_t i = 0, so = 0;
    quant__vf s, r;
    if (half) {
        /* a 16-bit source (one scale, no streaming): widened in registers */
    } else if (f & QUANT__F_STREAM) { /* streaming stores want aligned blocks: the scalar kernel takes the head */
        i = so = quant__head(dst, 4 * QUANT__W, n);
        quant__scalar_f32_to_i8(src, dst, i, scale, 0, zp, 0, f);
    } else if (!(f & QUANT__F_VEC) && (n >= 16384 || ((f & QUANT__F_BOUNDED) && n >= 5 * QUANT__W))) {
        /* Past L1 (measured: split loads cost ~5-10% from L2 on, nothing
           while in L1), and for the fused op's rows, which its range pass
           may have left in L2: one vector where src starts, then on from where
           its loads are aligned; the few elements in between are computed
           twice, to the same bytes. */
        const size_t head = quant__head(src, 4 * QUANT__W, 4 * QUANT__W) / 4;
        if (head) {
            /* divided: this vector has no block test to catch a NaN quotient
               of the division-free form (QUANT__F_MARK) */
            quant__st8(dst, quant__v_q_int(quant__ldf(src), s1, r1, zf, quant__seti(zp[0]), vlo, vhi, f & ~QUANT__F_MARK),
                       sgn);
            i = so = head;
        }
    }
    for (; i + 4 * QUANT__W <= n; i += 4 * QUANT__W, so = quant__wrap(so + 4 * QUANT__W, per)) {
        quant__vf v[4];
        quant__vi q[4];
        int k, ok = 1, nan = QUANT__NAN_CHEAP;
        if (i < pf_end) {
            if (half) QUANT__PREFETCH(h + i + QUANT__AHEAD / 2);
            else QUANT__PREFETCH(src + i + QUANT__AHEAD / 4);
        }
        QUANT__UNROLL4
        for (k = 0; k < 4; ++k) {
            const size_t j = i + (size_t)k * QUANT__W;
            quant__v_scale_at(scale, so + (size_t)k * QUANT__W, f, s1, r1, &s, &r);
            ok &= QUANT__SCALES_OK(s);
            v[k] = quant__v_quotient(quant__v_load(src, h, j, half), s, r, f);
        }
        /* the block test pays for itself under MARK, where a NaN (x NaN or
           infinite, or x * r past FLT_MAX) sends the block to the division */
        if (!QUANT__NAN_CHEAP || (f & QUANT__F_MARK)) {
            nan = quant__any_nan4(v);
            if (nan && (f & QUANT__F_MARK))
                for (k = 0; k < 4; ++k)
                    v[k] = quant__v_quotient(quant__v_load(src, h, i + (size_t)k * QUANT__W, half), s, r,
                                             f & ~QUANT__F_MARK);
        }
        QUANT__UNROLL4
        for (k = 0; k < 4; ++k) {
            quant__vf w = nan ? quant__zero_nan(v[k]) : v[k];
            if (before) w = quant__add(w, zf);
            /* under BOUNDED (scales the fused op chose from this very data)
               the conversion cannot overflow and the packs saturate: no clamp */
            if (!(f & QUANT__F_BOUNDED)) {
                w = quant__min(w, vhi);
#if QUANT__CVT_NEEDS_RANGE
                w = quant__max(w, vlo);
#endif
            }
            q[k] = quant__cvt(w);
        }
        if (ok) quant__st8x4(dst + i, q[0], q[1], q[2], q[3], z16, sgn, (f & QUANT__F_STREAM) != 0);
        else if (half) break; /* the caller stages the rest */
        else quant__scalar_f32_to_i8(src + i, dst + i, 4 * QUANT__W, scale + so * sstep, sstep, zp, 0, f);
    }
    *so_io = so;
    return i;
}

/* x / s without a division: with r = fl(1/s), q = fl(x * r) is within
   1.5 ulp of x / s, and one correction q + fl(x - q * s) * r, both steps
   fused multiply-adds, gives fl(x / s) itself (Markstein's correction)
   where the residual x - q * s is exact and q is finite. The residual is
   exact for |x| >= 2^-100; r is a normal float for |s| < 2^126. So it is
   taken for one scale with 2^-75 <= |s| <= 2^100 only, where a smaller |x|
   gives |x / s| < 2^-25, too small for any error of the correction to
   change an integer result (fl(q + z) = z for z != 0, rne(q) = 0), and
   where a quotient that comes out NaN (x NaN or infinite, or x * r past
   FLT_MAX) sends its block of four vectors to the division. Checked bit
   for bit against the division on all 2^32 x at 511 scales of that range
   (the slow suite repeats it at a few). The f8 kernels take it too, for a
   positive scale: an f8 code keeps the sign of a zero quotient, which the
   correction loses, so they take the sign from x instead. */
QUANT__INLINE size_t quant__v_f32_to_i8_x4(const float *src, uint8_t *dst, size_t n, const float *scale,
                                           const int32_t *zp, size_t per, size_t *so_io, quant__vf s1,
                                           quant__vf r1, quant__vf zf, quant__vf vlo, quant__vf vhi,
                                           const unsigned f, const uint16_t *h, const int half)
{
#if QUANT__HAS_FMA
    if (!(f & (QUANT__F_RECIP | QUANT__F_VEC)) && QUANT__MARK_OK(scale[0]))
        return quant__v_f32_to_i8_x4f(src, dst, n, scale, zp, per, so_io, s1, r1, zf, vlo, vhi,
                                      f | QUANT__F_MARK, h, half);
#endif
    return quant__v_f32_to_i8_x4f(src, dst, n, scale, zp, per, so_io, s1, r1, zf, vlo, vhi, f, h, half);
}

/* A vector at a time with a zero point per element (a vector of scales). */
QUANT__INLINE size_t quant__v_f32_to_i8_zvec(const float *src, uint8_t *dst, size_t n, const float *scale,
                                             const int32_t *zp, size_t zstep, size_t per, size_t *so_io,
                                             const unsigned f)
{
    const int32_t lo = (f & QUANT__F_U8) ? 0 : -128, hi = (f & QUANT__F_U8) ? 255 : 127;
    const int sgn = !(f & QUANT__F_U8), before = (f & QUANT__F_ZP_BEFORE) != 0;
    const quant__vf none = quant__setf(0.0f); /* VEC: the row's own scale is not used */
    size_t i = 0, so = 0;
    for (; i + QUANT__W <= n; i += QUANT__W, so = quant__wrap(so + QUANT__W, per)) {
        const quant__vi z = zstep ? quant__ldi(zp + so) : quant__seti(zp[0]);
        quant__vf s, r;
        quant__v_scale_at(scale, so, f, none, none, &s, &r);
        if (!quant__v_zp_fast(z) || !QUANT__SCALES_OK(s)) {
            quant__scalar_f32_to_i8(src + i, dst + i, QUANT__W, scale + so, 1, zp + so * zstep, zstep, f);
            continue;
        }
        quant__st8(dst + i,
                   quant__v_q_int(quant__ldf(src + i), s, r, quant__i2f(z), z,
                                  before ? quant__setf((float)lo) : quant__i2f(quant__subi(quant__seti(lo), z)),
                                  before ? quant__setf((float)hi) : quant__i2f(quant__subi(quant__seti(hi), z)), f),
                   sgn);
    }
    *so_io = so;
    return i;
}

/* One body for one scale and for a vector of scales (QUANT__F_VEC, a
   constant here), with one zero point, or (VEC only) one per element. */
QUANT__INLINE void quant__v_f32_to_i8_body(const float *src, uint8_t *dst, size_t n,
                                           const float *scale, const int32_t *zp, size_t zstep,
                                           size_t period, const unsigned f)
{
    const int32_t lo = (f & QUANT__F_U8) ? 0 : -128, hi = (f & QUANT__F_U8) ? 255 : 127;
    const int sgn = !(f & QUANT__F_U8), before = (f & QUANT__F_ZP_BEFORE) != 0;
    const size_t sstep = (f & QUANT__F_VEC) ? 1 : 0;
    size_t i = 0, so = 0; /* so: i within the scale pattern (it restarts every period) */
    const size_t per = period ? period : (size_t)-1;
    if (zstep == 0 && quant__zp_fast(zp[0]) && ((f & QUANT__F_VEC) || QUANT__SCALES_OK(quant__setf(scale[0])))) {
        const int32_t z1 = zp[0];
        const quant__vi z = quant__seti(z1);
        const quant__vf s1 = quant__setf(scale[0]), r1 = quant__setf(quant__recip_of(scale, f));
        const quant__vf zf = quant__setf((float)z1);
        const quant__vf vlo = quant__setf((float)(before ? lo : lo - z1));
        const quant__vf vhi = quant__setf((float)(before ? hi : hi - z1));
        quant__vf s, r;
        if (z1 >= -QUANT__ZP_PACK && z1 <= QUANT__ZP_PACK)
            i = quant__v_f32_to_i8_x4(src, dst, n, scale, zp, per, &so, s1, r1, zf, vlo, vhi, f, NULL, 0);
        for (; i + QUANT__W <= n; i += QUANT__W, so = quant__wrap(so + QUANT__W, per)) {
            quant__v_scale_at(scale, so, f, s1, r1, &s, &r);
            if (QUANT__SCALES_OK(s))
                quant__st8(dst + i, quant__v_q_int(quant__ldf(src + i), s, r, zf, z, vlo, vhi, f), sgn);
            else
                quant__scalar_f32_to_i8(src + i, dst + i, QUANT__W, scale + so * sstep, sstep, zp, 0, f);
        }
        if (i < n && n >= 2 * QUANT__W && !(f & (QUANT__F_VEC | QUANT__F_STREAM)) && QUANT__SCALES_OK(s1)) {
            /* the last vector ends where dst does: the elements it shares
               with the one before get the same bytes twice */
            quant__st8(dst + n - QUANT__W, quant__v_q_int(quant__ldf(src + n - QUANT__W), s1, r1, zf, z, vlo, vhi, f), sgn);
            i = n;
        }
    } else if (f & QUANT__F_VEC) {
        i = quant__v_f32_to_i8_zvec(src, dst, n, scale, zp, zstep, per, &so, f);
    }
    if (i < n) quant__scalar_f32_to_i8(src + i, dst + i, n - i, scale + so * sstep, sstep, zp + so * zstep, zstep, f);
}

#if QUANT__TWIN
#  define quant__simd_f32_to_i8_avx512vbmi quant__simd_f32_to_i8_avx512
#  define quant__simd_f32_to_i8_rows_avx512vbmi quant__simd_f32_to_i8_rows_avx512
#else
QUANT__PRIVATE void quant__simd_f32_to_i8(const float *src, uint8_t *dst, size_t n,
                                          const float *scale, size_t sstep,
                                          const int32_t *zp, size_t zstep, size_t period, unsigned f)
{
    const unsigned given = f & QUANT__F_RECIP_GIVEN;
    const unsigned nt = QUANT__STREAM_FLAG(n, 1u, sstep);
#define QUANT__CASE(k) \
    case k: quant__v_f32_to_i8_body(src, dst, n, scale, zp, zstep, period, (k) | given | nt | (f & QUANT__F_AHEAD)); break;
    /* BOUNDED comes with one scale only (the fused op's rows and groups) */
    switch ((f & (QUANT__F_U8 | QUANT__F_RECIP | QUANT__F_ZP_BEFORE)) | (sstep ? QUANT__F_VEC : f & QUANT__F_BOUNDED)) {
#define QUANT__CASES2(v) QUANT__CASE(v) QUANT__CASE((v) | QUANT__F_U8)
#define QUANT__CASES(v) QUANT__CASES2(v) QUANT__CASES2((v) | QUANT__F_RECIP) \
                        QUANT__CASES2((v) | QUANT__F_ZP_BEFORE) QUANT__CASES2((v) | QUANT__F_RECIP | QUANT__F_ZP_BEFORE)
    QUANT__CASES(0u) QUANT__CASES(QUANT__F_VEC) QUANT__CASES(QUANT__F_BOUNDED)
#undef QUANT__CASES
#undef QUANT__CASES2
    }
#undef QUANT__CASE
    if (nt) quant__sfence(); /* streamed stores are seen before anything after the call */
}

/* `rows` rows of len elements, row k scaled by scales[k] with zero point
   zps[k * zstep]: the flags chosen once for all of them (per channel with
   short inner runs: axis 1 of [1, 64, 8, 8] is 64 rows of 64) */
QUANT__PRIVATE void quant__simd_f32_to_i8_rows(const float *src, uint8_t *dst, size_t len, size_t rows,
                                               const float *scales, const int32_t *zps, size_t zstep, unsigned f)
{
    size_t k;
#define QUANT__CASE(c) case c: \
    for (k = 0; k < rows; ++k) quant__v_f32_to_i8_body(src + k * len, dst + k * len, len, scales + k, zps + k * zstep, \
                                                        0, 0, c); \
    break;
    switch (f & (QUANT__F_U8 | QUANT__F_RECIP | QUANT__F_ZP_BEFORE)) {
    QUANT__CASE(0u) QUANT__CASE(QUANT__F_U8) QUANT__CASE(QUANT__F_RECIP) QUANT__CASE(QUANT__F_RECIP | QUANT__F_U8)
    QUANT__CASE(QUANT__F_ZP_BEFORE) QUANT__CASE(QUANT__F_ZP_BEFORE | QUANT__F_U8)
    QUANT__CASE(QUANT__F_ZP_BEFORE | QUANT__F_RECIP) QUANT__CASE(QUANT__F_ZP_BEFORE | QUANT__F_RECIP | QUANT__F_U8)
    }
#undef QUANT__CASE
}
#endif /* QUANT__TWIN */

#elif QUANT__PART == 3

#if QUANT__DISPATCH
QUANT__PRIVATE void quant__simd_f32_to_i8_x86(const float *src, uint8_t *dst, size_t n, const float *scale,
                                              size_t sstep, const int32_t *zp, size_t zstep, size_t period,
                                              unsigned f)
{
    QUANT__PICK(quant__simd_f32_to_i8, (src, dst, n, scale, sstep, zp, zstep, period, f));
}
#endif
#if QUANT__SIMD_ANY
/* `per` is a scale pattern's period (0: none) */
#  define quant__f32_to_i8(x, q, n, s, ss, z, zs, per, f) QUANT__BK(quant__simd_f32_to_i8)(x, q, n, s, ss, z, zs, per, f)
#else
/* scalar builds never lay out a scale pattern: `per` is always 0 */
#  define quant__f32_to_i8(x, q, n, s, ss, z, zs, per, f) quant__scalar_f32_to_i8(x, q, n, s, ss, z, zs, f)
#endif

#endif

/* ---- >>unit dequantize: s8/u8/s32 -> f32 (i8_to_f32, i32_to_f32) ------- */
#if QUANT__PART == 1

QUANT__INLINE float quant__dq_int(int32_t q, float s, int32_t z)
{
    /* |q - z| < 2^32 for any two int32s, so its magnitude is exact in
       uint32 arithmetic, and the conversion of that magnitude rounds to
       nearest even as the sign-magnitude float format wants. No 64-bit
       integer: on firmware that would pull in a soft-float helper. */
    const int neg = q < z;
    const uint32_t mag = neg ? (uint32_t)z - (uint32_t)q : (uint32_t)q - (uint32_t)z;
    const float d = (float)mag;
    return (neg ? -d : d) * s;
}

QUANT__PRIVATE void quant__scalar_i8_to_f32(const uint8_t *src, float *dst, size_t n,
                                            const float *scale, size_t sstep,
                                            const int32_t *zp, size_t zstep, unsigned f)
{
    size_t i;
    for (i = 0; i < n; ++i) {
        const int32_t q = (f & QUANT__F_U8) ? (int32_t)src[i] : (int32_t)(int8_t)src[i];
        dst[i] = quant__dq_int(q, scale[i * sstep], zp[i * zstep]);
    }
}

/* s32 dequantize (bias tensors, ONNX DequantizeLinear on int32) */
QUANT__PRIVATE void quant__scalar_i32_to_f32(const int32_t *src, float *dst, size_t n,
                                             const float *scale, size_t sstep,
                                             const int32_t *zp, size_t zstep)
{
    size_t i;
    for (i = 0; i < n; ++i) dst[i] = quant__dq_int(src[i], scale[i * sstep], zp[i * zstep]);
}

#elif QUANT__PART == 2

/* The four-vector loop of one zero point within QUANT__ZP_FAST from the
   start; returns where it stopped (*so: the pattern position there). */
QUANT__INLINE size_t quant__v_i8_to_f32_x4(const uint8_t *src, float *dst, size_t n, const float *scale,
                                           const int32_t *zp, size_t per, size_t *so_io, quant__vf s1,
                                           const unsigned f)
{
    const int sgn = !(f & QUANT__F_U8);
    const size_t sstep = (f & QUANT__F_VEC) ? 1 : 0;
    const quant__vi z = quant__seti(zp[0]);
    size_t i = 0, so = 0;
    quant__vf unused;
    const int nt = (f & QUANT__F_STREAM) != 0;
    if (nt) {
        i = so = quant__head(dst, 4 * QUANT__W, n * 4) / 4;
        quant__scalar_i8_to_f32(src, dst, i, scale, 0, zp, 0, f);
    } else if (!(f & QUANT__F_VEC) && n >= 5 * QUANT__W) {
        /* one vector where dst starts, then on from where its stores
           are aligned (twice-computed elements get the same bits) */
        const size_t head = quant__head(dst, 4 * QUANT__W, 4 * QUANT__W) / 4;
        if (head) {
            quant__stf(dst, quant__mul(quant__i2f(quant__subi(quant__ld8(src, sgn), z)), s1));
            i = so = head;
        }
    }
    for (; i + 4 * QUANT__W <= n; i += 4 * QUANT__W, so = quant__wrap(so + 4 * QUANT__W, per)) {
        quant__vf v[4], sv[4];
        int k, ok = 1;
        QUANT__UNROLL4
        for (k = 0; k < 4; ++k) {
            const size_t j = i + (size_t)k * QUANT__W;
            quant__v_scale_at(scale, so + (size_t)k * QUANT__W, f, s1, s1, &sv[k], &unused);
            ok &= QUANT__SCALES_OK(sv[k]);
            v[k] = quant__i2f(quant__subi(quant__ld8(src + j, sgn), z));
        }
        if (!ok) {
            quant__scalar_i8_to_f32(src + i, dst + i, 4 * QUANT__W, scale + so * sstep, sstep, zp, 0, f);
            continue;
        }
        QUANT__UNROLL4
        for (k = 0; k < 4; ++k) {
            float *const y = dst + i + (size_t)k * QUANT__W;
            if (nt) quant__stf_nt(y, quant__mul(v[k], sv[k]));
            else quant__stf(y, quant__mul(v[k], sv[k]));
        }
    }
    *so_io = so;
    return i;
}

QUANT__INLINE void quant__v_i8_to_f32_body(const uint8_t *src, float *dst, size_t n,
                                           const float *scale, const int32_t *zp, size_t zstep,
                                           size_t period, const unsigned f)
{
    const int sgn = !(f & QUANT__F_U8);
    const size_t sstep = (f & QUANT__F_VEC) ? 1 : 0;
    const quant__vf s1 = quant__setf(scale[0]);
    size_t i = 0, so = 0; /* so: i within the scale pattern (it restarts every period) */
    const size_t per = period ? period : (size_t)-1;
    quant__vf s, unused;
    if (zstep == 0 && quant__zp_fast(zp[0]) && ((f & QUANT__F_VEC) || QUANT__SCALES_OK(s1))) {
        const quant__vi z = quant__seti(zp[0]);
        i = quant__v_i8_to_f32_x4(src, dst, n, scale, zp, per, &so, s1, f);
        for (; i + QUANT__W <= n; i += QUANT__W, so = quant__wrap(so + QUANT__W, per)) {
            quant__v_scale_at(scale, so, f, s1, s1, &s, &unused);
            if (QUANT__SCALES_OK(s))
                quant__stf(dst + i, quant__mul(quant__i2f(quant__subi(quant__ld8(src + i, sgn), z)), s));
            else
                quant__scalar_i8_to_f32(src + i, dst + i, QUANT__W, scale + so * sstep, sstep, zp, 0, f);
        }
    } else if (f & QUANT__F_VEC) {
        for (; i + QUANT__W <= n; i += QUANT__W, so = quant__wrap(so + QUANT__W, per)) {
            const quant__vi z = zstep ? quant__ldi(zp + so) : quant__seti(zp[0]);
            s = quant__ldf(scale + so);
            if (!quant__v_zp_fast(z) || !QUANT__SCALES_OK(s)) {
                quant__scalar_i8_to_f32(src + i, dst + i, QUANT__W, scale + so, 1, zp + so * zstep, zstep, f);
                continue;
            }
            quant__stf(dst + i, quant__mul(quant__i2f(quant__subi(quant__ld8(src + i, sgn), z)), s));
        }
    }
    if (i < n) quant__scalar_i8_to_f32(src + i, dst + i, n - i, scale + so * sstep, sstep, zp + so * zstep, zstep, f);
}

/* s32 dequantize: lanes within +-2^30 (and zero points within
   QUANT__ZP_FAST) make q - z exact in 32 bits; a vector with a larger
   element takes the scalar path. */
QUANT__INLINE void quant__v_i32_to_f32_body(const int32_t *src, float *dst, size_t n,
                                            const float *scale, const int32_t *zp, size_t zstep,
                                            size_t period, const unsigned f)
{
    const size_t sstep = (f & QUANT__F_VEC) ? 1 : 0;
    const quant__vf s1 = quant__setf(scale[0]);
    const quant__vi big = quant__seti(1 << 30), nbig = quant__seti(-(1 << 30));
    const int zfast = zstep || quant__zp_fast(zp[0]);
    size_t i = 0, so = 0; /* so: i within the scale pattern (it restarts every period) */
    const size_t per = period ? period : (size_t)-1;
    /* a vector at a time even when the zero point is out of range, so that
       a scale pattern is walked with its period */
    for (; i + QUANT__W <= n; i += QUANT__W, so = quant__wrap(so + QUANT__W, per)) {
        const quant__vi q = quant__ldi(src + i);
        const quant__vi z = zstep ? quant__ldi(zp + so) : quant__seti(zp[0]);
        quant__vf s, unused;
        quant__v_scale_at(scale, so, f, s1, s1, &s, &unused);
        if (quant__any(quant__gt(q, big)) || quant__any(quant__gt(nbig, q)) ||
            !(zstep ? quant__v_zp_fast(z) : zfast) || !QUANT__SCALES_OK(s))
            quant__scalar_i32_to_f32(src + i, dst + i, QUANT__W, scale + so * sstep, sstep,
                                     zp + so * zstep, zstep);
        else
            quant__stf(dst + i, quant__mul(quant__i2f(quant__subi(q, z)), s));
    }
    if (i < n) quant__scalar_i32_to_f32(src + i, dst + i, n - i, scale + so * sstep, sstep, zp + so * zstep, zstep);
}

#if QUANT__TWIN
#  define quant__simd_i8_to_f32_avx512vbmi quant__simd_i8_to_f32_avx512
#  define quant__simd_i8_to_f32_rows_avx512vbmi quant__simd_i8_to_f32_rows_avx512
#  define quant__simd_i32_to_f32_avx512vbmi quant__simd_i32_to_f32_avx512
#else
QUANT__PRIVATE void quant__simd_i8_to_f32(const uint8_t *src, float *dst, size_t n,
                                          const float *scale, size_t sstep,
                                          const int32_t *zp, size_t zstep, size_t period, unsigned f)
{
    const unsigned nt = QUANT__STREAM_FLAG(n, 4u, sstep);
#define QUANT__CASE(k) case k: quant__v_i8_to_f32_body(src, dst, n, scale, zp, zstep, period, (k) | nt); break;
    switch ((f & QUANT__F_U8) | QUANT__VEC_IF(sstep)) {
    QUANT__CASE(0u) QUANT__CASE(QUANT__F_U8) QUANT__CASE(QUANT__F_VEC) QUANT__CASE(QUANT__F_VEC | QUANT__F_U8)
    }
#undef QUANT__CASE
    if (nt) quant__sfence();
}

/* quant__simd_f32_to_i8_rows' twin: rows of len elements, row k scaled by
   scales[k] with zero point zps[k * zstep] */
QUANT__PRIVATE void quant__simd_i8_to_f32_rows(const uint8_t *src, float *dst, size_t len, size_t rows,
                                               const float *scales, const int32_t *zps, size_t zstep, unsigned f)
{
    size_t k;
    if (f & QUANT__F_U8)
        for (k = 0; k < rows; ++k)
            quant__v_i8_to_f32_body(src + k * len, dst + k * len, len, scales + k, zps + k * zstep, 0, 0, QUANT__F_U8);
    else
        for (k = 0; k < rows; ++k)
            quant__v_i8_to_f32_body(src + k * len, dst + k * len, len, scales + k, zps + k * zstep, 0, 0, 0u);
}

QUANT__PRIVATE void quant__simd_i32_to_f32(const int32_t *src, float *dst, size_t n,
                                           const float *scale, size_t sstep,
                                           const int32_t *zp, size_t zstep, size_t period)
{
    if (sstep) quant__v_i32_to_f32_body(src, dst, n, scale, zp, zstep, period, QUANT__F_VEC);
    else quant__v_i32_to_f32_body(src, dst, n, scale, zp, zstep, period, 0);
}
#endif /* QUANT__TWIN */

#elif QUANT__PART == 3

#if QUANT__DISPATCH
QUANT__PRIVATE void quant__simd_i8_to_f32_x86(const uint8_t *src, float *dst, size_t n, const float *scale,
                                              size_t sstep, const int32_t *zp, size_t zstep, size_t period,
                                              unsigned f)
{
    QUANT__PICK(quant__simd_i8_to_f32, (src, dst, n, scale, sstep, zp, zstep, period, f));
}
QUANT__PRIVATE void quant__simd_i32_to_f32_x86(const int32_t *src, float *dst, size_t n, const float *scale,
                                               size_t sstep, const int32_t *zp, size_t zstep, size_t period)
{
    QUANT__PICK(quant__simd_i32_to_f32, (src, dst, n, scale, sstep, zp, zstep, period));
}
#endif
#if QUANT__SIMD_ANY
#  define quant__i8_to_f32(q, y, n, s, ss, z, zs, per, f) QUANT__BK(quant__simd_i8_to_f32)(q, y, n, s, ss, z, zs, per, f)
#  define quant__i32_to_f32(q, y, n, s, ss, z, zs, per) QUANT__BK(quant__simd_i32_to_f32)(q, y, n, s, ss, z, zs, per)
#else
#  define quant__i8_to_f32(q, y, n, s, ss, z, zs, per, f) quant__scalar_i8_to_f32(q, y, n, s, ss, z, zs, f)
#  define quant__i32_to_f32(q, y, n, s, ss, z, zs, per) quant__scalar_i32_to_f32(q, y, n, s, ss, z, zs)
#endif

#endif

/* ---- >>unit f8_encode: f32 -> f8_e4m3/f8_e5m2 (f32_to_f8) -------------- */
#ifndef QUANT_NO_F8
#if QUANT__PART == 1

/* The two f8 formats differ only in these constants. */
typedef struct quant__f8fmt {
    unsigned shift;      /* 23 - mantissa bits */
    uint32_t rebias;     /* (127 - bias) << 23 */
    uint32_t min_normal; /* bits of the smallest normal */
    uint32_t magic;      /* bits of a float whose ulp is the smallest subnormal */
    uint32_t overflow;   /* |v| bits above which (e4m3) or from which (e5m2) v overflows */
    uint8_t  max_code, inf_code;
} quant__f8fmt;

QUANT__INLINE quant__f8fmt quant__f8_format(unsigned f)
{
    quant__f8fmt m;
    if (f & QUANT__F_E5M2) {
        /* 61440 lies halfway between 57344 and 65536 and ties up: overflow */
        m.shift = 21; m.rebias = 112u << 23; m.min_normal = 113u << 23;
        m.magic = 134u << 23; m.overflow = 0x476FFFFFu; /* just below 61440 */
        m.max_code = 0x7B; m.inf_code = 0x7C;
    } else {
        /* 464 lies halfway between 448 and 480 and ties down to 448 */
        m.shift = 20; m.rebias = 120u << 23; m.min_normal = 121u << 23;
        m.magic = 141u << 23; m.overflow = 0x43E80000u; /* 464 */
        m.max_code = 0x7E; m.inf_code = 0x7F;
    }
    return m;
}

/* |v| rounded to the nearest even f16 value, as a float: adding
   c = max(2^e, 2^-14) * 2^13 for |v| in binade 2^e pushes all but f16's
   11 significant bits (or, below f16's normal range, all below its
   subnormal step 2^-24) out of the sum, and the FPU rounds them off;
   subtracting c again is exact. A sum of 2^16 or more is f16's
   overflow: the caller treats it as infinite. Infinities and NaN pass.
   Not inlined: the oneDNN route is rare, and inlined it would deepen the
   f8 kernel's frame on firmware. */
QUANT__INLINE float quant__f16_round_abs(float v)
{
    const uint32_t a = quant__bits(v) & 0x7FFFFFFFu, e = a & 0x7F800000u;
    const float c = quant__float((e > 0x38800000u ? e : 0x38800000u) + (13u << 23));
    if (a > 0x7F800000u) return quant__float(a);                 /* NaN */
    if (a >= 0x477FF000u) return quant__float(0x7F800000u);      /* 65520 ties up to 2^16 */
    return (quant__float(a) + c) - c;
}

/* The code of a NaN x: 0x7F with x's sign. oneDNN's e5m2 is 0x7E and
   the one payload bit its f16 route carries down (f32 bit 21). */
QUANT__INLINE uint8_t quant__f8_nan(float x, unsigned f)
{
    const uint32_t xb = quant__bits(x);
    const uint32_t low = (f & QUANT__F_VIA_F16) && (f & QUANT__F_E5M2) ? 0x7Eu | ((xb >> 21) & 1u) : 0x7Fu;
    return (uint8_t)(low | ((xb >> 24) & 0x80u));
}

/* Encode v = x / s (or x * r) to f8; x supplies the sign of a NaN. (The
   oneDNN route rounds v to f16 before it comes here.) */
QUANT__INLINE uint8_t quant__f8_enc(float x, float v, unsigned f)
{
    const quant__f8fmt m = quant__f8_format(f);
    const uint32_t u = quant__bits(v), a = u & 0x7FFFFFFFu;
    const uint8_t sign = (uint8_t)((u >> 24) & 0x80u);
    uint32_t code;
    if (a > 0x7F800000u) return quant__f8_nan(x, f);
    if (a > m.overflow)
        return (uint8_t)(sign | ((f & QUANT__F_INF_NAN) ? m.inf_code : m.max_code));
    if (a < m.min_normal) {
        /* below the normal range the FPU rounds for us: adding a float
           whose ulp is the f8 subnormal step leaves the rounded count of
           steps in the low bits */
        code = quant__bits(quant__float(a) + quant__float(m.magic)) - m.magic;
    } else {
        /* rebias the exponent and round the dropped bits to nearest even;
           a carry out of the mantissa moves into the exponent as it should */
        const uint32_t odd = (a >> m.shift) & 1u;
        code = (a - m.rebias + (1u << (m.shift - 1)) - 1u + odd) >> m.shift;
    }
    return (uint8_t)(sign | code);
}

/* One element of f8 quantize: the quotient, then its code. */
QUANT__INLINE uint8_t quant__q_f8(float x, float s, float r, unsigned f)
{
    float v;
    if (f & QUANT__F_RECIP) { v = x * r; QUANT__FENCE(v); }
    else v = x / s;
    if (f & QUANT__F_VIA_F16) /* oneDNN's route: to f16 first, sign kept */
        v = quant__float(quant__bits(quant__f16_round_abs(v)) | (quant__bits(v) & 0x80000000u));
    return quant__f8_enc(x, v, f);
}

QUANT__PRIVATE void quant__scalar_f32_to_f8(const float *src, uint8_t *dst, size_t n,
                                            const float *scale, size_t sstep, unsigned f)
{
    size_t i;
    float s = 0.0f, r = 0.0f;
    for (i = 0; i < n; ++i) {
        if (i == 0 || sstep) quant__scale_pair(scale + i * sstep, f, &s, &r);
        dst[i] = quant__q_f8(src[i], s, r, f);
    }
}

#elif QUANT__PART == 2

/* quant__f16_round_abs for a vector of magnitudes. They are first held at
   2^16, f16's overflow, which both f8 formats take as overflow too, so
   that c stays finite; a NaN passes the min (see below) and stays NaN.
   c and -c are exact products, so a fused multiply-add changes nothing. */
QUANT__INLINE quant__vf quant__v_f16_round_abs(quant__vf av)
{
    const quant__vf h = quant__min(quant__setf(65536.0f), av);
    const quant__vf e = quant__max(quant__asf(quant__and(quant__asi(h), quant__seti(0x7F800000))),
                                   quant__asf(quant__seti(0x38800000)));
    return quant__add(quant__add(h, quant__mul(e, quant__setf(8192.0f))), quant__mul(e, quant__setf(-8192.0f)));
}

/* f8 encode of one vector: quant__f8_enc's codes, reached another way
   (it rounds with integer steps; here one float addition rounds). */
QUANT__INLINE quant__vi quant__v_f8_enc(quant__vf x, quant__vf v, unsigned f)
{
    /* |v| + c, with c = max(2^e, min_normal) * 2^shift for |v| in binade
       2^e, rounds |v| (to nearest even) to the format's precision, or to
       its subnormal step below min_normal. The sum's exponent and its low
       bits then spell the code: (bits >> shift) + (bits & low) - (magic >>
       shift). Saturating, |v| is first clamped to the largest value; a NaN
       passes the clamp (x86's min returns its second operand for a NaN,
       NEON's gives a NaN), and NaN bits, like Inf and every overflow, give
       a sum whose code is far above 0x7F. The product that makes c is exact,
       so a fused multiply-add (quant__mul_add) gives the same sum. */
    const quant__f8fmt m = quant__f8_format(f);
    const int e5 = (f & QUANT__F_E5M2) != 0, sat = !(f & QUANT__F_INF_NAN), via16 = (f & QUANT__F_VIA_F16) != 0;
    const quant__vi u = quant__asi(v), a0 = quant__and(u, quant__seti(0x7FFFFFFF));
    const quant__vi a = via16 ? quant__asi(quant__v_f16_round_abs(quant__asf(a0))) : a0;
    /* under MARK (s > 0, no NaN quotient) x has the quotient's sign, a zero's too */
    const quant__vi sign = quant__and(quant__srl((f & QUANT__F_MARK) ? quant__asi(x) : u, 24), quant__seti(0x80));
    const quant__vf av = sat ? quant__min(quant__setf(e5 ? 57344.0f : 448.0f), quant__asf(a)) : quant__asf(a);
    const quant__vf e = quant__max(quant__asf(quant__and(quant__asi(av), quant__seti(0x7F800000))),
                                   quant__asf(quant__seti((int32_t)m.min_normal)));
    const quant__vi b = quant__asi(quant__mul_add(e, quant__asf(quant__seti((int32_t)((127u + m.shift) << 23))), av));
    const quant__vi low = quant__and(b, quant__seti((int32_t)((1u << (25u - m.shift)) - 1u)));
    quant__vi code = quant__addi(quant__addi(quant__srl(b, m.shift), low), quant__seti(-(int32_t)(m.magic >> m.shift)));
    /* 0x7F is the NaN code, and e4m3's overflow code too; e5m2 overflows to
       0x7C, and oneDNN's e5m2 NaN (quant__f8_nan) is 0x7E and a payload bit */
    const quant__vi nan_code = e5 && via16 ? quant__or(quant__seti(0x7E), quant__and(quant__srl(quant__asi(x), 21), quant__seti(1)))
                                           : quant__seti(0x7F);
    /* saturating under MARK (no NaN quotient) |v| was clamped: nothing overflows */
    if (!(sat && (f & QUANT__F_MARK))) code = quant__mini(code, quant__seti(e5 && !sat ? 0x7C : 0x7F));
#if QUANT__NAN_KEEPS_SIGN
    /* a NaN quotient carries x's sign here, so one sign serves all lanes */
    if (e5 && (!sat || via16)) code = quant__sel(quant__gt(a, quant__seti(0x7F800000)), nan_code, code);
    return quant__or(code, sign);
#else
    return quant__sel(quant__gt(a, quant__seti(0x7F800000)),
                      quant__or(nan_code, quant__and(quant__srl(quant__asi(x), 24), quant__seti(0x80))),
                      quant__or(code, sign));
#endif
}

#if QUANT__PASS_VBMI
/* Saturating f8 encode of four vectors of quotients that hold no NaN, for
   a positive scale (x gives each code its sign): 64 codes, one store.
   |v| is clamped and c = max(2^e, min_normal) * 2^shift added as in
   quant__v_f8_enc, but c carries j more units in its mantissa; j is even,
   so the sum still rounds to even. The sum's high word is then E << 7 (E
   its exponent field) and its low word the rounded count plus j, and the
   code is 2^(23 - shift) * E + count - K. vpmaddwd adds the high word to
   the low word times 2^(shift - 16), which is the code plus K + j times
   2^(shift - 16); j = -K modulo 256, so bits shift - 16 to shift - 9 hold
   the code. Byte k of each dword gathers vector k's codes (vpmultishiftqb;
   a second chain gathers x's top bytes for the signs), and one vpermb puts
   the 64 bytes in order. */
/* its constants, made once per call and hidden from the compiler, which
   otherwise rebuilds some of them in the loop (five instructions per 64
   codes, three of them on the shuffle port) */
typedef struct quant__f8c64 {
    __m512 top, cm;
    __m512i expo, mn, w, ctl, cts, idx, bit7;
    __mmask64 k1, k2, k3;
} quant__f8c64;

QUANT__INLINE quant__f8c64 quant__f8c64_init(const unsigned f)
{
    const quant__f8fmt m = quant__f8_format(f);
    const long long o = (long long)m.shift - 16; /* the code's lowest bit */
    quant__f8c64 t;
    t.top = _mm512_set1_ps((f & QUANT__F_E5M2) ? 57344.0f : 448.0f);
    t.cm = _mm512_castsi512_ps(_mm512_set1_epi32((int)(((127u + m.shift) << 23) | ((f & QUANT__F_E5M2) ? 232u : 152u))));
    t.expo = _mm512_set1_epi32(0x7F800000);
    t.mn = _mm512_set1_epi32((int)m.min_normal);
    t.w = _mm512_set1_epi32(0x10000 | (1 << (m.shift - 16)));
    t.ctl = _mm512_set1_epi64(o * 0x01010101ll + (32 + o) * 0x0101010100000000ll);
    t.cts = _mm512_set1_epi64(24 * 0x01010101ll + 56 * 0x0101010100000000ll);
    /* element 16k + d sits in byte 4d + k: output byte i reads byte 4(i & 15) + (i >> 4) */
    t.idx = _mm512_set_epi32(0x3F3B3733, 0x2F2B2723, 0x1F1B1713, 0x0F0B0703, 0x3E3A3632, 0x2E2A2622, 0x1E1A1612,
                             0x0E0A0602, 0x3D393531, 0x2D292521, 0x1D191511, 0x0D090501, 0x3C383430, 0x2C282420,
                             0x1C181410, 0x0C080400);
    t.bit7 = _mm512_set1_epi8((char)0x80);
    t.k1 = 0x2222222222222222ull;
    t.k2 = 0x4444444444444444ull;
    t.k3 = 0x8888888888888888ull;
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+v"(t.top), "+v"(t.cm), "+v"(t.expo), "+v"(t.mn), "+v"(t.w), "+v"(t.ctl), "+v"(t.cts));
    __asm__("" : "+v"(t.idx), "+v"(t.bit7), "+Yk"(t.k1), "+Yk"(t.k2), "+Yk"(t.k3));
#endif
    return t;
}

#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#  pragma GCC diagnostic push /* vrangeps unoptimized: see quant__zero_nan */
#  pragma GCC diagnostic ignored "-Wsign-conversion"
#endif
QUANT__INLINE void quant__f8_enc64_vbmi(const quant__vf v[4], const float *x, uint8_t *dst, const quant__f8c64 *t)
{
    __m512i c = _mm512_setzero_si512(), s = _mm512_setzero_si512();
    int k;
    QUANT__UNROLL4
    for (k = 0; k < 4; ++k) {
        const __m512 av = _mm512_range_ps(v[k], t->top, 0x0A); /* min(|v|, top), sign cleared */
        const __m512i e = _mm512_max_epu32(_mm512_and_si512(_mm512_castps_si512(av), t->expo), t->mn);
        const __m512i p = _mm512_madd_epi16(_mm512_castps_si512(_mm512_fmadd_ps(_mm512_castsi512_ps(e), t->cm, av)), t->w);
        const __m512i xb = _mm512_loadu_si512((const void *)(x + 16 * k));
        if (k == 0) {
            c = _mm512_multishift_epi64_epi8(t->ctl, p);
            s = _mm512_multishift_epi64_epi8(t->cts, xb);
        } else {
            const __mmask64 km = k == 1 ? t->k1 : k == 2 ? t->k2 : t->k3;
            c = _mm512_mask_multishift_epi64_epi8(c, km, t->ctl, p);
            s = _mm512_mask_multishift_epi64_epi8(s, km, t->cts, xb);
        }
    }
    _mm512_storeu_si512((void *)dst, _mm512_permutexvar_epi8(t->idx, _mm512_ternarylogic_epi32(c, s, t->bit7, 0xD8)));
}
#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#  pragma GCC diagnostic pop
#endif
#endif

/* The four-vector loop; returns where it stopped (*so: the pattern
   position there). Under MARK a block with a NaN quotient (x NaN or
   infinite, or x * r past FLT_MAX) is divided again. */
QUANT__INLINE size_t quant__v_f32_to_f8_x4(const float *src, uint8_t *dst, size_t n, const float *scale,
                                          size_t per, size_t *so_io, quant__vf s1, quant__vf r1, const unsigned f)
{
    const size_t sstep = (f & QUANT__F_VEC) ? 1 : 0, pf_end = QUANT__PREFETCH_END(n, 4u);
    size_t i = 0, so = 0;
    quant__vf s, r;
#if QUANT__PASS_VBMI
    const int enc64 = (f & QUANT__F_MARK) && !(f & (QUANT__F_INF_NAN | QUANT__F_VIA_F16));
    quant__f8c64 t64;
    if (enc64) t64 = quant__f8c64_init(f);
#endif
    if (!(f & QUANT__F_VEC) && n >= 5 * QUANT__W) {
        /* one vector where src starts, divided, then on from where its
           loads are aligned; the elements in between get the same codes twice */
        const size_t head = quant__head(src, 4 * QUANT__W, 4 * QUANT__W) / 4;
        if (head) {
            const quant__vf x = quant__ldf(src);
            if (QUANT__SCALES_OK(s1)) quant__st8(dst, quant__v_f8_enc(x, quant__v_quotient(x, s1, r1, f & ~QUANT__F_MARK), f & ~QUANT__F_MARK), 0);
            else quant__scalar_f32_to_f8(src, dst, head, scale, 0, f & ~QUANT__F_MARK);
            i = so = head;
        }
    }
    for (; i + 4 * QUANT__W <= n; i += 4 * QUANT__W, so = quant__wrap(so + 4 * QUANT__W, per)) {
        quant__vf v[4];
        quant__vi q[4];
        int k, ok = 1;
        if (i < pf_end) QUANT__PREFETCH(src + i + QUANT__AHEAD / 4);
        QUANT__UNROLL4
        for (k = 0; k < 4; ++k) {
            quant__v_scale_at(scale, so + (size_t)k * QUANT__W, f, s1, r1, &s, &r);
            ok &= QUANT__SCALES_OK(s);
            v[k] = quant__v_quotient(quant__ldf(src + i + (size_t)k * QUANT__W), s, r, f);
        }
        if ((f & QUANT__F_MARK) && quant__any_nan4(v)) {
            for (k = 0; k < 4; ++k) { /* x loaded again: keeping it made the compiler spill four vectors */
                const quant__vf x = quant__ldf(src + i + (size_t)k * QUANT__W);
                q[k] = quant__v_f8_enc(x, quant__v_quotient(x, s, r, f & ~QUANT__F_MARK), f & ~QUANT__F_MARK);
            }
        } else {
#if QUANT__PASS_VBMI
            if (enc64) {
                quant__f8_enc64_vbmi(v, src + i, dst + i, &t64);
                continue;
            }
#endif
            QUANT__UNROLL4
            for (k = 0; k < 4; ++k) q[k] = quant__v_f8_enc(quant__ldf(src + i + (size_t)k * QUANT__W), v[k], f);
        }
        /* codes are 0..255: the saturating packs pass them through */
        if (ok) quant__st8x4(dst + i, q[0], q[1], q[2], q[3], 0, 0, 0);
        else quant__scalar_f32_to_f8(src + i, dst + i, 4 * QUANT__W, scale + so * sstep, sstep, f & ~QUANT__F_MARK);
    }
    *so_io = so;
    return i;
}

QUANT__INLINE void quant__v_f32_to_f8_body(const float *src, uint8_t *dst, size_t n,
                                           const float *scale, size_t period, const unsigned f)
{
    const size_t sstep = (f & QUANT__F_VEC) ? 1 : 0;
    const quant__vf s1 = quant__setf(scale[0]), r1 = quant__setf(quant__recip_of(scale, f));
    size_t i, so; /* so: i within the scale pattern (it restarts every period) */
    const size_t per = period ? period : (size_t)-1;
    quant__vf s, r;
#if QUANT__HAS_FMA
    if (!(f & (QUANT__F_RECIP | QUANT__F_VEC)) && scale[0] > 0.0f && QUANT__MARK_OK(scale[0]))
        i = quant__v_f32_to_f8_x4(src, dst, n, scale, per, &so, s1, r1, f | QUANT__F_MARK);
    else
#endif
        i = quant__v_f32_to_f8_x4(src, dst, n, scale, per, &so, s1, r1, f);
    for (; i + QUANT__W <= n; i += QUANT__W, so = quant__wrap(so + QUANT__W, per)) {
        const quant__vf x = quant__ldf(src + i);
        quant__v_scale_at(scale, so, f, s1, r1, &s, &r);
        if (QUANT__SCALES_OK(s)) quant__st8(dst + i, quant__v_f8_enc(x, quant__v_quotient(x, s, r, f), f), 0);
        else quant__scalar_f32_to_f8(src + i, dst + i, QUANT__W, scale + so * sstep, sstep, f);
    }
    if (i < n && !(f & QUANT__F_VEC) && i >= QUANT__W && QUANT__SCALES_OK(s1)) {
        /* the last vector again, ending at n (src and dst do not overlap:
           its first elements get the same codes twice). A dispatch build
           compiles the scalar kernel without AVX, and on an Intel core a
           call into it from AVX-512 code and back cost about 160 ns: it
           made f32 -> f8 at 4 Ki 1.3x slower than the -march build. */
        const quant__vf x = quant__ldf(src + n - QUANT__W);
        quant__st8(dst + n - QUANT__W, quant__v_f8_enc(x, quant__v_quotient(x, s1, r1, f), f), 0);
    } else if (i < n) quant__scalar_f32_to_f8(src + i, dst + i, n - i, scale + so * sstep, sstep, f);
}

QUANT__PRIVATE void quant__simd_f32_to_f8(const float *src, uint8_t *dst, size_t n,
                                          const float *scale, size_t sstep, size_t period, unsigned f)
{
    const unsigned given = f & QUANT__F_RECIP_GIVEN;
#define QUANT__CASE(k) case k: quant__v_f32_to_f8_body(src, dst, n, scale, period, (k) | given); break;
    /* the oneDNN route (VIA_F16) always multiplies by the reciprocal */
#define QUANT__CASES4(v) QUANT__CASE(v) QUANT__CASE((v) | QUANT__F_E5M2) QUANT__CASE((v) | QUANT__F_INF_NAN) \
                         QUANT__CASE((v) | QUANT__F_E5M2 | QUANT__F_INF_NAN)
#define QUANT__CASES(v) QUANT__CASES4(v) QUANT__CASES4((v) | QUANT__F_RECIP) \
                        QUANT__CASES4((v) | QUANT__F_RECIP | QUANT__F_VIA_F16)
    switch ((f & (QUANT__F_RECIP | QUANT__F_E5M2 | QUANT__F_INF_NAN | QUANT__F_VIA_F16)) | QUANT__VEC_IF(sstep)) {
    QUANT__CASES(0u) QUANT__CASES(QUANT__F_VEC)
    }
#undef QUANT__CASES
#undef QUANT__CASES4
#undef QUANT__CASE
}

#elif QUANT__PART == 3

#if QUANT__DISPATCH
QUANT__PRIVATE void quant__simd_f32_to_f8_x86(const float *src, uint8_t *dst, size_t n, const float *scale,
                                              size_t sstep, size_t period, unsigned f)
{
    QUANT__PICK(quant__simd_f32_to_f8, (src, dst, n, scale, sstep, period, f));
}
#endif
#if QUANT__SIMD_ANY
#  define quant__f32_to_f8(x, q, n, s, ss, per, f) QUANT__BK(quant__simd_f32_to_f8)(x, q, n, s, ss, per, f)
#else
#  define quant__f32_to_f8(x, q, n, s, ss, per, f) quant__scalar_f32_to_f8(x, q, n, s, ss, f)
#endif

#endif
#endif /* QUANT_NO_F8 */

/* ---- >>unit f8_decode: f8_e4m3/f8_e5m2 -> f32 (f8_to_f32) -------------- */
#ifndef QUANT_NO_F8
#if QUANT__PART == 1

/* Decode one f8 code and scale it; NaN codes give the canonical quiet NaN. */
QUANT__INLINE float quant__f8_dec(uint8_t c, float s, unsigned f)
{
    const uint32_t sign = (uint32_t)(c & 0x80u) << 24, a = c & 0x7Fu;
    const int e5 = (f & QUANT__F_E5M2) != 0;
    const unsigned mbits = e5 ? 2u : 3u;
    float d;
    if (e5 ? a > 0x7Cu : a == 0x7Fu) /* oneDNN's f16 route keeps e5m2's low payload bit */
        return quant__float(sign | 0x7FC00000u | ((f & QUANT__F_VIA_F16) && e5 ? (a & 1u) << 21 : 0u));
    if (e5 && a == 0x7Cu) d = quant__float(0x7F800000u);
    else if ((a >> mbits) == 0) /* subnormal: m steps of 2^-9 (e4m3) or 2^-16 (e5m2) */
        d = (float)(int32_t)a * quant__float(e5 ? (111u << 23) : (118u << 23));
    else d = quant__float((a << (23 - mbits)) + (e5 ? (112u << 23) : (120u << 23)));
    return quant__float(quant__bits(d) | sign) * s;
}

QUANT__PRIVATE void quant__scalar_f8_to_f32(const uint8_t *src, float *dst, size_t n,
                                            const float *scale, size_t sstep, unsigned f)
{
    size_t i;
    for (i = 0; i < n; ++i) dst[i] = quant__f8_dec(src[i], scale[i * sstep], f);
}

#elif QUANT__PART == 2

#if QUANT__PASS_VBMI
/* With VBMI, f8 decode is a lookup, 64 codes at a time. Every f8 value
   fits in the high half of an f32 (a bf16), so two byte permutes over 128
   magnitudes give its two bytes, the code's sign joins the top one, and
   unpacking with zeros below makes the f32s. NaN codes give the quiet NaN
   0x7FC00000 with the code's sign, as quant__f8_dec does; multiplying by
   the scale keeps it. The tables are quant__f8_dec's values; test_backend
   compares this path with the scalar one on all 256 codes. */
#define QUANT__F8_DEC64 1
static const unsigned char quant__f8_bytes[2][2][128] = {
    { /* e4m3: high bytes, then the bytes below them */
      {
       0x00, 0x3B, 0x3B, 0x3B, 0x3C, 0x3C, 0x3C, 0x3C, 0x3C, 0x3C, 0x3C, 0x3C, 0x3C, 0x3C, 0x3C, 0x3C,
       0x3D, 0x3D, 0x3D, 0x3D, 0x3D, 0x3D, 0x3D, 0x3D, 0x3D, 0x3D, 0x3D, 0x3D, 0x3D, 0x3D, 0x3D, 0x3D,
       0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E,
       0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F,
       0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40,
       0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41,
       0x42, 0x42, 0x42, 0x42, 0x42, 0x42, 0x42, 0x42, 0x42, 0x42, 0x42, 0x42, 0x42, 0x42, 0x42, 0x42,
       0x43, 0x43, 0x43, 0x43, 0x43, 0x43, 0x43, 0x43, 0x43, 0x43, 0x43, 0x43, 0x43, 0x43, 0x43, 0x7F },
      {
       0x00, 0x00, 0x80, 0xC0, 0x00, 0x20, 0x40, 0x60, 0x80, 0x90, 0xA0, 0xB0, 0xC0, 0xD0, 0xE0, 0xF0,
       0x00, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80, 0x90, 0xA0, 0xB0, 0xC0, 0xD0, 0xE0, 0xF0,
       0x00, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80, 0x90, 0xA0, 0xB0, 0xC0, 0xD0, 0xE0, 0xF0,
       0x00, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80, 0x90, 0xA0, 0xB0, 0xC0, 0xD0, 0xE0, 0xF0,
       0x00, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80, 0x90, 0xA0, 0xB0, 0xC0, 0xD0, 0xE0, 0xF0,
       0x00, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80, 0x90, 0xA0, 0xB0, 0xC0, 0xD0, 0xE0, 0xF0,
       0x00, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80, 0x90, 0xA0, 0xB0, 0xC0, 0xD0, 0xE0, 0xF0,
       0x00, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80, 0x90, 0xA0, 0xB0, 0xC0, 0xD0, 0xE0, 0xC0 } },
    { /* e5m2: high bytes, then the bytes below them */
      {
       0x00, 0x37, 0x38, 0x38, 0x38, 0x38, 0x38, 0x38, 0x39, 0x39, 0x39, 0x39, 0x39, 0x39, 0x39, 0x39,
       0x3A, 0x3A, 0x3A, 0x3A, 0x3A, 0x3A, 0x3A, 0x3A, 0x3B, 0x3B, 0x3B, 0x3B, 0x3B, 0x3B, 0x3B, 0x3B,
       0x3C, 0x3C, 0x3C, 0x3C, 0x3C, 0x3C, 0x3C, 0x3C, 0x3D, 0x3D, 0x3D, 0x3D, 0x3D, 0x3D, 0x3D, 0x3D,
       0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F,
       0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41,
       0x42, 0x42, 0x42, 0x42, 0x42, 0x42, 0x42, 0x42, 0x43, 0x43, 0x43, 0x43, 0x43, 0x43, 0x43, 0x43,
       0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x45, 0x45, 0x45, 0x45, 0x45, 0x45, 0x45, 0x45,
       0x46, 0x46, 0x46, 0x46, 0x46, 0x46, 0x46, 0x46, 0x47, 0x47, 0x47, 0x47, 0x7F, 0x7F, 0x7F, 0x7F },
      {
       0x00, 0x80, 0x00, 0x40, 0x80, 0xA0, 0xC0, 0xE0, 0x00, 0x20, 0x40, 0x60, 0x80, 0xA0, 0xC0, 0xE0,
       0x00, 0x20, 0x40, 0x60, 0x80, 0xA0, 0xC0, 0xE0, 0x00, 0x20, 0x40, 0x60, 0x80, 0xA0, 0xC0, 0xE0,
       0x00, 0x20, 0x40, 0x60, 0x80, 0xA0, 0xC0, 0xE0, 0x00, 0x20, 0x40, 0x60, 0x80, 0xA0, 0xC0, 0xE0,
       0x00, 0x20, 0x40, 0x60, 0x80, 0xA0, 0xC0, 0xE0, 0x00, 0x20, 0x40, 0x60, 0x80, 0xA0, 0xC0, 0xE0,
       0x00, 0x20, 0x40, 0x60, 0x80, 0xA0, 0xC0, 0xE0, 0x00, 0x20, 0x40, 0x60, 0x80, 0xA0, 0xC0, 0xE0,
       0x00, 0x20, 0x40, 0x60, 0x80, 0xA0, 0xC0, 0xE0, 0x00, 0x20, 0x40, 0x60, 0x80, 0xA0, 0xC0, 0xE0,
       0x00, 0x20, 0x40, 0x60, 0x80, 0xA0, 0xC0, 0xE0, 0x00, 0x20, 0x40, 0x60, 0x80, 0xA0, 0xC0, 0xE0,
       0x00, 0x20, 0x40, 0x60, 0x80, 0xA0, 0xC0, 0xE0, 0x00, 0x20, 0x40, 0x60, 0x80, 0xC0, 0xC0, 0xC0 } },
};
typedef struct quant__f8tab { __m512i hi0, hi1, lo0, lo1, order, sign; } quant__f8tab;
/* byte 16L + 4k + j takes code 16k + 4L + j: after the in-lane unpacks,
   vector k holds codes 16k .. 16k+15 in order */
#define QUANT__ORDER(L) 4 * L, 4 * L + 1, 4 * L + 2, 4 * L + 3, 16 + 4 * L, 17 + 4 * L, 18 + 4 * L, 19 + 4 * L, \
                        32 + 4 * L, 33 + 4 * L, 34 + 4 * L, 35 + 4 * L, 48 + 4 * L, 49 + 4 * L, 50 + 4 * L, 51 + 4 * L
static const unsigned char quant__f8_order[64] = { QUANT__ORDER(0), QUANT__ORDER(1), QUANT__ORDER(2), QUANT__ORDER(3) };
#undef QUANT__ORDER
QUANT__INLINE quant__f8tab quant__dec64_init(int e5)
{
    quant__f8tab t;
    t.hi0 = _mm512_loadu_si512((const void *)quant__f8_bytes[e5][0]);
    t.hi1 = _mm512_loadu_si512((const void *)(quant__f8_bytes[e5][0] + 64));
    t.lo0 = _mm512_loadu_si512((const void *)quant__f8_bytes[e5][1]);
    t.lo1 = _mm512_loadu_si512((const void *)(quant__f8_bytes[e5][1] + 64));
    t.order = _mm512_loadu_si512((const void *)quant__f8_order);
    t.sign = _mm512_set1_epi8((char)0x80);
    return t;
}
/* the unscaled values of codes p[0..63], 16 to a vector */
QUANT__INLINE void quant__dec64(const quant__f8tab *t, const uint8_t *p, quant__vf v[4])
{
    const __m512i c = _mm512_permutexvar_epi8(t->order, _mm512_loadu_si512((const void *)p));
    const __m512i lo = _mm512_permutex2var_epi8(t->lo0, c, t->lo1);
    const __m512i hi = _mm512_ternarylogic_epi32(_mm512_permutex2var_epi8(t->hi0, c, t->hi1), c, t->sign,
                                                 0xF8); /* hi | (c & sign) */
    const __m512i w0 = _mm512_unpacklo_epi8(lo, hi), w1 = _mm512_unpackhi_epi8(lo, hi), z = _mm512_setzero_si512();
    v[0] = _mm512_castsi512_ps(_mm512_unpacklo_epi16(z, w0));
    v[1] = _mm512_castsi512_ps(_mm512_unpackhi_epi16(z, w0));
    v[2] = _mm512_castsi512_ps(_mm512_unpacklo_epi16(z, w1));
    v[3] = _mm512_castsi512_ps(_mm512_unpackhi_epi16(z, w1));
}
#endif

/* f8 decode of one vector, scaled: the same steps as quant__f8_dec. */
QUANT__INLINE quant__vf quant__v_f8_dec(quant__vi c, quant__vf s, unsigned f)
{
    const int e5 = (f & QUANT__F_E5M2) != 0;
    const unsigned mbits = e5 ? 2u : 3u;
    const quant__vi a = quant__and(c, quant__seti(0x7F));
    const quant__vi sign = quant__sll(quant__and(c, quant__seti(0x80)), 24);
    const quant__vi nrm = quant__addi(quant__sll(a, 23 - mbits), quant__seti(e5 ? (112 << 23) : (120 << 23)));
    const quant__vi sub = quant__asi(quant__mul(quant__i2f(a), quant__asf(quant__seti(e5 ? (111 << 23) : (118 << 23)))));
    quant__vi d = quant__sel(quant__gt(quant__seti(1 << mbits), a), sub, nrm), y, nan;
    if (e5) d = quant__sel(quant__eq(a, quant__seti(0x7C)), quant__seti(0x7F800000), d);
    y = quant__asi(quant__mul(quant__asf(quant__or(d, sign)), s));
    nan = (f & QUANT__F_VIA_F16) && e5 ? quant__or(quant__sll(quant__and(a, quant__seti(1)), 21), quant__seti(0x7FC00000))
                                                      : quant__seti(0x7FC00000);
    return quant__asf(quant__sel(quant__gt(a, quant__seti(e5 ? 0x7C : 0x7E)), quant__or(sign, nan), y));
}

QUANT__INLINE void quant__v_f8_to_f32_body(const uint8_t *src, float *dst, size_t n,
                                           const float *scale, size_t period, const unsigned f)
{
    const size_t sstep = (f & QUANT__F_VEC) ? 1 : 0;
    const quant__vf s1 = quant__setf(scale[0]);
    size_t i = 0, so = 0; /* so: i within the scale pattern (it restarts every period) */
    const size_t per = period ? period : (size_t)-1;
    quant__vf s, unused;
#ifdef QUANT__F8_DEC64
    const quant__f8tab t = quant__dec64_init((f & QUANT__F_E5M2) != 0);
#endif
    if (!(f & QUANT__F_VEC) && n >= 5 * QUANT__W) {
        /* one vector where dst starts, then on from where its stores are
           aligned (a store across two cache lines made 64 Ki 1.7x slower);
           twice-written elements get the same bits */
        const size_t head = quant__head(dst, 4 * QUANT__W, 4 * QUANT__W) / 4;
        if (head) {
            if (QUANT__SCALES_OK(s1)) quant__stf(dst, quant__v_f8_dec(quant__ld8(src, 0), s1, f));
            else quant__scalar_f8_to_f32(src, dst, head, scale, 0, f);
            i = so = head;
        }
    }
#ifdef QUANT__F8_DEC64
    /* the tables hold the plain NaN; oneDNN's e5m2 payloads take the loop below */
    for (; !(f & QUANT__F_VIA_F16) && i + 4 * QUANT__W <= n; i += 4 * QUANT__W, so = quant__wrap(so + 4 * QUANT__W, per)) {
        quant__vf v[4];
        int k;
        quant__dec64(&t, src + i, v);
        QUANT__UNROLL4
        for (k = 0; k < 4; ++k) {
            quant__v_scale_at(scale, so + (size_t)k * QUANT__W, f, s1, s1, &s, &unused);
            quant__stf(dst + i + (size_t)k * QUANT__W, quant__mul(v[k], s));
        }
    }
#endif
    for (; i + QUANT__W <= n; i += QUANT__W, so = quant__wrap(so + QUANT__W, per)) {
        quant__v_scale_at(scale, so, f, s1, s1, &s, &unused);
        if (QUANT__SCALES_OK(s)) quant__stf(dst + i, quant__v_f8_dec(quant__ld8(src + i, 0), s, f));
        else quant__scalar_f8_to_f32(src + i, dst + i, QUANT__W, scale + so * sstep, sstep, f);
    }
    if (i < n) quant__scalar_f8_to_f32(src + i, dst + i, n - i, scale + so * sstep, sstep, f);
}

QUANT__PRIVATE void quant__simd_f8_to_f32(const uint8_t *src, float *dst, size_t n,
                                          const float *scale, size_t sstep, size_t period, unsigned f)
{
#define QUANT__CASE(k) case k: quant__v_f8_to_f32_body(src, dst, n, scale, period, k); break;
#define QUANT__CASES(v) QUANT__CASE(v) QUANT__CASE((v) | QUANT__F_E5M2) QUANT__CASE((v) | QUANT__F_E5M2 | QUANT__F_VIA_F16)
    /* the oneDNN route decodes differently only for e5m2's NaN payloads */
    const unsigned via16 = (f & QUANT__F_E5M2) ? f & QUANT__F_VIA_F16 : 0u;
    switch ((f & QUANT__F_E5M2) | via16 | QUANT__VEC_IF(sstep)) {
    QUANT__CASES(0u) QUANT__CASES(QUANT__F_VEC)
    }
#undef QUANT__CASES
#undef QUANT__CASE
}

#elif QUANT__PART == 3

#if QUANT__DISPATCH
QUANT__PRIVATE void quant__simd_f8_to_f32_x86(const uint8_t *src, float *dst, size_t n, const float *scale,
                                              size_t sstep, size_t period, unsigned f)
{
    QUANT__PICK(quant__simd_f8_to_f32, (src, dst, n, scale, sstep, period, f));
}
#endif
#if QUANT__SIMD_ANY
#  define quant__f8_to_f32(q, y, n, s, ss, per, f) QUANT__BK(quant__simd_f8_to_f32)(q, y, n, s, ss, per, f)
#else
#  define quant__f8_to_f32(q, y, n, s, ss, per, f) quant__scalar_f8_to_f32(q, y, n, s, ss, f)
#endif

#endif
#endif /* QUANT_NO_F8 */

/* ---- >>unit half: f16 and bf16 <-> f32 --------------------------------- */
#if QUANT__PART == 1

/* binary16 to f32, exactly: subnormals are m steps of 2^-24, a normal f32 */
QUANT__PRIVATE float quant__f16_to_f32(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
    if (e == 0x1Fu) return quant__float(sign | 0x7F800000u | (m << 13)); /* Inf, NaN with its payload */
    if (e == 0) return quant__float(quant__bits((float)(int32_t)m * quant__float(0x33800000u)) | sign);
    return quant__float(sign | ((e + 112u) << 23) | (m << 13));
}

QUANT__INLINE float quant__bf16_to_f32(uint16_t h) { return quant__float((uint32_t)h << 16); }

/* f32 to binary16, to nearest even: 65520 and up is Inf, NaN the quiet
   NaN 0x7E00 with its sign. Below 2^-14, adding 0.5 (whose ulp is f16's
   subnormal step 2^-24) leaves the rounded count of steps in the low
   bits; above, the dropped 13 bits are rounded with integer steps. */
QUANT__PRIVATE uint16_t quant__f32_to_f16(float f)
{
    const uint32_t u = quant__bits(f), sign = (u >> 16) & 0x8000u, a = u & 0x7FFFFFFFu;
    if (a > 0x7F800000u) return (uint16_t)(sign | 0x7E00u);
    if (a >= 0x477FF000u) return (uint16_t)(sign | 0x7C00u);
    if (a < 0x38800000u) return (uint16_t)(sign | (quant__bits(quant__float(a) + 0.5f) - 0x3F000000u));
    return (uint16_t)(sign | ((a - (112u << 23) + 0xFFFu + ((a >> 13) & 1u)) >> 13));
}

/* f32 to bfloat16, to nearest even (overflow carries into Inf); NaN the
   quiet NaN 0x7FC0 with its sign */
QUANT__PRIVATE uint16_t quant__f32_to_bf16(float f)
{
    const uint32_t u = quant__bits(f);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)((u >> 16 & 0x8000u) | 0x7FC0u);
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

/* oneDNN's f32 -> bf16 (rounding onednn): an f32 zero or subnormal becomes
   the zero of its sign, everything else rounds as quant__f32_to_bf16 */
QUANT__INLINE uint16_t quant__f32_to_bf16_ftz(float f)
{
    const uint32_t u = quant__bits(f);
    return (u & 0x7F800000u) == 0 ? (uint16_t)(u >> 16 & 0x8000u) : quant__f32_to_bf16(f);
}

#elif QUANT__PART == 2

/* quant__f32_to_bf16 and quant__f32_to_f16 on a vector of values that
   are not NaN ((q - z) * s with a valid scale never is), as int32 lanes */
QUANT__INLINE quant__vi quant__v_bf16(quant__vf y)
{
    const quant__vi u = quant__asi(y);
    return quant__srl(quant__addi(quant__addi(u, quant__seti(0x7FFF)), quant__and(quant__srl(u, 16), quant__seti(1))), 16);
}
QUANT__INLINE quant__vi quant__v_f16(quant__vf y)
{
    const quant__vi u = quant__asi(y), a = quant__and(u, quant__seti(0x7FFFFFFF));
    const quant__vi sign = quant__and(quant__srl(u, 16), quant__seti(0x8000));
    const quant__vi sub = quant__subi(quant__asi(quant__add(quant__asf(a), quant__setf(0.5f))), quant__seti(0x3F000000));
    const quant__vi nrm = quant__srl(quant__addi(quant__addi(a, quant__seti(0xFFF - (112 << 23))),
                                                 quant__and(quant__srl(a, 13), quant__seti(1))), 13);
    quant__vi r = quant__sel(quant__gt(quant__seti(0x38800000), a), sub, nrm);
    r = quant__sel(quant__gt(a, quant__seti(0x477FEFFF)), quant__seti(0x7C00), r);
    return quant__or(r, sign);
}

/* f32 to bf16 (bf) or f16 bits in lanes, NaN included, as the scalar code */
QUANT__INLINE quant__vi quant__v_to_half(quant__vf y, const int bf)
{
    const quant__vi u = quant__asi(y), a = quant__and(u, quant__seti(0x7FFFFFFF));
    const quant__vi qnan = quant__or(quant__and(quant__srl(u, 16), quant__seti(0x8000)), quant__seti(bf ? 0x7FC0 : 0x7E00));
    return quant__sel(quant__gt(a, quant__seti(0x7F800000)), qnan, bf ? quant__v_bf16(y) : quant__v_f16(y));
}

QUANT__INLINE void quant__v_widen16(const uint16_t *h, float *x, size_t n, const int bf)
{
    size_t i = 0;
    for (; i + QUANT__W <= n; i += QUANT__W) quant__stf(x + i, quant__v_load(x, h, i, bf ? 1 : 2));
    for (; i < n; ++i) x[i] = bf ? quant__bf16_to_f32(h[i]) : quant__f16_to_f32(h[i]);
}

/* n 16-bit floats (bf16 when bf, else f16) widened to f32 */
QUANT__PRIVATE void quant__simd_widen16(const uint16_t *h, float *x, size_t n, int bf)
{
    if (bf) quant__v_widen16(h, x, n, 1);
    else quant__v_widen16(h, x, n, 0);
}

/* n f32 narrowed to 16-bit floats: bf 0 f16, 1 bf16, 2 bf16 as oneDNN
   makes it (quant__f32_to_bf16_ftz: zeros and subnormals to signed zeros) */
QUANT__PRIVATE void quant__simd_narrow16(const float *y, uint16_t *out, size_t n, int bf)
{
    size_t i = 0;
    if (bf == 2)
        for (; i + QUANT__W <= n; i += QUANT__W) {
            const quant__vi u = quant__asi(quant__ldf(y + i));
            const quant__vm tiny = quant__gt(quant__seti(0x00800000), quant__and(u, quant__seti(0x7FFFFFFF)));
            quant__st16(out + i, quant__v_to_half(quant__asf(quant__sel(tiny, quant__and(u, quant__seti(INT32_MIN)), u)), 1));
        }
    else if (bf) for (; i + QUANT__W <= n; i += QUANT__W) quant__st16(out + i, quant__v_to_half(quant__ldf(y + i), 1));
    else for (; i + QUANT__W <= n; i += QUANT__W) quant__st16(out + i, quant__v_to_half(quant__ldf(y + i), 0));
    for (; i < n; ++i) out[i] = bf == 2 ? quant__f32_to_bf16_ftz(y[i]) : bf ? quant__f32_to_bf16(y[i]) : quant__f32_to_f16(y[i]);
}

/* A 16-bit row quantized with one scale and zero point: the f32 kernel's
   four-vector loop, widening in registers; what it leaves (the tail, a
   zero point past QUANT__ZP_PACK, a scale NEON cannot take) widened a
   chunk at a time into a buffer that stays in L1, then the f32 kernel. */
QUANT__INLINE void quant__v_half_to_i8(const uint16_t *src, uint8_t *dst, size_t n, float scale, int32_t zp,
                                       const unsigned f, const int bf)
{
    const int32_t lo = (f & QUANT__F_U8) ? 0 : -128, hi = (f & QUANT__F_U8) ? 255 : 127;
    const int before = (f & QUANT__F_ZP_BEFORE) != 0;
    float buf[QUANT__STAGE];
    size_t i = 0, so = 0;
    if (zp >= -QUANT__ZP_PACK && zp <= QUANT__ZP_PACK && quant__zp_fast(zp) && QUANT__SCALES_OK(quant__setf(scale)))
        i = quant__v_f32_to_i8_x4(NULL, dst, n, &scale, &zp, (size_t)-1, &so, quant__setf(scale),
                                  quant__setf(quant__recip_of(&scale, f)), quant__setf((float)zp),
                                  quant__setf((float)(before ? lo : lo - zp)), quant__setf((float)(before ? hi : hi - zp)),
                                  f, src, bf ? 1 : 2);
    for (; i < n; i += QUANT__STAGE) {
        const size_t len = n - i < QUANT__STAGE ? n - i : QUANT__STAGE;
        if (bf) quant__v_widen16(src + i, buf, len, 1);
        else quant__v_widen16(src + i, buf, len, 0);
        quant__simd_f32_to_i8(buf, dst + i, len, &scale, 0, &zp, 0, 0, f);
    }
}

QUANT__PRIVATE void quant__simd_half_to_i8(const uint16_t *src, uint8_t *dst, size_t n, float scale, int32_t zp,
                                           unsigned f, int bf)
{
    /* each rounding and type a loop of its own, with constants in it */
    const unsigned given = f & QUANT__F_RECIP_GIVEN;
#define QUANT__CASE(k) case k: quant__v_half_to_i8(src, dst, n, scale, zp, (k) | given, bf); break;
    switch (f & (QUANT__F_U8 | QUANT__F_RECIP | QUANT__F_ZP_BEFORE)) {
    QUANT__CASE(0u) QUANT__CASE(QUANT__F_U8) QUANT__CASE(QUANT__F_RECIP) QUANT__CASE(QUANT__F_RECIP | QUANT__F_U8)
    QUANT__CASE(QUANT__F_ZP_BEFORE) QUANT__CASE(QUANT__F_ZP_BEFORE | QUANT__F_U8)
    QUANT__CASE(QUANT__F_ZP_BEFORE | QUANT__F_RECIP) QUANT__CASE(QUANT__F_ZP_BEFORE | QUANT__F_RECIP | QUANT__F_U8)
    }
#undef QUANT__CASE
}

#elif QUANT__PART == 3

#if QUANT__DISPATCH
QUANT__PRIVATE void quant__simd_widen16_x86(const uint16_t *h, float *x, size_t n, int bf)
{
    QUANT__PICK(quant__simd_widen16, (h, x, n, bf));
}
QUANT__PRIVATE void quant__simd_narrow16_x86(const float *y, uint16_t *out, size_t n, int bf)
{
    QUANT__PICK(quant__simd_narrow16, (y, out, n, bf));
}
QUANT__PRIVATE void quant__simd_half_to_i8_x86(const uint16_t *src, uint8_t *dst, size_t n, float scale, int32_t zp,
                                               unsigned f, int bf)
{
    QUANT__PICK(quant__simd_half_to_i8, (src, dst, n, scale, zp, f, bf));
}
#endif
#if QUANT__SIMD_ANY
#  define quant__widen16 QUANT__BK(quant__simd_widen16)
#  define quant__narrow16 QUANT__BK(quant__simd_narrow16)
#  define quant__half_to_i8 QUANT__BK(quant__simd_half_to_i8)
#endif

#endif

/* ---- >>unit weights4: packed 4-bit rows, a scale per group (w4) --------- */
/* Weight decompression: element i of a packed s4/u4 row uses scales[i / g]
   and zero point i / g of zps (packed like the row; NULL: 0). Part 2
   looks the results up in a per-group table where the backend can
   (AVX-512, AVX2) and computes them over the primitives elsewhere: every
   step is exact integer work or one rounding, so the bits are the scalar
   ones. */
#if QUANT__PART == 1

enum { QUANT__W4_F32 = 0, QUANT__W4_F16 = 1, QUANT__W4_BF16 = 2 };

/* nibble i of a packed row, sign-extended when sgn */
QUANT__INLINE int32_t quant__nib(const uint8_t *p, size_t i, unsigned sgn)
{
    const unsigned v = (unsigned)p[i >> 1] >> ((i & 1u) * 4u) & 15u, flip = sgn ? 8u : 0u;
    return (int32_t)(v ^ flip) - (int32_t)flip;
}

QUANT__INLINE void quant__w4_put(void *dst, size_t i, float y, unsigned out)
{
    if (!QUANT__HALF || out == QUANT__W4_F32) ((float *)dst)[i] = y;
    else if (out == QUANT__W4_F16) ((uint16_t *)dst)[i] = quant__f32_to_f16(y);
    else ((uint16_t *)dst)[i] = quant__f32_to_bf16(y);
}

/* fl((q - z) * s): q - z is a small exact integer here */
QUANT__INLINE void quant__w4_body(const uint8_t *src, void *dst, size_t n, const float *scales, const uint8_t *zps,
                                  size_t g, const unsigned sgn, const unsigned out)
{
    const unsigned flip = sgn ? 8u : 0u;
    size_t i0, gi = 0;
    if (g == 0 || g > n) g = n;
    for (i0 = 0; i0 < n; i0 += g, ++gi) {
        const size_t len = n - i0 < g ? n - i0 : g, end = i0 + len;
        const float s = scales[gi];
        const int32_t z = zps ? quant__nib(zps, gi, sgn) : 0;
        size_t i = i0;
        if (i & 1u) { quant__w4_put(dst, i, (float)(quant__nib(src, i, sgn) - z) * s, out); ++i; }
        for (; i + 2 <= end; i += 2) { /* a whole byte: two elements */
            const unsigned b = src[i >> 1];
            const int32_t lo = (int32_t)((b & 15u) ^ flip) - (int32_t)flip, hi = (int32_t)((b >> 4) ^ flip) - (int32_t)flip;
            quant__w4_put(dst, i, (float)(lo - z) * s, out);
            quant__w4_put(dst, i + 1, (float)(hi - z) * s, out);
        }
        if (i < end) quant__w4_put(dst, i, (float)(quant__nib(src, i, sgn) - z) * s, out);
    }
}

QUANT__PRIVATE void quant__scalar_w4(const uint8_t *src, void *dst, size_t n, const float *scales, const uint8_t *zps,
                                     size_t g, unsigned sgn, unsigned out)
{
    quant__w4_body(src, dst, n, scales, zps, g, sgn, out);
}

#elif QUANT__PART == 2

/* A group has one scale and zero point, so a nibble can give only 16
   results: where the instruction set can look up 16 lanes by index
   (AVX-512: vpermps, vpermw; AVX2: vpshufb on the results' low and high
   bytes), the 16 are computed once, with the vector arithmetic below, and
   each element is a lookup. The table holds the very bits the arithmetic
   gives, so this is exact by construction. Whole bytes from element i
   (even) to end; returns where it stopped. */
#if QUANT__PASS == QUANT_SIMD_AVX512
#  define QUANT__W4_LUT 1
#  define QUANT__W4_LUT_F32 1
/* a group's 16 f32 results, one per nibble value (nib: the values) */
QUANT__INLINE __m512 quant__w4_table(__m512i nib, float s, int32_t z)
{
    return _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(nib, _mm512_set1_epi32(z))), _mm512_set1_ps(s));
}
/* 8 bytes to 16 dword indices: nibble k in the low 4 bits of dword k,
   which is all vpermps reads (VBMI: one vpmultishiftqb of the 8 bytes
   broadcast, byte 0 of dword k from bit 4k; else (b | b << 28) & 0xF0000000F) */
QUANT__INLINE __m512i quant__w4_idx16(const uint8_t *b)
{
    const __m128i v = _mm_loadl_epi64((const __m128i *)(const void *)b);
#if QUANT__PASS_VBMI
    return _mm512_multishift_epi64_epi8(_mm512_set_epi64(0x0000003C00000038LL, 0x0000003400000030LL, 0x0000002C00000028LL,
                                                         0x0000002400000020LL, 0x0000001C00000018LL, 0x0000001400000010LL,
                                                         0x0000000C00000008LL, 0x0000000400000000LL),
                                        _mm512_broadcastq_epi64(v));
#else
    const __m512i q = _mm512_cvtepu8_epi64(v);
    return _mm512_ternarylogic_epi64(q, _mm512_slli_epi64(q, 28), _mm512_set1_epi64(0x0000000F0000000FLL), 0xA8);
#endif
}

QUANT__INLINE size_t quant__w4_lut(const uint8_t *src, void *dst, size_t i, size_t end, quant__vf vs, int32_t z,
                                   const unsigned sgn, const unsigned out)
{
    const __m512i nib = sgn ? _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1)
                            : _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512 y = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(nib, _mm512_set1_epi32(z))), vs);
    if (!QUANT__HALF || out == QUANT__W4_F32) {
        for (; i + 32 <= end; i += 32) {
            _mm512_storeu_ps((float *)dst + i, _mm512_permutexvar_ps(quant__w4_idx16(src + (i >> 1)), y));
            _mm512_storeu_ps((float *)dst + i + 16, _mm512_permutexvar_ps(quant__w4_idx16(src + (i >> 1) + 8), y));
        }
    } else {
        /* 16 bytes to 16 dwords; nibble k of the 32 in word k: (b | b << 12) & 0x000F000F */
        /* vcvtps2ph rounds to nearest even, as quant__f32_to_f16 (y is not NaN) */
        const __m512i t = _mm512_castsi256_si512(out == QUANT__W4_BF16 ? _mm512_cvtepi32_epi16(quant__v_bf16(y))
                                                 : quant__v_ph(y));
        const __m512i m = _mm512_set1_epi32(0x000F000F);
        for (; i + 32 <= end; i += 32) {
            const __m512i d = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(src + (i >> 1))));
            const __m512i k = _mm512_ternarylogic_epi32(d, _mm512_slli_epi32(d, 12), m, 0xA8);
            _mm512_storeu_si512((void *)((uint16_t *)dst + i), _mm512_permutexvar_epi16(k, t));
        }
    }
    return i;
}

/* Groups of exactly 32 elements (16 bytes), two a step (a 16-bit
   destination: both tables in one register); at most ng groups, stopping
   before a pair with an infinite or NaN scale. Returns the groups done. */
QUANT__INLINE size_t quant__w4_lut_g32(const uint8_t *src, void *dst, size_t ng, const float *scales,
                                       const uint8_t *zps, const unsigned sgn, const unsigned out)
{
    const __m512i nib = sgn ? _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1)
                            : _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    /* the high word of each lane of a, then of b */
    const __m512i high = _mm512_setr_epi32(0x00030001, 0x00070005, 0x000B0009, 0x000F000D, 0x00130011, 0x00170015,
                                           0x001B0019, 0x001F001D, 0x00230021, 0x00270025, 0x002B0029, 0x002F002D,
                                           0x00330031, 0x00370035, 0x003B0039, 0x003F003D);
    const __m512i m = _mm512_set1_epi32(0x000F000F), second = _mm512_set1_epi32(0x00100010);
    const unsigned flip = sgn ? 8u : 0u;
    size_t gi;
    for (gi = 0; gi + 2 <= ng; gi += 2) {
        const float s0 = scales[gi], s1 = scales[gi + 1];
        const unsigned zb = zps ? zps[gi >> 1] : 0u;
        const int32_t z0 = (int32_t)((zb & 15u) ^ flip) - (int32_t)flip, z1 = (int32_t)((zb >> 4) ^ flip) - (int32_t)flip;
        const __m512 y0 = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(nib, _mm512_set1_epi32(z0))), _mm512_set1_ps(s0));
        const __m512 y1 = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(nib, _mm512_set1_epi32(z1))), _mm512_set1_ps(s1));
        __m512i t, d0, d1;
        if ((quant__bits(s0) & 0x7F800000u) == 0x7F800000u || (quant__bits(s1) & 0x7F800000u) == 0x7F800000u) break;
        if (!QUANT__HALF || out == QUANT__W4_F32) {
            float *o = (float *)dst + gi * 32;
            int k;
            for (k = 0; k < 4; ++k) /* 8 bytes: 16 results */
                _mm512_storeu_ps(o + 16 * k, _mm512_permutexvar_ps(quant__w4_idx16(src + gi * 16 + 8 * k), k < 2 ? y0 : y1));
            continue;
        }
        if (out == QUANT__W4_BF16) { /* quant__v_bf16 but for the shift: the high words are picked instead */
            const __m512i u0 = _mm512_castps_si512(y0), u1 = _mm512_castps_si512(y1), one = _mm512_set1_epi32(1);
            const __m512i r0 = _mm512_add_epi32(_mm512_add_epi32(u0, _mm512_set1_epi32(0x7FFF)),
                                                _mm512_and_si512(_mm512_srli_epi32(u0, 16), one));
            const __m512i r1 = _mm512_add_epi32(_mm512_add_epi32(u1, _mm512_set1_epi32(0x7FFF)),
                                                _mm512_and_si512(_mm512_srli_epi32(u1, 16), one));
            t = _mm512_permutex2var_epi16(r0, high, r1);
        } else {
            t = _mm512_inserti64x4(_mm512_castsi256_si512(quant__v_ph(y0)),
                                   quant__v_ph(y1), 1);
        }
        d0 = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(src + gi * 16)));
        d1 = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(src + gi * 16 + 16)));
        d0 = _mm512_ternarylogic_epi32(d0, _mm512_slli_epi32(d0, 12), m, 0xA8);
        d1 = _mm512_or_si512(_mm512_ternarylogic_epi32(d1, _mm512_slli_epi32(d1, 12), m, 0xA8), second);
        _mm512_storeu_si512((void *)((uint16_t *)dst + gi * 32), _mm512_permutexvar_epi16(d0, t));
        _mm512_storeu_si512((void *)((uint16_t *)dst + gi * 32 + 32), _mm512_permutexvar_epi16(d1, t));
    }
    return gi;
}

#if QUANT__PASS_VBMI
/* Groups of 32 to a 16-bit destination with VBMI. A group's 16 results
   are (j - z) * s for the nibble j (u4), or (j - 8 - z) * s for the
   nibble j ^ 8 (s4): row z (or z ^ 8) of quant__w4_rows times s, where
   row k holds j - k, one aligned load (a sliding window over one ramp
   split a cache line at almost every load: 8% at 64 Ki). Index w of the
   vpermw is nibble w: the group's two halves are broadcast to the low
   and high four qwords, vpmultishiftqb takes each word's byte from the
   nibble's bit offset, and one vpternlog keeps the nibble and flips bit
   3 (s4). A 16-bit table takes the low 16 words; for bf16 by integer
   rounding, whose 16 results stay 32-bit lanes, the index is 2j + 1
   (the lane's high word), made from a byte read a bit lower. */
static const float quant__w4_rows[16][16] __attribute__((aligned(64))) = {
#define QUANT__ROW(k) { 0 - k, 1 - k, 2 - k, 3 - k, 4 - k, 5 - k, 6 - k, 7 - k, \
                        8 - k, 9 - k, 10 - k, 11 - k, 12 - k, 13 - k, 14 - k, 15 - k }
    QUANT__ROW(0), QUANT__ROW(1), QUANT__ROW(2), QUANT__ROW(3), QUANT__ROW(4), QUANT__ROW(5),
    QUANT__ROW(6), QUANT__ROW(7), QUANT__ROW(8), QUANT__ROW(9), QUANT__ROW(10), QUANT__ROW(11),
    QUANT__ROW(12), QUANT__ROW(13), QUANT__ROW(14), QUANT__ROW(15)
#undef QUANT__ROW
};

/* vpmultishiftqb control: word r of qword q (words 4q to 4q + 3) is
   nibble 4q + r, at bit 16 (q mod 4) + 4r of its half, read from bit o
   lower (o: 0, or 1 for the 2j + 1 index) */
QUANT__INLINE __m512i quant__w4_ctrl(const int o)
{
#define QUANT__MS(q) ((long long)((16 * (q) - o) & 63) | (long long)((16 * (q) + 4 - o) & 63) << 16 | \
                      (long long)((16 * (q) + 8 - o) & 63) << 32 | (long long)((16 * (q) + 12 - o) & 63) << 48)
    return _mm512_set_epi64(QUANT__MS(3), QUANT__MS(2), QUANT__MS(1), QUANT__MS(0),
                            QUANT__MS(3), QUANT__MS(2), QUANT__MS(1), QUANT__MS(0));
#undef QUANT__MS
}

/* group gi's 32 table indices, less the vpternlog */
QUANT__INLINE __m512i quant__w4_nibs(const uint8_t *src, size_t gi, __m512i ctrl)
{
    const __m512i h = _mm512_broadcastq_epi64(_mm_loadl_epi64((const __m128i *)(const void *)(src + gi * 16)));
    const __m512i x = _mm512_mask_broadcastq_epi64(h, 0xF0, _mm_loadl_epi64((const __m128i *)(const void *)(src + gi * 16 + 8)));
    return _mm512_multishift_epi64_epi8(ctrl, x);
}

/* The next batch of up to 16 groups from gi: how many groups to take
   (up to the first with an infinite or NaN scale, *bad set then), and
   their table rows (zero points, with bit 3 flipped for s4), 4 bits a
   group. *tiny is set when a scale of the batch is subnormal. */
QUANT__INLINE size_t quant__w4_batch(size_t gi, size_t ng, const float *scales, const uint8_t *zps, const unsigned sgn,
                                     uint64_t *rows, int *bad, int *tiny)
{
    size_t cnt = ng - gi < 16 ? ng - gi : 16, j;
    const __mmask16 m = (__mmask16)((1u << cnt) - 1u);
    const __m512i a = _mm512_and_si512(_mm512_maskz_loadu_epi32(m, scales + gi), _mm512_set1_epi32(0x7FFFFFFF));
    const __mmask16 nf = _mm512_mask_cmpge_epu32_mask(m, a, _mm512_set1_epi32(0x7F800000));
    uint64_t zz = 0;
    *tiny = _mm512_mask_cmplt_epu32_mask(m, _mm512_sub_epi32(a, _mm512_set1_epi32(1)), _mm512_set1_epi32(0x7FFFFF)) != 0;
    *bad = nf != 0;
    if (nf) for (cnt = 0; !(nf >> cnt & 1u); ++cnt) {}
    /* gi is even here (a multiple of 16): whole bytes of zero points */
    if (zps && (ng + 1) / 2 - gi / 2 >= 8) zz = (uint64_t)_mm_cvtsi128_si64(_mm_loadl_epi64((const __m128i *)(const void *)(zps + gi / 2)));
    else if (zps) for (j = 0; 2 * j < cnt; ++j) zz |= (uint64_t)zps[gi / 2 + j] << 8 * j;
    *rows = zz ^ (sgn ? 0x8888888888888888ULL : 0u);
    return cnt;
}

/* cnt groups from gi, one a step; rows as quant__w4_batch gives them */
QUANT__INLINE void quant__w4_vbmi_run(const uint8_t *src, uint16_t *dst, size_t gi, size_t cnt, const float *scales,
                                      uint64_t rows, const unsigned sgn, const unsigned out)
{
    const __m512i ctrl = quant__w4_ctrl(out == QUANT__W4_BF16);
    /* u4: (x & 15); s4: (x & 15) ^ 8; bf16: (x | 1), ^ 16 for s4 */
    const __m512i k1 = _mm512_set1_epi16(out == QUANT__W4_BF16 ? 1 : 15);
    const __m512i k2 = _mm512_set1_epi16(sgn ? (out == QUANT__W4_BF16 ? 16 : 8) : 0);
    size_t j;
    QUANT__UNROLL4 /* the steps overlap better: 5% at 64 Ki */
    for (j = 0; j < cnt; ++j, ++gi, rows >>= 4) {
        const __m512 y = _mm512_mul_ps(_mm512_load_ps(quant__w4_rows[rows & 15u]), _mm512_set1_ps(scales[gi]));
        __m512i t, x = quant__w4_nibs(src, gi, ctrl);
        if (out == QUANT__W4_BF16) {
            /* quant__v_bf16 but for the shift (the index picks the high
               word), its + ((u >> 16) & 1) a masked add (a shift costs more) */
            const __m512i u = _mm512_castps_si512(y), r = _mm512_add_epi32(u, _mm512_set1_epi32(0x7FFF));
            t = _mm512_mask_add_epi32(r, _mm512_test_epi32_mask(u, _mm512_set1_epi32(0x10000)), r, _mm512_set1_epi32(1));
            x = _mm512_ternarylogic_epi32(x, k1, k2, 0x56); /* (x | k1) ^ k2 */
        } else {
            t = _mm512_castsi256_si512(quant__v_ph(y));
            x = _mm512_ternarylogic_epi32(x, k1, k2, 0x6A); /* (x & k1) ^ k2 */
        }
        _mm512_storeu_si512((void *)(dst + gi * 32), _mm512_permutexvar_epi16(x, t));
    }
}

/* Whole groups of 32 from the first: returns the groups done, stopping
   before a group with an infinite or NaN scale (its table would hold
   NaNs the rounding here does not handle; the caller's scalar code
   does). */
QUANT__INLINE size_t quant__w4_vbmi_g32(const uint8_t *src, uint16_t *dst, size_t ng, const float *scales,
                                        const uint8_t *zps, const unsigned sgn, const unsigned out)
{
    size_t gi = 0;
    while (gi < ng) {
        uint64_t rows;
        int bad, tiny;
        const size_t cnt = quant__w4_batch(gi, ng, scales, zps, sgn, &rows, &bad, &tiny);
        quant__w4_vbmi_run(src, dst, gi, cnt, scales, rows, sgn, out);
        gi += cnt;
        if (bad) break;
    }
    return gi;
}

/* AVX512-BF16: a -march build that has it uses it; under dispatch the
   VBMI pass holds a copy for it, which QUANT__L_AVX512BF16 picks (the
   whole target list: clang takes a function's own in place of the
   pass's) */
#if QUANT__DISPATCH
#  define QUANT__BF16I 1
#  define QUANT__BF16I_FN QUANT__NOINLINE __attribute__((target( \
    "avx2,fma,bmi,bmi2,lzcnt,popcnt,f16c,avx512f,avx512bw,avx512vl,avx512dq,avx512vbmi,avx512bf16")))
#  define QUANT__BF16I_ON (quant__x86_level() == QUANT__L_AVX512BF16)
#elif defined(__AVX512BF16__)
#  define QUANT__BF16I 1
#  define QUANT__BF16I_FN QUANT__INLINE
#  define QUANT__BF16I_ON 1
#else
#  define QUANT__BF16I 0
#endif
#if QUANT__BF16I
/* The same for bf16 with AVX512-BF16, two groups a step: one
   vcvtne2ps2bf16 rounds both tables (the first group's in words 0-15,
   the second's in 16-31; the second's indices get bit 4), where the
   integer rounding takes three operations a group (u4 -> bf16 at 64 Ki:
   12% less time). The instruction flushes subnormals to zero; a normal
   scale times a nonzero integer is normal, so only a batch with a
   subnormal scale takes the integer rounding. */
QUANT__BF16I_FN size_t quant__w4_vbmi_g32_bf16i(const uint8_t *src, uint16_t *dst, size_t ng, const float *scales,
                                                const uint8_t *zps, const unsigned sgn)
{
    const __m512i ctrl = quant__w4_ctrl(0), k15 = _mm512_set1_epi16(15);
    const __m512i ka = _mm512_set1_epi16(sgn ? 8 : 0), kb = _mm512_set1_epi16(sgn ? 24 : 16);
    size_t gi = 0;
    while (gi < ng) {
        uint64_t rows;
        int bad, tiny;
        const size_t cnt = quant__w4_batch(gi, ng, scales, zps, sgn, &rows, &bad, &tiny), end = gi + cnt;
        if (tiny) {
            quant__w4_vbmi_run(src, dst, gi, cnt, scales, rows, sgn, QUANT__W4_BF16);
            gi = end;
        } else {
            for (; gi + 2 <= end; gi += 2, rows >>= 8) {
                const __m512 ya = _mm512_mul_ps(_mm512_load_ps(quant__w4_rows[rows & 15u]), _mm512_set1_ps(scales[gi]));
                const __m512 yb = _mm512_mul_ps(_mm512_load_ps(quant__w4_rows[rows >> 4 & 15u]), _mm512_set1_ps(scales[gi + 1]));
                const __m512i t = (__m512i)_mm512_cvtne2ps_pbh(yb, ya);
                const __m512i xa = _mm512_ternarylogic_epi32(quant__w4_nibs(src, gi, ctrl), k15, ka, 0x6A);
                const __m512i xb = _mm512_ternarylogic_epi32(quant__w4_nibs(src, gi + 1, ctrl), k15, kb, 0x6A);
                _mm512_storeu_si512((void *)(dst + gi * 32), _mm512_permutexvar_epi16(xa, t));
                _mm512_storeu_si512((void *)(dst + gi * 32 + 32), _mm512_permutexvar_epi16(xb, t));
            }
            if (gi < end) quant__w4_vbmi_run(src, dst, gi++, 1, scales, rows, sgn, QUANT__W4_BF16);
        }
        if (bad) break;
    }
    return gi;
}
#endif
#endif

/* f32 results of whole groups (g a multiple of 32) where dst is h
   elements (even, 2 to 14) short of a 64-byte line: the stores are laid
   from element h on, so that none is split over two lines (measured at
   64 Ki elements, 16 bytes off a line: 1.3-1.5x the time). Element h
   + 16k then starts at a byte of src, and the one vector a group
   boundary crosses takes each lane from its own group's table (vpermt2ps
   over both). Stops before a group with an infinite or NaN scale, as
   quant__w4_lut_g32 does; returns the groups done. */
QUANT__INLINE size_t quant__w4_lut_f32a(const uint8_t *src, float *dst, size_t ng, size_t g, size_t h,
                                        const float *scales, const uint8_t *zps, const unsigned sgn)
{
    const __m512i nib = sgn ? _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1)
                            : _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    /* lanes 16 - h to 15 read the second table: (index & 15) | 16 (0xEA: a & b | c) */
    const __m512i next = _mm512_maskz_mov_epi32((__mmask16)(0xFFFFu << (16u - h)), _mm512_set1_epi32(16));
    size_t gi, p;
    float s = scales[0];
    int32_t z = zps ? quant__nib(zps, 0, sgn) : 0;
    __m512 y;
    if ((quant__bits(s) & 0x7F800000u) == 0x7F800000u) return 0;
    y = quant__w4_table(nib, s, z);
    for (p = 0; p < h; ++p) dst[p] = (float)(quant__nib(src, p, sgn) - z) * s;
    for (gi = 0; gi < ng; ++gi) {
        const size_t end = (gi + 1) * g;
        __m512 yn;
        for (p = gi * g + h; p + 16 <= end; p += 16)
            _mm512_store_ps(dst + p, _mm512_permutexvar_ps(quant__w4_idx16(src + (p >> 1)), y));
        /* p = end - 16 + h: the vector across the boundary, or the group's
           last 16 - h elements one at a time */
        if (gi + 1 == ng || (quant__bits(scales[gi + 1]) & 0x7F800000u) == 0x7F800000u) {
            for (; p < end; ++p) dst[p] = (float)(quant__nib(src, p, sgn) - z) * s;
            return gi + 1;
        }
        s = scales[gi + 1];
        z = zps ? quant__nib(zps, gi + 1, sgn) : 0;
        yn = quant__w4_table(nib, s, z);
        _mm512_store_ps(dst + p, _mm512_permutex2var_ps(y, _mm512_ternarylogic_epi32(quant__w4_idx16(src + (p >> 1)), _mm512_set1_epi32(15), next, 0xEA), yn));
        y = yn;
    }
    return ng;
}
#elif QUANT__PASS == QUANT_SIMD_AVX2
#  define QUANT__W4_LUT 1
#  define QUANT__W4_LUT_F32 0 /* 8 lanes: the arithmetic is as fast */
QUANT__INLINE size_t quant__w4_lut(const uint8_t *src, void *dst, size_t i, size_t end, quant__vf vs, int32_t z,
                                   const unsigned sgn, const unsigned out)
{
    const __m256i vz = _mm256_set1_epi32(z);
    const __m256i n0 = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i n1 = sgn ? _mm256_setr_epi32(-8, -7, -6, -5, -4, -3, -2, -1)
                           : _mm256_setr_epi32(8, 9, 10, 11, 12, 13, 14, 15);
    __m256 y0, y1;
    __m256i w0, w1, t, lo, hi;
    if (!QUANT__HALF || out == QUANT__W4_F32) return i;
    y0 = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(n0, vz)), vs);
    y1 = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(n1, vz)), vs);
    w0 = out == QUANT__W4_BF16 ? quant__v_bf16(y0) : quant__v_f16(y0);
    w1 = out == QUANT__W4_BF16 ? quant__v_bf16(y1) : quant__v_f16(y1);
    /* the 16 results as words in order, then their low bytes in the low
       128 bits and high bytes in the high 128, each copied to both halves */
    t = _mm256_permute4x64_epi64(_mm256_packus_epi32(w0, w1), 0xD8);
    t = _mm256_shuffle_epi8(t, _mm256_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15,
                                                0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15));
    t = _mm256_permute4x64_epi64(t, 0xD8);
    lo = _mm256_permute2x128_si256(t, t, 0x00);
    hi = _mm256_permute2x128_si256(t, t, 0x11);
    for (; i + 32 <= end; i += 32) {
        /* 16 bytes to 16 words; nibble k of the 32 in byte k: (b | b << 4) & 0x0F0F; then
           nibbles 0-7 and 16-23 in the low half, 8-15 and 24-31 in the high half, so that
           the in-half byte interleave below gives results 0-15 and 16-31 in order */
        const __m256i b = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(src + (i >> 1))));
        const __m256i k = _mm256_permute4x64_epi64(
            _mm256_and_si256(_mm256_or_si256(b, _mm256_slli_epi16(b, 4)), _mm256_set1_epi16(0x0F0F)), 0xD8);
        const __m256i l = _mm256_shuffle_epi8(lo, k), h = _mm256_shuffle_epi8(hi, k);
        _mm256_storeu_si256((__m256i *)(void *)((uint16_t *)dst + i), _mm256_unpacklo_epi8(l, h));
        _mm256_storeu_si256((__m256i *)(void *)((uint16_t *)dst + i + 16), _mm256_unpackhi_epi8(l, h));
    }
    return i;
}
#else
#  define QUANT__W4_LUT 0
#  define QUANT__W4_LUT_F32 0
#endif

/* Whole bytes from element i (even) to end, 2 * QUANT__W elements at a
   time: W bytes give the even elements (low nibbles) and the odd ones
   (high nibbles) as two vectors; a 16-bit result packs each pair into one
   32-bit lane, a 32-bit one interleaves them. Returns where it stopped. */
QUANT__INLINE size_t quant__v_w4_run(const uint8_t *src, void *dst, size_t i, size_t end, float s, int32_t z,
                                     const unsigned sgn, const unsigned out)
{
    const quant__vf vs = quant__setf(s);
    const quant__vi vz = quant__seti(z), m15 = quant__seti(15), m8 = quant__seti(8);
    /* an infinite or NaN scale (the row kernels do not validate) can make
       a NaN, which the narrowing here does not handle: scalar code does */
    if (!QUANT__SCALES_OK(vs) || (quant__bits(s) & 0x7F800000u) == 0x7F800000u) return i;
#if QUANT__W4_LUT
    i = quant__w4_lut(src, dst, i, end, vs, z, sgn, out);
#endif
    for (; i + 2 * QUANT__W <= end; i += 2 * QUANT__W) {
        const quant__vi b = quant__ld8(src + (i >> 1), 0);
        quant__vi lo = quant__and(b, m15), hi = quant__srl(b, 4);
        quant__vf yl, yh;
        if (sgn) { /* v - 2 * (v & 8) sign-extends a nibble */
            lo = quant__subi(lo, quant__sll(quant__and(lo, m8), 1));
            hi = quant__subi(hi, quant__sll(quant__and(hi, m8), 1));
        }
        yl = quant__mul(quant__i2f(quant__subi(lo, vz)), vs);
        yh = quant__mul(quant__i2f(quant__subi(hi, vz)), vs);
        if (!QUANT__HALF || out == QUANT__W4_F32) {
            quant__vf a, c;
            quant__zip(yl, yh, &a, &c);
            quant__stf((float *)dst + i, a);
            quant__stf((float *)dst + i + QUANT__W, c);
        } else {
            const quant__vi wl = out == QUANT__W4_BF16 ? quant__v_bf16(yl) : quant__v_f16(yl);
            const quant__vi wh = out == QUANT__W4_BF16 ? quant__v_bf16(yh) : quant__v_f16(yh);
            quant__stf((float *)(void *)((uint16_t *)dst + i), quant__asf(quant__or(wl, quant__sll(wh, 16))));
        }
    }
    return i;
}

/* quant__w4_body with the vector loop inside each group */
QUANT__INLINE void quant__v_w4_body(const uint8_t *src, void *dst, size_t n, const float *scales, const uint8_t *zps,
                                    size_t g, const unsigned sgn, const unsigned out)
{
    size_t i0 = 0, gi = 0;
    if (g == 0 || g > n) g = n;
#if QUANT__W4_LUT
    if (g % 32 == 0 && (QUANT__W4_LUT_F32 || out != QUANT__W4_F32)) {
        /* whole groups of a multiple of 32 elements (the usual weights):
           a table and its lookups each, and nothing else */
#if QUANT__PASS == QUANT_SIMD_AVX512
        const size_t h = quant__head(dst, 64, 64) / 4;
        if (out == QUANT__W4_F32 && h && !(h & 1u) && ((uintptr_t)dst & 3u) == 0)
            i0 = (gi = quant__w4_lut_f32a(src, (float *)dst, n / g, g, h, scales, zps, sgn)) * g;
#if QUANT__PASS_VBMI
#if QUANT__BF16I
        else if (g == 32 && out == QUANT__W4_BF16 && QUANT__BF16I_ON)
            i0 = (gi = quant__w4_vbmi_g32_bf16i(src, (uint16_t *)dst, n / g, scales, zps, sgn)) * g;
#endif
        else if (g == 32 && out != QUANT__W4_F32)
            i0 = (gi = quant__w4_vbmi_g32(src, (uint16_t *)dst, n / g, scales, zps, sgn, out)) * g;
#endif
        else if (g == 32) i0 = (gi = quant__w4_lut_g32(src, dst, n / g, scales, zps, sgn, out)) * g;
#endif
        for (; gi < n / g; ++gi, i0 += g) {
            const float s = scales[gi];
            if ((quant__bits(s) & 0x7F800000u) == 0x7F800000u) break;
            quant__w4_lut(src, dst, i0, i0 + g, quant__setf(s), zps ? quant__nib(zps, gi, sgn) : 0, sgn, out);
        }
    }
#endif
    for (; i0 < n; i0 += g, ++gi) {
        const size_t len = n - i0 < g ? n - i0 : g, end = i0 + len;
        const float s = scales[gi];
        const int32_t z = zps ? quant__nib(zps, gi, sgn) : 0;
        size_t i = i0;
        if (i & 1u) { quant__w4_put(dst, i, (float)(quant__nib(src, i, sgn) - z) * s, out); ++i; }
        i = quant__v_w4_run(src, dst, i, end, s, z, sgn, out);
        for (; i < end; ++i) quant__w4_put(dst, i, (float)(quant__nib(src, i, sgn) - z) * s, out);
    }
}

/* each (sign, destination) a loop of its own, with constants in it */
QUANT__PRIVATE void quant__simd_w4(const uint8_t *src, void *dst, size_t n, const float *scales, const uint8_t *zps,
                                   size_t g, unsigned sgn, unsigned out)
{
    switch (sgn * 3u + out) {
    case 0: quant__v_w4_body(src, dst, n, scales, zps, g, 0, QUANT__W4_F32); break;
    case 1: quant__v_w4_body(src, dst, n, scales, zps, g, 0, QUANT__W4_F16); break;
    case 2: quant__v_w4_body(src, dst, n, scales, zps, g, 0, QUANT__W4_BF16); break;
    case 3: quant__v_w4_body(src, dst, n, scales, zps, g, 1, QUANT__W4_F32); break;
    case 4: quant__v_w4_body(src, dst, n, scales, zps, g, 1, QUANT__W4_F16); break;
    default: quant__v_w4_body(src, dst, n, scales, zps, g, 1, QUANT__W4_BF16); break;
    }
}

#elif QUANT__PART == 3

#if QUANT__DISPATCH
QUANT__PRIVATE void quant__simd_w4_x86(const uint8_t *src, void *dst, size_t n, const float *scales, const uint8_t *zps,
                                       size_t g, unsigned sgn, unsigned out)
{
    QUANT__PICK(quant__simd_w4, (src, dst, n, scales, zps, g, sgn, out));
}
#endif
#if QUANT__SIMD_ANY
#  define quant__w4 QUANT__BK(quant__simd_w4)
#else
#  define quant__w4 quant__scalar_w4
#endif

#endif

/* ---- >>unit fp4: f4_e2m1 codes, e8m0 and f8_e4m3 scales ---------------- */
#if QUANT__PART == 1 && QUANT__MX

/* The e2m1 code of a quotient v: the nearest of +-{0, .5, 1, 1.5, 2, 3, 4,
   6}, ties to the even code (0.25 -> 0, 0.75 -> 1, 1.25 -> 1, 1.75 -> 2,
   2.5 -> 2, 3.5 -> 4, 5 -> 4), beyond 6 and Inf 6, v's sign kept (-0 and
   small negatives give 0x8). The magnitude code counts the midpoints |v|
   passes: strictly where the code below is even, or reaching it where the
   code above is. NaN gives 0 (the zero point), or under onednn (nan6) 6
   with x's sign, as oneDNN's float2e2m1 does. */
QUANT__INLINE unsigned quant__f4_code(float v, float x, int nan6)
{
    const uint32_t u = quant__bits(v);
    const float a = quant__float(u & 0x7FFFFFFFu);
    if (a != a) return nan6 ? (quant__bits(x) >> 28 & 8u) | 7u : 0u;
    return (u >> 28 & 8u) | ((unsigned)(a > 0.25f) + (unsigned)(a >= 0.75f) + (unsigned)(a > 1.25f) + (unsigned)(a >= 1.75f) +
                             (unsigned)(a > 2.5f) + (unsigned)(a >= 3.5f) + (unsigned)(a > 5.0f));
}

/* the value of an e2m1 code: its magnitude in halves, times 0.5, signed */
QUANT__INLINE float quant__f4_value(unsigned c)
{
    static const unsigned char halves[8] = { 0, 1, 2, 3, 4, 6, 8, 12 };
    const float a = (float)halves[c & 7u] * 0.5f;
    return (c & 8u) ? -a : a;
}

/* an e8m0 scale: 2^(c - 127), code 0 the subnormal 2^-127, 0xFF NaN */
QUANT__INLINE float quant__e8m0_value(uint8_t c)
{
    return c == 0xFFu ? quant__float(0x7FC00000u) : c == 0 ? quant__float(0x00400000u) : quant__float((uint32_t)c << 23);
}

/* an f8_e4m3 scale, exactly: S.EEEE.MMM, bias 7, subnormal steps 2^-9, NaN
   S.1111.111 */
QUANT__INLINE float quant__e4m3_value(uint8_t c)
{
    const uint32_t sign = (uint32_t)(c & 0x80u) << 24, a = c & 0x7Fu;
    if (a == 0x7Fu) return quant__float(sign | 0x7FC00000u);
    if (a < 8u) return quant__float(quant__bits((float)(int32_t)a * quant__float(118u << 23)) | sign);
    return quant__float(sign | ((a << 20) + (120u << 23)));
}

enum { QUANT__F4_F32 = 0, QUANT__F4_F16 = 1, QUANT__F4_BF16 = 2 };

/* scale gi of a row's scales (stype QUANT_F32, QUANT_E8M0 or QUANT_F8_E4M3),
   times tscale when not 0, as the ops fold it */
QUANT__INLINE float quant__f4_scale(const void *scales, size_t gi, unsigned stype, float tscale)
{
    const uint8_t c = ((const uint8_t *)scales)[gi];
    float s = stype == QUANT_E8M0 ? quant__e8m0_value(c) : stype == QUANT_F8_E4M3 ? quant__e4m3_value(c)
            : ((const float *)scales)[gi];
    if (tscale != 0.0f) s *= tscale;
    return s;
}

/* A packed f4_e2m1 row from element 0 (src's low nibble), n elements, a
   group of g (0: one group) at a time: the group's scale (stype QUANT_F32,
   QUANT_E8M0 or QUANT_F8_E4M3, times tscale when not 0) makes a table of
   its 16 results, fl(decode(j) * s), rounded once more for a 16-bit out,
   and each element is a lookup: exactly the per-element arithmetic. */
QUANT__NOINLINE void quant__f4_row(const uint8_t *src, void *dst, size_t n, const void *scales, unsigned stype, float tscale,
                                   size_t g, unsigned out)
{
    float t[16];
    uint16_t h[16];
    size_t i0, gi = 0, i;
    unsigned j;
    if (g == 0 || g > n) g = n;
    for (i0 = 0; i0 < n; i0 += g, ++gi) {
        const size_t end = n - i0 < g ? n : i0 + g;
        const float s = quant__f4_scale(scales, gi, stype, tscale);
        for (j = 0; j < 16; ++j) {
            t[j] = quant__f4_value(j) * s;
#if QUANT__HALF
            h[j] = out == QUANT__F4_F16 ? quant__f32_to_f16(t[j]) : quant__f32_to_bf16(t[j]);
#else
            h[j] = 0;
#endif
        }
        i = i0;
        if (out == QUANT__F4_F32) {
            float *y = (float *)dst;
            if (i & 1u) { y[i] = t[src[i >> 1] >> 4]; ++i; }
            for (; i + 2 <= end; i += 2) { const unsigned b = src[i >> 1]; y[i] = t[b & 15u]; y[i + 1] = t[b >> 4]; }
            if (i < end) y[i] = t[src[i >> 1] & 15u];
        } else {
            uint16_t *y = (uint16_t *)dst;
            if (i & 1u) { y[i] = h[src[i >> 1] >> 4]; ++i; }
            for (; i + 2 <= end; i += 2) { const unsigned b = src[i >> 1]; y[i] = h[b & 15u]; y[i + 1] = h[b >> 4]; }
            if (i < end) y[i] = h[src[i >> 1] & 15u];
        }
    }
}

/* len elements of x with scales sc[k * sstep] into packed f4_e2m1 codes
   from element e of d (the other nibble of a byte kept): the quotient of
   flags f, x * fl(1/s) under QUANT__F_RECIP, else x / s; with clamp (the
   MX schemes' fused quantize under onednn) the quotient clamped to +-6,
   NaN to -6, first; else NaN gives 0, or under onednn 6 with x's sign */
QUANT__NOINLINE void quant__f4_enc(const float *x, uint8_t *d, size_t e, size_t len, const float *sc, size_t sstep, unsigned f,
                                   int clamp)
{
    const int nan6 = !clamp && (f & QUANT__F_RECIP) && (f & QUANT__F_ZP_BEFORE);
    size_t k;
    for (k = 0; k < len; ++k, ++e) {
        const float s = sc[k * sstep], r = 1.0f / s;
        float v = (f & QUANT__F_RECIP) ? x[k] * r : x[k] / s;
        unsigned c, sh = (unsigned)(e & 1u) * 4u;
        if (clamp) v = v > -6.0f ? (v < 6.0f ? v : 6.0f) : -6.0f; /* NaN fails the first test */
        c = quant__f4_code(v, x[k], nan6);
        d[e >> 1] = (uint8_t)(((unsigned)d[e >> 1] & (0xF0u >> sh)) | c << sh);
    }
}

#elif QUANT__PART == 2 && QUANT__MX

#if QUANT__PASS == QUANT_SIMD_AVX512
/* AVX-512: a group's 16 results in one register (one multiply of the 16
   code values), each 16 elements a vpermps of indices from 8 bytes (f32)
   or a vpermw of the narrowed table (f16, bf16); groups of a multiple of
   16 (MXFP4's 32, NVFP4's 16), the rest of a short last group by the
   scalar table */
/* MXFP4 to bf16 or f16, 16 groups of 32 (nb bytes of codes, 16 e8m0
   scales) at a time: with every scale code in [lo, hi], decode(j) * 2^(c -
   127) is a normal number of the output type for each non-zero code j, and
   its bits are j's bits with the exponent moved by c - 127: the group's
   table is one masked add of that shift to a constant table (codes 0 and 8,
   the zeros, kept), and each 32 elements a vpermw. Returns 0 (nothing
   written) when a scale is out of that range. */
QUANT__INLINE int quant__f4_pow2_block(const uint8_t *src, uint16_t *dst, const uint8_t *e8, unsigned out)
{
    const __m512i base = out == QUANT__F4_BF16
        ? _mm512_setr_epi32(0x3F000000, 0x3FC03F80, 0x40404000, 0x40C04080, (int)0xBF008000u, (int)0xBFC0BF80u,
                            (int)0xC040C000u, (int)0xC0C0C080u, 0, 0, 0, 0, 0, 0, 0, 0)
        : _mm512_setr_epi32(0x38000000, 0x3E003C00, 0x42004000, 0x46004400, (int)0xB8008000u, (int)0xBE00BC00u,
                            (int)0xC200C000u, (int)0xC600C400u, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m128i c = _mm_loadu_si128((const __m128i *)(const void *)e8);
    const __m512i m = _mm512_set1_epi32(0x000F000F);
    int16_t sh[16];
    int j;
    /* bf16: 0.5 * 2^k >= 2^-126 and 6 * 2^k < 2^128; f16: 2^-14 and 65504 */
    if (_mm_cmp_epu8_mask(c, _mm_set1_epi8((char)(out == QUANT__F4_BF16 ? 2 : 114)), _MM_CMPINT_LT) |
        _mm_cmp_epu8_mask(c, _mm_set1_epi8((char)(out == QUANT__F4_BF16 ? 252 : 140)), _MM_CMPINT_NLE))
        return 0;
    _mm256_storeu_si256((__m256i *)(void *)sh,
                        _mm256_slli_epi16(_mm256_sub_epi16(_mm256_cvtepu8_epi16(c), _mm256_set1_epi16(127)),
                                          out == QUANT__F4_BF16 ? 7 : 10));
    for (j = 0; j < 16; ++j) {
        const __m512i t = _mm512_mask_add_epi16(base, 0xFEFEu, base, _mm512_set1_epi16(sh[j]));
        const __m512i d = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(src + 16 * j)));
        const __m512i k = _mm512_ternarylogic_epi32(d, _mm512_slli_epi32(d, 12), m, 0xA8);
        _mm512_storeu_si512((void *)(dst + 32 * j), _mm512_permutexvar_epi16(k, t));
    }
    return 1;
}

/* Groups of 16 to 16 bits (NVFP4), two a step: both groups' tables in
   the 32 words of one register (the second's indices get bit 4), each
   32 elements one vpermw; sb holds the 2 * np scales as the ops fold them.
   f16 tables by vcvtps2ph, bf16 ones by the scalar code's rounding. */
QUANT__INLINE void quant__f4_g16_pairs(const uint8_t *src, uint16_t *dst, size_t np, const float *sb, unsigned out)
{
    const __m512 vals = _mm512_setr_ps(0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f,
                                       -0.0f, -0.5f, -1.0f, -1.5f, -2.0f, -3.0f, -4.0f, -6.0f);
    const __m512i m = _mm512_set1_epi32(0x000F000F), hi = _mm512_maskz_mov_epi32(0xFF00u, _mm512_set1_epi32(0x00100010));
    size_t k;
    for (k = 0; k < np; ++k) {
        const __m512 ya = _mm512_mul_ps(vals, _mm512_set1_ps(sb[2 * k])), yb = _mm512_mul_ps(vals, _mm512_set1_ps(sb[2 * k + 1]));
        const __m512i d = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(src + 16 * k)));
        const __m512i i = _mm512_or_si512(_mm512_ternarylogic_epi32(d, _mm512_slli_epi32(d, 12), m, 0xA8), hi);
        __m512i t;
        if (out == QUANT__F4_F16)
            t = _mm512_inserti64x4(_mm512_castsi256_si512(quant__v_ph(ya)), quant__v_ph(yb), 1);
        else
            t = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi32_epi16(quant__v_to_half(ya, 1))),
                                   _mm512_cvtepi32_epi16(quant__v_to_half(yb, 1)), 1);
        _mm512_storeu_si512((void *)(dst + 32 * k), _mm512_permutexvar_epi16(i, t));
    }
}
#undef QUANT__F4_BF16I
#if QUANT__PASS_VBMI && defined(QUANT__BF16I) && QUANT__BF16I
#  define QUANT__F4_BF16I 1
/* the same to bf16 with AVX512-BF16: one vcvtne2ps2bf16 rounds both
   tables (it flushes subnormals: the caller keeps it to scales whose
   products are normal or zero) */
QUANT__BF16I_FN void quant__f4_g16_pairs_bf16i(const uint8_t *src, uint16_t *dst, size_t np, const float *sb)
{
    const __m512 vals = _mm512_setr_ps(0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f,
                                       -0.0f, -0.5f, -1.0f, -1.5f, -2.0f, -3.0f, -4.0f, -6.0f);
    const __m512i m = _mm512_set1_epi32(0x000F000F), hi = _mm512_maskz_mov_epi32(0xFF00u, _mm512_set1_epi32(0x00100010));
    size_t k;
    for (k = 0; k < np; ++k) {
        const __m512 ya = _mm512_mul_ps(vals, _mm512_set1_ps(sb[2 * k])), yb = _mm512_mul_ps(vals, _mm512_set1_ps(sb[2 * k + 1]));
        const __m512i d = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(src + 16 * k)));
        const __m512i i = _mm512_or_si512(_mm512_ternarylogic_epi32(d, _mm512_slli_epi32(d, 12), m, 0xA8), hi);
        _mm512_storeu_si512((void *)(dst + 32 * k), _mm512_permutexvar_epi16(i, (__m512i)_mm512_cvtne2ps_pbh(yb, ya)));
    }
}
#else
#  define QUANT__F4_BF16I 0
#endif

QUANT__PRIVATE void quant__simd_f4_row(const uint8_t *src, void *dst, size_t n, const void *scales, unsigned stype,
                                       float tscale, size_t g, unsigned out)
{
    const __m512 vals = _mm512_setr_ps(0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f,
                                       -0.0f, -0.5f, -1.0f, -1.5f, -2.0f, -3.0f, -4.0f, -6.0f);
    const __m256i m = _mm256_set1_epi32(0x000F000F);
    size_t i0, gi = 0, i;
    int pow2;
    if (g == 0 || g > n) g = n;
    if (g % 16u != 0) { quant__f4_row(src, dst, n, scales, stype, tscale, g, out); return; }
    if (g == 16 && out != QUANT__F4_F32 && n >= 64) {
        /* NVFP4 to 16 bits: blocks of up to 32 whole groups, their scales
           decoded and folded once, two groups a step */
        float sb[32];
        const size_t whole = n / 32 * 2; /* groups, in pairs */
        while (gi < whole) {
            const size_t cnt = whole - gi < 32 ? whole - gi : 32;
            size_t k;
            int tiny = 0;
            for (k = 0; k + 16 <= cnt && stype == QUANT_F8_E4M3; k += 16) {
                /* 16 e4m3 codes decoded as quant__e4m3_value does: S.EEEE.MMM, bias 7, steps of 2^-9 below 2^-6, NaN S.1111.111 */
                const __m512i c = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)((const uint8_t *)scales + gi + k)));
                const __m512i a = _mm512_and_si512(c, _mm512_set1_epi32(0x7F));
                __m512 v = _mm512_castsi512_ps(_mm512_add_epi32(_mm512_slli_epi32(a, 20), _mm512_set1_epi32(120 << 23)));
                v = _mm512_mask_mul_ps(v, _mm512_cmplt_epi32_mask(a, _mm512_set1_epi32(8)), _mm512_cvtepi32_ps(a), _mm512_set1_ps(1.0f / 512.0f));
                v = _mm512_mask_mov_ps(v, _mm512_cmpeq_epi32_mask(a, _mm512_set1_epi32(0x7F)), _mm512_castsi512_ps(_mm512_set1_epi32(0x7FC00000)));
                v = _mm512_castsi512_ps(_mm512_or_si512(_mm512_castps_si512(v), _mm512_slli_epi32(_mm512_and_si512(c, _mm512_set1_epi32(0x80)), 24)));
                if (tscale != 0.0f) v = _mm512_mul_ps(v, _mm512_set1_ps(tscale));
                _mm512_storeu_ps(sb + k, v);
                /* below 2^-125 (0.5 s subnormal), not 0 */
                tiny |= _mm512_mask_cmplt_epu32_mask(_mm512_test_epi32_mask(_mm512_castps_si512(v), _mm512_set1_epi32(0x7FFFFFFF)),
                                                     _mm512_and_si512(_mm512_castps_si512(v), _mm512_set1_epi32(0x7FFFFFFF)),
                                                     _mm512_set1_epi32(0x01000000)) != 0;
            }
            for (; k < cnt; ++k) {
                const uint32_t a = quant__bits(sb[k] = quant__f4_scale(scales, gi + k, stype, tscale)) & 0x7FFFFFFFu;
                tiny |= a != 0 && a < 0x01000000u; /* below 2^-125: 0.5 s is subnormal */
            }
#if QUANT__F4_BF16I
            if (out == QUANT__F4_BF16 && !tiny && QUANT__BF16I_ON)
                quant__f4_g16_pairs_bf16i(src + gi * 8, (uint16_t *)dst + gi * 16, cnt / 2, sb);
            else
#endif
                quant__f4_g16_pairs(src + gi * 8, (uint16_t *)dst + gi * 16, cnt / 2, sb, out);
            (void)tiny; /* read only with AVX512-BF16 */
            gi += cnt;
        }
    }
    /* MXFP4 to 16 bits: 512 elements at a time by exponent adds where the
       scales allow, else (and for the rest) a group at a time */
    pow2 = stype == QUANT_E8M0 && tscale == 0.0f && g == 32 && out != QUANT__F4_F32;
    for (i0 = gi * g; i0 < n;) {
        const size_t stop = pow2 && n - i0 > 512 ? i0 + 512 : n;
        if (pow2 && n - i0 >= 512 &&
            quant__f4_pow2_block(src + (i0 >> 1), (uint16_t *)dst + i0, (const uint8_t *)scales + gi, out)) {
            i0 += 512;
            gi += 16;
            continue;
        }
        for (; i0 < stop; i0 += g, ++gi) {
            const size_t end = n - i0 < g ? n : i0 + g;
            const float s = quant__f4_scale(scales, gi, stype, tscale);
            const __m512 y = _mm512_mul_ps(vals, _mm512_set1_ps(s));
            i = i0; /* even: groups are whole bytes */
            if (out == QUANT__F4_F32) {
                for (; i + 16 <= end; i += 16)
                    _mm512_storeu_ps((float *)dst + i, _mm512_permutexvar_ps(quant__w4_idx16(src + (i >> 1)), y));
            } else {
                /* the table narrowed as the scalar code narrows it, NaN included */
                const __m256i t = _mm512_cvtepi32_epi16(quant__v_to_half(y, out == QUANT__F4_BF16));
                const __m512i t2 = _mm512_castsi256_si512(t), m2 = _mm512_set1_epi32(0x000F000F);
                for (; i + 32 <= end; i += 32) { /* 16 bytes to 32 words, as below */
                    const __m512i d = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(src + (i >> 1))));
                    const __m512i k = _mm512_ternarylogic_epi32(d, _mm512_slli_epi32(d, 12), m2, 0xA8);
                    _mm512_storeu_si512((void *)((uint16_t *)dst + i), _mm512_permutexvar_epi16(k, t2));
                }
                for (; i + 16 <= end; i += 16) {
                    /* 8 bytes to 16 words, nibble k of the 16 in word k: (b | b << 12) & 0x000F000F */
                    const __m256i d = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)(src + (i >> 1))));
                    const __m256i k = _mm256_ternarylogic_epi32(d, _mm256_slli_epi32(d, 12), m, 0xA8);
                    _mm256_storeu_si256((__m256i *)(void *)((uint16_t *)dst + i), _mm256_permutexvar_epi16(k, t));
                }
            }
            if (i < end) /* a short last group: the rest by the scalar table */
                quant__f4_row(src + (i >> 1), out == QUANT__F4_F32 ? (void *)((float *)dst + i) : (void *)((uint16_t *)dst + i),
                              end - i, &s, QUANT_F32, 0.0f, 0, out);
        }
    }
}

/* The e2m1 codes of 16 quotients v (x the elements, for onednn's NaN
   rule), in dwords: with a = min(|v|, 6), 2e + rne(a * 2^(1-e)), e = 0
   below 2, 1 below 4, else 2: e2m1 has steps of 0.5 below 2, of 1 up to 4
   and of 2 above, and the ties to even code are the ties to even of that
   integer (0.25 -> 0, 1.75 -> 4, 2.5 -> 4, 5 -> 6); v's sign kept; NaN
   gives 0, or with nan6 7 with x's sign. */
QUANT__INLINE __m512i quant__v_f4_codes(__m512 v, __m512 xv, int nan6)
{
    const __m512 six = _mm512_set1_ps(6.0f), one = _mm512_set1_ps(1.0f);
    const __m512i two = _mm512_set1_epi32(2), eight = _mm512_set1_epi32(8);
    const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    __m512 a = _mm512_min_ps(_mm512_abs_ps(v), six); /* NaN: 6, replaced below */
    const __mmask16 ge2 = _mm512_cmp_ps_mask(a, _mm512_set1_ps(2.0f), _CMP_GE_OQ);
    const __mmask16 ge4 = _mm512_cmp_ps_mask(a, _mm512_set1_ps(4.0f), _CMP_GE_OQ);
    __m512i c;
    a = _mm512_mul_ps(a, _mm512_mask_mov_ps(_mm512_mask_mov_ps(_mm512_set1_ps(2.0f), ge2, one), ge4, _mm512_set1_ps(0.5f)));
    c = quant__cvt(a); /* to nearest even, as every kernel here rounds */
    c = _mm512_mask_add_epi32(c, ge2, c, two);
    c = _mm512_mask_add_epi32(c, ge4, c, two);
    /* c | (sign >> 28 & 8) */
    c = _mm512_ternarylogic_epi32(c, _mm512_srli_epi32(_mm512_castps_si512(v), 28), eight, 0xF8);
    if (nan6)
        return _mm512_mask_mov_epi32(c, nan, _mm512_ternarylogic_epi32(_mm512_set1_epi32(7), _mm512_srli_epi32(_mm512_castps_si512(xv), 28),
                                                                       eight, 0xF8));
    return _mm512_maskz_mov_epi32((__mmask16)~nan, c);
}

/* 16 codes in dwords packed to 8 bytes at d: two a qword, the odd one's
   nibble beside the even one's, byte 0 of each qword */
QUANT__INLINE void quant__v_f4_store(uint8_t *d, __m512i c)
{
    _mm_storel_epi64((__m128i *)(void *)d, _mm512_cvtepi64_epi8(_mm512_or_si512(c, _mm512_srli_epi64(c, 28))));
}

/* quant__f4_enc 16 elements at a time from an even element. A quotient by
   a power of two is the product by its exact reciprocal. */
QUANT__PRIVATE void quant__simd_f4_enc(const float *x, uint8_t *d, size_t e, size_t len, const float *sc, size_t sstep,
                                       unsigned f, int clamp)
{
    const int nan6 = !clamp && (f & QUANT__F_RECIP) && (f & QUANT__F_ZP_BEFORE);
    const uint32_t su = len ? quant__bits(sc[0]) & 0x7FFFFFFFu : 0u;
    /* one scale, a power of two of at least 2^-127: its reciprocal is exact */
    const int mul = (f & QUANT__F_RECIP) || (!sstep && ((su & 0x7FFFFFu) == 0 || su == 0x00400000u) && su != 0);
    const __m512 one = _mm512_set1_ps(1.0f), r1 = _mm512_set1_ps(len ? 1.0f / sc[0] : 1.0f);
    size_t k = 0;
    if (e & 1u) { quant__f4_enc(x, d, e, 1, sc, sstep, f, clamp); k = 1; }
    for (; k + 16 <= len; k += 16) {
        const __m512 xv = _mm512_loadu_ps(x + k);
        const __m512 sv = sstep ? _mm512_loadu_ps(sc + k) : _mm512_set1_ps(sc[0]);
        __m512 v = !mul ? _mm512_div_ps(xv, sv) : _mm512_mul_ps(xv, sstep ? _mm512_div_ps(one, sv) : r1);
        if (clamp)
            v = _mm512_mask_min_ps(_mm512_set1_ps(-6.0f), _mm512_cmp_ps_mask(v, _mm512_set1_ps(-6.0f), _CMP_GT_OQ), v,
                                   _mm512_set1_ps(6.0f));
        quant__v_f4_store(d + ((e + k) >> 1), quant__v_f4_codes(v, xv, nan6));
    }
    if (k < len) quant__f4_enc(x + k, d, e + k, len - k, sc + k * sstep, sstep, f, clamp);
}

/* The fused quantize of QUANT_MX (rceil: QUANT_MX_RCEIL) from f32 to f4
   (f8: 0) or, under flags f, to f8, ng groups of g elements (a multiple
   of 16) one after another, outside onednn: each group's amax (NaN
   skipped), its e8m0 code as quant__mx_scale gives it (written to e8, or
   its value to s32 when e8 is NULL), and the group's codes from the
   product with 2^(127 - c), exactly the quotient by 2^(c - 127). Stops
   before a group whose amax is infinite; returns the groups done. */
QUANT__PRIVATE size_t quant__simd_mx4_fused(const float *x, uint8_t *q, uint8_t *e8, float *s32, size_t ng, size_t g, int rceil,
                                            int f4, unsigned f)
{
    /* E(max) - 127 of the type: 6 = 1.5 * 2^2, 448 = 1.75 * 2^8, 57344 = 1.75 * 2^15 */
    const int emax = f4 ? 2 : (f & QUANT__F_E5M2) ? 15 : 8;
    const float max = f4 ? 6.0f : (f & QUANT__F_E5M2) ? 57344.0f : 448.0f;
    size_t gi, k;
    for (gi = 0; gi < ng; ++gi, x += g, q += f4 ? g / 2 : g) {
        __m512 m = _mm512_setzero_ps();
        float amax;
        unsigned c;
        for (k = 0; k < g; k += 16) m = _mm512_max_ps(_mm512_abs_ps(_mm512_loadu_ps(x + k)), m); /* NaN: m */
        amax = _mm512_reduce_max_ps(m);
        if (!(amax <= 3.40282347e38f)) return gi;
        if (!rceil) { /* E(amax) - E(max) */
            const int ce = (int)(quant__bits(amax) >> 23) - emax;
            c = ce < 0 ? 0u : (unsigned)ce;
        } else { /* the smallest power of two >= amax / max */
            const uint32_t u = quant__bits(amax / max);
            c = (u >> 23) == 0 ? (u > 0x00400000u) : (u >> 23) + ((u & 0x7FFFFFu) != 0);
            c = c > 254u ? 254u : c;
        }
        if (e8) e8[gi] = (uint8_t)c;
        else s32[gi] = quant__float(c ? c << 23 : 0x00400000u);
        {
            const __m512 r = _mm512_castsi512_ps(_mm512_set1_epi32(c < 254u ? (int)((254u - c) << 23) : 0x00400000));
            for (k = 0; k < g; k += 16) {
                const __m512 xv = _mm512_loadu_ps(x + k);
#ifndef QUANT_NO_F8
                if (!f4) quant__st8(q + k, quant__v_f8_enc(xv, _mm512_mul_ps(xv, r), f), 0);
                else
#endif
                    quant__v_f4_store(q + k / 2, quant__v_f4_codes(_mm512_mul_ps(xv, r), xv, 0));
            }
        }
    }
    return ng;
}
#else
/* elsewhere the scalar table kernel, compiled for the pass */
QUANT__PRIVATE void quant__simd_f4_row(const uint8_t *src, void *dst, size_t n, const void *scales, unsigned stype,
                                       float tscale, size_t g, unsigned out)
{
    quant__f4_row(src, dst, n, scales, stype, tscale, g, out);
}
QUANT__PRIVATE void quant__simd_f4_enc(const float *x, uint8_t *d, size_t e, size_t len, const float *sc, size_t sstep,
                                       unsigned f, int clamp)
{
    quant__f4_enc(x, d, e, len, sc, sstep, f, clamp);
}
/* no fused kernel here: SIZE_MAX, and the op layer's path */
QUANT__PRIVATE size_t quant__simd_mx4_fused(const float *x, uint8_t *q, uint8_t *e8, float *s32, size_t ng, size_t g, int rceil,
                                            int f4, unsigned f)
{
    (void)x; (void)q; (void)e8; (void)s32; (void)ng; (void)g; (void)rceil; (void)f4; (void)f;
    return SIZE_MAX;
}
#endif
/* groups of g elements of a line, scale sc[k] for group k: one call of the
   encoder a group, within the pass */
QUANT__PRIVATE void quant__simd_f4_enc_g(const float *x, uint8_t *d, size_t e, size_t len, size_t g, const float *sc, unsigned f,
                                         int clamp)
{
    size_t k;
    for (k = 0; k < len; k += g) quant__simd_f4_enc(x + k, d, e + k, len - k < g ? len - k : g, sc + k / g, 0, f, clamp);
}

#elif QUANT__PART == 3 && QUANT__MX

#if QUANT__DISPATCH
QUANT__PRIVATE void quant__simd_f4_row_x86(const uint8_t *src, void *dst, size_t n, const void *scales, unsigned stype,
                                           float tscale, size_t g, unsigned out)
{
    QUANT__PICK(quant__simd_f4_row, (src, dst, n, scales, stype, tscale, g, out));
}
QUANT__PRIVATE void quant__simd_f4_enc_x86(const float *x, uint8_t *d, size_t e, size_t len, const float *sc, size_t sstep,
                                           unsigned f, int clamp)
{
    QUANT__PICK(quant__simd_f4_enc, (x, d, e, len, sc, sstep, f, clamp));
}
QUANT__PRIVATE size_t quant__simd_mx4_fused_x86(const float *x, uint8_t *q, uint8_t *e8, float *s32, size_t ng, size_t g, int rceil,
                                                int f4, unsigned f)
{
    size_t r = SIZE_MAX;
    QUANT__PICK(r = quant__simd_mx4_fused, (x, q, e8, s32, ng, g, rceil, f4, f));
    return r;
}
QUANT__PRIVATE void quant__simd_f4_enc_g_x86(const float *x, uint8_t *d, size_t e, size_t len, size_t g, const float *sc, unsigned f,
                                             int clamp)
{
    QUANT__PICK(quant__simd_f4_enc_g, (x, d, e, len, g, sc, f, clamp));
}
#endif
#if QUANT__SIMD_ANY
#  define quant__f4_rowk QUANT__BK(quant__simd_f4_row)
#  define quant__f4_enck QUANT__BK(quant__simd_f4_enc)
#  define quant__f4_enck_g QUANT__BK(quant__simd_f4_enc_g)
#  define quant__mx4k QUANT__BK(quant__simd_mx4_fused)
#else
#  define quant__f4_rowk quant__f4_row
#  define quant__f4_enck quant__f4_enc
#endif

#endif

/* ---- >>unit minmax: the range of the data, NaN skipped ------------------ */
/* For choosing scales from the data: the least and greatest element of a
   run (minmax), or column by column of runs laid over one another
   (minmax_cols). lo and hi come in holding the range so far and leave
   holding it widened. A NaN is neither less nor greater than anything, so
   it changes neither; which zero comes out of -0 against +0 depends on the
   order, so the op layer takes a zero bound as +0. half: the elements are
   f32 (0), bf16 (1) or f16 (2). */
#if QUANT__PART == 1

QUANT__INLINE float quant__elem(const void *src, size_t i, int half)
{
    if (half == 1) return quant__bf16_to_f32(((const uint16_t *)src)[i]);
    if (half == 2) return quant__f16_to_f32(((const uint16_t *)src)[i]);
    return ((const float *)src)[i];
}

QUANT__PRIVATE void quant__scalar_minmax(const void *src, size_t n, int half, float *lo, float *hi)
{
    float a = *lo, b = *hi;
    size_t i;
    for (i = 0; i < n; ++i) {
        const float x = quant__elem(src, i, half);
        if (x < a) a = x;
        if (x > b) b = x;
    }
    *lo = a;
    *hi = b;
}

QUANT__PRIVATE void quant__scalar_minmax_cols(const void *src, size_t n, int half, float *lo, float *hi)
{
    size_t i;
    for (i = 0; i < n; ++i) {
        const float x = quant__elem(src, i, half);
        if (x < lo[i]) lo[i] = x;
        if (x > hi[i]) hi[i] = x;
    }
}

#elif QUANT__PART == 2

/* 32-bit NEON and Helium compares take subnormals as zero, which would
   pick the wrong one of two subnormal bounds: they reduce with the scalar
   code */
#if (QUANT__PASS == QUANT_SIMD_NEON && !defined(__aarch64__)) || QUANT__PASS == QUANT_SIMD_HELIUM
#  define QUANT__NEON32 1
#else
#  define QUANT__NEON32 0
#endif
#if QUANT__PASS == QUANT_SIMD_NEON
/* vminq_f32 and vmaxq_f32 would pass a NaN on: compare and select */
QUANT__INLINE quant__vf quant__v_lo(quant__vf x, quant__vf m) { return vbslq_f32(vcltq_f32(x, m), x, m); }
QUANT__INLINE quant__vf quant__v_hi(quant__vf x, quant__vf m) { return vbslq_f32(vcgtq_f32(x, m), x, m); }
#else
/* minps(x, m) is x < m ? x : m, and maxps likewise: a NaN x leaves m */
QUANT__INLINE quant__vf quant__v_lo(quant__vf x, quant__vf m) { return quant__min(x, m); }
QUANT__INLINE quant__vf quant__v_hi(quant__vf x, quant__vf m) { return quant__max(x, m); }
#endif
/* the least and greatest lane of a vector with no NaN in it, in registers */
#if QUANT__PASS == QUANT_SIMD_AVX512
QUANT__INLINE float quant__v_hlo(quant__vf v) { return _mm512_reduce_min_ps(v); }
QUANT__INLINE float quant__v_hhi(quant__vf v) { return _mm512_reduce_max_ps(v); }
#elif QUANT__PASS == QUANT_SIMD_NEON && defined(__aarch64__)
QUANT__INLINE float quant__v_hlo(quant__vf v) { return vminvq_f32(v); }
QUANT__INLINE float quant__v_hhi(quant__vf v) { return vmaxvq_f32(v); }
#elif QUANT__PASS == QUANT_SIMD_NEON
QUANT__INLINE float quant__v_hlo(quant__vf v)
{
    const float32x2_t t = vpmin_f32(vget_low_f32(v), vget_high_f32(v));
    return vget_lane_f32(vpmin_f32(t, t), 0);
}
QUANT__INLINE float quant__v_hhi(quant__vf v)
{
    const float32x2_t t = vpmax_f32(vget_low_f32(v), vget_high_f32(v));
    return vget_lane_f32(vpmax_f32(t, t), 0);
}
#elif QUANT__PASS == QUANT_SIMD_HELIUM
/* (unused: Helium's range search runs the scalar code, see above) */
QUANT__INLINE float quant__v_hlo(quant__vf v)
{
    float t[4];
    vst1q_f32(t, v);
    if (t[1] < t[0]) t[0] = t[1];
    if (t[3] < t[2]) t[2] = t[3];
    return t[2] < t[0] ? t[2] : t[0];
}
QUANT__INLINE float quant__v_hhi(quant__vf v)
{
    float t[4];
    vst1q_f32(t, v);
    if (t[1] > t[0]) t[0] = t[1];
    if (t[3] > t[2]) t[2] = t[3];
    return t[2] > t[0] ? t[2] : t[0];
}
#else
QUANT__INLINE __m128 quant__v_h4(quant__vf v, int hi)
{
#  if QUANT__PASS == QUANT_SIMD_AVX2
    const __m128 a = _mm256_castps256_ps128(v), b = _mm256_extractf128_ps(v, 1);
    return hi ? _mm_max_ps(a, b) : _mm_min_ps(a, b);
#  else
    (void)hi;
    return v;
#  endif
}
QUANT__INLINE float quant__v_hlo(quant__vf v)
{
    __m128 t = quant__v_h4(v, 0);
    t = _mm_min_ps(t, _mm_movehl_ps(t, t));
    return _mm_cvtss_f32(_mm_min_ss(t, _mm_shuffle_ps(t, t, 1)));
}
QUANT__INLINE float quant__v_hhi(quant__vf v)
{
    __m128 t = quant__v_h4(v, 1);
    t = _mm_max_ps(t, _mm_movehl_ps(t, t));
    return _mm_cvtss_f32(_mm_max_ss(t, _mm_shuffle_ps(t, t, 1)));
}
#endif

QUANT__INLINE void quant__v_minmax_body(const void *src, size_t n, const int half, float *lo, float *hi)
{
    const float *p = (const float *)src;
    const uint16_t *h = (const uint16_t *)src;
    quant__vf a0 = quant__setf(*lo), a1 = a0, a2 = a0, a3 = a0;
    quant__vf b0 = quant__setf(*hi), b1 = b0, b2 = b0, b3 = b0;
    size_t i = 0;
    if (n >= 8 * QUANT__W) {
        /* one vector where src starts, then on from where the loads are
           aligned (a load split over two cache lines costs from L2 on);
           the elements in between are looked at twice, which changes
           neither bound */
        const size_t es = half ? 2u : 4u, head = quant__head(src, es * QUANT__W, es * QUANT__W) / es;
        if (head) {
            const quant__vf x = quant__v_load(p, h, 0, half);
            a0 = quant__v_lo(x, a0);
            b0 = quant__v_hi(x, b0);
            i = head;
        }
    }
    /* four chains, so that the latency of one min or max does not bound the loop */
    for (; i + 4 * QUANT__W <= n; i += 4 * QUANT__W) {
        const quant__vf x0 = quant__v_load(p, h, i, half), x1 = quant__v_load(p, h, i + QUANT__W, half);
        const quant__vf x2 = quant__v_load(p, h, i + 2 * QUANT__W, half), x3 = quant__v_load(p, h, i + 3 * QUANT__W, half);
        a0 = quant__v_lo(x0, a0); b0 = quant__v_hi(x0, b0);
        a1 = quant__v_lo(x1, a1); b1 = quant__v_hi(x1, b1);
        a2 = quant__v_lo(x2, a2); b2 = quant__v_hi(x2, b2);
        a3 = quant__v_lo(x3, a3); b3 = quant__v_hi(x3, b3);
    }
    for (; i + QUANT__W <= n; i += QUANT__W) {
        const quant__vf x = quant__v_load(p, h, i, half);
        a0 = quant__v_lo(x, a0);
        b0 = quant__v_hi(x, b0);
    }
    /* no lane is NaN: they began as *lo and *hi */
    *lo = quant__v_hlo(quant__v_lo(quant__v_lo(a1, a0), quant__v_lo(a3, a2)));
    *hi = quant__v_hhi(quant__v_hi(quant__v_hi(b1, b0), quant__v_hi(b3, b2)));
    quant__scalar_minmax(half ? (const void *)(h + i) : (const void *)(p + i), n - i, half, lo, hi);
}

QUANT__INLINE void quant__v_minmax_cols_body(const void *src, size_t n, const int half, float *lo, float *hi)
{
    const float *p = (const float *)src;
    const uint16_t *h = (const uint16_t *)src;
    size_t i = 0;
    for (; i + QUANT__W <= n; i += QUANT__W) {
        const quant__vf x = quant__v_load(p, h, i, half);
        quant__stf(lo + i, quant__v_lo(x, quant__ldf(lo + i)));
        quant__stf(hi + i, quant__v_hi(x, quant__ldf(hi + i)));
    }
    quant__scalar_minmax_cols(half ? (const void *)(h + i) : (const void *)(p + i), n - i, half, lo + i, hi + i);
}

/* consecutive groups of g elements (the last may be shorter): group k's
   range into lo[k], hi[k]; one call for a row of small groups */
QUANT__INLINE void quant__v_minmax_groups_body(const void *src, size_t n, size_t g, const int half, float *lo, float *hi)
{
    const float *p = (const float *)src;
    const uint16_t *h = (const uint16_t *)src;
    size_t e, k;
    for (e = 0, k = 0; e < n; e += g, ++k)
        quant__v_minmax_body(half ? (const void *)(h + e) : (const void *)(p + e), n - e < g ? n - e : g, half, lo + k,
                             hi + k);
}

QUANT__PRIVATE void quant__simd_minmax_groups(const void *src, size_t n, size_t g, int half, float *lo, float *hi)
{
#if QUANT__NEON32
    {
        size_t e, k;
        for (e = 0, k = 0; e < n; e += g, ++k)
            quant__scalar_minmax((const char *)src + e * (half ? 2u : 4u), n - e < g ? n - e : g, half, lo + k, hi + k);
        return;
    }
#endif
    if (half == 1) quant__v_minmax_groups_body(src, n, g, 1, lo, hi);
    else if (half == 2) quant__v_minmax_groups_body(src, n, g, 2, lo, hi);
    else quant__v_minmax_groups_body(src, n, g, 0, lo, hi);
}

QUANT__PRIVATE void quant__simd_minmax(const void *src, size_t n, int half, float *lo, float *hi)
{
#if QUANT__NEON32
    quant__scalar_minmax(src, n, half, lo, hi);
    return;
#endif
    if (half == 1) quant__v_minmax_body(src, n, 1, lo, hi);
    else if (half == 2) quant__v_minmax_body(src, n, 2, lo, hi);
    else quant__v_minmax_body(src, n, 0, lo, hi);
}

QUANT__PRIVATE void quant__simd_minmax_cols(const void *src, size_t n, int half, float *lo, float *hi)
{
#if QUANT__NEON32
    quant__scalar_minmax_cols(src, n, half, lo, hi);
    return;
#endif
    if (half == 1) quant__v_minmax_cols_body(src, n, 1, lo, hi);
    else if (half == 2) quant__v_minmax_cols_body(src, n, 2, lo, hi);
    else quant__v_minmax_cols_body(src, n, 0, lo, hi);
}

#elif QUANT__PART == 3

#if QUANT__DISPATCH
QUANT__PRIVATE void quant__simd_minmax_x86(const void *src, size_t n, int half, float *lo, float *hi)
{
    QUANT__PICK(quant__simd_minmax, (src, n, half, lo, hi));
}
QUANT__PRIVATE void quant__simd_minmax_cols_x86(const void *src, size_t n, int half, float *lo, float *hi)
{
    QUANT__PICK(quant__simd_minmax_cols, (src, n, half, lo, hi));
}
QUANT__PRIVATE void quant__simd_minmax_groups_x86(const void *src, size_t n, size_t g, int half, float *lo, float *hi)
{
    QUANT__PICK(quant__simd_minmax_groups, (src, n, g, half, lo, hi));
}
#endif
#if QUANT__SIMD_ANY
#  define quant__minmax QUANT__BK(quant__simd_minmax)
#  define quant__minmax_cols QUANT__BK(quant__simd_minmax_cols)
#  define quant__minmax_groups QUANT__BK(quant__simd_minmax_groups)
#else
#  define quant__minmax quant__scalar_minmax
#  define quant__minmax_cols quant__scalar_minmax_cols
#endif

#endif

/* ---- >>unit requant: s32 -> s8/u8/s16 (rq) ------------------------------ */
#if QUANT__PART == 1 && QUANT__RQ

/* What a requantize call holds fixed: the clamp in terms of the value
   before the zero point (lo = act_min - zp, hi = act_max - zp, both within
   2^17 of 0), the zero point, the rounding, the dst type, and whether any
   shift of the call is positive (some vector kernels take only right
   shifts). */
typedef struct quant__rqk {
    int32_t lo, hi, zp;
    unsigned char rounding, out, left, nt, full; /* nt: streaming stores (x86); full: the clamp is the type's range (s8, u8) */
#if QUANT__X86
    size_t row;    /* channels last, row of them a row of src (the parameters repeat), else 0 */
    size_t period; /* inside the kernel: the parameters' index wraps from period to 0 (0: never) */
    const int64_t *w; /* AVX-512 and AVX2, right shifts: the wide layout (quant__v_rq_rows), or NULL */
    const int32_t *fs, *fd; /* SSE2: the float form's parameters, laid out as m and sh (or w), or NULL */
    unsigned char top;      /* FLOAT: a scale is 1 or more (fl(acc) s may reach 2^31, which converts to INT_MIN) */
#endif
} quant__rqk;
/* At -Os (gcc and clang define __OPTIMIZE_SIZE__) the scalar kernel takes
   the shorter of two forms of the same arithmetic; QUANT__RQ_SMALL set to
   0 or 1 picks one (the tests run both). */
#ifndef QUANT__RQ_SMALL
#  ifdef __OPTIMIZE_SIZE__
#    define QUANT__RQ_SMALL 1
#  else
#    define QUANT__RQ_SMALL 0
#  endif
#endif
#define QUANT__RQ_S8 0
#define QUANT__RQ_U8 1
#define QUANT__RQ_S16 2
/* x86, channels last: parameters laid out for this many elements of rows
   (about 8 KiB of stack, FLOAT 4, SSE2 16), so that one pass of the loop
   takes the whole tensor of short rows */
#define QUANT__RQ_REP 1024
/* AVX-512, AVX2 and SSE2, DOUBLE and SINGLE with right shifts, rows of at most
   this many channels: three (AVX2 and SSE2: four) 64-bit parameters an element laid
   out for this many elements of rows and 5 W more, and SSE2's float form's
   two floats (8 KiB of stack, AVX2 9.5, SSE2 10.8) */
#define QUANT__RQ_WREP 256
#define QUANT__RQ_WN (QUANT__RQ_WREP + 5 * QUANT__W)

/* floor(v / 2^s) for 0 <= s <= 63 (C leaves >> of a negative value to the
   implementation; compilers make this one arithmetic shift) */
QUANT__INLINE int64_t quant__asr64(int64_t v, unsigned s) { return v < 0 ? ~(~v >> s) : v >> s; }

/* acc * m * 2^(shift - 31) rounded to an integer, clamped to [lo, hi].
   p = acc * m is exact in 64 bits (|p| < 2^62), and so is every sum below.
   SINGLE rounds p / 2^(31 - shift) once, halves up. DOUBLE first rounds
   h = p / 2^31 halves up (gemmlowp's SaturatingRoundingDoublingHighMul;
   its saturation needs m = INT32_MIN, which is not a valid multiplier),
   then h / 2^k, k = -shift, halves away from zero (RoundingDivideByPOT):
   floor((h + 2^(k-1) - [h < 0]) / 2^k). Nested floors of divisions by
   powers of two fold into one, and h < 0 exactly when p < -2^30, so
       DOUBLE = floor((p + 2^(30+k) + 2^30 - [p < -2^30] 2^31) / 2^(31+k)).
   With shift >= 0 DOUBLE rounds only once, at 2^(31 - shift), as SINGLE
   does: the references' acc * 2^shift is exact whenever it fits in int32,
   and where it does not they wrap; this computes the exact value. */
QUANT__INLINE int32_t quant__asr32(int32_t v, unsigned s) { return v < 0 ? ~(~v >> s) : v >> s; }
/* The folded formula, for every shift, before the clamp: with q = p +
   DOUBLE's nudge, floor((q + 2^(30-shift)) / 2^(31-shift)) = floor((floor(q
   / 2^(30-shift)) + 1) / 2), one 64-bit shift by a variable */
QUANT__INLINE int64_t quant__rq_fixed64(int32_t acc, int32_t m, int32_t shift, unsigned rounding)
{
    int64_t p = (int64_t)acc * m;
    if (rounding == QUANT_RQ_DOUBLE && shift < 0) { /* + 2^30, less 2^31 where p < -2^30 */
        p += (int64_t)1 << 30;
        if (p < 0) p -= (int64_t)1 << 31;
    }
    return quant__asr64(quant__asr64(p, (unsigned)(30 - shift)) + 1, 1);
}
#if QUANT__RQ_SMALL
/* the folded formula as it stands (the size-optimized build's form) */
QUANT__INLINE int32_t quant__rq_fixed(int32_t acc, int32_t m, int32_t shift, unsigned rounding, int32_t lo, int32_t hi)
{
    const int64_t v = quant__rq_fixed64(acc, m, shift, rounding);
    return v < lo ? lo : v > hi ? hi : (int32_t)v;
}
#else
QUANT__INLINE int32_t quant__rq_fixed(int32_t acc, int32_t m, int32_t shift, unsigned rounding, int32_t lo, int32_t hi)
{
    const int64_t p = (int64_t)acc * m, half = (int64_t)1 << 30;
    int64_t v;
    if (shift <= 0) {
        /* right shifts, the common case, mostly in 32 bits (a 64-bit shift
           by a variable is long on 32-bit cores): the same value, as the
           references compute it. k = 0: h. DOUBLE: h / 2^k rounded halves
           away from zero. SINGLE: floor((d + 2^(k-1)) / 2^k) with d =
           floor(p / 2^31), which is floor(d / 2^k) plus d's bit k - 1. */
        const unsigned k = (unsigned)-shift;
        int32_t r;
        if (rounding == QUANT_RQ_DOUBLE || k == 0) {
            const int32_t h = (int32_t)quant__asr64(p + half, 31);
            const uint32_t mask = (1u << k) - 1u;
            r = quant__asr32(h, k) + (((uint32_t)h & mask) > (mask >> 1) + (h < 0 ? 1u : 0u) ? 1 : 0);
        } else {
            const int32_t d = (int32_t)quant__asr64(p, 31);
            r = quant__asr32(d, k) + (int32_t)(((uint32_t)d >> (k - 1u)) & 1u);
        }
        return r < lo ? lo : r > hi ? hi : r;
    }
    v = quant__asr64(p + ((int64_t)1 << (30 - shift)), (unsigned)(31 - shift));
    return v < lo ? lo : v > hi ? hi : (int32_t)v;
}
#endif

/* XNNPACK's fp32 requantization: fl(fl(acc) * s), clamped (lo and hi are
   exact floats), rounded to nearest even. fl(acc) * s may overflow to an
   infinity, which the clamp takes; it is never NaN. */
QUANT__INLINE int32_t quant__rq_float(int32_t acc, float s, int32_t lo, int32_t hi)
{
    float y = (float)acc * s;
    if (y < (float)lo) y = (float)lo;
    if (y > (float)hi) y = (float)hi;
    /* |y| <= 2^17: 1.5 * 2^23 leaves no fraction bits, and the add rounds
       to nearest even */
    y = (y + 12582912.0f) - 12582912.0f;
    return (int32_t)y;
}
QUANT__INLINE void quant__rq_put(void *dst, size_t i, int32_t q, unsigned out)
{
    if (QUANT__S16 && out == QUANT__RQ_S16) ((int16_t *)dst)[i] = (int16_t)q;
    else if (out == QUANT__RQ_U8) ((uint8_t *)dst)[i] = (uint8_t)q;
    else ((int8_t *)dst)[i] = (int8_t)q;
}

/* n elements with one channel's parameters (step 0: m[0], sh[0], s[0]) or
   each its own (step 1: m[i], sh[i], s[i]); FLOAT reads only s, the
   others only m and sh. */
QUANT__PRIVATE void quant__scalar_rq(const int32_t *src, void *dst, size_t n, const int32_t *m, const int32_t *sh,
                                     const float *s, size_t step, const quant__rqk *k)
{
    const quant__rqk c = *k; /* a copy: stores to dst cannot change it */
    size_t i;
    for (i = 0; i < n; ++i) {
        const int32_t v = c.rounding == QUANT_RQ_FLOAT
                              ? quant__rq_float(src[i], s[i * step], c.lo, c.hi)
                              : quant__rq_fixed(src[i], m[i * step], sh[i * step], c.rounding, c.lo, c.hi);
        quant__rq_put(dst, i, v + c.zp, c.out);
    }
}

#elif QUANT__PART == 2 && QUANT__RQ

/* the wide form (quant__v_rq_w8): parameters laid out as 64-bit words,
   QUANT__RQ_WK of them an element */
#if QUANT__PASS == QUANT_SIMD_AVX512
#  define QUANT__RQ_WIDE 1
#  define QUANT__RQ_WK 3
#elif QUANT__PASS == QUANT_SIMD_AVX2 || QUANT__PASS == QUANT_SIMD_SSE2
#  define QUANT__RQ_WIDE 1
#  define QUANT__RQ_WK 4
#else
#  define QUANT__RQ_WIDE 0
#endif
/* SSE2 and AVX-512: the float form's two float parameters an element
   after the wide layout, as many words as one more 64-bit array. SSE2
   (WF32) also lays them out beside the 32-bit layout's m and sh, and
   takes the float form for one channel of any right shift; AVX-512 only
   where no shift is 0 (its scales then below 1/2: no upper clamp) */
#if QUANT__PASS == QUANT_SIMD_SSE2
#  define QUANT__RQ_WF 1
#  define QUANT__RQ_WF32 1
#elif QUANT__PASS == QUANT_SIMD_AVX512
#  define QUANT__RQ_WF 1
#  define QUANT__RQ_WF32 0
#else
#  define QUANT__RQ_WF 0
#  define QUANT__RQ_WF32 0
#endif
#if QUANT__RQ_WF
/* The float form (s8 and u8, right shifts by k = -shift), tried before
   the integer one. Both roundings are one floor: with y = x m / 2^(31+k),
   SINGLE is floor(y + 1/2), and DOUBLE, h = floor(x m / 2^31 + 1/2) then
   floor((h + 2^(k-1) - [h < 0]) / 2^k) for k > 0, is floor(y + 1/2 + d)
   (nested floors: an integer added inside the inner one passes through)
   with d = 2^-(k+1) where h >= 0 and -2^-(k+1) where h < 0. Taking d's
   sign from y's instead changes nothing: the two differ only for y in
   [-2^-(k+1), 0), where both give 0. In floats, w = fl(fl(x) s) + d with
   s = fl(m) 2^-(31+k) (AVX-512: fl(fl(x) s + d), one rounding less),
   clamped to [lo, hi] (integers; AVX-512 in the type's whole range
   leaves that to its packs), and rounded to nearest. For |y| <= 512
   (past it, lo or hi is the answer either way: |lo|, |hi| < 256), w is
   within 3 2^-24 512 + 2^-15 < 2^-13 of y + d,
   so where w is more than 2^-11 from a tie (n + 1/2) the float result is
   the exact one. The caller computes a block again with the integer
   form where one lane is not (and, without the clamp, where a lane past
   the type's range lands near a tie: rare, and right either way). */
/* s and d (as their bits, in 32-bit words) of n channels */
QUANT__INLINE void quant__v_rq_fput(int32_t *fs, int32_t *fd, const int32_t *m, const int32_t *sh, size_t n, int dbl)
{
    size_t h;
    for (h = 0; h < n; ++h) {
        const unsigned k = 0u - (unsigned)sh[h]; /* 0 to 31 */
        quant__fbits b;
        b.f = (float)m[h] * quant__float((127u - 31u - k) << 23);
        fs[h] = (int32_t)b.u;
        fd[h] = dbl && k ? (int32_t)((126u - k) << 23) : 0;
    }
}
#endif
/* W lanes of quant__rq_fixed before the clamp, from src[0..W), with the
   parameters of m[0], sh[0] (step 0) or m[0..W), sh[0..W) (step 1). */
#if QUANT__PASS == QUANT_SIMD_AVX512
#  define QUANT__RQ_V_OK(k) 1
/* the 64-bit lanes of x and m, each with a value in its low half: exact
   products, DOUBLE's nudge for right shifts (c = 2^30 there, else 0),
   the rounding add and the arithmetic shift, then the clamp, in 64 bits */
QUANT__INLINE __m512i quant__v_rq_half(__m512i x, __m512i m, __m512i ts, __m512i c, __m512i lo, __m512i hi, int dbl)
{
    __m512i p = _mm512_mul_epi32(x, m);
    if (dbl) {
        p = _mm512_add_epi64(p, c);
        p = _mm512_mask_sub_epi64(p, _mm512_cmplt_epi64_mask(p, _mm512_setzero_si512()), p, _mm512_add_epi64(c, c));
    }
    p = _mm512_add_epi64(p, _mm512_sllv_epi64(_mm512_set1_epi64(1), _mm512_sub_epi64(ts, _mm512_set1_epi64(1))));
    return _mm512_min_epi64(_mm512_max_epi64(_mm512_srav_epi64(p, ts), lo), hi);
}
/* Right shifts only (every shift <= 0), in 32-bit lanes: the two halves'
   exact products with 2^30 added (DOUBLE; SINGLE where the shift is 0),
   bits 31 to 62 of each taken as h (|h| < 2^31), DOUBLE's nudge (less 1
   where h < 0 and k = -shift > 0, as CMSIS-NN's MVE code does it), then
   the rounding shift (h >> k) + bit k - 1 of h, which is floor((h +
   2^(k-1)) / 2^k) with no overflow. SINGLE's h is then floor(p / 2^31),
   and the same rounding shift finishes floor((p + 2^(30+k)) / 2^(31+k)). */
QUANT__INLINE quant__vi quant__v_rq_right(const int32_t *src, const int32_t *m, const int32_t *sh, int vec, int dbl,
                                          __m512i lo, __m512i hi, const int clamp)
{
    const __m512i x = _mm512_loadu_si512((const void *)src), zero = _mm512_setzero_si512();
    const __m512i mv = vec ? _mm512_loadu_si512((const void *)m) : _mm512_set1_epi32(m[0]);
    const __m512i s = vec ? _mm512_loadu_si512((const void *)sh) : _mm512_set1_epi32(sh[0]);
    const __m512i k = _mm512_sub_epi32(zero, s);
    /* 2^(k-1), and 0 for k = 0: a count of 32 shifts everything out */
    const __m512i half = _mm512_srlv_epi32(_mm512_set1_epi32((int)0x80000000u), _mm512_add_epi32(s, _mm512_set1_epi32(32)));
    __m512i ce = _mm512_set1_epi64(1 << 30), co = ce, h, r;
    if (!dbl) {
        const __m512i c = _mm512_maskz_mov_epi32(_mm512_cmpeq_epi32_mask(s, zero), _mm512_set1_epi32(1 << 30));
        ce = _mm512_and_si512(c, _mm512_set1_epi64(0xFFFFFFFF));
        co = _mm512_srli_epi64(c, 32);
    }
    h = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(_mm512_add_epi64(_mm512_mul_epi32(x, mv), ce), 31),
                                _mm512_slli_epi64(_mm512_add_epi64(_mm512_mul_epi32(_mm512_srli_epi64(x, 32),
                                                                                    _mm512_srli_epi64(mv, 32)), co), 1));
    if (dbl) h = _mm512_add_epi32(h, _mm512_srai_epi32(_mm512_and_si512(h, s), 31));
    r = _mm512_srav_epi32(h, k);
    r = _mm512_mask_add_epi32(r, _mm512_test_epi32_mask(h, half), r, _mm512_set1_epi32(1));
    return clamp ? _mm512_min_epi32(_mm512_max_epi32(r, lo), hi) : r;
}
/* Right shifts in 64-bit lanes, from three parameters an element: with k
   = -shift, the result is floor((p + a) / 2^s) for p = x m (exact), s =
   31 + k and a = 2^(30+k) (SINGLE, any k), or floor((p + a - [x < 0]
   2^31) / 2^s) with a = 2^(30+k) + 2^30 (DOUBLE, k > 0: quant__rq_fixed64's
   folded formula, with x's sign for p's; where they differ, p is in
   [-2^30, 0] and either form gives 0). |result| < 2^31. Eight elements: */
QUANT__INLINE __m512i quant__v_rq_w8(const int32_t *src, __m512i m, __m512i a, __m512i s, int dbl)
{
    const __m512i x = _mm512_cvtepi32_epi64(_mm256_loadu_si256((const __m256i *)(const void *)src));
    __m512i t = _mm512_add_epi64(_mm512_mul_epi32(x, m), a);
    if (dbl) t = _mm512_mask_sub_epi64(t, _mm512_cmplt_epi64_mask(x, _mm512_setzero_si512()), t, _mm512_set1_epi64((int64_t)1 << 31));
    return _mm512_srav_epi64(t, s);
}
/* the parameters of eight elements from m[0..8) and sh[0..8) (right
   shifts), stored at w, w + QUANT__RQ_WN and w + 2 QUANT__RQ_WN (m, a,
   s); nonzero where a shift is 0 (DOUBLE cannot take the layout then) */
QUANT__INLINE unsigned quant__v_rq_wput(int64_t *w, const int32_t *m, const int32_t *sh, int dbl)
{
    const __m512i k = _mm512_sub_epi64(_mm512_setzero_si512(),
                                       _mm512_cvtepi32_epi64(_mm256_loadu_si256((const __m256i *)(const void *)sh)));
    const __m512i e = _mm512_sllv_epi64(_mm512_set1_epi64(1), _mm512_add_epi64(k, _mm512_set1_epi64(30)));
    _mm512_storeu_si512((void *)w, _mm512_cvtepu32_epi64(_mm256_loadu_si256((const __m256i *)(const void *)m)));
    _mm512_storeu_si512((void *)(w + QUANT__RQ_WN), dbl ? _mm512_add_epi64(e, _mm512_set1_epi64(1 << 30)) : e);
    _mm512_storeu_si512((void *)(w + 2 * QUANT__RQ_WN), _mm512_add_epi64(k, _mm512_set1_epi64(31)));
    return _mm512_test_epi64_mask(k, k) != 0xFF;
}
/* a vector: from the wide layout at w (vec), or one set of parameters
   w[0], w[1], w[2] */
QUANT__INLINE quant__vi quant__v_rq_wide(const int32_t *src, const int64_t *w, int vec, int dbl, __m512i lo, __m512i hi,
                                         const int clamp)
{
    const size_t n = vec ? QUANT__RQ_WN : 1u;
#  define QUANT__RQ_WV(j, o) (vec ? _mm512_loadu_si512((const void *)(w + (j) * n + (o))) : _mm512_set1_epi64(w[j]))
    const __m512i e = quant__v_rq_w8(src, QUANT__RQ_WV(0, 0), QUANT__RQ_WV(1, 0), QUANT__RQ_WV(2, 0), dbl);
    const __m512i o = quant__v_rq_w8(src + 8, QUANT__RQ_WV(0, 8), QUANT__RQ_WV(1, 8), QUANT__RQ_WV(2, 8), dbl);
#  undef QUANT__RQ_WV
    const __m512i r = _mm512_permutex2var_epi32(e, _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0), o);
    return clamp ? _mm512_min_epi32(_mm512_max_epi32(r, lo), hi) : r;
}
QUANT__INLINE quant__vi quant__v_rq_fixed(const int32_t *src, const int32_t *m, const int32_t *sh, int vec,
                                          const quant__rqk *k)
{
    const __m512i x = _mm512_loadu_si512((const void *)src), low = _mm512_set1_epi64(0xFFFFFFFF);
    const __m512i mv = vec ? _mm512_loadu_si512((const void *)m) : _mm512_set1_epi32(m[0]);
    const __m512i s = vec ? _mm512_loadu_si512((const void *)sh) : _mm512_set1_epi32(sh[0]);
    const __m512i ts = _mm512_sub_epi32(_mm512_set1_epi32(31), s);
    const int dbl = k->rounding == QUANT_RQ_DOUBLE;
    const __m512i c = _mm512_maskz_mov_epi32(_mm512_cmplt_epi32_mask(s, _mm512_setzero_si512()), _mm512_set1_epi32(1 << 30));
    const __m512i lo = _mm512_set1_epi64(k->lo), hi = _mm512_set1_epi64(k->hi);
    const __m512i e = quant__v_rq_half(x, mv, _mm512_and_si512(ts, low), _mm512_and_si512(c, low), lo, hi, dbl);
    const __m512i o = quant__v_rq_half(_mm512_srli_epi64(x, 32), _mm512_srli_epi64(mv, 32), _mm512_srli_epi64(ts, 32),
                                       _mm512_srli_epi64(c, 32), lo, hi, dbl);
    return _mm512_mask_blend_epi32(0xAAAA, e, _mm512_slli_epi64(o, 32));
}
/* the float form (above, quant__v_rq_fput), 16 lanes: d takes x's sign
   (s > 0: y's, or 0's at y = 0) in one ternary-logic operation, and
   adds in the multiply's rounding. dist: w - r (with DQ; |w - r|
   without), for the block's flag, the largest magnitude of four
   (quant__v_rq_fmax, in a tree) */
QUANT__INLINE __m512 quant__v_rq_fld(const int32_t *p, int vec)
{
    return _mm512_castsi512_ps(vec ? _mm512_loadu_si512((const void *)p) : _mm512_set1_epi32(p[0]));
}
#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#  pragma GCC diagnostic push /* vrangeps unoptimized: see quant__zero_nan */
#  pragma GCC diagnostic ignored "-Wsign-conversion"
#endif
QUANT__INLINE __m512i quant__v_rq_flt(const int32_t *src, const int32_t *fs, const int32_t *fd, int vec, int dbl,
                                      __m512 lo, __m512 hi, int clamp, __m512 *dist)
{
    const __m512i x = _mm512_loadu_si512((const void *)src);
    const __m512 xf = _mm512_cvtepi32_ps(x);
    __m512 w;
    __m512i r;
    if (dbl) { /* (x & sign) | d: 0xF8 is a | (b & c) */
        const __m512i d = _mm512_ternarylogic_epi32(_mm512_castps_si512(quant__v_rq_fld(fd, vec)), x,
                                                    _mm512_set1_epi32((int)0x80000000u), 0xF8);
        w = _mm512_fmadd_ps(xf, quant__v_rq_fld(fs, vec), _mm512_castsi512_ps(d));
    } else {
        w = _mm512_mul_ps(xf, quant__v_rq_fld(fs, vec));
    }
    /* in the type's whole range, to +-384 (the packs saturate that from
       any zero point; an unclamped w of 2^22 or more would flag a tie) */
    if (clamp) w = _mm512_min_ps(_mm512_max_ps(w, lo), hi);
#  if QUANT__PASS_VBMI
    else w = _mm512_range_ps(w, _mm512_set1_ps(384.0f), 0x02); /* the smaller magnitude, with w's sign */
#  else
    else w = _mm512_min_ps(_mm512_max_ps(w, _mm512_set1_ps(-384.0f)), _mm512_set1_ps(384.0f));
#  endif
    r = _mm512_cvtps_epi32(w);
#  if QUANT__PASS_VBMI /* (with DQ) w - rne(w) */
    *dist = _mm512_reduce_ps(w, 0x08);
#  else
    *dist = _mm512_abs_ps(_mm512_sub_ps(w, _mm512_cvtepi32_ps(r)));
#  endif
    return r;
}
QUANT__INLINE __m512 quant__v_rq_fmax(__m512 a, __m512 b)
{
#  if QUANT__PASS_VBMI /* the larger magnitude, sign cleared */
    return _mm512_range_ps(a, b, 0x0B);
#  else
    return _mm512_max_ps(a, b);
#  endif
}
#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#  pragma GCC diagnostic pop
#endif
QUANT__INLINE int quant__v_rq_fnear(__m512 flag)
{
    return _mm512_cmp_ps_mask(flag, _mm512_set1_ps(0.5f - 1.0f / 2048.0f), _CMP_GE_OQ) != 0;
}
#elif QUANT__PASS == QUANT_SIMD_AVX2
/* The wide form in 4 lanes of 64 bits, as AVX-512's quant__v_rq_w8 (see
   there), but with no arithmetic 64-bit shift: a holds 2^62 more, which
   keeps t above 0, and the logical shift gives the result plus e =
   2^(62-s) = 2^(31-k), the fourth parameter, taken off before the
   narrowing. DOUBLE's -2^31 where x < 0 is x's sign extension and bit 31,
   x & ~(2^31 - 1). */
QUANT__INLINE __m256i quant__v_rq_w8(const int32_t *src, __m256i m, __m256i a, __m256i s, __m256i e, int dbl)
{
    const __m256i x = _mm256_cvtepi32_epi64(_mm_loadu_si128((const __m128i *)(const void *)src));
    __m256i t = _mm256_add_epi64(_mm256_mul_epi32(x, m), a);
    if (dbl) t = _mm256_add_epi64(t, _mm256_and_si256(x, _mm256_set1_epi64x(-((long long)1 << 31))));
    return _mm256_sub_epi64(_mm256_srlv_epi64(t, s), e);
}
/* the parameters of eight elements from m[0..8) and sh[0..8) (right
   shifts), at w + j QUANT__RQ_WN for j = 0 to 3 (m, a, s, e); nonzero
   where a shift is 0 (DOUBLE cannot take the layout then) */
QUANT__INLINE unsigned quant__v_rq_wput(int64_t *w, const int32_t *m, const int32_t *sh, int dbl)
{
    const __m256i one = _mm256_set1_epi64x(1), b = _mm256_set1_epi64x(((long long)1 << 62) + (dbl ? 1 << 30 : 0));
    unsigned zero = 0;
    size_t h;
    for (h = 0; h < 8; h += 4) {
        const __m256i k = _mm256_sub_epi64(_mm256_setzero_si256(),
                                           _mm256_cvtepi32_epi64(_mm_loadu_si128((const __m128i *)(const void *)(sh + h))));
        _mm256_storeu_si256((__m256i *)(void *)(w + h), _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(const void *)(m + h))));
        _mm256_storeu_si256((__m256i *)(void *)(w + QUANT__RQ_WN + h),
                            _mm256_add_epi64(_mm256_sllv_epi64(one, _mm256_add_epi64(k, _mm256_set1_epi64x(30))), b));
        _mm256_storeu_si256((__m256i *)(void *)(w + 2 * QUANT__RQ_WN + h), _mm256_add_epi64(k, _mm256_set1_epi64x(31)));
        _mm256_storeu_si256((__m256i *)(void *)(w + 3 * QUANT__RQ_WN + h),
                            _mm256_sllv_epi64(one, _mm256_sub_epi64(_mm256_set1_epi64x(31), k)));
        zero |= (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(k, _mm256_setzero_si256())));
    }
    return zero;
}
/* a vector: from the wide layout at w (vec), or one set of parameters
   w[0] to w[3]; the results' low halves in order */
QUANT__INLINE quant__vi quant__v_rq_wide(const int32_t *src, const int64_t *w, int vec, int dbl, __m256i lo, __m256i hi,
                                         const int clamp)
{
    const size_t n = vec ? QUANT__RQ_WN : 1u;
#  define QUANT__RQ_WV(j, o) \
    (vec ? _mm256_loadu_si256((const __m256i *)(const void *)(w + (j) * n + (o))) : _mm256_set1_epi64x(w[j]))
    const __m256i a = quant__v_rq_w8(src, QUANT__RQ_WV(0, 0), QUANT__RQ_WV(1, 0), QUANT__RQ_WV(2, 0), QUANT__RQ_WV(3, 0), dbl);
    const __m256i b = quant__v_rq_w8(src + 4, QUANT__RQ_WV(0, 4), QUANT__RQ_WV(1, 4), QUANT__RQ_WV(2, 4), QUANT__RQ_WV(3, 4), dbl);
#  undef QUANT__RQ_WV
    const __m256i r = _mm256_permute4x64_epi64(
        _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), _MM_SHUFFLE(2, 0, 2, 0))),
        _MM_SHUFFLE(3, 1, 2, 0));
    return clamp ? _mm256_min_epi32(_mm256_max_epi32(r, lo), hi) : r;
}
/* right shifts only, in 32-bit lanes as AVX-512's quant__v_rq_right does
   them (see there); the rounding bit is min(h & 2^(k-1), 1) */
#  define QUANT__RQ_V_OK(k) (!(k)->left)
QUANT__INLINE quant__vi quant__v_rq_fixed(const int32_t *src, const int32_t *m, const int32_t *sh, int vec,
                                          const quant__rqk *k)
{
    const __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)src), zero = _mm256_setzero_si256();
    const __m256i mv = vec ? _mm256_loadu_si256((const __m256i *)(const void *)m) : _mm256_set1_epi32(m[0]);
    const __m256i s = vec ? _mm256_loadu_si256((const __m256i *)(const void *)sh) : _mm256_set1_epi32(sh[0]);
    const __m256i half = _mm256_srlv_epi32(_mm256_set1_epi32((int)0x80000000u), _mm256_add_epi32(s, _mm256_set1_epi32(32)));
    const int dbl = k->rounding == QUANT_RQ_DOUBLE;
    __m256i ce = _mm256_set1_epi64x(1 << 30), co = ce, h;
    if (!dbl) {
        const __m256i c = _mm256_and_si256(_mm256_cmpeq_epi32(s, zero), _mm256_set1_epi32(1 << 30));
        ce = _mm256_and_si256(c, _mm256_set1_epi64x(0xFFFFFFFF));
        co = _mm256_srli_epi64(c, 32);
    }
    h = _mm256_blend_epi32(_mm256_srli_epi64(_mm256_add_epi64(_mm256_mul_epi32(x, mv), ce), 31),
                           _mm256_slli_epi64(_mm256_add_epi64(_mm256_mul_epi32(_mm256_srli_epi64(x, 32),
                                                                               _mm256_srli_epi64(mv, 32)), co), 1), 0xAA);
    if (dbl) h = _mm256_add_epi32(h, _mm256_srai_epi32(_mm256_and_si256(h, s), 31));
    return _mm256_add_epi32(_mm256_srav_epi32(h, _mm256_sub_epi32(zero, s)),
                            _mm256_min_epu32(_mm256_and_si256(h, half), _mm256_set1_epi32(1)));
}
#elif QUANT__PASS == QUANT_SIMD_SSE2
/* right shifts only, in 32-bit lanes as AVX2 does them, with no signed
   product (pmuldq) and no shift by a count a lane. The product: xb = x +
   2^31 (unsigned) times 2m (< 2^32) is 2xm + m 2^32, so that the high
   half of xb 2m + 2c, less m, is h = floor((xm + c) / 2^31); the high
   halves of the even and the odd products are taken in the order 0, 2, 1,
   3 (one shufps), which the same step in the rounding shift undoes. */
#  define QUANT__RQ_V_OK(k) (!(k)->left)
QUANT__INLINE __m128i quant__v_rq_hi(__m128i xb, __m128i m2, __m128i m2o, __m128i ce, __m128i co)
{
    const __m128i e = _mm_add_epi64(_mm_mul_epu32(xb, m2), ce);
    const __m128i o = _mm_add_epi64(_mm_mul_epu32(_mm_shuffle_epi32(xb, 0xF5), m2o), co);
    return _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(e), _mm_castsi128_ps(o), _MM_SHUFFLE(3, 1, 3, 1)));
}
QUANT__INLINE quant__vi quant__v_rq_fixed(const int32_t *src, const int32_t *m, const int32_t *sh, int vec,
                                          const quant__rqk *k)
{
    const __m128i sign = _mm_set1_epi32((int)0x80000000u), low = _mm_set1_epi64x(0x80000000);
    const __m128i xb = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)src), sign);
    const int dbl = k->rounding == QUANT_RQ_DOUBLE;
    __m128i mv, m2, t, tp, to, ce, co, g, e, o;
    if (!vec) {
        /* one channel: the constant 2c - m 2^32 leaves h itself, and the
           rounding shift (h >> k) + bit k - 1 of h takes one count (k - 1
           = -1 shifts everything out) */
        const int32_t s0 = sh[0];
        const __m128i c = _mm_set1_epi64x((long long)((dbl || s0 == 0 ? (uint64_t)1 << 31 : 0u) -
                                                      ((uint64_t)(uint32_t)m[0] << 32)));
        const __m128i m2c = _mm_set1_epi32((int)((uint32_t)m[0] * 2u)), h = quant__v_rq_hi(xb, m2c, m2c, c, c);
        const __m128i hn = dbl ? _mm_add_epi32(h, _mm_srai_epi32(_mm_and_si128(h, _mm_set1_epi32(s0)), 31)) : h;
        const __m128i r = _mm_add_epi32(_mm_sra_epi32(hn, _mm_cvtsi32_si128(-s0)),
                                        _mm_and_si128(_mm_srl_epi32(hn, _mm_cvtsi32_si128(-s0 - 1)), _mm_set1_epi32(1)));
        return _mm_shuffle_epi32(r, _MM_SHUFFLE(3, 1, 2, 0));
    }
    /* per lane: t = 2^(31-k), the conversion of the float of bits (158 -
       k) << 23 (k = 0: 2^31, which converts to 0x80000000, 2^31 as
       unsigned); with hb = h + 2^31 (unsigned), floor((hb t + 2^30) /
       2^31) = floor((hb + 2^(k-1)) / 2^k) for k > 0 and hb for k = 0, in
       64 bits less than 2^63; less t, it is h's rounding shift */
    mv = _mm_loadu_si128((const __m128i *)(const void *)m);
    m2 = _mm_add_epi32(mv, mv);
    t = _mm_cvttps_epi32(_mm_castsi128_ps(
        _mm_slli_epi32(_mm_add_epi32(_mm_loadu_si128((const __m128i *)(const void *)sh), _mm_set1_epi32(158)), 23)));
    tp = _mm_shuffle_epi32(t, _MM_SHUFFLE(3, 1, 2, 0));
    to = _mm_shuffle_epi32(t, _MM_SHUFFLE(3, 3, 2, 2));
    if (dbl) { /* 2c + 2^63 - 2^32: the high halves less m are g = hb - 1 */
        ce = co = _mm_set1_epi64x(0x7FFFFFFF80000000);
    } else { /* SINGLE: 2c = 2^31 where k = 0 (t's top bit); 2^31 added to g after */
        ce = _mm_and_si128(t, low);
        co = _mm_and_si128(_mm_shuffle_epi32(t, 0xF5), low);
    }
    g = _mm_sub_epi32(quant__v_rq_hi(xb, m2, _mm_shuffle_epi32(m2, 0xF5), ce, co), _mm_shuffle_epi32(mv, _MM_SHUFFLE(3, 1, 2, 0)));
    /* DOUBLE: hb again where h > 0 or k = 0 (t's top bit), so that the
       nudge is less 1 where h < 0 and k > 0, and where h = 0, which rounds
       to 0 either way (floor((2^(k-1) - 1) / 2^k) = 0) */
    g = dbl ? _mm_sub_epi32(g, _mm_srai_epi32(_mm_or_si128(g, tp), 31)) : _mm_xor_si128(g, sign);
    e = _mm_srli_epi64(_mm_add_epi64(_mm_mul_epu32(g, tp), _mm_set1_epi64x(1 << 30)), 31);
    o = _mm_srli_epi64(_mm_add_epi64(_mm_mul_epu32(_mm_shuffle_epi32(g, 0xF5), to), _mm_set1_epi64x(1 << 30)), 31);
    return _mm_sub_epi32(_mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(e), _mm_castsi128_ps(o), _MM_SHUFFLE(2, 0, 2, 0))), t);
}
/* The wide form (channels last, every shift below 0), the same two steps
   with their per-lane constants laid out beforehand, four 64-bit words an
   element: 2m; the first step's addend b = 2^63 - m 2^32 (SINGLE: the
   high half of xb 2m + b is hb = h + 2^31, h = floor(xm / 2^31)) or that
   less 2^32 - 2^31 (DOUBLE: hb - 1 with c = 2^30 in h, which the nudge
   makes hb where h > 0 and leaves one less elsewhere); u = 2^(32-k); and
   v = 2^31 - 2^(63-k). The high half of g u + v is then floor((h' +
   2^(k-1)) / 2^k) as a signed word: g u = h' 2^(32-k) + 2^(63-k) exactly
   (g = h' + 2^31 < 2^32, u <= 2^31), and v takes the bias off and adds
   the half. Each multiply takes its pairs of words from an unpack of the
   vector with itself, so that all four words come in element order. k =
   0 (u = 2^32) has no place here; the layout is not made then. */
QUANT__INLINE unsigned quant__v_rq_wput(int64_t *w, const int32_t *m, const int32_t *sh, int dbl)
{
    const uint64_t one = 1;
    unsigned zero = 0;
    size_t h;
    for (h = 0; h < 8; ++h) {
        const unsigned k = 0u - (unsigned)sh[h]; /* 0 to 31 */
        const uint64_t mu = (uint32_t)m[h];
        w[h] = (int64_t)(mu + mu);
        w[QUANT__RQ_WN + h] = (int64_t)((one << 63) - (mu << 32) - (dbl ? one << 31 : 0u));
        w[2 * QUANT__RQ_WN + h] = k ? (int64_t)(one << (32 - k)) : 0;
        w[3 * QUANT__RQ_WN + h] = k ? (int64_t)((one << 31) - (one << (63 - k))) : 0;
        zero |= k == 0 ? 1u : 0u;
    }
    return zero;
}
QUANT__INLINE __m128i quant__v_rq_w4(__m128i v, const int64_t *a, const int64_t *b)
{
    const __m128i e = _mm_add_epi64(_mm_mul_epu32(_mm_unpacklo_epi32(v, v), _mm_loadu_si128((const __m128i *)(const void *)a)),
                                    _mm_loadu_si128((const __m128i *)(const void *)b));
    const __m128i o = _mm_add_epi64(_mm_mul_epu32(_mm_unpackhi_epi32(v, v), _mm_loadu_si128((const __m128i *)(const void *)(a + 2))),
                                    _mm_loadu_si128((const __m128i *)(const void *)(b + 2)));
    return _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(e), _mm_castsi128_ps(o), _MM_SHUFFLE(3, 1, 3, 1)));
}
QUANT__INLINE __m128 quant__v_rq_fld(const int32_t *p, int vec)
{
    return vec ? _mm_loadu_ps((const float *)(const void *)p) : _mm_castsi128_ps(_mm_set1_epi32(p[0]));
}
QUANT__INLINE __m128i quant__v_rq_flt(const int32_t *src, const int32_t *fs, const int32_t *fd, int vec, int dbl,
                                     __m128 lo, __m128 hi, int clamp, __m128 *dist)
{
    const __m128 sgn = _mm_set1_ps(-0.0f);
    __m128 w = _mm_mul_ps(_mm_cvtepi32_ps(_mm_loadu_si128((const __m128i *)(const void *)src)), quant__v_rq_fld(fs, vec));
    __m128i r;
    if (dbl) w = _mm_add_ps(w, _mm_or_ps(_mm_and_ps(w, sgn), quant__v_rq_fld(fd, vec)));
    if (clamp) w = _mm_max_ps(w, lo);
    w = _mm_min_ps(w, hi);
    r = _mm_cvtps_epi32(w);
    *dist = _mm_andnot_ps(sgn, _mm_sub_ps(w, _mm_cvtepi32_ps(r))); /* |w - r| */
    return r;
}
QUANT__INLINE __m128 quant__v_rq_fmax(__m128 a, __m128 b)
{
    return _mm_max_ps(a, b);
}
/* a lane of the block's flag within 2^-11 of a tie: the integer form */
QUANT__INLINE int quant__v_rq_fnear(__m128 flag)
{
    return _mm_movemask_ps(_mm_cmpge_ps(flag, _mm_set1_ps(0.5f - 1.0f / 2048.0f)));
}
QUANT__INLINE quant__vi quant__v_rq_wide(const int32_t *src, const int64_t *w, int vec, int dbl, __m128i lo, __m128i hi,
                                         const int clamp)
{
    const __m128i xb = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)src), _mm_set1_epi32((int)0x80000000u));
    __m128i g = quant__v_rq_w4(xb, w, w + QUANT__RQ_WN), r;
    (void)vec; /* the layout only: one channel takes quant__v_rq_fixed */
    if (dbl) g = _mm_sub_epi32(g, _mm_srai_epi32(g, 31));
    r = quant__v_rq_w4(g, w + 2 * QUANT__RQ_WN, w + 3 * QUANT__RQ_WN);
    return clamp ? quant__mini(quant__sel(quant__gt(lo, r), lo, r), hi) : r;
}
#elif QUANT__PASS == QUANT_SIMD_NEON
#  define QUANT__RQ_V_OK(k) 1
QUANT__INLINE int64x2_t quant__v_rq_half(int32x2_t x, int32x2_t m, int32x2_t sh, int32x2_t c)
{
    int64x2_t p = vaddq_s64(vmull_s32(x, m), vmovl_s32(c)), c2 = vshlq_n_s64(vmovl_s32(c), 1);
    p = vsubq_s64(p, vandq_s64(vshrq_n_s64(p, 63), c2));
    /* a rounding shift right by 31 - sh: adds 2^(30 - sh) first */
    return vrshlq_s64(p, vmovl_s32(vsub_s32(sh, vdup_n_s32(31))));
}
QUANT__INLINE quant__vi quant__v_rq_fixed(const int32_t *src, const int32_t *m, const int32_t *sh, int vec,
                                          const quant__rqk *k)
{
    const int32x4_t x = vld1q_s32(src);
    const int32x4_t mv = vec ? vld1q_s32(m) : vdupq_n_s32(m[0]), s = vec ? vld1q_s32(sh) : vdupq_n_s32(sh[0]);
    if (!k->left) {
        /* right shifts (s <= 0): in 32 bits. vqrdmulh rounds x * m / 2^31
           halves up (it saturates only for m = INT32_MIN); DOUBLE then
           rounds by 2^-s halves away from zero as CMSIS-NN's MVE code
           does: less 1 where the value is negative and s < 0, then a
           rounding shift. SINGLE: vqdmulh floors x * m / 2^31, and the
           rounding shift by -s >= 1 finishes floor((p + 2^(30-s)) /
           2^(31-s)); with s = 0 it is vqrdmulh's. */
        if (k->rounding == QUANT_RQ_DOUBLE) {
            const int32x4_t h = vqrdmulhq_s32(x, mv);
            return vrshlq_s32(vqaddq_s32(h, vshrq_n_s32(vandq_s32(h, s), 31)), s);
        }
        return vbslq_s32(vceqq_s32(s, vdupq_n_s32(0)), vqrdmulhq_s32(x, mv), vrshlq_s32(vqdmulhq_s32(x, mv), s));
    } else {
        /* any shift: in 64 bits, then narrowed with saturation */
        const int32x4_t c = k->rounding == QUANT_RQ_DOUBLE
                                ? vandq_s32(vreinterpretq_s32_u32(vcltq_s32(s, vdupq_n_s32(0))), vdupq_n_s32(1 << 30))
                                : vdupq_n_s32(0);
        const int64x2_t a = quant__v_rq_half(vget_low_s32(x), vget_low_s32(mv), vget_low_s32(s), vget_low_s32(c));
        const int64x2_t b = quant__v_rq_half(vget_high_s32(x), vget_high_s32(mv), vget_high_s32(s), vget_high_s32(c));
        return vcombine_s32(vqmovn_s64(a), vqmovn_s64(b));
    }
}
#elif QUANT__PASS == QUANT_SIMD_HELIUM
/* right shifts only, in 32 bits as 32-bit NEON does them (see there):
   CMSIS-NN's own MVE requantization for DOUBLE */
#  define QUANT__RQ_V_OK(k) (!(k)->left)
QUANT__INLINE quant__vi quant__v_rq_fixed(const int32_t *src, const int32_t *m, const int32_t *sh, int vec,
                                          const quant__rqk *k)
{
    const int32x4_t x = vld1q_s32(src);
    const int32x4_t mv = vec ? vld1q_s32(m) : vdupq_n_s32(m[0]), s = vec ? vld1q_s32(sh) : vdupq_n_s32(sh[0]);
    if (k->rounding == QUANT_RQ_DOUBLE) {
        const int32x4_t h = vqrdmulhq_s32(x, mv);
        return vrshlq_s32(vqaddq_s32(h, vshrq_n_s32(vandq_s32(h, s), 31)), s);
    }
    return vpselq_s32(vqrdmulhq_s32(x, mv), vrshlq_s32(vqdmulhq_s32(x, mv), s), vcmpeqq_n_s32(s, 0));
}
#endif

/* x86: a streaming block of 4 W elements at p asks for the block this
   many bytes on, a line at a time */
#define QUANT__RQ_AHEAD 2560
#if QUANT__W == 16
#  define QUANT__RQ_PF(p)                                                                               \
    (QUANT__PREFETCH((const char *)(p) + QUANT__RQ_AHEAD), QUANT__PREFETCH((const char *)(p) + QUANT__RQ_AHEAD + 64), \
     QUANT__PREFETCH((const char *)(p) + QUANT__RQ_AHEAD + 128), QUANT__PREFETCH((const char *)(p) + QUANT__RQ_AHEAD + 192))
#elif QUANT__W == 8
#  define QUANT__RQ_PF(p) \
    (QUANT__PREFETCH((const char *)(p) + QUANT__RQ_AHEAD), QUANT__PREFETCH((const char *)(p) + QUANT__RQ_AHEAD + 64))
#else
#  define QUANT__RQ_PF(p) QUANT__PREFETCH((const char *)(p) + QUANT__RQ_AHEAD)
#endif

QUANT__INLINE void quant__v_rq_put(void *dst, size_t i, quant__vi q, unsigned out)
{
    if (QUANT__S16 && out == QUANT__RQ_S16) quant__st16((uint16_t *)dst + i, q);
    else quant__st8((uint8_t *)dst + i, q, out == QUANT__RQ_S8);
}

#if QUANT__PASS == QUANT_SIMD_AVX2
#  define QUANT__RQ_MAX(a, b) _mm256_max_epi32(a, b)
#elif QUANT__PASS == QUANT_SIMD_NEON || QUANT__PASS == QUANT_SIMD_HELIUM
#  define QUANT__RQ_MAX(a, b) vmaxq_s32(a, b)
#else
#  define QUANT__RQ_MAX(a, b) quant__sel(quant__gt(b, a), b, a)
#endif
/* one vector of results before the zero point, clamped (FLOAT and left
   shifts always); m, sh and s are the parameter arrays (vec) or one
   channel's values held in locals */
QUANT__INLINE quant__vi quant__v_rq_one(const int32_t *src, const int32_t *m, const int32_t *sh, const float *s,
                                        const int64_t *w, const int vec, const unsigned rnd, const int left,
                                        const int wide, const quant__rqk *k, quant__vi lo, quant__vi hi, const int clamp,
                                        const int top)
{
    if (rnd == QUANT_RQ_FLOAT) {
        /* without clamp (x86, the activation range the whole type) the
           packs clamp from below: a y under -2^31 converts to INT_MIN; and
           from above where no y reaches 2^31 (!top: every scale below 1) */
        quant__vf y = quant__mul(quant__i2f(quant__ldi(src)), vec ? quant__ldf(s) : quant__setf(s[0]));
        if (clamp) y = quant__max(y, quant__setf((float)k->lo));
        if (clamp || top) y = quant__min(y, quant__setf((float)k->hi));
        return quant__cvt(y);
    }
#if QUANT__PASS == QUANT_SIMD_AVX512
    if (wide) return quant__v_rq_wide(src, w, vec, rnd == QUANT_RQ_DOUBLE, lo, hi, clamp);
    if (!left) return quant__v_rq_right(src, m, sh, vec, rnd == QUANT_RQ_DOUBLE, lo, hi, clamp);
    return quant__v_rq_fixed(src, m, sh, vec, k);
#else
#  if QUANT__RQ_WIDE
    if (wide) return quant__v_rq_wide(src, w, vec, rnd == QUANT_RQ_DOUBLE, lo, hi, clamp);
#  endif
    (void)left;
    (void)w;
    (void)wide;
    (void)top;
    if (!clamp) return quant__v_rq_fixed(src, m, sh, vec, k);
    return quant__mini(QUANT__RQ_MAX(quant__v_rq_fixed(src, m, sh, vec, k), lo), hi);
#endif
}
/* whole vectors; on x86 s8 and u8 four at a time, with
   streaming stores where k->nt asks for them and the block is aligned.
   full: right shifts with the activation range the whole type, where the
   packs' saturation (32 to 16 bits, + zp in 16 bits, 16 to 8) is the
   clamp; |zp| < 256 cannot bring a saturated sum back into range.
   sgn: s8 (x86: a constant, so that the blocks pick their pack without
   a test). fast: SSE2's float form for DOUBLE and SINGLE; with FLOAT,
   that no scale is 1 or more (k->top 0) */
QUANT__INLINE size_t quant__v_rq_loop(const int32_t *src, void *dst, size_t n, const int32_t *m, const int32_t *sh,
                                      const float *s, const int vec, const unsigned rnd, const int left,
                                      const int wide, const int full, const int fast, const quant__rqk *k,
                                      const int sgn, size_t *pq)
{
    const int fl = rnd == QUANT_RQ_FLOAT;
    const quant__vi lo = quant__seti(k->lo), hi = quant__seti(k->hi), z = quant__seti(k->zp);
    /* one channel's parameters, held: stores to dst cannot change them */
    const int32_t m0 = fl ? 0 : m[0], s0 = fl ? 0 : sh[0];
    const float f0 = fl ? s[0] : 0.0f;
    const int32_t *const mp = vec && !fl ? m : &m0, *const shp = vec && !fl ? sh : &s0;
    const float *const sp = vec && fl ? s : &f0;
#if QUANT__RQ_WIDE
    /* wide, one channel: its parameters (quant__v_rq_wput's) */
    const int32_t kk = s0 <= 0 ? -s0 : 0; /* (unused with a left shift) */
    const int64_t w0[4] = { m0,
                            ((int64_t)1 << (30 + kk)) + (rnd == QUANT_RQ_DOUBLE ? (int64_t)1 << 30 : 0) +
                                (QUANT__PASS == QUANT_SIMD_AVX2 ? (int64_t)1 << 62 : 0),
                            31 + kk, (int64_t)1 << (31 - kk) };
    const int64_t *const wp = vec ? k->w : w0;
#else
    const int64_t *const wp = NULL;
#endif
#if QUANT__RQ_WF
    /* fast: the float form (one channel, or its parameters laid out) */
    const int dbl = rnd == QUANT_RQ_DOUBLE;
    const quant__vf flo = quant__setf((float)k->lo), fhi = quant__setf((float)k->hi);
    int32_t fs0 = 0, fd0 = 0;
    const int32_t *const fsp = vec ? k->fs : &fs0, *const fdp = vec ? k->fd : &fd0;
#endif
#if QUANT__X86
    const size_t per = k->period ? k->period : (size_t)-1;
#else
    const size_t per = (size_t)-1;
#endif
    const size_t step = vec ? 1u : 0u;
    size_t i = 0, q = 0; /* element i has the parameters at q */
#define QUANT__RQ_ONE(j, c) \
    quant__v_rq_one(src + i + (j), mp + (q + (j)) * step, shp + (q + (j)) * step, sp + (q + (j)) * step, \
                    wp ? wp + (q + (j)) * step : wp, vec, rnd, left, wide, k, lo, hi, c, !fast)
#define QUANT__RQ_AT(j) quant__addi(QUANT__RQ_ONE(j, 1), z)
#if QUANT__RQ_WF
    /* the float form, four vectors; the integer one where a lane flags them */
#  define QUANT__RQ_F(j, d) \
    quant__v_rq_flt(src + i + (j), fsp + (q + (j)) * step, fdp + (q + (j)) * step, vec, dbl, flo, fhi, \
                    QUANT__RQ_WF32 || !full, &(d))
#  define QUANT__RQ_FAST(nt)                                                                                    \
    do {                                                                                                      \
        quant__vf d0, d1, d2, d3;                                                                             \
        quant__vi r0 = QUANT__RQ_F(0, d0), r1 = QUANT__RQ_F(QUANT__W, d1), r2 = QUANT__RQ_F(2 * QUANT__W, d2), \
                  r3 = QUANT__RQ_F(3 * QUANT__W, d3);                                                         \
        if (quant__v_rq_fnear(quant__v_rq_fmax(quant__v_rq_fmax(d0, d1), quant__v_rq_fmax(d2, d3)))) {        \
            r0 = QUANT__RQ_ONE(0, !full);                                                                     \
            r1 = QUANT__RQ_ONE(QUANT__W, !full);                                                              \
            r2 = QUANT__RQ_ONE(2 * QUANT__W, !full);                                                          \
            r3 = QUANT__RQ_ONE(3 * QUANT__W, !full);                                                          \
        }                                                                                                     \
        if (full) quant__st8x4((uint8_t *)dst + i, r0, r1, r2, r3, zp, sgn, nt);                             \
        else                                                                                                  \
            quant__st8x4((uint8_t *)dst + i, quant__addi(r0, z), quant__addi(r1, z), quant__addi(r2, z),       \
                         quant__addi(r3, z), 0, sgn, nt);                                                     \
    } while (0)
#else
#  define QUANT__RQ_FAST(nt) ((void)0)
#endif
#if QUANT__X86 /* the packs of st8x4 are shorter than four narrowing stores */
#  define QUANT__RQ_X4(nt)                                                                                      \
    do {                                                                                                      \
        if (fast && !fl) QUANT__RQ_FAST(nt);                                                                       \
        else if (full)                                                                                        \
            quant__st8x4((uint8_t *)dst + i, QUANT__RQ_ONE(0, 0), QUANT__RQ_ONE(QUANT__W, 0),                   \
                         QUANT__RQ_ONE(2 * QUANT__W, 0), QUANT__RQ_ONE(3 * QUANT__W, 0), zp, sgn, nt);           \
        else                                                                                                  \
            quant__st8x4((uint8_t *)dst + i, QUANT__RQ_AT(0), QUANT__RQ_AT(QUANT__W), QUANT__RQ_AT(2 * QUANT__W), \
                         QUANT__RQ_AT(3 * QUANT__W), 0, sgn, nt);                                               \
    } while (0)
#if QUANT__RQ_WF
    if (fast && !fl && !vec) quant__v_rq_fput(&fs0, &fd0, &m0, &s0, 1, dbl);
#endif
    if (!QUANT__S16 || k->out != QUANT__RQ_S16) {
        const int32_t zp = k->zp;
        const int nt = k->nt;
        /* streaming: a first block that is not aligned is stored as it
           is, and the next starts at the aligned address inside it (the
           elements between are written twice, the same bytes) */
        if (nt && n >= 4 * QUANT__W) {
            const size_t off = quant__head(dst, 4 * QUANT__W, 4 * QUANT__W);
            if (off) { QUANT__RQ_X4(0); i = q = off; } /* off < 4 W <= period */
        }
#  define QUANT__RQ_BLOCKS(nt, end, pf)             \
    for (; i + (end) <= n; i += 4 * QUANT__W) { \
        pf;                                     \
        QUANT__RQ_X4(nt);                       \
        q += 4 * QUANT__W;                      \
        if (q >= per) q -= per;                 \
    }
        /* Testing nt in each block costs FLOAT about 1.5% at 64 Ki: a
           loop without the test where it is 0. Streaming, the blocks wait
           on memory: the loop asks for the lines QUANT__RQ_AHEAD bytes on
           (at 16 Mi on an Intel Xeon, 0.58x to 0.70x the time for DOUBLE
           and SINGLE with AVX-512 and AVX2, FLOAT 0.96x; on AMD Zen 5
           DOUBLE and SINGLE had gained nothing). FLOAT asks in cache too
           (from L2 at 64 Ki on the Xeon: 0.86x the time with AVX-512 and
           0.91x with AVX2), and so do DOUBLE and SINGLE in the float form
           (AVX-512 at 64 Ki: about 0.97x; the integer form, busier,
           gains nothing) */
        if (!nt && !fl && !fast) QUANT__RQ_BLOCKS(0, 4 * QUANT__W, (void)0)
        else if (!nt) {
            QUANT__RQ_BLOCKS(0, 4 * QUANT__W + QUANT__RQ_AHEAD / 4, QUANT__RQ_PF(src + i))
            QUANT__RQ_BLOCKS(0, 4 * QUANT__W, (void)0)
        } else {
            QUANT__RQ_BLOCKS(1, 4 * QUANT__W + QUANT__RQ_AHEAD / 4, QUANT__RQ_PF(src + i))
            QUANT__RQ_BLOCKS(1, 4 * QUANT__W, (void)0)
        }
#  undef QUANT__RQ_BLOCKS
    }
#  undef QUANT__RQ_X4
#endif
#undef QUANT__RQ_FAST
#undef QUANT__RQ_F
    for (; i + QUANT__W <= n; i += QUANT__W) {
        quant__v_rq_put(dst, i, QUANT__RQ_AT(0), k->out);
        q += QUANT__W;
        if (q >= per) q -= per;
    }
#undef QUANT__RQ_AT
#undef QUANT__RQ_ONE
    (void)full;
    (void)fast;
    (void)sgn;
    *pq = q;
    return i;
}
/* the tail, and what a backend's kernel does not take, is the scalar
   kernel's. The vector loop runs for: */
#define QUANT__RQ_VEC(rnd, k) ((rnd) == QUANT_RQ_FLOAT || QUANT__RQ_V_OK(k))
QUANT__INLINE void quant__v_rq_body(const int32_t *src, void *dst, size_t n, const int32_t *m, const int32_t *sh,
                                    const float *s, const int vec, const unsigned rnd, const quant__rqk *kp)
{
    quant__rqk k1 = *kp; /* a copy: stores to dst cannot change it; the rounding a constant */
    const quant__rqk *const k = &k1;
    size_t i = 0, q = 0;
    k1.rounding = (unsigned char)rnd;
#if QUANT__X86
#  define QUANT__RQ_LOOP(left, wide, full, fast)                                                                   \
    (k->out == QUANT__RQ_S8 ? quant__v_rq_loop(src, dst, n, m, sh, s, vec, rnd, left, wide, full, fast, k, 1, &q)      \
                            : quant__v_rq_loop(src, dst, n, m, sh, s, vec, rnd, left, wide, full, fast, k, 0, &q))
#else
#  define QUANT__RQ_LOOP(left, wide, full, fast) \
    quant__v_rq_loop(src, dst, n, m, sh, s, vec, rnd, left, wide, full, fast, k, 1, &q)
#endif
    /* SSE2's float form where its parameters are there (right shifts) */
#if QUANT__RQ_WF
#  define QUANT__RQ_FL (rnd != QUANT_RQ_FLOAT)
#else
#  define QUANT__RQ_FL 0
#endif
    if (QUANT__RQ_VEC(rnd, k)) {
#if QUANT__PASS == QUANT_SIMD_AVX512
        if (rnd != QUANT_RQ_FLOAT && k->left) i = QUANT__RQ_LOOP(1, 0, 0, 0);
        else
#endif
#if QUANT__RQ_WIDE
        if (rnd != QUANT_RQ_FLOAT &&
            (vec ? k->w != NULL : QUANT__PASS != QUANT_SIMD_SSE2 && (rnd == QUANT_RQ_SINGLE || sh[0] != 0)))
        {
            /* SSE2 takes the float form whenever it takes the wide one;
               AVX-512 where no shift is 0 */
            if (QUANT__RQ_FL && (QUANT__PASS == QUANT_SIMD_SSE2 || (vec ? k->fs != NULL : sh[0] != 0)))
                i = k->full ? QUANT__RQ_LOOP(0, 1, 1, 1) : QUANT__RQ_LOOP(0, 1, 0, 1);
            else
                i = k->full ? QUANT__RQ_LOOP(0, 1, 1, 0) : QUANT__RQ_LOOP(0, 1, 0, 0);
        } else
#endif
#if QUANT__RQ_WF
        if (QUANT__RQ_FL && QUANT__RQ_WF32 && (vec ? k->fs != NULL : !k->left))
            i = k->full ? QUANT__RQ_LOOP(0, 0, 1, 1) : QUANT__RQ_LOOP(0, 0, 0, 1);
        else
#endif
#if QUANT__X86
        if (rnd == QUANT_RQ_FLOAT && k->full && !k->top) i = QUANT__RQ_LOOP(0, 0, 1, 1);
        else if (k->full) i = QUANT__RQ_LOOP(0, 0, 1, 0);
        else
#endif
            i = QUANT__RQ_LOOP(0, 0, 0, 0);
    }
#undef QUANT__RQ_LOOP
#undef QUANT__RQ_FL
    if (i < n) { /* fewer than W (or all of them, where the vector loop cannot run, with period 0) */
        size_t b = vec ? q : 0, len = n - i;
#  define QUANT__RQ_DST (QUANT__S16 && k->out == QUANT__RQ_S16 ? (void *)((int16_t *)dst + i) : (void *)((uint8_t *)dst + i))
#if QUANT__RQ_WIDE
        if (vec && k->w) { /* no 32-bit copy of the parameters: the caller's, a row at a time */
            b = q % k->row;
            while (b + len > k->row) {
                quant__scalar_rq(src + i, QUANT__RQ_DST, k->row - b, m + b, sh + b, s, 1, k);
                i += k->row - b;
                len -= k->row - b;
                b = 0;
            }
        }
#endif
        quant__scalar_rq(src + i, QUANT__RQ_DST, len, m ? m + b : m, sh ? sh + b : sh, s ? s + b : s, (size_t)vec, k);
#  undef QUANT__RQ_DST
    }
}
/* the body's six forms (vec, and the rounding, constants in each), in
   one function that quant__simd_rq and quant__v_rq_rows share: a form
   inlined is some ten loops of four-vector blocks */
QUANT__NOINLINE void quant__v_rq_forms(const int32_t *src, void *dst, size_t n, const int32_t *m, const int32_t *sh,
                                       const float *s, const int vec, const quant__rqk *k)
{
    switch (k->rounding * 2u + (vec ? 1u : 0u)) { /* a loop for each, with no tests of either in it */
    case QUANT_RQ_DOUBLE * 2: quant__v_rq_body(src, dst, n, m, sh, s, 0, QUANT_RQ_DOUBLE, k); break;
    case QUANT_RQ_DOUBLE * 2 + 1: quant__v_rq_body(src, dst, n, m, sh, s, 1, QUANT_RQ_DOUBLE, k); break;
    case QUANT_RQ_SINGLE * 2: quant__v_rq_body(src, dst, n, m, sh, s, 0, QUANT_RQ_SINGLE, k); break;
    case QUANT_RQ_SINGLE * 2 + 1: quant__v_rq_body(src, dst, n, m, sh, s, 1, QUANT_RQ_SINGLE, k); break;
    case QUANT_RQ_FLOAT * 2: quant__v_rq_body(src, dst, n, m, sh, s, 0, QUANT_RQ_FLOAT, k); break;
    default: quant__v_rq_body(src, dst, n, m, sh, s, 1, QUANT_RQ_FLOAT, k); break;
    }
}
#if QUANT__X86
/* rep[f..run) from rep[0..f), f >= W words already there: whole vectors,
   the last one past run (rep has W words to spare) */
QUANT__INLINE void quant__v_rq_repeat(int32_t *rep, size_t f, size_t run)
{
    size_t j;
    for (j = f; j < run; j += QUANT__W) quant__sti(rep + j, quant__ldi(rep + j - f));
}
/* rep[0..f) from p, row words repeated, f >= W a whole number of rows:
   one row by vectors (the last overlapping; the fence keeps the compiler
   from making the loop a call of memcpy), or a word at a time with a
   counter when the row is shorter than a vector */
QUANT__INLINE size_t quant__v_rq_first(int32_t *rep, const int32_t *p, size_t row)
{
    size_t j, c = 0, f = row;
    quant__vi v;
    if (row >= QUANT__W) {
        for (j = 0; j + QUANT__W < row; j += QUANT__W) {
            v = quant__ldi(p + j);
            QUANT__VFENCE(v);
            quant__sti(rep + j, v);
        }
        quant__sti(rep + row - QUANT__W, quant__ldi(p + row - QUANT__W));
        return row;
    }
    while (f < QUANT__W) f += row;
    for (j = 0; j < f; ++j) { rep[j] = p[c]; if (++c == row) c = 0; }
    return f;
}
/* channels last, k->row of them: the parameters laid out again for as
   many whole rows as fit in QUANT__RQ_REP words (run of them), and 4 W
   more, so that a block of 4 W elements may start anywhere before run;
   the vector loop then takes the tensor in one pass, its parameter index
   wrapping at run. Where it cannot (AVX2's and SSE2's left shifts) the
   scalar kernel takes a run a call. */
QUANT__INLINE void quant__v_rq_rows(const int32_t *src, void *dst, size_t n, const int32_t *m, const int32_t *sh,
                                    const float *s, const unsigned rnd, const quant__rqk *kp)
{
    union {
        float f[QUANT__RQ_REP + 5 * QUANT__W];
        int32_t i[(2 + 2 * QUANT__RQ_WF32) * (QUANT__RQ_REP + 5 * QUANT__W)]; /* m and sh (SSE2: and s, d) */
#if QUANT__RQ_WIDE
        int64_t w[(QUANT__RQ_WK + QUANT__RQ_WF) * QUANT__RQ_WN];
        quant__vi align; /* whole vectors: no load of the layout splits a cache line */
#endif
    } rep;
    const size_t run = QUANT__RQ_REP / kp->row * kp->row, fill = run + 4 * QUANT__W, half = QUANT__RQ_REP + 5 * QUANT__W;
    const size_t esize = QUANT__S16 && kp->out == QUANT__RQ_S16 ? 2u : 1u;
    quant__rqk k1 = *kp;
    size_t e;
    k1.rounding = (unsigned char)rnd;
#if QUANT__RQ_WIDE
    if (rnd != QUANT_RQ_FLOAT && !kp->left && kp->row <= QUANT__RQ_WREP) {
        /* the wide layout: one row's parameters (a short row repeated to
           8 or more), then repeated as 32-bit words */
        const size_t row = kp->row, runw = QUANT__RQ_WREP / row * row;
        const int dbl = rnd == QUANT_RQ_DOUBLE;
        size_t f = row, j, c = 0;
        unsigned zero = 0;
        int32_t tm[16], ts[16]; /* a short row, repeated */
#  if QUANT__RQ_WF
        int32_t *const fs = (int32_t *)(void *)(rep.w + QUANT__RQ_WK * QUANT__RQ_WN), *const fd = fs + QUANT__RQ_WN;
#  endif
        if (row >= 8) {
            for (j = 0; j + 8 < row; j += 8) zero |= quant__v_rq_wput(rep.w + j, m + j, sh + j, dbl);
            zero |= quant__v_rq_wput(rep.w + row - 8, m + row - 8, sh + row - 8, dbl);
        } else {
            while (f < 8) f += row;
            for (j = 0; j < f; ++j) {
                tm[j] = m[c];
                ts[j] = sh[c];
                if (++c == row) c = 0;
            }
            zero = quant__v_rq_wput(rep.w, tm, ts, dbl) | quant__v_rq_wput(rep.w + f - 8, tm + f - 8, ts + f - 8, dbl);
        }
        if (!((dbl || QUANT__PASS == QUANT_SIMD_SSE2) && zero)) {
            for (j = 0; j < QUANT__RQ_WK; ++j) quant__v_rq_repeat((int32_t *)(void *)(rep.w + j * QUANT__RQ_WN), 2 * f, 2 * (runw + 4 * QUANT__W));
#  if QUANT__RQ_WF
            if (!zero) { /* (SSE2: always) the float form's, g >= W words first */
                size_t g = 0;
                for (; g < QUANT__W; g += f)
                    quant__v_rq_fput(fs + g, fd + g, row >= 8 ? m : tm, row >= 8 ? sh : ts, f, dbl);
                quant__v_rq_repeat(fs, g, runw + 4 * QUANT__W);
                quant__v_rq_repeat(fd, g, runw + 4 * QUANT__W);
                k1.fs = fs;
                k1.fd = fd;
            }
#  endif
            k1.period = runw;
            k1.w = rep.w;
            quant__v_rq_forms(src, dst, n, m, sh, s, 1, &k1);
            return;
        }
    }
#endif
    if (rnd == QUANT_RQ_FLOAT) {
        quant__v_rq_repeat(rep.i, quant__v_rq_first(rep.i, (const int32_t *)(const void *)s, kp->row), fill);
        s = rep.f;
    } else {
        const size_t f = quant__v_rq_first(rep.i, m, kp->row);
        quant__v_rq_repeat(rep.i, f, fill);
        quant__v_rq_repeat(rep.i + half, quant__v_rq_first(rep.i + half, sh, kp->row), fill);
        m = rep.i;
        sh = rep.i + half;
#if QUANT__RQ_WF32
        if (!kp->left && kp->out != QUANT__RQ_S16) { /* the float form's parameters after them */
            quant__v_rq_fput(rep.i + 2 * half, rep.i + 3 * half, m, sh, f, rnd == QUANT_RQ_DOUBLE);
            quant__v_rq_repeat(rep.i + 2 * half, f, fill);
            quant__v_rq_repeat(rep.i + 3 * half, f, fill);
            k1.fs = rep.i + 2 * half;
            k1.fd = rep.i + 3 * half;
        }
#endif
    }
    if (QUANT__RQ_VEC(rnd, &k1)) {
        k1.period = run;
        quant__v_rq_forms(src, dst, n, m, sh, s, 1, &k1);
    } else {
        for (e = 0; e < n; e += run)
            quant__v_rq_forms(src + e, (uint8_t *)dst + e * esize, n - e < run ? n - e : run, m, sh, s, 1, &k1);
    }
}
#endif
#if QUANT__TWIN
#  define quant__simd_rq_avx512vbmi quant__simd_rq_avx512
#else
QUANT__PRIVATE void quant__simd_rq(const int32_t *src, void *dst, size_t n, const int32_t *m, const int32_t *sh,
                                   const float *s, size_t step, const quant__rqk *k)
{
#if QUANT__X86
    if (k->row) {
        switch (k->rounding) {
        case QUANT_RQ_DOUBLE: quant__v_rq_rows(src, dst, n, m, sh, s, QUANT_RQ_DOUBLE, k); break;
        case QUANT_RQ_SINGLE: quant__v_rq_rows(src, dst, n, m, sh, s, QUANT_RQ_SINGLE, k); break;
        default: quant__v_rq_rows(src, dst, n, m, sh, s, QUANT_RQ_FLOAT, k); break;
        }
        return;
    }
#endif
    quant__v_rq_forms(src, dst, n, m, sh, s, step != 0, k);
}
#endif /* QUANT__TWIN */
#undef QUANT__RQ_V_OK
#undef QUANT__RQ_VEC
#undef QUANT__RQ_MAX
#undef QUANT__RQ_PF
#undef QUANT__RQ_AHEAD
#undef QUANT__RQ_WIDE
#undef QUANT__RQ_WK
#undef QUANT__RQ_WF
#undef QUANT__RQ_WF32

#elif QUANT__PART == 3 && QUANT__RQ

#if QUANT__DISPATCH
QUANT__PRIVATE void quant__simd_rq_x86(const int32_t *src, void *dst, size_t n, const int32_t *m, const int32_t *sh,
                                       const float *s, size_t step, const quant__rqk *k)
{
    QUANT__PICK(quant__simd_rq, (src, dst, n, m, sh, s, step, k));
}
#endif
#if QUANT__SIMD_ANY
#  define quant__rq(q, y, n, m, sh, s, step, k) QUANT__BK(quant__simd_rq)(q, y, n, m, sh, s, step, k)
#else
#  define quant__rq(q, y, n, m, sh, s, step, k) quant__scalar_rq(q, y, n, m, sh, s, step, k)
#endif

#endif

/* ---- >>unit tile: rows of 32-bit elements gathered across (gather32) -- */
/* A strided walk whose src is contiguous across its rows (NCHW read as
   rows along C) gathers a tile of rows at a time: a transpose. The vector
   form moves 4 x 4 blocks through registers; bits are copied, never
   converted. */
#if QUANT__PART == 2 && !defined(QUANT_NO_STRIDES)

/* a 4 x 4 block: t[m * tstep + k] = f[k * fstep + m] */
QUANT__INLINE void quant__tr4x4(uint32_t *t, size_t tstep, const uint32_t *f, size_t fstep)
{
#  if QUANT__PASS == QUANT_SIMD_HELIUM
    /* bits moved one word at a time: MVE's interleaving loads would need
       the four rows side by side in memory */
    size_t m, k;
    for (m = 0; m < 4; ++m)
        for (k = 0; k < 4; ++k) t[m * tstep + k] = f[k * fstep + m];
#  elif QUANT__PASS == QUANT_SIMD_NEON
    const uint32x4x2_t ab = vtrnq_u32(vld1q_u32(f), vld1q_u32(f + fstep));
    const uint32x4x2_t cd = vtrnq_u32(vld1q_u32(f + 2 * fstep), vld1q_u32(f + 3 * fstep));
    vst1q_u32(t, vcombine_u32(vget_low_u32(ab.val[0]), vget_low_u32(cd.val[0])));
    vst1q_u32(t + tstep, vcombine_u32(vget_low_u32(ab.val[1]), vget_low_u32(cd.val[1])));
    vst1q_u32(t + 2 * tstep, vcombine_u32(vget_high_u32(ab.val[0]), vget_high_u32(cd.val[0])));
    vst1q_u32(t + 3 * tstep, vcombine_u32(vget_high_u32(ab.val[1]), vget_high_u32(cd.val[1])));
#  else
    const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)f);
    const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(f + fstep));
    const __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(f + 2 * fstep));
    const __m128i d = _mm_loadu_si128((const __m128i *)(const void *)(f + 3 * fstep));
    const __m128i ab0 = _mm_unpacklo_epi32(a, b), ab1 = _mm_unpackhi_epi32(a, b);
    const __m128i cd0 = _mm_unpacklo_epi32(c, d), cd1 = _mm_unpackhi_epi32(c, d);
    _mm_storeu_si128((__m128i *)(void *)t, _mm_unpacklo_epi64(ab0, cd0));
    _mm_storeu_si128((__m128i *)(void *)(t + tstep), _mm_unpackhi_epi64(ab0, cd0));
    _mm_storeu_si128((__m128i *)(void *)(t + 2 * tstep), _mm_unpacklo_epi64(ab1, cd1));
    _mm_storeu_si128((__m128i *)(void *)(t + 3 * tstep), _mm_unpackhi_epi64(ab1, cd1));
#  endif
}

/* tile[m * len + k] = from[k * fstep + m] for m < mc, k < len: four of
   src's lines at a time, each read to the tile's end before the next four */
QUANT__PRIVATE void quant__simd_gather32(uint32_t *tile, const uint32_t *from, size_t fstep, size_t mc, size_t len)
{
    const size_t m4 = mc & ~(size_t)3, k4 = len & ~(size_t)3;
    size_t m, k;
    for (k = 0; k < k4; k += 4) {
        for (m = 0; m < m4; m += 4) quant__tr4x4(tile + m * len + k, len, from + k * fstep + m, fstep);
    }
    for (m = 0; m < mc; ++m) /* the edges: rows from m4 on, elements from k4 on */
        for (k = m < m4 ? k4 : 0; k < len; ++k) tile[m * len + k] = from[k * fstep + m];
}

#elif QUANT__PART == 3 && !defined(QUANT_NO_STRIDES)

#  if QUANT__DISPATCH
QUANT__PRIVATE void quant__simd_gather32_x86(uint32_t *tile, const uint32_t *from, size_t fstep, size_t mc, size_t len)
{
    QUANT__PICK(quant__simd_gather32, (tile, from, fstep, mc, len));
}
#  endif
#  if QUANT__SIMD_ANY
#    define quant__gather32 QUANT__BK(quant__simd_gather32)
#  endif

#endif

/* ---- >>unit blocks: ggml's block formats (GGUF) ------------------------ */
#if QUANT__PART == 1
/* ggml's block formats: elements and bytes of a block, in dtype order */
#if QUANT__BLOCKS
static const unsigned short quant__blk_tab[15][2] = {
    { 32, 18 }, { 32, 20 }, { 32, 22 }, { 32, 24 }, { 32, 34 },                   /* q4_0 q4_1 q5_0 q5_1 q8_0 */
    { 256, 84 }, { 256, 110 }, { 256, 144 }, { 256, 176 }, { 256, 210 }, { 256, 292 }, /* q2_K .. q8_K */
    { 32, 18 }, { 256, 136 }, { 32, 17 }, { 64, 36 }                              /* iq4_nl iq4_xs mxfp4 nvfp4 */
};
#  define quant__blk(t) ((unsigned)(t) - QUANT_Q4_0 < 15u ? (unsigned)quant__blk_tab[(unsigned)(t) - QUANT_Q4_0][0] : 0u)
#  define quant__blk_bytes(t) ((unsigned)(t) - QUANT_Q4_0 < 15u ? (unsigned)quant__blk_tab[(unsigned)(t) - QUANT_Q4_0][1] : 1u)
#else
#  define quant__blk(t) 0u
#  define quant__blk_bytes(t) 1u
#endif

#if QUANT__BLOCKS

/* Every formula below is ggml's (ggml-quants.c of ggml 0.25.1), operation
   for operation in f32, because bit-for-bit agreement with its files is
   the point: products pass through quant__gm so that no compiler fuses
   them with a later sum, and conversions that C leaves undefined are
   written as x86 performs them, which is what ggml's x86 builds give. */

/* a product that is never fused into an FMA */
QUANT__INLINE float quant__gm(float a, float b)
{
    float p = a * b;
    QUANT__FENCE(p);
    return p;
}

/* p + m as x86 adds them in ggml's order: a NaN p is the result, whatever
   order a compiler puts the operands of the commutative sum in */
QUANT__INLINE float quant__gadd(float p, float m) { return p != p ? p : p + m; }

/* a / b with x86's default NaN when the quotient is a new NaN (Inf / Inf,
   0 / 0): -NaN there, +NaN on Arm; IQ4_NL stores such a scale */
QUANT__INLINE float quant__gdiv(float a, float b)
{
    const float q = a / b;
    return q != q && a == a && b == b ? quant__float(0xFFC00000u) : q;
}

/* ggml's nearest_int: round to nearest even by adding 1.5 * 2^23 and
   reading the low mantissa bits (for |v| >= 2^22 those bits are what
   ggml reads too) */
QUANT__INLINE int quant__gn(float v) { return (int)(quant__bits(v + 12582912.0f) & 0x7FFFFFu) - 0x400000; }

/* (int)v as x86's cvttss2si computes it: NaN and values out of range give
   INT32_MIN; narrower integer types then keep the low bits */
QUANT__INLINE int32_t quant__gt(float v) { return v > -2147483648.0f && v < 2147483648.0f ? (int32_t)v : INT32_MIN; }
QUANT__INLINE int quant__s8wrap(int v) { return (int)(v & 0xFF) - ((v & 0x80) << 1); }

QUANT__INLINE float quant__gh(const uint8_t *b) { return quant__f16_to_f32((uint16_t)(b[0] | b[1] << 8)); }
QUANT__INLINE void quant__gh_put(uint8_t *b, float v)
{
    const uint16_t h = quant__f32_to_f16(v); /* ggml's rounding too: nearest even, NaN 0x7E00 */
    b[0] = (uint8_t)h;
    b[1] = (uint8_t)(h >> 8);
}
QUANT__INLINE float quant__gabs(float v) { return quant__float(quant__bits(v) & 0x7FFFFFFFu); }

/* e2m1 values doubled (MXFP4, NVFP4) and IQ4_NL's 16 levels */
static const signed char quant__kv_fp4[16] = { 0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12 };
static const signed char quant__kv_iq4[16] = { -127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113 };

/* half an e8m0 scale, 2^(e - 128) (ggml's e8m0_to_fp32_half; 255 gives 2^127) */
QUANT__INLINE float quant__e8m0_half(unsigned e) { return quant__float(e < 2 ? 0x00200000u << e : (e - 1u) << 23); }
/* half a UE4M3 scale: 0x00 and 0x7F are 0, the sign bit is ignored */
QUANT__PRIVATE float quant__ue4m3_half(unsigned c)
{
    const unsigned e = (c >> 3) & 15u, m = c & 7u;
    if (c == 0 || c == 0x7Fu) return 0.0f;
    return e == 0 ? (float)m * quant__float(0x3A800000u) /* 2^-10 */
                  : (float)(8u + m) * quant__float((e + 116u) << 23); /* 2^(e-11) */
}

/* the 6-bit scale j and min of Q4_K and Q5_K's 12 packed bytes */
QUANT__INLINE void quant__k4_scale(const uint8_t *q, int j, unsigned *sc, unsigned *m)
{
    if (j < 4) {
        *sc = q[j] & 63u;
        *m = q[j + 4] & 63u;
    } else {
        *sc = (q[j + 4] & 15u) | ((unsigned)(q[j - 4] >> 6) << 4);
        *m = (unsigned)(q[j + 4] >> 4) | ((unsigned)(q[j] >> 6) << 4);
    }
}
/* the signed 6-bit scale j of Q3_K's 12 packed bytes */
QUANT__INLINE int quant__k3_scale(const uint8_t *q, int j)
{
    const unsigned lo = j < 8 ? q[j] & 15u : (unsigned)q[j - 8] >> 4;
    return (int)(lo | (((unsigned)q[8 + j % 4] >> (2 * (j / 4)) & 3u) << 4)) - 32;
}

/* One block of type t decoded into y, as ggml's dequantize_row_* */
QUANT__NOINLINE void quant__blk_decode(unsigned t, const uint8_t *b, float *y)
{
    int j, l, n;
    float d, m;
    uint32_t qh;
    switch (t) {
    case QUANT_Q4_0: case QUANT_Q4_1: case QUANT_Q5_0: case QUANT_Q5_1: {
        const int has_m = t == QUANT_Q4_1 || t == QUANT_Q5_1, five = t >= QUANT_Q5_0;
        const uint8_t *qs = b + 2 + 2 * has_m + 4 * five;
        const int off = has_m ? 0 : five ? 16 : 8;
        d = quant__gh(b);
        m = has_m ? quant__gh(b + 2) : 0.0f;
        qh = five ? quant__ld4(b + 2 + 2 * has_m) : 0;
        for (j = 0; j < 16; ++j) {
            const int x0 = (int)((qs[j] & 15u) | ((qh >> j) << 4 & 16u)) - off;
            const int x1 = (int)((qs[j] >> 4) | ((qh >> (j + 12)) & 16u)) - off;
            y[j] = has_m ? quant__gadd(quant__gm((float)x0, d), m) : (float)x0 * d;
            y[j + 16] = has_m ? quant__gadd(quant__gm((float)x1, d), m) : (float)x1 * d;
        }
        return;
    }
    case QUANT_Q8_0:
        d = quant__gh(b);
        for (j = 0; j < 32; ++j) y[j] = (float)(int8_t)b[2 + j] * d;
        return;
    case QUANT_IQ4_NL:
        d = quant__gh(b);
        for (j = 0; j < 16; ++j) {
            y[j] = d * (float)quant__kv_iq4[b[2 + j] & 15];
            y[j + 16] = d * (float)quant__kv_iq4[b[2 + j] >> 4];
        }
        return;
    case QUANT_MXFP4:
        d = quant__e8m0_half(b[0]);
        for (j = 0; j < 16; ++j) {
            y[j] = (float)quant__kv_fp4[b[1 + j] & 15] * d;
            y[j + 16] = (float)quant__kv_fp4[b[1 + j] >> 4] * d;
        }
        return;
    case QUANT_NVFP4_BLOCK:
        for (n = 0; n < 4; ++n, y += 16) {
            d = quant__ue4m3_half(b[n]);
            for (j = 0; j < 8; ++j) {
                y[j] = (float)quant__kv_fp4[b[4 + 8 * n + j] & 15] * d;
                y[j + 8] = (float)quant__kv_fp4[b[4 + 8 * n + j] >> 4] * d;
            }
        }
        return;
    case QUANT_Q2_K: case QUANT_Q3_K: {
        /* four 2-bit planes of 32 bytes per 128 elements; Q2_K subtracts a
           scaled min, Q3_K takes 4 unless the element's hmask bit is set */
        const int k2 = t == QUANT_Q2_K;
        const uint8_t *q = b + (k2 ? 16 : 32), *hm = b;
        unsigned bit = 1;
        d = quant__gh(b + (k2 ? 80 : 108));
        m = k2 ? quant__gh(b + 82) : 0.0f;
        for (n = 0; n < 2; ++n, q += 32)
            for (j = 0; j < 8; ++j) {
                const int is = 8 * n + j, sh = 2 * (j >> 1), h = 16 * (j & 1);
                if (k2) {
                    const float dl = d * (float)(b[is] & 15u), ml = quant__gm(m, (float)(b[is] >> 4));
                    for (l = 0; l < 16; ++l) *y++ = quant__gm(dl, (float)(q[l + h] >> sh & 3u)) - ml;
                } else {
                    const float dl = d * (float)quant__k3_scale(b + 96, is);
                    for (l = 0; l < 16; ++l) *y++ = dl * (float)((int)(q[l + h] >> sh & 3u) - (hm[l + h] & bit ? 0 : 4));
                    if (j & 1) bit <<= 1;
                }
            }
        return;
    }
    case QUANT_Q4_K: case QUANT_Q5_K: {
        const int k5 = t == QUANT_Q5_K;
        const uint8_t *q = b + (k5 ? 48 : 16), *qh8 = b + 16;
        d = quant__gh(b);
        m = quant__gh(b + 2);
        for (n = 0; n < 8; ++n) {
            unsigned sc, mn;
            float dl, ml;
            quant__k4_scale(b + 4, n, &sc, &mn);
            dl = d * (float)sc;
            ml = quant__gm(m, (float)mn);
            for (l = 0; l < 32; ++l) {
                const unsigned v = (n & 1 ? q[l] >> 4 : q[l] & 15u) + (k5 && (qh8[l] >> n & 1u) ? 16u : 0u);
                *y++ = quant__gm(dl, (float)v) - ml;
            }
            if (n & 1) q += 32;
        }
        return;
    }
    case QUANT_Q6_K: {
        const uint8_t *ql = b, *qh8 = b + 128;
        const int8_t *sc = (const int8_t *)(b + 192);
        d = quant__gh(b + 208);
        for (n = 0; n < 2; ++n, y += 128, ql += 64, qh8 += 32, sc += 8)
            for (l = 0; l < 32; ++l)
                for (j = 0; j < 4; ++j) {
                    const unsigned lo = (j & 2 ? ql[l + 32 * (j & 1)] >> 4 : ql[l + 32 * (j & 1)] & 15u);
                    const int q = (int)(lo | (unsigned)(qh8[l] >> (2 * j) & 3u) << 4) - 32;
                    y[l + 32 * j] = d * (float)sc[l / 16 + 2 * j] * (float)q;
                }
        return;
    }
    case QUANT_Q8_K:
        d = quant__float(quant__ld4(b));
        for (j = 0; j < 256; ++j) y[j] = d * (float)(int8_t)b[4 + j];
        return;
    case QUANT_IQ4_XS: {
        const unsigned sh = (unsigned)(b[2] | b[3] << 8);
        d = quant__gh(b);
        for (n = 0; n < 8; ++n, y += 32) {
            const int ls = (int)(((unsigned)b[4 + n / 2] >> 4 * (n % 2) & 15u) | (sh >> 2 * n & 3u) << 4);
            const float dl = d * (float)(ls - 32);
            const uint8_t *qs = b + 8 + 16 * n;
            for (j = 0; j < 16; ++j) {
                y[j] = dl * (float)quant__kv_iq4[qs[j] & 15];
                y[j + 16] = dl * (float)quant__kv_iq4[qs[j] >> 4];
            }
        }
        return;
    }
    default: return;
    }
}

/* ggml's best_index_int8: the nearest of 16 ascending levels, by
   bisection; a tie goes to the upper one */
QUANT__PRIVATE int quant__iq4_index(float x)
{
    const signed char *v = quant__kv_iq4;
    int lo = 0, hi = 15;
    if (x <= (float)v[0]) return 0;
    if (x >= (float)v[15]) return 15;
    while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        if (x < (float)v[mid]) hi = mid;
        else lo = mid;
    }
    return x - (float)v[hi - 1] < (float)v[hi] - x ? hi - 1 : hi;
}

/* ggml's best_index_mxfp4: the first of the 16 codes with the least
   |kv * d - x| (ties go toward zero, and to +0) */
QUANT__PRIVATE unsigned quant__fp4_index(float x, float d)
{
    unsigned i, best = 0;
    float err = quant__gabs(quant__gm((float)quant__kv_fp4[0], d) - x);
    for (i = 1; i < 16; ++i) {
        const float e = quant__gabs(quant__gm((float)quant__kv_fp4[i], d) - x);
        const int less = e < err; /* no branch: which code wins is the data's */
        best = less ? i : best;
        err = less ? e : err;
    }
    return best;
}

/* floor(log2f(a)) for a > 0 as glibc's log2f gives it: a's exponent e,
   or e + 1 = k when a lies so close below 2^k that log2f rounds up to k.
   That happens within ln2 * 2^B ulps of 2^k, B the binade of the results
   just below k, and 2^(k+125) times as many below 2^-126, where an ulp
   of a is relatively coarser (checked against glibc 2.36 on every
   positive float: tests/test_ggml.c). */
QUANT__PRIVATE int quant__glog2(float a)
{
    static const unsigned char below[8] = { 0, 1, 2, 5, 11, 22, 44, 88 }; /* floor(ln2 * 2^B) */
    const uint32_t u = quant__bits(a);
    int e = (int)(u >> 23) - 127, k, mag, bin = -1;
    uint32_t room;
    if (e == -127) { /* subnormal: its leading bit */
        int lead = 22;
        while (!(u >> lead & 1u)) --lead;
        e = lead - 149;
    }
    k = e + 1;
    for (mag = k > 0 ? k - 1 : -k; mag; mag >>= 1) ++bin;
    if (bin < 0) return e;
    room = below[bin];
    if (k < -125) room >>= -125 - k;
    return (k >= -126 ? (uint32_t)(k + 127) << 23 : 1u << (k + 149)) - u <= room ? k : e;
}

/* sqrtf, correctly rounded, for x >= 0 (or NaN): the integer root of the
   mantissa widened to 50 bits gives 25 bits, the last one the rounding
   bit, the remainder the sticky bit */
QUANT__PRIVATE float quant__sqrt(float x)
{
    const uint32_t u = quant__bits(x);
    uint32_t m = u & 0x7FFFFFu, q;
    uint64_t M, r = 0, bit;
    int e = (int)(u >> 23), sh;
    if ((u & 0x7FFFFFFFu) == 0 || u >= 0x7F800000u) return x; /* +-0, +Inf, NaN */
    if (e == 0) {
        while (!(m & 0x800000u)) { m <<= 1; --e; }
        ++e;
    } else m |= 0x800000u;
    /* x = m 2^(e-150); M = m 2^sh in [2^48, 2^50) with e - 150 - sh even */
    sh = ((e - 150) & 1) ? 25 : 26;
    M = (uint64_t)m << sh;
    for (bit = (uint64_t)1 << 48; bit; bit >>= 2) {
        if (M >= r + bit) { M -= r + bit; r = (r >> 1) + bit; }
        else r >>= 1;
    }
    q = (uint32_t)(r >> 1) + (uint32_t)((r & 1u) && (M != 0 || (r >> 1 & 1u)));
    return quant__float(((uint32_t)((e - 150 - sh) / 2 + 151) << 23) + q - 0x800000u);
}

/* ggml's fp32_to_ue4m3: the mantissa rounded half up, 448 and above 0x7E,
   below 2^-6 steps of 2^-9 rounded half up */
QUANT__PRIVATE unsigned quant__ue4m3_code(float x)
{
    uint32_t u;
    int e, m;
    if (!(x > 0.0f)) return 0;
    if (x > 448.0f) x = 448.0f;
    u = quant__bits(x);
    e = (int)(u >> 23 & 0xFFu) - 120;
    m = (int)(u >> 20 & 7u);
    if (e <= 0) {
        const int s = quant__gt(quant__gm(x, 512.0f) + 0.5f);
        return s > 7 ? 7u : s < 1 ? 0u : (unsigned)s;
    }
    if (e >= 15) return 0x7Eu;
    m += (int)(u >> 19 & 1u);
    if (m > 7) {
        m = 0;
        if (++e >= 15) return 0x7Eu;
    }
    return (unsigned)(e << 3 | m);
}

/* ggml's make_qkx2_quants: levels 0 .. nmax of x - min with min <= 0,
   weighted; a search over nstep + 1 scales keeps the one with the least
   weighted error (|e| when mad, else e^2). Returns the scale, *mn the
   negated min. */
QUANT__NOINLINE float quant__k_minmax(int n, int nmax, const float *x, const float *w, uint8_t *L, float *mn,
                                      float rmin, float rdelta, int nstep, int mad)
{
    uint8_t aux[32];
    float lo = x[0], hi = x[0], sw = w[0], sx = quant__gm(w[0], x[0]), is, scale, best = 0.0f;
    int i, s;
    for (i = 1; i < n; ++i) {
        if (x[i] < lo) lo = x[i];
        if (x[i] > hi) hi = x[i];
        sw += w[i];
        sx += quant__gm(w[i], x[i]);
    }
    if (lo > 0) lo = 0;
    if (hi == lo) {
        for (i = 0; i < n; ++i) L[i] = 0;
        *mn = -lo;
        return 0.0f;
    }
    is = (float)nmax / (hi - lo);
    scale = 1 / is;
    for (i = 0; i < n; ++i) {
        const int l = quant__gn(quant__gm(is, x[i] - lo));
        float e;
        L[i] = (uint8_t)(l < 0 ? 0 : l > nmax ? nmax : l);
        e = quant__gm(scale, (float)L[i]) + lo - x[i];
        e = mad ? quant__gabs(e) : quant__gm(e, e);
        best += quant__gm(w[i], e);
    }
    for (s = 0; s <= nstep; ++s) {
        float sl = 0, sl2 = 0, sxl = 0, D;
        is = (rmin + quant__gm(rdelta, (float)s) + (float)nmax) / (hi - lo);
        for (i = 0; i < n; ++i) {
            int l = quant__gn(quant__gm(is, x[i] - lo));
            l = l < 0 ? 0 : l > nmax ? nmax : l;
            aux[i] = (uint8_t)l;
            sl += quant__gm(w[i], (float)l);
            sl2 += quant__gm(quant__gm(w[i], (float)l), (float)l);
            sxl += quant__gm(quant__gm(w[i], (float)l), x[i]);
        }
        D = quant__gm(sw, sl2) - quant__gm(sl, sl);
        if (D > 0) {
            float ts = (quant__gm(sw, sxl) - quant__gm(sx, sl)) / D, tm = (quant__gm(sl2, sx) - quant__gm(sl, sxl)) / D, err = 0;
            if (tm > 0) {
                tm = 0;
                ts = sxl / sl2;
            }
            for (i = 0; i < n; ++i) {
                float e = quant__gm(ts, (float)aux[i]) + tm - x[i];
                e = mad ? quant__gabs(e) : quant__gm(e, e);
                err += quant__gm(w[i], e);
            }
            if (err < best) {
                for (i = 0; i < n; ++i) L[i] = aux[i];
                best = err;
                scale = ts;
                lo = tm;
            }
        }
    }
    *mn = -lo;
    return scale;
}

/* the largest |x| of n, and the first x with it */
QUANT__INLINE float quant__amax(const float *x, int n, float *at)
{
    float a = 0, m = 0;
    int i;
    for (i = 0; i < n; ++i)
        if (quant__gabs(x[i]) > a) { a = quant__gabs(x[i]); m = x[i]; }
    *at = m;
    return a;
}

/* ggml's make_qx_quants with rmse_type 1 (weights x^2), as Q6_K calls
   it: levels -nmax .. nmax-1, stored + nmax; 18 scales around -nmax/max
   tried. Returns the scale. */
QUANT__NOINLINE float quant__k_sym(int n, int nmax, const float *x, int8_t *L)
{
    float mx, is, slx = 0, sl2 = 0, scale, best;
    int i, s;
    if (quant__amax(x, n, &mx) < 1e-15f) {
        for (i = 0; i < n; ++i) L[i] = 0;
        return 0.0f;
    }
    for (s = 0; s <= 18; ++s) {
        const int step = s == 0 ? 0 : s <= 9 ? s - 10 : s - 9; /* 0, then -9 .. -1, 1 .. 9 */
        slx = sl2 = 0;
        is = -((float)nmax + quant__gm(0.1f, (float)step)) / mx;
        if (step == 0) is = (float)-nmax / mx;
        for (i = 0; i < n; ++i) {
            int l = quant__gn(quant__gm(is, x[i]));
            const float w = quant__gm(x[i], x[i]);
            l = l < -nmax ? -nmax : l > nmax - 1 ? nmax - 1 : l;
            if (step == 0) L[i] = (int8_t)(l + nmax);
            slx += quant__gm(quant__gm(w, x[i]), (float)l);
            sl2 += quant__gm(quant__gm(w, (float)l), (float)l);
        }
        if (step == 0) {
            scale = sl2 != 0 ? slx / sl2 : 0.0f;
            best = quant__gm(scale, slx);
        } else if (sl2 > 0 && quant__gm(slx, slx) > quant__gm(best, sl2)) {
            for (i = 0; i < n; ++i) {
                const int l = quant__gn(quant__gm(is, x[i]));
                L[i] = (int8_t)(nmax + (l < -nmax ? -nmax : l > nmax - 1 ? nmax - 1 : l));
            }
            scale = slx / sl2;
            best = quant__gm(scale, slx);
        }
    }
    return scale;
}

/* ggml's make_q3_quants with do_rmse (Q3_K): levels -4 .. 3 by
   -nmax/max, then up to five passes that move single levels while that
   raises sumlx^2 / suml2. Returns the scale; L gets levels + nmax. */
QUANT__NOINLINE float quant__k3_sym(int n, int nmax, const float *x, int8_t *L)
{
    float mx, is, slx = 0, sl2 = 0;
    int i, t;
    if (quant__amax(x, n, &mx) < 1e-15f) {
        for (i = 0; i < n; ++i) L[i] = 0;
        return 0.0f;
    }
    is = (float)-nmax / mx;
    for (i = 0; i < n; ++i) {
        int l = quant__gn(quant__gm(is, x[i]));
        const float w = quant__gm(x[i], x[i]);
        l = l < -nmax ? -nmax : l > nmax - 1 ? nmax - 1 : l;
        L[i] = (int8_t)l;
        slx += quant__gm(quant__gm(w, x[i]), (float)l);
        sl2 += quant__gm(quant__gm(w, (float)l), (float)l);
    }
    for (t = 0; t < 5; ++t) {
        int changed = 0;
        for (i = 0; i < n; ++i) {
            const float w = quant__gm(x[i], x[i]);
            float s1 = slx - quant__gm(quant__gm(w, x[i]), (float)L[i]);
            if (s1 > 0) {
                float s2 = sl2 - quant__gm(quant__gm(w, (float)L[i]), (float)L[i]);
                int l = quant__gn(quant__gm(x[i], s2) / s1);
                l = l < -nmax ? -nmax : l > nmax - 1 ? nmax - 1 : l;
                if (l != L[i]) {
                    s1 += quant__gm(quant__gm(w, x[i]), (float)l);
                    s2 += quant__gm(quant__gm(w, (float)l), (float)l);
                    if (s2 > 0 && quant__gm(quant__gm(s1, s1), sl2) > quant__gm(quant__gm(slx, slx), s2)) {
                        L[i] = (int8_t)l;
                        slx = s1;
                        sl2 = s2;
                        ++changed;
                    }
                }
            }
        }
        if (!changed) break;
    }
    for (i = 0; i < n; ++i) L[i] = (int8_t)(L[i] + nmax);
    return sl2 > 0.0f ? slx / sl2 : 0.0f;
}

/* four 2-bit planes: byte l of each 32 holds elements l, l+32, l+64, l+96 */
QUANT__INLINE void quant__pack2(const uint8_t *L, uint8_t *q)
{
    int j, l;
    for (j = 0; j < 256; j += 128)
        for (l = 0; l < 32; ++l)
            q[j / 4 + l] = (uint8_t)(L[j + l] | L[j + l + 32] << 2 | L[j + l + 64] << 4 | L[j + l + 96] << 6);
}

/* ggml's quantize_row_iq4_nl_impl without weights and with ntry 7, as
   ggml_quantize_chunk runs it for IQ4_NL (one group of 32) and IQ4_XS
   (8 groups under 6-bit scales) */
QUANT__NOINLINE void quant__iq4_block(const float *x, uint8_t *b, int xs)
{
    float sc[8], maxs = 0, amaxs = 0;
    uint8_t L[256];
    const int ng = xs ? 8 : 1;
    int g, j, t;
    for (g = 0; g < ng; ++g) {
        const float *xb = x + 32 * g;
        float mx, d, id, sqx = 0, sq2 = 0, best;
        if (quant__amax(xb, 32, &mx) < 1e-15f) {
            sc[g] = 0;
            for (j = 0; j < 32; ++j) L[32 * g + j] = 0;
            continue;
        }
        d = -mx / -127.0f;
        id = 1 / d;
        for (j = 0; j < 32; ++j) {
            const int l = quant__iq4_index(quant__gm(id, xb[j]));
            const float q = (float)quant__kv_iq4[l], w = quant__gm(xb[j], xb[j]);
            L[32 * g + j] = (uint8_t)l;
            sqx += quant__gm(quant__gm(w, q), xb[j]);
            sq2 += quant__gm(quant__gm(w, q), q);
        }
        d = sq2 > 0 ? quant__gdiv(sqx, sq2) : 0.0f;
        best = quant__gm(d, sqx);
        for (t = -7; t <= 7; ++t) {
            id = (float)(t - 127) / mx;
            sqx = sq2 = 0;
            for (j = 0; j < 32; ++j) {
                const float q = (float)quant__kv_iq4[quant__iq4_index(quant__gm(id, xb[j]))], w = quant__gm(xb[j], xb[j]);
                sqx += quant__gm(quant__gm(w, q), xb[j]);
                sq2 += quant__gm(quant__gm(w, q), q);
            }
            if (sq2 > 0 && quant__gm(sqx, sqx) > quant__gm(best, sq2)) {
                d = quant__gdiv(sqx, sq2);
                best = quant__gm(d, sqx);
            }
        }
        sc[g] = d;
        if (quant__gabs(d) > amaxs) { amaxs = quant__gabs(d); maxs = d; }
    }
    if (xs) {
        const float d = -maxs / 32, id = d != 0 ? 1 / d : 0.0f;
        unsigned sh = 0;
        quant__gh_put(b, d);
        for (g = 0; g < 8; ++g) {
            int l = quant__gn(quant__gm(id, sc[g]));
            float dl, idl;
            l = l < -32 ? -32 : l > 31 ? 31 : l;
            dl = d * (float)l;
            idl = dl != 0 ? 1 / dl : 0.0f;
            for (j = 0; j < 32; ++j) L[32 * g + j] = (uint8_t)quant__iq4_index(quant__gm(idl, x[32 * g + j]));
            l += 32;
            if (g % 2 == 0) b[4 + g / 2] = (uint8_t)(l & 15);
            else b[4 + g / 2] |= (uint8_t)((l & 15) << 4);
            sh |= (unsigned)(l >> 4) << 2 * g;
        }
        b[2] = (uint8_t)sh;
        b[3] = (uint8_t)(sh >> 8);
        b += 8;
    } else {
        const float id = sc[0] != 0 ? 1 / sc[0] : 0.0f;
        quant__gh_put(b, sc[0]);
        for (j = 0; j < 32; ++j) L[j] = (uint8_t)quant__iq4_index(quant__gm(id, x[j]));
        b += 2;
    }
    for (g = 0; g < ng; ++g)
        for (j = 0; j < 16; ++j) b[16 * g + j] = (uint8_t)(L[32 * g + j] | L[32 * g + 16 + j] << 4);
}

/* Q4_K and Q5_K's d, dmin and 12 bytes of 6-bit scales and mins from the
   groups' scales sc and mins mn, whose largest are maxs and maxm */
QUANT__PRIVATE void quant__k4_pack(const float *sc, const float *mn, float maxs, float maxm, uint8_t *b)
{
    const float is = maxs > 0 ? 63.0f / maxs : 0.0f, im = maxm > 0 ? 63.0f / maxm : 0.0f;
    uint8_t *scb = b + 4;
    int j;
    for (j = 0; j < 8; ++j) {
        unsigned ls = (uint8_t)quant__gn(quant__gm(is, sc[j])), lm = (uint8_t)quant__gn(quant__gm(im, mn[j]));
        ls = ls < 63 ? ls : 63;
        lm = lm < 63 ? lm : 63;
        if (j < 4) {
            scb[j] = (uint8_t)ls;
            scb[j + 4] = (uint8_t)lm;
        } else {
            scb[j + 4] = (uint8_t)((ls & 15u) | (lm & 15u) << 4);
            scb[j - 4] |= (uint8_t)((ls >> 4) << 6);
            scb[j] |= (uint8_t)((lm >> 4) << 6);
        }
    }
    quant__gh_put(b, maxs / 63.0f);
    quant__gh_put(b + 2, maxm / 63.0f);
}

/* Q2_K's 4-bit scales and mins of its 16 groups, and their f16 steps */
QUANT__PRIVATE void quant__k2_pack(const float *sc, const float *mn, uint8_t *b)
{
    float maxs = 0, maxm = 0, is, im;
    int j;
    for (j = 0; j < 16; ++j) {
        if (sc[j] > maxs) maxs = sc[j];
        if (mn[j] > maxm) maxm = mn[j];
    }
    is = maxs > 0 ? 15.0f / maxs : 0.0f;
    im = maxm > 0 ? 15.0f / maxm : 0.0f;
    for (j = 0; j < 16; ++j) {
        b[j] = maxs > 0 ? (uint8_t)quant__gn(quant__gm(is, sc[j])) : 0;
        if (maxm > 0) b[j] |= (uint8_t)((unsigned)quant__gn(quant__gm(im, mn[j])) << 4);
    }
    quant__gh_put(b + 80, maxs > 0 ? maxs / 15.0f : 0.0f);
    quant__gh_put(b + 82, maxm > 0 ? maxm / 15.0f : 0.0f);
}

/* Q3_K's 6-bit scales of its 16 groups (maxs the first of the largest
   magnitude) and their f16 step */
QUANT__PRIVATE void quant__k3_pack(const float *sc, float maxs, uint8_t *b)
{
    int j;
    for (j = 0; j < 12; ++j) b[96 + j] = 0;
    if (maxs != 0) {
        const float is = -32.0f / maxs;
        for (j = 0; j < 16; ++j) {
            int q = quant__s8wrap(quant__gn(quant__gm(is, sc[j])));
            q = (q < -32 ? -32 : q > 31 ? 31 : q) + 32;
            if (j < 8) b[96 + j] = (uint8_t)(q & 15);
            else b[96 + j - 8] |= (uint8_t)((q & 15) << 4);
            b[96 + 8 + j % 4] |= (uint8_t)((q >> 4) << 2 * (j / 4));
        }
        quant__gh_put(b + 108, 1 / is);
    } else quant__gh_put(b + 108, 0.0f);
}

/* Q2_K .. Q5_K: ggml's quantize_row_q{2,4,5}_K_ref, Q3_K's and Q6_K's */
QUANT__NOINLINE void quant__k_block(unsigned t, const float *x, uint8_t *b)
{
    float sc[16], mn[16], w[32], maxs = 0, maxm = 0, d, dm;
    uint8_t L[256];
    int j, l;
    if (t == QUANT_Q2_K || t == QUANT_Q4_K || t == QUANT_Q5_K) {
        /* Q2_K: 16 groups of 16, levels 0..3, weights |x|, 4-bit scales
           and mins; Q4_K/Q5_K: 8 of 32, 0..15 or 0..31, weights
           rms + |x|, 6-bit scales and mins */
        const int k2 = t == QUANT_Q2_K, gs = k2 ? 16 : 32, ng = 256 / gs, nmax = k2 ? 3 : t == QUANT_Q4_K ? 15 : 31;
        uint8_t *scb = k2 ? b : b + 4;
        for (j = 0; j < ng; ++j) {
            const float *xg = x + gs * j;
            if (k2) {
                for (l = 0; l < 16; ++l) w[l] = quant__gabs(xg[l]);
                sc[j] = quant__k_minmax(16, 3, xg, w, L + 16 * j, &mn[j], -0.5f, 0.1f, 15, 1);
            } else {
                float s2 = 0, av;
                for (l = 0; l < 32; ++l) s2 += quant__gm(xg[l], xg[l]);
                av = quant__sqrt(s2 / 32);
                for (l = 0; l < 32; ++l) w[l] = av + quant__gabs(xg[l]);
                sc[j] = quant__k_minmax(32, nmax, xg, w, L + 32 * j, &mn[j], t == QUANT_Q4_K ? -1.0f : -0.5f, 0.1f,
                                        t == QUANT_Q4_K ? 20 : 15, 0);
            }
            if (sc[j] > maxs) maxs = sc[j];
            if (mn[j] > maxm) maxm = mn[j];
        }
        if (k2) quant__k2_pack(sc, mn, b);
        else quant__k4_pack(sc, mn, maxs, maxm, b);
        /* the levels again, with the scales as stored */
        for (j = 0; j < ng; ++j) {
            unsigned s, m;
            if (k2) { s = scb[j] & 15u; m = scb[j] >> 4; }
            else quant__k4_scale(scb, j, &s, &m);
            d = quant__gh(b + (k2 ? 80 : 0)) * (float)s;
            if (d == 0) continue;
            dm = quant__gm(quant__gh(b + (k2 ? 82 : 2)), (float)m);
            for (l = 0; l < gs; ++l) {
                const int q = quant__gn((x[gs * j + l] + dm) / d);
                L[gs * j + l] = (uint8_t)(q < 0 ? 0 : q > nmax ? nmax : q);
            }
        }
        if (k2) quant__pack2(L, b + 16);
        else if (t == QUANT_Q4_K)
            for (j = 0; j < 256; j += 64)
                for (l = 0; l < 32; ++l) b[16 + j / 2 + l] = (uint8_t)(L[j + l] | L[j + l + 32] << 4);
        else {
            for (l = 0; l < 32; ++l) b[16 + l] = 0;
            for (j = 0; j < 4; ++j)
                for (l = 0; l < 32; ++l) {
                    unsigned l1 = L[64 * j + l], l2 = L[64 * j + l + 32];
                    if (l1 > 15) { l1 -= 16; b[16 + l] |= (uint8_t)(1u << 2 * j); }
                    if (l2 > 15) { l2 -= 16; b[16 + l] |= (uint8_t)(2u << 2 * j); }
                    b[48 + 32 * j + l] = (uint8_t)(l1 | l2 << 4);
                }
        }
        return;
    }
    if (t == QUANT_Q3_K) {
        int8_t *S = (int8_t *)L;
        float amax = 0;
        for (j = 0; j < 16; ++j) {
            sc[j] = quant__k3_sym(16, 4, x + 16 * j, S + 16 * j);
            if (quant__gabs(sc[j]) > amax) { amax = quant__gabs(sc[j]); maxs = sc[j]; }
        }
        quant__k3_pack(sc, maxs, b);
        for (j = 0; j < 16; ++j) {
            d = quant__gh(b + 108) * (float)quant__k3_scale(b + 96, j);
            if (d == 0) continue;
            for (l = 0; l < 16; ++l) {
                const int q = quant__gn(x[16 * j + l] / d);
                S[16 * j + l] = (int8_t)((q < -4 ? -4 : q > 3 ? 3 : q) + 4);
            }
        }
        for (j = 0; j < 32; ++j) b[j] = 0;
        for (j = 0; j < 256; ++j)
            if (S[j] > 3) {
                b[j % 32] |= (uint8_t)(1u << j / 32);
                S[j] = (int8_t)(S[j] - 4);
            }
        quant__pack2(L, b + 32);
        return;
    }
    if (t == QUANT_Q6_K) {
        int8_t *S = (int8_t *)L;
        float amax = 0, is;
        for (j = 0; j < 16; ++j) {
            sc[j] = quant__k_sym(16, 32, x + 16 * j, S + 16 * j);
            if (quant__gabs(sc[j]) > amax) { amax = quant__gabs(sc[j]); maxs = sc[j]; }
        }
        for (j = 0; j < 210; ++j) b[j] = 0;
        if (amax < 1e-15f) return; /* d too: f16 +0 */
        is = -128.0f / maxs;
        quant__gh_put(b + 208, 1 / is);
        for (j = 0; j < 16; ++j) {
            const int q = quant__gn(quant__gm(is, sc[j]));
            b[192 + j] = (uint8_t)(q < 127 ? q : 127);
        }
        for (j = 0; j < 16; ++j) {
            d = quant__gh(b + 208) * (float)(int8_t)b[192 + j];
            if (d == 0) continue;
            for (l = 0; l < 16; ++l) {
                const int q = quant__gn(x[16 * j + l] / d);
                S[16 * j + l] = (int8_t)((q < -32 ? -32 : q > 31 ? 31 : q) + 32);
            }
        }
        for (j = 0; j < 256; j += 128)
            for (l = 0; l < 32; ++l) {
                const unsigned a = L[j + l], c = L[j + l + 32], e = L[j + l + 64], f = L[j + l + 96];
                b[j / 2 + l] = (uint8_t)((a & 15u) | (e & 15u) << 4);
                b[j / 2 + l + 32] = (uint8_t)((c & 15u) | (f & 15u) << 4);
                b[128 + j / 4 + l] = (uint8_t)(a >> 4 | (c >> 4) << 2 | (e >> 4) << 4 | (f >> 4) << 6);
            }
    }
}

/* roundf (halves away from zero) without a branch on the data: |v| + 0.5
   truncated, except that 0.5 - 2^-25 + 0.5 rounds up to 1; from 2^23 on
   every float is an integer already (checked on every float against
   libm's roundf) */
QUANT__INLINE float quant__roundf(float v)
{
    const float a = quant__gabs(v);
    float r;
    if (!(a < 8388608.0f)) return v;
    r = (float)(int32_t)(a + 0.5f);
    r -= (float)(quant__bits(a) == 0x3EFFFFFFu); /* 0.5 - 2^-25 */
    return quant__float(quant__bits(r) | (quant__bits(v) & 0x80000000u));
}

/* One block of type t encoded from x, as ggml_quantize_chunk writes it */
QUANT__NOINLINE void quant__blk_encode(unsigned t, const float *x, uint8_t *b)
{
    int j, n;
    float a, mx, d, id;
    switch (t) {
    case QUANT_Q4_0: case QUANT_Q5_0: case QUANT_Q4_1: case QUANT_Q5_1: {
        const int five = t == QUANT_Q5_0 || t == QUANT_Q5_1, has_m = t == QUANT_Q4_1 || t == QUANT_Q5_1;
        const int top = five ? 31 : 15;
        uint8_t *qs = b + 2 + 2 * has_m + 4 * five;
        uint32_t qh = 0;
        float lo = 0, add;
        if (has_m) {
            lo = 3.40282347e38f;
            mx = -3.40282347e38f;
            for (j = 0; j < 32; ++j) {
                if (x[j] < lo) lo = x[j];
                if (x[j] > mx) mx = x[j];
            }
            d = (mx - lo) / (float)top;
            add = 0.5f;
            quant__gh_put(b + 2, lo);
        } else {
            (void)quant__amax(x, 32, &mx);
            d = mx / (five ? -16.0f : -8.0f);
            add = five ? 16.5f : 8.5f;
        }
        id = d != 0 ? 1.0f / d : 0.0f;
        quant__gh_put(b, d);
        for (j = 0; j < 16; ++j) {
            /* (int8_t) of the sum for q4_0/q4_1/q5_0 then MIN with top; q5_1 (uint8_t) */
            const int32_t r0 = quant__gt(quant__gm(has_m ? x[j] - lo : x[j], id) + add);
            const int32_t r1 = quant__gt(quant__gm(has_m ? x[j + 16] - lo : x[j + 16], id) + add);
            int v0 = t == QUANT_Q5_1 ? (int)(r0 & 0xFF) : quant__s8wrap((int)r0);
            int v1 = t == QUANT_Q5_1 ? (int)(r1 & 0xFF) : quant__s8wrap((int)r1);
            if (t != QUANT_Q5_1) {
                v0 = v0 < top ? v0 : top;
                v1 = v1 < top ? v1 : top;
            }
            v0 &= 0xFF;
            v1 &= 0xFF;
            if (five) {
                qs[j] = (uint8_t)((v0 & 15) | (v1 & 15) << 4);
                qh |= (uint32_t)(v0 >> 4 & 1) << j | (uint32_t)(v1 >> 4 & 1) << (j + 16);
            } else qs[j] = (uint8_t)(v0 | v1 << 4);
        }
        if (five) quant__st4(b + 2 + 2 * has_m, qh);
        return;
    }
    case QUANT_Q8_0:
        a = 0;
        for (j = 0; j < 32; ++j) a = a > quant__gabs(x[j]) ? a : quant__gabs(x[j]);
        d = a / 127.0f;
        id = d != 0 ? 1.0f / d : 0.0f;
        quant__gh_put(b, d);
        for (j = 0; j < 32; ++j) b[2 + j] = (uint8_t)quant__gt(quant__roundf(quant__gm(x[j], id)));
        return;
    case QUANT_Q8_K: {
        float is;
        a = quant__amax(x, 256, &mx);
        for (j = 0; j < 292; ++j) b[j] = 0;
        if (a == 0) return; /* ggml leaves bsums unwritten: 0 here */
        is = -127.0f / mx;
        for (j = 0; j < 256; ++j) {
            const int v = quant__gn(quant__gm(is, x[j]));
            b[4 + j] = (uint8_t)(v < 127 ? v : 127);
        }
        for (j = 0; j < 16; ++j) {
            int s = 0;
            for (n = 0; n < 16; ++n) s += (int8_t)b[4 + 16 * j + n];
            b[260 + 2 * j] = (uint8_t)s;
            b[261 + 2 * j] = (uint8_t)((unsigned)s >> 8);
        }
        quant__st4(b, quant__bits(1 / is));
        return;
    }
    case QUANT_MXFP4:
        a = quant__amax(x, 32, &mx);
        b[0] = (uint8_t)(a > 0 ? quant__glog2(a) + 125 : 0);
        d = quant__e8m0_half(b[0]);
        for (j = 0; j < 16; ++j) b[1 + j] = (uint8_t)(quant__fp4_index(x[j], d) | quant__fp4_index(x[j + 16], d) << 4);
        return;
    case QUANT_NVFP4_BLOCK:
        for (n = 0; n < 4; ++n, x += 16) {
            a = quant__amax(x, 16, &mx) / 6.0f;
            b[n] = (uint8_t)quant__ue4m3_code(a);
            d = quant__ue4m3_half(b[n]);
            for (j = 0; j < 8; ++j) b[4 + 8 * n + j] = (uint8_t)(quant__fp4_index(x[j], d) | quant__fp4_index(x[j + 8], d) << 4);
        }
        return;
    case QUANT_IQ4_NL: case QUANT_IQ4_XS:
        quant__iq4_block(x, b, t == QUANT_IQ4_XS);
        return;
    default:
        quant__k_block(t, x, b);
        return;
    }
}
#endif /* QUANT__BLOCKS */

#elif QUANT__PART == 2 && QUANT__BLOCKS
#if QUANT__PASS == QUANT_SIMD_AVX512
/* Decoding a block is a table lookup: every element of a (sub-)block is
   one of at most 32 values, each computed once with the scalar code's
   own operations (lane-wise IEEE products and sums, no FMA), then
   vpermd / vpermt2d place them. 16-bit outputs round the table once:
   rounding a value twice over is the same as rounding it once. */

/* Every store that stays in the caches asks for the line 1 KiB past it.
   The output of a decode that fits in L2 is written faster so (Intel Xeon
   with AVX512-FP16, 64 Ki elements to f32 on malloc's buffer, 16 bytes
   off a line: Q4_K 1.7x faster with its stores in address order, Q6_K
   1.6x, the other types 1.1x to 1.4x, Q2_K level, held by its
   arithmetic; on a 64-byte boundary Q4_K and Q6_K 1.2x, the rest level):
   the core's own prefetcher does not keep up with stores split across
   two lines. A prefetch past the buffer's end is harmless (it never
   faults), and the address is formed as an integer. */
#define QUANT__BK_PF(p) _mm_prefetch((const char *)((uintptr_t)(p) + 1024u), _MM_HINT_T0)
/* 16 outputs at element `at` of dst: o & 3 is 0 for f32, 1 bf16, 2 f16
   (16-bit bits in 32-bit lanes); o & 4 streams them past the caches */
QUANT__INLINE void quant__bk_st(void *dst, size_t at, __m512i v, unsigned o)
{
    if ((o & 3u) == 0) {
        if (o & 4u) _mm512_stream_si512((__m512i *)(void *)((float *)dst + at), v);
        else {
            _mm512_storeu_si512((void *)((float *)dst + at), v);
            QUANT__BK_PF((float *)dst + at);
        }
    } else if (o & 4u) _mm256_stream_si256((__m256i *)(void *)((uint16_t *)dst + at), _mm512_cvtepi32_epi16(v));
    else {
        _mm256_storeu_si256((__m256i *)(void *)((uint16_t *)dst + at), _mm512_cvtepi32_epi16(v));
        QUANT__BK_PF((uint16_t *)dst + at);
    }
}
/* a table of 16 f32 values as the lookups want it */
QUANT__INLINE __m512i quant__bk_tab(__m512 t, unsigned o)
{
    return (o & 3u) == 0 ? _mm512_castps_si512(t) : quant__v_to_half(t, (o & 3u) == 1);
}
/* 32 16-bit outputs (words) at element `at` of dst */
QUANT__INLINE void quant__bk_st32(void *dst, size_t at, __m512i v, unsigned o)
{
    if (o & 4u) _mm512_stream_si512((__m512i *)(void *)((uint16_t *)dst + at), v);
    else {
        _mm512_storeu_si512((void *)((uint16_t *)dst + at), v);
        QUANT__BK_PF((uint16_t *)dst + at);
    }
}
/* 16 bytes of nibbles: the low ones are elements 0..15, the high 16..31;
   16-bit outputs take all 32 in one vpermw */
QUANT__INLINE void quant__bk_nib32(void *dst, size_t at, const uint8_t *q, __m512i T, unsigned o)
{
    const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)q);
    if (o & 3u) {
        const __m256i w = _mm256_cvtepu8_epi16(b);
        const __m512i i = _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_and_si256(w, _mm256_set1_epi16(15))),
                                             _mm256_srli_epi16(w, 4), 1);
        quant__bk_st32(dst, at, _mm512_permutexvar_epi16(i, _mm512_castsi256_si512(_mm512_cvtepi32_epi16(T))), o);
    } else {
        const __m512i D = _mm512_cvtepu8_epi32(b);
        quant__bk_st(dst, at, _mm512_permutexvar_epi32(_mm512_and_si512(D, _mm512_set1_epi32(15)), T), o);
        quant__bk_st(dst, at + 16, _mm512_permutexvar_epi32(_mm512_srli_epi32(D, 4), T), o);
    }
}
/* 16 floats on a 64-byte boundary: a vector stored whole, then read
   (broadcast) a float at a time, forwards from the store only when the
   store is not split across two cache lines */
typedef union quant__bk_f16 {
    __m512 v;
    float f[16];
} quant__bk_f16;
/* the constants of quant__bk_bf2, made once per block: behind the empty
   asm gcc keeps them in registers rather than building each at every use */
typedef struct quant__bk_k {
    __m512i il, ih, lsb, half;
} quant__bk_k;
QUANT__INLINE quant__bk_k quant__bk_kset(void)
{
    quant__bk_k k;
    k.il = _mm512_cvtepu8_epi16(_mm256_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30,
                                                 32, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52, 54, 56, 58, 60, 62));
    k.ih = _mm512_add_epi16(k.il, _mm512_set1_epi16(1));
    k.lsb = _mm512_set1_epi16(1);
    k.half = _mm512_set1_epi16(0x7FFE);
    return k;
}
QUANT__INLINE quant__bk_k quant__bk_kinit(void)
{
    quant__bk_k k = quant__bk_kset();
    QUANT__VFENCE(k.il);
    QUANT__VFENCE(k.ih);
    QUANT__VFENCE(k.lsb);
    QUANT__VFENCE(k.half);
    return k;
}
/* 32 bf16 outputs, a's 16 then b's, to nearest even as quant__f32_to_bf16:
   nan 1 as quant__v_to_half; nan 0 for values known not to be NaN, in the
   16-bit halves: hi + the carry out of lo + 0x7FFF + (hi & 1), which is
   bit 15 of vpavgw(lo, 0x7FFE | (hi & 1)) */
QUANT__INLINE __m512i quant__bk_bf2(__m512 a, __m512 b, const int nan, const quant__bk_k *k)
{
    __m512i hi, lo;
    if (nan) return _mm512_permutex2var_epi16(quant__v_to_half(a, 1), k->il, quant__v_to_half(b, 1));
    lo = _mm512_permutex2var_epi16(_mm512_castps_si512(a), k->il, _mm512_castps_si512(b));
    hi = _mm512_permutex2var_epi16(_mm512_castps_si512(a), k->ih, _mm512_castps_si512(b));
    lo = _mm512_avg_epu16(lo, _mm512_ternarylogic_epi32(hi, k->lsb, k->half, 0xEA));
    return _mm512_add_epi16(hi, _mm512_srli_epi16(lo, 15));
}
/* a table of 32 f32 values (a: 0..15, b: 16..31) as 16-bit words for
   vpermw: o & 3 is 1 for bf16, 2 for f16. fin says no entry is a NaN:
   bf16 then rounds as quant__f32_to_bf16 does without its NaN case
   (quant__bk_bf2). */
QUANT__INLINE __m512i quant__bk_tab32(__m512 a, __m512 b, unsigned o, int fin)
{
    const __m512i even = _mm512_setr_epi32(0x00020000, 0x00060004, 0x000A0008, 0x000E000C, 0x00120010, 0x00160014,
                                           0x001A0018, 0x001E001C, 0x00220020, 0x00260024, 0x002A0028, 0x002E002C,
                                           0x00320030, 0x00360034, 0x003A0038, 0x003E003C);
    if ((o & 3u) == 1u && fin) {
        const quant__bk_k k = quant__bk_kset();
        return quant__bk_bf2(a, b, 0, &k);
    }
    return _mm512_permutex2var_epi16(quant__v_to_half(a, (o & 3u) == 1u), even, quant__v_to_half(b, (o & 3u) == 1u));
}
/* scale * levels, and + m when has_m, as the scalar code computes them */
QUANT__INLINE __m512 quant__bk_lin(__m512 lev, float d, float m, int has_m)
{
    __m512 p = _mm512_mul_ps(lev, _mm512_set1_ps(d));
    if (!has_m) return p;
    QUANT__VFENCE(p);
    /* a NaN product stays itself, whatever order the compiler adds in */
    return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(p, p, _CMP_UNORD_Q), _mm512_add_ps(p, _mm512_set1_ps(m)), p);
}
/* dl * lev - ml (Q2_K, Q4_K, Q5_K) */
QUANT__INLINE __m512 quant__bk_dm(__m512 lev, float dl, float ml)
{
    __m512 p = _mm512_mul_ps(_mm512_set1_ps(dl), lev);
    QUANT__VFENCE(p);
    return _mm512_sub_ps(p, _mm512_set1_ps(ml));
}
QUANT__INLINE __m512 quant__bk_i8(const uint8_t *q) /* 16 signed bytes as floats */
{
    return _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)(const void *)q)));
}
/* the four f16 at p as f32 in lanes 0..3: F16C's 128-bit form where the
   pass has it (every dispatch pass does) */
#if QUANT__DISPATCH || defined(__F16C__)
#  define QUANT__BK_H4(p) _mm512_castps128_ps512(_mm_cvtph_ps(_mm_loadl_epi64((const __m128i *)(const void *)(p))))
#else
#  define QUANT__BK_H4(p) _mm512_cvtph_ps(_mm256_castsi128_si256(_mm_loadl_epi64((const __m128i *)(const void *)(p))))
#endif
/* an f16 scale (vcvtph2ps keeps a NaN's payload and quiets it, as the
   product with it would) */
QUANT__INLINE float quant__bk_h(const uint8_t *b)
{
    return _mm512_cvtss_f32(_mm512_cvtph_ps(_mm256_set1_epi16((short)(b[0] | b[1] << 8))));
}

/* bf16 from Q8_0 (n32 1) and Q8_K (8): d * q as the other outputs, then
   rounded a pair of vectors at a time (nan 0 when d is finite: no
   product is NaN then) */
QUANT__INLINE void quant__bk_q8(const uint8_t *q, float d, int n32, void *dst, size_t at, unsigned o, const int nan)
{
    const __m512 vd = _mm512_set1_ps(d);
    const quant__bk_k k = quant__bk_kinit();
    int j;
    for (j = 0; j < n32; ++j, q += 32)
        quant__bk_st32(dst, at + 32 * (size_t)j,
                       quant__bk_bf2(_mm512_mul_ps(quant__bk_i8(q), vd), _mm512_mul_ps(quant__bk_i8(q + 16), vd), nan, &k), o);
}
/* Q6_K and Q3_K codes as floats, 16 at a time: group g (bytes 16g ..
   16g + 15) of the 64 signed bytes v, times the scale at ds. With VBMI
   and vb, one vpermb puts byte l in the top byte of dword l (the others
   zero; no vextract and vpmovsxbd): the float is the code times 2^24,
   and the scales are stored times QUANT__BK_C24(vb), 2^-24, so that the
   product is the same (both scalings exact: the scales are 0 or at least
   2^-24, and at most 2^23, and a NaN keeps its payload). (Zen 5: faster
   everywhere; for Q6_K to f32 only since its scales go a block ahead,
   quant__bk_krun, 64 Ki elements 1.36x the limit -> 1.18x.) */
#if QUANT__PASS_VBMI
#  define QUANT__BK_C24(vb) ((vb) ? 1.0f / 16777216.0f : 1.0f)
#else
#  define QUANT__BK_C24(vb) ((void)(vb), 1.0f)
#endif
QUANT__INLINE __m512 quant__bk_cf(const float *ds, __m512i v, int g, const int vb)
{
    __m128i x;
#if QUANT__PASS_VBMI
    if (vb) {
        const __m512i i = _mm512_add_epi32(_mm512_setr_epi32(0 << 24, 1 << 24, 2 << 24, 3 << 24, 4 << 24, 5 << 24, 6 << 24, 7 << 24, 8 << 24,
                                                             9 << 24, 10 << 24, 11 << 24, 12 << 24, 13 << 24, 14 << 24, 15 << 24),
                                           _mm512_set1_epi32(16 * g << 24));
        return _mm512_mul_ps(_mm512_set1_ps(*ds), _mm512_cvtepi32_ps(_mm512_maskz_permutexvar_epi8(0x8888888888888888ull, i, v)));
    }
#else
    (void)vb;
#endif
    x = g == 0 ? _mm512_castsi512_si128(v) : g == 1 ? _mm512_extracti32x4_epi32(v, 1)
      : g == 2 ? _mm512_extracti32x4_epi32(v, 2) : _mm512_extracti32x4_epi32(v, 3);
    return _mm512_mul_ps(_mm512_set1_ps(*ds), _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(x)));
}
/* Q6_K: the 16 d * sc (times QUANT__BK_C24(vb)), as a vector and stored */
QUANT__INLINE __m512 quant__bk_q6dv(const uint8_t *b, const int vb)
{
    return _mm512_mul_ps(_mm512_mul_ps(_mm512_set1_ps(quant__bk_h(b + 208)), quant__bk_i8(b + 192)), _mm512_set1_ps(QUANT__BK_C24(vb)));
}
QUANT__INLINE void quant__bk_q6ds(const uint8_t *b, float *dss, const int vb)
{
    _mm512_storeu_ps(dss, quant__bk_q6dv(b, vb));
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+m"(*(float(*)[16])dss)); /* gcc would rather vpermd the product by a broadcast count than load dss */
#endif
}
/* Q6_K's 6-bit codes less 32 built as signed bytes, 64 at a time
   (elements 64n .. 64n + 63 of the block, in order): output group g of 16
   is group g % 4 of v[g / 4], scale d * sc[8n + g] */
QUANT__INLINE void quant__bk_q6c(const uint8_t *b, int n, __m512i *v)
{
    /* word shifts bringing bits 2j, 2j + 1 of qh to bits 4, 5: j = 0, 1 by
       the left shift (the vector's halves), 2, 3 by the right one */
    const __m512i sl = _mm512_inserti64x4(_mm512_set1_epi16(4), _mm256_set1_epi16(2), 1);
    const __m512i sr = _mm512_inserti64x4(_mm512_setzero_si512(), _mm256_set1_epi16(2), 1);
    const __m512i m0f = _mm512_set1_epi8(15), m3f = _mm512_set1_epi8(63), s32 = _mm512_set1_epi8(32);
    const __m512i QL = _mm512_loadu_si512((const void *)(b + 64 * n));
    const __m512i QH = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)(const void *)(b + 128 + 32 * n)));
    /* bits 0..3 from the ql nibble, 4..7 from the shifted qh (6, 7 then cleared) */
    const __m512i c0 = _mm512_ternarylogic_epi32(QL, _mm512_sllv_epi16(QH, sl), m0f, 0xE4);
    const __m512i c1 = _mm512_ternarylogic_epi32(_mm512_srli_epi16(QL, 4), _mm512_srlv_epi16(QH, sr), m0f, 0xE4);
    v[0] = _mm512_sub_epi8(_mm512_and_si512(c0, m3f), s32);
    v[1] = _mm512_sub_epi8(_mm512_and_si512(c1, m3f), s32);
}
/* 16 outputs of Q6_K as f32: scale (from memory) times code */
#define quant__bk_q6y(ds, v, g, vb) quant__bk_cf(ds, (v)[(g) / 4], (g) % 4, vb)
/* bf16 from Q6_K: the f32 products of quant__bk_q6f, rounded two groups
   at a time (nan 0: d finite, so is every product) */
QUANT__INLINE void quant__bk_q6(const uint8_t *b, void *dst, size_t at, unsigned o, const int nan)
{
    const quant__bk_k k = quant__bk_kinit();
    quant__bk_f16 u;
    const float *dss = u.f;
    int n, g;
    quant__bk_q6ds(b, u.f, 1);
    QUANT__UNROLL4
    for (n = 0; n < 2; ++n) {
        __m512i v[2];
        quant__bk_q6c(b, n, v);
        for (g = 0; g < 8; g += 2)
            quant__bk_st32(dst, at + 128 * (size_t)n + 16 * (size_t)g,
                           quant__bk_bf2(quant__bk_q6y(dss + 8 * n + g, v, g, 1), quant__bk_q6y(dss + 8 * n + g + 1, v, g + 1, 1), nan, &k), o);
    }
}
/* Q6_K to f32 (f16): output group g of 16 is code vector x[g] of its 64
   times its scale d * sc[g] (one vector product, then broadcast from
   memory); dsv: the block's quant__bk_q6dv(b, 1) */
QUANT__INLINE void quant__bk_q6f(const uint8_t *b, void *dst, size_t at, unsigned o, __m512 dsv)
{
    quant__bk_f16 u;
    const float *dss = u.f;
    int n, g;
    u.v = dsv;
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+m"(u)); /* a load each, not a vpermd */
#endif
    QUANT__UNROLL4
    for (n = 0; n < 2; ++n) {
        __m512i v[2];
        quant__bk_q6c(b, n, v);
        for (g = 0; g < 8; ++g)
            quant__bk_st(dst, at + 128 * (size_t)n + 16 * (size_t)g, quant__bk_tab(quant__bk_q6y(dss + 8 * n + g, v, g, 1), o), o);
    }
}
/* Q3_K to f32 (f16), as quant__bk_q6f: the levels -4 .. 3 built as
   signed bytes, 64 at a time (elements 64m .. 64m + 63, in order: the
   2-bit codes of 32 bytes of qs at two shifts, less 4 where the hmask bit
   is clear); output group g of 16 is its sub-block, scale d * sc[g] (one
   vector product, then broadcast from memory), times the level */
/* A Q3_K block's 16 d * scale, in sub-block order. Scale s: bits 0..3 the
   low (s < 8) or high nibble of byte s % 8, bits 4, 5 bits 2 (s / 4) of
   byte 8 + s % 4 (quant__k3_scale), less 32 */
QUANT__INLINE __m512 quant__bk_q3ds(const uint8_t *b)
{
    const __m128i sc = _mm_maskz_loadu_epi8(0x0FFF, b + 96);
    const __m512i lo = _mm512_srlv_epi32(_mm512_cvtepu8_epi32(_mm_shuffle_epi8(sc, _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7))),
                                         _mm512_setr_epi32(0, 0, 0, 0, 0, 0, 0, 0, 4, 4, 4, 4, 4, 4, 4, 4));
    const __m512i hi = _mm512_srlv_epi32(_mm512_cvtepu8_epi32(_mm_shuffle_epi8(sc, _mm_setr_epi8(8, 9, 10, 11, 8, 9, 10, 11, 8, 9, 10, 11, 8, 9, 10, 11))),
                                         _mm512_setr_epi32(0, 0, 0, 0, 2, 2, 2, 2, 4, 4, 4, 4, 6, 6, 6, 6));
    /* (lo & 15) | (hi << 4 & 48) */
    const __m512i s6 = _mm512_ternarylogic_epi32(_mm512_slli_epi32(hi, 4), _mm512_set1_epi32(0x30),
                                                 _mm512_and_si512(lo, _mm512_set1_epi32(15)), 0xEA);
    return _mm512_mul_ps(_mm512_set1_ps(quant__bk_h(b + 108)), _mm512_cvtepi32_ps(_mm512_sub_epi32(s6, _mm512_set1_epi32(32))));
}
QUANT__INLINE void quant__bk_q3f(const uint8_t *b, void *dst, size_t at, unsigned o, __m512 ds)
{
    /* word shifts of the codes: j even in the lower half, odd in the upper */
    const __m512i sh = _mm512_inserti64x4(_mm512_setzero_si512(), _mm256_set1_epi16(2), 1);
    const __m512i H = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)(const void *)b));
    const __m512i m3 = _mm512_set1_epi8(3), s4 = _mm512_set1_epi8(4);
    quant__bk_f16 u;
    const float *dss = u.f;
    int m, g;
    u.v = _mm512_mul_ps(ds, _mm512_set1_ps(QUANT__BK_C24(1)));
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+m"(u)); /* a load each, not a vpermd */
#endif
    QUANT__UNROLL4
    for (m = 0; m < 4; ++m) { /* j = 2 (m % 2), + 1; n = m / 2; hmask bits 4n + j */
        const __m512i Q = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)(const void *)(b + 32 + 32 * (m / 2))));
        const __m512i c = _mm512_and_si512(_mm512_srlv_epi16(m % 2 ? _mm512_srli_epi16(Q, 4) : Q, sh), m3);
        const __m512i hb = _mm512_inserti64x4(_mm512_set1_epi8((char)(1 << (2 * m))), _mm256_set1_epi8((char)(1 << (2 * m + 1))), 1);
        const __m512i v = _mm512_mask_sub_epi8(c, _mm512_testn_epi8_mask(H, hb), c, s4);
        for (g = 0; g < 4; ++g)
            quant__bk_st(dst, at + 64 * (size_t)m + 16 * (size_t)g, quant__bk_tab(quant__bk_cf(dss + 4 * m + g, v, g, 1), o), o);
    }
}
/* bf16 from Q4_K and Q5_K. The 8 scales and mins are unpacked side by
   side (lanes 0..7 sc, 8..15 m of quant__k4_scale: the low bits are byte
   ia's >> sa & ma, the high two bits 6, 7 of byte ib) and multiplied by d
   and m at once. Then one 32-entry bf16 table per 64 outputs (Q4_K: two
   sub-blocks of 16 levels, index nibble | 16 for the second) or per 32
   (Q5_K: 32 levels, index nibble | qh bit << 4), for vpermw. */
/* Q4_K, Q5_K: the 8 d * sc (lanes 0..7) and m * mn (8..15) */
QUANT__INLINE __m512 quant__bk_k45dm(const uint8_t *b)
{
    const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(b + 4));
    const __m128i ia = _mm_setr_epi8(0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 8, 9, 10, 11);
    const __m128i ib = _mm_setr_epi8(-1, -1, -1, -1, 0, 1, 2, 3, -1, -1, -1, -1, 4, 5, 6, 7);
    const __m512i sa = _mm512_setr_epi32(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 4, 4, 4);
    const __m512i ma = _mm512_setr_epi32(63, 63, 63, 63, 15, 15, 15, 15, 63, 63, 63, 63, 15, 15, 15, 15);
    const __m512i sl = _mm512_and_si512(_mm512_srlv_epi32(_mm512_cvtepu8_epi32(_mm_shuffle_epi8(x, ia)), sa), ma);
    const __m512i sh = _mm512_and_si512(_mm512_srli_epi32(_mm512_cvtepu8_epi32(_mm_shuffle_epi8(x, ib)), 2), _mm512_set1_epi32(0x30));
    return _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_or_si512(sl, sh)),
                         _mm512_permutexvar_ps(_mm512_setr_epi32(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1), QUANT__BK_H4(b)));
}
/* Q4_K, Q5_K: sub-block s's dl * level - ml, the product fenced as in
   quant__bk_dm (lev: levels 0..15, or 16..31) */
QUANT__INLINE __m512 quant__bk_k45t(const float *dms, int s, __m512 lev)
{
    __m512 p = _mm512_mul_ps(_mm512_set1_ps(dms[s]), lev);
    QUANT__VFENCE(p);
    return _mm512_sub_ps(p, _mm512_set1_ps(dms[8 + s]));
}
/* the outputs of one bf16 table t: Q4_K's sub-blocks s, s + 1 (t's words
   0..15, 16..31), Q5_K's sub-block s (index nibble | qh bit s << 4) */
QUANT__INLINE void quant__bk_k45s(const uint8_t *b, const int k5, int s, __m512i t, void *dst, size_t at, unsigned o)
{
    const __m512i m15 = _mm512_set1_epi16(15), s16 = _mm512_set1_epi16(16);
    if (k5) {
        /* qh[l] in word l, shifted so that bit s lands in bit 4 (vpermw
           reads bits 0..4; a dword shift: no bit of the low word reaches
           bit 4 of the high one, and the bits a right shift brings into
           the low word's top are above bit 7) */
        const __m512i qh = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(const void *)(b + 16)));
        const __m512i W = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(const void *)(b + 48 + 32 * (s / 2))));
        const __m512i hs = s < 4 ? _mm512_slli_epi32(qh, (unsigned)(4 - s)) : s > 4 ? _mm512_srli_epi32(qh, (unsigned)(s - 4)) : qh;
        const __m512i i = _mm512_ternarylogic_epi32(s & 1 ? _mm512_srli_epi16(W, 4) : W, hs, m15, 0xE4);
        quant__bk_st32(dst, at + 32 * (size_t)s, _mm512_permutexvar_epi16(i, t), o);
    } else {
        const __m512i W = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(const void *)(b + 16 + 16 * s)));
        quant__bk_st32(dst, at + 32 * (size_t)s, _mm512_permutexvar_epi16(_mm512_and_si512(W, m15), t), o);
        quant__bk_st32(dst, at + 32 * (size_t)s + 32, _mm512_permutexvar_epi16(_mm512_or_si512(_mm512_srli_epi16(W, 4), s16), t), o);
    }
}
QUANT__INLINE void quant__bk_k45(const uint8_t *b, const int k5, void *dst, size_t at, unsigned o, const int nan)
{
    const __m512 lev = _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512 lev16 = _mm512_add_ps(lev, _mm512_set1_ps(16));
    const quant__bk_k k = quant__bk_kinit();
    quant__bk_f16 u;
    const float *dms = u.f;
    int s;
    u.v = quant__bk_k45dm(b); /* broadcast from memory: one load each */
    QUANT__UNROLL4
    for (s = 0; s < 8; s += 2 - k5)
        quant__bk_k45s(b, k5, s, quant__bk_bf2(quant__bk_k45t(dms, s, lev), quant__bk_k45t(dms, s + 1 - k5, k5 ? lev16 : lev), nan, &k),
                       dst, at, o);
}

/* Q4_K and Q5_K to f32 (f16): per sub-block s a table of its 16 levels
   dl * level - ml (Q5_K: 32, two vectors), d * sc and m * mn broadcast
   from memory; Q4_K's index is the nibble (vpermd reads bits 0..3), Q5_K's
   the nibble with bit s of qh moved to bit 4 (vpermt2d reads 0..4).
   dmv: the block's quant__bk_k45dm */
QUANT__INLINE void quant__bk_k45f(const uint8_t *b, const int k5, void *dst, size_t at, unsigned o, __m512 dmv)
{
    const __m512 lev = _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512 lev16 = _mm512_add_ps(lev, _mm512_set1_ps(16));
    const __m512i m15 = _mm512_set1_epi32(15);
    const __m512i H0 = k5 ? _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(b + 16))) : m15;
    const __m512i H1 = k5 ? _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(b + 32))) : m15;
    quant__bk_f16 dmu;
    const float *dms = dmu.f;
    int n, j, h;
    dmu.v = dmv;
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+m"(dmu)); /* gcc would rather vpermd than load dms */
#endif
    if (!k5) {
        /* Q4_K without widening: the 64 bytes of sub-blocks 4P .. 4P + 3
           transposed so that dword k holds byte k, 16 + k, 32 + k, 48 + k
           (a 4 x 4 dword transpose, then one of bytes in each lane); a
           shift brings the nibble of output k to bits 0..3 */
        const __m512i tp = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
        const __m512i tb = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15));
        int P, p2, c;
        QUANT__UNROLL4
        for (P = 0; P < 2; ++P) {
            const __m512i D = _mm512_shuffle_epi8(_mm512_permutexvar_epi32(tp, _mm512_loadu_si512((const void *)(b + 16 + 64 * P))), tb);
            __m512i T[4];
            for (j = 0; j < 4; ++j) {
                __m512 p = _mm512_mul_ps(_mm512_set1_ps(dms[4 * P + j]), lev);
                QUANT__VFENCE(p);
                T[j] = quant__bk_tab(_mm512_sub_ps(p, _mm512_set1_ps(dms[8 + 4 * P + j])), o);
            }
            for (p2 = 0; p2 < 2; ++p2) {
                QUANT__UNROLL4
                for (c = 0; c < 4; ++c) { /* in address order: nibble t of byte 2 p2 + u of the dwords */
                    const int u = c % 2, t = c / 2, sh = 16 * p2 + 4 * (2 * u + t); /* sub-block 4P + 2 p2 + t, half u */
                    quant__bk_st(dst, at + 128 * (size_t)P + 32 * (size_t)(2 * p2 + t) + 16 * (size_t)u,
                                 _mm512_permutexvar_epi32(sh ? _mm512_srli_epi32(D, (unsigned)sh) : D, T[2 * p2 + t]), o);
                }
            }
        }
        return;
    }
#if QUANT__PASS_VBMI
    {
        /* Q5_K with VBMI: the 64 five-bit indices of sub-blocks n, n + 1
           as bytes of one vector (the shared 32 code bytes, the second
           copy shifted right by 4; qh rotated so that bit n, or n + 1, of
           each byte lands in bit 4), then vpermb spreads 16 of them to
           dwords (vpermt2d reads bits 0..4) */
        const __m512i qh = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)(const void *)(b + 16)));
        const __m512i w4 = _mm512_setr_epi64(0, 0, 0, 0, 0x0004000400040004, 0x0004000400040004, 0x0004000400040004, 0x0004000400040004);
        const __m512i b15 = _mm512_set1_epi8(15);
        __m512i sp[4];
        for (j = 0; j < 4; ++j)
            sp[j] = _mm512_add_epi32(_mm512_set1_epi32(0x01010101 * 16 * j),
                                     _mm512_setr_epi32(0, 0x01010101, 0x02020202, 0x03030303, 0x04040404, 0x05050505, 0x06060606, 0x07070707,
                                                       0x08080808, 0x09090909, 0x0A0A0A0A, 0x0B0B0B0B, 0x0C0C0C0C, 0x0D0D0D0D, 0x0E0E0E0E, 0x0F0F0F0F));
        QUANT__UNROLL4 /* so that rotate counts are constants */
        for (n = 0; n < 8; n += 2) {
            const __m512i x = _mm512_srlv_epi16(_mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)(const void *)(b + 48 + 16 * n))), w4);
            const __m512i r = _mm512_rolv_epi32(qh, _mm512_setr_epi32((4 - n) & 31, (4 - n) & 31, (4 - n) & 31, (4 - n) & 31, (4 - n) & 31, (4 - n) & 31,
                                                                      (4 - n) & 31, (4 - n) & 31, (3 - n) & 31, (3 - n) & 31, (3 - n) & 31, (3 - n) & 31,
                                                                      (3 - n) & 31, (3 - n) & 31, (3 - n) & 31, (3 - n) & 31));
            const __m512i I = _mm512_ternarylogic_epi32(x, r, b15, 0xE4); /* bits 0..3 from x, 4.. from r */
            for (j = 0; j < 2; ++j) {
                const int s = n + j;
                const __m512 dl = _mm512_set1_ps(dms[s]), ml = _mm512_set1_ps(dms[8 + s]);
                __m512 p = _mm512_mul_ps(dl, lev), p16 = _mm512_mul_ps(dl, lev16);
                __m512i T0, T1;
                QUANT__VFENCE(p);
                QUANT__VFENCE(p16);
                T0 = quant__bk_tab(_mm512_sub_ps(p, ml), o);
                T1 = quant__bk_tab(_mm512_sub_ps(p16, ml), o);
                for (h = 0; h < 2; ++h)
                    quant__bk_st(dst, at + 32 * (size_t)s + 16 * (size_t)h,
                                 _mm512_permutex2var_epi32(T0, _mm512_permutexvar_epi8(sp[2 * j + h], I), T1), o);
            }
        }
        return;
    }
#endif
    QUANT__UNROLL4 /* so that shift counts are constants */
    for (n = 0; n < 8; n += 2) {
        const uint8_t *q = b + 48 + 16 * n;
        for (j = 0; j < 2; ++j) {
            const int s = n + j;
            const __m512 dl = _mm512_set1_ps(dms[s]), ml = _mm512_set1_ps(dms[8 + s]);
            __m512 p = _mm512_mul_ps(dl, lev);
            __m512i T0, T1 = m15;
            QUANT__VFENCE(p);
            T0 = quant__bk_tab(_mm512_sub_ps(p, ml), o);
            if (k5) {
                __m512 p16 = _mm512_mul_ps(dl, lev16);
                QUANT__VFENCE(p16);
                T1 = quant__bk_tab(_mm512_sub_ps(p16, ml), o);
            }
            for (h = 0; h < 2; ++h) {
                const __m512i D = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(q + 16 * h)));
                const __m512i i = j ? _mm512_srli_epi32(D, 4) : D;
                __m512i v;
                if (k5) {
                    const __m512i H = h ? H1 : H0;
                    const __m512i hs = s < 4 ? _mm512_slli_epi32(H, (unsigned)(4 - s)) : s > 4 ? _mm512_srli_epi32(H, (unsigned)(s - 4)) : H;
                    /* bits 0..3 from i, 4.. from hs */
                    v = _mm512_permutex2var_epi32(T0, _mm512_ternarylogic_epi32(i, hs, m15, 0xE4), T1);
                } else v = _mm512_permutexvar_epi32(i, T0);
                quant__bk_st(dst, at + 32 * (size_t)s + 16 * (size_t)h, v, o);
            }
        }
    }
}
/* IQ4_XS: the 8 dl = d * (ls - 32) of the super-block at b */
QUANT__INLINE void quant__bk_n4dl(const uint8_t *b, float *dl)
{
    /* ls n: nibble n of bytes 4..7, and bits 2n, 2n + 1 of b[2..3] (bits 16 + 2n of the first dword) as bits 4, 5 */
    const __m256i lo = _mm256_srlv_epi32(_mm256_set1_epi32((int)quant__ld4(b + 4)), _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28));
    const __m256i hi = _mm256_srlv_epi32(_mm256_set1_epi32((int)quant__ld4(b)), _mm256_setr_epi32(12, 14, 16, 18, 20, 22, 24, 26));
    const __m256i ls = _mm256_ternarylogic_epi32(_mm256_and_si256(lo, _mm256_set1_epi32(15)), hi, _mm256_set1_epi32(0x30), 0xF8);
    _mm256_storeu_ps(dl, _mm256_mul_ps(_mm256_set1_ps(quant__bk_h(b)), _mm256_cvtepi32_ps(_mm256_sub_epi32(ls, _mm256_set1_epi32(32)))));
}
/* Q3_K to bf16 or f16; dl: the block's quant__bk_q3ds */
QUANT__INLINE void quant__bk_q3h(const uint8_t *b, void *dst, size_t at, unsigned o, __m512 dl)
{
    /* hmask[32], qs[64], scales[12] (16 signed 6-bit), d. Element
       128n + 32j + 16g + l is bits 2j, 2j+1 of qs[32n + 16g + l], less 4
       unless bit 4n + j of hmask[16g + l] is set, in sub-block
       8n + 2j + g. The 16 dl = d * scale in one vector; one table per 64
       elements (4 sub-blocks by the 8 levels -4..3): entry
       8 (2 (j % 2) + g) + code + 4 hmask bit is dl * level */
    const __m512 l8 = _mm512_setr_ps(-4, -3, -2, -1, 0, 1, 2, 3, -4, -3, -2, -1, 0, 1, 2, 3);
    const __m512i e8 = _mm512_setr_epi32(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1);
    const int fin = (b[109] & 0x7C) != 0x7C;
    int n, j;
    QUANT__UNROLL4
    for (n = 0; n < 4; ++n) { /* the 64 elements of sub-blocks 4n .. 4n + 3 */
        const uint8_t *q = b + 32 + 32 * (n / 2);
        const int jb = 2 * (n % 2), hb = 4 * (n / 2) + jb; /* the first j, its hmask bit */
        const __m512i i0 = _mm512_add_epi32(e8, _mm512_set1_epi32(4 * n)), i1 = _mm512_add_epi32(i0, _mm512_set1_epi32(2));
        const __m512 A = _mm512_mul_ps(_mm512_permutexvar_ps(i0, dl), l8), B = _mm512_mul_ps(_mm512_permutexvar_ps(i1, dl), l8);
        /* index: the code | 16 (j % 2) + 8g, + 4 (bit 2 is clear) by the hmask bit */
        const __m512i X = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(const void *)q));
        const __m256i H = _mm256_loadu_si256((const __m256i *)(const void *)b);
        const __m512i G = _mm512_inserti64x4(_mm512_setzero_si512(), _mm256_set1_epi16(8), 1);
        const __m512i T = quant__bk_tab32(A, B, o, fin);
        for (j = 0; j < 2; ++j) {
            __m512i idx = _mm512_ternarylogic_epi32(_mm512_srli_epi32(X, (unsigned)(2 * (jb + j))), _mm512_set1_epi16(3),
                                                    _mm512_add_epi16(G, _mm512_set1_epi16((short)(16 * j))), 0xEA);
            idx = _mm512_mask_add_epi16(idx, _mm256_test_epi8_mask(H, _mm256_set1_epi8((char)(1 << (hb + j)))), idx,
                                       _mm512_set1_epi16(4));
            quant__bk_st32(dst, at + 64 * (size_t)n + 32 * (size_t)j, _mm512_permutexvar_epi16(idx, T), o);
        }
    }
}
/* One block of type t (a constant where it is inlined) at b decoded to
   element `at` of dst */
QUANT__INLINE void quant__bk_one(unsigned t, const uint8_t *b, void *dst, size_t at, unsigned o)
{
    const __m512 lev = _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512 fp4 = _mm512_setr_ps(0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12);
    const __m512 iq4 = _mm512_setr_ps(-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113);
    const __m512i m15 = _mm512_set1_epi32(15);
    int n, j;
    switch (t) {
    case QUANT_Q4_0: case QUANT_Q4_1: case QUANT_IQ4_NL: case QUANT_MXFP4: {
        __m512 T;
        if (t == QUANT_MXFP4) T = _mm512_mul_ps(fp4, _mm512_set1_ps(quant__e8m0_half(b[0])));
        else if (t == QUANT_IQ4_NL) T = _mm512_mul_ps(_mm512_set1_ps(quant__bk_h(b)), iq4);
        else if (t == QUANT_Q4_0) T = _mm512_mul_ps(_mm512_sub_ps(lev, _mm512_set1_ps(8)), _mm512_set1_ps(quant__bk_h(b)));
        else if ((b[1] & 0x7Cu) != 0x7Cu) {
            /* Q4_1, d finite: no product is NaN, so + m as it is; d and m
               converted together (8 bytes read: d, m and 4 bytes of codes) */
            const __m512 dm = QUANT__BK_H4(b);
            __m512 p = _mm512_mul_ps(lev, _mm512_broadcastss_ps(_mm512_castps512_ps128(dm)));
            QUANT__VFENCE(p);
            T = _mm512_add_ps(p, _mm512_permutexvar_ps(_mm512_set1_epi32(1), dm));
        } else T = quant__bk_lin(lev, quant__bk_h(b), quant__bk_h(b + 2), 1);
        quant__bk_nib32(dst, at, b + (t == QUANT_MXFP4 ? 1 : t == QUANT_Q4_1 ? 4 : 2), quant__bk_tab(T, o), o);
        break;
    }
    case QUANT_Q5_0: case QUANT_Q5_1: {
        /* 32 levels: the fifth bit of element e is bit e of qh */
        const int has_m = t == QUANT_Q5_1;
        if ((o & 3u) == 0u && (!has_m || (b[1] & 0x7Cu) != 0x7Cu)) {
            /* to f32, Q5_1's d finite: d and m from one vcvtph2ps */
            const __m512 dm = QUANT__BK_H4(b), d = _mm512_broadcastss_ps(_mm512_castps512_ps128(dm));
            const __m512 off = _mm512_set1_ps(has_m ? 0.0f : 16.0f);
            __m512 A = _mm512_mul_ps(_mm512_sub_ps(lev, off), d), B = _mm512_mul_ps(_mm512_sub_ps(_mm512_add_ps(lev, _mm512_set1_ps(16)), off), d);
            /* qh in every dword, rotated so that bit e (output e) or
               16 + e (output 16 + e) lands in bit 4 (vpermt2ps reads bits
               0..4; a mask register from qh costs more) */
            const __m512i Q = _mm512_broadcastd_epi32(_mm_loadu_si128((const __m128i *)(const void *)(b + 2 + 2 * has_m))); /* 16 bytes of the block */
            const __m512i D = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(b + 6 + 2 * has_m)));
            const __m512i i0 = _mm512_ternarylogic_epi32(D, _mm512_rolv_epi32(Q, _mm512_setr_epi32(4, 3, 2, 1, 0, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21)), m15, 0xE4);
            const __m512i i1 = _mm512_ternarylogic_epi32(_mm512_srli_epi32(D, 4), _mm512_rolv_epi32(Q, _mm512_setr_epi32(20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5)), m15, 0xE4);
            if (has_m) {
                const __m512 m = _mm512_permutexvar_ps(_mm512_set1_epi32(1), dm);
                QUANT__VFENCE(A);
                QUANT__VFENCE(B);
                A = _mm512_add_ps(A, m);
                B = _mm512_add_ps(B, m);
            }
            quant__bk_st(dst, at, _mm512_castps_si512(_mm512_permutex2var_ps(A, i0, B)), o);
            quant__bk_st(dst, at + 16, _mm512_castps_si512(_mm512_permutex2var_ps(A, i1, B)), o);
            break;
        }
        const float d = quant__bk_h(b), m = has_m ? quant__bk_h(b + 2) : 0.0f;
        const __m512 off = _mm512_set1_ps(has_m ? 0.0f : 16.0f);
        const __m512i lo = quant__bk_tab(quant__bk_lin(_mm512_sub_ps(lev, off), d, m, has_m), o);
        const __m512i hi = quant__bk_tab(quant__bk_lin(_mm512_sub_ps(_mm512_add_ps(lev, _mm512_set1_ps(16)), off), d, m, has_m), o);
        const uint32_t qh = quant__ld4(b + 2 + 2 * has_m);
        const __m512i D = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(b + 6 + 2 * has_m)));
        const __m512i i0 = _mm512_and_si512(D, m15), i1 = _mm512_srli_epi32(D, 4), s16 = _mm512_set1_epi32(16);
        quant__bk_st(dst, at, _mm512_permutex2var_epi32(lo, _mm512_mask_or_epi32(i0, (__mmask16)qh, i0, s16), hi), o);
        quant__bk_st(dst, at + 16, _mm512_permutex2var_epi32(lo, _mm512_mask_or_epi32(i1, (__mmask16)(qh >> 16), i1, s16), hi), o);
        break;
    }
    case QUANT_Q8_0: {
        const __m512 d = _mm512_set1_ps(quant__bk_h(b));
        if ((o & 3u) == 1u) {
            if ((b[1] & 0x7Cu) != 0x7Cu) quant__bk_q8(b + 2, _mm512_cvtss_f32(d), 1, dst, at, o, 0);
            else quant__bk_q8(b + 2, _mm512_cvtss_f32(d), 1, dst, at, o, 1);
            break;
        }
        quant__bk_st(dst, at, quant__bk_tab(_mm512_mul_ps(quant__bk_i8(b + 2), d), o), o);
        quant__bk_st(dst, at + 16, quant__bk_tab(_mm512_mul_ps(quant__bk_i8(b + 18), d), o), o);
        break;
    }
    case QUANT_Q8_K: {
        const __m512 d = _mm512_set1_ps(quant__float(quant__ld4(b)));
        if ((o & 3u) == 1u) {
            if ((quant__ld4(b) & 0x7F800000u) != 0x7F800000u) quant__bk_q8(b + 4, _mm512_cvtss_f32(d), 8, dst, at, o, 0);
            else quant__bk_q8(b + 4, _mm512_cvtss_f32(d), 8, dst, at, o, 1);
            break;
        }
        for (j = 0; j < 16; ++j) quant__bk_st(dst, at + 16 * (size_t)j, quant__bk_tab(_mm512_mul_ps(d, quant__bk_i8(b + 4 + 16 * j)), o), o);
        break;
    }
    case QUANT_NVFP4_BLOCK:
        for (n = 0; n < 4; n += 2) {
            /* two sub-blocks of 16: bytes 8n .. 8n+15 of the codes */
            const __m512i D = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(b + 4 + 8 * n)));
            const __m512i lo = _mm512_and_si512(D, m15), hi = _mm512_srli_epi32(D, 4);
            const __m512i s0 = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23);
            const __m512i s1 = _mm512_add_epi32(s0, _mm512_set1_epi32(8));
            const __m512i T0 = quant__bk_tab(_mm512_mul_ps(fp4, _mm512_set1_ps(quant__ue4m3_half(b[n]))), o);
            const __m512i T1 = quant__bk_tab(_mm512_mul_ps(fp4, _mm512_set1_ps(quant__ue4m3_half(b[n + 1]))), o);
            quant__bk_st(dst, at + 16 * (size_t)n, _mm512_permutexvar_epi32(_mm512_permutex2var_epi32(lo, s0, hi), T0), o);
            quant__bk_st(dst, at + 16 * (size_t)n + 16, _mm512_permutexvar_epi32(_mm512_permutex2var_epi32(lo, s1, hi), T1), o);
        }
        break;
    case QUANT_IQ4_XS: {
        /* the 8 dl at once, broadcast from memory */
        quant__bk_f16 u;
        quant__bk_n4dl(b, u.f);
#if defined(__GNUC__) || defined(__clang__)
        __asm__("" : "+m"(u));
#endif
        for (n = 0; n < 8; ++n)
            quant__bk_nib32(dst, at + 32 * (size_t)n, b + 8 + 16 * n, quant__bk_tab(_mm512_mul_ps(_mm512_set1_ps(u.f[n]), iq4), o), o);
        break;
    }
    case QUANT_Q4_K: case QUANT_Q5_K: {
        /* sub-block n: nibble (n odd: high) of byte l of its 32, the fifth bit (Q5_K) bit n of qh[l] */
        const int k5 = t == QUANT_Q5_K;
        if ((o & 3u) == 1u) {
            /* finite d and m: no table entry is NaN */
            if ((b[1] & 0x7Cu) != 0x7Cu && (b[3] & 0x7Cu) != 0x7Cu) quant__bk_k45(b, k5, dst, at, o, 0);
            else quant__bk_k45(b, k5, dst, at, o, 1);
            break;
        }
        /* f16 (f32 goes a block ahead in quant__bk_krun) */
        quant__bk_k45f(b, k5, dst, at, o, quant__bk_k45dm(b));
        break;
    }
    case QUANT_Q6_K:
        if ((o & 3u) == 1u) {
            /* a finite d: d * sc and its products are finite */
            if ((b[209] & 0x7Cu) != 0x7Cu) quant__bk_q6(b, dst, at, o, 0);
            else quant__bk_q6(b, dst, at, o, 1);
        } else quant__bk_q6f(b, dst, at, o, quant__bk_q6dv(b, 1)); /* f16 (f32: quant__bk_krun) */
        break;
    case QUANT_Q2_K: {
        /* scales[16] (low nibble scale, high min), qs[64], d, dmin. Element
           128n + 32j + 16g + l is bits 2j, 2j+1 of qs[32n + 16g + l], in
           sub-block 8n + 2j + g. The 16 dl = d * sc and ml = dmin * mn in one
           vector each; one table per 128 elements: entry 4 (2j + g) + level
           is dl * level - ml, as the scalar code computes it */
        const __m512 l4 = _mm512_setr_ps(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3);
        const __m512i e4 = _mm512_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3);
        const __m512i S = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)b));
        const __m512 dl = _mm512_mul_ps(_mm512_set1_ps(quant__bk_h(b + 80)), _mm512_cvtepi32_ps(_mm512_and_si512(S, m15)));
        __m512 ml = _mm512_mul_ps(_mm512_set1_ps(quant__bk_h(b + 82)), _mm512_cvtepi32_ps(_mm512_srli_epi32(S, 4)));
        const int fin = (b[81] & 0x7C) != 0x7C && (b[83] & 0x7C) != 0x7C; /* no NaN entry */
        QUANT__VFENCE(ml);
        QUANT__UNROLL4 /* so that shift counts and offsets are constants */
        for (n = 0; n < 2; ++n) {
            const uint8_t *q = b + 16 + 32 * n;
            const __m512i i0 = _mm512_add_epi32(e4, _mm512_set1_epi32(8 * n)), i1 = _mm512_add_epi32(i0, _mm512_set1_epi32(4));
            __m512 A = _mm512_mul_ps(_mm512_permutexvar_ps(i0, dl), l4), B = _mm512_mul_ps(_mm512_permutexvar_ps(i1, dl), l4);
            QUANT__VFENCE(A);
            QUANT__VFENCE(B);
            A = _mm512_sub_ps(A, _mm512_permutexvar_ps(i0, ml));
            B = _mm512_sub_ps(B, _mm512_permutexvar_ps(i1, ml));
            if (o & 3u) {
                /* index: the code | 8j + 4g (g: the upper 16 words); dword shifts do,
                   as & 3 drops what they bring down from the upper word */
                const __m512i X = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(const void *)q));
                const __m512i G = _mm512_inserti64x4(_mm512_setzero_si512(), _mm256_set1_epi16(4), 1);
                const __m512i T = quant__bk_tab32(A, B, o, fin);
                for (j = 0; j < 4; ++j) {
                    const __m512i idx = _mm512_ternarylogic_epi32(_mm512_srli_epi32(X, (unsigned)(2 * j)), _mm512_set1_epi16(3),
                                                                  _mm512_add_epi16(G, _mm512_set1_epi16((short)(8 * j))), 0xEA);
                    quant__bk_st32(dst, at + 128 * (size_t)n + 32 * (size_t)j, _mm512_permutexvar_epi16(idx, T), o);
                }
            } else {
                const __m512i X0 = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)q));
                const __m512i X1 = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(q + 16)));
                for (j = 0; j < 8; ++j) { /* 16 elements: j / 2 is the shift's, j % 2 g */
                    const __m512i idx = _mm512_ternarylogic_epi32(_mm512_srli_epi32(j & 1 ? X1 : X0, (unsigned)(j & ~1)),
                                                                  _mm512_set1_epi32(3), _mm512_set1_epi32(4 * j), 0xEA);
                    quant__bk_st(dst, at + 128 * (size_t)n + 16 * (size_t)j, _mm512_castps_si512(_mm512_permutex2var_ps(A, idx, B)), o);
                }
            }
        }
        break;
    }
    case QUANT_Q3_K:
        if (!(o & 3u)) quant__bk_q3f(b, dst, at, o, quant__bk_q3ds(b)); /* f32 (quant__bk_krun calls quant__bk_q3f itself) */
        else quant__bk_q3h(b, dst, at, o, quant__bk_q3ds(b));
        break;
    default: break;
    }
}

/* Q5_0, Q5_1 and NVFP4 to f32 or bf16, 16 blocks a batch: the batch's
   scales gathered and converted at once (f16 by vcvtph2ps, UE4M3 from
   its bits), then one 32-entry table a block (Q5: its 32 levels; NVFP4:
   two sub-blocks of 16, twice) for vpermw (bf16, the table rounded
   once) or vpermt2ps / vpermps (f32). A Q5 batch with an Inf or NaN d or
   m goes block by block through quant__bk_one; finite, no product or
   sum is NaN, and none is subnormal (multiples of 2^-24, NVFP4's of
   2^-10), as vcvtne2ps2bf16 (which flushes them) wants. */

/* 64 bytes at b + 64 r, of the len there are (masked past them) */
QUANT__INLINE __m512i quant__bk5_ld(const uint8_t *b, size_t len, size_t r)
{
    if (len >= 64 * r + 64) return _mm512_loadu_si512((const void *)(b + 64 * r));
    return _mm512_maskz_loadu_epi8(len > 64 * r ? (__mmask64)(~0ull >> (64 - (len - 64 * r))) : 0u, (const void *)(b + 64 * r));
}
/* the scales of the cnt (1 to 16) blocks at b as f32: Q5 d in s[k], Q5_1
   m in m[k], NVFP4 s[4k + n] as quant__ue4m3_half (with a = c & 0x7F: 0
   for c 0x7F, a 2^-10 for a < 8, else the f32 bits (a << 20) + (119 << 23),
   (8 + m) 2^(e - 11)); 0 when a Q5 d or m is Inf or NaN */
QUANT__INLINE int quant__bk5_scales(unsigned t, const uint8_t *b, size_t cnt, float *s, float *m)
{
    const int bb = t == QUANT_NVFP4_BLOCK ? 36 : t == QUANT_Q5_1 ? 24 : 22;
    const size_t len = cnt * (size_t)bb;
    /* the first 4 bytes of block k to dword k: words bb / 2 k and the next,
       from pairs of vectors (128 bytes) with vpermt2w (a gather is slower) */
    const __m512i iw = _mm512_set_epi16(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
                                        15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    const __m512i pos = _mm512_add_epi16(_mm512_mullo_epi16(_mm512_srli_epi16(iw, 1), _mm512_set1_epi16((short)(bb / 2))),
                                         _mm512_and_si512(iw, _mm512_set1_epi16(1)));
    __m512i w = _mm512_permutex2var_epi16(quant__bk5_ld(b, len, 0), pos, quant__bk5_ld(b, len, 1));
    uint32_t c4[16];
    int n;
    for (n = 1; n < (t == QUANT_NVFP4_BLOCK ? 5 : 3); ++n)
        w = _mm512_mask_mov_epi16(w, _mm512_cmpeq_epi16_mask(_mm512_srli_epi16(pos, 6), _mm512_set1_epi16((short)n)),
                                  _mm512_permutex2var_epi16(quant__bk5_ld(b, len, 2 * (size_t)n), pos,
                                                            quant__bk5_ld(b, len, 2 * (size_t)n + 1)));
    if (t != QUANT_NVFP4_BLOCK) {
        const __m512i e = _mm512_set1_epi32(t == QUANT_Q5_1 ? 0x7C007C00 : 0x7C00);
        _mm512_storeu_ps(s, _mm512_cvtph_ps(_mm512_cvtepi32_epi16(w)));
        if (t == QUANT_Q5_1) _mm512_storeu_ps(m, _mm512_cvtph_ps(_mm512_cvtepi32_epi16(_mm512_srli_epi32(w, 16))));
        return !(_mm512_test_epi32_mask(_mm512_andnot_si512(w, e), _mm512_set1_epi32(0x7C00)) != 0xFFFFu ||
                 (t == QUANT_Q5_1 && _mm512_test_epi32_mask(_mm512_andnot_si512(w, e), _mm512_set1_epi32(0x7C000000)) != 0xFFFFu));
    }
    _mm512_storeu_si512((void *)c4, w);
    for (n = 0; n < 4; ++n) {
        const __m512i c = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(c4 + 4 * n)));
        const __m512i a = _mm512_and_si512(c, _mm512_set1_epi32(0x7F));
        __m512 v = _mm512_castsi512_ps(_mm512_add_epi32(_mm512_slli_epi32(a, 20), _mm512_set1_epi32(119 << 23)));
        v = _mm512_mask_mul_ps(v, _mm512_cmplt_epi32_mask(a, _mm512_set1_epi32(8)), _mm512_cvtepi32_ps(a),
                               _mm512_set1_ps(1.0f / 1024.0f));
        _mm512_storeu_ps(s + 16 * n, _mm512_maskz_mov_ps(_mm512_cmpneq_epi32_mask(c, _mm512_set1_epi32(0x7F)), v));
    }
    return 1;
}
/* the constants of the loops below, made once (behind the empty asm gcc
   keeps them in registers) */
typedef struct quant__bk5_k {
    __m512 la, lb, fp4;
    __m512i w15, wsh, wsh8, wg, dsh;
#if QUANT__PASS_VBMI
    __m512i f4b;
#endif
} quant__bk5_k;
QUANT__INLINE quant__bk5_k quant__bk5_kinit(unsigned t)
{
    const __m512 lev = _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    quant__bk5_k k;
    /* the table's two halves of levels: Q5_0 q - 16, Q5_1 q */
    k.la = t == QUANT_Q5_1 ? lev : _mm512_sub_ps(lev, _mm512_set1_ps(16));
    k.lb = t == QUANT_Q5_1 ? _mm512_add_ps(lev, _mm512_set1_ps(16)) : lev;
    k.fp4 = _mm512_setr_ps(0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12);
    k.w15 = _mm512_set1_epi16(15);
    /* word shifts: Q5 4 for words 16..31, NVFP4 4 for the second 8 of each 16 */
    k.wsh = _mm512_inserti64x4(_mm512_setzero_si512(), _mm256_set1_epi16(4), 1);
    k.wsh8 = _mm512_maskz_mov_epi64(0xCC, _mm512_set1_epi16(4));
    k.wg = _mm512_inserti64x4(_mm512_setzero_si512(), _mm256_set1_epi16(16), 1); /* NVFP4's second sub-block */
    k.dsh = _mm512_inserti64x4(_mm512_setzero_si512(), _mm256_set1_epi32(4), 1);
#if QUANT__PASS_VBMI
    /* NVFP4: word w takes byte 8 (w / 16) + w % 8 of the 16 */
    k.f4b = _mm512_set_epi8(15, 15, 14, 14, 13, 13, 12, 12, 11, 11, 10, 10, 9, 9, 8, 8, 15, 15, 14, 14, 13, 13, 12, 12, 11, 11, 10, 10, 9, 9, 8, 8,
                             7, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0, 7, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0);
    QUANT__VFENCE(k.f4b);
#endif
    QUANT__VFENCE(k.la);
    QUANT__VFENCE(k.lb);
    QUANT__VFENCE(k.fp4);
    QUANT__VFENCE(k.w15);
    QUANT__VFENCE(k.wsh);
    QUANT__VFENCE(k.wsh8);
    QUANT__VFENCE(k.wg);
    QUANT__VFENCE(k.dsh);
    return k;
}
/* a Q5 block's table halves, the scalar code's products (and sums) */
QUANT__INLINE void quant__bk5_q5tab(unsigned t, const quant__bk5_k *k, float d, float m, __m512 *a, __m512 *b)
{
    const __m512 vd = _mm512_set1_ps(d);
    __m512 A = _mm512_mul_ps(k->la, vd), B = _mm512_mul_ps(k->lb, vd);
    if (t == QUANT_Q5_1) {
        QUANT__VFENCE(A);
        QUANT__VFENCE(B);
        A = _mm512_add_ps(A, _mm512_set1_ps(m));
        B = _mm512_add_ps(B, _mm512_set1_ps(m));
    }
    *a = A;
    *b = B;
}
/* the 32 word indices of a Q5 block (qs at q, qh at h): words 0..15 the
   low nibbles, 16..31 the high ones, bit 4 the qh bit (vpermw reads bits
   4:0) */
QUANT__INLINE __m512i quant__bk5_q5idx(const uint8_t *q, const uint8_t *h, const quant__bk5_k *k)
{
    const __m256i b = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)q));
    const __m512i x = _mm512_srlv_epi16(_mm512_cvtepu8_epi16(b), k->wsh);
    return _mm512_ternarylogic_epi32(k->w15, x, _mm512_movm_epi16(_cvtu32_mask32(quant__ld4(h))), 0xCA);
}
/* the 32 word indices of half hf of an NVFP4 block's codes at q: word w
   is nibble (w / 8) % 2 of byte 16 hf + 8 (w / 16) + w % 8, + 16 for the
   second sub-block */
QUANT__INLINE __m512i quant__bk5_f4idx(const uint8_t *q, int hf, const quant__bk5_k *k)
{
#if QUANT__PASS_VBMI
    /* vpermb spreads the bytes (the high byte of a word is not read) */
    const __m512i x = _mm512_permutexvar_epi8(k->f4b, _mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)(const void *)(q + 16 * hf))));
#else
    const __m256i b = _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(q + 16 * hf)));
    const __m512i x = _mm512_cvtepu8_epi16(_mm256_permute4x64_epi64(b, 0x50));
#endif
    return _mm512_ternarylogic_epi32(_mm512_srlv_epi16(x, k->wsh8), k->w15, k->wg, 0xEA);
}
/* the blocks of Q5_0, Q5_1 or NVFP4 go in batches of 16: s, m their
   scales, for two batches */
typedef struct quant__bk5_b {
    float s[2][64], m[2][16];
    int ok[2];
} quant__bk5_b;
/* batch k0 / 16 of the nb blocks at src: makes the next batch's scales
   (their latency hidden behind this batch's decoding) and returns this
   batch's block count for the caller to decode, or 0 when a scale was not
   finite (the batch then decoded here by quant__bk_one) */
QUANT__INLINE size_t quant__bk5_batch(unsigned t, const uint8_t *src, void *dst, size_t nb, size_t k0, unsigned o, quant__bk5_b *B)
{
    const size_t be = t == QUANT_NVFP4_BLOCK ? 64 : 32, bb = t == QUANT_NVFP4_BLOCK ? 36 : t == QUANT_Q5_1 ? 24 : 22;
    const size_t cnt = nb - k0 < 16 ? nb - k0 : 16, c = (k0 / 16) & 1u;
    const uint8_t *b = src + k0 * bb;
    size_t j;
    if (k0 == 0) B->ok[0] = quant__bk5_scales(t, src, cnt, B->s[0], B->m[0]);
    if (nb - k0 > 16) B->ok[c ^ 1u] = quant__bk5_scales(t, b + 16 * bb, nb - k0 - 16 < 16 ? nb - k0 - 16 : 16, B->s[c ^ 1u], B->m[c ^ 1u]);
    if (B->ok[c]) return cnt;
    for (j = 0; j < cnt; ++j) quant__bk_one(t, b + j * bb, dst, (k0 + j) * be, o);
    return 0;
}
/* the nb blocks of NVFP4 from src to f32 (o & 3 == 0) or bf16 (1), of
   Q5_0 or Q5_1 to bf16; a constant t and o & 3 where it is inlined */
QUANT__INLINE void quant__bk5_run(unsigned t, const uint8_t *src, void *dst, size_t nb, unsigned o)
{
    const size_t be = t == QUANT_NVFP4_BLOCK ? 64 : 32, bb = t == QUANT_NVFP4_BLOCK ? 36 : t == QUANT_Q5_1 ? 24 : 22;
    const quant__bk5_k k = quant__bk5_kinit(t);
    quant__bk5_b B5;
    size_t k0, j;
    int n;
    for (k0 = 0; k0 < nb; k0 += 16) {
        const size_t cnt = quant__bk5_batch(t, src, dst, nb, k0, o, &B5);
        const uint8_t *b = src + k0 * bb;
        const float *s = B5.s[(k0 / 16) & 1u], *m = B5.m[(k0 / 16) & 1u];
        for (j = 0; j < cnt; ++j, b += bb) {
            const size_t at = (k0 + j) * be;
            if (t == QUANT_NVFP4_BLOCK && (o & 3u)) {
                for (n = 0; n < 2; ++n) {
                    const __m512 A = _mm512_mul_ps(k.fp4, _mm512_set1_ps(s[4 * j + 2 * (size_t)n]));
                    const __m512 B = _mm512_mul_ps(k.fp4, _mm512_set1_ps(s[4 * j + 2 * (size_t)n + 1]));
                    quant__bk_st32(dst, at + 32 * (size_t)n,
                                   _mm512_permutexvar_epi16(quant__bk5_f4idx(b + 4, n, &k), quant__bk_tab32(A, B, 1u, 1)), o);
                }
            } else if (t == QUANT_NVFP4_BLOCK) {
                for (n = 0; n < 4; ++n) {
                    /* bytes 8n .. 8n + 7 twice, the second time >> 4 (vpermps reads bits 3:0) */
                    const __m128i q = _mm_broadcastq_epi64(_mm_loadl_epi64((const __m128i *)(const void *)(b + 4 + 8 * n)));
                    const __m512i x = _mm512_srlv_epi32(_mm512_cvtepu8_epi32(q), k.dsh);
                    const __m512 T = _mm512_mul_ps(k.fp4, _mm512_set1_ps(s[4 * j + (size_t)n]));
                    quant__bk_st(dst, at + 16 * (size_t)n, _mm512_castps_si512(_mm512_permutexvar_ps(x, T)), o);
                }
            } else {
                const uint8_t *h = b + 2 + 2 * (t == QUANT_Q5_1), *q = h + 4;
                __m512 A, B;
                quant__bk5_q5tab(t, &k, s[j], t == QUANT_Q5_1 ? m[j] : 0.0f, &A, &B);
                quant__bk_st32(dst, at, _mm512_permutexvar_epi16(quant__bk5_q5idx(q, h, &k), quant__bk_tab32(A, B, 1u, 1)), o);
            }
        }
    }
}
#if QUANT__PASS_VBMI && defined(QUANT__BF16I) && QUANT__BF16I
#  define QUANT__BK5_BF16I 1
/* the same to bf16 with AVX512-BF16: vcvtne2ps2bf16 rounds each table
   (t a variable here: under dispatch this is a function of its own) */
QUANT__BF16I_FN void quant__bk5_bf16i(unsigned t, const uint8_t *src, void *dst, size_t nb, unsigned o)
{
    const size_t be = t == QUANT_NVFP4_BLOCK ? 64 : 32, bb = t == QUANT_NVFP4_BLOCK ? 36 : t == QUANT_Q5_1 ? 24 : 22;
    const quant__bk5_k k = quant__bk5_kinit(t);
    quant__bk5_b B5;
    size_t k0, j;
    int n;
    for (k0 = 0; k0 < nb; k0 += 16) {
        const size_t cnt = quant__bk5_batch(t, src, dst, nb, k0, o, &B5);
        const uint8_t *b = src + k0 * bb;
        const float *s = B5.s[(k0 / 16) & 1u], *m = B5.m[(k0 / 16) & 1u];
        for (j = 0; j < cnt; ++j, b += bb) {
            const size_t at = (k0 + j) * be;
            if (t == QUANT_NVFP4_BLOCK) {
                for (n = 0; n < 2; ++n) {
                    const __m512 A = _mm512_mul_ps(k.fp4, _mm512_set1_ps(s[4 * j + 2 * (size_t)n]));
                    const __m512 B = _mm512_mul_ps(k.fp4, _mm512_set1_ps(s[4 * j + 2 * (size_t)n + 1]));
                    quant__bk_st32(dst, at + 32 * (size_t)n,
                                   _mm512_permutexvar_epi16(quant__bk5_f4idx(b + 4, n, &k), (__m512i)_mm512_cvtne2ps_pbh(B, A)), o);
                }
            } else {
                const uint8_t *h = b + 2 + 2 * (t == QUANT_Q5_1), *q = h + 4;
                __m512 A, B;
                quant__bk5_q5tab(t, &k, s[j], t == QUANT_Q5_1 ? m[j] : 0.0f, &A, &B);
                quant__bk_st32(dst, at, _mm512_permutexvar_epi16(quant__bk5_q5idx(q, h, &k), (__m512i)_mm512_cvtne2ps_pbh(B, A)), o);
            }
        }
    }
}
#else
#  define QUANT__BK5_BF16I 0
#endif
/* bf16 from Q4_0, Q4_1, IQ4_NL, MXFP4 and IQ4_XS, runs of blocks. A
   block whose scales are finite has no NaN value: its 16 values are
   rounded without the NaN case, two blocks' into one table of 32 words
   (the second's indices | 16), or a lone block's held twice (entry v in
   words v and v + 16, so that vpermw may take an index with garbage in
   bit 4). The indices: the 16 bytes twice as words, the upper 16
   shifted right by 4. Blocks with an infinite or NaN scale take
   quant__bk_one. */
QUANT__INLINE __m512i quant__bk_n4x(const uint8_t *q, __m512i sh)
{
    return _mm512_srlv_epi16(_mm512_cvtepu8_epi16(_mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)q))), sh);
}
/* the constants of the loops, made once (behind the empty asm gcc keeps
   them in registers): sh the index shifts, m15, s16, odd (the high words
   of two vectors of 16 dwords) */
typedef struct quant__bk_n4c {
    __m512i sh, m15, s16;
} quant__bk_n4c;
QUANT__INLINE quant__bk_n4c quant__bk_n4c_init(void)
{
    quant__bk_n4c k;
    k.sh = _mm512_inserti64x4(_mm512_setzero_si512(), _mm256_set1_epi16(4), 1);
    k.m15 = _mm512_set1_epi16(15);
    k.s16 = _mm512_set1_epi16(16);
    QUANT__VFENCE(k.sh);
    QUANT__VFENCE(k.m15);
    QUANT__VFENCE(k.s16);
    return k;
}
/* the codes of the block at b (IQ4_XS: sub-block at b) */
QUANT__INLINE const uint8_t *quant__bk_n4q(unsigned t, const uint8_t *b)
{
    return b + (t == QUANT_MXFP4 ? 1 : t == QUANT_Q4_1 ? 4 : t == QUANT_IQ4_XS ? 0 : 2);
}
/* the 16 values of a block with finite scales (IQ4_XS: of a sub-block of
   scale dl), with the scalar code's operations */
QUANT__INLINE __m512 quant__bk_n4v(unsigned t, const uint8_t *b, const float *dl)
{
    const __m512 fp4 = _mm512_setr_ps(0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12);
    const __m512 iq4 = _mm512_setr_ps(-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113);
    const __m512 lev8 = _mm512_setr_ps(-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7);
    const __m512 lev = _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    __m512 dm, d, p;
    if (t == QUANT_IQ4_XS) return _mm512_mul_ps(_mm512_set1_ps(*dl), iq4);
    if (t == QUANT_MXFP4) return _mm512_mul_ps(fp4, _mm512_set1_ps(quant__e8m0_half(b[0])));
    dm = QUANT__BK_H4(b); /* d (and Q4_1's m) */
    d = _mm512_broadcastss_ps(_mm512_castps512_ps128(dm));
    if (t == QUANT_IQ4_NL) return _mm512_mul_ps(d, iq4);
    if (t == QUANT_Q4_0) return _mm512_mul_ps(lev8, d);
    /* Q4_1: a finite product is not NaN, so + m as it is */
    p = _mm512_mul_ps(lev, d);
    QUANT__VFENCE(p);
    return _mm512_add_ps(p, _mm512_permutexvar_ps(_mm512_set1_epi32(1), dm));
}
/* two blocks' outputs at element `at` from their table T of 32 words */
QUANT__INLINE void quant__bk_n4st2(const uint8_t *q0, const uint8_t *q1, __m512i T, void *dst, size_t at, unsigned o,
                                   const quant__bk_n4c *kc)
{
    quant__bk_st32(dst, at, _mm512_permutexvar_epi16(_mm512_and_si512(quant__bk_n4x(q0, kc->sh), kc->m15), T), o);
    quant__bk_st32(dst, at + 32, _mm512_permutexvar_epi16(_mm512_ternarylogic_epi32(quant__bk_n4x(q1, kc->sh), kc->m15, kc->s16, 0xEA), T), o);
}
/* nb blocks of t from src to bf16 at dst (o: 1, or 5 streamed), the
   integer rounding */
QUANT__INLINE void quant__bk_n4(unsigned t, const uint8_t *src, void *dst, size_t nb, unsigned o)
{
    const size_t bb = quant__blk_bytes(t);
    const quant__bk_n4c kc = quant__bk_n4c_init();
    const quant__bk_k kr = quant__bk_kinit();
    size_t k;
    int n;
    if (t == QUANT_IQ4_XS) {
        for (k = 0; k < nb; ++k, src += bb) {
            quant__bk_f16 u;
            const float *dl = u.f;
            if ((src[1] & 0x7Cu) == 0x7Cu) { /* d infinite or NaN */
                quant__bk_one(t, src, dst, 256 * k, o);
                continue;
            }
            quant__bk_n4dl(src, u.f);
            for (n = 0; n < 8; n += 2)
                quant__bk_n4st2(src + 8 + 16 * n, src + 24 + 16 * n,
                                quant__bk_bf2(quant__bk_n4v(t, src, dl + n), quant__bk_n4v(t, src, dl + n + 1), 0, &kr),
                                dst, 256 * k + 32 * (size_t)n, o, &kc);
        }
        return;
    }
    for (k = 0; k + 2 <= nb; k += 2, src += 2 * bb) {
        const __m512 f0 = quant__bk_n4v(t, src, 0), f1 = quant__bk_n4v(t, src + bb, 0);
        if (t != QUANT_MXFP4 && _mm512_cmp_ps_mask(f0, f1, _CMP_UNORD_Q)) {
            quant__bk_one(t, src, dst, 32 * k, o);
            quant__bk_one(t, src + bb, dst, 32 * k + 32, o);
        } else
            quant__bk_n4st2(quant__bk_n4q(t, src), quant__bk_n4q(t, src + bb),
                            quant__bk_bf2(f0, f1, 0, &kr), dst, 32 * k, o, &kc);
    }
    if (k < nb) quant__bk_one(t, src, dst, 32 * k, o);
}
#if QUANT__PASS_VBMI && defined(QUANT__BF16I) && QUANT__BF16I
#  define QUANT__BK_N4I 1
/* the same with AVX512-BF16: vcvtne2ps2bf16 rounds as quant__bk_bf2
   does, but flushes subnormals to zero: an MXFP4 block with a subnormal
   half scale (e8m0 0 or 1) takes quant__bk_bf2 (no other block here has
   a subnormal value: they are multiples of 2^-24) */
QUANT__BF16I_FN void quant__bk_n4_bf16i(unsigned t, const uint8_t *src, void *dst, size_t nb, unsigned o)
{
    const size_t bb = quant__blk_bytes(t);
    const quant__bk_n4c kc = quant__bk_n4c_init();
    const quant__bk_k kr = quant__bk_kinit();
    size_t k;
    int n;
    if (t == QUANT_IQ4_XS) {
        for (k = 0; k < nb; ++k, src += bb) {
            quant__bk_f16 u;
            const float *dl = u.f;
            if ((src[1] & 0x7Cu) == 0x7Cu) { /* d infinite or NaN */
                quant__bk_one(t, src, dst, 256 * k, o);
                continue;
            }
            quant__bk_n4dl(src, u.f);
            for (n = 0; n < 8; n += 2)
                quant__bk_n4st2(src + 8 + 16 * n, src + 24 + 16 * n,
                                (__m512i)_mm512_cvtne2ps_pbh(quant__bk_n4v(t, src, dl + n + 1), quant__bk_n4v(t, src, dl + n)),
                                dst, 256 * k + 32 * (size_t)n, o, &kc);
        }
        return;
    }
    for (k = 0; k + 2 <= nb; k += 2, src += 2 * bb) {
        const __m512 f0 = quant__bk_n4v(t, src, 0), f1 = quant__bk_n4v(t, src + bb, 0);
        __m512i T;
        if (t == QUANT_MXFP4) /* never NaN; subnormal values from e8m0 0 or 1 */
            T = src[0] > 1 && src[bb] > 1 ? (__m512i)_mm512_cvtne2ps_pbh(f1, f0)
                                          : quant__bk_bf2(f0, f1, 0, &kr);
        else if (_mm512_cmp_ps_mask(f0, f1, _CMP_UNORD_Q)) {
            quant__bk_one(t, src, dst, 32 * k, o);
            quant__bk_one(t, src + bb, dst, 32 * k + 32, o);
            continue;
        } else T = (__m512i)_mm512_cvtne2ps_pbh(f1, f0);
        quant__bk_n4st2(quant__bk_n4q(t, src), quant__bk_n4q(t, src + bb), T, dst, 32 * k, o, &kc);
    }
    if (k < nb) quant__bk_one(t, src, dst, 32 * k, o);
}
#else
#  define QUANT__BK_N4I 0
#endif
/* bf16 runs of the types above (returns 1), else 0 */
QUANT__INLINE int quant__bk_n4_run(unsigned t, const uint8_t *src, void *dst, size_t nb, unsigned o)
{
    switch (t) {
/* o a constant: 1 bf16, 5 bf16 streamed */
#if QUANT__BK_N4I
#  define QUANT__BK_N4(T) \
    case T: \
        if (QUANT__BF16I_ON) { \
            if (o & 4u) quant__bk_n4_bf16i(T, src, dst, nb, 5u); \
            else quant__bk_n4_bf16i(T, src, dst, nb, 1u); \
        } else if (o & 4u) quant__bk_n4(T, src, dst, nb, 5u); \
        else quant__bk_n4(T, src, dst, nb, 1u); \
        return 1;
#else
#  define QUANT__BK_N4(T) \
    case T: \
        if (o & 4u) quant__bk_n4(T, src, dst, nb, 5u); \
        else quant__bk_n4(T, src, dst, nb, 1u); \
        return 1;
#endif
    QUANT__BK_N4(QUANT_Q4_0) QUANT__BK_N4(QUANT_Q4_1) QUANT__BK_N4(QUANT_IQ4_NL) QUANT__BK_N4(QUANT_MXFP4) QUANT__BK_N4(QUANT_IQ4_XS)
#undef QUANT__BK_N4
    default: return 0;
    }
}
#undef QUANT__BK_N4I

#if QUANT__PASS_VBMI && defined(QUANT__BF16I) && QUANT__BF16I
#  define QUANT__BK_KQI 1
/* Q4_K, Q5_K and Q6_K to bf16 with AVX512-BF16 (o 1, or 5 streamed):
   vcvtne2ps2bf16 rounds the products as quant__bk_bf2 does when the
   block's f16 scales are finite (no value is then NaN, and none
   subnormal: all are multiples of 2^-24); other blocks take
   quant__bk_one */
QUANT__BF16I_FN void quant__bk_kq_bf16i(unsigned t, const uint8_t *src, void *dst, size_t nb, unsigned o)
{
    const __m512 lev = _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512 lev16 = _mm512_add_ps(lev, _mm512_set1_ps(16));
    const size_t bb = quant__blk_bytes(t);
    size_t k;
    int n, g;
    /* the scales a block ahead, as quant__bk_krun */
    __m512 sc = t == QUANT_Q6_K ? quant__bk_q6dv(src, 1) : quant__bk_k45dm(src);
    for (k = 0; k < nb; ++k, src += bb) {
        const size_t at = 256 * k;
        const __m512 nx = k + 1 == nb ? sc : t == QUANT_Q6_K ? quant__bk_q6dv(src + bb, 1) : quant__bk_k45dm(src + bb);
        quant__bk_f16 u;
        float *ds = u.f;
        u.v = sc;
        sc = nx;
#if defined(__GNUC__) || defined(__clang__)
        __asm__("" : "+m"(u)); /* a load each, not a vpermd */
#endif
        if (t == QUANT_Q6_K && (src[209] & 0x7Cu) != 0x7Cu) {
            for (n = 0; n < 2; ++n) {
                __m512i v[2];
                quant__bk_q6c(src, n, v);
                for (g = 0; g < 8; g += 2)
                    quant__bk_st32(dst, at + 128 * (size_t)n + 16 * (size_t)g,
                                   (__m512i)_mm512_cvtne2ps_pbh(quant__bk_q6y(ds + 8 * n + g + 1, v, g + 1, 1), quant__bk_q6y(ds + 8 * n + g, v, g, 1)), o);
            }
        } else if (t == QUANT_Q4_K && (src[1] & 0x7Cu) != 0x7Cu && (src[3] & 0x7Cu) != 0x7Cu) {
            for (n = 0; n < 8; n += 2)
                quant__bk_k45s(src, 0, n, (__m512i)_mm512_cvtne2ps_pbh(quant__bk_k45t(ds, n + 1, lev), quant__bk_k45t(ds, n, lev)), dst, at, o);
        } else if (t == QUANT_Q5_K && (src[1] & 0x7Cu) != 0x7Cu && (src[3] & 0x7Cu) != 0x7Cu) {
            for (n = 0; n < 8; ++n)
                quant__bk_k45s(src, 1, n, (__m512i)_mm512_cvtne2ps_pbh(quant__bk_k45t(ds, n, lev16), quant__bk_k45t(ds, n, lev)), dst, at, o);
        } else quant__bk_one(t, src, dst, at, o);
    }
}
#else
#  define QUANT__BK_KQI 0
#endif

/* Q3_K, Q4_K, Q5_K and Q6_K to f32 (o 0, or 4 streamed), and Q3_K to
   bf16 (o 1, or 5), nb > 0: the next block's scales (quant__bk_q3ds, _k45dm, _q6dv) are computed while
   this block is decoded. A block's first table or product waits some 30
   cycles for them (loads, vcvtph2ps, shuffles, a multiply, a store and a
   reload), more than the core covers from the block before. (Zen 5, 64 Ki
   elements: Q5_K 1.3x faster, Q4_K 1.1x.) */
QUANT__INLINE __m512 quant__bk_ksc(unsigned t, const uint8_t *b)
{
    return t == QUANT_Q3_K ? quant__bk_q3ds(b) : t == QUANT_Q6_K ? quant__bk_q6dv(b, 1) : quant__bk_k45dm(b);
}
QUANT__INLINE void quant__bk_kblk(unsigned t, const uint8_t *b, void *dst, size_t at, unsigned o, __m512 sc)
{
    if (t == QUANT_Q3_K && (o & 3u)) quant__bk_q3h(b, dst, at, o, sc);
    else if (t == QUANT_Q3_K) quant__bk_q3f(b, dst, at, o, sc);
    else if (t == QUANT_Q6_K) quant__bk_q6f(b, dst, at, o, sc);
    else quant__bk_k45f(b, t == QUANT_Q5_K, dst, at, o, sc);
}
QUANT__INLINE void quant__bk_krun(unsigned t, const uint8_t *src, void *dst, size_t nb, unsigned o)
{
    const size_t bb = quant__blk_bytes(t);
    __m512 sc = quant__bk_ksc(t, src);
    size_t k;
    for (k = 0; k + 1 < nb; ++k) {
        const __m512 nx = quant__bk_ksc(t, src + (k + 1) * bb);
        quant__bk_kblk(t, src + k * bb, dst, 256 * k, o, sc);
        sc = nx;
    }
    quant__bk_kblk(t, src + k * bb, dst, 256 * k, o, sc);
}

/* nb blocks of type t from src decoded into dst: o 0 f32, 1 bf16, 2 f16,
   | 4 streamed (dst then on a 64-byte boundary). Returns 0 for a type this
   pass leaves to the scalar code. */
QUANT__PRIVATE int quant__bk_dec(unsigned t, const uint8_t *src, void *dst, size_t nb, unsigned o)
{
    const size_t be = quant__blk(t), bb = quant__blk_bytes(t);
    size_t k;
    if ((t == QUANT_NVFP4_BLOCK && (o & 3u) != 2u) || ((t == QUANT_Q5_0 || t == QUANT_Q5_1) && (o & 3u) == 1u)) {
        /* a copy for each type, output and streaming (f32: o is 0 or 4;
           Q5_0 and Q5_1 to f32 go block by block below) */
#if QUANT__BK5_BF16I
        if ((o & 1u) && QUANT__BF16I_ON) quant__bk5_bf16i(t, src, dst, nb, 1u | (o & 4u));
        else
#endif
        if (t == QUANT_Q5_0) quant__bk5_run(QUANT_Q5_0, src, dst, nb, 1u | (o & 4u));
        else if (t == QUANT_Q5_1) quant__bk5_run(QUANT_Q5_1, src, dst, nb, 1u | (o & 4u));
        else if (o & 1u) quant__bk5_run(QUANT_NVFP4_BLOCK, src, dst, nb, 1u | (o & 4u));
        else if (o) quant__bk5_run(QUANT_NVFP4_BLOCK, src, dst, nb, 4u);
        else quant__bk5_run(QUANT_NVFP4_BLOCK, src, dst, nb, 0u);
        if (o & 4u) _mm_sfence();
        return 1;
    }
#undef QUANT__BK5_BF16I
#if QUANT__BK_KQI
    if ((o & 3u) == 1u && (t == QUANT_Q4_K || t == QUANT_Q5_K || t == QUANT_Q6_K) && QUANT__BF16I_ON) {
        /* a copy for each type and streaming */
        if (t == QUANT_Q4_K && (o & 4u)) quant__bk_kq_bf16i(QUANT_Q4_K, src, dst, nb, 5u);
        else if (t == QUANT_Q4_K) quant__bk_kq_bf16i(QUANT_Q4_K, src, dst, nb, 1u);
        else if (t == QUANT_Q5_K && (o & 4u)) quant__bk_kq_bf16i(QUANT_Q5_K, src, dst, nb, 5u);
        else if (t == QUANT_Q5_K) quant__bk_kq_bf16i(QUANT_Q5_K, src, dst, nb, 1u);
        else if (o & 4u) quant__bk_kq_bf16i(QUANT_Q6_K, src, dst, nb, 5u);
        else quant__bk_kq_bf16i(QUANT_Q6_K, src, dst, nb, 1u);
        if (o & 4u) _mm_sfence();
        return 1;
    }
#endif
#undef QUANT__BK_KQI
    if ((o & 3u) == 1u && t == QUANT_Q3_K && nb) {
        if (o & 4u) quant__bk_krun(QUANT_Q3_K, src, dst, nb, 5u);
        else quant__bk_krun(QUANT_Q3_K, src, dst, nb, 1u);
        if (o & 4u) _mm_sfence();
        return 1;
    }
    if ((o & 3u) == 0u && t >= QUANT_Q3_K && t <= QUANT_Q6_K && nb) {
        /* a copy for each type and streaming */
        if (t == QUANT_Q3_K) {
            if (o) quant__bk_krun(QUANT_Q3_K, src, dst, nb, 4u);
            else quant__bk_krun(QUANT_Q3_K, src, dst, nb, 0u);
        } else if (t == QUANT_Q4_K) {
            if (o) quant__bk_krun(QUANT_Q4_K, src, dst, nb, 4u);
            else quant__bk_krun(QUANT_Q4_K, src, dst, nb, 0u);
        } else if (t == QUANT_Q5_K) {
            if (o) quant__bk_krun(QUANT_Q5_K, src, dst, nb, 4u);
            else quant__bk_krun(QUANT_Q5_K, src, dst, nb, 0u);
        } else if (o) quant__bk_krun(QUANT_Q6_K, src, dst, nb, 4u);
        else quant__bk_krun(QUANT_Q6_K, src, dst, nb, 0u);
        if (o & 4u) _mm_sfence();
        return 1;
    }
    if ((o & 3u) == 1u && quant__bk_n4_run(t, src, dst, nb, o)) {
        if (o & 4u) _mm_sfence();
        return 1;
    }
    switch (t) {
/* bf16 has a loop of its own, where its rounding's constants are held
   (streaming stays a test at the stores) */
#define QUANT__BK_LOOP(T) \
    case T: \
        if ((o & 3u) == 1u) \
            for (k = 0; k < nb; ++k) quant__bk_one(T, src + k * bb, dst, k * be, 1u | (o & 4u)); \
        else if (o == 0u && be == 32) { /* two blocks an iteration */ \
            for (k = 0; k + 2 <= nb; k += 2) { \
                quant__bk_one(T, src + k * bb, dst, k * 32, 0u); \
                quant__bk_one(T, src + k * bb + bb, dst, k * 32 + 32, 0u); \
            } \
            if (k < nb) quant__bk_one(T, src + k * bb, dst, k * 32, 0u); \
        } else if (o == 0u) \
            for (k = 0; k < nb; ++k) quant__bk_one(T, src + k * bb, dst, k * be, 0u); \
        else \
            for (k = 0; k < nb; ++k) quant__bk_one(T, src + k * bb, dst, k * be, o); \
        break;
    QUANT__BK_LOOP(QUANT_Q4_0) QUANT__BK_LOOP(QUANT_Q4_1) QUANT__BK_LOOP(QUANT_Q5_0) QUANT__BK_LOOP(QUANT_Q5_1)
    QUANT__BK_LOOP(QUANT_Q8_0) QUANT__BK_LOOP(QUANT_Q2_K) QUANT__BK_LOOP(QUANT_Q3_K) QUANT__BK_LOOP(QUANT_Q4_K)
    QUANT__BK_LOOP(QUANT_Q5_K) QUANT__BK_LOOP(QUANT_Q6_K) QUANT__BK_LOOP(QUANT_Q8_K) QUANT__BK_LOOP(QUANT_IQ4_NL)
    QUANT__BK_LOOP(QUANT_IQ4_XS) QUANT__BK_LOOP(QUANT_MXFP4) QUANT__BK_LOOP(QUANT_NVFP4_BLOCK)
#undef QUANT__BK_LOOP
#undef QUANT__BK_H4
#undef QUANT__BK_PF
    default: return 0;
    }
    if (o & 4u) _mm_sfence();
    return 1;
}
/* The same, streamed past the caches from QUANT_STREAM_BYTES of output
   on. Streaming stores want whole aligned lines, and the decoders store
   at the elements' own addresses: a destination off a 64-byte boundary
   (malloc's, 16 bytes off; f32 only) is decoded in pieces of 4 KiB into a buffer
   in L1, at the destination's offset in its line (m), and streamed from
   there a line at a time. A piece's last partial line goes to the front
   of the buffer, where the next piece completes it; only the first line
   and the last go with ordinary (masked) stores, never past
   [dst, dst + n). */
QUANT__PRIVATE int quant__simd_blk_dec(unsigned t, const uint8_t *src, void *dst, size_t nb, unsigned o)
{
    union {
        __m512i v[65];
        uint8_t b[65 * 64];
    } u;
    const size_t be = quant__blk(t), bb = quant__blk_bytes(t), es = o ? 2u : 4u, m = (uintptr_t)dst & 63u;
    const size_t pb = 4096u / (be * es); /* blocks a piece: be * es divides 4096 */
    uint8_t *d = (uint8_t *)dst - m;     /* the first line; written from byte m on */
    size_t k, at, n, j;
    if (QUANT_STREAM_BYTES == 0 || nb * be < QUANT_STREAM_BYTES / es) return quant__bk_dec(t, src, dst, nb, o);
    if (m == 0) return quant__bk_dec(t, src, dst, nb, o | 4u);
    /* 16-bit outputs: the copy costs the decoders that are not far below
       the memory's speed more than streaming saves (quant-bench, 16 Mi:
       q5_0, q5_K, q6_K, q3_K to bf16 1.13x -> 1.21-1.46x the limit) */
    if (o) return quant__bk_dec(t, src, dst, nb, o);
    for (k = 0; k < nb; k += n) {
        n = nb - k < pb ? nb - k : pb;
        if (!quant__bk_dec(t, src + k * bb, u.b + m, n, o)) return 0; /* the first piece: nothing written yet */
        at = m + n * be * es; /* bytes in u.b, lines of d */
        j = 0;
        if (k == 0) { /* the first line from byte m */
            _mm512_mask_storeu_epi8(d, (__mmask64)(~(uint64_t)0 << m), u.v[0]);
            j = 1;
        }
        for (; j < at / 64; ++j) _mm512_stream_si512((__m512i *)(void *)(d + 64 * j), u.v[j]);
        d += at / 64 * 64;
        u.v[0] = u.v[at / 64]; /* the partial line (m bytes of it, when more follow) */
    }
    at &= 63u; /* the last partial line: at bytes */
    if (at) _mm512_mask_storeu_epi8(d, (__mmask64)(~(~(uint64_t)0 << at)), u.v[0]);
    _mm_sfence();
    return 1;
}

/* The block encoders need AVX-512 DQ as well: under runtime dispatch they
   are compiled once, in the VBMI pass (which has it); a build for one
   backend has them when its flags give DQ. */
#if QUANT__PASS_VBMI || (!QUANT__DISPATCH && defined(__AVX512DQ__))
#  define QUANT__BLK_ENC512 1
#  if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
/* unoptimized, gcc expands the rounding, gather and conversion intrinsics
   as macros here, whose all-ones masks meet signed parameters */
#    pragma GCC diagnostic push
#    pragma GCC diagnostic ignored "-Wsign-conversion"
#  endif

/* ---- the K-quants and IQ4 ----------------------------------------------- */
/* AVX-512 (F, BW, DQ, VL) encoders for ggml's K-quant blocks (Q2_K, Q3_K,
   Q4_K, Q5_K, Q6_K) and IQ4_XS, IQ4_NL, bytes identical to the scalar
   quant__blk_encode.

   The per block steps call the scalar encoder's helpers (quant__gn,
   quant__gm, quant__gh, quant__gh_put, quant__k4_scale, quant__k3_scale,
   quant__s8wrap, quant__gabs), and batches the vector code declines go
   to quant__blk_encode.

   How it stays bit exact: the scalar searches sum each group's terms one
   after another in f32, so a vector here never sums within a group; its
   16 lanes are 16 groups (the groups of one block for Q2_K, Q3_K, Q6_K,
   of two blocks for Q4_K, Q5_K, IQ4_XS, 16 blocks of IQ4_NL), the
   group's element i in lane g after a 16x16 transpose. Each lane then
   runs the scalar operations in the scalar order; branches are masks;
   every product that feeds a sum passes through an empty asm (the FMA
   fence, as quant__gm does for scalars). Divisions and square roots are
   correctly rounded in both.

   nearest_int (quant__gn) is the bit trick: for |v| < 2^22 it is v
   rounded to nearest even, so where the search can prove |v| < 2^22 it
   is vrndscaleps after the clamp (the clamp and the rounding commute for
   integer bounds). make_qkx2_quants' products is * (x - min) are bounded
   through their two extremes per step (rounding is monotonic); batches
   where one falls outside (extreme ranges: subnormal spreads, spreads
   that overflow) are searched again with the bit trick itself in float
   lanes, as make_q3_quants' x * sl2 / slx always are where it matters.
   IQ4's best_index_int8 (the nearest of 16 levels, ties up) is the
   number of level midpoints at or below x (checked against
   quant__iq4_index on every float of magnitude below 200), found from a
   bucket of width 9 (at most one midpoint each, none within 0.5 of a
   bucket's edge, so a bucket off by one near an edge is harmless).

   make_q3_quants' refinement is one chain of dependent steps per group,
   up to five passes: the first pass runs on QUANT__KQ_K3 blocks side by
   side; the groups that changed (about a fifth) are then gathered from
   QUANT__KQ_W3 blocks, 16 to a vector, for the later passes.

   A block with an infinite or NaN input goes to the scalar code (NaN
   payloads would depend on operand order). Stack: at most about 19.8 KiB
   in one frame (Q3_K), 20.6 KiB with the callees (gcc 12, clang 14,
   -O2/-O3; an unoptimized build uses smaller Q3_K windows). */
#define QUANT__KQ_ACTIVE 1

#ifdef __OPTIMIZE__
#  define QUANT__KQ_INLINE static __inline__ __attribute__((always_inline, unused))
#else
#  define QUANT__KQ_INLINE static __inline__ __attribute__((unused))
#endif
#define QUANT__KQ_NOINLINE static __attribute__((noinline, unused))
#define QUANT__KQ_LIKELY(c) __builtin_expect(!!(c), 1)
/* hooks for tests: n blocks of type t left to the scalar code; a batch
   of type t searched again with nearest_int as the bit trick itself */
#ifndef QUANT__KQ_ON_SCALAR
#define QUANT__KQ_ON_SCALAR(t, n) ((void)0)
#endif
#ifndef QUANT__KQ_ON_EXACT
#define QUANT__KQ_ON_EXACT(t) ((void)0)
#endif
/* the loops over side-by-side batches must unroll, so that their
   accumulators stay in registers */
#define QUANT__KQ_UNROLL _Pragma("GCC unroll 8")

/* blocks of Q3_K searched side by side (its passes are one long chain of
   dependent operations per block) */
#ifndef QUANT__KQ_K3
#  ifdef __OPTIMIZE__
#    define QUANT__KQ_K3 4
#  else
#    define QUANT__KQ_K3 2
#  endif
#endif
/* Q3_K blocks whose groups still changing after the first pass are
   gathered together (more blocks, fuller vectors: passes 4 and 5 run on
   about one group in a hundred, a chain of dependent steps whatever the
   number of lanes; 32 keeps the stack near 20 KiB) */
#ifndef QUANT__KQ_W3
#  ifdef __OPTIMIZE__
#    define QUANT__KQ_W3 32
#  else /* an unoptimized build keeps every temporary on the stack */
#    define QUANT__KQ_W3 4
#  endif
#endif
/* batches of 16 groups searched side by side for Q2_K (a block each) and
   for Q4_K, Q5_K (two blocks each) */
#ifndef QUANT__KQ_K2
#define QUANT__KQ_K2 2
#endif
#ifndef QUANT__KQ_K45
#define QUANT__KQ_K45 2
#endif
#if QUANT__KQ_W3 > 64 || QUANT__KQ_K3 > 4 || QUANT__KQ_K2 > 4 || QUANT__KQ_K45 > 4
#error "quant.h: QUANT__KQ_W3 <= 64, QUANT__KQ_K* <= 4"
#endif

/* a product that no compiler fuses with a later sum */
QUANT__KQ_INLINE __m512 quant__kq_mul(__m512 a, __m512 b)
{
    __m512 p = _mm512_mul_ps(a, b);
    __asm__("" : "+v"(p));
    return p;
}
#define quant__kq_add _mm512_add_ps
#define quant__kq_sub _mm512_sub_ps
#define quant__kq_lt(a, b) _mm512_cmp_ps_mask((a), (b), _CMP_LT_OQ)
#define quant__kq_gt(a, b) _mm512_cmp_ps_mask((a), (b), _CMP_GT_OQ)
/* nearest even integer, for |v| < 2^22 quant__gn's value */
#define quant__kq_rnd(v) _mm512_roundscale_ps((v), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
QUANT__KQ_INLINE __m512 quant__kq_clamp(__m512 v, __m512 lo, __m512 hi) { return _mm512_min_ps(_mm512_max_ps(v, lo), hi); }

/* quant__gn lane-wise, any v: the low 23 bits of v + 1.5 * 2^23, less 2^22 */
QUANT__KQ_INLINE __m512i quant__kq_gn(__m512 v)
{
    const __m512i b = _mm512_castps_si512(_mm512_add_ps(v, _mm512_set1_ps(12582912.0f)));
    return _mm512_sub_epi32(_mm512_and_si512(b, _mm512_set1_epi32(0x7FFFFF)), _mm512_set1_epi32(0x400000));
}
/* the same as a float: the low bits under the exponent of 2^23 make
   2^23 + m, less 1.5 * 2^23 (exact) */
QUANT__KQ_INLINE __m512 quant__kq_gnf(__m512 v)
{
    const __m512i b = _mm512_castps_si512(_mm512_add_ps(v, _mm512_set1_ps(12582912.0f)));
    const __m512i m = _mm512_ternarylogic_epi32(b, _mm512_set1_epi32(0x7FFFFF), _mm512_set1_epi32(0x4B000000), 0xEA);
    return _mm512_sub_ps(_mm512_castsi512_ps(m), _mm512_set1_ps(12582912.0f));
}

/* 16 vectors transposed in place: r[i] lane j <- r[j] lane i (written
   out, so that it unrolls at -O2 too) */
#define QUANT__KQ_TR_A(i)                                     \
    t##i = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);        \
    u##i = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1])
#define QUANT__KQ_TR_B(i, a, b, c, d)                         \
    r[4 * i] = _mm512_shuffle_ps(a, c, 0x44);                 \
    r[4 * i + 1] = _mm512_shuffle_ps(a, c, 0xEE);             \
    r[4 * i + 2] = _mm512_shuffle_ps(b, d, 0x44);             \
    r[4 * i + 3] = _mm512_shuffle_ps(b, d, 0xEE)
#define QUANT__KQ_TR_C(k)                                     \
    t0 = _mm512_shuffle_f32x4(r[k], r[4 + k], 0x44);          \
    t1 = _mm512_shuffle_f32x4(r[k], r[4 + k], 0xEE);          \
    t2 = _mm512_shuffle_f32x4(r[8 + k], r[12 + k], 0x44);     \
    t3 = _mm512_shuffle_f32x4(r[8 + k], r[12 + k], 0xEE);     \
    o[k] = _mm512_shuffle_f32x4(t0, t2, 0x88);                \
    o[4 + k] = _mm512_shuffle_f32x4(t0, t2, 0xDD);            \
    o[8 + k] = _mm512_shuffle_f32x4(t1, t3, 0x88);            \
    o[12 + k] = _mm512_shuffle_f32x4(t1, t3, 0xDD)
/* o (which may be r) <- r transposed; r is clobbered */
QUANT__KQ_INLINE void quant__kq_tr16to(__m512 *r, __m512 *o)
{
    __m512 t0, t1, t2, t3, t4, t5, t6, t7, u0, u1, u2, u3, u4, u5, u6, u7;
    QUANT__KQ_TR_A(0);
    QUANT__KQ_TR_A(1);
    QUANT__KQ_TR_A(2);
    QUANT__KQ_TR_A(3);
    QUANT__KQ_TR_A(4);
    QUANT__KQ_TR_A(5);
    QUANT__KQ_TR_A(6);
    QUANT__KQ_TR_A(7);
    QUANT__KQ_TR_B(0, t0, u0, t1, u1);
    QUANT__KQ_TR_B(1, t2, u2, t3, u3);
    QUANT__KQ_TR_B(2, t4, u4, t5, u5);
    QUANT__KQ_TR_B(3, t6, u6, t7, u7);
    QUANT__KQ_TR_C(0); /* reads and writes the indices k mod 4 only */
    QUANT__KQ_TR_C(1);
    QUANT__KQ_TR_C(2);
    QUANT__KQ_TR_C(3);
}
#define quant__kq_tr16(r) quant__kq_tr16to((r), (r))

/* xt[c + i] lane g <- rows[g][c + i], i < 16. Returns the rows that hold
   an infinity or a NaN, whose lanes are zeroed (their blocks go to the
   scalar code). */
QUANT__KQ_INLINE __mmask16 quant__kq_load(const float *const *rows, int c, __m512 *xt)
{
    __mmask16 bad = 0;
    int g;
    QUANT__KQ_UNROLL
    for (g = 0; g < 16; ++g) xt[c + g] = _mm512_loadu_ps(rows[g] + c);
    quant__kq_tr16(xt + c);
    QUANT__KQ_UNROLL
    for (g = 0; g < 16; ++g) bad |= _mm512_fpclass_ps_mask(xt[c + g], 0x99); /* NaN, +-Inf; lane g is row g */
    if (bad)
        for (g = 0; g < 16; ++g) xt[c + g] = _mm512_maskz_mov_ps((__mmask16)~bad, xt[c + g]);
    return bad;
}

/* the first of the 16 values with the largest magnitude (0 if all are
   0), as the scalar loop `if (|v| > a) { a = |v|; m = v; }` from a = 0 */
QUANT__KQ_INLINE float quant__kq_first_max(__m512 v)
{
    const __m512 av = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(v, v, _CMP_ORD_Q), _mm512_abs_ps(v)); /* a NaN is never larger */
    const float a = _mm512_reduce_max_ps(av);
    float s[16];
    if (!(a > 0)) return 0.0f;
    _mm512_storeu_ps(s, v);
    return s[__builtin_ctz((unsigned)_mm512_cmp_ps_mask(av, _mm512_set1_ps(a), _CMP_EQ_OQ))];
}

/* the first largest |x| of each lane's n elements: *a it, the result the x */
QUANT__KQ_INLINE __m512 quant__kq_amax(const __m512 *xt, int n, __m512 *a)
{
    __m512 m = _mm512_setzero_ps(), v = m;
    int i;
    for (i = 0; i < n; ++i) {
        const __m512 ax = _mm512_abs_ps(xt[i]);
        const __mmask16 k = quant__kq_gt(ax, v);
        v = _mm512_mask_mov_ps(v, k, ax);
        m = _mm512_mask_mov_ps(m, k, xt[i]);
    }
    *a = v;
    return m;
}

/* make_qkx2_quants' first sums of K batches: sl, sl2 and sxl of the
   levels clamp(gn(is * (x - lo)), 0, nmax), the levels to aux; cl and ch
   say whether the lower and upper clamps can act at all, exact that gn
   runs as the bit trick itself (no bound on is * (x - lo) known) */
QUANT__KQ_INLINE void quant__kq_p1(const int K, const int n, const int cl, const int ch, const int exact, const __m512 *xt,
                                   const __m512 *wt, __m512 *aux, const __m512 *is, const __m512 *lo, __m512 vmax,
                                   __m512 *sl, __m512 *sl2, __m512 *sxl)
{
    const __m512 z = _mm512_setzero_ps();
    int i, k;
    QUANT__KQ_UNROLL
    for (k = 0; k < K; ++k) sl[k] = sl2[k] = sxl[k] = z;
    for (i = 0; i < n; ++i)
        QUANT__KQ_UNROLL
        for (k = 0; k < K; ++k) {
            __m512 l = quant__kq_mul(is[k], quant__kq_sub(xt[k * n + i], lo[k])), wl;
            if (exact) l = quant__kq_clamp(quant__kq_gnf(l), z, vmax);
            else {
                if (cl) l = _mm512_max_ps(l, z);
                if (ch) l = _mm512_min_ps(l, vmax);
                l = quant__kq_rnd(l);
            }
            wl = quant__kq_mul(wt[k * n + i], l);
            aux[k * n + i] = l;
            sl[k] = quant__kq_add(sl[k], wl);
            sl2[k] = quant__kq_add(sl2[k], quant__kq_mul(wl, l));
            sxl[k] = quant__kq_add(sxl[k], quant__kq_mul(wl, xt[k * n + i]));
        }
}

/* make_qkx2_quants (quant__k_minmax) in the 16 lanes of each of K
   batches (n vectors each of xt, wt, aux). o + 64 k: [0..15] the scales,
   [16..31] the negated mins, [32..47] and [48..63] the iscale and min the
   kept levels came from (L = clamp(gn(is * (x - min)))), 0 and 0 in a
   flat group. Without exact, gn is a rounding, which needs every
   |is * (x - lo)| below 2^22: returns 0 when one is not, and the batches
   must run again with exact. */
QUANT__KQ_INLINE int quant__kq_qkx2(const int K, const int n, const int nmax, const __m512 *xt, const __m512 *wt,
                                    __m512 *aux, const float rmin, const int nstep, const int mad, const int exact, float *o)
{
    const __m512 z = _mm512_setzero_ps(), one = _mm512_set1_ps(1.0f), vmax = _mm512_set1_ps((float)nmax);
    const __m512 lim = _mm512_set1_ps(4194304.0f), top = _mm512_set1_ps((float)nmax + 0.5f), bot = _mm512_set1_ps(-0.5f);
    __m512 lo[4], hi[4], sw[4], sx[4], mnx[4], is[4], scale[4], best[4], bis[4], blo[4];
    __m512 sl[4], sl2[4], sxl[4], ts[4], tm[4], err[4];
    __mmask16 flat[4], act[4], pos[4], bad = 0, anypos;
    int i, k, s;
    QUANT__KQ_UNROLL
    for (k = 0; k < K; ++k) {
        const __m512 *x = xt + k * n, *w = wt + k * n;
        lo[k] = hi[k] = x[0];
        sw[k] = w[0];
        sx[k] = quant__kq_mul(w[0], x[0]);
        for (i = 1; i < n; ++i) {
            lo[k] = _mm512_mask_mov_ps(lo[k], quant__kq_lt(x[i], lo[k]), x[i]);
            hi[k] = _mm512_mask_mov_ps(hi[k], quant__kq_gt(x[i], hi[k]), x[i]);
            sw[k] = quant__kq_add(sw[k], w[i]);
            sx[k] = quant__kq_add(sx[k], quant__kq_mul(w[i], x[i]));
        }
        mnx[k] = lo[k];
        lo[k] = _mm512_mask_mov_ps(lo[k], quant__kq_gt(lo[k], z), z);
        flat[k] = _mm512_cmp_ps_mask(hi[k], lo[k], _CMP_EQ_OQ);
        act[k] = (__mmask16)~flat[k];
        is[k] = _mm512_div_ps(vmax, _mm512_mask_mov_ps(quant__kq_sub(hi[k], lo[k]), flat[k], one));
        scale[k] = _mm512_div_ps(one, is[k]);
        {
            const __m512 p1 = quant__kq_mul(is[k], quant__kq_sub(hi[k], lo[k])), p2 = quant__kq_mul(is[k], quant__kq_sub(mnx[k], lo[k]));
            bad |= (__mmask16)(act[k] & ~(quant__kq_lt(_mm512_abs_ps(p1), lim) & quant__kq_lt(_mm512_abs_ps(p2), lim)));
        }
        best[k] = z;
        for (i = 0; i < n; ++i) {
            const __m512 p = quant__kq_mul(is[k], quant__kq_sub(x[i], lo[k]));
            const __m512 l = exact ? quant__kq_clamp(quant__kq_gnf(p), z, vmax) : quant__kq_rnd(quant__kq_clamp(p, z, vmax));
            __m512 e = quant__kq_sub(quant__kq_add(quant__kq_mul(scale[k], l), lo[k]), x[i]);
            e = mad ? _mm512_abs_ps(e) : quant__kq_mul(e, e);
            best[k] = quant__kq_add(best[k], quant__kq_mul(w[i], e));
        }
        bis[k] = is[k];
        blo[k] = lo[k];
    }
    for (s = 0; s <= nstep; ++s) {
        const __m512 num = _mm512_set1_ps(rmin + quant__gm(0.1f, (float)s) + (float)nmax);
        __mmask16 needlo = 0, needhi = 0;
        QUANT__KQ_UNROLL
        for (k = 0; k < K; ++k) {
            /* every is * (x - lo) lies between those at x = hi and x = min x (rounding is monotonic) */
            __m512 p1, p2;
            is[k] = _mm512_div_ps(num, _mm512_mask_mov_ps(quant__kq_sub(hi[k], lo[k]), flat[k], one));
            p1 = quant__kq_mul(is[k], quant__kq_sub(hi[k], lo[k]));
            p2 = quant__kq_mul(is[k], quant__kq_sub(mnx[k], lo[k]));
            bad |= (__mmask16)(act[k] & ~(quant__kq_lt(_mm512_abs_ps(p1), lim) & quant__kq_lt(_mm512_abs_ps(p2), lim)));
            needhi |= (__mmask16)(act[k] & ~quant__kq_lt(_mm512_max_ps(p1, p2), top));
            needlo |= (__mmask16)(act[k] & quant__kq_lt(_mm512_min_ps(p1, p2), bot));
        }
        if (exact) quant__kq_p1(K, n, 1, 1, 1, xt, wt, aux, is, lo, vmax, sl, sl2, sxl);
        else switch ((needlo ? 1 : 0) | (needhi ? 2 : 0)) {
        case 0: quant__kq_p1(K, n, 0, 0, 0, xt, wt, aux, is, lo, vmax, sl, sl2, sxl); break;
        case 1: quant__kq_p1(K, n, 1, 0, 0, xt, wt, aux, is, lo, vmax, sl, sl2, sxl); break;
        case 2: quant__kq_p1(K, n, 0, 1, 0, xt, wt, aux, is, lo, vmax, sl, sl2, sxl); break;
        default: quant__kq_p1(K, n, 1, 1, 0, xt, wt, aux, is, lo, vmax, sl, sl2, sxl); break;
        }
        anypos = 0;
        QUANT__KQ_UNROLL
        for (k = 0; k < K; ++k) {
            const __m512 D = quant__kq_sub(quant__kq_mul(sw[k], sl2[k]), quant__kq_mul(sl[k], sl[k]));
            __mmask16 tp;
            pos[k] = (__mmask16)(quant__kq_gt(D, z) & act[k]);
            anypos |= pos[k];
            ts[k] = _mm512_div_ps(quant__kq_sub(quant__kq_mul(sw[k], sxl[k]), quant__kq_mul(sx[k], sl[k])), D);
            tm[k] = _mm512_div_ps(quant__kq_sub(quant__kq_mul(sl2[k], sx[k]), quant__kq_mul(sl[k], sxl[k])), D);
            tp = quant__kq_gt(tm[k], z);
            tm[k] = _mm512_mask_mov_ps(tm[k], tp, z);
            ts[k] = _mm512_mask_div_ps(ts[k], tp, sxl[k], sl2[k]);
            err[k] = z;
        }
        if (!anypos) continue;
        for (i = 0; i < n; ++i)
            QUANT__KQ_UNROLL
            for (k = 0; k < K; ++k) {
                __m512 e = quant__kq_sub(quant__kq_add(quant__kq_mul(ts[k], aux[k * n + i]), tm[k]), xt[k * n + i]);
                e = mad ? _mm512_abs_ps(e) : quant__kq_mul(e, e);
                err[k] = quant__kq_add(err[k], quant__kq_mul(wt[k * n + i], e));
            }
        QUANT__KQ_UNROLL
        for (k = 0; k < K; ++k) {
            const __mmask16 upd = (__mmask16)(pos[k] & quant__kq_lt(err[k], best[k]));
            best[k] = _mm512_mask_mov_ps(best[k], upd, err[k]);
            scale[k] = _mm512_mask_mov_ps(scale[k], upd, ts[k]);
            bis[k] = _mm512_mask_mov_ps(bis[k], upd, is[k]);
            blo[k] = _mm512_mask_mov_ps(blo[k], upd, lo[k]);
            lo[k] = _mm512_mask_mov_ps(lo[k], upd, tm[k]);
        }
    }
    if (bad && !exact) return 0;
    QUANT__KQ_UNROLL
    for (k = 0; k < K; ++k) {
        _mm512_storeu_ps(o + 64 * k, _mm512_mask_mov_ps(scale[k], flat[k], z));
        _mm512_storeu_ps(o + 64 * k + 16, _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(lo[k]), _mm512_set1_epi32(INT32_MIN))));
        _mm512_storeu_ps(o + 64 * k + 32, _mm512_mask_mov_ps(bis[k], flat[k], z));
        _mm512_storeu_ps(o + 64 * k + 48, _mm512_mask_mov_ps(blo[k], flat[k], z));
    }
    return 1;
}

/* levels clamp(gn((x + dm) / d), 0, nmax) of 16 elements as bytes */
QUANT__KQ_INLINE __m128i quant__kq_requ(const float *x, float dm, float d, int nmax)
{
    const __m512i q = quant__kq_gn(_mm512_div_ps(_mm512_add_ps(_mm512_loadu_ps(x), _mm512_set1_ps(dm)), _mm512_set1_ps(d)));
    return _mm512_cvtepi32_epi8(_mm512_min_epi32(_mm512_max_epi32(q, _mm512_setzero_si512()), _mm512_set1_epi32(nmax)));
}
/* symmetric: clamp(gn(x / d), -top, top - 1) + top */
QUANT__KQ_INLINE __m128i quant__kq_requs(const float *x, float d, int top)
{
    const __m512i q = quant__kq_gn(_mm512_div_ps(_mm512_loadu_ps(x), _mm512_set1_ps(d)));
    const __m512i c = _mm512_min_epi32(_mm512_max_epi32(q, _mm512_set1_epi32(-top)), _mm512_set1_epi32(top - 1));
    return _mm512_cvtepi32_epi8(_mm512_add_epi32(c, _mm512_set1_epi32(top)));
}
/* 32 bytes of levels: a then b */
#define quant__kq_cat(a, b) _mm256_inserti128_si256(_mm256_castsi128_si256(a), (b), 1)

/* quant__pack2 of the 256 levels in V[0..7] (32 each) */
QUANT__KQ_INLINE void quant__kq_pack2(const __m256i *V, uint8_t *q)
{
    int c;
    for (c = 0; c < 2; ++c)
        _mm256_storeu_si256((__m256i *)(void *)(q + 32 * c),
                            _mm256_or_si256(_mm256_or_si256(V[4 * c], _mm256_slli_epi16(V[4 * c + 1], 2)),
                                            _mm256_or_si256(_mm256_slli_epi16(V[4 * c + 2], 4), _mm256_slli_epi16(V[4 * c + 3], 6))));
}

/* the kept levels of 16 elements from their group's iscale and min
   (quant__k_minmax's formula), for a group whose stored scale is 0 */
QUANT__KQ_INLINE __m128i quant__kq_relevel(const float *x, int nmax, float is, float lo)
{
    uint8_t L[16];
    int l;
    for (l = 0; l < 16; ++l) {
        const int q = quant__gn(quant__gm(is, x[l] - lo));
        L[l] = (uint8_t)(q < 0 ? 0 : q > nmax ? nmax : q);
    }
    return _mm_loadu_si128((const __m128i *)(const void *)L);
}

/* ---- Q2_K ---------------------------------------------------------------- */

QUANT__KQ_INLINE void quant__kq_post2(const float *x, uint8_t *b, const float *o)
{
    const float *sc = o, *mn = o + 16, *bis = o + 32, *blo = o + 48;
    __m256i V[8];
    __m128i h[2];
    float maxs = 0, maxm = 0, is, im, d0, m0;
    int j;
    for (j = 0; j < 16; ++j) {
        maxs = sc[j] > maxs ? sc[j] : maxs;
        maxm = mn[j] > maxm ? mn[j] : maxm;
    }
    is = maxs > 0 ? 15.0f / maxs : 0.0f;
    im = maxm > 0 ? 15.0f / maxm : 0.0f;
    for (j = 0; j < 16; ++j) {
        b[j] = maxs > 0 ? (uint8_t)quant__gn(quant__gm(is, sc[j])) : 0;
        if (maxm > 0) b[j] |= (uint8_t)((unsigned)quant__gn(quant__gm(im, mn[j])) << 4);
    }
    quant__gh_put(b + 80, maxs > 0 ? maxs / 15.0f : 0.0f);
    quant__gh_put(b + 82, maxm > 0 ? maxm / 15.0f : 0.0f);
    d0 = quant__gh(b + 80);
    m0 = quant__gh(b + 82);
    for (j = 0; j < 16; ++j) {
        const float d = d0 * (float)(b[j] & 15u);
        h[j & 1] = d == 0 ? quant__kq_relevel(x + 16 * j, 3, bis[j], blo[j]) : quant__kq_requ(x + 16 * j, m0 * (float)(b[j] >> 4), d, 3);
        if (j & 1) V[j >> 1] = quant__kq_cat(h[0], h[1]);
    }
    quant__kq_pack2(V, b + 16);
}

/* QUANT__KQ_K2 blocks x[k] into b[k] (b[k] 0: a copy not to write) */
QUANT__KQ_NOINLINE void quant__kq_b2(const float *const *xs, uint8_t *const *bs)
{
    enum { K = QUANT__KQ_K2 };
    __m512 xt[K * 16], wt[K * 16], aux[K * 16];
    float o[64 * K];
    const float *rows[16];
    unsigned bad = 0;
    int i, k;
    for (k = 0; k < K; ++k) {
        for (i = 0; i < 16; ++i) rows[i] = xs[k] + 16 * i;
        if (quant__kq_load(rows, 0, xt + 16 * k)) bad |= 1u << k;
    }
    for (i = 0; i < 16 * K; ++i) wt[i] = _mm512_abs_ps(xt[i]);
    if (!quant__kq_qkx2(K, 16, 3, xt, wt, aux, -0.5f, 15, 1, 0, o)) {
        QUANT__KQ_ON_EXACT(QUANT_Q2_K);
        (void)quant__kq_qkx2(K, 16, 3, xt, wt, aux, -0.5f, 15, 1, 1, o);
    }
    for (k = 0; k < K; ++k)
        if (!bs[k]) continue;
        else if (bad >> k & 1) {
            QUANT__KQ_ON_SCALAR(QUANT_Q2_K, 1);
            quant__blk_encode(QUANT_Q2_K, xs[k], bs[k]);
        } else quant__kq_post2(xs[k], bs[k], o + 64 * k);
}

/* ---- Q4_K, Q5_K ------------------------------------------------------------ */

QUANT__KQ_INLINE void quant__kq_post45(unsigned t, const float *x, uint8_t *b, const float *o, int g0)
{
    const float *sc = o + g0, *mn = o + 16 + g0, *bis = o + 32 + g0, *blo = o + 48 + g0;
    const int nmax = t == QUANT_Q4_K ? 15 : 31;
    uint8_t *scb = b + 4;
    __m256i V[8];
    float maxs = 0, maxm = 0, d0, m0;
    int j;
    for (j = 0; j < 8; ++j) {
        maxs = sc[j] > maxs ? sc[j] : maxs;
        maxm = mn[j] > maxm ? mn[j] : maxm;
    }
    quant__k4_pack(sc, mn, maxs, maxm, b);
    d0 = quant__gh(b);
    m0 = quant__gh(b + 2);
    for (j = 0; j < 8; ++j) {
        unsigned s, m;
        float d, dm;
        quant__k4_scale(scb, j, &s, &m);
        d = d0 * (float)s;
        if (d == 0) {
            V[j] = quant__kq_cat(quant__kq_relevel(x + 32 * j, nmax, bis[j], blo[j]),
                                 quant__kq_relevel(x + 32 * j + 16, nmax, bis[j], blo[j]));
            continue;
        }
        dm = quant__gm(m0, (float)m);
        V[j] = quant__kq_cat(quant__kq_requ(x + 32 * j, dm, d, nmax), quant__kq_requ(x + 32 * j + 16, dm, d, nmax));
    }
    if (t == QUANT_Q4_K) {
        for (j = 0; j < 4; ++j)
            _mm256_storeu_si256((__m256i *)(void *)(b + 16 + 32 * j), _mm256_or_si256(V[2 * j], _mm256_slli_epi16(V[2 * j + 1], 4)));
    } else {
        const __m256i m15 = _mm256_set1_epi8(15), m1 = _mm256_set1_epi8(1);
        __m256i qh = _mm256_setzero_si256();
        for (j = 0; j < 4; ++j) {
            const __m256i v1 = V[2 * j], v2 = V[2 * j + 1];
            const __m256i h1 = _mm256_and_si256(_mm256_srli_epi16(v1, 4), m1);
            const __m256i h2 = _mm256_and_si256(_mm256_srli_epi16(v2, 4), m1);
            qh = _mm256_or_si256(qh, _mm256_sll_epi16(_mm256_or_si256(h1, _mm256_slli_epi16(h2, 1)), _mm_cvtsi32_si128(2 * j)));
            _mm256_storeu_si256((__m256i *)(void *)(b + 48 + 32 * j),
                                _mm256_or_si256(_mm256_and_si256(v1, m15), _mm256_slli_epi16(_mm256_and_si256(v2, m15), 4)));
        }
        _mm256_storeu_si256((__m256i *)(void *)(b + 16), qh);
    }
}

/* 2 QUANT__KQ_K45 blocks x[k] into b[k] (b[k] 0: a copy not to write) */
QUANT__KQ_NOINLINE void quant__kq_b45(unsigned t, const float *const *xs, uint8_t *const *bs)
{
    enum { K = QUANT__KQ_K45 };
    __m512 xt[32 * K], wt[32 * K], aux[32 * K];
    float o[64 * K];
    const float *rows[16];
    unsigned bad = 0;
    int i, k;
    for (k = 0; k < K; ++k) {
        __m512 *x = xt + 32 * k, *w = wt + 32 * k, s2 = _mm512_setzero_ps(), av;
        __mmask16 b;
        for (i = 0; i < 16; ++i) rows[i] = xs[2 * k + (i >> 3)] + 32 * (i & 7);
        b = (__mmask16)(quant__kq_load(rows, 0, x) | quant__kq_load(rows, 16, x));
        if (b) {
            for (i = 0; i < 32; ++i) x[i] = _mm512_maskz_mov_ps((__mmask16)~b, x[i]);
            bad |= (b & 0xFFu ? 1u : 0u) << 2 * k | (b >> 8 ? 2u : 0u) << 2 * k;
        }
        for (i = 0; i < 32; ++i) s2 = quant__kq_add(s2, quant__kq_mul(x[i], x[i]));
        av = _mm512_sqrt_ps(_mm512_div_ps(s2, _mm512_set1_ps(32.0f)));
        for (i = 0; i < 32; ++i) w[i] = quant__kq_add(av, _mm512_abs_ps(x[i]));
    }
    if (t == QUANT_Q4_K ? !quant__kq_qkx2(K, 32, 15, xt, wt, aux, -1.0f, 20, 0, 0, o)
                        : !quant__kq_qkx2(K, 32, 31, xt, wt, aux, -0.5f, 15, 0, 0, o)) {
        QUANT__KQ_ON_EXACT(t);
        if (t == QUANT_Q4_K) (void)quant__kq_qkx2(K, 32, 15, xt, wt, aux, -1.0f, 20, 0, 1, o);
        else (void)quant__kq_qkx2(K, 32, 31, xt, wt, aux, -0.5f, 15, 0, 1, o);
    }
    for (k = 0; k < 2 * K; ++k)
        if (!bs[k]) continue;
        else if (bad >> k & 1) {
            QUANT__KQ_ON_SCALAR(t, 1);
            quant__blk_encode(t, xs[k], bs[k]);
        } else quant__kq_post45(t, xs[k], bs[k], o + 64 * (k >> 1), 8 * (k & 1));
}

/* ---- Q6_K ------------------------------------------------------------------ */

/* make_qx_quants' sums slx, sl2 at one iscale; cl, ch: whether the clamps
   to -32 and 31 can act */
QUANT__KQ_INLINE void quant__kq_p6(const int cl, const int ch, const __m512 *xt, const __m512 *w, const __m512 *wx, __m512 is,
                                   __m512 *slx, __m512 *sl2)
{
    __m512 a = _mm512_setzero_ps(), b = a;
    int i;
    for (i = 0; i < 16; ++i) {
        __m512 l = quant__kq_mul(is, xt[i]);
        if (cl) l = _mm512_max_ps(l, _mm512_set1_ps(-32.0f));
        if (ch) l = _mm512_min_ps(l, _mm512_set1_ps(31.0f));
        l = quant__kq_rnd(l);
        a = quant__kq_add(a, quant__kq_mul(wx[i], l));
        b = quant__kq_add(b, quant__kq_mul(quant__kq_mul(w[i], l), l));
    }
    *slx = a;
    *sl2 = b;
}
/* the same at two iscales side by side: each sum is a chain of 16 adds
   in element order, and two steps' chains interleaved keep the core busy
   while each waits (Intel Xeon with AVX512-FP16, 64 Ki elements: the
   encode's time 0.95x; with the choices below off the division's
   latency, 0.89x) */
QUANT__KQ_INLINE void quant__kq_p6x2(const int cl, const int ch, const __m512 *xt, const __m512 *w, const __m512 *wx, const __m512 *is,
                                     __m512 *slx, __m512 *sl2)
{
    __m512 a0 = _mm512_setzero_ps(), b0 = a0, a1 = a0, b1 = a0;
    int i;
    QUANT__KQ_UNROLL
    for (i = 0; i < 16; ++i) {
        __m512 l0 = quant__kq_mul(is[0], xt[i]), l1 = quant__kq_mul(is[1], xt[i]);
        if (cl) {
            l0 = _mm512_max_ps(l0, _mm512_set1_ps(-32.0f));
            l1 = _mm512_max_ps(l1, _mm512_set1_ps(-32.0f));
        }
        if (ch) {
            l0 = _mm512_min_ps(l0, _mm512_set1_ps(31.0f));
            l1 = _mm512_min_ps(l1, _mm512_set1_ps(31.0f));
        }
        l0 = quant__kq_rnd(l0);
        l1 = quant__kq_rnd(l1);
        a0 = quant__kq_add(a0, quant__kq_mul(wx[i], l0));
        a1 = quant__kq_add(a1, quant__kq_mul(wx[i], l1));
        b0 = quant__kq_add(b0, quant__kq_mul(quant__kq_mul(w[i], l0), l0));
        b1 = quant__kq_add(b1, quant__kq_mul(quant__kq_mul(w[i], l1), l1));
    }
    slx[0] = a0; slx[1] = a1;
    sl2[0] = b0; sl2[1] = b1;
}

QUANT__KQ_NOINLINE int quant__kq_b6(const float *x, uint8_t *b)
{
    __m512 xt[16], w[16], wx[16], a, mx, scale = _mm512_setzero_ps(), best = scale, bis = scale;
    const __m512 z = _mm512_setzero_ps();
    float sc[16], is16[16], d0, maxs, is;
    const float *rows[16];
    __m256i V[8];
    __m128i h[2];
    __mmask16 flat;
    int i, s, j;
    for (i = 0; i < 16; ++i) rows[i] = x + 16 * i;
    if (quant__kq_load(rows, 0, xt)) return 0;
    mx = quant__kq_amax(xt, 16, &a);
    flat = quant__kq_lt(a, _mm512_set1_ps(1e-15f));
    mx = _mm512_mask_mov_ps(mx, flat, _mm512_set1_ps(1.0f));
    for (i = 0; i < 16; ++i) {
        w[i] = quant__kq_mul(xt[i], xt[i]);
        wx[i] = quant__kq_mul(w[i], xt[i]);
    }
    for (s = 0; s <= 18; s += s ? 2 : 1) {
        /* step 0, then pairs of steps (-9, -8) .. (8, 9) */
        const int np = s ? 2 : 1;
        __m512 vis[2], slx[2], sl2[2];
        int v = 0, q;
        for (q = 0; q < np; ++q) {
            const int step = s + q == 0 ? 0 : s + q <= 9 ? s + q - 10 : s + q - 9;
            const float num = step == 0 ? -32.0f : -(32.0f + quant__gm(0.1f, (float)step));
            /* |is * x| <= |is| * max|x| (rounding is monotonic): the clamps act only from 31.5 and 32.5 */
            __m512 pext;
            vis[q] = _mm512_div_ps(_mm512_set1_ps(num), mx);
            pext = quant__kq_mul(_mm512_abs_ps(vis[q]), a);
            if ((__mmask16)(quant__kq_lt(pext, _mm512_set1_ps(31.5f)) | flat) != 0xFFFF)
                v = (__mmask16)(quant__kq_lt(pext, _mm512_set1_ps(32.5f)) | flat) == 0xFFFF ? (v > 1 ? v : 1) : 2;
        }
        if (np == 1) {
            if (v == 0) quant__kq_p6(0, 0, xt, w, wx, vis[0], &slx[0], &sl2[0]);
            else if (v == 1) quant__kq_p6(0, 1, xt, w, wx, vis[0], &slx[0], &sl2[0]);
            else quant__kq_p6(1, 1, xt, w, wx, vis[0], &slx[0], &sl2[0]);
            scale = _mm512_maskz_div_ps(_mm512_cmp_ps_mask(sl2[0], z, _CMP_NEQ_UQ), slx[0], sl2[0]);
            best = quant__kq_mul(scale, slx[0]);
            bis = vis[0];
            continue;
        }
        /* a clamp that cannot act changes nothing */
        if (v == 0) quant__kq_p6x2(0, 0, xt, w, wx, vis, slx, sl2);
        else if (v == 1) quant__kq_p6x2(0, 1, xt, w, wx, vis, slx, sl2);
        else quant__kq_p6x2(1, 1, xt, w, wx, vis, slx, sl2);
        /* each step's scale and best before the chain of choices, which
           then waits on a product and a compare a step, not a division */
        QUANT__KQ_UNROLL
        for (q = 0; q < 2; ++q) {
            const __mmask16 pos = quant__kq_gt(sl2[q], z);
            const __m512 sq = _mm512_maskz_div_ps(pos, slx[q], sl2[q]), bq = quant__kq_mul(sq, slx[q]);
            const __mmask16 upd = pos & quant__kq_gt(quant__kq_mul(slx[q], slx[q]), quant__kq_mul(best, sl2[q]));
            scale = _mm512_mask_mov_ps(scale, upd, sq);
            best = _mm512_mask_mov_ps(best, upd, bq);
            bis = _mm512_mask_mov_ps(bis, upd, vis[q]);
        }
    }
    _mm512_storeu_ps(sc, _mm512_mask_mov_ps(scale, flat, z));
    _mm512_storeu_ps(is16, bis);
    /* the block: quant__k_block's Q6_K steps */
    maxs = quant__kq_first_max(_mm512_loadu_ps(sc));
    for (j = 192; j < 210; ++j) b[j] = 0;
    if (quant__gabs(maxs) < 1e-15f) {
        for (j = 0; j < 192; ++j) b[j] = 0;
        return 1;
    }
    is = -128.0f / maxs;
    quant__gh_put(b + 208, 1 / is);
    for (j = 0; j < 16; ++j) {
        const int q = quant__gn(quant__gm(is, sc[j]));
        b[192 + j] = (uint8_t)(q < 127 ? q : 127);
    }
    d0 = quant__gh(b + 208);
    for (j = 0; j < 16; ++j) {
        const float d = d0 * (float)(int8_t)b[192 + j];
        if (d != 0) h[j & 1] = quant__kq_requs(x + 16 * j, d, 32);
        else if (flat >> j & 1) h[j & 1] = _mm_setzero_si128();
        else {
            uint8_t t[16];
            for (i = 0; i < 16; ++i) {
                const int q = quant__gn(quant__gm(is16[j], x[16 * j + i]));
                t[i] = (uint8_t)(32 + (q < -32 ? -32 : q > 31 ? 31 : q));
            }
            h[j & 1] = _mm_loadu_si128((const __m128i *)(const void *)t);
        }
        if (j & 1) V[j >> 1] = quant__kq_cat(h[0], h[1]);
    }
    {
        const __m256i m15 = _mm256_set1_epi8(15), m3 = _mm256_set1_epi8(3);
        for (j = 0; j < 2; ++j) {
            const __m256i A = V[4 * j], C = V[4 * j + 1], E = V[4 * j + 2], F = V[4 * j + 3];
            const __m256i hb = _mm256_or_si256(
                _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(A, 4), m3), _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(C, 4), m3), 2)),
                _mm256_or_si256(_mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(E, 4), m3), 4),
                                _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(F, 4), m3), 6)));
            _mm256_storeu_si256((__m256i *)(void *)(b + 64 * j),
                                _mm256_or_si256(_mm256_and_si256(A, m15), _mm256_slli_epi16(_mm256_and_si256(E, m15), 4)));
            _mm256_storeu_si256((__m256i *)(void *)(b + 64 * j + 32),
                                _mm256_or_si256(_mm256_and_si256(C, m15), _mm256_slli_epi16(_mm256_and_si256(F, m15), 4)));
            _mm256_storeu_si256((__m256i *)(void *)(b + 128 + 32 * j), hb);
        }
    }
    return 1;
}

/* ---- Q3_K ------------------------------------------------------------------ */

/* make_q3_quants' test of element x (level Li) against the sums slx,
   sl2 (slx2 = slx * slx): the new level l, the sums n1, n2 if it is taken,
   and whether it is (within act) */
#define QUANT__KQ_Q3STEP(x, Li, slx, sl2, slx2, act)                                                                    \
    const __m512 w = quant__kq_mul(x, x), wx = quant__kq_mul(w, x);                                                    \
    const __m512 t1 = quant__kq_sub(slx, quant__kq_mul(wx, Li));                                                       \
    const __m512 t2 = quant__kq_sub(sl2, quant__kq_mul(quant__kq_mul(w, Li), Li));                                     \
    const __m512 p = _mm512_div_ps(quant__kq_mul(x, t2), t1);                                                         \
    /* nearest_int as its bit trick, for any p: three operations, where a                                               \
       test of |p| < 2^22 before vrndscaleps takes as many and a branch */                                              \
    const __m512 l = quant__kq_clamp(quant__kq_gnf(p), lo, hi);                                                         \
    __m512 n1, n2;                                                                                                      \
    __mmask16 m;                                                                                                        \
    n1 = quant__kq_add(t1, quant__kq_mul(wx, l));                                                                      \
    n2 = quant__kq_add(t2, quant__kq_mul(quant__kq_mul(w, l), l));                                                     \
    m = (__mmask16)(_mm512_mask_cmp_ps_mask(act, t1, z, _CMP_GT_OQ) & _mm512_cmp_ps_mask(l, Li, _CMP_NEQ_UQ) &         \
                    quant__kq_gt(n2, z));                                                                               \
    m &= quant__kq_gt(quant__kq_mul(quant__kq_mul(n1, n1), sl2), quant__kq_mul(slx2, n2))

/* One pass of make_q3_quants' refinement over the 16 elements of K
   batches of 16 groups: xt the elements, L the levels (-4 .. 3), sx and
   s2 the groups' sumlx and suml2, act the lanes that may change; chg gets
   the lanes that changed.
   Each lane's steps are sequential, as in the scalar code; the K batches
   interleave to hide the chain's latency. */
QUANT__KQ_INLINE void quant__kq_q3pass(const int K, const __m512 *xt, __m512 *L, __m512 *sx, __m512 *s2,
                                       const __mmask16 *act, __mmask16 *chg)
{
    const __m512 z = _mm512_setzero_ps(), lo = _mm512_set1_ps(-4.0f), hi = _mm512_set1_ps(3.0f);
    __m512 slx[4], sl2[4];
    __mmask16 ch[4], ac[4];
    int i, k;
    QUANT__KQ_UNROLL
    for (k = 0; k < K; ++k) {
        slx[k] = sx[k];
        sl2[k] = s2[k];
        ac[k] = act[k];
        ch[k] = 0;
    }
    for (i = 0; i < 16; ++i)
        QUANT__KQ_UNROLL
        for (k = 0; k < K; ++k) {
            const __m512 x = xt[16 * k + i], Li = L[16 * k + i];
            QUANT__KQ_Q3STEP(x, Li, slx[k], sl2[k], quant__kq_mul(slx[k], slx[k]), ac[k]);
            L[16 * k + i] = _mm512_mask_mov_ps(Li, m, l);
            slx[k] = _mm512_mask_mov_ps(slx[k], m, n1);
            sl2[k] = _mm512_mask_mov_ps(sl2[k], m, n2);
            ch[k] |= m;
        }
    QUANT__KQ_UNROLL
    for (k = 0; k < K; ++k) {
        sx[k] = slx[k];
        s2[k] = sl2[k];
        chg[k] = ch[k];
    }
}
#define QUANT__KQ_Q3PASS(K)                                                                                             \
    QUANT__KQ_NOINLINE void quant__kq_q3pass##K(const __m512 *xt, __m512 *L, __m512 *sx, __m512 *s2, const __mmask16 *act, \
                                               __mmask16 *chg)                                                         \
    {                                                                                                                   \
        quant__kq_q3pass(K, xt, L, sx, s2, act, chg);                                                                  \
    }
QUANT__KQ_Q3PASS(1)
QUANT__KQ_Q3PASS(2)
QUANT__KQ_Q3PASS(3)
QUANT__KQ_Q3PASS(4)

/* levels + 4 (0 .. 7) kept two to a byte: 16 of them from 8 bytes */
QUANT__KQ_INLINE __m128i quant__kq_q3get(const uint8_t *r)
{
    const __m128i v = _mm_loadl_epi64((const __m128i *)(const void *)r), m = _mm_set1_epi8(15);
    return _mm_unpacklo_epi8(_mm_and_si128(v, m), _mm_and_si128(_mm_srli_epi16(v, 4), m));
}
/* levels (-4 .. 3 as floats, 16 vectors, element-major) to 16 rows of 8
   bytes at L + 8 g: the byte of elements 2r, 2r + 1 made first (exact in
   float), then the 8 x 16 bytes transposed */
QUANT__KQ_INLINE void quant__kq_q3put(const __m512 *v, uint8_t *L)
{
    __m128i B[8], C[8];
    int r;
    for (r = 0; r < 8; ++r) /* (v[2r] + 4) + 16 (v[2r + 1] + 4) */
        B[r] = _mm512_cvtepi32_epi8(_mm512_cvtps_epi32(
            _mm512_add_ps(_mm512_add_ps(v[2 * r], _mm512_mul_ps(v[2 * r + 1], _mm512_set1_ps(16.0f))), _mm512_set1_ps(68.0f))));
    for (r = 0; r < 4; ++r) {
        C[2 * r] = _mm_unpacklo_epi8(B[2 * r], B[2 * r + 1]);
        C[2 * r + 1] = _mm_unpackhi_epi8(B[2 * r], B[2 * r + 1]);
    }
    /* C[2i]: bytes 2i, 2i + 1 of groups 0 .. 7, C[2i + 1] of groups 8 .. 15;
       then B[4r + i]: bytes 4r .. 4r + 3 of groups 4i .. 4i + 3 */
    for (r = 0; r < 2; ++r) {
        B[4 * r] = _mm_unpacklo_epi16(C[4 * r], C[4 * r + 2]);
        B[4 * r + 1] = _mm_unpackhi_epi16(C[4 * r], C[4 * r + 2]);
        B[4 * r + 2] = _mm_unpacklo_epi16(C[4 * r + 1], C[4 * r + 3]);
        B[4 * r + 3] = _mm_unpackhi_epi16(C[4 * r + 1], C[4 * r + 3]);
    }
    for (r = 0; r < 4; ++r) { /* groups 4r .. 4r + 3, two rows a vector */
        _mm_storeu_si128((__m128i *)(void *)(L + 32 * r), _mm_unpacklo_epi32(B[r], B[4 + r]));
        _mm_storeu_si128((__m128i *)(void *)(L + 32 * r + 16), _mm_unpackhi_epi32(B[r], B[4 + r]));
    }
}

/* the rest of quant__k_block's Q3_K for one block: sc the 16 scales,
   maxs the first of them with the largest magnitude, Lg the levels + 4
   (quant__kq_q3get), flat the groups whose levels are 0 */
QUANT__KQ_INLINE void quant__kq_post3(const float *x, uint8_t *b, __m512 sc, float maxs, const uint8_t *Lg, unsigned flat)
{
    const __m256i three = _mm256_set1_epi8(3);
    __m256i V[8], hm = _mm256_setzero_si256();
    __m128i h[2];
    float d[16];
    int j;
    if (maxs != 0) {
        const float is = -32.0f / maxs;
        /* quant__s8wrap(quant__gn(is * sc)), clamped to -32 .. 31 */
        __m512i v = quant__kq_gn(quant__kq_mul(_mm512_set1_ps(is), sc));
        __m128i q, lo, hi;
        float d0;
        v = _mm512_srai_epi32(_mm512_slli_epi32(v, 24), 24);
        v = _mm512_min_epi32(_mm512_max_epi32(v, _mm512_set1_epi32(-32)), _mm512_set1_epi32(31));
        /* the scales + 32 as bytes: low nibbles of j and j + 8 in byte
           96 + j, the top two bits of j, j + 4, j + 8, j + 12 in byte
           104 + j (the 16-bit shifts move no bit across a byte here) */
        q = _mm512_cvtepi32_epi8(_mm512_add_epi32(v, _mm512_set1_epi32(32)));
        lo = _mm_and_si128(q, _mm_set1_epi8(15));
        lo = _mm_or_si128(lo, _mm_slli_epi16(_mm_srli_si128(lo, 8), 4));
        hi = _mm_and_si128(_mm_srli_epi16(q, 4), _mm_set1_epi8(3));
        hi = _mm_or_si128(hi, _mm_slli_epi16(_mm_srli_si128(hi, 4), 2));
        hi = _mm_or_si128(hi, _mm_slli_epi16(_mm_srli_si128(hi, 8), 4));
        _mm_mask_storeu_epi8(b + 96, 0x0FFF, _mm_unpacklo_epi64(lo, hi));
        quant__gh_put(b + 108, 1 / is);
        d0 = quant__gh(b + 108);
        /* d = gh(b + 108) * quant__k3_scale(b + 96, j), which is the clamped v */
        _mm512_storeu_ps(d, _mm512_mul_ps(_mm512_set1_ps(d0), _mm512_cvtepi32_ps(v)));
    } else {
        for (j = 0; j < 12; ++j) b[96 + j] = 0;
        quant__gh_put(b + 108, 0.0f); /* d is 0 for every group */
        _mm512_storeu_ps(d, _mm512_setzero_ps());
    }
    for (j = 0; j < 16; ++j) {
        h[j & 1] = d[j] != 0 ? quant__kq_requs(x + 16 * j, d[j], 4)
                 : flat >> j & 1 ? _mm_setzero_si128()
                 : quant__kq_q3get(Lg + 8 * j);
        if (j & 1) {
            const __m256i v = quant__kq_cat(h[0], h[1]);
            hm = _mm256_or_si256(hm, _mm256_maskz_mov_epi8(_mm256_cmpgt_epi8_mask(v, three), _mm256_set1_epi8((char)(1 << (j >> 1) & 0x7F) | (char)(j == 15 ? -128 : 0))));
            V[j >> 1] = _mm256_and_si256(v, three);
        }
    }
    _mm256_storeu_si256((__m256i *)(void *)b, hm);
    quant__kq_pack2(V, b + 32);
}

/* Q3_K: nw <= QUANT__KQ_W3 blocks x[k] into b[k]. The first pass runs on
   all groups, QUANT__KQ_K3 blocks side by side; the few groups that
   changed then go on together, packed 16 to a vector whatever their
   block, for up to four more passes. */
QUANT__KQ_NOINLINE void quant__kq_b3(const float *const *xs, uint8_t *const *bs, int nw)
{
    enum { K = QUANT__KQ_K3, W = QUANT__KQ_W3 };
    __m512 xt[64], L[64], sx[4], s2[4]; /* K blocks, then up to 4 vectors of groups */
    __mmask16 act[4], chg[4];
    uint8_t Lg[W][128];
    float gx[W][16], g2[W][16], mxs[(W + 15) / 16 * 16];
    uint16_t flat[W], list[W * 16 + 64];
    unsigned char bad[W];
    int i, k, j, c0, n = 0, pass, p0, kk = 1;
    /* the first pass */
    for (c0 = 0; c0 < nw; c0 += K) {
        __m512 a[K], mx[K], is[K];
        for (k = 0; k < K; ++k) {
            const int blk = c0 + k < nw ? c0 + k : nw - 1;
            const float *rows[16];
            for (i = 0; i < 16; ++i) rows[i] = xs[blk] + 16 * i;
            bad[blk] = (unsigned char)(quant__kq_load(rows, 0, xt + 16 * k) != 0);
            a[k] = mx[k] = sx[k] = s2[k] = _mm512_setzero_ps();
        }
        /* max |x| and the first x with it, the K blocks side by side */
        for (i = 0; i < 16; ++i)
            QUANT__KQ_UNROLL
            for (k = 0; k < K; ++k) {
                const __m512 x = xt[16 * k + i], ax = _mm512_abs_ps(x);
                mx[k] = _mm512_mask_mov_ps(mx[k], quant__kq_gt(ax, a[k]), x);
                a[k] = _mm512_max_ps(ax, a[k]); /* ax > a ? ax : a */
            }
        QUANT__KQ_UNROLL
        for (k = 0; k < K; ++k) {
            const int blk = c0 + k < nw ? c0 + k : nw - 1;
            act[k] = bad[blk] ? 0 : (__mmask16)~quant__kq_lt(a[k], _mm512_set1_ps(1e-15f));
            is[k] = _mm512_div_ps(_mm512_set1_ps(-4.0f), _mm512_mask_mov_ps(_mm512_set1_ps(1.0f), act[k], mx[k]));
        }
        for (i = 0; i < 16; ++i)
            QUANT__KQ_UNROLL
            for (k = 0; k < K; ++k) {
                const __m512 x = xt[16 * k + i], w = quant__kq_mul(x, x);
                const __m512 l = quant__kq_rnd(quant__kq_clamp(quant__kq_mul(is[k], x), _mm512_set1_ps(-4.0f), _mm512_set1_ps(3.0f)));
                L[16 * k + i] = l;
                sx[k] = quant__kq_add(sx[k], quant__kq_mul(quant__kq_mul(w, x), l));
                s2[k] = quant__kq_add(s2[k], quant__kq_mul(quant__kq_mul(w, l), l));
            }
        quant__kq_q3pass(K, xt, L, sx, s2, act, chg);
        for (k = 0; k < K && c0 + k < nw; ++k) {
            const int blk = c0 + k;
            flat[blk] = (uint16_t)~act[k];
            _mm512_storeu_ps(gx[blk], sx[k]);
            _mm512_storeu_ps(g2[blk], s2[k]);
            quant__kq_q3put(L + 16 * k, Lg[blk]);
            for (j = 0; j < 16; ++j) { /* without a branch: about a fifth are taken, at random */
                list[n] = (uint16_t)(blk << 4 | j);
                n += chg[k] >> j & 1;
            }
        }
    }
    /* passes 2 .. 5 of the groups that changed in the first, 16 to a
       vector whatever their block. A group whose pass changed nothing is
       at a fixed point (the next pass would compute the same), so a vector
       runs until none of its lanes changes; after pass 3 the groups still
       changing (about one in nine) are gathered again, into fewer vectors,
       for passes 4 and 5 (the list is rewritten in place, each entry after
       it is read). */
    for (p0 = 2; p0 <= 5 && n > 0; p0 += 2) {
        int n2 = 0;
        for (j = n; j < n + 64; ++j) list[j] = list[n - 1];
        for (c0 = 0; c0 < n; c0 += 16 * kk) {
            const int nv = (n - c0 + 15) / 16;
            kk = nv < 4 ? nv : 4;
            for (k = 0; k < kk; ++k) {
                const float *rows[16];
                const __m512i id = _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(list + c0 + 16 * k)));
                for (j = 0; j < 16; ++j) {
                    const int d = list[c0 + 16 * k + j];
                    rows[j] = xs[d >> 4] + 16 * (d & 15);
                    L[16 * k + j] = _mm512_cvtepi32_ps(_mm512_sub_epi32(_mm512_cvtepu8_epi32(quant__kq_q3get(&Lg[d >> 4][0] + 8 * (d & 15))), _mm512_set1_epi32(4)));
                }
                (void)quant__kq_load(rows, 0, xt + 16 * k);
                quant__kq_tr16(L + 16 * k);
                sx[k] = _mm512_i32gather_ps(id, gx[0], 4);
                s2[k] = _mm512_i32gather_ps(id, g2[0], 4);
                act[k] = 0xFFFF;
            }
            for (pass = p0; pass <= p0 + 1; ++pass) {
                __mmask16 any = 0;
                if (kk == 4) quant__kq_q3pass4(xt, L, sx, s2, act, chg);
                else if (kk == 3) quant__kq_q3pass3(xt, L, sx, s2, act, chg);
                else if (kk == 2) quant__kq_q3pass2(xt, L, sx, s2, act, chg);
                else quant__kq_q3pass1(xt, L, sx, s2, act, chg);
                for (k = 0; k < kk; ++k) any |= chg[k];
                if (!any) break;
            }
            for (k = 0; k < kk; ++k) {
                const int m = n - c0 - 16 * k; /* lanes that are not copies */
                const __mmask16 v = m >= 16 ? (__mmask16)0xFFFF : m > 0 ? (__mmask16)((1u << m) - 1) : 0;
                const __m512i id = _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(list + c0 + 16 * k)));
                uint8_t rowsL[128];
                quant__kq_q3put(L + 16 * k, rowsL);
                _mm512_mask_i32scatter_ps(gx[0], v, id, sx[k], 4);
                _mm512_mask_i32scatter_ps(g2[0], v, id, s2[k], 4);
                for (j = 0; j < 16; ++j)
                    if (v >> j & 1) {
                        const int d = list[c0 + 16 * k + j];
                        _mm_storel_epi64((__m128i *)(void *)(&Lg[d >> 4][0] + 8 * (d & 15)), _mm_loadl_epi64((const __m128i *)(const void *)(rowsL + 8 * j)));
                        list[n2] = (uint16_t)d; /* n2 <= the index just read */
                        n2 += chg[k] >> j & 1; /* changed in pass p0 + 1: not done */
                    }
            }
        }
        n = n2;
    }
    /* the blocks' scales (into gx), and of each the first scale with the
       largest magnitude, as quant__kq_first_max finds it: 16 blocks side
       by side after a transpose, a NaN never larger */
    for (c0 = 0; c0 < nw; c0 += 16) {
        __m512 t[16], a = _mm512_setzero_ps(), mx = a;
        for (k = 0; k < 16; ++k) {
            const int r = c0 + k < nw ? c0 + k : nw - 1;
            const __m512 vx = _mm512_loadu_ps(gx[r]), v2 = _mm512_loadu_ps(g2[r]);
            t[k] = _mm512_maskz_div_ps((__mmask16)(quant__kq_gt(v2, _mm512_setzero_ps()) & ~flat[r]), vx, v2);
        }
        for (k = 0; k < 16 && c0 + k < nw; ++k) _mm512_storeu_ps(gx[c0 + k], t[k]);
        quant__kq_tr16(t);
        for (j = 0; j < 16; ++j) {
            const __m512 ax = _mm512_abs_ps(t[j]);
            mx = _mm512_mask_mov_ps(mx, quant__kq_gt(ax, a), t[j]);
            a = _mm512_max_ps(ax, a); /* ax > a ? ax : a */
        }
        _mm512_storeu_ps(mxs + c0, mx);
    }
    for (k = 0; k < nw; ++k) {
        if (!bs[k]) continue;
        if (bad[k]) {
            QUANT__KQ_ON_SCALAR(QUANT_Q3_K, 1);
            quant__blk_encode(QUANT_Q3_K, xs[k], bs[k]);
            continue;
        }
        quant__kq_post3(xs[k], bs[k], _mm512_loadu_ps(gx[k]), mxs[k], Lg[k], flat[k]);
    }
}

/* ---- IQ4_XS, IQ4_NL -------------------------------------------------------- */

/* by bucket floor(v / 9) mod 32: how many level midpoints lie below the
   bucket, the level there, the next level, and the midpoint between (1e30
   when none) */
static const int32_t quant__kq_i4n[32] = { 8, 9, 9, 10, 11, 11, 12, 13, 13, 14, 14, 14, 15, 15, 15, 15,
                                           0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 6, 7 };
static const float quant__kq_i4lo[32] = { 1, 13, 13, 25, 38, 38, 53, 69, 69, 89, 89, 89, 113, 113, 113, 113,
                                          -127, -127, -127, -127, -104, -104, -83, -83, -65, -65, -49, -49, -35, -22, -22, -10 };
static const float quant__kq_i4hi[32] = { 13, 25, 25, 38, 53, 53, 69, 89, 89, 113, 113, 113, 113, 113, 113, 113,
                                          -104, -104, -104, -104, -83, -83, -65, -65, -49, -49, -35, -35, -22, -10, -10, 1 };
static const float quant__kq_i4m[32] = { 7, 19, 19, 31.5f, 45.5f, 45.5f, 61, 79, 79, 101, 101, 101, 1e30f, 1e30f, 1e30f, 1e30f,
                                         -115.5f, -115.5f, -115.5f, -115.5f, -93.5f, -93.5f, -74, -74, -57, -57, -42, -42, -28.5f, -16, -16, -4.5f };

#define quant__kq_bucket(v) _mm512_cvt_roundps_epi32(_mm512_mul_ps((v), _mm512_set1_ps(1.0f / 9.0f)), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)

/* quant__iq4_index of any v (a NaN gives 15, as there) */
QUANT__KQ_INLINE __m512i quant__kq_i4idx(__m512 v)
{
    const __m512 c = _mm512_max_ps(_mm512_min_ps(v, _mm512_set1_ps(143.0f)), _mm512_set1_ps(-144.0f));
    const __m512i bk = quant__kq_bucket(c);
    const __m512i n = _mm512_permutex2var_epi32(_mm512_loadu_si512(quant__kq_i4n), bk, _mm512_loadu_si512(quant__kq_i4n + 16));
    const __m512 m = _mm512_permutex2var_ps(_mm512_loadu_ps(quant__kq_i4m), bk, _mm512_loadu_ps(quant__kq_i4m + 16));
    return _mm512_mask_add_epi32(n, _mm512_cmp_ps_mask(c, m, _CMP_GE_OQ), n, _mm512_set1_epi32(1));
}

/* 32 elements' indices at scale id, packed as IQ4's 16 bytes */
QUANT__KQ_INLINE void quant__kq_i4pack(const float *x, float id, uint8_t *q)
{
    const __m512 vid = _mm512_set1_ps(id);
    const __m512i a = quant__kq_i4idx(_mm512_mul_ps(vid, _mm512_loadu_ps(x)));
    const __m512i c = quant__kq_i4idx(_mm512_mul_ps(vid, _mm512_loadu_ps(x + 16)));
    _mm_storeu_si128((__m128i *)(void *)q, _mm512_cvtepi32_epi8(_mm512_or_si512(a, _mm512_slli_epi32(c, 4))));
}

/* the 16 lanes' scales sc[g] of quantize_row_iq4_nl_impl's search
   (groups of 32, ntry 7, no weights); returns the lanes with an infinity
   or a NaN, left to the scalar code */
QUANT__KQ_INLINE __mmask16 quant__kq_i4search(const float *const *rows, float *sc)
{
    __m512 xt[32], w[32], a, mx, d, id, sqx, sq2, best;
    const __m512 z = _mm512_setzero_ps();
    const __m512 tl0 = _mm512_loadu_ps(quant__kq_i4lo), tl1 = _mm512_loadu_ps(quant__kq_i4lo + 16);
    const __m512 th0 = _mm512_loadu_ps(quant__kq_i4hi), th1 = _mm512_loadu_ps(quant__kq_i4hi + 16);
    const __m512 tm0 = _mm512_loadu_ps(quant__kq_i4m), tm1 = _mm512_loadu_ps(quant__kq_i4m + 16);
    __mmask16 flat, bad = (__mmask16)(quant__kq_load(rows, 0, xt) | quant__kq_load(rows, 16, xt));
    int i, t;
    if (bad)
        for (i = 0; i < 32; ++i) xt[i] = _mm512_maskz_mov_ps((__mmask16)~bad, xt[i]);
    mx = quant__kq_amax(xt, 32, &a);
    flat = quant__kq_lt(a, _mm512_set1_ps(1e-15f));
    mx = _mm512_mask_mov_ps(mx, flat, _mm512_set1_ps(1.0f));
    for (i = 0; i < 32; ++i) w[i] = quant__kq_mul(xt[i], xt[i]);
    d = _mm512_div_ps(_mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(mx), _mm512_set1_epi32(INT32_MIN))),
                      _mm512_set1_ps(-127.0f));
    id = _mm512_div_ps(_mm512_set1_ps(1.0f), d);
    best = z;
    for (t = -8; t <= 7; ++t) {
        if (t > -8) id = _mm512_div_ps(_mm512_set1_ps((float)(t - 127)), mx);
        sqx = sq2 = z;
        for (i = 0; i < 32; ++i) {
            const __m512 p = quant__kq_mul(id, xt[i]);
            const __m512i bk = quant__kq_bucket(p);
            const __m512 q = _mm512_mask_mov_ps(_mm512_permutex2var_ps(tl0, bk, tl1),
                                                _mm512_cmp_ps_mask(p, _mm512_permutex2var_ps(tm0, bk, tm1), _CMP_GE_OQ),
                                                _mm512_permutex2var_ps(th0, bk, th1));
            const __m512 wq = quant__kq_mul(w[i], q);
            sqx = quant__kq_add(sqx, quant__kq_mul(wq, xt[i]));
            sq2 = quant__kq_add(sq2, quant__kq_mul(wq, q));
        }
        if (t == -8) {
            d = _mm512_maskz_div_ps(quant__kq_gt(sq2, z), sqx, sq2);
            best = quant__kq_mul(d, sqx);
        } else {
            const __mmask16 upd = quant__kq_gt(sq2, z) & quant__kq_gt(quant__kq_mul(sqx, sqx), quant__kq_mul(best, sq2));
            d = _mm512_mask_div_ps(d, upd, sqx, sq2);
            best = _mm512_mask_mov_ps(best, upd, quant__kq_mul(d, sqx));
        }
    }
    _mm512_storeu_ps(sc, _mm512_mask_mov_ps(d, flat, z));
    return bad;
}

/* IQ4_XS: two blocks (b1 0: the second is a copy not to write) */
QUANT__KQ_NOINLINE void quant__kq_bxs(const float *x0, const float *x1, uint8_t *b0, uint8_t *b1)
{
    float sc[16];
    const float *rows[16];
    unsigned bad;
    int i, k;
    for (i = 0; i < 16; ++i) rows[i] = (i < 8 ? x0 : x1) + 32 * (i & 7);
    bad = quant__kq_i4search(rows, sc);
    for (k = 0; k < 2; ++k) {
        const float *x = k ? x1 : x0, *s = sc + 8 * k;
        uint8_t *b = k ? b1 : b0;
        float maxs, d, id;
        unsigned sh = 0;
        int g;
        if (!b) continue;
        if (bad >> 8 * k & 0xFFu) {
            QUANT__KQ_ON_SCALAR(QUANT_IQ4_XS, 1);
            quant__blk_encode(QUANT_IQ4_XS, x, b);
            continue;
        }
        maxs = quant__kq_first_max(_mm512_maskz_loadu_ps(0xFF, s));
        d = -maxs / 32;
        id = d != 0 ? 1 / d : 0.0f;
        quant__gh_put(b, d);
        for (g = 0; g < 8; ++g) {
            int l = quant__gn(quant__gm(id, s[g]));
            float dl;
            l = l < -32 ? -32 : l > 31 ? 31 : l;
            dl = d * (float)l;
            quant__kq_i4pack(x + 32 * g, dl != 0 ? 1 / dl : 0.0f, b + 8 + 16 * g);
            l += 32;
            if (g % 2 == 0) b[4 + g / 2] = (uint8_t)(l & 15);
            else b[4 + g / 2] |= (uint8_t)((l & 15) << 4);
            sh |= (unsigned)(l >> 4) << 2 * g;
        }
        b[2] = (uint8_t)sh;
        b[3] = (uint8_t)(sh >> 8);
    }
}

/* IQ4_NL: 16 blocks x[k] into b[k] (b[k] 0: a copy not to write) */
QUANT__KQ_NOINLINE void quant__kq_bnl(const float *const *xs, uint8_t *const *bs)
{
    float sc[16];
    const unsigned bad = quant__kq_i4search(xs, sc);
    int k;
    for (k = 0; k < 16; ++k) {
        if (!bs[k]) continue;
        if (bad >> k & 1) {
            QUANT__KQ_ON_SCALAR(QUANT_IQ4_NL, 1);
            quant__blk_encode(QUANT_IQ4_NL, xs[k], bs[k]);
            continue;
        }
        quant__gh_put(bs[k], sc[k]);
        quant__kq_i4pack(xs[k], sc[k] != 0 ? 1 / sc[k] : 0.0f, bs[k] + 2);
    }
}

/* nb whole blocks of type t encoded from x into b, bytes identical to
   quant__blk_encode; 0 if t is not one of these types */
static __attribute__((unused)) int quant__kq_enc_avx512(unsigned t, const float *x, uint8_t *b, size_t nb)
{
    size_t i, k, per, be, bb;
    switch (t) {
    case QUANT_Q6_K: per = 1; break;
    case QUANT_Q2_K: per = QUANT__KQ_K2; break;
    case QUANT_Q4_K: case QUANT_Q5_K: per = 2 * QUANT__KQ_K45; break;
    case QUANT_IQ4_XS: per = 2; break;
    case QUANT_Q3_K: per = QUANT__KQ_W3; break;
    case QUANT_IQ4_NL: per = 16; break;
    default: return 0;
    }
    be = quant__blk(t);
    bb = quant__blk_bytes(t);
    for (i = 0; i < nb; i += per) {
        const size_t n = nb - i < per ? nb - i : per;
        const float *xs[QUANT__KQ_W3 > 16 ? QUANT__KQ_W3 : 16];
        uint8_t *bs[QUANT__KQ_W3 > 16 ? QUANT__KQ_W3 : 16];
        int ok = 1;
        for (k = 0; k < per; ++k) {
            xs[k] = x + (i + (k < n ? k : n - 1)) * be;
            bs[k] = k < n ? b + (i + k) * bb : (uint8_t *)0;
        }
        switch (t) {
        case QUANT_Q2_K: quant__kq_b2(xs, bs); break;
        case QUANT_Q6_K: ok = quant__kq_b6(xs[0], bs[0]); break;
        case QUANT_Q3_K: quant__kq_b3(xs, bs, (int)n); break;
        case QUANT_IQ4_XS: quant__kq_bxs(xs[0], xs[1], bs[0], bs[1]); break;
        case QUANT_IQ4_NL: quant__kq_bnl(xs, bs); break;
        default: quant__kq_b45(t, xs, bs); break;
        }
        if (!ok) {
            QUANT__KQ_ON_SCALAR(t, n);
            for (k = 0; k < n; ++k) quant__blk_encode(t, x + (i + k) * be, b + (i + k) * bb);
        }
    }
    return 1;
}


/* ---- Q8_0, Q8_K, Q4_0 .. Q5_1, MXFP4, NVFP4 ------------------------------ */
/* se_avx512.h - AVX-512 encoders for quant.h's ggml block formats

   static int quant__se_enc_avx512(unsigned t, const float *x, uint8_t *b, size_t nb);

   nb whole blocks of type t encoded from x (nb * block elements) into b
   (nb * block bytes), bytes identical to quant.h's quant__blk_encode;
   returns 0 (writing nothing) if t is not handled. Handled: Q8_0, Q8_K,
   Q4_0, Q4_1, Q5_0, Q5_1, MXFP4, NVFP4_BLOCK.

   Include after quant.h with QUANT_IMPLEMENTATION (the QUANT_* type
   names, and quant__blk_encode for the rare blocks sent back to the
   scalar code, see QUANT__SE_SCALAR). Needs AVX-512 F, BW, DQ and VL
   (VBMI is used when __AVX512VBMI__ is defined); without them the function
   returns 0. No FMA: every product that feeds a sum passes a fence.

   How each block type reproduces the scalar code, lane for lane:

   - Groups of 16 blocks of 32 (4 of 64 for NVFP4, 1 of 256 for Q8_K): a
     first pass folds each block into one vector of lane statistics, a
     transposing tree reduces 16 such vectors to one vector holding block
     i's statistic in lane i, the per-block scales are computed 16 at a time
     with the scalar code's f32 operations (division, 1/d, f16 rounding by
     vcvtps2ph, which rounds to nearest even as quant__f32_to_f16 does for
     every non-NaN value, checked on all 2^32 floats by test_se.c), and a
     second pass (from L1) quantizes. A tail of fewer blocks runs through a
     zero-padded copy on the stack.
   - Q4_0, Q5_0: the x of largest |x| by a tree of vrangeps (one per
     block's two vectors, then the 16-to-1 reduction of all 16 blocks);
     emit compares each x with -w, equal or unordered (vcmpps EQ_UQ):
     a block where -w occurs too (+a and -a: the first decides) or a NaN
     (vrangeps makes a signaling NaN quiet, and it may win) goes to the
     scalar code.
   - The largest |x| and the first x attaining it (Q8_K): the
     NaN-ignoring max P and min N of the block (maxps(x, acc) keeps acc when
     x is NaN, as quant__amax's strict > does), a = max(P, -N); the sign is
     P == a ? + : -, unless both +a and -a occur: then the first of them is
     searched. a == 0 gives +0 as quant__amax.
   - Q8_0's max (a > |x| ? a : |x|, which restarts after a NaN) is the
     unsigned integer max of the |x| bit patterns; a block holding a NaN
     (max above 0x7F800000) goes to the scalar code.
   - roundf (halves away from zero) then (int): cvttps2dq(v + copysign
     (0.49999997f, v)), equal to quant__gt(quant__roundf(v)) for all 2^32 v
     (test_se.c checks it); (int8_t) of an int is its low byte.
   - Q8_K: nearest_int (the 1.5 * 2^23 trick) equals vcvtps2dq's
     rounding to nearest even for |v| < 2^22, and |x * (-127/mx)| < 127.5
     whenever -127/mx is finite, so v is -127 .. 127 and the saturating
     packs give ggml's min(v, 127) exactly (one conversion a vector where
     the trick took an add, an and, a min and a subtraction: measured 12%
     off the 64 Ki encode); bsums by vpsadbw. A block with -127/mx
     infinite or zero (an infinite mx), or a NaN (max and min pass it
     over; vcvtps2dq makes its product INT_MIN, the byte -128 that no
     number gives, where nearest_int makes a number of its payload) goes
     to the scalar code. (The float max and min of the
     first pass are faster here than integer maxima of the bit patterns.)
   - MXFP4: the exponent byte is floor(log2f(a)) + 125 as quant__glog2
     computes it, by adding to a's bits the number of ulps below 2^k that
     glibc's log2f rounds up (the same table), checked against quant__glog2
     for every normal a. The code of x: n = ceil(|x| * 2/d) (exact: d is a
     power of two) and a table of n; the sign from x's sign bit, -0 -> 0.
     Checked exhaustively against a lane-wise mirror of quant__fp4_index
     (itself checked against the scalar function) for all 2^32 x and every
     exponent byte 2..255: equal for |x| < 2^26 d, while a block only holds
     |x| < 16 d. Blocks whose a is 0 < a < 2^-126 (wrapping exponent byte),
     whose byte is 0 or 1 (a subnormal d), or with a >= 2^127 (Inf, NaN)
     go to the scalar code.
   - NVFP4: the UE4M3 code of a/6 as quant__ue4m3_code computes it, d its
     half, the code of x from the 7 midpoints T*d (T = 0.5 1.5 2.5 3.5 5 7
     10; ties go to the lower level as quant__fp4_index's first least
     error) compared with |x|. Checked exhaustively for all 2^32 x and all
     126 nonzero scales: equal for |x| < 2^25 d. A sub-block of 16 with
     a >= 2^24 d (only when a/6 is clamped to 448, or Inf) or a NaN sends
     its block to the scalar code; d == 0 gives 0 codes as the scalar. */

#ifndef QUANT__SE_SCALAR
#define QUANT__SE_SCALAR(t, x, b) quant__blk_encode((t), (x), (b))
#endif

#ifdef __OPTIMIZE__
#define QSE_INLINE static __inline__ __attribute__((always_inline, unused))
#else
#define QSE_INLINE static __inline__ __attribute__((unused))
#endif
#define QSE_NOINLINE static __attribute__((noinline, unused))
/* a product the compiler may not fuse with the sum that follows */
#define QSE_FENCE(v) __asm__("" : "+v"(v))
/* vpternlog operands */
#define QSE_A 0xF0
#define QSE_B 0xCC
#define QSE_C 0xAA

/* an unaligned 16-bit store (a block's f16 scale) in one instruction */
typedef uint16_t qse_u16u __attribute__((aligned(1), may_alias));
#define QSE_ST2(p, v) (*(qse_u16u *)(void *)(p) = (v))

#define QSE_SLOT(i) (4 * ((i) & 3) + ((i) >> 2))
/* the loops over a group's 16 vectors must unroll, or gcc 12 -O2 keeps
   the vectors on the stack (measured: a third of Q8_0's time) */
#define QSE_UNROLL _Pragma("GCC unroll 16")

QSE_INLINE __m512i qse_absi(__m512 v) { return _mm512_and_si512(_mm512_castps_si512(v), _mm512_set1_epi32(0x7FFFFFFF)); }
QSE_INLINE __m512 qse_absf(__m512 v) { return _mm512_castsi512_ps(qse_absi(v)); }
QSE_INLINE __m512 qse_maxu(__m512 a, __m512 b)
{
    return _mm512_castsi512_ps(_mm512_max_epu32(_mm512_castps_si512(a), _mm512_castps_si512(b)));
}

/* 16 vectors to one: lane i of the result is OP over the 16 lanes of the
   vector in slot QSE_SLOT(i) */
#define QSE_RED16(name, OP)                                                                                \
    QSE_INLINE __m512 name(const __m512 *v)                                                                \
    {                                                                                                      \
        __m512 c[8], e[4], f[2];                                                                           \
        int k;                                                                                             \
        QSE_UNROLL for (k = 0; k < 8; ++k)                                                                 \
            c[k] = OP(_mm512_shuffle_f32x4(v[2 * k], v[2 * k + 1], 0x44),                                  \
                      _mm512_shuffle_f32x4(v[2 * k], v[2 * k + 1], 0xEE));                                 \
        QSE_UNROLL for (k = 0; k < 4; ++k)                                                                 \
            e[k] = OP(_mm512_shuffle_f32x4(c[2 * k], c[2 * k + 1], 0x88),                                  \
                      _mm512_shuffle_f32x4(c[2 * k], c[2 * k + 1], 0xDD));                                 \
        QSE_UNROLL for (k = 0; k < 2; ++k)                                                                 \
            f[k] = OP(_mm512_shuffle_ps(e[2 * k], e[2 * k + 1], 0x44), _mm512_shuffle_ps(e[2 * k], e[2 * k + 1], 0xEE)); \
        return OP(_mm512_shuffle_ps(f[0], f[1], 0x88), _mm512_shuffle_ps(f[0], f[1], 0xDD));               \
    }
QSE_RED16(qse_red_max, _mm512_max_ps)
QSE_RED16(qse_red_min, _mm512_min_ps)
QSE_RED16(qse_red_maxu, qse_maxu)
QSE_INLINE __m512 qse_rng(__m512 a, __m512 b) { return _mm512_range_ps(a, b, 0x07); }
QSE_RED16(qse_red_rng, qse_rng)

/* round half away from zero, then (int) as cvttss2si */
QSE_INLINE __m512i qse_round_int(__m512 p)
{
    /* vrangeps: min(|p|, 0.49999997f) with p's sign; below that p + p truncates to 0 as well */
    return _mm512_cvttps_epi32(_mm512_add_ps(p, _mm512_range_ps(p, _mm512_set1_ps(0.49999997f), 0x02)));
}

/* the low bytes of 32 int32 lanes to o[0..31] */
QSE_INLINE void qse_lo8x32(uint8_t *o, __m512i a, __m512i b)
{
#ifdef __AVX512VBMI__
    const __m512i idx = _mm512_set_epi32(0, 0, 0, 0, 0, 0, 0, 0, 0x7C787470, 0x6C686460, 0x5C585450, 0x4C484440,
                                         0x3C383430, 0x2C282420, 0x1C181410, 0x0C080400);
    _mm256_storeu_si256((__m256i *)(void *)o, _mm512_castsi512_si256(_mm512_permutex2var_epi8(a, idx, b)));
#else
    _mm_storeu_si128((__m128i *)(void *)o, _mm512_cvtepi32_epi8(a));
    _mm_storeu_si128((__m128i *)(void *)(o + 16), _mm512_cvtepi32_epi8(b));
#endif
}

/* the first x of 32 (nv = 2) or 256 (nv = 16) with |x| == a (a zero: the first +-0) */
QSE_INLINE float qse_first(const float *x, int nv, float a)
{
    const __m512 av = _mm512_set1_ps(a);
    int j;
    for (j = 0; j < nv; ++j) {
        const __mmask16 m = _mm512_cmp_ps_mask(qse_absf(_mm512_loadu_ps(x + 16 * j)), av, _CMP_EQ_OQ);
        if (m) return x[16 * j + __builtin_ctz(m)];
    }
    return a; /* not reached */
}

/* prefetch the lines of 16 * 4 floats at p (the data of a later group) */
QSE_INLINE void qse_pf(const float *p, int i, int lines_per_i)
{
    int l;
    if (p)
        for (l = 0; l < lines_per_i; ++l) _mm_prefetch((const char *)(p + 16 * (lines_per_i * i + l)), _MM_HINT_T0);
}

/* A group's per-block numbers, from its first pass (scan) to its second
   (emit). The driver scans group g + 1 before it emits group g, so that
   the divisions and the reduction's latency of one group overlap the
   other's quantization (with scan and emit in one piece, every group
   waited on its own divisions: a third of Q8_0's time). */
typedef struct qse_st {
    float f[16], g[16];
    uint16_t h[16], m[16];
    unsigned bad, nz;
} qse_st;

/* ---- Q8_0 --------------------------------------------------------------- */
QSE_INLINE void qse_q8_0_scan(const float *x, int nblk, qse_st *st)
{
    __m512 v[16], a, d, id;
    int i;
    QSE_UNROLL
    for (i = 0; i < 16; ++i) {
        if (i < nblk) {
            v[QSE_SLOT(i)] = qse_maxu(qse_absf(_mm512_loadu_ps(x + 32 * i)), qse_absf(_mm512_loadu_ps(x + 32 * i + 16)));
        } else v[QSE_SLOT(i)] = _mm512_setzero_ps();
    }
    a = qse_red_maxu(v);
    st->bad = _mm512_cmpgt_epu32_mask(_mm512_castps_si512(a), _mm512_set1_epi32(0x7F800000)) & ((1u << nblk) - 1);
    d = _mm512_div_ps(a, _mm512_set1_ps(127.0f));
    id = _mm512_maskz_div_ps(_mm512_cmp_ps_mask(d, _mm512_setzero_ps(), _CMP_NEQ_UQ), _mm512_set1_ps(1.0f), d);
    _mm512_storeu_ps(st->f, id);
    _mm256_storeu_si256((__m256i *)(void *)st->h, _mm512_cvtps_ph(d, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}

QSE_INLINE void qse_q8_0_emit(const float *x, uint8_t *b, int nblk, const float *pf, const qse_st *st)
{
    unsigned bad = st->bad;
    int i;
    for (i = 0; i < nblk; ++i) {
        const __m512 s = _mm512_set1_ps(st->f[i]);
        __m512 p0 = _mm512_mul_ps(_mm512_loadu_ps(x + 32 * i), s), p1 = _mm512_mul_ps(_mm512_loadu_ps(x + 32 * i + 16), s);
        qse_pf(pf, i, 2);
        QSE_FENCE(p0);
        QSE_FENCE(p1);
        QSE_ST2(b + 34 * i, st->h[i]);
        qse_lo8x32(b + 34 * i + 2, qse_round_int(p0), qse_round_int(p1));
    }
    for (; bad; bad &= bad - 1) {
        i = __builtin_ctz(bad);
        QUANT__SE_SCALAR(QUANT_Q8_0, x + 32 * i, b + 34 * i);
    }
}

/* ---- Q4_0, Q5_0 (five), Q4_1, Q5_1 (has_m) ------------------------------ */
QSE_INLINE void qse_q45_scan(const float *x, int nblk, qse_st *st, const int five, const int has_m)
{
    __m512 P[16], N[16], hi, lo, mx, d, id;
    int i;
    if (has_m) {
        const __m512 big = _mm512_set1_ps(3.40282347e38f), nbig = _mm512_set1_ps(-3.40282347e38f);
        QSE_UNROLL
        for (i = 0; i < 16; ++i) {
            if (i < nblk) {
                const __m512 x0 = _mm512_loadu_ps(x + 32 * i), x1 = _mm512_loadu_ps(x + 32 * i + 16);
                P[QSE_SLOT(i)] = _mm512_max_ps(x1, _mm512_max_ps(x0, nbig));
                N[QSE_SLOT(i)] = _mm512_min_ps(x1, _mm512_min_ps(x0, big));
            } else P[QSE_SLOT(i)] = N[QSE_SLOT(i)] = _mm512_set1_ps(1.0f);
        }
        hi = qse_red_max(P);
        lo = qse_red_min(N);
        { /* a zero min or max: the scalar keeps the first zero, +0 or -0 */
            unsigned zm = (_mm512_cmp_ps_mask(lo, _mm512_setzero_ps(), _CMP_EQ_OQ) | _mm512_cmp_ps_mask(hi, _mm512_setzero_ps(), _CMP_EQ_OQ)) &
                          ((1u << nblk) - 1);
            if (zm) {
                float hv[16], lv[16];
                _mm512_storeu_ps(hv, hi);
                _mm512_storeu_ps(lv, lo);
                for (; zm; zm &= zm - 1) {
                    i = __builtin_ctz(zm);
                    if (lv[i] == 0) lv[i] = qse_first(x + 32 * i, 2, 0.0f);
                    if (hv[i] == 0) hv[i] = qse_first(x + 32 * i, 2, 0.0f);
                }
                hi = _mm512_loadu_ps(hv);
                lo = _mm512_loadu_ps(lv);
            }
        }
        d = _mm512_div_ps(_mm512_sub_ps(hi, lo), _mm512_set1_ps(five ? 31.0f : 15.0f));
        _mm512_storeu_ps(st->g, lo);
        _mm256_storeu_si256((__m256i *)(void *)st->m, _mm512_cvtps_ph(lo, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    } else {
        /* vrangeps 0x07 keeps the larger |x| with its sign and passes a
           quiet NaN over; +a against -a it resolves by its own rule, not
           the scalar's first occurrence, so emit sends a block holding
           -w as well as the winner w (or any NaN: a signaling one comes
           out quiet and may win) to the scalar code */
        const __m512 z = _mm512_setzero_ps();
        __mmask16 nz;
        QSE_UNROLL
        for (i = 0; i < 16; ++i)
            P[QSE_SLOT(i)] = i < nblk ? _mm512_range_ps(_mm512_loadu_ps(x + 32 * i), _mm512_loadu_ps(x + 32 * i + 16), 0x07) : z;
        hi = qse_red_rng(P);
        nz = _mm512_cmp_ps_mask(hi, z, _CMP_NEQ_OQ);
        mx = _mm512_maskz_mov_ps(nz, hi); /* all +-0: +0 as quant__amax */
        /* what emit looks for: -w, or +Inf (no x equals it in a block whose w is 0) */
        _mm512_storeu_ps(st->g, _mm512_mask_sub_ps(_mm512_castsi512_ps(_mm512_set1_epi32(0x7F800000)), nz, z, hi));
        d = _mm512_div_ps(mx, _mm512_set1_ps(five ? -16.0f : -8.0f));
    }
    id = _mm512_maskz_div_ps(_mm512_cmp_ps_mask(d, _mm512_setzero_ps(), _CMP_NEQ_UQ), _mm512_set1_ps(1.0f), d);
    _mm512_storeu_ps(st->f, id);
    _mm256_storeu_si256((__m256i *)(void *)st->h, _mm512_cvtps_ph(d, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}

QSE_INLINE void qse_q45_emit(const float *x, uint8_t *b, int nblk, const float *pf, const qse_st *st, const int five, const int has_m)
{
    const int bb = 18 + 2 * has_m + 4 * five;
#if defined(__AVX512VBMI__) && defined(__BMI2__)
    /* il: byte 2j <- c0 lane j, 2j + 1 <- c1 lane j; ev: the even bytes;
       tab: a code's nibble, min(v, 15), min(v, 31) & 15 or v & 15 (Q5_1) */
    const __m512i il = _mm512_set_epi32(0, 0, 0, 0, 0, 0, 0, 0, 0x7C3C7838, 0x74347030, 0x6C2C6828, 0x64246020,
                                        0x5C1C5818, 0x54145010, 0x4C0C4808, 0x44044000);
    const __m512i ev = _mm512_set_epi32(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x1E1C1A18, 0x16141210, 0x0E0C0A08, 0x06040200);
    const __m512i tab = _mm512_mask_mov_epi32(_mm512_set1_epi8(15), !five ? 0x000F : has_m ? 0xFFFF : 0x00FF,
                                              _mm512_set4_epi32(0x0F0E0D0C, 0x0B0A0908, 0x07060504, 0x03020100));
#else
    const __m512i top = _mm512_set1_epi32(five ? 31 : 15);
#endif
    unsigned bad = 0;
    int i;
    for (i = 0; i < nblk; ++i) {
        const __m512 s = _mm512_set1_ps(st->f[i]);
        const __m512 add = _mm512_set1_ps(has_m ? 0.5f : five ? 16.5f : 8.5f);
        uint8_t *o = b + bb * i;
        __m512 x0 = _mm512_loadu_ps(x + 32 * i), x1 = _mm512_loadu_ps(x + 32 * i + 16), p0, p1;
        __m512i c0, c1;
        __m128i q;
        qse_pf(pf, i, 2);
        if (has_m) {
            const __m512 l = _mm512_set1_ps(st->g[i]);
            x0 = _mm512_sub_ps(x0, l);
            x1 = _mm512_sub_ps(x1, l);
        } else { /* -w or a NaN in the block (see the scan) */
            const __m512 nw = _mm512_set1_ps(st->g[i]);
            bad |= (unsigned)!!(_mm512_cmp_ps_mask(x0, nw, _CMP_EQ_UQ) | _mm512_cmp_ps_mask(x1, nw, _CMP_EQ_UQ)) << i;
        }
        p0 = _mm512_mul_ps(x0, s);
        p1 = _mm512_mul_ps(x1, s);
        QSE_FENCE(p0);
        QSE_FENCE(p1);
        /* the codes stay 32-bit until one narrowing of the packed bytes: only
           the low byte of a lane matters, and min(v, top) on the lane has the
           low byte min on the byte has, since v is in 0 .. 16 (32 for Q5) or
           INT_MIN (a NaN) */
        c0 = _mm512_cvttps_epi32(_mm512_add_ps(p0, add));
        c1 = _mm512_cvttps_epi32(_mm512_add_ps(p1, add));
        QSE_ST2(o, st->h[i]);
        if (has_m) QSE_ST2(o + 2, st->m[i]);
#if defined(__AVX512VBMI__) && defined(__BMI2__)
        {
            /* the low bytes of c0 and c1 interleaved (one vpermt2b), each
               to its nibble by a table (clamped but for Q5_1), the pairs
               to c0 + 16 c1 by vpmaddubsw and the 16 bytes gathered: four
               operations where the dword minima, the shift, the merge and
               vpmovdb took six (2-4% off the 64 Ki encode of Q4_0 and Q4_1) */
            const __m512i r = _mm512_permutex2var_epi8(c0, il, c1);
            const __m512i w = _mm512_maddubs_epi16(_mm512_permutexvar_epi8(r, tab), _mm512_set1_epi16(0x1001));
            if (five) { /* bit 4 of the clamped code; the mask has c0's bits at the even positions */
                const uint64_t m = has_m ? _mm512_test_epi8_mask(r, _mm512_set1_epi8(16)) : _mm512_cmpgt_epu8_mask(r, _mm512_set1_epi8(15));
                quant__st4(o + 2 + 2 * has_m, _pext_u32((uint32_t)m, 0x55555555u) | _pext_u32((uint32_t)m, 0xAAAAAAAAu) << 16);
            }
            q = _mm512_castsi512_si128(_mm512_permutexvar_epi8(ev, w));
        }
#else
        if (!(has_m && five)) { /* Q5_1 keeps the low byte as it is */
            c0 = _mm512_min_epi32(c0, top);
            c1 = _mm512_min_epi32(c1, top);
        }
        if (five) {
            const uint32_t qh = (uint32_t)_mm512_test_epi32_mask(c0, _mm512_set1_epi32(16)) | (uint32_t)_mm512_test_epi32_mask(c1, _mm512_set1_epi32(16)) << 16;
            quant__st4(o + 2 + 2 * has_m, qh);
            q = _mm512_cvtepi32_epi8(_mm512_ternarylogic_epi32(c0, _mm512_slli_epi32(c1, 4), _mm512_set1_epi32(15), (QSE_C & QSE_A) | (~QSE_C & QSE_B)));
        } else {
            q = _mm512_cvtepi32_epi8(_mm512_ternarylogic_epi32(c0, _mm512_slli_epi32(c1, 4), _mm512_set1_epi32(0xF0), QSE_A | (QSE_B & QSE_C)));
        }
#endif
        _mm_storeu_si128((__m128i *)(void *)(o + bb - 16), q);
    }
    for (; bad; bad &= bad - 1) {
        i = __builtin_ctz(bad);
        QUANT__SE_SCALAR(five ? QUANT_Q5_0 : QUANT_Q4_0, x + 32 * i, b + bb * i);
    }
}

/* ---- Q8_K --------------------------------------------------------------- */
QSE_INLINE void qse_q8_K(const float *x, uint8_t *b, int nblk, const float *pf)
{
    const __m512 z = _mm512_setzero_ps();
    __m512 P[16], N[16], hi, na, a, mx, is, d;
    __mmask16 pos, nz;
    unsigned amb, bad;
    float isv[16], dv[16];
    int i, j;
    for (i = 0; i < 16; ++i) {
        __m512 p = z, n = z;
        if (i < nblk)
            for (j = 0; j < 16; ++j) {
                const __m512 v = _mm512_loadu_ps(x + 256 * i + 16 * j);
                p = _mm512_max_ps(v, p);
                n = _mm512_min_ps(v, n);
            }
        P[QSE_SLOT(i)] = p;
        N[QSE_SLOT(i)] = n;
    }
    hi = qse_red_max(P);
    na = _mm512_sub_ps(z, qse_red_min(N));
    a = _mm512_max_ps(hi, na);
    nz = _mm512_cmp_ps_mask(a, z, _CMP_GT_OQ);
    pos = _mm512_cmp_ps_mask(hi, a, _CMP_EQ_OQ);
    amb = pos & nz & _mm512_cmp_ps_mask(na, a, _CMP_EQ_OQ);
    mx = _mm512_mask_blend_ps(pos, _mm512_sub_ps(z, a), a);
    if (amb) {
        float mv[16], av[16];
        _mm512_storeu_ps(mv, mx);
        _mm512_storeu_ps(av, a);
        for (; amb; amb &= amb - 1) {
            i = __builtin_ctz(amb);
            mv[i] = qse_first(x + 256 * i, 16, av[i]);
        }
        mx = _mm512_loadu_ps(mv);
    }
    is = _mm512_div_ps(_mm512_set1_ps(-127.0f), mx);
    d = _mm512_div_ps(_mm512_set1_ps(1.0f), is);
    /* -127/mx infinite, or 0 (an infinite mx: its products inf * 0 are
       NaN, 0 to nearest_int but INT_MIN to vcvtps2dq): the scalar code
       (a == 0 lanes are zeroed below) */
    bad = _mm512_mask_cmp_ps_mask(nz, _mm512_sub_ps(is, is), z, _CMP_NEQ_UQ) | _mm512_mask_cmp_ps_mask(nz, is, z, _CMP_EQ_OQ);
    bad &= (1u << nblk) - 1;
    _mm512_storeu_ps(isv, is);
    _mm512_storeu_ps(dv, d);
    for (i = 0; i < nblk; ++i) {
        const __m512 s = _mm512_set1_ps(isv[i]);
        const float *xi = x + 256 * i;
        uint8_t *o = b + 292 * i;
        __m512i S[4], t01, t23;
        __mmask64 nan = 0;
        if (!(nz >> i & 1)) {
            {
                int zi;
                for (zi = 0; zi < 292; ++zi) o[zi] = 0;
            }
            continue;
        }
        quant__st4(o, quant__bits(dv[i]));
        qse_pf(pf, i, 16);
        for (j = 0; j < 4; ++j) {
            __m512i v[4], w;
            int k;
            for (k = 0; k < 4; ++k)
                v[k] = _mm512_cvt_roundps_epi32(_mm512_mul_ps(_mm512_loadu_ps(xi + 64 * j + 16 * k), s),
                                                _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
            w = _mm512_packs_epi16(_mm512_packs_epi32(v[0], v[1]), _mm512_packs_epi32(v[2], v[3]));
            w = _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15), w);
            _mm512_storeu_si512(o + 4 + 64 * j, w);
            nan |= _mm512_cmpeq_epi8_mask(w, _mm512_set1_epi8((char)0x80));
            S[j] = _mm512_sad_epu8(_mm512_xor_si512(w, _mm512_set1_epi8((char)0x80)), _mm512_setzero_si512());
        }
        {
            const __m512i ev = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14), od = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
            const __m512i wi = _mm512_setr_epi32(0x00040000, 0x000C0008, 0x00140010, 0x001C0018, 0x00240020, 0x002C0028, 0x00340030,
                                                 0x003C0038, 0, 0, 0, 0, 0, 0, 0, 0);
            __m256i sm;
            t01 = _mm512_add_epi64(_mm512_permutex2var_epi64(S[0], ev, S[1]), _mm512_permutex2var_epi64(S[0], od, S[1]));
            t23 = _mm512_add_epi64(_mm512_permutex2var_epi64(S[2], ev, S[3]), _mm512_permutex2var_epi64(S[2], od, S[3]));
            sm = _mm512_castsi512_si256(_mm512_permutex2var_epi16(t01, wi, t23));
            _mm256_storeu_si256((__m256i *)(void *)(o + 260), _mm256_sub_epi16(sm, _mm256_set1_epi16(2048)));
        }
        if (nan) bad |= 1u << i;
    }
    for (; bad; bad &= bad - 1) {
        i = __builtin_ctz(bad);
        QUANT__SE_SCALAR(QUANT_Q8_K, x + 256 * i, b + 292 * i);
    }
}

/* ---- MXFP4 -------------------------------------------------------------- */

/* 4-bit codes of x with s = 2/d: n = ceil(|x| s), a table of n and the sign */
QSE_INLINE __m512i qse_mx_code(__m512 x, __m512 s)
{
    const __m512i n = _mm512_cvt_roundps_epi32(_mm512_mul_ps(qse_absf(x), s), _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC);
#ifdef __AVX512VBMI__
    /* a table of 128 bytes read at n (0 .. 32; NaN's INT_MIN reads 0) | 64
       for x < 0; only the low byte of each lane is meant */
    const __m512i pos = _mm512_setr_epi32(0x01010000, 0x03030202, 0x05040404, 0x06050505, 0x06060606, 0x07070706, 0x07070707,
                                          0x07070707, 0x07070707, 0x07070707, 0x07070707, 0x07070707, 0x07070707, 0x07070707,
                                          0x07070707, 0x07070707);
    const __m512i neg = _mm512_mask_or_epi32(pos, 0xFFFF, pos, _mm512_setr_epi32(0x08080000, 0x08080808, 0x08080808, 0x08080808, 0x08080808,
                                                                                0x08080808, 0x08080808, 0x08080808, 0x08080808, 0x08080808,
                                                                                0x08080808, 0x08080808, 0x08080808, 0x08080808, 0x08080808,
                                                                                0x08080808));
    const __m512i idx = _mm512_ternarylogic_epi32(n, _mm512_srli_epi32(_mm512_castps_si512(x), 25), _mm512_set1_epi32(64), QSE_A | (QSE_B & QSE_C));
    return _mm512_permutex2var_epi8(pos, idx, neg);
#else
    const __m512i lut0 = _mm512_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5, 6);
    const __m512i lut1 = _mm512_setr_epi32(6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7);
    const __m512i sg = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15);
    __m512i k = _mm512_permutex2var_epi32(lut0, _mm512_min_epi32(n, _mm512_set1_epi32(31)), lut1);
    k = _mm512_ternarylogic_epi32(k, _mm512_srli_epi32(_mm512_castps_si512(x), 28), _mm512_set1_epi32(8), QSE_A | (QSE_B & QSE_C));
    return _mm512_permutexvar_epi32(k, sg);
#endif
}

/* s = 2/d = 2^(129 - e) for the exponent byte e = 2 .. 255 (e < 2: any s) */
QSE_INLINE __m512 qse_mx_scale(__m512i e)
{
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_sub_epi32(_mm512_set1_epi32(256), _mm512_max_epi32(e, _mm512_set1_epi32(2))), 23));
}

QSE_INLINE void qse_mxfp4_scan(const float *x, int nblk, qse_st *st)
{
    const __m512i zi = _mm512_setzero_si512();
    const __m512i below = _mm512_setr_epi32(0, 1, 2, 5, 11, 22, 44, 88, 0, 0, 0, 0, 0, 0, 0, 0);
    __m512 v[16];
    __m512i A, k, mag, room, e;
    __mmask16 nz;
    int i;
    QSE_UNROLL
    for (i = 0; i < 16; ++i) {
        if (i < nblk) {
            v[QSE_SLOT(i)] = qse_maxu(qse_absf(_mm512_loadu_ps(x + 32 * i)), qse_absf(_mm512_loadu_ps(x + 32 * i + 16)));
        } else v[QSE_SLOT(i)] = _mm512_setzero_ps();
    }
    A = _mm512_castps_si512(qse_red_maxu(v));
    nz = _mm512_test_epi32_mask(A, A);
    /* quant__glog2 for normal a: k = e + 1 is taken when a lies within
       below[bin] ulps of 2^k, bin = floor(log2(k > 0 ? k - 1 : -k)) */
    k = _mm512_sub_epi32(_mm512_srli_epi32(A, 23), _mm512_set1_epi32(126));
    mag = _mm512_max_epi32(_mm512_sub_epi32(k, _mm512_set1_epi32(1)), _mm512_sub_epi32(zi, k));
    room = _mm512_maskz_permutexvar_epi32(
        _mm512_test_epi32_mask(mag, mag),
        _mm512_sub_epi32(_mm512_srli_epi32(_mm512_castps_si512(_mm512_cvtepi32_ps(mag)), 23), _mm512_set1_epi32(127)), below);
    /* the exponent byte: floor(log2(a)) + 125, 0 for a == 0 */
    e = _mm512_maskz_and_epi32(nz, _mm512_sub_epi32(_mm512_srli_epi32(_mm512_add_epi32(A, room), 23), _mm512_set1_epi32(2)),
                               _mm512_set1_epi32(255));
    st->bad = (_mm512_cmpge_epu32_mask(A, _mm512_set1_epi32(0x7F000000)) | (nz & _mm512_cmplt_epu32_mask(A, _mm512_set1_epi32(0x00800000))) |
               (nz & _mm512_cmplt_epi32_mask(e, _mm512_set1_epi32(2)))) & ((1u << nblk) - 1);
    _mm256_storeu_si256((__m256i *)(void *)st->h, _mm512_cvtepi32_epi16(e));
    _mm512_storeu_ps(st->f, qse_mx_scale(e));
}

QSE_INLINE void qse_mxfp4_emit(const float *x, uint8_t *b, int nblk, const float *pf, const qse_st *st)
{
    unsigned bad = st->bad;
    int i;
    for (i = 0; i < nblk; ++i) {
        const __m512 s = _mm512_set1_ps(st->f[i]);
        const __m512i c0 = qse_mx_code(_mm512_loadu_ps(x + 32 * i), s), c1 = qse_mx_code(_mm512_loadu_ps(x + 32 * i + 16), s);
        qse_pf(pf, i, 2);
        b[17 * i] = (uint8_t)st->h[i];
        _mm_storeu_si128((__m128i *)(void *)(b + 17 * i + 1), _mm512_cvtepi32_epi8(_mm512_or_si512(c0, _mm512_slli_epi32(c1, 4))));
    }
    for (; bad; bad &= bad - 1) {
        i = __builtin_ctz(bad);
        QUANT__SE_SCALAR(QUANT_MXFP4, x + 32 * i, b + 17 * i);
    }
}

/* ---- NVFP4 -------------------------------------------------------------- */

/* 4-bit codes of x in a sub-block whose scale is d = M 2^E (M = 1 .. 15):
   with s = 2^(1-E) and r = fl(1/M), n = ceil(|x| s) and w = (int)((n - 0.5)
   r), which is floor((n - 1) / M) (0 for n = 0); |x| > T d iff w >= 2T for
   the 7 midpoints T, so a table of w gives the code; the sign from x, -0
   to 0. s = 0 for d = 0. */
QSE_INLINE __m512i qse_nv_code(__m512 x, __m512 s, __m512 r)
{
    const __m512 nf = _mm512_roundscale_ps(_mm512_mul_ps(qse_absf(x), s), _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC);
    const __m512i w = _mm512_min_epi32(_mm512_cvttps_epi32(_mm512_mul_ps(_mm512_sub_ps(nf, _mm512_set1_ps(0.5f)), r)), _mm512_set1_epi32(31));
#ifdef __AVX512VBMI__
    const __m512i pos = _mm512_setr_epi32(0x02010100, 0x04030302, 0x05050404, 0x06060505, 0x06060606, 0x07070707, 0x07070707,
                                          0x07070707, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m512i neg = _mm512_or_si512(pos, _mm512_setr_epi32(0x08080800, 0x08080808, 0x08080808, 0x08080808, 0x08080808, 0x08080808,
                                                                0x08080808, 0x08080808, 0, 0, 0, 0, 0, 0, 0, 0));
    const __m512i idx = _mm512_ternarylogic_epi32(w, _mm512_srli_epi32(_mm512_castps_si512(x), 25), _mm512_set1_epi32(64), QSE_A | (QSE_B & QSE_C));
    return _mm512_permutex2var_epi8(pos, idx, neg);
#else
    const __m512i lut0 = _mm512_setr_epi32(0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5, 6, 6);
    const __m512i lut1 = _mm512_setr_epi32(6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7);
    const __m512i sg = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15);
    __m512i k = _mm512_permutex2var_epi32(lut0, w, lut1);
    k = _mm512_ternarylogic_epi32(k, _mm512_srli_epi32(_mm512_castps_si512(x), 28), _mm512_set1_epi32(8), QSE_A | (QSE_B & QSE_C));
    return _mm512_permutexvar_epi32(k, sg);
#endif
}

/* for UE4M3 codes c (0 .. 0x7E): half the scale is d = M 2^E, e = c >> 3,
   m = c & 7: e = 0: M = m, E = -10; else M = 8 + m, E = e - 11. s = 2^(1-E)
   (0 for c = 0), r = fl(1/M) */
QSE_INLINE void qse_nv_params(__m512i code, __m512 *s, __m512 *r)
{
    const __m512i seven = _mm512_set1_epi32(7), e = _mm512_srli_epi32(code, 3);
    const __mmask16 sub = _mm512_cmpeq_epi32_mask(e, _mm512_setzero_si512());
    const __m512i M = _mm512_mask_mov_epi32(_mm512_or_si512(_mm512_and_si512(code, seven), _mm512_set1_epi32(8)), sub, _mm512_and_si512(code, seven));
    *s = _mm512_castsi512_ps(_mm512_maskz_mov_epi32(
        _mm512_test_epi32_mask(code, code),
        _mm512_slli_epi32(_mm512_mask_mov_epi32(_mm512_sub_epi32(_mm512_set1_epi32(139), e), sub, _mm512_set1_epi32(138)), 23)));
    *r = _mm512_div_ps(_mm512_set1_ps(1.0f), _mm512_cvtepi32_ps(_mm512_max_epi32(M, _mm512_set1_epi32(1))));
}

QSE_INLINE void qse_nvfp4_scan(const float *x, int nblk, qse_st *st)
{
    const int nsub = 4 * nblk;
    const __m512i seven = _mm512_set1_epi32(7);
    __m512 v[16], a, s, d;
    __m512i A, u, t, c, code;
    int i;
    QSE_UNROLL
    for (i = 0; i < 16; ++i) v[QSE_SLOT(i)] = i < nsub ? _mm512_castsi512_ps(qse_absi(_mm512_loadu_ps(x + 16 * i))) : _mm512_setzero_ps();
    A = _mm512_castps_si512(qse_red_maxu(v));
    a = _mm512_castsi512_ps(A);
    /* quant__ue4m3_code(a / 6) */
    s = _mm512_min_ps(_mm512_div_ps(a, _mm512_set1_ps(6.0f)), _mm512_set1_ps(448.0f));
    u = _mm512_castps_si512(s);
    {
        __m512 q = _mm512_mul_ps(s, _mm512_set1_ps(512.0f));
        QSE_FENCE(q);
        t = _mm512_cvttps_epi32(_mm512_add_ps(q, _mm512_set1_ps(0.5f)));
        t = _mm512_min_epi32(_mm512_max_epi32(t, _mm512_setzero_si512()), seven);
    }
    c = _mm512_add_epi32(_mm512_sub_epi32(_mm512_srli_epi32(u, 20), _mm512_set1_epi32(960)), _mm512_and_si512(_mm512_srli_epi32(u, 19), _mm512_set1_epi32(1)));
    c = _mm512_min_epi32(c, _mm512_set1_epi32(120)); /* 120 and up: 0x7E */
    c = _mm512_mask_mov_epi32(c, _mm512_cmpeq_epi32_mask(c, _mm512_set1_epi32(120)), _mm512_set1_epi32(0x7E));
    code = _mm512_mask_mov_epi32(c, _mm512_cmple_epu32_mask(u, _mm512_set1_epi32((int)(120u << 23 | 0x7FFFFFu))), t);
    /* quant__ue4m3_half(code) */
    d = _mm512_mask_mov_ps(_mm512_castsi512_ps(_mm512_add_epi32(_mm512_slli_epi32(code, 20), _mm512_set1_epi32(119 << 23))),
                           _mm512_cmplt_epi32_mask(code, _mm512_set1_epi32(8)),
                           _mm512_mul_ps(_mm512_cvtepi32_ps(code), _mm512_set1_ps(0.0009765625f)));
    {
        __m512 sc, rc;
        qse_nv_params(code, &sc, &rc);
        _mm512_storeu_ps(st->f, sc);
        _mm512_storeu_ps(st->g, rc);
    }
    /* a NaN, or a >= 2^24 d (a/6 clamped to 448, or Inf): the scalar code */
    st->bad = (_mm512_cmpgt_epu32_mask(A, _mm512_set1_epi32(0x7F800000)) |
               (_mm512_cmp_ps_mask(a, _mm512_mul_ps(d, _mm512_set1_ps(16777216.0f)), _CMP_GE_OQ) & _mm512_test_epi32_mask(code, code))) &
              ((1u << nsub) - 1);
    _mm256_storeu_si256((__m256i *)(void *)st->h, _mm512_cvtepi32_epi16(code));
}

QSE_INLINE void qse_nvfp4_emit(const float *x, uint8_t *b, int nblk, const float *pf, const qse_st *st)
{
    unsigned bad = st->bad;
    int i, j;
    for (i = 0; i < nblk; ++i) {
        uint8_t *o = b + 36 * i;
        o[0] = (uint8_t)st->h[4 * i];
        o[1] = (uint8_t)st->h[4 * i + 1];
        o[2] = (uint8_t)st->h[4 * i + 2];
        o[3] = (uint8_t)st->h[4 * i + 3];
        qse_pf(pf, i, 4);
        for (j = 0; j < 2; ++j) {
            const int n = 4 * i + 2 * j;
            const __m512i c0 = qse_nv_code(_mm512_loadu_ps(x + 16 * n), _mm512_set1_ps(st->f[n]), _mm512_set1_ps(st->g[n]));
            const __m512i c1 = qse_nv_code(_mm512_loadu_ps(x + 16 * n + 16), _mm512_set1_ps(st->f[n + 1]), _mm512_set1_ps(st->g[n + 1]));
            const __m512i r = _mm512_or_si512(_mm512_shuffle_i32x4(c0, c1, 0x44), _mm512_slli_epi32(_mm512_shuffle_i32x4(c0, c1, 0xEE), 4));
            _mm_storeu_si128((__m128i *)(void *)(o + 4 + 16 * j), _mm512_cvtepi32_epi8(r));
        }
    }
    while (bad) {
        i = __builtin_ctz(bad) >> 2;
        QUANT__SE_SCALAR(QUANT_NVFP4_BLOCK, x + 64 * i, b + 36 * i);
        bad &= ~(15u << 4 * i);
    }
}

/* ---- dispatch ----------------------------------------------------------- */
#define QSE_TYPE(name, G)                                                                                              \
    QSE_NOINLINE void name##_full(const float *x, uint8_t *b, const float *pf) { name(x, b, G, pf); }                    \
    QSE_NOINLINE void name##_part(const float *x, uint8_t *b, int n) { name(x, b, n, (const float *)0); }
/* full: emit the group at x from *st, after scanning the next one (at
   xn, if any) into *sn; part: a last group of n blocks */
#define QSE_TYPE2(name, G)                                                                                             \
    QSE_NOINLINE void name##_full2(const float *x, uint8_t *b, const float *pf, const qse_st *st, const float *xn, qse_st *sn) \
    {                                                                                                                  \
        if (xn) name##_scan(xn, G, sn);                                                                                \
        name##_emit(x, b, G, pf, st);                                                                                  \
    }                                                                                                                  \
    QSE_NOINLINE void name##_first(const float *x, qse_st *st) { name##_scan(x, G, st); }                               \
    QSE_NOINLINE void name##_part(const float *x, uint8_t *b, int n)                                                   \
    {                                                                                                                  \
        qse_st st;                                                                                                     \
        name##_scan(x, n, &st);                                                                                        \
        name##_emit(x, b, n, (const float *)0, &st);                                                                   \
    }
QSE_TYPE2(qse_q8_0, 16)
QSE_TYPE2(qse_mxfp4, 16)
QSE_TYPE2(qse_nvfp4, 4)
QSE_TYPE(qse_q8_K, 16)
#define QSE_Q45(name, five, has_m)                                                                                     \
    QSE_INLINE void name##_scan(const float *x, int n, qse_st *st) { qse_q45_scan(x, n, st, five, has_m); }              \
    QSE_INLINE void name##_emit(const float *x, uint8_t *b, int n, const float *pf, const qse_st *st)                   \
    {                                                                                                                  \
        qse_q45_emit(x, b, n, pf, st, five, has_m);                                                                    \
    }                                                                                                                  \
    QSE_TYPE2(name, 16)
QSE_Q45(qse_q4_0, 0, 0)
QSE_Q45(qse_q4_1, 0, 1)
QSE_Q45(qse_q5_0, 1, 0)
QSE_Q45(qse_q5_1, 1, 1)

/* software prefetch into L1, this many floats ahead of the group being
   encoded (the hardware prefetchers alone left the second pass idling the
   memory bus: see test_se.c's timing) */
#ifndef QSE_PF_AHEAD
#define QSE_PF_AHEAD 2048
#endif

static __attribute__((unused)) int quant__se_enc_avx512(unsigned t, const float *x, uint8_t *b, size_t nb)
{
    void (*full)(const float *, uint8_t *, const float *) = 0;
    void (*full2)(const float *, uint8_t *, const float *, const qse_st *, const float *, qse_st *) = 0;
    void (*first)(const float *, qse_st *) = 0;
    void (*part)(const float *, uint8_t *, int);
    qse_st st[2];
    size_t g, be, bb, i, ng, ahead = QSE_PF_AHEAD, n;
    switch (t) {
    case QUANT_Q8_0: full2 = qse_q8_0_full2; first = qse_q8_0_first; part = qse_q8_0_part; g = 16; be = 32; bb = 34; break;
    case QUANT_Q4_0: full2 = qse_q4_0_full2; first = qse_q4_0_first; part = qse_q4_0_part; g = 16; be = 32; bb = 18; break;
    case QUANT_Q4_1: full2 = qse_q4_1_full2; first = qse_q4_1_first; part = qse_q4_1_part; g = 16; be = 32; bb = 20; break;
    case QUANT_Q5_0: full2 = qse_q5_0_full2; first = qse_q5_0_first; part = qse_q5_0_part; g = 16; be = 32; bb = 22; break;
    case QUANT_Q5_1: full2 = qse_q5_1_full2; first = qse_q5_1_first; part = qse_q5_1_part; g = 16; be = 32; bb = 24; break;
    case QUANT_MXFP4: full2 = qse_mxfp4_full2; first = qse_mxfp4_first; part = qse_mxfp4_part; g = 16; be = 32; bb = 17; break;
    case QUANT_NVFP4_BLOCK: full2 = qse_nvfp4_full2; first = qse_nvfp4_first; part = qse_nvfp4_part; g = 4; be = 64; bb = 36; break;
    case QUANT_Q8_K: full = qse_q8_K_full; part = qse_q8_K_part; g = 16; be = 256; bb = 292; break;
    default: return 0;
    }
    ng = nb / g;
    n = nb * be;
    ahead -= ahead % (g * be); /* whole groups, at least one */
    if (!ahead) ahead = g * be;
    if (full2) {
        if (ng) first(x, &st[0]);
        for (i = 0; i < ng; ++i) {
            const size_t o = i * g * be;
            full2(x + o, b + i * g * bb, o + ahead + g * be <= n ? x + o + ahead : (const float *)0, &st[i & 1],
                  i + 1 < ng ? x + o + g * be : (const float *)0, &st[(i + 1) & 1]);
        }
    } else
        for (i = 0; i < ng; ++i) {
            const size_t o = i * g * be;
            full(x + o, b + i * g * bb, o + ahead + g * be <= n ? x + o + ahead : (const float *)0);
        }
    if (nb % g) part(x + ng * g * be, b + ng * g * bb, (int)(nb % g));
    return 1;
}

#  if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#    pragma GCC diagnostic pop
#  endif
#else
#  define QUANT__BLK_ENC512 0
#endif

/* nb blocks of type t encoded from x into dst, bytes as quant__blk_encode
   writes them; 0 for a type this pass leaves to the scalar code */
QUANT__PRIVATE int quant__simd_blk_enc(unsigned t, const float *x, uint8_t *dst, size_t nb)
{
#if QUANT__BLK_ENC512
    return quant__kq_enc_avx512(t, x, dst, nb) || quant__se_enc_avx512(t, x, dst, nb);
#else
    (void)t; (void)x; (void)dst; (void)nb;
    return 0;
#endif
}
#undef QUANT__BLK_ENC512
#elif QUANT__PASS == QUANT_SIMD_AVX2
/* AVX2 decoders of ggml's blocks: the scalar code's arithmetic, eight
   lanes at a time. Every element's integer or table level becomes a float
   exactly; the products and sums are the scalar code's own, in its order,
   and a product that a sum follows passes through QUANT__VFENCE, so that
   no FMA is formed. The scales come from the scalar code's helpers. The
   output is y from element `at` on: o is 0 for f32, 1 bf16, 2 f16, each
   vector rounded as quant__v_to_half rounds (the scalar code's way), and
   3 bf16 of values known not to be NaN (a block whose scales are finite
   gives none), which round without quant__v_to_half's NaN case. */
QUANT__INLINE __m256i quant__b2_half(__m256 v, const unsigned o)
{
    return o == 3u ? quant__v_bf16(v) : quant__v_to_half(v, o == 1u);
}
/* 16 elements, a's 8 then b's */
QUANT__INLINE void quant__b2_st2(void *y, int at, __m256 a, __m256 b, const unsigned o)
{
    if (o == 0) {
        _mm256_storeu_ps((float *)y + at, a);
        _mm256_storeu_ps((float *)y + at + 8, b);
    } else /* packus interleaves the 128-bit halves: a0-3 b0-3 a4-7 b4-7 */
        _mm256_storeu_si256((__m256i *)(void *)((uint16_t *)y + at),
                            _mm256_permute4x64_epi64(_mm256_packus_epi32(quant__b2_half(a, o), quant__b2_half(b, o)), 0xD8));
}
/* elements at..at+15 = d * the 16 signed bytes of v */
QUANT__INLINE void quant__b2_mul16(void *y, int at, __m128i v, __m256 d, const unsigned o)
{
    quant__b2_st2(y, at, _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(v)), d),
                  _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_unpackhi_epi64(v, v))), d), o);
}
/* elements at..at+31 = d * the 32 signed bytes of v */
QUANT__INLINE void quant__b2_mul32(void *y, int at, __m256i v, __m256 d, const unsigned o)
{
    quant__b2_mul16(y, at, _mm256_castsi256_si128(v), d, o);
    quant__b2_mul16(y, at + 16, _mm256_extracti128_si256(v, 1), d, o);
}
/* elements at..at+15 = dl * v - ml, v 16 bytes 0..127 (Q2_K, Q4_K, Q5_K) */
QUANT__INLINE void quant__b2_dm16(void *y, int at, __m128i v, __m256 dl, __m256 ml, const unsigned o)
{
    __m256 a = _mm256_mul_ps(dl, _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(v)));
    __m256 b = _mm256_mul_ps(dl, _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_unpackhi_epi64(v, v))));
    QUANT__VFENCE(a);
    QUANT__VFENCE(b);
    quant__b2_st2(y, at, _mm256_sub_ps(a, ml), _mm256_sub_ps(b, ml), o);
}
/* the 16 bytes at q split into low nibbles (*lo) and high (*hi) */
QUANT__INLINE void quant__b2_nib(const uint8_t *q, __m128i *lo, __m128i *hi)
{
    const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)q), m = _mm_set1_epi8(15);
    *lo = _mm_and_si128(b, m);
    *hi = _mm_and_si128(_mm_srli_epi16(b, 4), m);
}
/* the 32 bits of qh as bytes, 16 where a bit is set */
QUANT__INLINE __m256i quant__b2_bits16(uint32_t qh)
{
    const __m256i sel = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
                                         2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
    const __m256i bit = _mm256_set1_epi64x((long long)0x8040201008040201ull);
    const __m256i v = _mm256_shuffle_epi8(_mm256_set1_epi32((int)qh), sel);
    return _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(v, bit), bit), _mm256_set1_epi8(16));
}
QUANT__INLINE __m256i quant__b2_ld32(const uint8_t *q) { return _mm256_loadu_si256((const __m256i *)(const void *)q); }

/* Q4_0, Q4_1, Q5_0, Q5_1 */
QUANT__INLINE void quant__b2_q45(const uint8_t *b, void *y, const int five, const int has_m, const unsigned o)
{
    const float d = quant__gh(b), m = has_m ? quant__gh(b + 2) : 0.0f;
    const int off = has_m ? 0 : five ? 16 : 8;
    __m128i lo, hi;
    __m256i v;
    quant__b2_nib(b + 2 + 2 * has_m + 4 * five, &lo, &hi);
    v = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
    if (five) v = _mm256_or_si256(v, quant__b2_bits16(quant__ld4(b + 2 + 2 * has_m)));
    if (off) v = _mm256_sub_epi8(v, _mm256_set1_epi8((char)off));
    if (!has_m) {
        quant__b2_mul32(y, 0, v, _mm256_set1_ps(d), o);
        return;
    }
    {
        const __m256 vd = _mm256_set1_ps(d), vm = _mm256_set1_ps(m);
        const int fin = d - d == 0.0f; /* no product is NaN then */
        int k;
        for (k = 0; k < 2; ++k) {
            const __m128i h = k ? _mm256_extracti128_si256(v, 1) : _mm256_castsi256_si128(v);
            __m256 p = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(h)), vd);
            __m256 r = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_unpackhi_epi64(h, h))), vd);
            QUANT__VFENCE(p);
            QUANT__VFENCE(r);
            if (fin) quant__b2_st2(y, 16 * k, _mm256_add_ps(p, vm), _mm256_add_ps(r, vm), o);
            else /* a NaN product stays itself, as quant__gadd keeps it */
                quant__b2_st2(y, 16 * k, _mm256_blendv_ps(_mm256_add_ps(p, vm), p, _mm256_cmp_ps(p, p, _CMP_UNORD_Q)),
                              _mm256_blendv_ps(_mm256_add_ps(r, vm), r, _mm256_cmp_ps(r, r, _CMP_UNORD_Q)), o);
        }
    }
}
/* Q8_0 (n32 1) and Q8_K (8): d * q */
QUANT__INLINE void quant__b2_q8(const uint8_t *q, float d, int n32, void *y, const unsigned o)
{
    const __m256 vd = _mm256_set1_ps(d);
    int j;
    for (j = 0; j < n32; ++j) quant__b2_mul32(y, 32 * j, quant__b2_ld32(q + 32 * j), vd, o);
}
/* 32 elements from 16 bytes of nibble indices into a table of 16 signed
   byte levels (IQ4_NL, IQ4_XS, MXFP4): d * level */
QUANT__INLINE void quant__b2_lut32(const uint8_t *q, __m128i tab, float d, void *y, int at, const unsigned o)
{
    const __m256 vd = _mm256_set1_ps(d);
    __m128i lo, hi;
    quant__b2_nib(q, &lo, &hi);
    quant__b2_mul16(y, at, _mm_shuffle_epi8(tab, lo), vd, o);
    quant__b2_mul16(y, at + 16, _mm_shuffle_epi8(tab, hi), vd, o);
}
QUANT__INLINE __m128i quant__b2_tab(const signed char *t) { return _mm_loadu_si128((const __m128i *)(const void *)t); }
QUANT__INLINE void quant__b2_nvfp4(const uint8_t *b, void *y, const unsigned o)
{
    const __m128i tab = quant__b2_tab(quant__kv_fp4), m = _mm_set1_epi8(15);
    int n;
    for (n = 0; n < 4; ++n) {
        const __m256 vd = _mm256_set1_ps(quant__ue4m3_half(b[n]));
        const __m128i q = _mm_loadl_epi64((const __m128i *)(const void *)(b + 4 + 8 * n));
        const __m128i v = _mm_shuffle_epi8(tab, _mm_unpacklo_epi64(_mm_and_si128(q, m), _mm_and_si128(_mm_srli_epi16(q, 4), m)));
        quant__b2_mul16(y, 16 * n, v, vd, o);
    }
}
QUANT__INLINE void quant__b2_iq4xs(const uint8_t *b, void *y, const unsigned o)
{
    const __m128i tab = quant__b2_tab(quant__kv_iq4);
    const unsigned sh = (unsigned)(b[2] | b[3] << 8);
    const float d = quant__gh(b);
    int n;
    for (n = 0; n < 8; ++n) {
        const int ls = (int)(((unsigned)b[4 + n / 2] >> 4 * (n % 2) & 15u) | (sh >> 2 * n & 3u) << 4);
        quant__b2_lut32(b + 8 + 16 * n, tab, d * (float)(ls - 32), y, 32 * n, o);
    }
}
/* Q2_K (k2) and Q3_K: per 128 elements four 2-bit planes of 32 bytes,
   each plane two runs of 16 with a scale each */
QUANT__INLINE void quant__b2_q23(const uint8_t *b, void *y, const int k2, const unsigned o)
{
    const uint8_t *q = b + (k2 ? 16 : 32);
    const float d = quant__gh(b + (k2 ? 80 : 108)), m = k2 ? quant__gh(b + 82) : 0.0f;
    const __m256i three = _mm256_set1_epi8(3), one = _mm256_set1_epi8(1), four = _mm256_set1_epi8(4);
    const __m256i hm = quant__b2_ld32(b);
    int n, s, at = 0;
    for (n = 0; n < 2; ++n, q += 32) {
        const __m256i Q = quant__b2_ld32(q);
        for (s = 0; s < 4; ++s, at += 32) {
            const int is = 8 * n + 2 * s;
            __m256i v = _mm256_and_si256(_mm256_srli_epi16(Q, 2 * s), three);
            if (k2) {
                quant__b2_dm16(y, at, _mm256_castsi256_si128(v), _mm256_set1_ps(d * (float)(b[is] & 15u)),
                               _mm256_set1_ps(quant__gm(m, (float)(b[is] >> 4))), o);
                quant__b2_dm16(y, at + 16, _mm256_extracti128_si256(v, 1), _mm256_set1_ps(d * (float)(b[is + 1] & 15u)),
                               _mm256_set1_ps(quant__gm(m, (float)(b[is + 1] >> 4))), o);
            } else { /* the level - 4 unless the element's hmask bit is set */
                const __m256i h = _mm256_and_si256(_mm256_srli_epi16(hm, 4 * n + s), one);
                v = _mm256_sub_epi8(_mm256_add_epi8(v, _mm256_slli_epi16(h, 2)), four);
                quant__b2_mul16(y, at, _mm256_castsi256_si128(v), _mm256_set1_ps(d * (float)quant__k3_scale(b + 96, is)), o);
                quant__b2_mul16(y, at + 16, _mm256_extracti128_si256(v, 1),
                                _mm256_set1_ps(d * (float)quant__k3_scale(b + 96, is + 1)), o);
            }
        }
    }
}
/* Q4_K and Q5_K: eight runs of 32 with a scale and a min each */
QUANT__INLINE void quant__b2_q4k(const uint8_t *b, void *y, const int k5, const unsigned o)
{
    const uint8_t *q = b + (k5 ? 48 : 16);
    const float d = quant__gh(b), m = quant__gh(b + 2);
    const __m256i m4 = _mm256_set1_epi8(15), sixteen = _mm256_set1_epi8(16);
    const __m256i qh = k5 ? quant__b2_ld32(b + 16) : _mm256_setzero_si256();
    int n;
    for (n = 0; n < 8; ++n) {
        const __m256i Q = quant__b2_ld32(q + 32 * (n >> 1));
        unsigned sc, mn;
        __m256i v;
        __m256 dl, ml;
        quant__k4_scale(b + 4, n, &sc, &mn);
        dl = _mm256_set1_ps(d * (float)sc);
        ml = _mm256_set1_ps(quant__gm(m, (float)mn));
        v = _mm256_and_si256(n & 1 ? _mm256_srli_epi16(Q, 4) : Q, m4);
        if (k5) v = _mm256_or_si256(v, _mm256_and_si256(_mm256_slli_epi16(_mm256_srli_epi16(qh, n), 4), sixteen));
        quant__b2_dm16(y, 32 * n, _mm256_castsi256_si128(v), dl, ml, o);
        quant__b2_dm16(y, 32 * n + 16, _mm256_extracti128_si256(v, 1), dl, ml, o);
    }
}
/* Q6_K: two halves of 128, each four runs of 32 of 6-bit levels - 32 with
   a signed scale per 16 */
QUANT__INLINE void quant__b2_q6k(const uint8_t *b, void *y, const unsigned o)
{
    const int8_t *sc = (const int8_t *)(b + 192);
    const float d = quant__gh(b + 208);
    const __m256i m4 = _mm256_set1_epi8(15), three = _mm256_set1_epi8(3), k32 = _mm256_set1_epi8(32);
    int n, j;
    for (n = 0; n < 2; ++n, sc += 8) {
        const __m256i l0 = quant__b2_ld32(b + 64 * n), l1 = quant__b2_ld32(b + 64 * n + 32);
        const __m256i qh = quant__b2_ld32(b + 128 + 32 * n);
        for (j = 0; j < 4; ++j) {
            const __m256i l = j & 1 ? l1 : l0;
            const __m256i lo = _mm256_and_si256(j & 2 ? _mm256_srli_epi16(l, 4) : l, m4);
            const __m256i hi = _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 2 * j), three), 4);
            const __m256i v = _mm256_sub_epi8(_mm256_or_si256(lo, hi), k32);
            const int at = 128 * n + 32 * j;
            quant__b2_mul16(y, at, _mm256_castsi256_si128(v), _mm256_set1_ps(d * (float)sc[2 * j]), o);
            quant__b2_mul16(y, at + 16, _mm256_extracti128_si256(v, 1), _mm256_set1_ps(d * (float)sc[2 * j + 1]), o);
        }
    }
}

/* the f16 at b is finite; with p, so is the f16 after it */
QUANT__INLINE int quant__b2_fin(const uint8_t *b, const int p)
{
    return (b[1] & 0x7Cu) != 0x7Cu && (!p || (b[3] & 0x7Cu) != 0x7Cu);
}
/* nb blocks of type t decoded into y (o as quant__b2_st: 0, 1 or 2); 0
   for a type with no decoder here. To bf16, a block whose scales are
   finite takes the rounding without the NaN case (O 3); e8m0 and UE4M3
   scales always are. */
QUANT__INLINE int quant__b2_dec(unsigned t, const uint8_t *b, void *y, size_t nb, const unsigned o)
{
    const size_t bb = quant__blk_bytes(t), step = quant__blk(t) * (o ? 2u : 4u);
    size_t k;
#define QUANT__B2_LOOP(fin, call)                                                                                      \
    for (k = 0; k < nb; ++k, b += bb, y = (char *)y + step) {                                                          \
        if (o != 1u || !(fin)) {                                                                                       \
            const unsigned O = o;                                                                                      \
            call;                                                                                                      \
        } else {                                                                                                       \
            const unsigned O = 3u;                                                                                     \
            call;                                                                                                      \
        }                                                                                                              \
    }                                                                                                                  \
    break
    switch (t) {
    case QUANT_Q4_0: QUANT__B2_LOOP(quant__b2_fin(b, 0), quant__b2_q45(b, y, 0, 0, O));
    case QUANT_Q4_1: QUANT__B2_LOOP(quant__b2_fin(b, 1), quant__b2_q45(b, y, 0, 1, O));
    case QUANT_Q5_0: QUANT__B2_LOOP(quant__b2_fin(b, 0), quant__b2_q45(b, y, 1, 0, O));
    case QUANT_Q5_1: QUANT__B2_LOOP(quant__b2_fin(b, 1), quant__b2_q45(b, y, 1, 1, O));
    case QUANT_Q8_0: QUANT__B2_LOOP(quant__b2_fin(b, 0), quant__b2_q8(b + 2, quant__gh(b), 1, y, O));
    case QUANT_Q8_K: QUANT__B2_LOOP((b[3] & 0x7Fu) != 0x7Fu || b[2] < 0x80u, quant__b2_q8(b + 4, quant__float(quant__ld4(b)), 8, y, O));
    case QUANT_Q2_K: QUANT__B2_LOOP(quant__b2_fin(b + 80, 1), quant__b2_q23(b, y, 1, O));
    case QUANT_Q3_K: QUANT__B2_LOOP(quant__b2_fin(b + 108, 0), quant__b2_q23(b, y, 0, O));
    case QUANT_Q4_K: QUANT__B2_LOOP(quant__b2_fin(b, 1), quant__b2_q4k(b, y, 0, O));
    case QUANT_Q5_K: QUANT__B2_LOOP(quant__b2_fin(b, 1), quant__b2_q4k(b, y, 1, O));
    case QUANT_Q6_K: QUANT__B2_LOOP(quant__b2_fin(b + 208, 0), quant__b2_q6k(b, y, O));
    case QUANT_IQ4_NL: QUANT__B2_LOOP(quant__b2_fin(b, 0), quant__b2_lut32(b + 2, quant__b2_tab(quant__kv_iq4), quant__gh(b), y, 0, O));
    case QUANT_IQ4_XS: QUANT__B2_LOOP(quant__b2_fin(b, 0), quant__b2_iq4xs(b, y, O));
    case QUANT_MXFP4: QUANT__B2_LOOP(1, quant__b2_lut32(b + 1, quant__b2_tab(quant__kv_fp4), quant__e8m0_half(b[0]), y, 0, O));
    case QUANT_NVFP4_BLOCK: QUANT__B2_LOOP(1, quant__b2_nvfp4(b, y, O));
    default: return 0;
    }
#undef QUANT__B2_LOOP
    return 1;
}
/* o: 0 f32, 1 bf16, 2 f16 */
QUANT__PRIVATE int quant__simd_blk_dec(unsigned t, const uint8_t *src, void *dst, size_t nb, unsigned o)
{
    return o == 0 ? quant__b2_dec(t, src, dst, nb, 0u) : o == 1 ? quant__b2_dec(t, src, dst, nb, 1u)
                                                       : quant__b2_dec(t, src, dst, nb, 2u);
}
/* AVX2 encoders of Q8_0 and Q8_K: the scalar code's operations eight
   lanes at a time. A block's largest magnitude is the integer max of the
   magnitudes' bits, which orders floats that are not NaN as their
   values; a Q8_0 block holding a NaN (whose running max the scalar code
   restarts after it) goes to the scalar code. */
QUANT__INLINE __m256i quant__b2_abs(__m256 v) { return _mm256_and_si256(_mm256_castps_si256(v), _mm256_set1_epi32(0x7FFFFFFF)); }
QUANT__INLINE int32_t quant__b2_hmax(__m256i m)
{
    m = _mm256_max_epi32(m, _mm256_permute2x128_si256(m, m, 1));
    m = _mm256_max_epi32(m, _mm256_shuffle_epi32(m, 0x4E));
    m = _mm256_max_epi32(m, _mm256_shuffle_epi32(m, 0xB1));
    return _mm256_cvtsi256_si32(m);
}
/* the low bytes of 32 int32 lanes, in order */
QUANT__INLINE __m256i quant__b2_bytes(__m256i a, __m256i b, __m256i c, __m256i d)
{
    const __m256i ff = _mm256_set1_epi32(0xFF);
    const __m256i ab = _mm256_packus_epi32(_mm256_and_si256(a, ff), _mm256_and_si256(b, ff));
    const __m256i cd = _mm256_packus_epi32(_mm256_and_si256(c, ff), _mm256_and_si256(d, ff));
    return _mm256_permutevar8x32_epi32(_mm256_packus_epi16(ab, cd), _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}
/* quant__gt(quant__roundf(v)): half away from zero below 2^23, where
   0.5 - 2^-25 (which a + 0.5 rounds up to 1) gives 0; v itself above,
   truncated as cvttps2dq does (NaN and out of range: INT32_MIN) */
QUANT__INLINE __m256i quant__b2_round(__m256 v)
{
    const __m256i ab = quant__b2_abs(v);
    const __m256 a = _mm256_castsi256_ps(ab);
    __m256i r = _mm256_cvttps_epi32(_mm256_add_ps(a, _mm256_set1_ps(0.5f)));
    r = _mm256_add_epi32(r, _mm256_cmpeq_epi32(ab, _mm256_set1_epi32(0x3EFFFFFF)));
    r = _mm256_sign_epi32(r, _mm256_castps_si256(v));
    return _mm256_blendv_epi8(r, _mm256_cvttps_epi32(v),
                              _mm256_castps_si256(_mm256_cmp_ps(a, _mm256_set1_ps(8388608.0f), _CMP_NLT_UQ)));
}
QUANT__INLINE void quant__b2_q8_0(const float *x, uint8_t *b)
{
    __m256 v[4], vid;
    float d, id;
    int j;
    for (j = 0; j < 4; ++j) v[j] = _mm256_loadu_ps(x + 8 * j);
    {
        const int32_t a = quant__b2_hmax(_mm256_max_epi32(_mm256_max_epi32(quant__b2_abs(v[0]), quant__b2_abs(v[1])),
                                                          _mm256_max_epi32(quant__b2_abs(v[2]), quant__b2_abs(v[3]))));
        if (a > 0x7F800000) {
            quant__blk_encode(QUANT_Q8_0, x, b);
            return;
        }
        d = quant__float((uint32_t)a) / 127.0f;
    }
    id = d != 0 ? 1.0f / d : 0.0f;
    quant__gh_put(b, d);
    vid = _mm256_set1_ps(id);
    _mm256_storeu_si256((__m256i *)(void *)(b + 2),
                        quant__b2_bytes(quant__b2_round(_mm256_mul_ps(v[0], vid)), quant__b2_round(_mm256_mul_ps(v[1], vid)),
                                        quant__b2_round(_mm256_mul_ps(v[2], vid)), quant__b2_round(_mm256_mul_ps(v[3], vid))));
}
/* eight Q8_0 blocks: their maxima in one vector (a tree of maxima over the
   blocks' vectors), then the eight scales, inverses and f16 codes at once;
   a NaN in any of them sends the eight to quant__b2_q8_0 */
QUANT__INLINE void quant__b2_q8_0x8(const float *x, uint8_t *b)
{
    __m256i m[8], M;
    __m256 d;
    float id[8];
    uint16_t h[8];
    int k;
    for (k = 0; k < 8; ++k) {
        const float *p = x + 32 * k;
        m[k] = _mm256_max_epi32(_mm256_max_epi32(quant__b2_abs(_mm256_loadu_ps(p)), quant__b2_abs(_mm256_loadu_ps(p + 8))),
                                _mm256_max_epi32(quant__b2_abs(_mm256_loadu_ps(p + 16)), quant__b2_abs(_mm256_loadu_ps(p + 24))));
    }
    for (k = 0; k < 4; ++k) /* block 2k's maxima in lanes 0, 2 of each half, block 2k + 1's in 1, 3 */
        m[k] = _mm256_max_epi32(_mm256_unpacklo_epi32(m[2 * k], m[2 * k + 1]), _mm256_unpackhi_epi32(m[2 * k], m[2 * k + 1]));
    for (k = 0; k < 2; ++k) /* block 4k + i's in lane i of each half */
        m[k] = _mm256_max_epi32(_mm256_unpacklo_epi64(m[2 * k], m[2 * k + 1]), _mm256_unpackhi_epi64(m[2 * k], m[2 * k + 1]));
    M = _mm256_max_epi32(_mm256_permute2x128_si256(m[0], m[1], 0x20), _mm256_permute2x128_si256(m[0], m[1], 0x31));
    if (_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(M, _mm256_set1_epi32(0x7F800000))))) {
        for (k = 0; k < 8; ++k) quant__b2_q8_0(x + 32 * k, b + 34 * k);
        return;
    }
    d = _mm256_div_ps(_mm256_castsi256_ps(M), _mm256_set1_ps(127.0f));
    _mm256_storeu_ps(id, _mm256_and_ps(_mm256_div_ps(_mm256_set1_ps(1.0f), d), _mm256_cmp_ps(d, _mm256_setzero_ps(), _CMP_NEQ_OQ)));
#if QUANT__DISPATCH || defined(__F16C__) /* every dispatch pass has F16C; a forced -mavx2 build may not */
    _mm_storeu_si128((__m128i *)(void *)h, _mm256_cvtps_ph(d, _MM_FROUND_TO_NEAREST_INT)); /* nearest even */
#else
    {
        float df[8];
        _mm256_storeu_ps(df, d);
        for (k = 0; k < 8; ++k) h[k] = quant__f32_to_f16(df[k]);
    }
#endif
    for (k = 0; k < 8; ++k) {
        const float *p = x + 32 * k;
        const __m256 vid = _mm256_set1_ps(id[k]);
        uint8_t *q = b + 34 * k;
        q[0] = (uint8_t)h[k];
        q[1] = (uint8_t)(h[k] >> 8);
        _mm256_storeu_si256((__m256i *)(void *)(q + 2),
                            quant__b2_bytes(quant__b2_round(_mm256_mul_ps(_mm256_loadu_ps(p), vid)),
                                            quant__b2_round(_mm256_mul_ps(_mm256_loadu_ps(p + 8), vid)),
                                            quant__b2_round(_mm256_mul_ps(_mm256_loadu_ps(p + 16), vid)),
                                            quant__b2_round(_mm256_mul_ps(_mm256_loadu_ps(p + 24), vid))));
    }
}
/* quant__gn(p) capped at 127: round to nearest even through 1.5 * 2^23,
   the low 23 bits read as ggml reads them */
QUANT__INLINE __m256i quant__b2_gn(__m256 p)
{
    QUANT__VFENCE(p); /* no FMA with the product */
    {
    const __m256i u = _mm256_and_si256(_mm256_castps_si256(_mm256_add_ps(p, _mm256_set1_ps(12582912.0f))),
                                       _mm256_set1_epi32(0x7FFFFF));
    return _mm256_min_epi32(_mm256_sub_epi32(u, _mm256_set1_epi32(0x400000)), _mm256_set1_epi32(127));
    }
}
QUANT__INLINE void quant__b2_q8_k(const float *x, uint8_t *b)
{
    const __m256i inf1 = _mm256_set1_epi32(0x7F800001);
    __m256i m = _mm256_setzero_si256(), A;
    __m256 vis;
    float is;
    int32_t a;
    int j, at = 0;
    /* the largest magnitude that is not NaN, and the first element with it */
    for (j = 0; j < 256; j += 8) {
        const __m256i ab = quant__b2_abs(_mm256_loadu_ps(x + j));
        m = _mm256_max_epi32(m, _mm256_and_si256(ab, _mm256_cmpgt_epi32(inf1, ab)));
    }
    a = quant__b2_hmax(m);
    if (a == 0) {
        for (j = 0; j < 288; j += 32) _mm256_storeu_si256((__m256i *)(void *)(b + j), _mm256_setzero_si256());
        quant__st4(b + 288, 0); /* ggml leaves bsums unwritten: 0 here */
        return;
    }
    A = _mm256_set1_epi32(a);
    for (j = 0; j < 256; j += 8) {
        int k = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(quant__b2_abs(_mm256_loadu_ps(x + j)), A)));
        if (k) {
            for (at = j; !(k & 1); k >>= 1) ++at;
            break;
        }
    }
    is = -127.0f / x[at];
    vis = _mm256_set1_ps(is);
    for (j = 0; j < 256; j += 32) {
        const __m256i q = quant__b2_bytes(quant__b2_gn(_mm256_mul_ps(vis, _mm256_loadu_ps(x + j))),
                                          quant__b2_gn(_mm256_mul_ps(vis, _mm256_loadu_ps(x + j + 8))),
                                          quant__b2_gn(_mm256_mul_ps(vis, _mm256_loadu_ps(x + j + 16))),
                                          quant__b2_gn(_mm256_mul_ps(vis, _mm256_loadu_ps(x + j + 24))));
        /* the sums of 16: the bytes + 128 summed by vpsadbw, less 16 * 128 */
        const __m256i s = _mm256_sad_epu8(_mm256_xor_si256(q, _mm256_set1_epi8((char)0x80)), _mm256_setzero_si256());
        const __m256i t = _mm256_sub_epi64(_mm256_add_epi64(s, _mm256_srli_si256(s, 8)), _mm256_set1_epi64x(2048));
        const uint32_t s0 = (uint32_t)_mm256_cvtsi256_si32(t), s1 = (uint32_t)_mm256_extract_epi32(t, 4);
        _mm256_storeu_si256((__m256i *)(void *)(b + 4 + j), q);
        quant__st4(b + 260 + j / 8, (s0 & 0xFFFFu) | s1 << 16);
    }
    quant__st4(b, quant__bits(1 / is));
}
/* quant__amax of the 32 floats (v their four vectors): the first element
   of the largest magnitude that is not NaN, 0 when that is 0. Without a
   branch on the data: with eq the elements of that magnitude (a bit each)
   and neg the negative ones, the first is eq's lowest bit. */
QUANT__INLINE float quant__b2_amax32(const __m256 *v)
{
    const __m256i inf1 = _mm256_set1_epi32(0x7F800001);
    __m256i m = _mm256_setzero_si256(), A;
    uint32_t eq = 0, neg = 0, a;
    int j;
    for (j = 0; j < 4; ++j) {
        const __m256i ab = quant__b2_abs(v[j]);
        m = _mm256_max_epi32(m, _mm256_and_si256(ab, _mm256_cmpgt_epi32(inf1, ab)));
    }
    A = _mm256_set1_epi32(quant__b2_hmax(m));
    for (j = 0; j < 4; ++j) {
        eq |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(quant__b2_abs(v[j]), A))) << 8 * j;
        neg |= (uint32_t)_mm256_movemask_ps(v[j]) << 8 * j;
    }
    a = (uint32_t)_mm256_cvtsi256_si32(A);
    return quant__float(a | (a && (neg & eq & (0u - eq)) ? 0x80000000u : 0u)); /* +0 for a 0 */
}
/* Q4_0, Q5_0 (five), Q4_1, Q5_1 (has_m) as quant__blk_encode. The
   running min and max of Q4_1 and Q5_1 ignore NaN as minps and maxps do;
   when one of them is a zero, whose sign depends on the order the scalar
   code meets them in, the block goes to the scalar code. */
QUANT__INLINE void quant__b2_q45e(unsigned t, const float *x, uint8_t *b, const int five, const int has_m)
{
    const int top = five ? 31 : 15;
    __m256 v[4], vid, vlo = _mm256_setzero_ps(), vadd;
    __m256i e[4], B;
    float d, lo = 0, id;
    int j;
    for (j = 0; j < 4; ++j) v[j] = _mm256_loadu_ps(x + 8 * j);
    if (has_m) {
        __m256 mn = _mm256_set1_ps(3.40282347e38f), mx = _mm256_set1_ps(-3.40282347e38f);
        float hi;
        for (j = 0; j < 4; ++j) {
            mn = _mm256_min_ps(v[j], mn);
            mx = _mm256_max_ps(v[j], mx);
        }
        mn = _mm256_min_ps(mn, _mm256_permute2f128_ps(mn, mn, 1));
        mn = _mm256_min_ps(mn, _mm256_shuffle_ps(mn, mn, 0x4E));
        lo = _mm256_cvtss_f32(_mm256_min_ps(mn, _mm256_shuffle_ps(mn, mn, 0xB1)));
        mx = _mm256_max_ps(mx, _mm256_permute2f128_ps(mx, mx, 1));
        mx = _mm256_max_ps(mx, _mm256_shuffle_ps(mx, mx, 0x4E));
        hi = _mm256_cvtss_f32(_mm256_max_ps(mx, _mm256_shuffle_ps(mx, mx, 0xB1)));
        if (lo == 0 || hi == 0) {
            quant__blk_encode(t, x, b);
            return;
        }
        d = (hi - lo) / (float)top;
        quant__gh_put(b + 2, lo);
        vlo = _mm256_set1_ps(lo);
        vadd = _mm256_set1_ps(0.5f);
    } else {
        d = quant__b2_amax32(v) / (five ? -16.0f : -8.0f);
        vadd = _mm256_set1_ps(five ? 16.5f : 8.5f);
    }
    id = d != 0 ? 1.0f / d : 0.0f;
    quant__gh_put(b, d);
    vid = _mm256_set1_ps(id);
    for (j = 0; j < 4; ++j) {
        __m256 p = _mm256_mul_ps(has_m ? _mm256_sub_ps(v[j], vlo) : v[j], vid);
        __m256i r;
        QUANT__VFENCE(p);
        r = _mm256_cvttps_epi32(_mm256_add_ps(p, vadd));
        /* (int8_t) then MIN with top, except Q5_1's (uint8_t) */
        if (t != QUANT_Q5_1) r = _mm256_min_epi32(_mm256_srai_epi32(_mm256_slli_epi32(r, 24), 24), _mm256_set1_epi32(top));
        e[j] = r;
    }
    B = quant__b2_bytes(e[0], e[1], e[2], e[3]); /* each element's byte, the scalar code's v & 0xFF */
    {
        const __m128i l = _mm256_castsi256_si128(B), h = _mm256_extracti128_si256(B, 1);
        const __m128i hs = _mm_and_si128(_mm_slli_epi16(h, 4), _mm_set1_epi8((char)0xF0));
        _mm_storeu_si128((__m128i *)(void *)(b + 2 + 2 * has_m + 4 * five),
                         _mm_or_si128(five ? _mm_and_si128(l, _mm_set1_epi8(15)) : l, hs));
        /* bit 4 of each byte, to bit 7 for vpmovmskb */
        if (five) quant__st4(b + 2 + 2 * has_m, (uint32_t)_mm256_movemask_epi8(_mm256_slli_epi16(B, 3)));
    }
}
/* MXFP4 and NVFP4 as the AVX-512 encoders do them (see there): a step
   count n of each |x| (0 .. 31 after a cap) and the sign as bit 5, packed
   to bytes, then two 16-entry tables give the 3-bit magnitude code; a
   code of magnitude 0 keeps no sign, as quant__fp4_index gives +0 the
   tie with -0 */
QUANT__INLINE __m256i quant__b2_fp4(__m256i B, __m256i lo, __m256i hi)
{
    const __m256i c = _mm256_blendv_epi8(_mm256_shuffle_epi8(lo, B), _mm256_shuffle_epi8(hi, B), _mm256_slli_epi16(B, 3));
    const __m256i sg = _mm256_and_si256(_mm256_srli_epi16(B, 2), _mm256_set1_epi8(8));
    return _mm256_or_si256(c, _mm256_andnot_si256(_mm256_cmpeq_epi8(c, _mm256_setzero_si256()), sg));
}
QUANT__INLINE __m256i quant__b2_sign5(__m256 v, __m256i n)
{
    return _mm256_or_si256(_mm256_min_epi32(n, _mm256_set1_epi32(31)), _mm256_slli_epi32(_mm256_srli_epi32(_mm256_castps_si256(v), 31), 5));
}
/* n = ceil(|x| 2/d), d = 2^(e - 128) a power of two, so the product is
   exact; the exponent byte e is quant__glog2(a) + 125 from a's bits: the
   next binade when a lies within below[bin] ulps of it (bin as there) */
QUANT__INLINE void quant__b2_mxfp4e(const float *x, uint8_t *b)
{
    static const unsigned char below[8] = { 0, 1, 2, 5, 11, 22, 44, 88 };
    const __m256i lo = _mm256_setr_epi8(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5, 6, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5, 6);
    const __m256i hi = _mm256_setr_epi8(6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7);
    __m256 v[4], s;
    __m256i n[4], c;
    uint32_t A;
    int j, k, mag, e;
    for (j = 0; j < 4; ++j) v[j] = _mm256_loadu_ps(x + 8 * j);
    A = (uint32_t)quant__b2_hmax(_mm256_max_epi32(_mm256_max_epi32(quant__b2_abs(v[0]), quant__b2_abs(v[1])),
                                                   _mm256_max_epi32(quant__b2_abs(v[2]), quant__b2_abs(v[3]))));
    k = (int)(A >> 23) - 126;
    mag = k > 0 ? k - 1 : -k;
    e = (int)((A + (mag ? below[(quant__bits((float)mag) >> 23) - 127] : 0u)) >> 23) - 2;
    /* 0, subnormal, a subnormal d (e < 2), Inf or NaN: the scalar code */
    if (A < 0x00800000u || A >= 0x7F000000u || e < 2) {
        quant__blk_encode(QUANT_MXFP4, x, b);
        return;
    }
    b[0] = (uint8_t)e;
    s = _mm256_castsi256_ps(_mm256_set1_epi32((256 - e) << 23));
    for (j = 0; j < 4; ++j)
        n[j] = quant__b2_sign5(v[j], _mm256_cvttps_epi32(_mm256_round_ps(_mm256_mul_ps(_mm256_castsi256_ps(quant__b2_abs(v[j])), s),
                                                                          _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC)));
    c = quant__b2_fp4(quant__b2_bytes(n[0], n[1], n[2], n[3]), lo, hi);
    _mm_storeu_si128((__m128i *)(void *)(b + 1),
                     _mm_or_si128(_mm256_castsi256_si128(c), _mm_slli_epi16(_mm256_extracti128_si256(c, 1), 4)));
}
/* NVFP4, two blocks (eight sub-blocks of 16) at a time: lane i of one
   vector holds sub-block i's largest |x| a (the bits' integer max), its
   UE4M3 code c = quant__ue4m3_code(a / 6) and d = quant__ue4m3_half(c) =
   M 2^E as the AVX-512 encoder computes them; with s = 2^(1-E) and r =
   fl(1/M), n = ceil(|x| s) and w = (int)((n - 0.5) r) = floor((n - 1) / M)
   (0 for n = 0) count the midpoints below |x|. A block with a sub-block
   holding a NaN, or with a >= 2^24 d (a / 6 capped at 448, or Inf), goes
   to the scalar code. bs[1] 0: xs[1] is a copy not to write. */
QUANT__INLINE void quant__b2_nvfp4e(const float *const *xs, uint8_t *const *bs)
{
    const __m256i lo = _mm256_setr_epi8(0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5, 6, 6, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5, 6, 6);
    const __m256i hi = _mm256_setr_epi8(6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7);
    const __m256i seven = _mm256_set1_epi32(7), zi = _mm256_setzero_si256();
    __m256 v[16], a, sv, q, d;
    __m256i m[8], t[4], A, u, c, code, e, M, bad;
    float sf[8], rf[8];
    int32_t cf[8];
    unsigned badm;
    int i, j, k;
    for (i = 0; i < 16; ++i) v[i] = _mm256_loadu_ps(xs[i >> 3] + 8 * (i & 7));
    for (i = 0; i < 8; ++i) m[i] = _mm256_max_epi32(quant__b2_abs(v[2 * i]), quant__b2_abs(v[2 * i + 1]));
    for (i = 0; i < 4; ++i) /* the eight maxima to lanes 0 .. 7 */
        t[i] = _mm256_max_epi32(_mm256_unpacklo_epi32(m[2 * i], m[2 * i + 1]), _mm256_unpackhi_epi32(m[2 * i], m[2 * i + 1]));
    t[0] = _mm256_max_epi32(_mm256_unpacklo_epi64(t[0], t[1]), _mm256_unpackhi_epi64(t[0], t[1]));
    t[2] = _mm256_max_epi32(_mm256_unpacklo_epi64(t[2], t[3]), _mm256_unpackhi_epi64(t[2], t[3]));
    A = _mm256_max_epi32(_mm256_permute2x128_si256(t[0], t[2], 0x20), _mm256_permute2x128_si256(t[0], t[2], 0x31));
    a = _mm256_castsi256_ps(A);
    /* quant__ue4m3_code(a / 6) */
    sv = _mm256_min_ps(_mm256_div_ps(a, _mm256_set1_ps(6.0f)), _mm256_set1_ps(448.0f));
    u = _mm256_castps_si256(sv);
    q = _mm256_mul_ps(sv, _mm256_set1_ps(512.0f));
    QUANT__VFENCE(q);
    code = _mm256_min_epi32(_mm256_max_epi32(_mm256_cvttps_epi32(_mm256_add_ps(q, _mm256_set1_ps(0.5f))), zi), seven);
    c = _mm256_add_epi32(_mm256_sub_epi32(_mm256_srli_epi32(u, 20), _mm256_set1_epi32(960)), _mm256_and_si256(_mm256_srli_epi32(u, 19), _mm256_set1_epi32(1)));
    c = _mm256_min_epi32(c, _mm256_set1_epi32(120)); /* 120 and up: 0x7E */
    c = _mm256_blendv_epi8(c, _mm256_set1_epi32(0x7E), _mm256_cmpeq_epi32(c, _mm256_set1_epi32(120)));
    code = _mm256_blendv_epi8(c, code, _mm256_cmpgt_epi32(_mm256_set1_epi32(121 << 23), u)); /* a / 6 below 2^-6 */
    /* d = quant__ue4m3_half(code) */
    d = _mm256_blendv_ps(_mm256_castsi256_ps(_mm256_add_epi32(_mm256_slli_epi32(code, 20), _mm256_set1_epi32(119 << 23))),
                         _mm256_mul_ps(_mm256_cvtepi32_ps(code), _mm256_set1_ps(0.0009765625f)),
                         _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(8), code)));
    bad = _mm256_or_si256(_mm256_cmpgt_epi32(A, _mm256_set1_epi32(0x7F800000)),
                          _mm256_andnot_si256(_mm256_cmpeq_epi32(code, zi),
                                              _mm256_castps_si256(_mm256_cmp_ps(a, _mm256_mul_ps(d, _mm256_set1_ps(16777216.0f)), _CMP_GE_OQ))));
    badm = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(bad));
    /* s = 2^(1-E) (0 for c = 0), r = fl(1/M) */
    e = _mm256_srli_epi32(code, 3);
    M = _mm256_and_si256(code, seven);
    M = _mm256_blendv_epi8(_mm256_or_si256(M, _mm256_set1_epi32(8)), M, _mm256_cmpeq_epi32(e, zi));
    _mm256_storeu_ps(sf, _mm256_castsi256_ps(_mm256_andnot_si256(
                             _mm256_cmpeq_epi32(code, zi),
                             _mm256_slli_epi32(_mm256_sub_epi32(_mm256_set1_epi32(139), _mm256_max_epi32(e, _mm256_set1_epi32(1))), 23))));
    _mm256_storeu_ps(rf, _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_cvtepi32_ps(_mm256_max_epi32(M, _mm256_set1_epi32(1)))));
    _mm256_storeu_si256((__m256i *)(void *)cf, code);
    for (k = 0; k < 2; ++k) {
        uint8_t *b = bs[k];
        if (!b) continue;
        if (badm >> 4 * k & 15u) {
            quant__blk_encode(QUANT_NVFP4_BLOCK, xs[k], b);
            continue;
        }
        for (j = 0; j < 4; ++j) b[j] = (uint8_t)cf[4 * k + j];
        for (j = 0; j < 2; ++j) { /* sub-blocks 2j and 2j + 1 */
            const int sb = 4 * k + 2 * j;
            __m256i n[4], cc;
            for (i = 0; i < 4; ++i) {
                const __m256 f = _mm256_round_ps(_mm256_mul_ps(_mm256_castsi256_ps(quant__b2_abs(v[2 * sb + i])), _mm256_set1_ps(sf[sb + i / 2])),
                                                 _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC);
                n[i] = quant__b2_sign5(v[2 * sb + i], _mm256_cvttps_epi32(_mm256_mul_ps(_mm256_sub_ps(f, _mm256_set1_ps(0.5f)), _mm256_set1_ps(rf[sb + i / 2]))));
            }
            cc = quant__b2_fp4(quant__b2_bytes(n[0], n[1], n[2], n[3]), lo, hi);
            /* per lane (a sub-block): code i | code i + 8 << 4 in the low 8 bytes */
            cc = _mm256_or_si256(cc, _mm256_slli_epi16(_mm256_srli_si256(cc, 8), 4));
            _mm_storeu_si128((__m128i *)(void *)(b + 4 + 16 * j), _mm256_castsi256_si128(_mm256_permute4x64_epi64(cc, 0x08)));
        }
    }
}
/* IQ4_NL and IQ4_XS: quantize_row_iq4_nl_impl's scale search in eight
   lanes, one group of 32 a lane (eight IQ4_NL blocks, or the eight groups
   of one IQ4_XS block), each lane the scalar operations in the scalar
   order as the AVX-512 search does. quant__iq4_index(v) is the number
   of level midpoints at or below v (ties go up; x - v[lo] < v[hi] - x
   is exact for |x| < 2^8); the midpoints are multiples of 1/2, so for v
   clamped to [-144, 143] the index is a function of t = floor(2v), read
   from a table of t = -288 .. 287 (a NaN v clamps to 143, index 15, as
   there). */
#define QUANT__I4N(t) (((t) >= -231) + ((t) >= -187) + ((t) >= -148) + ((t) >= -114) + ((t) >= -84) + ((t) >= -57) + \
                       ((t) >= -32) + ((t) >= -9) + ((t) >= 14) + ((t) >= 38) + ((t) >= 63) + ((t) >= 91) + ((t) >= 122) + \
                       ((t) >= 158) + ((t) >= 202))
#define QUANT__I4Q(t) ((t) >= 202 ? 113.0f : (t) >= 158 ? 89.0f : (t) >= 122 ? 69.0f : (t) >= 91 ? 53.0f : (t) >= 63 ? 38.0f : \
                       (t) >= 38 ? 25.0f : (t) >= 14 ? 13.0f : (t) >= -9 ? 1.0f : (t) >= -32 ? -10.0f : (t) >= -57 ? -22.0f : \
                       (t) >= -84 ? -35.0f : (t) >= -114 ? -49.0f : (t) >= -148 ? -65.0f : (t) >= -187 ? -83.0f : \
                       (t) >= -231 ? -104.0f : -127.0f)
#define QUANT__I4X4(F, t) F(t), F((t) + 1), F((t) + 2), F((t) + 3)
#define QUANT__I4X16(F, t) QUANT__I4X4(F, t), QUANT__I4X4(F, (t) + 4), QUANT__I4X4(F, (t) + 8), QUANT__I4X4(F, (t) + 12)
#define QUANT__I4X64(F, t) QUANT__I4X16(F, t), QUANT__I4X16(F, (t) + 16), QUANT__I4X16(F, (t) + 32), QUANT__I4X16(F, (t) + 48)
#define QUANT__I4ALL(F) QUANT__I4X64(F, -288), QUANT__I4X64(F, -224), QUANT__I4X64(F, -160), QUANT__I4X64(F, -96), \
                        QUANT__I4X64(F, -32), QUANT__I4X64(F, 32), QUANT__I4X64(F, 96), QUANT__I4X64(F, 160), QUANT__I4X64(F, 224)
static const float quant__b2_i4q[576] = { QUANT__I4ALL(QUANT__I4Q) };
static const int32_t quant__b2_i4n[576] = { QUANT__I4ALL(QUANT__I4N) };
#undef QUANT__I4N
#undef QUANT__I4Q
#undef QUANT__I4X4
#undef QUANT__I4X16
#undef QUANT__I4X64
#undef QUANT__I4ALL
/* t = floor(2 v), v clamped as above */
QUANT__INLINE __m256i quant__b2_i4t(__m256 v)
{
    const __m256 c = _mm256_max_ps(_mm256_min_ps(v, _mm256_set1_ps(143.0f)), _mm256_set1_ps(-144.0f));
    return _mm256_cvttps_epi32(_mm256_round_ps(_mm256_add_ps(c, c), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC));
}
/* a product no compiler fuses with the sum it feeds */
QUANT__INLINE __m256 quant__b2_fm(__m256 a, __m256 b)
{
    __m256 p = _mm256_mul_ps(a, b);
    QUANT__VFENCE(p);
    return p;
}
/* 32 elements' indices at scale id, packed as IQ4's 16 bytes */
QUANT__INLINE void quant__b2_i4pack(const float *x, float id, uint8_t *q)
{
    const __m256 vid = _mm256_set1_ps(id);
    __m256i n[4], B;
    int j;
    for (j = 0; j < 4; ++j) n[j] = _mm256_i32gather_epi32(quant__b2_i4n + 288, quant__b2_i4t(_mm256_mul_ps(vid, _mm256_loadu_ps(x + 8 * j))), 4);
    B = quant__b2_bytes(n[0], n[1], n[2], n[3]);
    _mm_storeu_si128((__m128i *)(void *)q, _mm_or_si128(_mm256_castsi256_si128(B), _mm_slli_epi16(_mm256_extracti128_si256(B, 1), 4)));
}
/* loops over side-by-side vectors unroll (gcc -O2 does not by itself),
   so that the vectors stay in registers */
#define QUANT__B2_UNROLL _Pragma("GCC unroll 8")
/* xt[c + i] lane g <- rows[g][c + i], i < 8 */
QUANT__INLINE void quant__b2_tr8(const float *const *rows, int c, __m256 *xt)
{
    __m256 r[8], u[8];
    int g;
    QUANT__B2_UNROLL
    for (g = 0; g < 8; ++g) r[g] = _mm256_loadu_ps(rows[g] + c);
    QUANT__B2_UNROLL
    for (g = 0; g < 8; g += 2) {
        u[g] = _mm256_unpacklo_ps(r[g], r[g + 1]);
        u[g + 1] = _mm256_unpackhi_ps(r[g], r[g + 1]);
    }
    QUANT__B2_UNROLL
    for (g = 0; g < 8; g += 4) {
        r[g] = _mm256_shuffle_ps(u[g], u[g + 2], 0x44);
        r[g + 1] = _mm256_shuffle_ps(u[g], u[g + 2], 0xEE);
        r[g + 2] = _mm256_shuffle_ps(u[g + 1], u[g + 3], 0x44);
        r[g + 3] = _mm256_shuffle_ps(u[g + 1], u[g + 3], 0xEE);
    }
    QUANT__B2_UNROLL
    for (g = 0; g < 4; ++g) {
        xt[c + g] = _mm256_permute2f128_ps(r[g], r[g + 4], 0x20);
        xt[c + g + 4] = _mm256_permute2f128_ps(r[g], r[g + 4], 0x31);
    }
}
/* sc[g] the scale the search picks for rows[g] (32 floats each); returns
   the rows holding an infinity or a NaN (bit g), for the scalar code */
QUANT__INLINE unsigned quant__b2_i4search(const float *const *rows, float *sc)
{
    const __m256 z = _mm256_setzero_ps();
    __m256 xt[32], w[32], v = z, mx = z, flat, d, id, best = z, badv = z;
    unsigned bad;
    int c, i, t;
    for (c = 0; c < 32; c += 8) quant__b2_tr8(rows, c, xt);
    for (i = 0; i < 32; ++i)
        badv = _mm256_or_ps(badv, _mm256_castsi256_ps(_mm256_cmpgt_epi32(quant__b2_abs(xt[i]), _mm256_set1_epi32(0x7F7FFFFF))));
    bad = (unsigned)_mm256_movemask_ps(badv);
    for (i = 0; i < 32; ++i) {
        __m256 ax, k;
        if (bad) xt[i] = _mm256_andnot_ps(badv, xt[i]); /* those lanes search zeros */
        ax = _mm256_castsi256_ps(quant__b2_abs(xt[i]));
        k = _mm256_cmp_ps(ax, v, _CMP_GT_OQ); /* the first largest |x| */
        v = _mm256_blendv_ps(v, ax, k);
        mx = _mm256_blendv_ps(mx, xt[i], k);
        w[i] = quant__b2_fm(xt[i], xt[i]);
    }
    flat = _mm256_cmp_ps(v, _mm256_set1_ps(1e-15f), _CMP_LT_OQ);
    mx = _mm256_blendv_ps(mx, _mm256_set1_ps(1.0f), flat);
    d = _mm256_div_ps(_mm256_xor_ps(mx, _mm256_set1_ps(-0.0f)), _mm256_set1_ps(-127.0f));
    id = _mm256_div_ps(_mm256_set1_ps(1.0f), d);
    for (t = -8; t <= 7; ++t) {
        __m256 sqx = z, sq2 = z, pos;
        if (t > -8) id = _mm256_div_ps(_mm256_set1_ps((float)(t - 127)), mx);
        for (i = 0; i < 32; ++i) {
            const __m256 q = _mm256_i32gather_ps(quant__b2_i4q + 288, quant__b2_i4t(_mm256_mul_ps(id, xt[i])), 4);
            const __m256 wq = quant__b2_fm(w[i], q);
            sqx = _mm256_add_ps(sqx, quant__b2_fm(wq, xt[i]));
            sq2 = _mm256_add_ps(sq2, quant__b2_fm(wq, q));
        }
        pos = _mm256_cmp_ps(sq2, z, _CMP_GT_OQ);
        if (t > -8) pos = _mm256_and_ps(pos, _mm256_cmp_ps(quant__b2_fm(sqx, sqx), quant__b2_fm(best, sq2), _CMP_GT_OQ));
        else d = z;
        /* sq2 > 0 where pos is set; elsewhere divide by 1, not 0 */
        d = _mm256_blendv_ps(d, _mm256_div_ps(sqx, _mm256_blendv_ps(_mm256_set1_ps(1.0f), sq2, pos)), pos);
        best = t > -8 ? _mm256_blendv_ps(best, quant__b2_fm(d, sqx), pos) : quant__b2_fm(d, sqx);
    }
    _mm256_storeu_ps(sc, _mm256_andnot_ps(flat, d));
    return bad;
}
/* eight IQ4_NL blocks (bs[k] 0: a copy not to write) */
QUANT__INLINE void quant__b2_iq4nle(const float *const *xs, uint8_t *const *bs)
{
    float sc[8];
    const unsigned bad = quant__b2_i4search(xs, sc);
    int k;
    for (k = 0; k < 8; ++k) {
        if (!bs[k]) continue;
        if (bad >> k & 1) {
            quant__blk_encode(QUANT_IQ4_NL, xs[k], bs[k]);
            continue;
        }
        quant__gh_put(bs[k], sc[k]);
        quant__b2_i4pack(xs[k], sc[k] != 0 ? 1 / sc[k] : 0.0f, bs[k] + 2);
    }
}
/* one IQ4_XS block: its eight groups searched side by side */
QUANT__INLINE void quant__b2_iq4xse(const float *x, uint8_t *b)
{
    const float *rows[8];
    float sc[8], maxs = 0, amaxs = 0, d, id;
    unsigned sh = 0;
    int g;
    for (g = 0; g < 8; ++g) rows[g] = x + 32 * g;
    if (quant__b2_i4search(rows, sc)) {
        quant__blk_encode(QUANT_IQ4_XS, x, b);
        return;
    }
    for (g = 0; g < 8; ++g)
        if (quant__gabs(sc[g]) > amaxs) {
            amaxs = quant__gabs(sc[g]);
            maxs = sc[g];
        }
    d = -maxs / 32;
    id = d != 0 ? 1 / d : 0.0f;
    quant__gh_put(b, d);
    for (g = 0; g < 8; ++g) {
        int l = quant__gn(quant__gm(id, sc[g]));
        float dl;
        l = l < -32 ? -32 : l > 31 ? 31 : l;
        dl = d * (float)l;
        quant__b2_i4pack(x + 32 * g, dl != 0 ? 1 / dl : 0.0f, b + 8 + 16 * g);
        l += 32;
        if (g % 2 == 0) b[4 + g / 2] = (uint8_t)(l & 15);
        else b[4 + g / 2] |= (uint8_t)((l & 15) << 4);
        sh |= (unsigned)(l >> 4) << 2 * g;
    }
    b[2] = (uint8_t)sh;
    b[3] = (uint8_t)(sh >> 8);
}
/* Q6_K: make_qx_quants (quant__k_sym, nmax 32) in eight lanes, one group
   of 16 a lane, the block's two halves one after the other; |is x| <= 33
   where is = -(32 + 0.1 step) / max, so quant__gn is a rounding to nearest
   even, and it commutes with the integer clamps. The block's scales and
   levels then follow quant__k_block's Q6_K steps. A block holding an
   infinity or a NaN goes to the scalar code. */
QUANT__INLINE __m256i quant__b2_gni(__m256 v) /* quant__gn lane-wise, any v */
{
    const __m256i b = _mm256_castps_si256(_mm256_add_ps(v, _mm256_set1_ps(12582912.0f)));
    return _mm256_sub_epi32(_mm256_and_si256(b, _mm256_set1_epi32(0x7FFFFF)), _mm256_set1_epi32(0x400000));
}
QUANT__NOINLINE void quant__b2_q6ke(const float *x, uint8_t *b)
{
    const __m256 z = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    __m256 xt[2][16], w[2][16], wx[2][16], mx[2], flat[2], scale[2], best[2], bis[2];
    float sc[16], is16[16], d0, maxs = 0, amax = 0, is;
    __m256i V[8];
    unsigned fl;
    int h, i, s, j;
    for (h = 0; h < 2; ++h) {
        const float *rows[8];
        __m256 badv = z, v = z, m = z;
        for (i = 0; i < 8; ++i) rows[i] = x + 128 * h + 16 * i;
        quant__b2_tr8(rows, 0, xt[h]);
        quant__b2_tr8(rows, 8, xt[h]);
        for (i = 0; i < 16; ++i) {
            const __m256i ab = quant__b2_abs(xt[h][i]);
            const __m256 ax = _mm256_castsi256_ps(ab), k = _mm256_cmp_ps(ax, v, _CMP_GT_OQ); /* the first largest |x| */
            badv = _mm256_or_ps(badv, _mm256_castsi256_ps(_mm256_cmpgt_epi32(ab, _mm256_set1_epi32(0x7F7FFFFF))));
            v = _mm256_blendv_ps(v, ax, k);
            m = _mm256_blendv_ps(m, xt[h][i], k);
            w[h][i] = quant__b2_fm(xt[h][i], xt[h][i]);
            wx[h][i] = quant__b2_fm(w[h][i], xt[h][i]);
        }
        if (!_mm256_testz_ps(badv, badv)) {
            quant__blk_encode(QUANT_Q6_K, x, b);
            return;
        }
        flat[h] = _mm256_cmp_ps(v, _mm256_set1_ps(1e-15f), _CMP_LT_OQ);
        mx[h] = _mm256_blendv_ps(m, one, flat[h]);
    }
    for (s = 0; s <= 18; ++s) {
        const int step = s == 0 ? 0 : s <= 9 ? s - 10 : s - 9; /* 0, then -9 .. -1, 1 .. 9 */
        const float num = step == 0 ? -32.0f : -(32.0f + quant__gm(0.1f, (float)step));
        __m256 vis[2], slx[2], sl2[2];
        QUANT__B2_UNROLL
        for (h = 0; h < 2; ++h) {
            vis[h] = _mm256_div_ps(_mm256_set1_ps(num), mx[h]);
            slx[h] = sl2[h] = z;
        }
        for (i = 0; i < 16; ++i) /* the two halves side by side: four chains of sums */
            QUANT__B2_UNROLL
            for (h = 0; h < 2; ++h) {
                const __m256 l = _mm256_round_ps(_mm256_min_ps(_mm256_max_ps(_mm256_mul_ps(vis[h], xt[h][i]), _mm256_set1_ps(-32.0f)),
                                                               _mm256_set1_ps(31.0f)),
                                                 _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
                slx[h] = _mm256_add_ps(slx[h], quant__b2_fm(wx[h][i], l));
                sl2[h] = _mm256_add_ps(sl2[h], quant__b2_fm(quant__b2_fm(w[h][i], l), l));
            }
        for (h = 0; h < 2; ++h) {
            __m256 upd;
            if (step == 0) {
                upd = _mm256_cmp_ps(sl2[h], z, _CMP_NEQ_UQ);
                scale[h] = _mm256_and_ps(_mm256_div_ps(slx[h], _mm256_blendv_ps(one, sl2[h], upd)), upd);
                best[h] = quant__b2_fm(scale[h], slx[h]);
                bis[h] = vis[h];
                continue;
            }
            upd = _mm256_and_ps(_mm256_cmp_ps(sl2[h], z, _CMP_GT_OQ),
                                _mm256_cmp_ps(quant__b2_fm(slx[h], slx[h]), quant__b2_fm(best[h], sl2[h]), _CMP_GT_OQ));
            scale[h] = _mm256_blendv_ps(scale[h], _mm256_div_ps(slx[h], _mm256_blendv_ps(one, sl2[h], upd)), upd);
            best[h] = _mm256_blendv_ps(best[h], quant__b2_fm(scale[h], slx[h]), upd);
            bis[h] = _mm256_blendv_ps(bis[h], vis[h], upd);
        }
    }
    for (h = 0; h < 2; ++h) {
        _mm256_storeu_ps(sc + 8 * h, _mm256_andnot_ps(flat[h], scale[h]));
        _mm256_storeu_ps(is16 + 8 * h, bis[h]);
    }
    fl = (unsigned)_mm256_movemask_ps(flat[0]) | (unsigned)_mm256_movemask_ps(flat[1]) << 8;
    /* quant__k_block's Q6_K steps */
    for (j = 0; j < 16; ++j)
        if (quant__gabs(sc[j]) > amax) {
            amax = quant__gabs(sc[j]);
            maxs = sc[j];
        }
    for (j = 0; j < 210; ++j) b[j] = 0;
    if (amax < 1e-15f) return;
    is = -128.0f / maxs;
    quant__gh_put(b + 208, 1 / is);
    for (j = 0; j < 16; ++j) {
        const int q = quant__gn(quant__gm(is, sc[j]));
        b[192 + j] = (uint8_t)(q < 127 ? q : 127);
    }
    d0 = quant__gh(b + 208);
    for (j = 0; j < 16; j += 2) { /* the levels + 32 of groups j and j + 1 */
        __m256i e[4];
        int k;
        for (k = 0; k < 2; ++k) {
            const float d = d0 * (float)(int8_t)b[192 + j + k];
            int c;
            if (d != 0)
                for (c = 0; c < 2; ++c)
                    e[2 * k + c] = quant__b2_gni(_mm256_div_ps(_mm256_loadu_ps(x + 16 * (j + k) + 8 * c), _mm256_set1_ps(d)));
            else { /* the search's levels: 0 for a flat group */
                int32_t t[16];
                for (c = 0; c < 16; ++c) t[c] = fl >> (j + k) & 1 ? -32 : quant__gn(quant__gm(is16[j + k], x[16 * (j + k) + c]));
                e[2 * k] = _mm256_loadu_si256((const __m256i *)(const void *)t);
                e[2 * k + 1] = _mm256_loadu_si256((const __m256i *)(const void *)(t + 8));
            }
        }
        for (k = 0; k < 4; ++k)
            e[k] = _mm256_add_epi32(_mm256_min_epi32(_mm256_max_epi32(e[k], _mm256_set1_epi32(-32)), _mm256_set1_epi32(31)),
                                    _mm256_set1_epi32(32));
        V[j / 2] = quant__b2_bytes(e[0], e[1], e[2], e[3]);
    }
    {
        const __m256i m15 = _mm256_set1_epi8(15), m3 = _mm256_set1_epi8(3);
        for (j = 0; j < 2; ++j) {
            const __m256i A = V[4 * j], C = V[4 * j + 1], E = V[4 * j + 2], F = V[4 * j + 3];
            const __m256i hb = _mm256_or_si256(
                _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(A, 4), m3), _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(C, 4), m3), 2)),
                _mm256_or_si256(_mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(E, 4), m3), 4),
                                _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(F, 4), m3), 6)));
            _mm256_storeu_si256((__m256i *)(void *)(b + 64 * j),
                                _mm256_or_si256(_mm256_and_si256(A, m15), _mm256_slli_epi16(_mm256_and_si256(E, m15), 4)));
            _mm256_storeu_si256((__m256i *)(void *)(b + 64 * j + 32),
                                _mm256_or_si256(_mm256_and_si256(C, m15), _mm256_slli_epi16(_mm256_and_si256(F, m15), 4)));
            _mm256_storeu_si256((__m256i *)(void *)(b + 128 + 32 * j), hb);
        }
    }
}
/* Q2_K, Q4_K, Q5_K: make_qkx2_quants as the AVX-512 quant__kq_qkx2 runs
   it (see there for why each step is bit exact), eight groups to a
   vector: a Q4_K or Q5_K block's 8 groups of 32, or half a Q2_K block's
   16 groups of 16, the group's element i in lane g after quant__b2_tr8.
   Two such batches run side by side (two blocks of Q4_K and Q5_K, one of
   Q2_K); lane masks are compare results, a branch of the scalar code a
   blend. A block holding an infinity or a NaN goes to the scalar code. */
#define quant__b2_lt(a, b) _mm256_cmp_ps((a), (b), _CMP_LT_OQ)
#define quant__b2_gt(a, b) _mm256_cmp_ps((a), (b), _CMP_GT_OQ)
#define quant__b2_rnd(v) _mm256_round_ps((v), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define quant__b2_fabs(v) _mm256_andnot_ps(_mm256_set1_ps(-0.0f), (v))
#define quant__b2_any(m) (!_mm256_testz_ps((m), (m)))
QUANT__INLINE __m256 quant__b2_clamp(__m256 v, __m256 lo, __m256 hi) { return _mm256_min_ps(_mm256_max_ps(v, lo), hi); }
/* quant__gn lane-wise as a float, any v: the bits under 2^23's exponent
   make 2^23 + m, less 1.5 * 2^23 (exact) */
QUANT__INLINE __m256 quant__b2_gnf(__m256 v)
{
    const __m256i b = _mm256_castps_si256(_mm256_add_ps(v, _mm256_set1_ps(12582912.0f)));
    const __m256i m = _mm256_or_si256(_mm256_and_si256(b, _mm256_set1_epi32(0x7FFFFF)), _mm256_set1_epi32(0x4B000000));
    return _mm256_sub_ps(_mm256_castsi256_ps(m), _mm256_set1_ps(12582912.0f));
}
/* the n transposed vectors of a block: 0 and all zeroed when one holds an
   infinity or a NaN */
QUANT__INLINE int quant__b2_finite(__m256 *x, int n)
{
    __m256i bad = _mm256_setzero_si256();
    int i;
    for (i = 0; i < n; ++i) bad = _mm256_or_si256(bad, _mm256_cmpgt_epi32(quant__b2_abs(x[i]), _mm256_set1_epi32(0x7F7FFFFF)));
    if (_mm256_testz_si256(bad, bad)) return 1;
    for (i = 0; i < n; ++i) x[i] = _mm256_setzero_ps();
    return 0;
}
/* the first sums of a step for both batches: sl, sl2 and sxl of the
   levels clamp(gn(is (x - lo)), 0, vmax), the levels to aux; cl and ch
   say whether the clamps can act, exact that gn is the bit trick itself */
QUANT__INLINE void quant__b2_p1(const int n, const int cl, const int ch, const int exact, const __m256 *xt, const __m256 *wt,
                                __m256 *aux, const __m256 *is, const __m256 *lo, __m256 vmax, __m256 *sl, __m256 *sl2, __m256 *sxl)
{
    const __m256 z = _mm256_setzero_ps();
    int i, k;
    QUANT__B2_UNROLL
    for (k = 0; k < 2; ++k) sl[k] = sl2[k] = sxl[k] = z;
    for (i = 0; i < n; ++i)
        QUANT__B2_UNROLL
        for (k = 0; k < 2; ++k) {
            __m256 l = quant__b2_fm(is[k], _mm256_sub_ps(xt[k * n + i], lo[k])), wl;
            if (exact) l = quant__b2_clamp(quant__b2_gnf(l), z, vmax);
            else {
                if (cl) l = _mm256_max_ps(l, z);
                if (ch) l = _mm256_min_ps(l, vmax);
                l = quant__b2_rnd(l);
            }
            wl = quant__b2_fm(wt[k * n + i], l);
            aux[k * n + i] = l;
            sl[k] = _mm256_add_ps(sl[k], wl);
            sl2[k] = _mm256_add_ps(sl2[k], quant__b2_fm(wl, l));
            sxl[k] = _mm256_add_ps(sxl[k], quant__b2_fm(wl, xt[k * n + i]));
        }
}
/* quant__k_minmax in the lanes of two batches of n vectors (xt, wt; aux
   scratch). o[8 k + g], batch k's group g: o the scale, o + 16 the
   negated min, o + 32 and o + 48 the iscale and min the kept levels came
   from (0 and 0 for a flat group). Without exact, gn is a rounding, which
   needs every |is (x - lo)| below 2^22: returns 0 when one is not, and
   the search must run again with exact. */
QUANT__INLINE int quant__b2_qkx2(const int n, const int nmax, const __m256 *xt, const __m256 *wt, __m256 *aux, const float rmin,
                                 const int nstep, const int mad, const int exact, float *o)
{
    const __m256 z = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f), vmax = _mm256_set1_ps((float)nmax);
    const __m256 lim = _mm256_set1_ps(4194304.0f), top = _mm256_set1_ps((float)nmax + 0.5f), bot = _mm256_set1_ps(-0.5f);
    __m256 lo[2], hi[2], sw[2], sx[2], mnx[2], is[2], scale[2], best[2], bis[2], blo[2], flat[2], act[2], pos[2];
    __m256 sl[2], sl2[2], sxl[2], ts[2], tm[2], err[2], bad = z;
    int i, k, s;
    /* every is (x - lo) lies between those at x = hi and x = the least x
       (rounding is monotonic): bad the lanes where one may reach 2^22 */
#define QUANT__B2_BOUNDS(k, p1, p2)                                                                                    \
    bad = _mm256_or_ps(bad, _mm256_andnot_ps(_mm256_and_ps(quant__b2_lt(quant__b2_fabs(p1), lim),                     \
                                                           quant__b2_lt(quant__b2_fabs(p2), lim)), act[k]))
    QUANT__B2_UNROLL
    for (k = 0; k < 2; ++k) {
        const __m256 *x = xt + k * n, *w = wt + k * n;
        __m256 p1, p2;
        lo[k] = hi[k] = x[0];
        sw[k] = w[0];
        sx[k] = quant__b2_fm(w[0], x[0]);
        for (i = 1; i < n; ++i) {
            lo[k] = _mm256_blendv_ps(lo[k], x[i], quant__b2_lt(x[i], lo[k]));
            hi[k] = _mm256_blendv_ps(hi[k], x[i], quant__b2_gt(x[i], hi[k]));
            sw[k] = _mm256_add_ps(sw[k], w[i]);
            sx[k] = _mm256_add_ps(sx[k], quant__b2_fm(w[i], x[i]));
        }
        mnx[k] = lo[k];
        lo[k] = _mm256_min_ps(z, lo[k]); /* lo if lo <= 0: a -0 stays */
        flat[k] = _mm256_cmp_ps(hi[k], lo[k], _CMP_EQ_OQ);
        act[k] = _mm256_cmp_ps(hi[k], lo[k], _CMP_NEQ_UQ);
        is[k] = _mm256_div_ps(vmax, _mm256_blendv_ps(_mm256_sub_ps(hi[k], lo[k]), one, flat[k]));
        scale[k] = _mm256_div_ps(one, is[k]);
        p1 = quant__b2_fm(is[k], _mm256_sub_ps(hi[k], lo[k]));
        p2 = quant__b2_fm(is[k], _mm256_sub_ps(mnx[k], lo[k]));
        QUANT__B2_BOUNDS(k, p1, p2);
        best[k] = z;
        for (i = 0; i < n; ++i) {
            const __m256 p = quant__b2_fm(is[k], _mm256_sub_ps(x[i], lo[k]));
            const __m256 l = exact ? quant__b2_clamp(quant__b2_gnf(p), z, vmax) : quant__b2_rnd(quant__b2_clamp(p, z, vmax));
            __m256 e = _mm256_sub_ps(_mm256_add_ps(quant__b2_fm(scale[k], l), lo[k]), x[i]);
            e = mad ? quant__b2_fabs(e) : quant__b2_fm(e, e);
            best[k] = _mm256_add_ps(best[k], quant__b2_fm(w[i], e));
        }
        bis[k] = is[k];
        blo[k] = lo[k];
    }
    for (s = 0; s <= nstep; ++s) {
        const __m256 num = _mm256_set1_ps(rmin + quant__gm(0.1f, (float)s) + (float)nmax);
        __m256 needlo = z, needhi = z, anypos = z;
        QUANT__B2_UNROLL
        for (k = 0; k < 2; ++k) {
            __m256 p1, p2;
            is[k] = _mm256_div_ps(num, _mm256_blendv_ps(_mm256_sub_ps(hi[k], lo[k]), one, flat[k]));
            p1 = quant__b2_fm(is[k], _mm256_sub_ps(hi[k], lo[k]));
            p2 = quant__b2_fm(is[k], _mm256_sub_ps(mnx[k], lo[k]));
            QUANT__B2_BOUNDS(k, p1, p2);
            needhi = _mm256_or_ps(needhi, _mm256_andnot_ps(quant__b2_lt(_mm256_max_ps(p1, p2), top), act[k]));
            needlo = _mm256_or_ps(needlo, _mm256_and_ps(quant__b2_lt(_mm256_min_ps(p1, p2), bot), act[k]));
        }
        if (exact) quant__b2_p1(n, 1, 1, 1, xt, wt, aux, is, lo, vmax, sl, sl2, sxl);
        else switch ((quant__b2_any(needlo) ? 1 : 0) | (quant__b2_any(needhi) ? 2 : 0)) {
        case 0: quant__b2_p1(n, 0, 0, 0, xt, wt, aux, is, lo, vmax, sl, sl2, sxl); break;
        case 1: quant__b2_p1(n, 1, 0, 0, xt, wt, aux, is, lo, vmax, sl, sl2, sxl); break;
        case 2: quant__b2_p1(n, 0, 1, 0, xt, wt, aux, is, lo, vmax, sl, sl2, sxl); break;
        default: quant__b2_p1(n, 1, 1, 0, xt, wt, aux, is, lo, vmax, sl, sl2, sxl); break;
        }
        QUANT__B2_UNROLL
        for (k = 0; k < 2; ++k) {
            const __m256 D = _mm256_sub_ps(quant__b2_fm(sw[k], sl2[k]), quant__b2_fm(sl[k], sl[k]));
            __m256 tp;
            pos[k] = _mm256_and_ps(quant__b2_gt(D, z), act[k]);
            anypos = _mm256_or_ps(anypos, pos[k]);
            ts[k] = _mm256_div_ps(_mm256_sub_ps(quant__b2_fm(sw[k], sxl[k]), quant__b2_fm(sx[k], sl[k])), D);
            tm[k] = _mm256_div_ps(_mm256_sub_ps(quant__b2_fm(sl2[k], sx[k]), quant__b2_fm(sl[k], sxl[k])), D);
            tp = quant__b2_gt(tm[k], z);
            tm[k] = _mm256_andnot_ps(tp, tm[k]);
            ts[k] = _mm256_blendv_ps(ts[k], _mm256_div_ps(sxl[k], sl2[k]), tp);
            err[k] = z;
        }
        if (!quant__b2_any(anypos)) continue;
        for (i = 0; i < n; ++i)
            QUANT__B2_UNROLL
            for (k = 0; k < 2; ++k) {
                __m256 e = _mm256_sub_ps(_mm256_add_ps(quant__b2_fm(ts[k], aux[k * n + i]), tm[k]), xt[k * n + i]);
                e = mad ? quant__b2_fabs(e) : quant__b2_fm(e, e);
                err[k] = _mm256_add_ps(err[k], quant__b2_fm(wt[k * n + i], e));
            }
        QUANT__B2_UNROLL
        for (k = 0; k < 2; ++k) {
            const __m256 upd = _mm256_and_ps(pos[k], quant__b2_lt(err[k], best[k]));
            best[k] = _mm256_blendv_ps(best[k], err[k], upd);
            scale[k] = _mm256_blendv_ps(scale[k], ts[k], upd);
            bis[k] = _mm256_blendv_ps(bis[k], is[k], upd);
            blo[k] = _mm256_blendv_ps(blo[k], lo[k], upd);
            lo[k] = _mm256_blendv_ps(lo[k], tm[k], upd);
        }
    }
#undef QUANT__B2_BOUNDS
    if (!exact && quant__b2_any(bad)) return 0;
    for (k = 0; k < 2; ++k) {
        _mm256_storeu_ps(o + 8 * k, _mm256_andnot_ps(flat[k], scale[k]));
        _mm256_storeu_ps(o + 16 + 8 * k, _mm256_xor_ps(lo[k], _mm256_set1_ps(-0.0f)));
        _mm256_storeu_ps(o + 32 + 8 * k, _mm256_andnot_ps(flat[k], bis[k]));
        _mm256_storeu_ps(o + 48 + 8 * k, _mm256_andnot_ps(flat[k], blo[k]));
    }
    return 1;
}
/* the levels of 8 elements: clamp(gn((x + dm) / d), 0, nmax), or for a
   group whose stored scale is 0 the search's clamp(gn(is (x - lo))) */
QUANT__INLINE __m256i quant__b2_lev8(const float *x, float d, float dm, float is, float lo, int nmax)
{
    const __m256 v = _mm256_loadu_ps(x);
    const __m256 p = d != 0 ? _mm256_div_ps(_mm256_add_ps(v, _mm256_set1_ps(dm)), _mm256_set1_ps(d))
                            : quant__b2_fm(_mm256_set1_ps(is), _mm256_sub_ps(v, _mm256_set1_ps(lo)));
    return _mm256_min_epi32(_mm256_max_epi32(quant__b2_gni(p), _mm256_setzero_si256()), _mm256_set1_epi32(nmax));
}
/* quant__pack2 of the levels in V (32 each): c of the two 32-byte planes */
QUANT__INLINE void quant__b2_pack2(const __m256i *V, uint8_t *q, int c)
{
    int i;
    for (i = 0; i < c; ++i, V += 4)
        _mm256_storeu_si256((__m256i *)(void *)(q + 32 * i),
                            _mm256_or_si256(_mm256_or_si256(V[0], _mm256_slli_epi16(V[1], 2)),
                                            _mm256_or_si256(_mm256_slli_epi16(V[2], 4), _mm256_slli_epi16(V[3], 6))));
}
/* one Q2_K block from its search's o */
QUANT__INLINE void quant__b2_post2(const float *x, uint8_t *b, const float *o)
{
    float d0, m0;
    int j, c;
    quant__k2_pack(o, o + 16, b);
    d0 = quant__gh(b + 80);
    m0 = quant__gh(b + 82);
    for (c = 0; c < 2; ++c) { /* 2-bit planes: byte l of 32 holds elements l, l + 32, l + 64, l + 96 */
        __m256i V[4];
        for (j = 0; j < 8; j += 2) {
            const int g = 8 * c + j;
            const float d = d0 * (float)(b[g] & 15u), e = d0 * (float)(b[g + 1] & 15u);
            const float dm = quant__gm(m0, (float)(b[g] >> 4)), em = quant__gm(m0, (float)(b[g + 1] >> 4));
            const float *xg = x + 16 * g;
            V[j / 2] = quant__b2_bytes(quant__b2_lev8(xg, d, dm, o[32 + g], o[48 + g], 3), quant__b2_lev8(xg + 8, d, dm, o[32 + g], o[48 + g], 3),
                                       quant__b2_lev8(xg + 16, e, em, o[33 + g], o[49 + g], 3),
                                       quant__b2_lev8(xg + 24, e, em, o[33 + g], o[49 + g], 3));
        }
        quant__b2_pack2(V, b + 16 + 32 * c, 1);
    }
}
QUANT__NOINLINE void quant__b2_q2ke(const float *x, uint8_t *b)
{
    __m256 xt[32], wt[32], aux[32];
    float o[64];
    const float *rows[8];
    int i, k;
    for (k = 0; k < 2; ++k) {
        for (i = 0; i < 8; ++i) rows[i] = x + 128 * k + 16 * i;
        quant__b2_tr8(rows, 0, xt + 16 * k);
        quant__b2_tr8(rows, 8, xt + 16 * k);
    }
    if (!quant__b2_finite(xt, 32)) {
        quant__blk_encode(QUANT_Q2_K, x, b);
        return;
    }
    for (i = 0; i < 32; ++i) wt[i] = quant__b2_fabs(xt[i]);
    if (!quant__b2_qkx2(16, 3, xt, wt, aux, -0.5f, 15, 1, 0, o)) (void)quant__b2_qkx2(16, 3, xt, wt, aux, -0.5f, 15, 1, 1, o);
    quant__b2_post2(x, b, o);
}
/* one Q4_K or Q5_K block from its search's o, its groups at g0 */
QUANT__INLINE void quant__b2_post45(unsigned t, const float *x, uint8_t *b, const float *o, int g0)
{
    const int nmax = t == QUANT_Q4_K ? 15 : 31;
    __m256i V[8];
    float maxs = 0, maxm = 0, d0, m0;
    int j, c;
    for (j = g0; j < g0 + 8; ++j) {
        maxs = o[j] > maxs ? o[j] : maxs;
        maxm = o[16 + j] > maxm ? o[16 + j] : maxm;
    }
    quant__k4_pack(o + g0, o + 16 + g0, maxs, maxm, b);
    d0 = quant__gh(b);
    m0 = quant__gh(b + 2);
    for (j = 0; j < 8; ++j) {
        __m256i e[4];
        unsigned s, m;
        float d, dm;
        quant__k4_scale(b + 4, j, &s, &m);
        d = d0 * (float)s;
        dm = quant__gm(m0, (float)m);
        for (c = 0; c < 4; ++c) e[c] = quant__b2_lev8(x + 32 * j + 8 * c, d, dm, o[32 + g0 + j], o[48 + g0 + j], nmax);
        V[j] = quant__b2_bytes(e[0], e[1], e[2], e[3]);
    }
    if (t == QUANT_Q4_K) {
        for (j = 0; j < 4; ++j)
            _mm256_storeu_si256((__m256i *)(void *)(b + 16 + 32 * j), _mm256_or_si256(V[2 * j], _mm256_slli_epi16(V[2 * j + 1], 4)));
    } else { /* bit 4 of element l of the pair j to bits 2j and 2j + 1 of qh[l] */
        const __m256i m15 = _mm256_set1_epi8(15), m1 = _mm256_set1_epi8(1);
        __m256i qh = _mm256_setzero_si256();
        for (j = 0; j < 4; ++j) {
            const __m256i h1 = _mm256_and_si256(_mm256_srli_epi16(V[2 * j], 4), m1), h2 = _mm256_and_si256(_mm256_srli_epi16(V[2 * j + 1], 4), m1);
            qh = _mm256_or_si256(qh, _mm256_sll_epi16(_mm256_or_si256(h1, _mm256_slli_epi16(h2, 1)), _mm_cvtsi32_si128(2 * j)));
            _mm256_storeu_si256((__m256i *)(void *)(b + 48 + 32 * j),
                                _mm256_or_si256(_mm256_and_si256(V[2 * j], m15), _mm256_slli_epi16(_mm256_and_si256(V[2 * j + 1], m15), 4)));
        }
        _mm256_storeu_si256((__m256i *)(void *)(b + 16), qh);
    }
}
/* two Q4_K or Q5_K blocks xs[k] into bs[k] (bs[1] 0: xs[1] a copy not to write) */
QUANT__NOINLINE void quant__b2_k45e(unsigned t, const float *const *xs, uint8_t *const *bs)
{
    __m256 xt[64], wt[64], aux[64];
    float o[64];
    unsigned fin = 0;
    int i, k;
    for (k = 0; k < 2; ++k) {
        const float *rows[8];
        __m256 *x = xt + 32 * k, s2 = _mm256_setzero_ps(), av;
        for (i = 0; i < 8; ++i) rows[i] = xs[k] + 32 * i;
        for (i = 0; i < 32; i += 8) quant__b2_tr8(rows, i, x);
        fin |= (unsigned)quant__b2_finite(x, 32) << k;
        for (i = 0; i < 32; ++i) s2 = _mm256_add_ps(s2, quant__b2_fm(x[i], x[i]));
        av = _mm256_sqrt_ps(_mm256_div_ps(s2, _mm256_set1_ps(32.0f)));
        for (i = 0; i < 32; ++i) wt[32 * k + i] = _mm256_add_ps(av, quant__b2_fabs(x[i]));
    }
    if (t == QUANT_Q4_K ? !quant__b2_qkx2(32, 15, xt, wt, aux, -1.0f, 20, 0, 0, o) : !quant__b2_qkx2(32, 31, xt, wt, aux, -0.5f, 15, 0, 0, o)) {
        if (t == QUANT_Q4_K) (void)quant__b2_qkx2(32, 15, xt, wt, aux, -1.0f, 20, 0, 1, o);
        else (void)quant__b2_qkx2(32, 31, xt, wt, aux, -0.5f, 15, 0, 1, o);
    }
    for (k = 0; k < 2; ++k)
        if (!bs[k]) continue;
        else if (fin >> k & 1) quant__b2_post45(t, xs[k], bs[k], o, 8 * k);
        else quant__blk_encode(t, xs[k], bs[k]);
}
/* Q3_K: make_q3_quants (quant__k3_sym) as the AVX-512 quant__kq_b3 runs
   it, eight groups to a vector. The first pass runs on all groups, two
   blocks (four vectors) side by side to hide the latency of each lane's
   chain of dependent steps; the groups that changed (about a fifth) then
   go on together, eight to a vector whatever their block, for up to four
   more passes. A lane whose pass changed nothing is at a fixed point (the
   next pass computes the same), so four vectors go on while any of their
   lanes changes, and a lane that repeats another gives what it gives. */
/* one pass over the 16 elements of four vectors: xt the elements, w and
   wx their x^2 and x^3, L the levels, sx and s2 the sums sumlx and suml2,
   act the lanes that may change; chg gets the lanes that changed, and
   the result is whether any did */
QUANT__INLINE int quant__b2_q3pass(const __m256 *xt, const __m256 *w, const __m256 *wx, __m256 *L, __m256 *sx, __m256 *s2,
                                   const __m256 *act, __m256 *chg)
{
    const __m256 z = _mm256_setzero_ps(), lo = _mm256_set1_ps(-4.0f), hi = _mm256_set1_ps(3.0f);
    int i, k;
    QUANT__B2_UNROLL
    for (k = 0; k < 4; ++k) chg[k] = z;
    for (i = 0; i < 16; ++i)
        QUANT__B2_UNROLL
        for (k = 0; k < 4; ++k) {
            const int e = 16 * k + i;
            const __m256 Li = L[e], slx = sx[k], sl2 = s2[k];
            const __m256 t1 = _mm256_sub_ps(slx, quant__b2_fm(wx[e], Li));
            const __m256 t2 = _mm256_sub_ps(sl2, quant__b2_fm(quant__b2_fm(w[e], Li), Li));
            const __m256 l = quant__b2_clamp(quant__b2_gnf(_mm256_div_ps(quant__b2_fm(xt[e], t2), t1)), lo, hi);
            const __m256 n1 = _mm256_add_ps(t1, quant__b2_fm(wx[e], l)), n2 = _mm256_add_ps(t2, quant__b2_fm(quant__b2_fm(w[e], l), l));
            __m256 m = _mm256_and_ps(_mm256_and_ps(act[k], quant__b2_gt(t1, z)), _mm256_cmp_ps(l, Li, _CMP_NEQ_UQ));
            m = _mm256_and_ps(_mm256_and_ps(m, quant__b2_gt(n2, z)),
                              quant__b2_gt(quant__b2_fm(quant__b2_fm(n1, n1), sl2), quant__b2_fm(quant__b2_fm(slx, slx), n2)));
            L[e] = _mm256_blendv_ps(Li, l, m);
            sx[k] = _mm256_blendv_ps(slx, n1, m);
            s2[k] = _mm256_blendv_ps(sl2, n2, m);
            chg[k] = _mm256_or_ps(chg[k], m);
        }
    return quant__b2_any(_mm256_or_ps(_mm256_or_ps(chg[0], chg[1]), _mm256_or_ps(chg[2], chg[3])));
}
/* 16 vectors (lane g element i of group g) to the rows dst[g] */
QUANT__INLINE void quant__b2_untr(const __m256 *v, float *const *dst)
{
    float t[128];
    const float *rows[8];
    __m256 o[8];
    int i, h;
    for (i = 0; i < 16; ++i) _mm256_storeu_ps(t + 8 * i, v[i]);
    for (h = 0; h < 2; ++h) {
        QUANT__B2_UNROLL
        for (i = 0; i < 8; ++i) rows[i] = t + 8 * (8 * h + i);
        quant__b2_tr8(rows, 0, o);
        QUANT__B2_UNROLL
        for (i = 0; i < 8; ++i) _mm256_storeu_ps(dst[i] + 8 * h, o[i]);
    }
}
/* w and wx of the four vectors' elements */
QUANT__INLINE void quant__b2_q3w(const __m256 *xt, __m256 *w, __m256 *wx)
{
    int i;
    for (i = 0; i < 64; ++i) {
        w[i] = quant__b2_fm(xt[i], xt[i]);
        wx[i] = quant__b2_fm(w[i], xt[i]);
    }
}
/* the rest of quant__k_block's Q3_K for one block: sc its 16 scales, Lg
   the search's levels (group-major), flat the groups whose levels are
   all 0 (quant__k3_sym's early return) */
QUANT__INLINE void quant__b2_post3(const float *x, uint8_t *b, const float *sc, const float *Lg, unsigned flat)
{
    const __m256i three = _mm256_set1_epi8(3);
    __m256i V[8], hm = _mm256_setzero_si256();
    float amax = 0, maxs = 0, d[16];
    int j, c;
    for (j = 0; j < 16; ++j)
        if (quant__gabs(sc[j]) > amax) {
            amax = quant__gabs(sc[j]);
            maxs = sc[j];
        }
    if (maxs != 0) { /* quant__k3_pack, sixteen lanes in two vectors */
        const float is = -32.0f / maxs;
        __m256i v[2];
        __m128i q, lo, hi;
        float d0;
        for (c = 0; c < 2; ++c) { /* quant__s8wrap(quant__gn(is sc)) clamped to -32 .. 31 */
            v[c] = quant__b2_gni(quant__b2_fm(_mm256_set1_ps(is), _mm256_loadu_ps(sc + 8 * c)));
            v[c] = _mm256_srai_epi32(_mm256_slli_epi32(v[c], 24), 24);
            v[c] = _mm256_min_epi32(_mm256_max_epi32(v[c], _mm256_set1_epi32(-32)), _mm256_set1_epi32(31));
        }
        /* the scales + 32 as 16 bytes: the low nibbles of j and j + 8 in
           byte 96 + j, the top two bits of j, j + 4, j + 8, j + 12 in byte
           104 + j (no 16-bit shift here moves a bit across a byte) */
        {
            const __m256i w16 = _mm256_permute4x64_epi64(_mm256_packs_epi32(v[0], v[1]), 0xD8);
            q = _mm_add_epi8(_mm_packs_epi16(_mm256_castsi256_si128(w16), _mm256_extracti128_si256(w16, 1)), _mm_set1_epi8(32));
        }
        lo = _mm_and_si128(q, _mm_set1_epi8(15));
        lo = _mm_or_si128(lo, _mm_slli_epi16(_mm_srli_si128(lo, 8), 4));
        hi = _mm_and_si128(_mm_srli_epi16(q, 4), _mm_set1_epi8(3));
        hi = _mm_or_si128(hi, _mm_slli_epi16(_mm_srli_si128(hi, 4), 2));
        hi = _mm_or_si128(hi, _mm_slli_epi16(_mm_srli_si128(hi, 8), 4));
        _mm_storel_epi64((__m128i *)(void *)(b + 96), lo);
        quant__st4(b + 104, (uint32_t)_mm_cvtsi128_si32(hi));
        quant__gh_put(b + 108, 1 / is);
        d0 = quant__gh(b + 108);
        /* d = gh(b + 108) * quant__k3_scale(b + 96, j), which is the clamped v */
        for (c = 0; c < 2; ++c) _mm256_storeu_ps(d + 8 * c, _mm256_mul_ps(_mm256_set1_ps(d0), _mm256_cvtepi32_ps(v[c])));
    } else {
        quant__k3_pack(sc, maxs, b);
        for (j = 0; j < 16; ++j) d[j] = 0;
    }
    for (j = 0; j < 16; j += 2) { /* groups j and j + 1: levels + 4 as bytes */
        __m256i e[4];
        for (c = 0; c < 4; ++c) {
            const int g = j + c / 2;
            if (d[g] != 0) {
                const __m256i q = quant__b2_gni(_mm256_div_ps(_mm256_loadu_ps(x + 16 * j + 8 * c), _mm256_set1_ps(d[g])));
                e[c] = _mm256_add_epi32(_mm256_min_epi32(_mm256_max_epi32(q, _mm256_set1_epi32(-4)), _mm256_set1_epi32(3)), _mm256_set1_epi32(4));
            } else if (flat >> g & 1) e[c] = _mm256_setzero_si256();
            else e[c] = _mm256_add_epi32(_mm256_cvttps_epi32(_mm256_loadu_ps(Lg + 16 * j + 8 * c)), _mm256_set1_epi32(4));
        }
        V[j / 2] = quant__b2_bytes(e[0], e[1], e[2], e[3]);
        /* levels above 3 set bit j / 2 of the element's hmask byte */
        hm = _mm256_or_si256(hm, _mm256_and_si256(_mm256_cmpgt_epi8(V[j / 2], three),
                                                  _mm256_set1_epi8((char)(1u << (j / 2) & 0x7F) | (char)(j == 14 ? -128 : 0))));
        V[j / 2] = _mm256_and_si256(V[j / 2], three);
    }
    _mm256_storeu_si256((__m256i *)(void *)b, hm);
    quant__b2_pack2(V, b + 32, 2);
}
/* nw <= 8 Q3_K blocks xs[k] into bs[k] */
QUANT__NOINLINE void quant__b2_k3e(const float *const *xs, uint8_t *const *bs, const int nw)
{
    const __m256 z = _mm256_setzero_ps(), lo = _mm256_set1_ps(-4.0f), hi = _mm256_set1_ps(3.0f), ones = _mm256_cmp_ps(z, z, _CMP_EQ_OQ);
    __m256 xt[64], w[64], wx[64], L[64], sx[4], s2[4], act[4], chg[4];
    float Lg[8][256], gx[8][16], g2[8][16], *dst[8];
    int32_t list[8 * 16 + 32];
    unsigned fin = 0, flat[8];
    int i, k, c0, n = 0, p0;
    for (c0 = 0; c0 < nw; c0 += 2) { /* the first pass, two blocks at a time */
        __m256 a[4], mx[4], is[4];
        for (k = 0; k < 4; ++k) {
            const float *rows[8];
            const int blk = c0 + k / 2 < nw ? c0 + k / 2 : c0;
            for (i = 0; i < 8; ++i) rows[i] = xs[blk] + 128 * (k & 1) + 16 * i;
            quant__b2_tr8(rows, 0, xt + 16 * k);
            quant__b2_tr8(rows, 8, xt + 16 * k);
        }
        for (k = 0; k < 2 && c0 + k < nw; ++k) fin |= (unsigned)quant__b2_finite(xt + 32 * k, 32) << (c0 + k);
        quant__b2_q3w(xt, w, wx);
        QUANT__B2_UNROLL
        for (k = 0; k < 4; ++k) a[k] = mx[k] = sx[k] = s2[k] = z;
        for (i = 0; i < 16; ++i) /* the first x of the largest |x| */
            QUANT__B2_UNROLL
            for (k = 0; k < 4; ++k) {
                const __m256 x = xt[16 * k + i], ax = quant__b2_fabs(x);
                mx[k] = _mm256_blendv_ps(mx[k], x, quant__b2_gt(ax, a[k]));
                a[k] = _mm256_max_ps(ax, a[k]);
            }
        QUANT__B2_UNROLL
        for (k = 0; k < 4; ++k) {
            act[k] = _mm256_cmp_ps(a[k], _mm256_set1_ps(1e-15f), _CMP_NLT_UQ);
            is[k] = _mm256_div_ps(lo, _mm256_blendv_ps(_mm256_set1_ps(1.0f), mx[k], act[k]));
        }
        for (i = 0; i < 16; ++i)
            QUANT__B2_UNROLL
            for (k = 0; k < 4; ++k) {
                const int e = 16 * k + i;
                const __m256 l = quant__b2_rnd(quant__b2_clamp(quant__b2_fm(is[k], xt[e]), lo, hi));
                L[e] = l;
                sx[k] = _mm256_add_ps(sx[k], quant__b2_fm(wx[e], l));
                s2[k] = _mm256_add_ps(s2[k], quant__b2_fm(quant__b2_fm(w[e], l), l));
            }
        (void)quant__b2_q3pass(xt, w, wx, L, sx, s2, act, chg);
        for (k = 0; k < 4 && c0 + k / 2 < nw; ++k) {
            const int blk = c0 + k / 2, h = k & 1;
            const unsigned m = (unsigned)_mm256_movemask_ps(chg[k]);
            if (h) flat[blk] |= ((unsigned)_mm256_movemask_ps(act[k]) ^ 0xFFu) << 8;
            else flat[blk] = (unsigned)_mm256_movemask_ps(act[k]) ^ 0xFFu;
            _mm256_storeu_ps(gx[blk] + 8 * h, sx[k]);
            _mm256_storeu_ps(g2[blk] + 8 * h, s2[k]);
            for (i = 0; i < 8; ++i) {
                dst[i] = Lg[blk] + 16 * (8 * h + i);
                list[n] = 16 * blk + 8 * h + i;
                n += (int)(m >> i & 1); /* without a branch: about a fifth are taken, at random */
            }
            quant__b2_untr(L + 16 * k, dst);
        }
    }
    /* passes 2 and 3 of the groups that changed, 32 at a time; then 4 and
       5 of those that changed in pass 3 (the list is rewritten in place,
       each entry after it is read) */
    for (p0 = 2; p0 <= 5 && n > 0; p0 += 2) {
        int n2 = 0;
        for (i = n; i < n + 32; ++i) list[i] = list[n - 1];
        for (c0 = 0; c0 < n; c0 += 32) {
            int last = 0;
            for (k = 0; k < 4; ++k) {
                const float *rows[8], *lrows[8];
                const __m256i id = _mm256_loadu_si256((const __m256i *)(const void *)(list + c0 + 8 * k));
                for (i = 0; i < 8; ++i) {
                    const int d = list[c0 + 8 * k + i];
                    rows[i] = xs[d >> 4] + 16 * (d & 15);
                    lrows[i] = Lg[d >> 4] + 16 * (d & 15);
                }
                quant__b2_tr8(rows, 0, xt + 16 * k);
                quant__b2_tr8(rows, 8, xt + 16 * k);
                quant__b2_tr8(lrows, 0, L + 16 * k);
                quant__b2_tr8(lrows, 8, L + 16 * k);
                sx[k] = _mm256_i32gather_ps(gx[0], id, 4);
                s2[k] = _mm256_i32gather_ps(g2[0], id, 4);
                act[k] = ones;
            }
            quant__b2_q3w(xt, w, wx);
            if (quant__b2_q3pass(xt, w, wx, L, sx, s2, act, chg)) last = quant__b2_q3pass(xt, w, wx, L, sx, s2, act, chg);
            for (k = 0; k < 4; ++k) {
                float tx[8], t2[8];
                const unsigned m = last ? (unsigned)_mm256_movemask_ps(chg[k]) : 0u;
                _mm256_storeu_ps(tx, sx[k]);
                _mm256_storeu_ps(t2, s2[k]);
                for (i = 0; i < 8; ++i) {
                    const int d = list[c0 + 8 * k + i];
                    gx[d >> 4][d & 15] = tx[i];
                    g2[d >> 4][d & 15] = t2[i];
                    dst[i] = Lg[d >> 4] + 16 * (d & 15);
                    list[n2] = d;
                    n2 += (int)(m >> i & 1) & (c0 + 8 * k + i < n); /* changed in pass p0 + 1: not done */
                }
                quant__b2_untr(L + 16 * k, dst);
            }
        }
        n = n2;
    }
    for (k = 0; k < nw; ++k) {
        float sc[16];
        if (!bs[k]) continue;
        if (!(fin >> k & 1)) {
            quant__blk_encode(QUANT_Q3_K, xs[k], bs[k]);
            continue;
        }
        for (i = 0; i < 16; ++i) /* quant__k3_sym's scale, 0 for a flat group */
            sc[i] = !(flat[k] >> i & 1) && g2[k][i] > 0 ? gx[k][i] / g2[k][i] : 0.0f;
        quant__b2_post3(xs[k], bs[k], sc, Lg[k], flat[k]);
    }
}
QUANT__PRIVATE int quant__simd_blk_enc(unsigned t, const float *x, uint8_t *dst, size_t nb)
{
    size_t k;
    switch (t) {
    case QUANT_Q8_0:
        for (k = 0; k + 8 <= nb; k += 8) quant__b2_q8_0x8(x + 32 * k, dst + 34 * k);
        for (; k < nb; ++k) quant__b2_q8_0(x + 32 * k, dst + 34 * k);
        break;
    case QUANT_Q8_K: for (k = 0; k < nb; ++k) quant__b2_q8_k(x + 256 * k, dst + 292 * k); break;
    case QUANT_Q4_0: for (k = 0; k < nb; ++k) quant__b2_q45e(t, x + 32 * k, dst + 18 * k, 0, 0); break;
    case QUANT_Q4_1: for (k = 0; k < nb; ++k) quant__b2_q45e(t, x + 32 * k, dst + 20 * k, 0, 1); break;
    case QUANT_Q5_0: for (k = 0; k < nb; ++k) quant__b2_q45e(t, x + 32 * k, dst + 22 * k, 1, 0); break;
    case QUANT_Q5_1: for (k = 0; k < nb; ++k) quant__b2_q45e(t, x + 32 * k, dst + 24 * k, 1, 1); break;
    case QUANT_MXFP4: for (k = 0; k < nb; ++k) quant__b2_mxfp4e(x + 32 * k, dst + 17 * k); break;
    case QUANT_NVFP4_BLOCK:
        for (k = 0; k < nb; k += 2) {
            const float *xs[2];
            uint8_t *bs[2];
            xs[0] = x + 64 * k;
            bs[0] = dst + 36 * k;
            xs[1] = k + 1 < nb ? xs[0] + 64 : xs[0];
            bs[1] = k + 1 < nb ? bs[0] + 36 : (uint8_t *)0;
            quant__b2_nvfp4e(xs, bs);
        }
        break;
    case QUANT_IQ4_XS: for (k = 0; k < nb; ++k) quant__b2_iq4xse(x + 256 * k, dst + 136 * k); break;
    case QUANT_Q6_K: for (k = 0; k < nb; ++k) quant__b2_q6ke(x + 256 * k, dst + 210 * k); break;
    case QUANT_Q2_K: for (k = 0; k < nb; ++k) quant__b2_q2ke(x + 256 * k, dst + 84 * k); break;
    case QUANT_Q3_K:
        for (k = 0; k < nb; k += 8) {
            const int nw = nb - k < 8 ? (int)(nb - k) : 8;
            const float *xs[8];
            uint8_t *bs[8];
            int i;
            for (i = 0; i < nw; ++i) {
                xs[i] = x + 256 * (k + (size_t)i);
                bs[i] = dst + 110 * (k + (size_t)i);
            }
            quant__b2_k3e(xs, bs, nw);
        }
        break;
    case QUANT_Q4_K:
    case QUANT_Q5_K:
        for (k = 0; k < nb; k += 2) {
            const size_t bb = t == QUANT_Q4_K ? 144 : 176;
            const float *xs[2];
            uint8_t *bs[2];
            xs[0] = x + 256 * k;
            bs[0] = dst + bb * k;
            xs[1] = k + 1 < nb ? xs[0] + 256 : xs[0];
            bs[1] = k + 1 < nb ? bs[0] + bb : (uint8_t *)0;
            quant__b2_k45e(t, xs, bs);
        }
        break;
    case QUANT_IQ4_NL:
        for (k = 0; k < nb; k += 8) {
            const float *xs[8];
            uint8_t *bs[8];
            size_t i;
            for (i = 0; i < 8; ++i) {
                xs[i] = x + 32 * (k + i < nb ? k + i : nb - 1);
                bs[i] = k + i < nb ? dst + 18 * (k + i) : (uint8_t *)0;
            }
            quant__b2_iq4nle(xs, bs);
        }
        break;
    default: return 0;
    }
    return 1;
}
#else
QUANT__PRIVATE int quant__simd_blk_dec(unsigned t, const uint8_t *src, void *dst, size_t nb, unsigned o)
{
    (void)t; (void)src; (void)dst; (void)nb; (void)o;
    return 0;
}
QUANT__PRIVATE int quant__simd_blk_enc(unsigned t, const float *x, uint8_t *dst, size_t nb)
{
    (void)t; (void)x; (void)dst; (void)nb;
    return 0;
}
#endif
#elif QUANT__PART == 3 && QUANT__BLOCKS
#if QUANT__DISPATCH
QUANT__PRIVATE int quant__simd_blk_dec_x86(unsigned t, const uint8_t *src, void *dst, size_t nb, unsigned o)
{
    int r = 0;
    QUANT__PICK(r = quant__simd_blk_dec, (t, src, dst, nb, o));
    return r;
}
QUANT__PRIVATE int quant__simd_blk_enc_x86(unsigned t, const float *x, uint8_t *dst, size_t nb)
{
    int r = 0;
    QUANT__PICK(r = quant__simd_blk_enc, (t, x, dst, nb));
    return r;
}
#endif
#if QUANT__SIMD_ANY
#  define quant__blk_deck QUANT__BK(quant__simd_blk_dec)
#  define quant__blk_enck QUANT__BK(quant__simd_blk_enc)
#else
#  define quant__blk_deck(t, src, dst, nb, o) 0
#  define quant__blk_enck(t, x, dst, nb) 0
#endif
#endif

/* ---- >>unit run: one operation over a validated plan -------------------- */
/* Compiled with the kernels it calls: once per backend (part 2), so that
   dispatch happens once per operation, or once in a scalar build (part 1). */
#if QUANT__PART == 2 || (QUANT__PART == 1 && !QUANT__SIMD_ANY)

#if QUANT__PART == 2
#  define quant__row_f32_to_i8 quant__simd_f32_to_i8
#  define quant__row_i8_to_f32 quant__simd_i8_to_f32
#  define quant__row_i32_to_f32 quant__simd_i32_to_f32
#  define quant__row_f32_to_f8 quant__simd_f32_to_f8
#  define quant__row_f8_to_f32 quant__simd_f8_to_f32
#  define quant__row_recip quant__simd_recip
#else /* scalar kernels never walk a scale pattern: `period` is always 0 */
#  define quant__row_f32_to_i8(x, q, n, s, ss, z, zs, per, f) quant__scalar_f32_to_i8(x, q, n, s, ss, z, zs, f)
#  define quant__row_i8_to_f32(q, y, n, s, ss, z, zs, per, f) quant__scalar_i8_to_f32(q, y, n, s, ss, z, zs, f)
#  define quant__row_i32_to_f32(q, y, n, s, ss, z, zs, per) quant__scalar_i32_to_f32(q, y, n, s, ss, z, zs)
#  define quant__row_f32_to_f8(x, q, n, s, ss, per, f) quant__scalar_f32_to_f8(x, q, n, s, ss, f)
#  define quant__row_f8_to_f32(q, y, n, s, ss, per, f) quant__scalar_f8_to_f32(q, y, n, s, ss, f)
#  define quant__row_recip quant__scalar_recip
#endif

/* One call of the right kernel over n elements starting at element `at`
   of the tensor. */
QUANT__INLINE void quant__kernel(const quant__plan *p, size_t at, size_t n,
                                  const float *scale, size_t sstep,
                                  const int32_t *zp, size_t zstep, size_t period, unsigned f)
{
    (void)period; /* scalar kernels have no use for it */
    if (p->quantize) {
        const float *x = (const float *)p->src + at;
        uint8_t *q = (uint8_t *)p->dst + at;
#ifndef QUANT_NO_F8
        if (quant__is_f8(p->qdtype)) { quant__row_f32_to_f8(x, q, n, scale, sstep, period, f); return; }
#endif
        quant__row_f32_to_i8(x, q, n, scale, sstep, zp, zstep, period, f);
    } else {
        float *y = (float *)p->dst + at;
        if (p->qdtype == QUANT_S32) {
            quant__row_i32_to_f32((const int32_t *)p->src + at, y, n, scale, sstep, zp, zstep, period);
            return;
        }
#ifndef QUANT_NO_F8
        if (quant__is_f8(p->qdtype)) {
            quant__row_f8_to_f32((const uint8_t *)p->src + at, y, n, scale, sstep, period, f);
            return;
        }
#endif
        quant__row_i8_to_f32((const uint8_t *)p->src + at, y, n, scale, sstep, zp, zstep, period, f);
    }
}

/* Fills sbuf (when non-NULL) with the scales, reciprocals for a multiply
   rounding, and zbuf (when non-NULL) with the zero points of elements
   e0 .. e0+len-1 of the repeating pattern of `period` elements that a row
   of C channels of `inner` elements each makes. */
QUANT__NOINLINE void quant__layout(const quant__plan *p, size_t e0, size_t len, size_t period,
                                  float *sbuf, int32_t *zbuf, int recip)
{
    size_t k, pos = e0 % period, c = pos / p->inner, j = pos % p->inner;
    if (!sbuf && !zbuf) return;
    if (p->inner == 1 && pos == 0) {
        /* the last axis from a row start: copy one row, then repeat it */
        const size_t first = len < period ? len : period;
        for (k = 0; k < first; ++k) {
            if (sbuf) sbuf[k] = p->scales[k];
            if (zbuf) zbuf[k] = quant__zp_at(p, k);
        }
        /* then repeat it by doubling what is there: plain copies, no
           element waits on the one a period before it */
        for (k = first; k < len; k += k < len - k ? k : len - k) {
            const size_t m = k < len - k ? k : len - k;
            size_t t;
            if (sbuf) for (t = 0; t < m; ++t) sbuf[k + t] = sbuf[t];
            if (zbuf) for (t = 0; t < m; ++t) zbuf[k + t] = zbuf[t];
        }
        if (sbuf && recip) quant__row_recip(sbuf, len);
        return;
    }
    for (k = 0; k < len;) {
        /* the rest of channel c's run, one value filled in; then the next
           channel, and past the last, the next row */
        const size_t m = p->inner - j < len - k ? p->inner - j : len - k;
        size_t t;
        if (sbuf) {
            const float sc = p->scales[c];
            for (t = 0; t < m; ++t) sbuf[k + t] = sc;
        }
        if (zbuf) {
            const int32_t zc = quant__zp_at(p, c);
            for (t = 0; t < m; ++t) zbuf[k + t] = zc;
        }
        k += m;
        j = 0;
        if (++c == p->channels) c = 0;
    }
    if (sbuf && recip) quant__row_recip(sbuf, len);
}

#if QUANT__CHUNK >= 64
/* Rows short enough that the whole pattern fits: lay out as many rows as
   fit, with reciprocals for a multiply rounding, once for the whole
   tensor. zbuf is NULL with one zero point, z. */
QUANT__INLINE void quant__run_rows(const quant__plan *p, float *sbuf, int32_t *zbuf, int32_t z)
{
    const int recip = p->quantize && (p->flags & QUANT__F_RECIP);
    const unsigned f = p->flags | (recip ? QUANT__F_RECIP_GIVEN : 0u);
    const size_t row = p->channels * p->inner, total = p->outer * row, block = QUANT__BLOCK;
    const size_t zstep = zbuf ? 1 : 0;
    const int32_t *zq = zbuf ? zbuf : &z;
    size_t rows, period, o, a = row, b = block;
    while (b) { const size_t t = a % b; a = b; b = t; }
    period = row / a * block; /* lcm(row, block): whole rows in whole blocks */
    if (period <= QUANT__CHUNK) {
        /* one call walks the pattern over and over */
        quant__layout(p, 0, period < total ? period : total, row, sbuf, zbuf, recip);
        quant__kernel(p, 0, total, sbuf, 1, zq, zstep, period, f);
        return;
    }
    rows = QUANT__CHUNK / row < p->outer ? QUANT__CHUNK / row : p->outer;
    quant__layout(p, 0, rows * row, row, sbuf, zbuf, recip);
    for (o = 0; o < p->outer; o += rows)
        quant__kernel(p, o * row, (p->outer - o < rows ? p->outer - o : rows) * row, sbuf, 1, zq, zstep, 0, f);
}
#endif

/* Short runs of one scale: the row's pattern of scales and zero points is
   laid out on the stack, reciprocals taken once, and the kernel walks it
   as a vector of scales over as many rows as fit, or over the row a chunk
   at a time. */
QUANT__NOINLINE void quant__run_short(const quant__plan *p)
{
#if QUANT__CHUNK >= 64
    float sbuf[QUANT__CHUNK];
#else
    float *const sbuf = NULL; /* inner is 1 here: the scales are read in place */
#endif
    int32_t zbuf[QUANT__CHUNK];
    const size_t row = p->channels * p->inner;
    const size_t zstep = p->n_zps > 1 ? 1 : 0;
    int32_t z;
    size_t o, e0;
    if (row == 0 || p->outer == 0) return;
    z = quant__zp_at(p, 0);
#if QUANT__CHUNK >= 64 /* a scalar build's tiny chunk holds no rows worth repeating */
    if (row <= QUANT__CHUNK) {
        quant__run_rows(p, sbuf, zstep ? zbuf : NULL, z);
        return;
    }
#endif
    {
        /* on the last axis the scales, and s32 zero points, are read in
           place, a whole row per call; reciprocals are not laid out here,
           as that would take the rows chunk by chunk, across memory */
        const int direct = p->inner == 1;
        const int zdirect = p->inner == 1 && p->zp_kind == QUANT__ZP_S32;
        const size_t step = direct && (!zstep || zdirect) ? row : QUANT__CHUNK;
        /* whole rows, one after another through memory: each but the last
           few prefetches into the next (a quantize over a large source) */
        const size_t tail = (QUANT__AHEAD / 4u + row - 1) / row; /* rows the last line asked for may be in */
        const size_t ahead = step == row && p->quantize && QUANT__PREFETCH_BIG(p->outer * row, 4u) && p->outer > tail
                                 ? p->outer - tail : 0;
        for (e0 = 0; e0 < row; e0 += step) {
            const size_t len = row - e0 < step ? row - e0 : step;
            const float *sc = direct ? p->scales + e0 : sbuf;
            const int32_t *zq = !zstep ? &z : zdirect ? (const int32_t *)p->zps + e0 : zbuf;
            quant__layout(p, e0, len, row, direct ? NULL : sbuf, zstep && !zdirect ? zbuf : NULL, 0);
            for (o = 0; o < p->outer; ++o)
                quant__kernel(p, o * row + e0, len, sc, 1, zq, zstep, 0, p->flags | (o < ahead ? QUANT__F_AHEAD : 0u));
        }
    }
}

QUANT__NOINLINE void quant__run(const quant__plan *p)
{
    const size_t C = p->channels, inner = p->inner;
    int32_t z;
    size_t o, c;
    if (C == 0 || inner == 0 || p->outer == 0) return;
    z = quant__zp_at(p, 0);
    if (p->n_scales <= 1 && p->n_zps <= 1) {
        quant__kernel(p, 0, p->outer * C * inner, p->scales, 0, &z, 0, 0, p->flags);
    } else {
#if QUANT__PART == 2
        /* short enough that a call's setup shows (axis 1 of [1, 64, 8, 8]):
           the s8/u8 kernels take a row of channels in one call */
        if ((p->qdtype == QUANT_S8 || p->qdtype == QUANT_U8) && inner < QUANT__ROWS_RUN && p->n_scales == C &&
            (p->n_zps <= 1 || C <= QUANT__CHUNK)) {
            int32_t zbuf[QUANT__CHUNK];
            const int32_t *zq = p->n_zps > 1 ? zbuf : &z;
            if (p->n_zps > 1)
                for (c = 0; c < C; ++c) zbuf[c] = quant__zp_at(p, c);
            for (o = 0; o < p->outer; ++o) {
                const size_t at = o * C * inner;
                if (p->quantize)
                    quant__simd_f32_to_i8_rows((const float *)p->src + at, (uint8_t *)p->dst + at, inner, C, p->scales,
                                               zq, p->n_zps > 1, p->flags);
                else
                    quant__simd_i8_to_f32_rows((const uint8_t *)p->src + at, (float *)p->dst + at, inner, C, p->scales,
                                               zq, p->n_zps > 1, p->flags);
            }
            return;
        }
#endif
        /* long runs of one scale: a call each, one after another through
           memory (each but the last few prefetches into the next, as in
           quant__run_short) */
        const size_t runs = p->outer * C, tail = (QUANT__AHEAD / 4u + inner - 1) / inner;
        const size_t ahead = p->quantize && QUANT__PREFETCH_BIG(runs * inner, 4u) && runs > tail ? runs - tail : 0;
        for (o = 0; o < p->outer; ++o)
            for (c = 0; c < C; ++c) {
                if (p->n_zps > 1) z = quant__zp_at(p, c);
                quant__kernel(p, (o * C + c) * inner, inner, p->scales + (p->n_scales > 1 ? c : 0), 0, &z, 0,
                              0, p->flags | (o * C + c < ahead ? QUANT__F_AHEAD : 0u));
            }
    }
}

/* Short runs of one scale, or long ones: siblings, not nested, to keep
   the deepest stack shallow. Under dispatch this is what the CPU's pass
   is picked for, once per operation. */
#if QUANT__DISPATCH
QUANT__NOINLINE void quant__exec(const quant__plan *p)
#else
QUANT__INLINE void quant__exec(const quant__plan *p)
#endif
{
#if QUANT__SIMD_ANY /* a scalar build sends short runs down the general path */
    if ((p->n_scales > 1 || p->n_zps > 1) && p->inner < QUANT__LONG_RUN) quant__run_short(p);
    else
#endif
        quant__run(p);
}

#undef quant__row_f32_to_i8
#undef quant__row_i8_to_f32
#undef quant__row_i32_to_f32
#undef quant__row_f32_to_f8
#undef quant__row_f8_to_f32
#undef quant__row_recip

#elif QUANT__PART == 3

#  if QUANT__DISPATCH
QUANT__PRIVATE void quant__exec_x86(const quant__plan *p)
{
    QUANT__PICK(quant__exec, (p));
}
#  endif
#  if QUANT__SIMD_ANY
#    define quant__exec QUANT__BK(quant__exec)
#  endif

#endif

#if QUANT__PART == 2
#if QUANT__DISPATCH
#  if defined(__clang__)
#    pragma clang attribute pop
#  else
#    pragma GCC pop_options
#  endif
#endif
#undef quant__add
#undef quant__addi
#undef quant__and
#undef quant__any
#undef quant__any_nan4
#undef quant__asf
#undef quant__asi
#undef quant__cvt
#undef quant__dec64
#undef quant__dec64_init
#undef quant__div
#undef quant__div_fma
#undef quant__mul_add
#undef quant__eq
#undef quant__f8_bytes
#undef quant__f8_order
#undef quant__f8tab
#undef quant__gt
#undef quant__i2f
#undef quant__ld8
#undef quant__ldf
#undef quant__ldi
#undef quant__sti
#undef quant__max
#undef quant__min
#undef quant__mini
#undef quant__mul
#undef quant__neon_scales_ok
#undef quant__mve_scales_ok
#undef quant__or
#undef quant__sel
#undef quant__setf
#undef quant__seti
#undef quant__simd_f32_to_f8
#undef quant__simd_f32_to_i8
#undef quant__simd_f32_to_i8_rows
#undef quant__simd_i8_to_f32_rows
#undef quant__simd_f8_to_f32
#undef quant__simd_i32_to_f32
#undef quant__simd_i8_to_f32
#undef quant__simd_recip
#undef quant__simd_scales_valid
#undef quant__sll
#undef quant__srl
#undef quant__st8
#undef quant__st8x4
#undef quant__stf
#undef quant__stf_nt
#undef quant__subi
#undef quant__v_f16_round_abs
#undef quant__v_f32_to_f8_body
#undef quant__v_f32_to_i8_body
#undef quant__v_f8_dec
#undef quant__v_f8_enc
#undef quant__v_f8_to_f32_body
#undef quant__v_i32_to_f32_body
#undef quant__v_i8_to_f32_body
#undef quant__v_q_int
#undef quant__v_quotient
#undef quant__v_scale_at
#undef quant__v_zp_fast
#undef quant__vf
#undef quant__vi
#undef quant__vm
#undef quant__zero_nan
#undef quant__v_w4_body
#undef quant__v_w4_run
#undef quant__v_f16
#undef quant__v_bf16
#undef quant__zip
#undef quant__ld16
#undef quant__ld_bf16
#undef quant__st16
#undef quant__v_from_f16
#undef quant__v_to_half
#undef quant__v_widen16
#undef quant__simd_widen16
#undef quant__simd_gather32
#undef quant__tr4x4
#undef quant__simd_narrow16
#undef quant__simd_half_to_i8
#undef quant__v_half_to_i8
#undef quant__v_load
#undef quant__w4_lut
#undef quant__v_ph
#undef quant__w4_lut_g32
#undef quant__w4_lut_f32a
#undef quant__w4_table
#undef quant__w4_idx16
#undef QUANT__W4_LUT
#undef QUANT__W4_LUT_F32
#undef quant__simd_w4
#undef quant__simd_f4_row
#undef quant__simd_rq
#undef quant__v_rq_body
#undef quant__v_rq_put
#undef quant__v_rq_fixed
#undef quant__v_rq_half
#undef quant__v_rq_right
#undef quant__v_rq_w8
#undef quant__v_rq_wide
#undef quant__v_rq_wput
#undef quant__v_rq_fput
#undef quant__v_rq_fld
#undef quant__v_rq_flt
#undef quant__v_rq_fnear
#undef quant__v_rq_fmax
#undef quant__v_rq_one
#undef quant__v_rq_loop
#undef quant__v_rq_repeat
#undef quant__v_rq_first
#undef quant__v_rq_rows
#undef quant__bk_st
#undef quant__bk_tab
#undef quant__bk_st32
#undef quant__bk_tab32
#undef quant__bk_nib32
#undef quant__bk_lin
#undef quant__bk_dm
#undef quant__bk_i8
#undef quant__bk_h
#undef quant__bk_bf2
#undef quant__bk_k
#undef quant__bk_f16
#undef quant__bk_kinit
#undef quant__bk_kset
#undef quant__bk_q8
#undef quant__bk_q6
#undef quant__bk_q6f
#undef quant__bk_cf
#undef quant__bk_q6y
#undef QUANT__BK_C24
#undef quant__bk_q6c
#undef quant__bk_q6ds
#undef quant__bk_q3f
#undef quant__bk_q3ds
#undef quant__bk_k45
#undef quant__bk_k45dm
#undef quant__bk_k45f
#undef quant__bk_krun
#undef quant__bk_ksc
#undef quant__bk_kblk
#undef quant__bk_q6dv
#undef quant__bk_q3h
#undef quant__bk_k45s
#undef quant__bk_k45t
#undef quant__bk_one
#undef quant__bk5_k
#undef quant__bk5_b
#undef quant__bk5_kinit
#undef quant__bk5_q5tab
#undef quant__bk5_q5idx
#undef quant__bk5_f4idx
#undef quant__bk5_ld
#undef quant__bk5_scales
#undef quant__bk5_run
#undef quant__bk5_bf16i
#undef quant__bk5_batch
#undef quant__bk_kq_bf16i
#undef quant__bk_n4x
#undef quant__bk_n4c
#undef quant__bk_n4c_init
#undef quant__bk_n4q
#undef quant__bk_n4v
#undef quant__bk_n4dl
#undef quant__bk_n4st2
#undef quant__bk_n4
#undef quant__bk_n4_bf16i
#undef quant__bk_n4_run
#undef quant__simd_blk_dec
#undef quant__bk_dec
#undef quant__simd_blk_enc
#undef quant__f4_pow2_block
#undef quant__simd_f4_enc
#undef quant__simd_f4_enc_g
#undef quant__simd_mx4_fused
#undef quant__v_f4_codes
#undef quant__v_f4_store
#undef quant__f4_g16_pairs
#undef quant__f4_g16_pairs_bf16i
#undef quant__v_lo
#undef quant__v_hi
#undef quant__v_minmax_body
#undef quant__v_minmax_cols_body
#undef quant__simd_minmax
#undef quant__simd_minmax_cols
#undef quant__simd_minmax_groups
#undef quant__v_minmax_groups_body
#undef quant__v_hlo
#undef QUANT__NEON32
#undef quant__v_hhi
#undef quant__v_h4
#undef quant__run_rows
#undef quant__v_i8_to_f32_x4
#undef quant__v_f32_to_i8_zvec
#undef quant__v_f32_to_i8_x4
#undef quant__v_f32_to_i8_x4f
#undef quant__v_f32_to_f8_x4
#undef quant__exec
#undef quant__kernel
#undef quant__layout
#undef quant__run
#undef quant__run_short
#undef QUANT__SFX
#undef QUANT__TWIN
#undef QUANT__W
#undef QUANT__VFENCE
#undef QUANT__SCALES_OK
#undef QUANT__NAN_CHEAP
#undef QUANT__HAS_FMA
#undef QUANT__CVT_NEEDS_RANGE
#undef QUANT__NAN_KEEPS_SIGN
#undef QUANT__VEC_IF
#ifdef QUANT__F8_DEC64
#  undef QUANT__F8_DEC64
#endif
#elif QUANT__PART == 3
#  undef QUANT__PICK
#elif QUANT__PART == 4

/* ======================================================================== */
/*  >>ops  Validation and the op layer                                      */
/* ======================================================================== */

/* bytes per element; 4-bit types count as 1 here (see quant__bytes) */
QUANT__PRIVATE size_t quant__dtype_size(unsigned t)
{
    switch (t) {
    case QUANT_F32: case QUANT_S32: return 4;
    case QUANT_F16: case QUANT_BF16: case QUANT_S16: return 2;
    case QUANT_S8: case QUANT_U8: case QUANT_F8_E4M3: case QUANT_F8_E5M2: case QUANT_S4: case QUANT_U4:
    case QUANT_F4_E2M1: case QUANT_E8M0: case QUANT_S2: case QUANT_U2: return 1;
    default: return quant__blk(t) ? 1u : 0u; /* blocks: byte-aligned */
    }
}

QUANT__PRIVATE int quant__is_4bit(unsigned t) { return QUANT__4BIT && (t == QUANT_S4 || t == QUANT_U4); }
QUANT__PRIVATE int quant__is_f4(unsigned t) { return QUANT__MX && t == QUANT_F4_E2M1; }
/* packed two to a byte: s4, u4, f4_e2m1 */
QUANT__PRIVATE int quant__is_nib(unsigned t) { return quant__is_4bit(t) || quant__is_f4(t); }
QUANT__PRIVATE int quant__is_2bit(unsigned t) { return QUANT__4BIT && (t == QUANT_S2 || t == QUANT_U2); }
/* log2 of the elements a byte holds: 1 packed two to a byte, 2 four to a
   byte (s2, u2), 0 for the byte-sized types */
QUANT__PRIVATE unsigned quant__pk(unsigned t) { return quant__is_2bit(t) ? 2u : quant__is_nib(t) ? 1u : 0u; }
/* the packed integer types, s4, u4, s2, u2: quantized through s8/u8 */
QUANT__PRIVATE int quant__is_pint(unsigned t) { return quant__is_4bit(t) || quant__is_2bit(t); }
QUANT__PRIVATE int quant__is_float(unsigned t) { return t == QUANT_F32 || (QUANT__HALF && (t == QUANT_F16 || t == QUANT_BF16)); }
/* the float side of a plan is f32 (always, without 16-bit floats) */
#define QUANT__F32_SIDE(p) (!QUANT__HALF || (p)->fdtype == QUANT_F32)

/* the bytes n elements of t occupy: packed types hold 2 or 4 a byte */
QUANT__PRIVATE size_t quant__bytes(unsigned t, size_t n)
{
    const unsigned sh = quant__pk(t);
#if QUANT__BLOCKS
    if (quant__blk(t)) return n / quant__blk(t) * quant__blk_bytes(t);
#endif
    return sh ? (n >> sh) + ((n & ((1u << sh) - 1u)) != 0) : n * quant__dtype_size(t);
}

/* scale i of the op, widened to f32 */
QUANT__PRIVATE float quant__scale_at(const quant__plan *p, size_t i)
{
    const uint16_t *h = (const uint16_t *)p->sraw;
    float s;
    if (QUANT__HALF && p->sdtype == QUANT_F16) s = quant__f16_to_f32(h[i]);
    else if (QUANT__HALF && p->sdtype == QUANT_BF16) s = quant__bf16_to_f32(h[i]);
#if QUANT__MX
    else if (p->sdtype == QUANT_E8M0) s = quant__e8m0_value(((const uint8_t *)p->sraw)[i]);
    else if (p->sdtype == QUANT_F8_E4M3) s = quant__e4m3_value(((const uint8_t *)p->sraw)[i]);
#endif
    else s = ((const float *)p->sraw)[i];
#if QUANT__MX
    if (p->tscale != 0.0f) s *= p->tscale; /* fl(s * tensor_scale) */
#endif
    return s;
}

/* *out = a * b; returns 1 when the product passes limit (< 2^63). Both
   factors are below 2^63, so the product has at most 126 bits; it is
   built from 32-bit halves because 64-bit division would pull a large
   helper into firmware. */
QUANT__PRIVATE int quant__mul_over(uint64_t a, uint64_t b, uint64_t limit, uint64_t *out)
{
    const uint64_t a_lo = a & 0xFFFFFFFFu, a_hi = a >> 32, b_lo = b & 0xFFFFFFFFu, b_hi = b >> 32;
    uint64_t mid, p;
    if (a_hi && b_hi) return 1;                  /* at least 2^64 */
    mid = a_hi * b_lo + a_lo * b_hi;             /* one of the two terms is 0: no overflow */
    if (mid >> 32) return 1;
    p = a_lo * b_lo;
    if (p + (mid << 32) < p) return 1;           /* carry out of 64 bits */
    p += mid << 32;
    if (p > limit) return 1;
    *out = p;
    return 0;
}

/* Element count of a tensor; QUANT_ERR_RANK / QUANT_ERR_SHAPE when it has
   no valid shape or its byte size passes SIZE_MAX or INT64_MAX. Past the
   limit the product stops growing and over is set: it is an error unless
   a dim is 0. With a 32-bit size_t limit < 2^32, so every product fits in
   64 bits and quant__mul_over is left out. same (or NULL): a tensor that
   must have t's dims, after t's own checks QUANT_ERR_RANK for its rank,
   QUANT_ERR_SHAPE for other dims. */
QUANT__PRIVATE quant_status quant__count(const quant_tensor *t, const quant_tensor *same, unsigned esize, size_t *count)
{
    const size_t limit = (size_t)(((uint64_t)SIZE_MAX < (uint64_t)INT64_MAX ? (uint64_t)SIZE_MAX : (uint64_t)INT64_MAX) >>
                                  (esize >> 1)); /* bytes, esize 1, 2 or 4 (no 64-bit division) */
    size_t n = 1;
    uint64_t p;
    int i, diff = 0, over = 0;
    if (t->rank < 0 || t->rank > QUANT_MAX_RANK) return QUANT_ERR_RANK;
    for (i = 0; i < t->rank; ++i) {
        const uint64_t d = (uint64_t)t->dims[i];
        if (t->dims[i] < 0) return QUANT_ERR_SHAPE;
        if (same && same->dims[i] != t->dims[i]) diff = 1;
        if (d > limit) over = 1;
        else if ((uint64_t)SIZE_MAX >> 32 == 0 || (((uint64_t)n | d) >> 32) == 0 ? (p = (uint64_t)n * d) > limit /* fits in 64 bits */
                 : quant__mul_over(n, d, limit, &p))
            over = 1;
        else n = (size_t)p;
    }
    if (over && n) return QUANT_ERR_SHAPE;
    if (same) {
        if (same->rank < 0 || same->rank > QUANT_MAX_RANK) return QUANT_ERR_RANK;
        if (same->rank != t->rank || diff) return QUANT_ERR_SHAPE;
    }
    *count = (size_t)n;
    return QUANT_OK;
}

/* f32 and s32 elements are read as such, so their data must sit on a
   4-byte boundary, f16 and bf16 on a 2-byte one (8- and 4-bit data may
   sit anywhere) */
QUANT__PRIVATE int quant__aligned(const quant_tensor *t)
{
    return ((uintptr_t)t->data & (quant__dtype_size(t->dtype) - 1u)) == 0;
}

QUANT__PRIVATE quant_status quant__check_attrs(const quant_attrs *a, int uses_lists)
{
    if (a->rounding != QUANT_ROUND_EXACT) {
#ifdef QUANT_ONLY_EXACT
        return QUANT_ERR_ATTR;
#else
        if (a->rounding != QUANT_ROUND_ONEDNN && a->rounding != QUANT_ROUND_ONNX &&
            a->rounding != QUANT_ROUND_TORCH)
            return QUANT_ERR_ATTR;
#endif
    }
    if ((a->f8_overflow != QUANT_F8_SATURATE && a->f8_overflow != QUANT_F8_INF_NAN) ||
        (a->on_error != QUANT_ON_ERROR_UNTOUCHED && a->on_error != QUANT_ON_ERROR_PARTIAL))
        return QUANT_ERR_ATTR;
    if (a->qtype != QUANT_PER_TENSOR && a->qtype != QUANT_PER_CHANNEL && !(QUANT__GROUPS && a->qtype == QUANT_PER_GROUP))
        return QUANT_ERR_QTYPE;
    if (uses_lists) {
        if (a->scales == NULL) return QUANT_ERR_NULL;
        if (a->zps == NULL && a->n_zps > 0) return QUANT_ERR_NULL;
        if (a->zps != NULL && a->n_zps == 0) return QUANT_ERR_ZPS;
    }
    return QUANT_OK;
}

/* Entries of the scale grid along dim d per group: ceil(dims[d] / g[d]). */
QUANT__PRIVATE uint64_t quant__grid_dim(const quant_tensor *src, const quant_attrs *a, int d)
{
    const uint64_t n = (uint64_t)src->dims[d], g = (uint64_t)a->group_shape[d];
    return n / g + (n % g != 0);
}

/* src and dst: dtypes, ranks, shapes, data pointers; fills the plan's
   layout. */
/* inlined into each caller: a frame of its own would deepen the ops' stack */
QUANT__INLINE quant_status quant__check_tensors(const quant_tensor *src, const quant_tensor *dst,
                                                 const quant_attrs *a, int quantize, unsigned qdt,
                                                 quant__plan *p, size_t *count, uint64_t *channels)
{
    /* qdt is the quantized side's dtype: dst's or src's, or for choosing
       scales (where dst is src) the type they are chosen for */
    const quant_tensor *f = quantize ? src : dst;
    size_t n;
    quant_status st;
    int i, axis = 0;

    if (!quant__is_float(f->dtype)) return QUANT_ERR_DTYPE;
    if (qdt != QUANT_S8 && qdt != QUANT_U8 && !(QUANT__F8 && quant__is_f8(qdt)) && !quant__pk(qdt) &&
        !(QUANT__S16 && qdt == QUANT_S16) && !(qdt == QUANT_S32 && !quantize) && !quant__blk(qdt))
        return QUANT_ERR_DTYPE;
    /* src is counted with the larger element size, dst's dims compared
       with its: equal dims make an equal count */
    if ((st = quant__count(src, dst, (unsigned)(quant__dtype_size(f->dtype) > quant__dtype_size(qdt)
                                               ? quant__dtype_size(f->dtype) : quant__dtype_size(qdt)),
                           &n)) != QUANT_OK)
        return st;
    if (quant__blk(qdt)) { /* whole blocks along the last dim, one op per tensor */
        if (a->qtype != QUANT_PER_TENSOR) return QUANT_ERR_QTYPE;
        if (src->rank == 0 || ((uint64_t)src->dims[src->rank - 1] & (quant__blk(qdt) - 1u))) return QUANT_ERR_SHAPE;
    }
    if (n > 0 && (src->data == NULL || dst->data == NULL)) return QUANT_ERR_NULL;
    if (!quant__aligned(src) || !quant__aligned(dst)) return QUANT_ERR_ALIGN;

    p->quantize = (unsigned char)quantize;
    p->qdtype = (unsigned char)qdt;
    p->strided = 0; /* quant__check_memory sets it */
    p->src = src->data;
    p->dst = dst->data;
    p->outer = 1;
    p->channels = 1;
    p->inner = n;
    *channels = 1;
    if (a->qtype == QUANT_PER_CHANNEL) {
        /* -rank <= axis < rank, in one unsigned compare (never met at rank 0) */
        if ((uint64_t)a->axis + (uint64_t)src->rank >= 2u * (uint64_t)src->rank) return QUANT_ERR_AXIS;
        axis = (int)(a->axis < 0 ? a->axis + src->rank : a->axis);
        /* kept in 64 bits: with another dim 0 this one may pass SIZE_MAX,
           and the scale count is checked against it as given */
        *channels = (uint64_t)src->dims[axis];
        if (n == 0) {
            p->outer = p->channels = p->inner = 0; /* nothing to run */
        } else {
            /* every dim divides n <= SIZE_MAX: the products fit */
            p->channels = (size_t)src->dims[axis];
            p->inner = 1;
            for (i = axis + 1; i < src->rank; ++i) p->inner *= (size_t)src->dims[i];
            for (i = 0; i < axis; ++i) p->outer *= (size_t)src->dims[i];
        }
    }
    if (QUANT__GROUPS && a->qtype == QUANT_PER_GROUP) {
        for (i = 0; i < QUANT_MAX_RANK; ++i)
            if (i < src->rank ? a->group_shape[i] < 1 : a->group_shape[i] != 0) return QUANT_ERR_ATTR;
        /* the grid has at most n entries, or none when n is 0 */
        *channels = n > 0;
        for (i = 0; i < src->rank && n > 0; ++i) *channels *= quant__grid_dim(src, a, i);
    }
    p->qtype = (unsigned char)a->qtype;
    p->fdtype = (unsigned char)f->dtype;
    p->rank = (unsigned char)src->rank;
    p->axis = (unsigned char)(a->qtype == QUANT_PER_CHANNEL ? axis : 0);
    p->dims = src->dims;
    p->group = a->group_shape;
    p->general = (QUANT__HALF && f->dtype != QUANT_F32) || quant__pk(qdt) || (QUANT__S16 && qdt == QUANT_S16) ||
                 (QUANT__GROUPS && a->qtype == QUANT_PER_GROUP);
    if (quant__blk(qdt)) p->general = 2; /* quant__run_blocks */
    p->tscale = 0.0f; /* quant__check_scales sets it */
    *count = n;
    return QUANT_OK;
}

QUANT__PRIVATE quant_status quant__check_scale_values(const float *s, size_t n)
{
    if (n == 0) return QUANT_OK; /* s may be NULL then, and NULL + 0 is not C */
    return quant__scales_valid(s, n) ? QUANT_OK : QUANT_ERR_SCALE_VALUE;
}

/* Whether a scales or zero-point tensor has the grid's shape: rank 1 (or
   0 per tensor); per group, rank(src) with the grid's dims, or rank 1 when
   the grid has at most one dim above 1 (rank 0 when it has none). The
   element count is checked apart. */
QUANT__PRIVATE int quant__grid_shape_ok(const quant_tensor *t, const quant_tensor *src, const quant_attrs *a)
{
    int d, big = 0;
    if (!QUANT__GROUPS || a->qtype != QUANT_PER_GROUP) return t->rank == 1 || (t->rank == 0 && a->qtype == QUANT_PER_TENSOR);
    if (t->rank == src->rank) {
        for (d = 0; d < src->rank; ++d)
            if (t->dims[d] < 0 || (uint64_t)t->dims[d] != quant__grid_dim(src, a, d)) return 0;
        return 1;
    }
    for (d = 0; d < src->rank; ++d) big += quant__grid_dim(src, a, d) > 1;
    return (t->rank == 1 && big <= 1) || (t->rank == 0 && big == 0);
}

/* Zero-point count: 1 per tensor; 1 or C per channel; 1 or the grid's per
   group. channels is the scale count the qtype needs (1 per tensor). */
QUANT__PRIVATE int quant__zp_count_ok(uint64_t channels, size_t n)
{
    return n == 1 || (uint64_t)n == channels;
}

QUANT__PRIVATE quant_status quant__check_zp_values(const quant__plan *p)
{
    size_t i;
    for (i = 0; i < p->n_zps; ++i) {
        if (p->zp_kind == QUANT__ZP_I64) {
            const int64_t z = ((const int64_t *)p->zps)[i];
            if (((uint64_t)z + 0x80000000u) >> 32) return QUANT_ERR_ZP_VALUE; /* outside int32 */
        }
        if (((QUANT__F8 && quant__is_f8(p->qdtype)) || quant__is_f4(p->qdtype)) && quant__zp_at(p, i) != 0)
            return QUANT_ERR_ZPS;
    }
    return QUANT_OK;
}

QUANT__PRIVATE int quant__overlap(const void *a, size_t na, const void *b, size_t nb)
{
    const uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    if (na == 0 || nb == 0) return 0;
    return x < y + nb && y < x + na;
}

QUANT__PRIVATE unsigned quant__flags(const quant_attrs *a, unsigned q)
{
    static const unsigned by_rounding[4] = {
        QUANT__F_ZP_BEFORE,                  /* exact  */
        QUANT__F_RECIP | QUANT__F_ZP_BEFORE, /* onednn */
        0,                                   /* onnx   */
        QUANT__F_RECIP                       /* torch  */
    };
#ifdef QUANT_ONLY_EXACT
    unsigned f = QUANT__F_ZP_BEFORE; /* quant__check_attrs took no other rounding */
    (void)by_rounding;
#else
    unsigned f = by_rounding[a->rounding];
#endif
    if (q == QUANT_U8 || q == QUANT_U4 || q == QUANT_U2) f |= QUANT__F_U8;
    if (QUANT__S16 && q == QUANT_S16) f |= QUANT__F_S16;
    if (QUANT__F8) {
        if (q == QUANT_F8_E5M2) f |= QUANT__F_E5M2;
        if (a->f8_overflow == QUANT_F8_INF_NAN) f |= QUANT__F_INF_NAN;
        if (a->rounding == QUANT_ROUND_ONEDNN && quant__is_f8(q)) f |= QUANT__F_VIA_F16;
    }
    return f;
}

/* The plan's scales (sraw) read as floats, and their values checked. */
QUANT__PRIVATE quant_status quant__scale_values(quant__plan *plan)
{
    size_t i;
    if (plan->sdtype == QUANT_F32 && plan->tscale == 0.0f) {
        plan->scales = (const float *)plan->sraw;
        return quant__check_scale_values(plan->scales, plan->n_scales);
    }
    plan->scales = NULL;
    for (i = 0; i < plan->n_scales; ++i) {
        /* as the op reads them: widened, decoded, folded with tensor_scale */
        float sc = quant__scale_at(plan, i);
#if QUANT__MX
        if (plan->sdtype == QUANT_F8_E4M3 && sc < 0.0f) sc = 0.0f; /* NVFP4 scales are positive: as bad as 0 */
#endif
        if (!quant__scalar_scales_valid(&sc, 1)) return QUANT_ERR_SCALE_VALUE;
    }
    return QUANT_OK;
}

/* The scales, from a tensor (dynamic ops) or the attrs' list. Inlined,
   as are the next two, so that validation stays one frame deep. */
QUANT__INLINE quant_status quant__check_scales(quant__plan *plan, const quant_attrs *a, const quant_tensor *src,
                                               const quant_tensor *scales_t, uint64_t channels)
{
    size_t n_sc;
    plan->sdtype = QUANT_F32;
    if (quant__bits(a->tensor_scale) << 1) { /* +-0: none */
        const float t = a->tensor_scale;
        if (!QUANT__MX) return QUANT_ERR_ATTR;
        if (!(t >= quant__float(0x00800000u) && t <= quant__float(0x7F7FFFFFu))) return QUANT_ERR_SCALE_VALUE;
        plan->tscale = t;
    }
    if (scales_t) {
        if (!quant__is_float(scales_t->dtype) &&
            !(QUANT__MX && (scales_t->dtype == QUANT_E8M0 || scales_t->dtype == QUANT_F8_E4M3)))
            return QUANT_ERR_SCALES;
        if (!quant__grid_shape_ok(scales_t, src, a)) return QUANT_ERR_SCALES;
        if (quant__count(scales_t, NULL, 4, &n_sc) != QUANT_OK) return QUANT_ERR_SCALES;
        if (n_sc > 0 && scales_t->data == NULL) return QUANT_ERR_NULL;
        if (!quant__aligned(scales_t)) return QUANT_ERR_ALIGN;
        plan->sdtype = (unsigned char)scales_t->dtype;
        plan->sraw = scales_t->data;
    } else {
        n_sc = a->n_scales;
        plan->sraw = a->scales;
    }
    if ((uint64_t)n_sc != channels) return QUANT_ERR_SCALES; /* 1 per tensor */
    plan->n_scales = n_sc;
    if (plan->sdtype != QUANT_F32 || plan->tscale != 0.0f) plan->general = 1;
    return quant__scale_values(plan);
}

/* The zero points: a tensor (dynamic ops, optional), the attrs' list
   (static ops, optional), or none. */
QUANT__INLINE quant_status quant__check_zps(quant__plan *plan, const quant_attrs *a, const quant_tensor *src,
                                            int dynamic, const quant_tensor *zps_t, uint64_t channels)
{
    size_t n_zp;
    plan->zps = NULL;
    plan->zp_kind = QUANT__ZP_NONE;
    plan->n_zps = 0;
    if (dynamic && zps_t != NULL) {
        if (zps_t->dtype == QUANT_S8) plan->zp_kind = QUANT__ZP_S8;
        else if (zps_t->dtype == QUANT_U8) plan->zp_kind = QUANT__ZP_U8;
        else if (zps_t->dtype == QUANT_S32) plan->zp_kind = QUANT__ZP_S32;
        else if (QUANT__S16 && zps_t->dtype == QUANT_S16) plan->zp_kind = QUANT__ZP_S16;
        else if (quant__is_pint(zps_t->dtype))
            plan->zp_kind = zps_t->dtype == QUANT_S4 ? QUANT__ZP_S4 : zps_t->dtype == QUANT_U4 ? QUANT__ZP_U4
                          : zps_t->dtype == QUANT_S2 ? QUANT__ZP_S2 : QUANT__ZP_U2;
        else return QUANT_ERR_ZPS;
        if (quant__count(zps_t, NULL, (unsigned)quant__dtype_size(zps_t->dtype), &n_zp) != QUANT_OK) return QUANT_ERR_ZPS;
        /* the grid's shape, or one zero point for the whole tensor */
        if (!quant__grid_shape_ok(zps_t, src, a) &&
            !(a->qtype == QUANT_PER_GROUP && n_zp == 1 && (zps_t->rank <= 1 || zps_t->rank == src->rank)))
            return QUANT_ERR_ZPS;
        if (n_zp > 0 && zps_t->data == NULL) return QUANT_ERR_NULL;
        if (!quant__aligned(zps_t)) return QUANT_ERR_ALIGN;
        if (!quant__zp_count_ok(channels, n_zp)) return QUANT_ERR_ZPS;
        plan->zps = zps_t->data;
        plan->n_zps = n_zp;
    } else if (!dynamic && a->zps != NULL) {
        if (!quant__zp_count_ok(channels, a->n_zps)) return QUANT_ERR_ZPS;
        plan->zps = a->zps;
        plan->zp_kind = QUANT__ZP_I64;
        plan->n_zps = a->n_zps;
    }
    return quant__check_zp_values(plan);
}

/* the size of a plan's zero points */
QUANT__PRIVATE size_t quant__zp_bytes(const quant__plan *plan)
{
    return plan->zp_kind == QUANT__ZP_I64   ? 8u * plan->n_zps
         : plan->zp_kind == QUANT__ZP_S32   ? 4u * plan->n_zps
         : QUANT__S16 && plan->zp_kind == QUANT__ZP_S16 ? 2u * plan->n_zps
         : plan->zp_kind >= QUANT__ZP_S2    ? quant__bytes(QUANT_S2, plan->n_zps)
         : plan->zp_kind >= QUANT__ZP_S4    ? quant__bytes(QUANT_S4, plan->n_zps) : plan->n_zps;
}

/* dst must not overlap what the op still has to read */
/* Whether strides st (rank entries; NULL: none) make t other than dense
   row-major (a dim of one element may have any stride but a negative
   one). t's count fits. */
QUANT__NOINLINE int quant__strided(const quant_tensor *t, const int64_t *st)
{
    int64_t dense = 1;
    int i, any = 0, differ = 0;
    if (st == NULL) return 0;
    for (i = 0; i < t->rank; ++i)
        if (t->dims[i] == 0) { /* empty: its dims' product is unchecked; only a negative stride counts */
            for (i = 0; i < t->rank; ++i) differ |= st[i] < 0;
            return differ;
        }
    for (i = t->rank - 1; i >= 0; --i) {
        any |= st[i] != 0;
        differ |= st[i] < 0 || (t->dims[i] > 1 && st[i] != dense);
        dense *= t->dims[i] > 0 ? t->dims[i] : 1;
    }
    return any && differ;
}

#ifndef QUANT_NO_STRIDES
/* A strided tensor t: its strides' rules (see STRIDED TENSORS;
   own_addresses for dst), and, with n > 0 elements, the bytes from its
   first element to its last into *bytes. */
QUANT__NOINLINE quant_status quant__check_strides(const quant_tensor *t, const int64_t *st, int own_addresses, size_t n,
                                                 size_t *bytes)
{
    const uint64_t limit = (uint64_t)SIZE_MAX < (uint64_t)INT64_MAX ? (uint64_t)SIZE_MAX : (uint64_t)INT64_MAX;
    uint64_t last = 0, reach = 0, step;
    int i, k, prev = -1;
    for (i = 0; i < t->rank; ++i)
        if (st[i] < 0) return QUANT_ERR_STRIDE;
    if (n == 0) return QUANT_OK;
    for (i = 0; i < t->rank; ++i) {
        if (t->dims[i] <= 1) continue;
        if (quant__mul_over((uint64_t)(t->dims[i] - 1), (uint64_t)st[i], limit, &step) || step > limit - last)
            return QUANT_ERR_SHAPE;
        last += step;
    }
    if (last + 1 > limit / quant__dtype_size((unsigned)t->dtype)) return QUANT_ERR_SHAPE;
    /* a packed tensor's strides count elements (nibbles, 2-bit fields) */
    *bytes = quant__pk((unsigned)t->dtype) ? (size_t)(last >> quant__pk((unsigned)t->dtype)) + 1
                                           : (size_t)((last + 1) * quant__dtype_size((unsigned)t->dtype));
    if (!own_addresses) return QUANT_OK;
    /* the dims of more than one element, smallest stride first (ties by
       index): each stride must pass the last element the previous ones
       reach, so no two index tuples meet */
    for (k = 0; k < t->rank; ++k) {
        int next = -1;
        for (i = 0; i < t->rank; ++i) {
            if (t->dims[i] <= 1) continue;
            if (prev >= 0 && (st[i] < st[prev] || (st[i] == st[prev] && i <= prev)))
                continue;
            if (next < 0 || st[i] < st[next]) next = i;
        }
        if (next < 0) break;
        if ((uint64_t)st[next] <= reach) return QUANT_ERR_STRIDE;
        reach += (uint64_t)(t->dims[next] - 1) * (uint64_t)st[next]; /* <= last: no overflow */
        prev = next;
    }
    return QUANT_OK;
}
#endif

QUANT__INLINE quant_status quant__check_memory(quant__plan *plan, const quant_tensor *src,
                                               const quant_tensor *dst, size_t n, const quant_attrs *a)
{
    size_t sbytes = quant__bytes(src->dtype, n), dbytes = quant__bytes(dst->dtype, n);
    const size_t zbytes = quant__zp_bytes(plan);
    quant_status st;
#ifdef QUANT_NO_STRIDES
    if (a->src_strides || a->dst_strides) return QUANT_ERR_STRIDE; /* no strided path */
    (void)st;
#else
    if (quant__blk(plan->qdtype) && (quant__strided(src, a->src_strides) || quant__strided(dst, a->dst_strides)))
        return QUANT_ERR_STRIDE; /* blocks are dense */
    if (quant__strided(src, a->src_strides)) {
        if ((st = quant__check_strides(src, a->src_strides, 0, n, &sbytes)) != QUANT_OK) return st;
        plan->strided |= 1;
    }
    if (quant__strided(dst, a->dst_strides)) {
        if ((st = quant__check_strides(dst, a->dst_strides, 1, n, &dbytes)) != QUANT_OK) return st;
        plan->strided |= 2;
    }
    if (n == 0) plan->strided = 0; /* nothing runs */
#endif
    if (quant__overlap(src->data, sbytes, dst->data, dbytes)) return QUANT_ERR_OVERLAP;
    if (quant__overlap(plan->sraw, quant__bytes(plan->sdtype, plan->n_scales), dst->data, dbytes))
        return QUANT_ERR_OVERLAP;
    if (plan->zps && quant__overlap(plan->zps, zbytes, dst->data, dbytes)) return QUANT_ERR_OVERLAP;
    if (plan->zp_kind >= (QUANT__S16 ? QUANT__ZP_S16 : QUANT__ZP_S4)) plan->general = 1; /* s16 and packed zero points */
    return QUANT_OK;
}

#if QUANT__BLOCKS
/* A block type's op takes no scales, zero points or tensor scale: each
   block holds its own. */
QUANT__NOINLINE quant_status quant__check_blocks(quant__plan *plan, const quant_attrs *a, int dynamic,
                                                const quant_tensor *scales_t, const quant_tensor *zps_t)
{
    if (dynamic ? scales_t != NULL : (a->scales != NULL || a->n_scales != 0)) return QUANT_ERR_SCALES;
    if (dynamic ? zps_t != NULL : (a->zps != NULL || a->n_zps != 0)) return QUANT_ERR_ZPS;
    if (a->tensor_scale != 0.0f) return QUANT_ERR_ATTR;
    plan->sdtype = QUANT_F32;
    plan->sraw = NULL;
    plan->scales = NULL;
    plan->n_scales = 0;
    plan->zps = NULL;
    plan->zp_kind = QUANT__ZP_NONE;
    plan->n_zps = 0;
    plan->tscale = 0.0f;
    return QUANT_OK;
}
#endif

/* what a NULL attrs stands for */
static const quant_attrs quant__defaults = { QUANT_PER_TENSOR, 1, NULL, 0, NULL, 0, QUANT_ROUND_EXACT, QUANT_F8_SATURATE, { 0 },
                                            QUANT_ON_ERROR_UNTOUCHED, NULL, NULL, 0.0f };

/* Shared by all four operations: static and dynamic ops differ only in
   where scales and zero points come from (attrs lists, or tensors). */
QUANT__NOINLINE quant_status quant__prepare(quant__plan *plan, const quant_tensor *src, quant_tensor *dst,
                                            const quant_attrs *attrs, int quantize, int dynamic,
                                            const quant_tensor *scales_t, const quant_tensor *zps_t)
{
    const quant_attrs *a = attrs ? attrs : &quant__defaults;
    size_t n;
    uint64_t channels; /* dims[axis] as given: an empty tensor's may pass SIZE_MAX */
    quant_status st;
#if QUANT__BLOCKS
    unsigned blk;
#else
    const unsigned blk = 0;
#endif

    if (src == NULL || dst == NULL) return QUANT_ERR_NULL;
#if QUANT__BLOCKS
    blk = quant__blk((quantize ? dst : src)->dtype);
#endif
    if (dynamic && scales_t == NULL && !blk) return QUANT_ERR_NULL;
    if ((st = quant__check_attrs(a, !dynamic && !blk)) != QUANT_OK) return st;
    if ((st = quant__check_tensors(src, dst, a, quantize, (unsigned)(quantize ? dst : src)->dtype, plan, &n, &channels)) != QUANT_OK)
        return st;

#if QUANT__BLOCKS
    if (blk) {
        if ((st = quant__check_blocks(plan, a, dynamic, scales_t, zps_t)) != QUANT_OK) return st;
    } else
#endif
    {
        if ((st = quant__check_scales(plan, a, src, dynamic ? scales_t : NULL, channels)) != QUANT_OK) return st;
        if ((st = quant__check_zps(plan, a, src, dynamic, zps_t, channels)) != QUANT_OK) return st;
    }
    if ((st = quant__check_memory(plan, src, dst, n, a)) != QUANT_OK) return st;

    plan->flags = (unsigned short)quant__flags(a, plan->qdtype);
    if (QUANT__HALF && !quantize && dst->dtype == QUANT_BF16 && a->rounding == QUANT_ROUND_ONEDNN) plan->flags |= QUANT__F_BF16_FTZ;
    return QUANT_OK;
}

#if QUANT__BLOCKS
/* Blocks b0 .. b1-1 of a block-type op, through an f32 block on the stack
   when the float side is 16-bit */
QUANT__NOINLINE void quant__run_blocks(const quant__plan *p, size_t b0, size_t b1)
{
    const unsigned t = p->qdtype, be = quant__blk(t), bb = quant__blk_bytes(t), per = 256u / be;
    float buf[256];
    size_t b, k, m;
    if (p->quantize) {
        if (QUANT__F32_SIDE(p)) {
            const float *x = (const float *)p->src;
            if (quant__blk_enck(t, x + b0 * be, (uint8_t *)p->dst + b0 * bb, b1 - b0)) return;
            for (b = b0; b < b1; ++b) quant__blk_encode(t, x + b * be, (uint8_t *)p->dst + b * bb);
            return;
        }
#if QUANT__HALF
        /* 256 elements at a time widened to f32 */
        for (b = b0; b < b1; b += m) {
            const uint16_t *h = (const uint16_t *)p->src + b * be;
            m = b1 - b < per ? b1 - b : per;
#  if QUANT__SIMD_ANY
            quant__widen16(h, buf, m * be, p->fdtype == QUANT_BF16);
#  else
            for (k = 0; k < m * be; ++k) buf[k] = p->fdtype == QUANT_BF16 ? quant__bf16_to_f32(h[k]) : quant__f16_to_f32(h[k]);
#  endif
            if (!quant__blk_enck(t, buf, (uint8_t *)p->dst + b * bb, m))
                for (k = 0; k < m; ++k) quant__blk_encode(t, buf + k * be, (uint8_t *)p->dst + (b + k) * bb);
        }
#endif
        return;
    }
    if (QUANT__F32_SIDE(p)) {
        if (quant__blk_deck(t, (const uint8_t *)p->src + b0 * bb, (float *)p->dst + b0 * be, b1 - b0, 0u)) return;
        for (b = b0; b < b1; ++b) quant__blk_decode(t, (const uint8_t *)p->src + b * bb, (float *)p->dst + b * be);
        return;
    }
#if QUANT__HALF
    {
        const int bf = (p->flags & QUANT__F_BF16_FTZ) ? 2 : p->fdtype == QUANT_BF16;
        if (bf != 2 && quant__blk_deck(t, (const uint8_t *)p->src + b0 * bb, (uint16_t *)p->dst + b0 * be, b1 - b0,
                                       bf ? 1u : 2u))
            return;
        for (b = b0; b < b1; ++b) {
            uint16_t *o = (uint16_t *)p->dst + b * be;
            quant__blk_decode(t, (const uint8_t *)p->src + b * bb, buf);
#  if QUANT__SIMD_ANY
            quant__narrow16(buf, o, be, bf);
#  else
            for (k = 0; k < be; ++k)
                o[k] = bf == 2 ? quant__f32_to_bf16_ftz(buf[k]) : bf ? quant__f32_to_bf16(buf[k]) : quant__f32_to_f16(buf[k]);
#  endif
        }
    }
#endif
    (void)per; (void)buf; (void)k; (void)m;
}
#endif /* QUANT__BLOCKS */

/* ---- the general path ------------------------------------------------- */

/* Element i of a packed 4-bit tensor set to v's low nibble, the other
   nibble of its byte kept: elements may come in any order. An odd
   count's last high nibble is cleared once the op is done. */
QUANT__INLINE void quant__nib_put(uint8_t *d, size_t i, unsigned v)
{
    const unsigned sh = (unsigned)(i & 1u) * 4u;
    d[i >> 1] = (uint8_t)(((unsigned)d[i >> 1] & (0xF0u >> sh)) | (v & 15u) << sh);
}

#if QUANT__PACKED
/* Element i of packed data of 2^pk elements a byte: its raw bits, and
   set to v's low bits with the rest of its byte kept */
QUANT__INLINE unsigned quant__pk_get(const uint8_t *b, size_t i, unsigned pk)
{
    const unsigned w = 8u >> pk, at = (unsigned)(i & ((1u << pk) - 1u)) * w;
    return (unsigned)b[i >> pk] >> at & ((1u << w) - 1u);
}
QUANT__INLINE void quant__pk_put(uint8_t *d, size_t i, unsigned v, unsigned pk)
{
    const unsigned w = 8u >> pk, at = (unsigned)(i & ((1u << pk) - 1u)) * w, m = (1u << w) - 1u;
    d[i >> pk] = (uint8_t)(((unsigned)d[i >> pk] & ~(m << at)) | (v & m) << at);
}
#endif
#if QUANT__4BIT
/* q (an s8 or u8 result) saturated to packed integer type t's range and
   stored as element i: saturating to 8 bits, then to 2 or 4, is saturating
   to 2 or 4 */
QUANT__INLINE void quant__pint_put(uint8_t *d, size_t i, uint8_t q, unsigned t)
{
    const unsigned pk = quant__pk(t);
    const int u = t == QUANT_U4 || t == QUANT_U2, lo = u ? 0 : -(8 >> (2 * pk - 2)), hi = lo + (16 >> (2 * pk - 2)) - 1;
    int v = u ? (int)q : (int)(int8_t)q;
    v = v < lo ? lo : v > hi ? hi : v;
    quant__pk_put(d, i, (unsigned)v, pk);
}
/* element i of packed integer type t, sign-extended for s4 and s2 */
QUANT__INLINE int32_t quant__pint_get(const uint8_t *b, size_t i, unsigned t)
{
    const unsigned pk = quant__pk(t), flip = t == QUANT_S4 ? 8u : t == QUANT_S2 ? 2u : 0u;
    return (int32_t)(quant__pk_get(b, i, pk) ^ flip) - (int32_t)flip;
}
#endif

#if QUANT__MX
/* len elements of x into packed f4_e2m1 codes at elements e.. of d, with
   scales sc (a step of sstep) and the rounding's quotient */
QUANT__INLINE void quant__f4_put(const float *x, uint8_t *d, size_t e, size_t len, const float *sc, size_t sstep, unsigned f)
{
    quant__f4_enck(x, d, e, len, sc, sstep, f, 0);
}

/* len f4_e2m1 codes from element e of packed b, decoded and scaled */
QUANT__NOINLINE void quant__f4_get(const uint8_t *b, size_t e, float *y, size_t len, const float *sc, size_t sstep)
{
    size_t k;
    for (k = 0; k < len; ++k, ++e) y[k] = quant__f4_value((unsigned)b[e >> 1] >> ((e & 1u) * 4u) & 15u) * sc[k * sstep];
}
#endif

#if QUANT__S16
/* s16 (TFLite's 16x8 activations): section 3's integer rules element by
   element, saturating to [-32768, 32767] (the scalar s8 kernel, told by
   QUANT__F_S16, which quant__flags sets); dequantize fl((float)(q - z) * s)
   with q - z exact */
QUANT__INLINE void quant__s16_put(const float *x, int16_t *d, size_t len, const float *sc, const int32_t *zp, size_t step,
                                  unsigned f)
{
    quant__scalar_f32_to_i8(x, (uint8_t *)(void *)d, len, sc, step, zp, step, f);
}
QUANT__NOINLINE void quant__s16_get(const int16_t *q, float *y, size_t len, const float *sc, const int32_t *zp, size_t step)
{
    size_t k;
    for (k = 0; k < len; ++k) {
        /* q - z has up to 33 bits: its high and low 16 converted apart are
           exact, and their sum is rounded once (no 64-bit conversion helper
           pulled into firmware) */
        const int64_t d = (int64_t)q[k] - zp[k * step];
        const float v = (float)(int32_t)(d >> 16) * 65536.0f + (float)(int32_t)(d & 0xFFFF);
        y[k] = v * sc[k * step];
    }
}
#endif

/* the group size along dim d: the grid's cell (at most the dim) */
QUANT__INLINE size_t quant__cell(const quant__plan *p, int d)
{
    if (QUANT__GROUPS && p->qtype == QUANT_PER_GROUP)
        return p->group[d] < p->dims[d] ? (size_t)p->group[d] : (size_t)p->dims[d];
    if (p->qtype == QUANT_PER_CHANNEL && d == p->axis) return 1;
    return (size_t)p->dims[d];
}

#if QUANT__SIMD_ANY
/* One chunk of len elements from element e, with a scale and zero point
   per element: the source widened (f16, bf16) or unpacked (4-bit) into a
   staging buffer, one kernel call, the result narrowed or packed. */
QUANT__INLINE void quant__stage(const quant__plan *p, size_t e, size_t len, const float *sc, const int32_t *zp,
                                size_t step, float *fbuf, uint8_t *qbuf)
{
    const unsigned f = p->flags;
    const uint16_t *h = (const uint16_t *)p->src;
#if QUANT__4BIT
    size_t k;
#endif
    if (p->quantize) {
        const float *x = fbuf;
        uint8_t *q = quant__is_pint(p->qdtype) ? qbuf : (uint8_t *)p->dst + e;
        if (QUANT__F32_SIDE(p)) x = (const float *)p->src + e;
        else quant__widen16(h + e, fbuf, len, p->fdtype == QUANT_BF16);
#if QUANT__MX
        if (quant__is_f4(p->qdtype)) { quant__f4_put(x, (uint8_t *)p->dst, e, len, sc, step, f); return; }
#endif
#if QUANT__S16
        if (p->qdtype == QUANT_S16) { quant__s16_put(x, (int16_t *)p->dst + e, len, sc, zp, step, f); return; }
#endif
#ifndef QUANT_NO_F8
        if (quant__is_f8(p->qdtype)) quant__f32_to_f8(x, q, len, sc, step, 0, f);
        else
#endif
            quant__f32_to_i8(x, q, len, sc, step, zp, step, 0, f);
#if QUANT__4BIT
        if (quant__is_pint(p->qdtype))
            for (k = 0; k < len; ++k) quant__pint_put((uint8_t *)p->dst, e + k, qbuf[k], p->qdtype);
#endif
    } else {
        float *y = QUANT__F32_SIDE(p) ? (float *)p->dst + e : fbuf;
        uint16_t *out = (uint16_t *)p->dst + e;
        if (p->qdtype == QUANT_S32) {
            quant__i32_to_f32((const int32_t *)p->src + e, y, len, sc, step, zp, step, 0);
#if QUANT__MX
        } else if (quant__is_f4(p->qdtype)) {
            quant__f4_get((const uint8_t *)p->src, e, y, len, sc, step);
#endif
#if QUANT__S16
        } else if (p->qdtype == QUANT_S16) {
            quant__s16_get((const int16_t *)p->src + e, y, len, sc, zp, step);
#endif
#ifndef QUANT_NO_F8
        } else if (quant__is_f8(p->qdtype)) {
            quant__f8_to_f32((const uint8_t *)p->src + e, y, len, sc, step, 0, f);
#endif
        } else {
            const uint8_t *q = (const uint8_t *)p->src + e;
#if QUANT__4BIT
            if (quant__is_pint(p->qdtype)) {
                /* unpacked to bytes: s4 and s2 sign-extended to s8 */
                for (k = 0; k < len; ++k) qbuf[k] = (uint8_t)quant__pint_get((const uint8_t *)p->src, e + k, p->qdtype);
                q = qbuf;
            }
#endif
            quant__i8_to_f32(q, y, len, sc, step, zp, step, 0, f);
        }
        if (QUANT__F32_SIDE(p)) return;
        quant__narrow16(fbuf, out, len, (f & QUANT__F_BF16_FTZ) ? 2 : p->fdtype == QUANT_BF16);
    }
}

#else
/* Element e with scale s and zero point z, in a scalar build: one
   element through the scalar kernel, so that no kernel is compiled twice. */
QUANT__INLINE void quant__one(const quant__plan *p, size_t e, float s, int32_t z)
{
    const unsigned f = p->flags;
    const uint8_t *b = (const uint8_t *)p->src;
    uint8_t q;
    if (p->quantize) {
        const uint16_t *h = (const uint16_t *)p->src;
        uint8_t *d = (uint8_t *)p->dst;
        float x = 0.0f;
        const float *xp = &x;
        if (QUANT__F32_SIDE(p)) xp = (const float *)p->src + e;
        else x = p->fdtype == QUANT_F16 ? quant__f16_to_f32(h[e]) : quant__bf16_to_f32(h[e]);
#if QUANT__MX
        if (quant__is_f4(p->qdtype)) { quant__f4_put(xp, d, e, 1, &s, 0, f); return; }
#endif
#if QUANT__S16
        if (p->qdtype == QUANT_S16) { quant__s16_put(xp, (int16_t *)p->dst + e, 1, &s, &z, 0, f); return; }
#endif
#ifndef QUANT_NO_F8
        if (quant__is_f8(p->qdtype)) { quant__scalar_f32_to_f8(xp, d + e, 1, &s, 0, f); return; }
#endif
        if (!quant__is_pint(p->qdtype)) { quant__scalar_f32_to_i8(xp, d + e, 1, &s, 0, &z, 0, f); return; }
        quant__scalar_f32_to_i8(xp, &q, 1, &s, 0, &z, 0, f);
#if QUANT__4BIT
        quant__pint_put(d, e, q, p->qdtype);
#endif
    } else {
        float y, *yp = QUANT__F32_SIDE(p) ? (float *)p->dst + e : &y;
        if (p->qdtype == QUANT_S32) quant__scalar_i32_to_f32((const int32_t *)p->src + e, yp, 1, &s, 0, &z, 0);
#if QUANT__MX
        else if (quant__is_f4(p->qdtype)) quant__f4_get(b, e, yp, 1, &s, 0);
#endif
#if QUANT__S16
        else if (p->qdtype == QUANT_S16) quant__s16_get((const int16_t *)p->src + e, yp, 1, &s, &z, 0);
#endif
#ifndef QUANT_NO_F8
        else if (quant__is_f8(p->qdtype)) quant__scalar_f8_to_f32(b + e, yp, 1, &s, 0, f);
#endif
        else {
#if QUANT__4BIT
            q = quant__is_pint(p->qdtype) ? (uint8_t)quant__pint_get(b, e, p->qdtype) : b[e];
#else
            q = b[e];
#endif
            quant__scalar_i8_to_f32(&q, yp, 1, &s, 0, &z, 0, f);
        }
        if (QUANT__F32_SIDE(p)) return;
        ((uint16_t *)p->dst)[e] = p->fdtype == QUANT_F16       ? quant__f32_to_f16(y)
                                 : (f & QUANT__F_BF16_FTZ) ? quant__f32_to_bf16_ftz(y) : quant__f32_to_bf16(y);
    }
}
#endif

/* The grid entry of row r's first element (rows of row elements, groups
   of gl along them), from the row's index on every dim but the last. Its
   own frame, gone before the row's kernels run. */
QUANT__NOINLINE size_t quant__row_entry(const quant__plan *p, size_t r, size_t row, size_t gl)
{
    size_t base = 0, stride = row / gl + (row % gl != 0);
    int d;
    for (d = p->rank - 2; d >= 0; --d) {
        const size_t dim = (size_t)p->dims[d], g = quant__cell(p, d);
        base += r % dim / g * stride;
        stride *= dim / g + (dim % g != 0);
        r /= dim;
    }
    return base;
}

/* The general path: f16 and bf16 tensors and scales, 4-bit tensors and
   zero points, per-group grids. The tensor is walked a row (its last dim)
   at a time, in chunks of at most QUANT__STAGE elements, each with its
   scales and zero points laid out per element; rows r0 .. r1-1 (r1 past
   the end: to the end). */
QUANT__NOINLINE void quant__run_general(const quant__plan *p, size_t r0, size_t r1)
{
#if QUANT__SIMD_ANY
    float sc[QUANT__STAGE], fbuf[QUANT__STAGE];
    int32_t zp[QUANT__STAGE];
    uint8_t qbuf[QUANT__STAGE];
    size_t k;
#endif
    const int last = p->rank - 1;
    const size_t row = p->rank ? (size_t)p->dims[last] : 1;
    const size_t gl = p->rank ? quant__cell(p, last) : 1;
    size_t r, j;
#if QUANT__SIMD_ANY
    /* dequantize of 4-bit weights with 4-bit zero points of their own
       signedness (or none) and at most QUANT__STAGE groups a row: the
       weight-decompression row kernel, a row at a time */
    const int w4 = QUANT__4BIT && !p->quantize && quant__is_4bit(p->qdtype) && row / gl < QUANT__STAGE &&
                   !(p->flags & QUANT__F_BF16_FTZ) &&
                   (p->zp_kind == QUANT__ZP_NONE ||
                    p->zp_kind == (p->qdtype == QUANT_S4 ? QUANT__ZP_S4 : QUANT__ZP_U4));
    const int half_i8 = p->quantize && !QUANT__F32_SIDE(p) && (p->qdtype == QUANT_S8 || p->qdtype == QUANT_U8);
#if QUANT__MX
    /* dequantize of f4_e2m1 with at most QUANT__STAGE groups a row: the
       table row kernel, a row at a time */
    const int f4 = !p->quantize && quant__is_f4(p->qdtype) && row / gl < QUANT__STAGE && !(p->flags & QUANT__F_BF16_FTZ);
#endif
#endif
    if (r1 > p->outer * p->channels * p->inner / row) r1 = p->outer * p->channels * p->inner / row;
    for (r = r0; r < r1; ++r) {
        const size_t base = quant__row_entry(p, r, row, gl);
#if QUANT__SIMD_ANY
        if (w4 && !((r * row) & 1u)) {
            /* 4-bit weights: the row's scales (and zero points, repacked
               from nibble 0) laid out once, then the row kernel */
            const size_t ng = row / gl + (row % gl != 0);
            const unsigned sgn = p->qdtype == QUANT_S4;
            for (k = 0; k < ng; ++k) {
                sc[k] = quant__scale_at(p, base + k);
                if (p->zp_kind != QUANT__ZP_NONE) {
                    const unsigned z = (unsigned)quant__zp_at(p, p->n_zps > 1 ? base + k : 0) & 15u;
                    qbuf[k >> 1] = (uint8_t)((k & 1u) ? qbuf[k >> 1] | z << 4 : z);
                }
            }
            quant__w4((const uint8_t *)p->src + (r * row >> 1), p->fdtype == QUANT_F32 ? (void *)((float *)p->dst + r * row)
                                                                                    : (void *)((uint16_t *)p->dst + r * row),
                      row, sc, p->zp_kind != QUANT__ZP_NONE ? qbuf : NULL, gl, sgn,
                      p->fdtype == QUANT_F32 ? QUANT__W4_F32 : p->fdtype == QUANT_F16 ? QUANT__W4_F16 : QUANT__W4_BF16);
            continue;
        }
#if QUANT__MX
        if (f4 && !((r * row) & 1u)) {
            const size_t ng = row / gl + (row % gl != 0);
            /* e8m0 scales as they are (the row kernel's exponent adds), others as f32 */
            const int e8 = p->sdtype == QUANT_E8M0 && p->tscale == 0.0f;
            if (!e8)
                for (k = 0; k < ng; ++k) sc[k] = quant__scale_at(p, base + k); /* folded already */
            quant__f4_rowk((const uint8_t *)p->src + (r * row >> 1), p->fdtype == QUANT_F32 ? (void *)((float *)p->dst + r * row)
                                                                                        : (void *)((uint16_t *)p->dst + r * row),
                          row, e8 ? (const void *)((const uint8_t *)p->sraw + base) : (const void *)sc, e8 ? QUANT_E8M0 : QUANT_F32,
                          0.0f, gl,
                          p->fdtype == QUANT_F32 ? QUANT__F4_F32 : p->fdtype == QUANT_F16 ? QUANT__F4_F16 : QUANT__F4_BF16);
            continue;
        }
#endif
        for (j = 0; j < row; j += QUANT__STAGE) {
            const size_t len = row - j < QUANT__STAGE ? row - j : QUANT__STAGE;
            /* a group at a time: left elements remain of grid entry at */
            size_t at = base + j / gl, left = gl - j % gl;
            float s1 = quant__scale_at(p, at);
            int32_t z1 = quant__zp_at(p, p->n_zps > 1 ? at : 0);
            if (half_i8 && left >= row - j) {
                /* one scale and zero point for the rest of the row, an s8/u8
                   result from f16/bf16: the 16-bit row kernel, in one call */
                quant__half_to_i8((const uint16_t *)p->src + r * row + j, (uint8_t *)p->dst + r * row + j, row - j, s1, z1,
                                  p->flags, p->fdtype == QUANT_BF16);
                break;
            }
            if (left >= len) { /* one scale and zero point for the chunk */
                quant__stage(p, r * row + j, len, &s1, &z1, 0, fbuf, qbuf);
                continue;
            }
            for (k = 0; k < len; ++k) {
                sc[k] = s1;
                zp[k] = z1;
                if (--left == 0 && k + 1 < len) {
                    ++at;
                    left = gl;
                    s1 = quant__scale_at(p, at);
                    z1 = quant__zp_at(p, p->n_zps > 1 ? at : 0);
                }
            }
            quant__stage(p, r * row + j, len, sc, zp, 1, fbuf, qbuf);
        }
#else
        for (j = 0; j < row; ++j) {
            const size_t at = base + j / gl;
            quant__one(p, r * row + j, quant__scale_at(p, at), quant__zp_at(p, p->n_zps > 1 ? at : 0));
        }
#endif
    }
}

/* A copy of an op's plan, field by field: a struct assignment this size
   becomes a call of memcpy on some cores (ARMv6-M), which a firmware
   build without libc does not have. */
QUANT__NOINLINE void quant__copy_op(quant__plan *to, const quant__plan *from)
{
    to->quantize = from->quantize; to->zp_kind = from->zp_kind; to->flags = from->flags;
    to->qdtype = from->qdtype; to->general = from->general; to->fdtype = from->fdtype;
    to->sdtype = from->sdtype; to->qtype = from->qtype; to->rank = from->rank; to->axis = from->axis;
    to->strided = from->strided;
    to->src = from->src; to->dst = from->dst;
    to->outer = from->outer; to->channels = from->channels; to->inner = from->inner;
    to->scales = from->scales; to->n_scales = from->n_scales; to->zps = from->zps; to->n_zps = from->n_zps;
    to->dims = from->dims; to->group = from->group; to->sraw = from->sraw; to->tscale = from->tscale;
}

/* a packed result at dst: the bits of its last byte past its last element are 0 */
QUANT__NOINLINE void quant__nib_end(const quant__plan *p, void *dst)
{
    const size_t n = p->outer * p->channels * p->inner;
    const unsigned pk = quant__pk(p->qdtype), r = (unsigned)(n & ((1u << pk) - 1u));
    uint8_t *d = (uint8_t *)dst;
    if (p->quantize && r) d[n >> pk] = (uint8_t)(d[n >> pk] & ((1u << (r * (8u >> pk))) - 1u));
}

#ifndef QUANT_NO_STRIDES
/* ---- strided tensors -------------------------------------------------- */

/* Where row r of a strided walk starts: the rows run along dim p->axis2
   (see quant__strided_rows), the other dims counted row-major. Offsets
   in elements of src (so) and dst (dof), the grid entry of the row's
   first element (base) and the grid's step along the row's dim (gstep).
   NULL strides: dense row-major. Its own frame, gone before the kernels. */
typedef struct quant__rowpos { size_t so, dof, base, gstep; } quant__rowpos;
QUANT__NOINLINE void quant__row_at(const quant__plan *p, const int64_t *ss, const int64_t *ds, int a, size_t r,
                                   quant__rowpos *at)
{
    size_t dense = 1, gs = 1;
    int d;
    at->so = at->dof = at->base = 0;
    at->gstep = 1;
    for (d = (int)p->rank - 1; d >= 0; --d) {
        const size_t dim = (size_t)p->dims[d], g = quant__cell(p, d), cells = dim / g + (dim % g != 0);
        if (d != a) {
            const size_t i = r % dim;
            r /= dim;
            at->so += i * (ss ? (size_t)ss[d] : dense);
            at->dof += i * (ds ? (size_t)ds[d] : dense);
            at->base += i / g * gs;
        } else at->gstep = gs;
        gs *= cells;
        dense *= dim;
    }
}

/* The dim a strided walk runs along: the one dst steps through most
   finely (its writes stay close together), of those with more than one
   element; the last dim when none has. */
QUANT__PRIVATE int quant__walk_dim(const quant__plan *p, const int64_t *ds)
{
    int d, a = -1;
    for (d = (int)p->rank - 1; d >= 0; --d)
        if (p->dims[d] > 1 && (a < 0 || (ds ? ds[d] < ds[a] : 0))) a = d;
    return a < 0 ? (int)p->rank - 1 : a;
}

/* the row-major step of dim a, in elements */
QUANT__PRIVATE size_t quant__dense_step(const quant__plan *p, int a)
{
    size_t step = 1;
    int d;
    for (d = (int)p->rank - 1; d > a; --d) step *= (size_t)p->dims[d];
    return step;
}

/* rows of a strided walk (a rank-0 tensor is one row of one element) */
QUANT__PRIVATE size_t quant__strided_rows(const quant__plan *p, const int64_t *ds)
{
    const int a = quant__walk_dim(p, ds);
    const size_t n = p->outer * p->channels * p->inner;
    return a < 0 || n == 0 ? n : n / (size_t)p->dims[a];
}

/* A copy of len elements of esize bytes from `from`, element k at k *
   fstep, to `to`, element k at k * tstep (steps in elements). */
QUANT__PRIVATE void quant__copy_elems(void *to, size_t tstep, const void *from, size_t fstep, size_t len, size_t esize)
{
    size_t k;
    if (esize == 4) {
        uint32_t *t = (uint32_t *)to;
        const uint32_t *f = (const uint32_t *)from;
        for (k = 0; k < len; ++k) t[k * tstep] = f[k * fstep];
    } else if (esize == 2) {
        uint16_t *t = (uint16_t *)to;
        const uint16_t *f = (const uint16_t *)from;
        for (k = 0; k < len; ++k) t[k * tstep] = f[k * fstep];
    } else {
        uint8_t *t = (uint8_t *)to;
        const uint8_t *f = (const uint8_t *)from;
        for (k = 0; k < len; ++k) t[k * tstep] = f[k * fstep];
    }
}

#if QUANT__PACKED
/* A copy of len elements of packed data, 2^pk a byte: element
   `fat + k * fstep` of `from` to element `tat + k * tstep` of `to`; the
   rest of each byte written is kept. */
QUANT__PRIVATE void quant__copy_pk(uint8_t *to, size_t tat, size_t tstep, const uint8_t *from, size_t fat, size_t fstep,
                                   size_t len, unsigned pk)
{
    size_t k;
    for (k = 0; k < len; ++k, tat += tstep, fat += fstep) quant__pk_put(to, tat, quant__pk_get(from, fat, pk), pk);
}
#endif

#if QUANT__SIMD_ANY
/* rows a strided walk gathers at a time when src is contiguous across
   them (a layout change): QUANT__TROWS * QUANT__STAGE elements of staging */
#define QUANT__TROWS 8

/* mc rows of len elements of esize bytes into tile (row m at m * len):
   element k of row m from from[m + k * fstep], so that src is read along
   the rows' common contiguous dim */
QUANT__PRIVATE void quant__gather_rows(void *tile, const void *from, size_t fstep, size_t mc, size_t len, size_t esize)
{
    size_t k, m;
    if (esize == 4) {
        quant__gather32((uint32_t *)tile, (const uint32_t *)from, fstep, mc, len);
    } else if (esize == 2) {
        uint16_t *t = (uint16_t *)tile;
        for (k = 0; k < len; ++k)
            for (m = 0; m < mc; ++m) t[m * len + k] = ((const uint16_t *)from)[k * fstep + m];
    } else {
        uint8_t *t = (uint8_t *)tile;
        for (k = 0; k < len; ++k)
            for (m = 0; m < mc; ++m) t[m * len + k] = ((const uint8_t *)from)[k * fstep + m];
    }
}
#endif

/* Rows r0 .. r1-1 of an op with strided src or dst (ss, ds; NULL:
   dense). Each row, in chunks of QUANT__STAGE elements, is gathered
   into a buffer unless it is contiguous in src, run through the kernels
   of the general path with its scales and zero points, and scattered
   from a buffer unless it is contiguous in dst: the dense op's bits. A
   packed 4-bit side always goes through a buffer, a nibble at a time (its
   rows may start inside a byte), and only its elements' nibbles are
   written.
   When src is contiguous along b, the dim that numbers consecutive rows,
   and the scales do not change along b, a SIMD build gathers up to
   QUANT__TROWS rows at once, reading src along b (NCHW read as rows along
   C: a tile of C x 16 pixels). */
QUANT__NOINLINE void quant__run_strided(const quant__plan *p, const int64_t *ss, const int64_t *ds, size_t r0, size_t r1)
{
    const int a = quant__walk_dim(p, ds);
    const size_t len_row = p->rank ? (size_t)p->dims[a] : 1, g = p->rank ? quant__cell(p, a) : 1;
    const size_t dense_a = quant__dense_step(p, a);
    const size_t sa = ss && p->rank ? (size_t)ss[a] : dense_a, da = ds && p->rank ? (size_t)ds[a] : dense_a;
    const size_t ssz = quant__dtype_size(p->quantize ? p->fdtype : p->qdtype);
    const size_t dsz = quant__dtype_size(p->quantize ? p->qdtype : p->fdtype);
    const size_t rows = quant__strided_rows(p, ds);
    /* a packed side: src when dequantizing, dst when quantizing */
    const unsigned pk = quant__pk(p->qdtype);
    const int src4 = pk && !p->quantize, dst4 = pk && p->quantize;
    quant__plan q;
    quant__rowpos at;
    size_t r, j;
#if QUANT__SIMD_ANY
    const int b = p->rank < 2 ? -1 : a == (int)p->rank - 1 ? (int)p->rank - 2 : (int)p->rank - 1;
    const size_t sb = b < 0 ? 0 : ss ? (size_t)ss[b] : quant__dense_step(p, b);
    const size_t db = b < 0 ? 0 : ds ? (size_t)ds[b] : quant__dense_step(p, b);
    const int tiled = !src4 && !dst4 && b >= 0 && sa != 1 && sb == 1 && len_row <= QUANT__STAGE &&
                      quant__cell(p, b) == (size_t)p->dims[b];
    /* ... and a tile goes through the kernels in one piece when its rows
       are one run of dst with one scale and zero point */
    const int whole = tiled && da == 1 && db == len_row && g >= len_row;
    float tile[QUANT__TROWS * QUANT__STAGE], dbuf[QUANT__STAGE], sc[QUANT__STAGE], fbuf[QUANT__STAGE];
    int32_t zp[QUANT__STAGE];
    uint8_t qbuf[QUANT__STAGE];
    /* what sc and zp hold, laid out per element: the chunk's first grid
       entry, its offset into that entry's group and its length (rows
       that start at the same entry reuse them) */
    size_t laid_e = SIZE_MAX, laid_off = 0, laid_len = 0, k, m, mc = 1;
#else
    float sbuf[1], dbuf[1];
    const size_t m = 0, mc = 1, db = 0;
#endif
    quant__copy_op(&q, p);
    if (r1 > rows) r1 = rows;
    for (r = r0; r < r1; r += mc) {
        quant__row_at(p, ss, ds, a, r, &at);
#if QUANT__SIMD_ANY
        if (tiled) {
            const size_t left = (size_t)p->dims[b] - r % (size_t)p->dims[b];
            mc = QUANT__TROWS * QUANT__STAGE / len_row; /* as many rows as the tile holds */
            if (mc > left) mc = left;
            if (mc > r1 - r) mc = r1 - r;
            quant__gather_rows(tile, (const char *)p->src + at.so * ssz, sa, mc, len_row, ssz);
            if (whole) { /* the tile's rows follow each other in dst, one grid entry */
                const float s1 = quant__scale_at(p, at.base);
                const int32_t z1 = quant__zp_at(p, p->n_zps > 1 ? at.base : 0);
                const size_t n = mc * len_row, piece = QUANT__F32_SIDE(p) ? n : QUANT__STAGE; /* fbuf's size */
                q.src = tile;
                q.dst = (char *)p->dst + at.dof * dsz;
                for (k = 0; k < n; k += piece) quant__stage(&q, k, n - k < piece ? n - k : piece, &s1, &z1, 0, fbuf, qbuf);
                continue;
            }
        }
        for (m = 0; m < mc; ++m)
#endif
        for (j = 0; j < len_row; j += QUANT__STAGE) {
            const size_t len = len_row - j < QUANT__STAGE ? len_row - j : QUANT__STAGE;
            const size_t fat = at.so + j * sa, tat = at.dof + m * db + j * da; /* in elements (4-bit: nibbles) */
            const char *from = (const char *)p->src + (src4 ? 0 : fat * ssz);
            char *to = (char *)p->dst + (dst4 ? 0 : tat * dsz);
            const size_t e0 = at.base + j / g * at.gstep, e1 = at.base + (j + len - 1) / g * at.gstep;
#if QUANT__SIMD_ANY
            float s1;
            int32_t z1;
            char *row = (char *)tile + m * len_row * ssz;
            q.src = tiled ? (const void *)row : sa == 1 && !src4 ? (const void *)from : (const void *)tile;
            q.dst = da == 1 && !dst4 ? (void *)to : (void *)dbuf;
#if QUANT__PACKED
            if (src4) quant__copy_pk((uint8_t *)tile, 0, 1, (const uint8_t *)p->src, fat, sa, len, pk);
            else
#endif
            if (!tiled && sa != 1) quant__copy_elems(tile, 1, from, sa, len, ssz);
            if (e0 == e1) { /* one grid entry for the chunk */
                s1 = quant__scale_at(p, e0);
                z1 = quant__zp_at(p, p->n_zps > 1 ? e0 : 0);
                quant__stage(&q, 0, len, &s1, &z1, 0, fbuf, qbuf);
            } else {
                if (laid_e != e0 || laid_off != j % g || laid_len != len) {
                    for (k = 0; k < len; ++k) {
                        const size_t e = at.base + (j + k) / g * at.gstep;
                        sc[k] = quant__scale_at(p, e);
                        zp[k] = quant__zp_at(p, p->n_zps > 1 ? e : 0);
                    }
                    laid_e = e0;
                    laid_off = j % g;
                    laid_len = len;
                }
                quant__stage(&q, 0, len, sc, zp, 1, fbuf, qbuf);
            }
#if QUANT__PACKED
            if (dst4) quant__copy_pk((uint8_t *)p->dst, tat, da, (const uint8_t *)dbuf, 0, 1, len, pk);
            else
#endif
            if (da != 1) quant__copy_elems(to, da, dbuf, 1, len, dsz);
#else
            size_t k;
            q.src = sbuf;
            q.dst = dbuf;
            for (k = 0; k < len; ++k) {
                const size_t e = e0 == e1 ? e0 : at.base + (j + k) / g * at.gstep;
#if QUANT__PACKED
                if (src4) quant__copy_pk((uint8_t *)sbuf, 0, 1, (const uint8_t *)p->src, fat + k * sa, 1, 1, pk);
                else
#endif
                    quant__copy_elems(sbuf, 1, from + k * sa * ssz, 1, 1, ssz);
                quant__one(&q, 0, quant__scale_at(p, e), quant__zp_at(p, p->n_zps > 1 ? e : 0));
#if QUANT__PACKED
                if (dst4) quant__copy_pk((uint8_t *)p->dst, tat + k * da, 1, (const uint8_t *)dbuf, 0, 1, 1, pk);
                else
#endif
                    quant__copy_elems(to + k * da * dsz, 1, dbuf, 1, 1, dsz);
            }
#endif
        }
    }
    /* a dense packed dst (strides on src only): as in the dense op */
    if (!ds && r1 == rows) quant__nib_end(p, p->dst);
}
#endif /* QUANT_NO_STRIDES */

/* Runs a validated plan over a non-empty tensor. A scalar build takes
   short runs of one scale element by element: as fast as a kernel call
   per run, and shallower on the stack. */
QUANT__INLINE void quant__go(const quant__plan *p)
{
#if QUANT__BLOCKS
    if (p->general == 2) {
        quant__run_blocks(p, 0, p->inner / quant__blk(p->qdtype));
        return;
    }
#endif
    if (p->general || (!QUANT__SIMD_ANY && (p->n_scales > 1 || p->n_zps > 1) && p->inner < QUANT__LONG_RUN))
        quant__run_general(p, 0, SIZE_MAX);
    else quant__exec(p);
}

/* Validation runs in its own frame, gone before the kernels run: the
   deepest call chain stays within a firmware stack budget. */
QUANT__INLINE quant_status quant__op(const quant_tensor *src, quant_tensor *dst,
                                      const quant_attrs *attrs, int quantize, int dynamic,
                                      const quant_tensor *scales_t, const quant_tensor *zps_t)
{
    quant__plan p;
    const quant_status st = quant__prepare(&p, src, dst, attrs, quantize, dynamic, scales_t, zps_t);
    if (st != QUANT_OK) return st;
    if (p.inner == 0 || p.outer == 0) return QUANT_OK; /* an empty tensor: no pointer is touched */
#ifndef QUANT_NO_STRIDES
    if (p.strided) {
        quant__run_strided(&p, p.strided & 1 ? attrs->src_strides : NULL, p.strided & 2 ? attrs->dst_strides : NULL, 0,
                           SIZE_MAX);
        return QUANT_OK; /* a strided 4-bit dst: only its elements' nibbles are written */
    }
#endif
    quant__go(&p);
    quant__nib_end(&p, p.dst);
    return QUANT_OK;
}

#ifndef QUANT_NO_PLAN
/* ---- >>plan: prepared operations, run whole or a range at a time -------- */

/* A plan's units: tiles of QUANT__TILE elements (one scale and zero
   point), runs of one channel (the kernels' per-channel cases), or rows of
   the last dim, two when a 4-bit row has an odd length (the general path):
   never a byte of dst in two units. */
enum { QUANT__UNITS_TILES = 0, QUANT__UNITS_RUNS = 1, QUANT__UNITS_ROWS = 2, QUANT__UNITS_STRIDED = 3, QUANT__UNITS_BLOCKS = 4 };
#define QUANT__TILE 64u
#define QUANT__PLAN_MAGIC 0x51504C4Eu

/* t's dims into to[], zeros past its rank */
QUANT__PRIVATE void quant__dims_of(int64_t *to, const quant_tensor *t)
{
    int i;
    for (i = 0; i < QUANT_MAX_RANK; ++i) to[i] = t && i < t->rank ? t->dims[i] : 0;
}

/* whether t has the dtype, rank and dims a plan was prepared with */
QUANT__PRIVATE quant_status quant__same(const quant_tensor *t, unsigned dt, int rank, const int64_t *dims)
{
    int i;
    if ((unsigned)t->dtype != dt) return QUANT_ERR_DTYPE;
    if (t->rank != rank) return QUANT_ERR_SHAPE;
    for (i = 0; i < rank; ++i)
        if (t->dims[i] != dims[i]) return QUANT_ERR_SHAPE;
    return QUANT_OK;
}

/* A validated op p into plan: a copy of it, the shapes a run must have,
   and the plan's units. Scales and zps are NULL for the static ops. */
QUANT__NOINLINE void quant__fill(quant_plan *plan, const quant__plan *p, quant_op op, const quant_tensor *src,
                                const quant_tensor *scales, const quant_tensor *zps, const quant_tensor *dst,
                                const quant_attrs *attrs)
{
    const size_t n = p->outer * p->channels * p->inner;
    size_t row, k;
    quant__copy_op(&plan->op_, p);
    quant__dims_of(plan->dims_, src);
    for (k = 0; k < QUANT_MAX_RANK; ++k) plan->group_[k] = attrs ? attrs->group_shape[k] : 0;
    quant__dims_of(plan->sdims_, scales);
    quant__dims_of(plan->zdims_, zps);
    plan->op_code_ = (unsigned char)op;
    plan->src_dt_ = (unsigned char)src->dtype;
    plan->dst_dt_ = (unsigned char)dst->dtype;
    plan->s_dt_ = (unsigned char)(scales ? scales->dtype : QUANT_UNDEF);
    plan->s_rank_ = (signed char)(scales ? scales->rank : -1);
    plan->z_dt_ = (unsigned char)(zps ? zps->dtype : QUANT_UNDEF);
    plan->z_rank_ = (signed char)(zps ? zps->rank : -1);
    plan->bytes_[0] = quant__bytes(src->dtype, n);
    plan->bytes_[1] = quant__bytes(dst->dtype, n);
    plan->bytes_[2] = quant__bytes(p->sdtype, p->n_scales);
    plan->bytes_[3] = quant__zp_bytes(p);
    for (k = 0; k < QUANT_MAX_RANK; ++k) {
        plan->sstrides_[k] = (p->strided & 1) && (int)k < src->rank ? attrs->src_strides[k] : 0;
        plan->dstrides_[k] = (p->strided & 2) && (int)k < dst->rank ? attrs->dst_strides[k] : 0;
    }
#ifndef QUANT_NO_STRIDES
    /* validated already: these only measure the byte ranges */
    if (p->strided & 1) (void)quant__check_strides(src, attrs->src_strides, 0, n, &plan->bytes_[0]);
    if (p->strided & 2) (void)quant__check_strides(dst, attrs->dst_strides, 1, n, &plan->bytes_[1]);
    if (p->strided) {
        /* a unit is a row of the walk; with a packed dst, whose rows may
           share bytes, the whole walk is one unit */
        const size_t rows = quant__strided_rows(p, p->strided & 2 ? plan->dstrides_ : NULL);
        const int one = p->quantize && quant__pk(p->qdtype);
        plan->mode_ = QUANT__UNITS_STRIDED;
        plan->unit_ = one ? rows : 1;
        plan->units_ = one ? rows != 0 : rows;
    } else
#endif
#if QUANT__BLOCKS
    if (p->general == 2) { /* a unit is a block */
        plan->mode_ = QUANT__UNITS_BLOCKS;
        plan->unit_ = 1;
        plan->units_ = n / quant__blk(p->qdtype);
    } else
#endif
    if (n == 0 || (p->n_scales <= 1 && p->n_zps <= 1)) {
        plan->mode_ = QUANT__UNITS_TILES;
        plan->unit_ = QUANT__TILE;
        plan->units_ = n / QUANT__TILE + (n % QUANT__TILE != 0);
    } else if (!p->general) {
        plan->mode_ = QUANT__UNITS_RUNS;
        plan->unit_ = p->inner;
        plan->units_ = p->outer * p->channels;
    } else {
        row = p->rank ? (size_t)src->dims[p->rank - 1] : 1;
        /* units of whole bytes: 1, 2 or 4 rows */
        k = (size_t)1 << quant__pk(p->qdtype);
        while (row % k) k >>= 1; /* gcd(row, elements a byte) */
        k = ((size_t)1 << quant__pk(p->qdtype)) / k;
        plan->mode_ = QUANT__UNITS_ROWS;
        plan->unit_ = k;
        plan->units_ = n / row / k + (n / row % k != 0);
    }
    plan->magic_ = QUANT__PLAN_MAGIC;
}

QUANT__DEF quant_status quant_prepare(quant_plan *plan, quant_op op, const quant_tensor *src,
                                      const quant_tensor *scales, const quant_tensor *zps,
                                      const quant_tensor *dst, const quant_attrs *attrs)
{
    const int quantize = op == QUANT_OP_QUANTIZE || op == QUANT_OP_DYNAMIC_QUANTIZE;
    const int dynamic = op == QUANT_OP_DYNAMIC_QUANTIZE || op == QUANT_OP_DYNAMIC_DEQUANTIZE;
    quant__plan p;
    quant_status st;
    if (plan == NULL) return QUANT_ERR_NULL;
    if ((unsigned)op > (unsigned)QUANT_OP_DYNAMIC_DEQUANTIZE) return QUANT_ERR_ATTR;
    if (!dynamic) scales = zps = NULL;
    /* the cast: validation only reads dst */
    st = quant__prepare(&p, src, (quant_tensor *)(uintptr_t)dst, attrs, quantize, dynamic, scales, zps);
    if (st == QUANT_OK) quant__fill(plan, &p, op, src, scales, zps, dst, attrs);
    return st;
}

/* A plan of QUANT__UNITS_RUNS splits into runs o * C + c of inner
   elements; a range of them is the rest of a first row, whole rows, and
   the start of a last row, each a box [rows, c1 - c0, inner] for the
   kernels (this mode has no general path). Points p's view, which now
   starts at run `at`, at the box that starts at run u < u1, and returns
   the run after it. Moving from box to box, not from the tensor's start,
   keeps the base pointers out of the caller's frame, and this frame off
   the kernels' call chain. */
QUANT__NOINLINE size_t quant__box(const quant_plan *plan, quant__plan *p, size_t at, size_t u, size_t u1)
{
    const size_t C = plan->op_.channels, inner = plan->op_.inner, c0 = u % C, a = at % C;
    const size_t fsz = quant__dtype_size(p->fdtype), qsz = quant__dtype_size(p->qdtype);
    const size_t zsz = p->zp_kind == QUANT__ZP_I64 ? 8u : p->zp_kind == QUANT__ZP_S32 ? 4u : 1u;
    const size_t rows = c0 != 0 || u1 - u < C ? 1 : (u1 - u) / C;
    const size_t c1 = rows > 1 || u1 - u >= C - c0 ? C : c0 + (u1 - u);
    p->outer = rows;
    p->channels = c1 - c0;
    p->src = (const char *)p->src + (p->quantize ? fsz : qsz) * (u - at) * inner;
    p->dst = (char *)p->dst + (p->quantize ? qsz : fsz) * (u - at) * inner;
    /* the scales and zero points of channels c0 .. c1-1 */
    p->scales = c0 >= a ? p->scales + (c0 - a) : p->scales - (a - c0);
    p->n_scales = c1 - c0;
    if (plan->op_.n_zps > 1) {
        p->zps = c0 >= a ? (const char *)p->zps + zsz * (c0 - a) : (const char *)p->zps - zsz * (a - c0);
        p->n_zps = c1 - c0;
    }
    return u - c0 + (rows - 1) * C + c1;
}

/* This run's tensors bound to a copy of the plan's op, after the checks
   of everything that depends on the data. */
QUANT__NOINLINE quant_status quant__bind(const quant_plan *plan, quant__plan *p, const quant_tensor *src,
                                        const quant_tensor *scales, const quant_tensor *zps, quant_tensor *dst)
{
    quant_status st;
    size_t n;
    if (src == NULL || dst == NULL) return QUANT_ERR_NULL;
    if (plan->magic_ != QUANT__PLAN_MAGIC) return QUANT_ERR_PLAN;
    quant__copy_op(p, &plan->op_);
    if ((st = quant__same(src, plan->src_dt_, p->rank, plan->dims_)) != QUANT_OK) return st;
    if ((st = quant__same(dst, plan->dst_dt_, p->rank, plan->dims_)) != QUANT_OK) return st;
    n = p->outer * p->channels * p->inner;
    if (n > 0 && (src->data == NULL || dst->data == NULL)) return QUANT_ERR_NULL;
    if (!quant__aligned(src) || !quant__aligned(dst)) return QUANT_ERR_ALIGN;
    p->src = src->data;
    p->dst = dst->data;
    p->dims = plan->dims_;
    p->group = plan->group_;
#if QUANT__BLOCKS
    if (p->general == 2 && plan->op_code_ >= QUANT_OP_DYNAMIC_QUANTIZE) { /* blocks take no tensors */
        if (scales != NULL) return QUANT_ERR_SCALES;
        if (zps != NULL) return QUANT_ERR_ZPS;
    } else
#endif
    if (plan->op_code_ >= QUANT_OP_DYNAMIC_QUANTIZE) {
        /* new scales and zero points: the same shapes, values checked */
        if (scales == NULL) return QUANT_ERR_NULL;
        if (quant__same(scales, plan->s_dt_, plan->s_rank_, plan->sdims_) != QUANT_OK) return QUANT_ERR_SCALES;
        if (p->n_scales > 0 && scales->data == NULL) return QUANT_ERR_NULL;
        if (!quant__aligned(scales)) return QUANT_ERR_ALIGN;
        if ((zps == NULL) != (plan->z_rank_ < 0)) return QUANT_ERR_ZPS;
        if (zps != NULL) {
            if (quant__same(zps, plan->z_dt_, plan->z_rank_, plan->zdims_) != QUANT_OK) return QUANT_ERR_ZPS;
            if (p->n_zps > 0 && zps->data == NULL) return QUANT_ERR_NULL;
            if (!quant__aligned(zps)) return QUANT_ERR_ALIGN;
            p->zps = zps->data;
        }
        p->sraw = scales->data;
        if ((st = quant__scale_values(p)) != QUANT_OK) return st;
        if ((st = quant__check_zp_values(p)) != QUANT_OK) return st;
    }
    /* dst must not overlap what the run reads */
    if (quant__overlap(src->data, plan->bytes_[0], dst->data, plan->bytes_[1]) ||
        quant__overlap(p->sraw, plan->bytes_[2], dst->data, plan->bytes_[1]) ||
        (p->zps && quant__overlap(p->zps, plan->bytes_[3], dst->data, plan->bytes_[1])))
        return QUANT_ERR_OVERLAP;
    return QUANT_OK;
}

QUANT__DEF quant_status quant_run_range(const quant_plan *plan, const quant_tensor *src, const quant_tensor *scales,
                                        const quant_tensor *zps, quant_tensor *dst, size_t begin, size_t end)
{
    quant__plan p;
    quant_status st;
#if QUANT__SIMD_ANY
    int64_t dim;
#endif
    if (plan == NULL) return QUANT_ERR_NULL;
    if ((st = quant__bind(plan, &p, src, scales, zps, dst)) != QUANT_OK) return st;
    if (begin > end || end > plan->units_) return QUANT_ERR_RANGE;
    if (begin == end) return QUANT_OK;
#ifndef QUANT_NO_STRIDES
    if (plan->mode_ == QUANT__UNITS_STRIDED) {
        quant__run_strided(&p, p.strided & 1 ? plan->sstrides_ : NULL, p.strided & 2 ? plan->dstrides_ : NULL,
                           begin * plan->unit_, end * plan->unit_);
        return QUANT_OK;
    }
#endif
    if (begin == 0 && end == plan->units_) {
        quant__go(&p);
#if QUANT__BLOCKS
    } else if (plan->mode_ == QUANT__UNITS_BLOCKS) {
        quant__run_blocks(&p, begin, end);
#endif
#if !QUANT__SIMD_ANY
    } else if (plan->mode_ == QUANT__UNITS_TILES && p.general) {
        /* a scalar build walks elements one at a time anyway: as a rank-0
           view, rows of one element, the range is rows e0 .. e1-1 (no
           dims array on the stack: firmware's budget) */
        p.rank = 0;
        quant__run_general(&p, begin * QUANT__TILE, end * QUANT__TILE);
#endif
    } else if (plan->mode_ == QUANT__UNITS_TILES) {
        /* elements e0 .. e1-1, one scale: a rank-1 tensor (e0 is a multiple
           of the tile, so 4-bit bytes stay whole) */
        const size_t n = p.outer * p.channels * p.inner, e0 = begin * QUANT__TILE;
        const size_t e1 = end * QUANT__TILE < n ? end * QUANT__TILE : n;
#if QUANT__SIMD_ANY
        dim = (int64_t)(e1 - e0);
        p.dims = &dim; /* the general path's row (a scalar build takes no general plan here) */
#endif
        p.rank = 1;
        p.axis = 0;
        p.qtype = QUANT_PER_TENSOR;
        p.outer = p.channels = 1;
        p.inner = e1 - e0;
        p.src = (const char *)p.src + quant__bytes(p.quantize ? p.fdtype : p.qdtype, e0);
        p.dst = (char *)p.dst + quant__bytes(p.quantize ? p.qdtype : p.fdtype, e0);
        quant__go(&p);
    } else if (plan->mode_ == QUANT__UNITS_RUNS) {
        size_t at = 0, u = begin;
        while (u < end) {
            const size_t next = quant__box(plan, &p, at, u, end);
            quant__exec(&p);
            at = u;
            u = next;
        }
    } else {
        quant__run_general(&p, begin * plan->unit_, end * plan->unit_);
    }
    if (end == plan->units_) quant__nib_end(&plan->op_, dst->data);
    return QUANT_OK;
}

QUANT__DEF quant_status quant_run(const quant_plan *plan, const quant_tensor *src, const quant_tensor *scales,
                                  const quant_tensor *zps, quant_tensor *dst)
{
    quant__plan p;
    quant_status st;
    if (plan == NULL) return QUANT_ERR_NULL;
    if ((st = quant__bind(plan, &p, src, scales, zps, dst)) != QUANT_OK) return st;
    if (plan->units_ == 0) return QUANT_OK;
#ifndef QUANT_NO_STRIDES
    if (plan->mode_ == QUANT__UNITS_STRIDED) {
        quant__run_strided(&p, p.strided & 1 ? plan->sstrides_ : NULL, p.strided & 2 ? plan->dstrides_ : NULL, 0, SIZE_MAX);
        return QUANT_OK;
    }
#endif
    quant__go(&p);
    quant__nib_end(&p, p.dst);
    return QUANT_OK;
}

QUANT__DEF size_t quant_plan_units(const quant_plan *plan)
{
    return plan && plan->magic_ == QUANT__PLAN_MAGIC ? plan->units_ : 0;
}
#endif /* QUANT_NO_PLAN */

#ifndef QUANT_NO_CHOOSE
/* ---- choosing scales and zero points from the data --------------------- */

/* The plan's grid with the dims after the last one split into several
   cells merged into it (inner elements each): per tensor is one dim of n
   elements in one cell; per row of [M, K], one dim of M * K in cells of
   K. No arrays: a firmware stack budget holds. */
typedef struct quant__grid {
    int    r;                 /* merged rank, >= 1 */
    size_t inner;             /* the elements a step of dim r-1 takes */
    size_t cells, cell_elems; /* the grid's entries; the elements of a whole cell */
} quant__grid;

/* merged dim d's size (what 0), its cells' size (1) or its cell count (2) */
QUANT__NOINLINE size_t quant__gsize(const quant__plan *p, const quant__grid *g, int d, int what)
{
    const size_t k = d == g->r - 1 ? g->inner : 1u;
    const size_t n = p->rank == 0 ? 1u : (size_t)p->dims[d] * k, c = p->rank == 0 ? 1u : quant__cell(p, d) * k;
    return what == 0 ? n : what == 1 ? c : n / c + (n % c != 0);
}
#define quant__gdim(p, g, d) quant__gsize(p, g, d, 0)
#define quant__gcell(p, g, d) quant__gsize(p, g, d, 1)
#define quant__gcount(p, g, d) quant__gsize(p, g, d, 2)

QUANT__PRIVATE void quant__grid_of(const quant__plan *p, quant__grid *g)
{
    int d, t = (int)p->rank - 1;
    g->inner = 1;
    while (t > 0 && quant__cell(p, t) == (size_t)p->dims[t]) g->inner *= (size_t)p->dims[t--];
    g->r = t < 0 ? 1 : t + 1;
    g->cells = g->cell_elems = 1;
    for (d = 0; d < g->r; ++d) {
        g->cells *= quant__gcount(p, g, d);
        g->cell_elems *= quant__gcell(p, g, d);
    }
}

#if QUANT__MX
/* the largest magnitude of an MX element type, and its exponent (as
   oneDNN's e8m0 of it: 448 -> 8) */
QUANT__PRIVATE float quant__mx_max(unsigned t)
{
    return t == QUANT_F8_E4M3 ? 448.0f : t == QUANT_F8_E5M2 ? 57344.0f : t == QUANT_F4_E2M1 ? 6.0f : 127.0f;
}

/* A grid entry's block scale under QUANT_MX, QUANT_MX_RCEIL or QUANT_NVFP4
   from its range (lo > hi: no element but NaN): *code the e8m0 (MX) or
   f8_e4m3 (NVFP4) byte, *s its value. g: NVFP4's tensor_scale, else 1;
   f: the rounding's flags (onednn: oneDNN's dynamic_fp clamp and f16
   route). 0 when the range is infinite. Doc block: CHOOSING SCALES. */
QUANT__PRIVATE int quant__mx_scale(float lo, float hi, unsigned t, unsigned scheme, float g, unsigned f, uint8_t *code,
                                   float *s)
{
    const float amax = -lo > hi ? -lo : hi > 0.0f ? hi : 0.0f;
    uint32_t u;
    int c;
    if (amax > 3.40282347e38f) return 0;
    if (scheme == QUANT_MX) { /* E(amax) - emax: the exponents of amax and of the type's max */
        c = (int)(quant__bits(amax) >> 23) - (int)(quant__bits(quant__mx_max(t)) >> 23) + 127;
        c = c < 0 ? 0 : c;
    } else if (scheme == QUANT_MX_RCEIL) { /* the smallest power of two >= amax / max */
        u = quant__bits(amax / quant__mx_max(t));
        c = (u >> 23) == 0 ? (u > 0x00400000u) : (int)(u >> 23) + ((u & 0x7FFFFFu) != 0);
    } else {
#ifndef QUANT_NO_F8
        const int onednn = (f & QUANT__F_RECIP) && (f & QUANT__F_ZP_BEFORE);
        const float one = 1.0f;
        float v = amax / 6.0f;
        v = v / g;
        if (onednn) v = v < 448.0f ? (v > 0.125f ? v : 0.125f) : 448.0f; /* oneDNN's clamp */
        else v = v > quant__float(0x3B000000u) ? v : quant__float(0x3B000000u); /* 2^-9, e4m3's least */
        /* to e4m3, saturating: rounded once, or under onednn through f16 */
        quant__scalar_f32_to_f8(&v, code, 1, &one, 0, onednn ? QUANT__F_RECIP | QUANT__F_VIA_F16 : 0u);
        *s = quant__e4m3_value(*code);
        return 1;
#else
        (void)f; (void)g;
        return 0;
#endif
    }
    *code = (uint8_t)(c > 254 ? 254 : c);
    *s = quant__e8m0_value(*code);
    return 1;
}

/* The fused MX / NVFP4 quantize of x with scale s to t, under flags f:
   section 3 and 7.1's rules (s8 kept to [-127, 127]); under onednn,
   oneDNN's ref_matmul: x * fl(1/s) clamped to +-max, NaN to -max, then
   converted (f8 through f16). */
QUANT__PRIVATE unsigned quant__mx_code(float x, float s, unsigned t, unsigned f)
{
    const int onednn = (f & QUANT__F_RECIP) && (f & QUANT__F_ZP_BEFORE);
    const float r = 1.0f / s, max = quant__mx_max(t), one = 1.0f;
    float v = (f & QUANT__F_RECIP) ? x * r : x / s;
    uint8_t c;
    if (onednn) v = v > -max ? (v < max ? v : max) : -max; /* NaN fails the first test: -max */
    if (t == QUANT_F4_E2M1) return quant__f4_code(v, x, 0);
#ifndef QUANT_NO_F8
    if (quant__is_f8(t)) {
        if (onednn) quant__scalar_f32_to_f8(&v, &c, 1, &one, 0, f & ~QUANT__F_INF_NAN);
        else quant__scalar_f32_to_f8(&x, &c, 1, &s, 0, f);
        return c;
    }
#endif
    (void)one; (void)c;
    if (v != v) return 0; /* the zero point */
    return (unsigned)(uint8_t)(int8_t)quant__rne_i32(v > -127.0f ? (v < 127.0f ? v : 127.0f) : -127.0f);
}
#endif

/* Elements e .. e+len-1 quantized with sc/zp: one pair (step 0) or one
   per element (step 1). */
QUANT__PRIVATE void quant__fuse_q(const quant__plan *p, size_t e, size_t len, const float *sc, const int32_t *zp,
                                  size_t step)
{
    size_t j;
#if QUANT__MX
    if (p->flags & QUANT__F_MX) {
        const int onednn = (p->flags & QUANT__F_RECIP) && (p->flags & QUANT__F_ZP_BEFORE);
        const uint16_t *h = (const uint16_t *)p->src;
        if (quant__is_f4(p->qdtype)) {
            /* the f4 encoder, with oneDNN's clamp under onednn */
            if (QUANT__F32_SIDE(p)) { quant__f4_enck((const float *)p->src + e, (uint8_t *)p->dst, e, len, sc, step, p->flags, onednn); return; }
#if QUANT__SIMD_ANY
            {
                float xb[QUANT__STAGE];
                for (j = 0; j < len; j += QUANT__STAGE) {
                    const size_t l = len - j < QUANT__STAGE ? len - j : QUANT__STAGE;
                    quant__widen16(h + e + j, xb, l, p->fdtype == QUANT_BF16);
                    quant__f4_enck(xb, (uint8_t *)p->dst, e + j, l, sc + j * step, step, p->flags, onednn);
                }
                return;
            }
#endif
        }
#if QUANT__SIMD_ANY
        if (!onednn && p->qdtype != QUANT_F4_E2M1) {
            /* f8 and s8 take section 3's kernels (s8's -128 then made -127: MXINT8 is symmetric) */
            quant__plan q;
            quant__copy_op(&q, p);
            q.flags = (unsigned short)(p->flags & ~QUANT__F_MX);
            quant__fuse_q(&q, e, len, sc, zp, step);
            if (p->qdtype == QUANT_S8)
                for (j = 0; j < len; ++j) ((uint8_t *)p->dst)[e + j] = (uint8_t)(((uint8_t *)p->dst)[e + j] == 0x80u ? 0x81u : ((uint8_t *)p->dst)[e + j]);
            return;
        }
#endif
        for (j = 0; j < len; ++j, ++e) { /* an element at a time, from f32, f16 or bf16 */
            const float x = QUANT__F32_SIDE(p) ? ((const float *)p->src)[e]
                          : p->fdtype == QUANT_BF16 ? quant__bf16_to_f32(h[e]) : quant__f16_to_f32(h[e]);
            const unsigned c = quant__mx_code(x, sc[j * step], p->qdtype, p->flags);
            if (quant__is_f4(p->qdtype)) quant__nib_put((uint8_t *)p->dst, e, c);
            else ((uint8_t *)p->dst)[e] = (uint8_t)c;
        }
        return;
    }
#endif
#if QUANT__SIMD_ANY
    float fbuf[QUANT__STAGE];
    uint8_t qbuf[QUANT__STAGE];
    if (!step && !quant__is_pint(p->qdtype)) {
        uint8_t *q = (uint8_t *)p->dst + e;
        if (QUANT__F32_SIDE(p)) {
#ifndef QUANT_NO_F8
            if (quant__is_f8(p->qdtype)) { quant__f32_to_f8((const float *)p->src + e, q, len, sc, 0, 0, p->flags); return; }
#endif
            /* the scale was chosen from these elements: BOUNDED */
            quant__f32_to_i8((const float *)p->src + e, q, len, sc, 0, zp, 0, 0, p->flags | QUANT__F_BOUNDED);
            return;
        }
        if (!quant__is_f8(p->qdtype)) {
            quant__half_to_i8((const uint16_t *)p->src + e, q, len, sc[0], zp[0], p->flags, p->fdtype == QUANT_BF16);
            return;
        }
    }
    for (j = 0; j < len; j += QUANT__STAGE)
        quant__stage(p, e + j, len - j < QUANT__STAGE ? len - j : QUANT__STAGE, sc + j * step, zp + j * step, step,
                     fbuf, qbuf);
#else
    for (j = 0; j < len; ++j) quant__one(p, e + j, sc[j * step], zp[j * step]);
#endif
}

#if QUANT__SIMD_ANY
/* below this many elements a group, a kernel call per group costs more
   than laying the scales out per element (measured at 8, 16, 32, 64) */
#define QUANT__SMALL_GROUP 32
/* A run of small groups of g elements quantized with sc/zp[k] for group k:
   the scales laid out per element a staging chunk at a time, one kernel
   call per chunk rather than per group. */
QUANT__NOINLINE void quant__fuse_q_groups(const quant__plan *p, size_t e, size_t len, size_t g, const float *sc,
                                          const int32_t *zp)
{
    float sbuf[QUANT__STAGE];
    int32_t zbuf[QUANT__STAGE];
    size_t j, k, grp = 0, left = g; /* the group of element j, and what is left of it */
    for (j = 0; j < len; j += QUANT__STAGE) {
        const size_t l = len - j < QUANT__STAGE ? len - j : QUANT__STAGE;
        for (k = 0; k < l;) {
            const size_t m = left < l - k ? left : l - k, end = k + m;
            const float sv = sc[grp];
            const int32_t zv = zp[grp];
            for (; k < end; ++k) { sbuf[k] = sv; zbuf[k] = zv; }
            left -= m;
            if (left == 0) { ++grp; left = g; }
        }
        quant__fuse_q(p, e + j, l, sbuf, zbuf, 1);
    }
}
#endif

/* Grid entries c0 .. c1-1 (row-major), a run of contiguous elements at a
   time: with lo (and hi) their ranges are widened, else they are
   quantized with sc/zp. Index c - c0 of each array is entry c's. */
QUANT__PRIVATE void quant__walk(const quant__plan *p, const quant__grid *g, size_t c0, size_t c1, float *lo,
                                float *hi, const float *sc, const int32_t *zp)
{
    const int L = g->r - 1, half = QUANT__F32_SIDE(p) ? 0 : p->fdtype == QUANT_BF16 ? 1 : 2;
    const size_t cl = quant__gcell(p, g, L), dl = quant__gdim(p, g, L), gl = quant__gcount(p, g, L);
#if QUANT__MX && QUANT__SIMD_ANY
    const int mxf4 = (p->flags & QUANT__F_MX) && quant__is_f4(p->qdtype) && QUANT__F32_SIDE(p);
#endif
    const size_t es = half ? 2u : 4u;
    size_t c = c0;
    while (c < c1) {
        /* entry c and the entries after it on its grid row; the lines of
           the last dim its cell spans (rows of the box), t-th at a time */
        const size_t j0 = c % gl, j1 = c1 - c < gl - j0 ? j0 + (c1 - c) : gl;
        const size_t b = j0 * cl, len = (j1 * cl < dl ? j1 * cl : dl) - b, i0 = c - c0;
        size_t rows = 1, t, k;
        int d;
        for (d = 0; d < L; ++d) rows *= quant__gcell(p, g, d);
        for (t = 0; t < rows; ++t) {
            /* element offset of line t of the box, or past the tensor on a ragged edge */
            size_t e = 0, stride = 1, tt = t, gc = c / gl;
            int inside = 1;
            for (d = L - 1; d >= 0; --d) {
                const size_t w = quant__gcell(p, g, d), n = quant__gdim(p, g, d), m = quant__gcount(p, g, d);
                const size_t at = gc % m * w + tt % w;
                inside &= at < n;
                e += at * stride;
                stride *= n;
                gc /= m;
                tt /= w;
            }
            if (!inside) continue;
            e = e * dl + b;
            if (lo && cl == 1) quant__minmax_cols((const char *)p->src + e * es, len, half, lo + i0, hi + i0);
            else if (cl == 1) quant__fuse_q(p, e, len, sc + i0, zp + i0, 1);
#if QUANT__SIMD_ANY
            else if (lo) quant__minmax_groups((const char *)p->src + e * es, len, cl, half, lo + i0, hi + i0);
#if QUANT__MX
            else if (mxf4) /* MX or NVFP4 to f4 from f32: the encoder a group at a time within its pass */
                quant__f4_enck_g((const float *)p->src + e, (uint8_t *)p->dst, e, len, cl, sc + i0, p->flags,
                                 (p->flags & QUANT__F_RECIP) && (p->flags & QUANT__F_ZP_BEFORE));
#endif
            else if (cl < QUANT__SMALL_GROUP) quant__fuse_q_groups(p, e, len, cl, sc + i0, zp + i0);
#endif
            else for (k = 0; k < len; k += cl) {
                const size_t m = len - k < cl ? len - k : cl, i = i0 + k / cl;
                if (lo) quant__minmax((const char *)p->src + (e + k) * es, m, half, lo + i, hi + i);
                else quant__fuse_q(p, e + k, m, sc + i, zp + i, 0);
            }
        }
        c += j1 - j0;
    }
}

/* qmin and qmax of t: an f8 type's largest finite value as both bounds */
QUANT__PRIVATE void quant__qrange(unsigned t, int32_t *qmin, int32_t *qmax)
{
    *qmin = t == QUANT_S8 ? -128 : t == QUANT_S4 ? -8 : t == QUANT_S2 ? -2 : 0;
    *qmax = t == QUANT_S8 ? 127 : t == QUANT_U8 ? 255 : t == QUANT_S4 ? 7 : t == QUANT_U4 ? 15 : t == QUANT_S2 ? 1
          : t == QUANT_U2 ? 3 : t == QUANT_F8_E4M3 ? 448 : 57344;
    if (quant__is_f8(t)) *qmin = -*qmax;
}


/* A grid entry's scale *s, zero point *z and multiplier *m (what the fused
   op multiplies by under nudged: XNNPACK's, whose reciprocal is *s; 1
   under the other schemes, which divide or multiply as attrs say) from
   its range; 0 when the range is infinite. Doc block: CHOOSING SCALES. */
QUANT__PRIVATE int quant__qparams(float lo, float hi, unsigned t, unsigned scheme, float *s, int32_t *z, float *m)
{
    const float min0 = lo < 0.0f ? lo : 0.0f, max0 = hi > 0.0f ? hi : 0.0f;
    const float tiny = 1.17549435e-38f, big = 3.40282347e38f; /* 2^-126, the largest float */
    int32_t qmin, qmax;
    quant__qrange(t, &qmin, &qmax);
    *z = 0;
    *m = 1.0f;
    if (min0 < -big || max0 > big) return 0;
    if (scheme == QUANT_SYMMETRIC) {
        const float a = -min0 > max0 ? -min0 : max0;
        *s = a == 0.0f ? 1.0f : a / (float)qmax;
        if (*s < tiny) *s = tiny;
    } else if (scheme == QUANT_ASYMMETRIC) {
        const float range = max0 - min0;
        if (range > big) return 0;
        if (range == 0.0f) { *s = 1.0f; return 1; }
        *s = range / (float)(qmax - qmin);
        if (*s < tiny) *s = tiny;
        *z = qmin + quant__rne_i32(-min0 / *s);
        *z = *z < qmin ? qmin : *z > qmax ? qmax : *z;
    } else {
        /* XNNPACK's for s8 (s4, s2: its -8 .. 7, -2 .. 1), the unsigned
           types its zero point moved by 128 (8, 2) */
        const float qlo = (float)(qmin < 0 ? qmin : -(qmax + 1) / 2), qhi = qlo + (float)(qmax - qmin);
        float mult = 1.0f, dmin, dmax, zf;
        if (min0 != max0) {
            const float range = max0 - min0;
            if (range > big) return 0;
            mult = (qhi - qlo) / range;
        }
        *s = 1.0f / mult;
        if (!(*s >= tiny)) { *s = tiny; mult = 8.50705917e37f; } /* 2^126 */
        dmin = min0 * mult;
        QUANT__FENCE(dmin);
        dmax = max0 * mult;
        QUANT__FENCE(dmax);
        zf = (qlo + dmin) + (qhi + dmax) > 0.0f ? qlo - dmin : qhi - dmax;
        zf = zf < qlo ? qlo : zf > qhi ? qhi : zf;
        *z = quant__rne_i32(zf) + (qmin < 0 ? 0 : (qmax + 1) / 2);
        *m = mult;
    }
    return 1;
}

/* quant__check_tensors for quantize, one copy for both of the choose
   pair's calls (the pair has no stack budget; a copy inlined in each
   would cost some 700 bytes of a firmware build's flash) */
QUANT__NOINLINE quant_status quant__check_tensors_once(const quant_tensor *src, const quant_tensor *dst,
                                                      const quant_attrs *a, unsigned qdt, quant__plan *p,
                                                      size_t *count, uint64_t *channels)
{
    return quant__check_tensors(src, dst, a, 1, qdt, p, count, channels);
}

/* The arguments of quant_choose_qparams; fills the plan's layout. */
QUANT__PRIVATE quant_status quant__check_choose(quant__plan *p, const quant_tensor *src, const quant_tensor *dst,
                                                unsigned qdt, unsigned scheme, const quant_attrs *a,
                                                const quant_tensor *scales, const quant_tensor *zps, size_t *n)
{
    uint64_t channels;
    size_t ns, nz = 0, sb;
    quant_status st;
    const int mx = scheme >= QUANT_MX && scheme <= QUANT_NVFP4; /* the block-scale schemes */
    /* the scales' dtype a scheme writes besides f32 */
    const unsigned sdt = scheme == QUANT_NVFP4 ? QUANT_F8_E4M3 : mx ? QUANT_E8M0 : QUANT_F32;
    if (src == NULL || scales == NULL || (zps == NULL && scheme != QUANT_SYMMETRIC && !mx)) return QUANT_ERR_NULL;
    if (scheme > QUANT_NVFP4 || (mx && !QUANT__MX)) return QUANT_ERR_ATTR;
#ifdef QUANT_NO_F8
    if (scheme == QUANT_NVFP4) return QUANT_ERR_ATTR; /* its scales are f8 */
#endif
    if ((st = quant__check_attrs(a, 0)) != QUANT_OK) return st;
    if (quant__blk(qdt)) return QUANT_ERR_DTYPE; /* blocks choose their own scales: quantize to them */
    if ((st = quant__check_tensors_once(src, src, a, qdt, p, n, &channels)) != QUANT_OK) return st;
    if (mx) {
        if (scheme == QUANT_NVFP4 ? !quant__is_f4(qdt) : !(quant__is_f8(qdt) || quant__is_f4(qdt) || qdt == QUANT_S8))
            return QUANT_ERR_DTYPE;
        if (a->tensor_scale != 0.0f) {
            if (scheme != QUANT_NVFP4) return QUANT_ERR_ATTR; /* an MX scale is a power of two */
            if (!(a->tensor_scale >= quant__float(0x00800000u) && a->tensor_scale <= quant__float(0x7F7FFFFFu)))
                return QUANT_ERR_SCALE_VALUE;
        }
        if (zps) return QUANT_ERR_ZPS;
    } else {
        if (scheme != QUANT_SYMMETRIC && quant__is_f8(qdt)) return QUANT_ERR_DTYPE;
        if (quant__is_f4(qdt) || (QUANT__S16 && qdt == QUANT_S16)) return QUANT_ERR_DTYPE; /* f4 takes the block-scale schemes; s16 none yet */
        if (a->tensor_scale != 0.0f) return QUANT_ERR_ATTR; /* nor a second scale */
    }
    if ((scales->dtype != QUANT_F32 && scales->dtype != sdt) || !quant__grid_shape_ok(scales, src, a) ||
        quant__count(scales, NULL, 4, &ns) != QUANT_OK || (a->qtype == QUANT_PER_TENSOR ? ns != 1 : (uint64_t)ns != channels))
        return QUANT_ERR_SCALES;
    sb = quant__bytes(scales->dtype, ns);
    if (ns > 0 && scales->data == NULL) return QUANT_ERR_NULL;
    if (!quant__aligned(scales)) return QUANT_ERR_ALIGN;
    if (zps) {
        /* the type must hold every zero point the scheme can give */
        const int fits = scheme == QUANT_SYMMETRIC || zps->dtype == QUANT_S32 ||
                         (zps->dtype == QUANT_S8 && qdt != QUANT_U8) ||
                         (zps->dtype == QUANT_U8 && (qdt == QUANT_U8 || qdt == QUANT_U4 || qdt == QUANT_U2));
        if ((zps->dtype != QUANT_S8 && zps->dtype != QUANT_U8 && zps->dtype != QUANT_S32) || !fits ||
            !quant__grid_shape_ok(zps, src, a) || quant__count(zps, NULL, 4, &nz) != QUANT_OK || nz != ns)
            return QUANT_ERR_ZPS;
        if (nz > 0 && zps->data == NULL) return QUANT_ERR_NULL;
        if (!quant__aligned(zps)) return QUANT_ERR_ALIGN;
    }
    /* strides only where the four ops take them */
    if (a->src_strides || a->dst_strides) return QUANT_ERR_STRIDE;
    /* the outputs are written while src is read, and one after the other */
    if (quant__overlap(scales->data, sb, src->data, quant__bytes(src->dtype, *n)) ||
        (zps && (quant__overlap(zps->data, nz * quant__dtype_size(zps->dtype), src->data, quant__bytes(src->dtype, *n)) ||
                 quant__overlap(zps->data, nz * quant__dtype_size(zps->dtype), scales->data, sb))))
        return QUANT_ERR_OVERLAP;
    if (dst) {
        /* the fused op: dst as quantize takes it, apart from all three */
        const void *dd = dst->data;
        size_t db;
        if ((st = quant__check_tensors_once(src, dst, a, qdt, p, n, &channels)) != QUANT_OK) return st;
        db = quant__bytes(qdt, *n);
        if (quant__overlap(dd, db, src->data, quant__bytes(src->dtype, *n)) || quant__overlap(dd, db, scales->data, sb) ||
            (zps && quant__overlap(dd, db, zps->data, nz * quant__dtype_size(zps->dtype))))
            return QUANT_ERR_OVERLAP;
    }
    return QUANT_OK;
}

#if QUANT__MX && QUANT__SIMD_ANY
/* not a status: the fused MX kernel does not take the case */
#define QUANT__NOT_DONE (-1)
/* The fused MX / MX_RCEIL quantize of f32 to f4 or f8 outside onednn, where
   the groups are runs of g (a multiple of 16) along the last dim one
   after another: the backend's fused kernel, after one read of src that
   finds no infinite element (partial: no such read; the groups before
   an infinite one are written). */
QUANT__NOINLINE int quant__mx4_run(const quant__plan *p, size_t n, const quant_tensor *scales, int rceil, int partial)
{
    const int last = p->rank - 1;
    const float inf = quant__float(0x7F800000u);
    size_t g, ng, done;
    int d;
    if (p->qtype != QUANT_PER_GROUP || p->rank == 0) return QUANT__NOT_DONE;
    for (d = 0; d < last; ++d)
        if (p->group[d] != 1 && p->dims[d] != 1) return QUANT__NOT_DONE;
    g = quant__cell(p, last);
    if (g % 16u != 0 || (size_t)p->dims[last] % g != 0) return QUANT__NOT_DONE;
    ng = n / g;
#ifdef QUANT_NO_F8
    if (!quant__is_f4(p->qdtype)) return QUANT__NOT_DONE;
#endif
    if (quant__mx4k(NULL, NULL, NULL, NULL, 0, g, rceil, 1, 0u) == SIZE_MAX) return QUANT__NOT_DONE;
    if (!partial) {
        float lo = inf, hi = -inf;
        quant__minmax(p->src, n, 0, &lo, &hi);
        if (!(lo > -inf && hi < inf)) return (int)QUANT_ERR_SCALE_VALUE;
    }
    done = quant__mx4k((const float *)p->src, (uint8_t *)p->dst, scales->dtype == QUANT_E8M0 ? (uint8_t *)scales->data : NULL,
                       scales->dtype == QUANT_E8M0 ? NULL : (float *)scales->data, ng, g, rceil, quant__is_f4(p->qdtype),
                       (unsigned)(p->flags & ~QUANT__F_MX));
    return done == ng ? (int)QUANT_OK : (int)QUANT_ERR_SCALE_VALUE;
}
#endif

/* entries handled at a time: their ranges are kept on the stack */
#if QUANT__SIMD_ANY
#  define QUANT__CELLS 256
#else
#  define QUANT__CELLS 2
#endif
/* the fused op's source elements a batch of entries may span: 256 KiB of
   f32 stay in a core's L2 between the range and the quantization, and a
   tensor that small is one batch, read once before anything is written
   (batches of 2 to 16 Ki elements, in L1, measured no faster, under
   on_error partial too: 1.34-1.44x quantize-only's time at 64 Ki elements
   in rows of 4096, against 1.27x in one batch) */
#define QUANT__FUSE_ELEMS 65536u

/* Ranges, then scales and zero points, a batch of grid entries at a time;
   with fuse, each batch quantized right after, under p->flags. partial:
   attrs' on_error is QUANT_ON_ERROR_PARTIAL. */
QUANT__NOINLINE quant_status quant__choose_run(const quant__plan *p, unsigned scheme, size_t n, const quant_tensor *scales,
                                               const quant_tensor *zps, int fuse, int partial, float tscale)
{
    float lo[QUANT__CELLS], hi[QUANT__CELLS];
    int32_t zp[QUANT__CELLS];
#if QUANT__MX
    uint8_t code[QUANT__CELLS];
#else
    (void)tscale;
#endif
    const float inf = quant__float(0x7F800000u), huge = 1.70141183e38f; /* 2^127 */
    quant__grid g;
    size_t per, c0, k;
    int pass = 1;
    quant__grid_of(p, &g);
    per = QUANT__CELLS;
    if (fuse && quant__gcell(p, &g, g.r - 1) != 1) /* entries of whole runs: as many as stay in cache */
        per = g.cell_elems >= QUANT__FUSE_ELEMS ? 1 : QUANT__FUSE_ELEMS / g.cell_elems < per ? QUANT__FUSE_ELEMS / g.cell_elems : per;
    if (g.cells > per && !partial) {
        /* nothing is written before every range is known to be finite:
           one read of src says so unless it holds a magnitude of 2^127
           or more (only then can a range be infinite); then every batch is
           checked first, in a pass of its own */
        float a = inf, b = -inf;
        quant__minmax(p->src, n, QUANT__F32_SIDE(p) ? 0 : p->fdtype == QUANT_BF16 ? 1 : 2, &a, &b);
        if (!(a > -huge && b < huge)) pass = 0;
#if QUANT__MX
        if (fuse && scheme == QUANT_NVFP4) {
            /* likewise when a block scale (2^-9 .. 448) times tensor_scale may fail section 4 */
            float e1 = quant__float(0x3B000000u) * tscale, e2 = 448.0f * tscale;
            if (!quant__scalar_scales_valid(&e1, 1) || !quant__scalar_scales_valid(&e2, 1)) pass = 0;
        }
#endif
    }
    for (; pass < 2; ++pass)
        for (c0 = 0; c0 < g.cells; c0 += per) {
            const size_t nc = g.cells - c0 < per ? g.cells - c0 : per;
            for (k = 0; k < nc; ++k) {
                lo[k] = inf;
                hi[k] = -inf;
            }
            quant__walk(p, &g, c0, c0 + nc, lo, hi, NULL, NULL);
            for (k = 0; k < nc; ++k) {
                float s, m = 1.0f;
#if QUANT__MX
                if (scheme >= QUANT_MX) {
                    if (!quant__mx_scale(lo[k], hi[k], p->qdtype, scheme, tscale, p->flags, &code[k], &s))
                        return QUANT_ERR_SCALE_VALUE;
                    zp[k] = 0;
                    hi[k] = s;          /* as written */
                    lo[k] = s * tscale; /* as the fused quantize takes it: fl(s * tensor_scale) */
                    if (fuse && scheme == QUANT_NVFP4 && !quant__scalar_scales_valid(&lo[k], 1)) return QUANT_ERR_SCALE_VALUE;
                    continue;
                }
#endif
                if (!quant__qparams(lo[k], hi[k], p->qdtype, scheme, &s, &zp[k], &m)) return QUANT_ERR_SCALE_VALUE;
                lo[k] = s;
                hi[k] = m;
            }
            if (pass == 0) continue;
            for (k = 0; k < nc; ++k) {
#if QUANT__MX
                if (scheme >= QUANT_MX) {
                    if (scales->dtype == QUANT_F32) ((float *)scales->data)[c0 + k] = hi[k];
                    else ((uint8_t *)scales->data)[c0 + k] = code[k];
                    continue;
                }
#endif
                ((float *)scales->data)[c0 + k] = lo[k];
                if (zps == NULL) continue;
                if (zps->dtype == QUANT_S32) ((int32_t *)zps->data)[c0 + k] = zp[k];
                else if (zps->dtype == QUANT_S8) ((int8_t *)zps->data)[c0 + k] = (int8_t)zp[k];
                else ((uint8_t *)zps->data)[c0 + k] = (uint8_t)zp[k];
            }
            if (fuse) quant__walk(p, &g, c0, c0 + nc, NULL, NULL, scheme == QUANT_ASYMMETRIC_NUDGED ? hi : lo, zp);
        }
    if (fuse) quant__nib_end(p, p->dst);
    return QUANT_OK;
}
#endif /* QUANT_NO_CHOOSE */

/* ======================================================================== */
/*  >>api  Public functions                                                 */
/* ======================================================================== */

QUANT__DEF quant_attrs quant_attrs_default(void)
{
    quant_attrs a;
    a.qtype = QUANT_PER_TENSOR;
    a.axis = 1;
    a.scales = NULL;
    a.n_scales = 0;
    a.zps = NULL;
    a.n_zps = 0;
    a.rounding = QUANT_ROUND_EXACT;
    a.f8_overflow = QUANT_F8_SATURATE;
    /* one store each: a loop here becomes memset, and the copy out memcpy,
       which a freestanding build may not have */
    a.group_shape[0] = 0; a.group_shape[1] = 0; a.group_shape[2] = 0; a.group_shape[3] = 0;
    a.group_shape[4] = 0; a.group_shape[5] = 0; a.group_shape[6] = 0; a.group_shape[7] = 0;
    a.group_shape[8] = 0; a.group_shape[9] = 0; a.group_shape[10] = 0; a.group_shape[11] = 0;
#if QUANT_MAX_RANK != 12
#  error "quant_attrs_default: one store per group_shape entry"
#endif
    a.on_error = QUANT_ON_ERROR_UNTOUCHED;
    a.src_strides = NULL;
    a.dst_strides = NULL;
    a.tensor_scale = 0.0f;
    return a;
}

/* NULL attrs stands for the defaults, whose missing scales list is
   QUANT_ERR_NULL for every type but the blocks, which need none */
QUANT__DEF quant_status quant_quantize(const quant_tensor *src, quant_tensor *dst,
                                       const quant_attrs *attrs)
{
    return quant__op(src, dst, attrs, 1, 0, NULL, NULL);
}

QUANT__DEF quant_status quant_dequantize(const quant_tensor *src, quant_tensor *dst,
                                         const quant_attrs *attrs)
{
    return quant__op(src, dst, attrs, 0, 0, NULL, NULL);
}

QUANT__DEF quant_status quant_dynamic_quantize(const quant_tensor *src, const quant_tensor *scales,
                                               const quant_tensor *zps, quant_tensor *dst,
                                               const quant_attrs *attrs)
{
    return quant__op(src, dst, attrs, 1, 1, scales, zps);
}

QUANT__DEF quant_status quant_dynamic_dequantize(const quant_tensor *src, const quant_tensor *scales,
                                                 const quant_tensor *zps, quant_tensor *dst,
                                                 const quant_attrs *attrs)
{
    return quant__op(src, dst, attrs, 0, 1, scales, zps);
}

#if QUANT__RQ
/* ---- quant_requantize ---------------------------------------------------- */
#if QUANT__X86
/* quant_requantize's check of its n parameters, four at a time (SSE2 is
   in every x86 build): bit 0 a value out of range (FLOAT: a scale that is
   not finite, positive and normal; else a multiplier below 0 or a shift
   outside [-31, 30]), bit 1 a shift above 0 (FLOAT: a scale of 1 or
   more). Each compare is signed,
   with the sign bit flipped where the scalar test is unsigned. */
QUANT__INLINE size_t quant__rq_scan(const void *p0, const void *p1, size_t n, int fl)
{
    const __m128i flip = _mm_set1_epi32((int)0x80000000u);
    __m128i bad = _mm_setzero_si128(), pos = bad;
    size_t j = 0, r = 0;
    if (fl) {
        const float *const s = (const float *)p0;
        const __m128i lo = _mm_set1_epi32(0x00800000), lim = _mm_set1_epi32((int)(0x7EFFFFFFu ^ 0x80000000u));
        const __m128i below1 = _mm_set1_epi32(0x3F7FFFFF); /* positive floats order as their bits */
        for (; j + 4 <= n; j += 4) {
            const __m128i v = _mm_castps_si128(_mm_loadu_ps(s + j));
            bad = _mm_or_si128(bad, _mm_cmpgt_epi32(_mm_xor_si128(_mm_sub_epi32(v, lo), flip), lim));
            pos = _mm_or_si128(pos, _mm_cmpgt_epi32(v, below1));
        }
        for (; j < n; ++j) {
            r |= quant__bits(s[j]) - 0x00800000u > 0x7F7FFFFFu - 0x00800000u;
            if (quant__bits(s[j]) >= 0x3F800000u) r |= 2u;
        }
    } else {
        const int32_t *const m = (const int32_t *)p0, *const sh = (const int32_t *)p1;
        const __m128i b31 = _mm_set1_epi32(31), lim = _mm_set1_epi32((int)(61u ^ 0x80000000u));
        for (; j + 4 <= n; j += 4) {
            const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(sh + j));
            bad = _mm_or_si128(bad, _mm_or_si128(_mm_loadu_si128((const __m128i *)(const void *)(m + j)),
                                                 _mm_cmpgt_epi32(_mm_xor_si128(_mm_add_epi32(v, b31), flip), lim)));
            pos = _mm_or_si128(pos, _mm_cmpgt_epi32(v, _mm_setzero_si128()));
        }
        for (; j < n; ++j) {
            r |= m[j] < 0 || sh[j] < -31 || sh[j] > 30;
            if (sh[j] > 0) r |= 2u;
        }
    }
    if (_mm_movemask_ps(_mm_castsi128_ps(bad))) r |= 1u;
    if (_mm_movemask_ps(_mm_castsi128_ps(pos))) r |= 2u;
    return r;
}
#endif
QUANT__DEF quant_status quant_requantize(const quant_tensor *src, quant_tensor *dst, const quant_requant *rq)
{
    size_t n, inner = 1, j, esize, db, pb, nch;
    int64_t want = 1; /* rq->n */
    int i, ax = -1, left = 0, fl; /* per tensor (ax -1): every dim is inner */
    int32_t tmin = -128, tmax = 127;
    unsigned out = QUANT__RQ_S8;
    quant__rqk k;
    quant_status st;
    const void *p0, *p1;

    if (src == NULL || dst == NULL || rq == NULL) return QUANT_ERR_NULL;
    if (src->dtype != QUANT_S32) return QUANT_ERR_DTYPE;
    if (dst->dtype == QUANT_U8) { tmin = 0; tmax = 255; out = QUANT__RQ_U8; }
    else if (QUANT__S16 && dst->dtype == QUANT_S16) { tmin = -32768; tmax = 32767; out = QUANT__RQ_S16; }
    else if (dst->dtype != QUANT_S8) return QUANT_ERR_DTYPE;
    if ((st = quant__count(src, dst, 4, &n)) != QUANT_OK) return st;
    if ((unsigned)rq->rounding > (unsigned)QUANT_RQ_FLOAT) return QUANT_ERR_ATTR;
    if (rq->qtype == QUANT_PER_CHANNEL) {
        const int64_t a = rq->axis < 0 ? rq->axis + src->rank : rq->axis;
        if ((uint64_t)a >= (uint64_t)src->rank) return QUANT_ERR_AXIS; /* every axis of a rank-0 tensor */
        ax = (int)a;
        want = src->dims[ax];
#if !QUANT__SIMD_ANY
        for (i = src->rank - 1; i > ax; --i) inner *= (size_t)src->dims[i]; /* may wrap here if n is 0 */
#endif
    } else if (rq->qtype != QUANT_PER_TENSOR) {
        return QUANT_ERR_QTYPE;
    }
    /* per channel with another dim 0, dims[axis] may pass SIZE_MAX */
    nch = rq->n;
    if ((uint64_t)nch != (uint64_t)want) return QUANT_ERR_SCALES;
    /* the parameters: presence and values (p0, p1: the lists the mode
       reads, FLOAT's scales twice), then the zero point and the clamp */
    fl = rq->rounding == QUANT_RQ_FLOAT;
    p0 = fl ? (const void *)rq->scales : (const void *)rq->multipliers;
    p1 = fl ? (const void *)rq->scales : (const void *)rq->shifts;
#if QUANT__X86
    if (nch && (p0 == NULL || p1 == NULL)) return QUANT_ERR_NULL;
    j = quant__rq_scan(p0, p1, nch, fl);
    if (j & 1u) return QUANT_ERR_SCALE_VALUE;
    left = fl ? 0 : (int)(j >> 1);
    k.top = (unsigned char)(fl && (j >> 1));
#else
    for (j = 0; j < nch; ++j) {
        if (p0 == NULL || p1 == NULL) return QUANT_ERR_NULL;
        if (fl) { /* finite, positive and normal: bits from FLT_MIN's to FLT_MAX's */
            if (quant__bits(((const float *)p0)[j]) - 0x00800000u > 0x7F7FFFFFu - 0x00800000u) return QUANT_ERR_SCALE_VALUE;
        } else {
            const int32_t mj = ((const int32_t *)p0)[j], sj = ((const int32_t *)p1)[j];
            if (mj < 0 || sj < -31 || sj > 30) return QUANT_ERR_SCALE_VALUE;
            if (sj > 0) left = 1;
        }
    }
#endif
    if (rq->zp < tmin || rq->zp > tmax) return QUANT_ERR_ZP_VALUE;
    if (rq->act_min > rq->act_max || rq->act_min < tmin || rq->act_max > tmax) return QUANT_ERR_ATTR;
    if (n > 0 && (src->data == NULL || dst->data == NULL)) return QUANT_ERR_NULL;
    esize = out == QUANT__RQ_S16 ? 2u : 1u;
    if (((uintptr_t)src->data & 3u) | ((uintptr_t)dst->data & (esize - 1u))) return QUANT_ERR_ALIGN;
    db = n << (esize - 1u);
    pb = nch * 4u; /* nch <= n elements: no overflow */
    if (quant__overlap(src->data, n * 4u, dst->data, db) || quant__overlap(p0, pb, dst->data, db) ||
        quant__overlap(p1, pb, dst->data, db))
        return QUANT_ERR_OVERLAP;

    /* n 0: the loops below do nothing */
    k.lo = rq->act_min - rq->zp;
    k.hi = rq->act_max - rq->zp;
    k.zp = rq->zp;
    k.rounding = (unsigned char)rq->rounding;
    k.out = (unsigned char)out;
    k.left = (unsigned char)left;
    k.nt = (unsigned char)(out != QUANT__RQ_S16 && QUANT__STREAM_FLAG(n, 1u, 0) != 0);
    k.full = (unsigned char)(out != QUANT__RQ_S16 && rq->act_min == tmin && rq->act_max == tmax);
#if QUANT__X86
    k.row = 0;
    k.period = 0;
    k.w = NULL;
    k.fs = k.fd = NULL;
#endif
#if QUANT__SIMD_ANY
    {
        /* the channel last (inner 1): each row of nch elements walks the
           parameter arrays; otherwise runs of inner elements share a
           channel's */
        const int32_t *m = fl ? NULL : (const int32_t *)p0, *sh = fl ? NULL : (const int32_t *)p1;
        const float *s = fl ? (const float *)p0 : NULL;
        size_t run, per, e, c = 0;
        for (i = ax + 1; i < src->rank; ++i) inner *= (size_t)src->dims[i];
        run = inner == 1 ? nch : inner;
        per = inner == 1 ? 1u : nch;
#if QUANT__X86
        /* few channels, last: a kernel call a row would cost about what
           the row does, so the kernel lays the parameters out again for
           several rows (when that layout is used 8 times or more) and
           takes the whole tensor in one call */
        if (inner == 1 && nch <= QUANT__RQ_REP / 2 && n / 8 >= QUANT__RQ_REP / nch * nch) {
            k.row = nch;
            run = n;
        }
#endif
        for (e = 0; e < n; e += run) {
            quant__rq((const int32_t *)src->data + e, (uint8_t *)dst->data + e * esize, n - e < run ? n - e : run,
                      m ? m + c : m, sh ? sh + c : sh, s ? s + c : s, inner == 1, &k);
            if (++c == per) c = 0;
        }
    }
    if (k.nt) quant__sfence();
#else
    {
        /* one element at a time: c its channel, e its place in the
           channel's run of inner elements (per tensor: 1, and c stays 0) */
        const int32_t *const x = (const int32_t *)src->data;
        void *const y = dst->data;
        const quant__rqk c0 = k;
        size_t e = 0, c = 0;
        for (j = 0; j < n; ++j) {
            const int32_t v = fl ? quant__rq_float(x[j], ((const float *)p0)[c], c0.lo, c0.hi)
                                 : quant__rq_fixed(x[j], ((const int32_t *)p0)[c], ((const int32_t *)p1)[c], c0.rounding, c0.lo, c0.hi);
            quant__rq_put(y, j, v + c0.zp, c0.out);
            if (++e == inner) {
                e = 0;
                if (++c == nch) c = 0;
            }
        }
    }
#endif
    return QUANT_OK;
}

/* TFLite's QuantizeMultiplier (tensorflow/lite/kernels/internal/
   quantization_util.cc, its default build) on the double's bits: frexp
   gives scale = q * 2^e with q in [0.5, 1), the multiplier is round(q *
   2^31) halves away from zero, 2^31 carries into e, and e < -31 gives (0,
   0). A subnormal scale has e < -1000. */
QUANT__DEF quant_status quant_quantize_multiplier(double scale, int32_t *multiplier, int *shift)
{
    union { double d; uint64_t u; } b;
    uint64_t q;
    int e;
    if (multiplier == NULL || shift == NULL) return QUANT_ERR_NULL;
    b.d = scale;
    e = (int)(b.u >> 52 & 0x7FFu);
    if ((b.u << 1) == 0) { *multiplier = 0; *shift = 0; return QUANT_OK; } /* +-0 */
    if ((b.u >> 63) || e == 0x7FF) return QUANT_ERR_SCALE_VALUE;          /* negative, Inf, NaN */
    if (e == 0) { *multiplier = 0; *shift = 0; return QUANT_OK; }         /* subnormal */
    q = ((b.u & 0xFFFFFFFFFFFFFull) | 0x10000000000000ull) + (1u << 21); /* 53 bits, rounded at bit 22 */
    q >>= 22;
    e -= 1022;
    if (q == 0x80000000u) { q >>= 1; ++e; }
    if (e < -31) { *multiplier = 0; *shift = 0; return QUANT_OK; }
    if (e > 30) return QUANT_ERR_SCALE_VALUE;
    *multiplier = (int32_t)q;
    *shift = e;
    return QUANT_OK;
}
#endif

#ifndef QUANT_NO_EXPLAIN
/* ---- quant_explain: one line on why an op fails ------------------------ */
/* The status comes from the ops' own validation; the line is then worked
   out again for that status, in the order the validation checks. */
typedef struct quant__line { char *buf; size_t cap, len; } quant__line;

QUANT__PRIVATE void quant__say(quant__line *l, const char *s)
{
    for (; *s; ++s, ++l->len)
        if (l->len + 1 < l->cap) l->buf[l->len] = *s;
}

/* decimal, without a 64-bit division (a library call on 32-bit targets) */
QUANT__PRIVATE void quant__say_u64(quant__line *l, uint64_t v)
{
    char d[2] = { 0, 0 };
    int k, j, started = 0;
    for (k = 19; k >= 0; --k) {
        uint64_t p = 1;
        for (j = 0; j < k; ++j) p *= 10u;
        d[0] = '0';
        while (v >= p) { v -= p; ++d[0]; }
        if (d[0] != '0' || started || k == 0) { quant__say(l, d); started = 1; }
    }
}

QUANT__PRIVATE void quant__say_i64(quant__line *l, int64_t v)
{
    if (v < 0) quant__say(l, "-");
    quant__say_u64(l, v < 0 ? 0u - (uint64_t)v : (uint64_t)v);
}

QUANT__PRIVATE void quant__say_dims(quant__line *l, const quant_tensor *t)
{
    int i;
    if (t->rank < 0 || t->rank > QUANT_MAX_RANK) {
        quant__say(l, "of rank ");
        quant__say_i64(l, t->rank);
        return;
    }
    quant__say(l, "[");
    for (i = 0; i < t->rank; ++i) {
        if (i) quant__say(l, ", ");
        quant__say_i64(l, t->dims[i]);
    }
    quant__say(l, "]");
}

/* "name: " and a dtype's name, or its number when it has none */
QUANT__PRIVATE void quant__say_dtype(quant__line *l, const char *name, const quant_tensor *t)
{
    quant__say(l, name);
    quant__say(l, ": dtype ");
    if ((unsigned)t->dtype - 1u < (unsigned)(QUANT__BLOCKS ? QUANT_NVFP4_BLOCK : QUANT_S16)) quant__say(l, quant_dtype_name(t->dtype));
    else quant__say_i64(l, (int64_t)t->dtype);
}

/* the integer and f8 types this build takes, as "s8, u8, ..." */
QUANT__PRIVATE void quant__say_qtypes(quant__line *l, int s32)
{
    quant__say(l, "s8, u8");
    if (s32) quant__say(l, ", s32");
    if (QUANT__S16) quant__say(l, ", s16");
#ifndef QUANT_NO_4BIT
    quant__say(l, ", s4, u4, s2, u2");
#endif
#ifndef QUANT_NO_F8
    if (s32 < 2) quant__say(l, ", f8_e4m3, f8_e5m2");
#endif
    if (QUANT__MX && s32 < 2) quant__say(l, ", f4_e2m1");
    if (QUANT__BLOCKS && s32 < 2) quant__say(l, ", ggml's blocks q4_0 .. nvfp4");
}

/* the float types, likewise */
QUANT__PRIVATE void quant__say_ftypes(quant__line *l)
{
    quant__say(l, QUANT__HALF ? "f32, f16 or bf16" : "f32 (f16 and bf16 are configured out)");
}

/* what the scales (or zero points) must number, from the layout */
QUANT__PRIVATE void quant__say_needs(quant__line *l, const quant_tensor *src, const quant_attrs *a, int zps)
{
    static const char *const qtypes[] = { "per_tensor", "per_channel", "per_group" };
    int i;
    quant__say(l, qtypes[a->qtype]);
    if (a->qtype == QUANT_PER_TENSOR) { quant__say(l, " needs 1"); return; }
    if (a->qtype == QUANT_PER_CHANNEL) {
        const int axis = (int)(a->axis < 0 ? a->axis + src->rank : a->axis);
        quant__say(l, " on axis ");
        quant__say_i64(l, a->axis);
        if (axis < 0 || axis >= src->rank) { quant__say(l, ", outside src's rank"); return; }
        quant__say(l, " (");
        quant__say_i64(l, src->dims[axis]);
        quant__say(l, " channels) needs ");
        if (zps) quant__say(l, "1 or ");
        quant__say_i64(l, src->dims[axis]);
        return;
    }
    quant__say(l, " ");
    for (i = 0; i < src->rank; ++i) {
        if (i) quant__say(l, "x");
        quant__say_i64(l, a->group_shape[i]);
        if (a->group_shape[i] < 1) { quant__say(l, "..., not a group shape"); return; }
    }
    quant__say(l, " over ");
    quant__say_dims(l, src);
    quant__say(l, " needs ");
    if (zps) quant__say(l, "1 or ");
    for (i = 0; i < src->rank; ++i) {
        if (i) quant__say(l, "x");
        quant__say_u64(l, src->dims[i] == 0 ? 0u : quant__grid_dim(src, a, i));
    }
}

/* the count a scales or zps tensor (or list) has, said as "N given" */
QUANT__PRIVATE void quant__say_given(quant__line *l, const char *name, const quant_tensor *t, size_t listed)
{
    size_t n = listed;
    quant__say(l, name);
    quant__say(l, ": ");
    if (t && quant__count(t, NULL, 1, &n) != QUANT_OK) {
        quant__say(l, "dims ");
        quant__say_dims(l, t);
        quant__say(l, " hold no valid count");
        return;
    }
    quant__say_u64(l, n);
    quant__say(l, " given; ");
}

QUANT__PRIVATE void quant__say_tensor_null(quant__line *l, const char *name, const quant_tensor *t, size_t n)
{
    quant__say(l, name);
    quant__say(l, ": data is NULL with ");
    quant__say_u64(l, n);
    quant__say(l, " elements");
    (void)t;
}

#if QUANT__BLOCKS
/* The lines of the errors a block type has of its own; 0 for the others */
QUANT__PRIVATE int quant__explain_blocks(quant__line *l, quant_status st, int dynamic, const quant_tensor *src,
                                         const quant_tensor *dst, const quant_tensor *q, const quant_attrs *a)
{
    const char *name = quant_dtype_name(q->dtype);
    int i;
    switch (st) {
    case QUANT_ERR_SHAPE:
        if (src->rank != dst->rank) return 0;
        for (i = 0; i < src->rank; ++i)
            if (src->dims[i] != dst->dims[i] || src->dims[i] < 0) return 0;
        quant__say(l, "src: ");
        if (src->rank == 0) quant__say(l, "rank 0");
        else {
            quant__say(l, "last dim ");
            quant__say_i64(l, src->dims[src->rank - 1]);
        }
        quant__say(l, "; a ");
        quant__say(l, name);
        quant__say(l, " tensor's last dim is whole blocks of ");
        quant__say_i64(l, (int64_t)quant__blk(q->dtype));
        return 1;
    case QUANT_ERR_QTYPE: quant__say(l, "attrs.qtype: "); quant__say_i64(l, a->qtype); break;
    case QUANT_ERR_SCALES: quant__say(l, dynamic ? "scales: a tensor given" : "attrs.scales: a list given"); break;
    case QUANT_ERR_ZPS: quant__say(l, dynamic ? "zps: a tensor given" : "attrs.zps: a list given"); break;
    case QUANT_ERR_ATTR:
        if (a->tensor_scale == 0.0f) return 0;
        quant__say(l, "attrs.tensor_scale: given");
        break;
    case QUANT_ERR_STRIDE: quant__say(l, "attrs: strides given"); break;
    default: return 0;
    }
    quant__say(l, "; ");
    quant__say(l, name);
    quant__say(l, " blocks hold their own scales: per_tensor, no scales, zero points, tensor_scale or strides");
    return 1;
}
#endif

QUANT__NOINLINE void quant__explain_line(quant__line *l, const quant__plan *p, quant_status st, int quantize,
                                         int dynamic, const quant_tensor *src, const quant_tensor *scales,
                                         const quant_tensor *zps, const quant_tensor *dst, const quant_attrs *a)
{
    const quant_tensor *f = src && dst ? (quantize ? src : dst) : NULL;
    const quant_tensor *q = src && dst ? (quantize ? dst : src) : NULL;
    size_t n = 0, m = 0;
    if (src && quant__count(src, NULL, 1, &n) != QUANT_OK) n = 0;
#if QUANT__BLOCKS
    if (q && quant__is_float(f->dtype) && quant__blk(q->dtype) && quant__explain_blocks(l, st, dynamic, src, dst, q, a))
        return;
#endif
    switch (st) {
    case QUANT_OK:
        quant__say(l, "ok");
        return;
    case QUANT_ERR_NULL:
        if (!src) quant__say(l, "src is NULL");
        else if (!dst) quant__say(l, "dst is NULL");
        else if (dynamic && !scales) quant__say(l, "scales is NULL: the dynamic ops take a scales tensor");
        else if (!dynamic && a == &quant__defaults) quant__say(l, "attrs is NULL: the static ops take their scales from attrs");
        else if (!dynamic && a->scales == NULL) quant__say(l, "attrs.scales is NULL: the static ops take a scales list");
        else if (!dynamic && a->zps == NULL && a->n_zps > 0) {
            quant__say(l, "attrs.zps is NULL with n_zps ");
            quant__say_u64(l, a->n_zps);
        } else if (n > 0 && src->data == NULL) quant__say_tensor_null(l, "src", src, n);
        else if (n > 0 && dst->data == NULL) quant__say_tensor_null(l, "dst", dst, n);
        else if (dynamic && quant__count(scales, NULL, 4, &m) == QUANT_OK && m > 0 && scales->data == NULL)
            quant__say_tensor_null(l, "scales", scales, m);
        else quant__say(l, "zps: data is NULL");
        return;
    case QUANT_ERR_DTYPE:
        if (!quant__is_float(f->dtype)) {
            quant__say_dtype(l, quantize ? "src" : "dst", f);
            quant__say(l, quantize ? "; quantize reads " : "; dequantize writes ");
            quant__say_ftypes(l);
        } else {
            quant__say_dtype(l, quantize ? "dst" : "src", q);
            quant__say(l, quantize ? "; quantize writes " : "; dequantize reads ");
            quant__say_qtypes(l, !quantize);
        }
        return;
    case QUANT_ERR_RANK: {
        const quant_tensor *t = src->rank < 0 || src->rank > QUANT_MAX_RANK ? src : dst;
        quant__say(l, t == src ? "src" : "dst");
        quant__say(l, ": rank ");
        quant__say_i64(l, t->rank);
        quant__say(l, "; ranks are 0 to ");
        quant__say_i64(l, QUANT_MAX_RANK);
        return;
    }
    case QUANT_ERR_SHAPE:
        if (quant__count(src, NULL, (unsigned)quant__dtype_size(f->dtype), &m) != QUANT_OK) {
            quant__say(l, "src: dims ");
            quant__say_dims(l, src);
            quant__say(l, " have a negative dim or more bytes than size_t and int64 hold");
        } else {
            quant__say(l, "dst: dims ");
            quant__say_dims(l, dst);
            quant__say(l, "; src's are ");
            quant__say_dims(l, src);
            quant__say(l, ", and they must be equal");
        }
        return;
    case QUANT_ERR_QTYPE:
        quant__say(l, "attrs.qtype: ");
        quant__say_i64(l, (int64_t)a->qtype);
        quant__say(l, QUANT__GROUPS ? "; per_tensor 0, per_channel 1 or per_group 2"
                                    : "; per_tensor 0 or per_channel 1 (per_group is configured out)");
        return;
    case QUANT_ERR_AXIS:
        quant__say(l, "attrs.axis: ");
        quant__say_i64(l, a->axis);
        quant__say(l, "; per_channel over src's rank ");
        quant__say_i64(l, src->rank);
        quant__say(l, src->rank ? " takes -" : " has no axis");
        if (src->rank) {
            quant__say_i64(l, src->rank);
            quant__say(l, " to ");
            quant__say_i64(l, src->rank - 1);
        }
        return;
    case QUANT_ERR_SCALES:
        if (dynamic && !quant__is_float(scales->dtype) &&
            !(QUANT__MX && (scales->dtype == QUANT_E8M0 || scales->dtype == QUANT_F8_E4M3))) {
            quant__say_dtype(l, "scales", scales);
            quant__say(l, "; scales are ");
            if (QUANT__MX && QUANT__HALF) quant__say(l, "f32, f16, bf16, e8m0 or f8_e4m3");
            else quant__say_ftypes(l);
        } else if (dynamic && !quant__grid_shape_ok(scales, src, a)) {
            quant__say(l, "scales: dims ");
            quant__say_dims(l, scales);
            quant__say(l, "; ");
            quant__say_needs(l, src, a, 0);
            quant__say(l, a->qtype == QUANT_PER_GROUP ? ", shaped as the grid or 1-D" : ", in 1-D");
        } else {
            quant__say_given(l, dynamic ? "scales" : "attrs.scales", dynamic ? scales : NULL, a->n_scales);
            quant__say_needs(l, src, a, 0);
        }
        return;
    case QUANT_ERR_SCALE_VALUE: {
        /* the plan holds the scales as validated, whatever their dtype,
           unless tensor_scale was refused first */
        size_t i = 0;
        float v = 0.0f;
        if (a->tensor_scale != 0.0f &&
            !(a->tensor_scale >= quant__float(0x00800000u) && a->tensor_scale <= quant__float(0x7F7FFFFFu))) {
            quant__say(l, "attrs.tensor_scale: not a finite normal positive float (0 for none)");
            return;
        }
        while (i < p->n_scales && (v = quant__scale_at(p, i), quant__scalar_scales_valid(&v, 1))) ++i;
        quant__say(l, dynamic ? "scales[" : "attrs.scales[");
        quant__say_u64(l, i);
        quant__say(l, "]: 0x");
        {
            const uint32_t b = quant__bits(v);
            int k;
            char h[2] = { 0, 0 };
            for (k = 28; k >= 0; k -= 4) {
                h[0] = "0123456789abcdef"[(b >> k) & 15u];
                quant__say(l, h);
            }
        }
        quant__say(l, " (f32 bits); a scale needs 2^-128 < |s| < inf");
        return;
    }
    case QUANT_ERR_ZPS: {
        /* in the validation's order: the list, the dtype, the count and
           shape (against the scales' count, checked before), f8's zeros */
        size_t nz = a->n_zps;
        int count_ok;
        if (!dynamic && a->zps != NULL && a->n_zps == 0) {
            quant__say(l, "attrs.zps: a list with n_zps 0; NULL stands for no zero points");
            return;
        }
        if (dynamic && zps->dtype != QUANT_S8 && zps->dtype != QUANT_U8 && zps->dtype != QUANT_S32 &&
            !(QUANT__S16 && zps->dtype == QUANT_S16) && !quant__is_pint(zps->dtype)) {
            quant__say_dtype(l, "zps", zps);
            quant__say(l, "; zero points are ");
            quant__say_qtypes(l, 2);
            return;
        }
        if (dynamic)
            count_ok = quant__count(zps, NULL, 1, &nz) == QUANT_OK &&
                       (quant__grid_shape_ok(zps, src, a) ||
                        (a->qtype == QUANT_PER_GROUP && nz == 1 && (zps->rank <= 1 || zps->rank == src->rank))) &&
                       quant__zp_count_ok(p->n_scales, nz);
        else count_ok = quant__zp_count_ok(p->n_scales, nz);
        if (count_ok) {
            quant__say(l, "zps: f8 takes no zero point but 0");
        } else if (!dynamic) {
            quant__say_given(l, "attrs.zps", NULL, a->n_zps);
            quant__say_needs(l, src, a, 1);
        } else {
            quant__say_given(l, "zps", zps, 0);
            quant__say(l, "dims ");
            quant__say_dims(l, zps);
            quant__say(l, "; ");
            quant__say_needs(l, src, a, 1);
            quant__say(l, ", shaped as the scales");
        }
        return;
    }
    case QUANT_ERR_ZP_VALUE: {
        size_t i = 0;
        while (i < a->n_zps && a->zps[i] >= INT32_MIN && a->zps[i] <= INT32_MAX) ++i;
        quant__say(l, "attrs.zps[");
        quant__say_u64(l, i);
        quant__say(l, "]: ");
        if (i < a->n_zps) quant__say_i64(l, a->zps[i]);
        quant__say(l, "; zero points are int32");
        return;
    }
    case QUANT_ERR_ATTR:
        quant__say(l, "attrs: ");
#ifdef QUANT_ONLY_EXACT
        if (a->rounding != QUANT_ROUND_EXACT) {
            quant__say(l, "rounding ");
            quant__say_i64(l, (int64_t)a->rounding);
            quant__say(l, "; this build has exact (0) only");
        } else
#else
        if (a->rounding != QUANT_ROUND_EXACT && a->rounding != QUANT_ROUND_ONEDNN &&
            a->rounding != QUANT_ROUND_ONNX && a->rounding != QUANT_ROUND_TORCH) {
            quant__say(l, "rounding ");
            quant__say_i64(l, (int64_t)a->rounding);
            quant__say(l, "; exact 0, onednn 1, onnx 2 or torch 3");
        } else
#endif
        if (a->f8_overflow != QUANT_F8_SATURATE && a->f8_overflow != QUANT_F8_INF_NAN) {
            quant__say(l, "f8_overflow ");
            quant__say_i64(l, (int64_t)a->f8_overflow);
            quant__say(l, "; saturate 0 or inf_nan 1");
        } else if (a->on_error != QUANT_ON_ERROR_UNTOUCHED && a->on_error != QUANT_ON_ERROR_PARTIAL) {
            quant__say(l, "on_error ");
            quant__say_i64(l, (int64_t)a->on_error);
            quant__say(l, "; untouched 0 or partial 1");
        } else {
            int i, last = src->rank;
            quant__say(l, "group_shape ");
            for (i = src->rank; i < QUANT_MAX_RANK; ++i)
                if (a->group_shape[i] != 0) last = i + 1;
            for (i = 0; i < last; ++i) {
                if (i) quant__say(l, "x");
                quant__say_i64(l, a->group_shape[i]);
            }
            quant__say(l, "; src of rank ");
            quant__say_i64(l, src->rank);
            quant__say(l, " needs its first entries >= 1 and the rest 0");
        }
        return;
    case QUANT_ERR_OVERLAP: { /* the byte ranges quant__check_memory compared */
        size_t sb = quant__bytes(src->dtype, n), db = quant__bytes(dst->dtype, n);
#ifndef QUANT_NO_STRIDES
        if (quant__strided(src, a->src_strides)) (void)quant__check_strides(src, a->src_strides, 0, n, &sb);
        if (quant__strided(dst, a->dst_strides)) (void)quant__check_strides(dst, a->dst_strides, 1, n, &db);
#endif
        quant__say(l, "dst overlaps ");
        quant__say(l, quant__overlap(src->data, sb, dst->data, db) ? "src" : "the scales or the zero points");
        return;
    }
    case QUANT_ERR_ALIGN: {
        const quant_tensor *t = !quant__aligned(src) ? src : !quant__aligned(dst) ? dst
                              : dynamic && !quant__aligned(scales) ? scales : zps;
        quant__say(l, t == src ? "src" : t == dst ? "dst" : t == scales ? "scales" : "zps");
        quant__say(l, ": data of dtype ");
        quant__say(l, quant_dtype_name(t->dtype));
        quant__say(l, quant__dtype_size(t->dtype) == 4 ? " needs a 4-byte boundary" : " needs a 2-byte boundary");
        return;
    }
#ifndef QUANT_NO_STRIDES
    case QUANT_ERR_STRIDE: {
        /* as quant__check_memory finds it: a negative stride, then dst's
           addresses */
        const int64_t *ss = a->src_strides, *ds = a->dst_strides;
        int i;
        for (i = 0; i < src->rank; ++i)
            if ((ss && ss[i] < 0) || (ds && ds[i] < 0)) {
                quant__say(l, ss && ss[i] < 0 ? "src_strides[" : "dst_strides[");
                quant__say_u64(l, (uint64_t)i);
                quant__say(l, "] is ");
                quant__say_i64(l, ss && ss[i] < 0 ? ss[i] : ds[i]);
                quant__say(l, "; strides must be >= 0");
                return;
            }
        quant__say(l, "dst_strides give two elements of dst one address (dims ");
        quant__say_dims(l, dst);
        quant__say(l, ")");
        return;
    }
#endif
    default:
        quant__say(l, quant_status_str(st));
        return;
    }
}

QUANT__DEF quant_status quant_explain(quant_op op, const quant_tensor *src, const quant_tensor *scales,
                                      const quant_tensor *zps, const quant_tensor *dst,
                                      const quant_attrs *attrs, char *buf, size_t cap)
{
    const int quantize = op == QUANT_OP_QUANTIZE || op == QUANT_OP_DYNAMIC_QUANTIZE;
    const int dynamic = op == QUANT_OP_DYNAMIC_QUANTIZE || op == QUANT_OP_DYNAMIC_DEQUANTIZE;
    quant__line l;
    quant__plan p;
    quant_status st;
    l.buf = buf;
    l.cap = buf ? cap : 0;
    l.len = 0;
    if ((unsigned)op > (unsigned)QUANT_OP_DYNAMIC_DEQUANTIZE) {
        st = QUANT_ERR_ATTR;
        quant__say(&l, "op: ");
        quant__say_i64(&l, (int64_t)op);
        quant__say(&l, " is not an operation");
    } else {
        /* the cast: validation only reads dst */
        st = quant__prepare(&p, src, (quant_tensor *)(uintptr_t)dst, attrs, quantize, dynamic,
                            dynamic ? scales : NULL, dynamic ? zps : NULL);
        quant__explain_line(&l, &p, st, quantize, dynamic, src, dynamic ? scales : NULL, dynamic ? zps : NULL, dst,
                            attrs ? attrs : &quant__defaults);
    }
    if (l.cap) l.buf[l.len < l.cap ? l.len : l.cap - 1] = '\0';
    return st;
}
#endif /* QUANT_NO_EXPLAIN */

#ifndef QUANT_NO_CHOOSE
QUANT__DEF quant_status quant_choose_qparams(const quant_tensor *src, quant_dtype qdt, quant_scheme scheme,
                                             const quant_attrs *attrs, quant_tensor *scales, quant_tensor *zps)
{
    quant__plan p;
    size_t n;
    const quant_status st = quant__check_choose(&p, src, NULL, (unsigned)qdt, (unsigned)scheme,
                                                attrs ? attrs : &quant__defaults, scales, zps, &n);
    if (st != QUANT_OK) return st;
    if (n == 0) return QUANT_OK; /* an empty tensor: nothing written */
    p.flags = (unsigned short)quant__flags(attrs ? attrs : &quant__defaults, (unsigned)qdt);
    return quant__choose_run(&p, (unsigned)scheme, n, scales, zps, 0, attrs && attrs->on_error == QUANT_ON_ERROR_PARTIAL,
                             attrs && attrs->tensor_scale != 0.0f ? attrs->tensor_scale : 1.0f);
}

QUANT__DEF quant_status quant_choose_and_quantize(const quant_tensor *src, quant_tensor *dst, quant_scheme scheme,
                                                  const quant_attrs *attrs, quant_tensor *scales, quant_tensor *zps)
{
    const quant_attrs *a = attrs ? attrs : &quant__defaults;
    quant__plan p;
    size_t n;
    quant_status st;
    if (dst == NULL) return QUANT_ERR_NULL;
    st = quant__check_choose(&p, src, dst, (unsigned)dst->dtype, (unsigned)scheme, a, scales, zps, &n);
    if (st != QUANT_OK) return st;
    p.flags = (unsigned short)(scheme == QUANT_ASYMMETRIC_NUDGED
                  ? QUANT__F_RECIP | QUANT__F_RECIP_GIVEN | (dst->dtype == QUANT_U8 || dst->dtype == QUANT_U4 || dst->dtype == QUANT_U2 ? QUANT__F_U8 : 0u)
                  : quant__flags(a, (unsigned)dst->dtype) | (scheme >= QUANT_MX ? QUANT__F_MX : 0u));
    if (n == 0) return QUANT_OK;
#if QUANT__MX && QUANT__SIMD_ANY
    if ((scheme == QUANT_MX || scheme == QUANT_MX_RCEIL) && (quant__is_f4(p.qdtype) || quant__is_f8(p.qdtype)) &&
        p.fdtype == QUANT_F32 && !((p.flags & QUANT__F_RECIP) && (p.flags & QUANT__F_ZP_BEFORE))) {
        const int r = quant__mx4_run(&p, n, scales, scheme == QUANT_MX_RCEIL, a->on_error == QUANT_ON_ERROR_PARTIAL);
        if (r != QUANT__NOT_DONE) return (quant_status)r;
    }
#endif
    return quant__choose_run(&p, (unsigned)scheme, n, scales, zps, 1, a->on_error == QUANT_ON_ERROR_PARTIAL,
                             a->tensor_scale != 0.0f ? a->tensor_scale : 1.0f);
}
#endif

QUANT__DEF void quant_f32_to_s8(const float *src, int8_t *dst, size_t n, float scale, int32_t zp)
{
    if (n == 0) return; /* src and dst may be NULL: not even NULL + 0 */
    quant__f32_to_i8(src, (uint8_t *)dst, n, &scale, 0, &zp, 0, 0, QUANT__F_ZP_BEFORE);
}

QUANT__DEF void quant_f32_to_u8(const float *src, uint8_t *dst, size_t n, float scale, int32_t zp)
{
    if (n == 0) return;
    quant__f32_to_i8(src, dst, n, &scale, 0, &zp, 0, 0, QUANT__F_ZP_BEFORE | QUANT__F_U8);
}

QUANT__DEF void quant_s8_to_f32(const int8_t *src, float *dst, size_t n, float scale, int32_t zp)
{
    if (n == 0) return;
    quant__i8_to_f32((const uint8_t *)src, dst, n, &scale, 0, &zp, 0, 0, 0);
}

QUANT__DEF void quant_u8_to_f32(const uint8_t *src, float *dst, size_t n, float scale, int32_t zp)
{
    if (n == 0) return;
    quant__i8_to_f32(src, dst, n, &scale, 0, &zp, 0, 0, QUANT__F_U8);
}

#ifndef QUANT_NO_F8
QUANT__DEF void quant_f32_to_f8_e4m3(const float *src, uint8_t *dst, size_t n, float scale)
{
    if (n == 0) return;
    quant__f32_to_f8(src, dst, n, &scale, 0, 0, 0);
}

QUANT__DEF void quant_f32_to_f8_e5m2(const float *src, uint8_t *dst, size_t n, float scale)
{
    if (n == 0) return;
    quant__f32_to_f8(src, dst, n, &scale, 0, 0, QUANT__F_E5M2);
}

QUANT__DEF void quant_f8_e4m3_to_f32(const uint8_t *src, float *dst, size_t n, float scale)
{
    if (n == 0) return;
    quant__f8_to_f32(src, dst, n, &scale, 0, 0, 0);
}

QUANT__DEF void quant_f8_e5m2_to_f32(const uint8_t *src, float *dst, size_t n, float scale)
{
    if (n == 0) return;
    quant__f8_to_f32(src, dst, n, &scale, 0, 0, QUANT__F_E5M2);
}
#endif

#ifndef QUANT_NO_HALF
/* 16-bit rows: through the f32 kernel a chunk at a time (SIMD), or an
   element at a time (scalar: no staging buffer on a firmware stack) */
QUANT__PRIVATE void quant__half_row(const uint16_t *src, uint8_t *dst, size_t n, float scale, int32_t zp,
                                    unsigned f, int bf)
{
#if QUANT__SIMD_ANY
    quant__half_to_i8(src, dst, n, scale, zp, f, bf);
#else
    size_t i;
    for (i = 0; i < n; ++i)
        dst[i] = (uint8_t)quant__q_int(bf ? quant__bf16_to_f32(src[i]) : quant__f16_to_f32(src[i]), scale, 0.0f, zp, f);
#endif
}

QUANT__DEF void quant_bf16_to_s8(const uint16_t *src, int8_t *dst, size_t n, float scale, int32_t zp)
{
    quant__half_row(src, (uint8_t *)dst, n, scale, zp, QUANT__F_ZP_BEFORE, 1);
}
QUANT__DEF void quant_bf16_to_u8(const uint16_t *src, uint8_t *dst, size_t n, float scale, int32_t zp)
{
    quant__half_row(src, dst, n, scale, zp, QUANT__F_ZP_BEFORE | QUANT__F_U8, 1);
}
QUANT__DEF void quant_f16_to_s8(const uint16_t *src, int8_t *dst, size_t n, float scale, int32_t zp)
{
    quant__half_row(src, (uint8_t *)dst, n, scale, zp, QUANT__F_ZP_BEFORE, 0);
}
QUANT__DEF void quant_f16_to_u8(const uint16_t *src, uint8_t *dst, size_t n, float scale, int32_t zp)
{
    quant__half_row(src, dst, n, scale, zp, QUANT__F_ZP_BEFORE | QUANT__F_U8, 0);
}

#endif /* QUANT_NO_HALF */

#ifndef QUANT_NO_4BIT
QUANT__DEF void quant_u4_to_f32(const uint8_t *src, float *dst, size_t n, const float *scales, const uint8_t *zps, size_t g)
{
    if (n) quant__w4(src, dst, n, scales, zps, g, 0, QUANT__W4_F32);
}
#ifndef QUANT_NO_HALF
QUANT__DEF void quant_u4_to_f16(const uint8_t *src, uint16_t *dst, size_t n, const float *scales, const uint8_t *zps, size_t g)
{
    if (n) quant__w4(src, dst, n, scales, zps, g, 0, QUANT__W4_F16);
}
QUANT__DEF void quant_u4_to_bf16(const uint8_t *src, uint16_t *dst, size_t n, const float *scales, const uint8_t *zps, size_t g)
{
    if (n) quant__w4(src, dst, n, scales, zps, g, 0, QUANT__W4_BF16);
}
#endif
QUANT__DEF void quant_s4_to_f32(const uint8_t *src, float *dst, size_t n, const float *scales, const uint8_t *zps, size_t g)
{
    if (n) quant__w4(src, dst, n, scales, zps, g, 1, QUANT__W4_F32);
}
#ifndef QUANT_NO_HALF
QUANT__DEF void quant_s4_to_f16(const uint8_t *src, uint16_t *dst, size_t n, const float *scales, const uint8_t *zps, size_t g)
{
    if (n) quant__w4(src, dst, n, scales, zps, g, 1, QUANT__W4_F16);
}
QUANT__DEF void quant_s4_to_bf16(const uint8_t *src, uint16_t *dst, size_t n, const float *scales, const uint8_t *zps, size_t g)
{
    if (n) quant__w4(src, dst, n, scales, zps, g, 1, QUANT__W4_BF16);
}
#endif
#endif /* QUANT_NO_4BIT */

#if QUANT__MX
QUANT__DEF void quant_mxfp4_to_f32(const uint8_t *src, float *dst, size_t n, const uint8_t *scales)
{
    quant__f4_rowk(src, dst, n, scales, QUANT_E8M0, 0.0f, 32, QUANT__F4_F32);
}
QUANT__DEF void quant_nvfp4_to_f32(const uint8_t *src, float *dst, size_t n, const uint8_t *scales, float tensor_scale)
{
    quant__f4_rowk(src, dst, n, scales, QUANT_F8_E4M3, tensor_scale, 16, QUANT__F4_F32);
}
#if QUANT__HALF
QUANT__DEF void quant_mxfp4_to_f16(const uint8_t *src, uint16_t *dst, size_t n, const uint8_t *scales)
{
    quant__f4_rowk(src, dst, n, scales, QUANT_E8M0, 0.0f, 32, QUANT__F4_F16);
}
QUANT__DEF void quant_mxfp4_to_bf16(const uint8_t *src, uint16_t *dst, size_t n, const uint8_t *scales)
{
    quant__f4_rowk(src, dst, n, scales, QUANT_E8M0, 0.0f, 32, QUANT__F4_BF16);
}
QUANT__DEF void quant_nvfp4_to_f16(const uint8_t *src, uint16_t *dst, size_t n, const uint8_t *scales, float tensor_scale)
{
    quant__f4_rowk(src, dst, n, scales, QUANT_F8_E4M3, tensor_scale, 16, QUANT__F4_F16);
}
QUANT__DEF void quant_nvfp4_to_bf16(const uint8_t *src, uint16_t *dst, size_t n, const uint8_t *scales, float tensor_scale)
{
    quant__f4_rowk(src, dst, n, scales, QUANT_F8_E4M3, tensor_scale, 16, QUANT__F4_BF16);
}
#endif
#endif /* QUANT__MX */

QUANT__DEF const char *quant_status_str(quant_status s)
{
#ifdef QUANT_SHORT_STATUS /* firmware: the names, not the sentences */
    /* one after another, with no table of pointers (flash) */
    static const char names[] = "ok\0ERR_NULL\0ERR_DTYPE\0ERR_RANK\0ERR_SHAPE\0ERR_QTYPE\0ERR_AXIS\0ERR_SCALES\0"
                                "ERR_SCALE_VALUE\0ERR_ZPS\0ERR_ZP_VALUE\0ERR_ATTR\0ERR_OVERLAP\0ERR_PARSE\0ERR_ALIGN\0"
                                "ERR_PLAN\0ERR_RANGE\0ERR_STRIDE";
    const char *p = names;
    unsigned k;
    if ((unsigned)s > (unsigned)QUANT_ERR_STRIDE) return "unknown status";
    for (k = 0; k < (unsigned)s; ++k)
        while (*p++ != '\0') {}
    return p;
#else
    switch (s) {
    case QUANT_OK:              return "ok";
    case QUANT_ERR_NULL:        return "a required pointer is NULL";
    case QUANT_ERR_DTYPE:       return "unsupported data type or data type combination for this operation";
    case QUANT_ERR_RANK:        return "a rank is outside 0..QUANT_MAX_RANK";
    case QUANT_ERR_SHAPE:       return "a negative dim, an element or byte count too large, or src and dst shapes differ";
    case QUANT_ERR_QTYPE:       return "unknown qtype value";
    case QUANT_ERR_AXIS:        return "per-channel axis outside [-rank, rank-1], or per-channel on rank 0";
    case QUANT_ERR_SCALES:      return "wrong number of scales for the qtype, axis or groups, or a scales tensor of a type the operation does not take or not shaped as the scale grid";
    case QUANT_ERR_SCALE_VALUE: return "a scale is zero, NaN, infinite, or too small to invert";
    case QUANT_ERR_ZPS:         return "wrong number of zero points, a zps tensor that is not s8/u8/s32/s4/u4 or not shaped as the scales, a zps list with n_zps 0, or a non-zero zero point with f8";
    case QUANT_ERR_ZP_VALUE:    return "a zero point is outside int32";
    case QUANT_ERR_ATTR:        return "unknown rounding, f8_overflow or on_error value, unknown attribute name, or a group_shape entry out of range";
    case QUANT_ERR_OVERLAP:     return "dst overlaps src, the scales or the zero points";
    case QUANT_ERR_PARSE:       return "an attribute value or dtype name does not parse";
    case QUANT_ERR_ALIGN:       return "f32 or s32 data is not aligned to 4 bytes, or f16/bf16 data to 2";
    case QUANT_ERR_PLAN:        return "the plan was not filled in by quant_prepare";
    case QUANT_ERR_RANGE:       return "a range of units past the plan's end, or with its end before its beginning";
    case QUANT_ERR_STRIDE:      return "a negative stride, dst strides that put two elements at one address, or strides where none are taken";
    }
    return "unknown status";
#endif
}

static const char *const quant__dtype_names[] = {
    "undef", "f32", "s8", "u8", "s32", "f8_e4m3", "f8_e5m2", "s4", "u4", "f16", "bf16",
    "f4_e2m1", "e8m0", "s2", "u2", "s16"
#if QUANT__BLOCKS
    , "q4_0", "q4_1", "q5_0", "q5_1", "q8_0", "q2_K", "q3_K", "q4_K", "q5_K", "q6_K", "q8_K",
    "iq4_nl", "iq4_xs", "mxfp4", "nvfp4"
#endif
};

QUANT__DEF size_t quant_dtype_bytes(quant_dtype t, int64_t n)
{
    const unsigned u = (unsigned)t;
    if (n < 0 || (uint64_t)n > (uint64_t)SIZE_MAX || u - 1u >= sizeof quant__dtype_names / sizeof quant__dtype_names[0] - 1u)
        return 0;
#if QUANT__BLOCKS
    if (quant__blk(u)) {
        if ((uint64_t)n & (quant__blk(u) - 1u)) return 0;
        if ((size_t)n / quant__blk(u) > SIZE_MAX / quant__blk_bytes(u)) return 0; /* does not fit */
    } else
#endif
    if ((size_t)n > SIZE_MAX / (quant__dtype_size(u) ? quant__dtype_size(u) : 1u))
        return 0;
    return quant__bytes(u, (size_t)n);
}

QUANT__DEF const char *quant_dtype_name(quant_dtype t)
{
    if ((unsigned)t < sizeof quant__dtype_names / sizeof quant__dtype_names[0])
        return quant__dtype_names[t];
    return "undef";
}

#ifndef QUANT_NO_PARSE
QUANT__PRIVATE int quant__streq(const char *a, const char *b)
{
    while (*a && *a == *b) { ++a; ++b; }
    return *a == *b;
}

QUANT__DEF quant_status quant_dtype_from_name(const char *name, quant_dtype *out)
{
    int i;
    if (name == NULL || out == NULL) return QUANT_ERR_NULL;
    for (i = QUANT_F32; i < (int)(sizeof quant__dtype_names / sizeof quant__dtype_names[0]); ++i)
        if (quant__streq(name, quant__dtype_names[i])) {
            *out = (quant_dtype)i;
            return QUANT_OK;
        }
    return QUANT_ERR_PARSE;
}

/* Decimal int64 with an optional sign; nothing else, no overflow. */
QUANT__PRIVATE quant_status quant__parse_i64(const char *s, int64_t *out)
{
    uint64_t v = 0;
    const uint64_t limit_pos = (uint64_t)INT64_MAX, limit_neg = (uint64_t)INT64_MAX + 1u;
    int neg = 0;
    if (*s == '+' || *s == '-') neg = *s++ == '-';
    if (*s == '\0') return QUANT_ERR_PARSE;
    for (; *s; ++s) {
        const unsigned d = (unsigned)(*s - '0');
        if (d > 9) return QUANT_ERR_PARSE;
        /* v * 10 + d <= limit, with the divisions done by the compiler */
        if (neg ? (v > limit_neg / 10 || (v == limit_neg / 10 && d > limit_neg % 10))
                : (v > limit_pos / 10 || (v == limit_pos / 10 && d > limit_pos % 10)))
            return QUANT_ERR_PARSE;
        v = v * 10 + d;
    }
    *out = neg ? (v == limit_neg ? INT64_MIN : -(int64_t)v) : (int64_t)v;
    return QUANT_OK;
}

/* "1x128": x-separated decimals >= 1, at most QUANT_MAX_RANK of them; sets
   entries 0..k-1 and clears the rest, or leaves g as it was. */
QUANT__PRIVATE quant_status quant__parse_groups(const char *s, int64_t *g)
{
    int64_t v[QUANT_MAX_RANK];
    int k = 0, i;
    for (;;) {
        int64_t x = 0;
        const char *start = s;
        if (k == QUANT_MAX_RANK) return QUANT_ERR_PARSE;
        for (; *s >= '0' && *s <= '9'; ++s) {
            const int d = *s - '0';
            /* x * 10 + d <= INT64_MAX, tested exactly (INT64_MAX itself parses) */
            if (x > INT64_MAX / 10 || (x == INT64_MAX / 10 && d > (int)(INT64_MAX % 10))) return QUANT_ERR_PARSE;
            x = x * 10 + d;
        }
        if (s == start || x < 1) return QUANT_ERR_PARSE;
        v[k++] = x;
        if (*s == '\0') break;
        if (*s++ != 'x') return QUANT_ERR_PARSE;
    }
    for (i = 0; i < QUANT_MAX_RANK; ++i) g[i] = i < k ? v[i] : 0;
    return QUANT_OK;
}

QUANT__PRIVATE quant_status quant__pick(const char *value, const char *const *names, int n, int *out)
{
    int i;
    for (i = 0; i < n; ++i)
        if (quant__streq(value, names[i])) { *out = i; return QUANT_OK; }
    return QUANT_ERR_PARSE;
}

QUANT__DEF quant_status quant_attrs_set(quant_attrs *a, const char *name, const char *value)
{
    static const char *const qtypes[] = { "per_tensor", "per_channel", "per_group" };
    static const char *const roundings[] = { "exact", "onednn", "onnx", "torch" };
    static const char *const overflows[] = { "saturate", "inf_nan" };
    static const char *const on_errors[] = { "untouched", "partial" };
    quant_status st;
    int k = 0;
    if (a == NULL || name == NULL || value == NULL) return QUANT_ERR_NULL;
    if (quant__streq(name, "axis")) {
        int64_t v = 0;
        if ((st = quant__parse_i64(value, &v)) == QUANT_OK) a->axis = v;
        return st;
    }
    if (quant__streq(name, "qtype")) {
        if ((st = quant__pick(value, qtypes, 3, &k)) == QUANT_OK) a->qtype = (quant_qtype)k;
        return st;
    }
    if (quant__streq(name, "rounding")) {
        if ((st = quant__pick(value, roundings, 4, &k)) == QUANT_OK) a->rounding = (quant_rounding)k;
        return st;
    }
    if (quant__streq(name, "group_shape")) return quant__parse_groups(value, a->group_shape);
    if (quant__streq(name, "f8_overflow")) {
        if ((st = quant__pick(value, overflows, 2, &k)) == QUANT_OK)
            a->f8_overflow = (quant_f8_overflow)k;
        return st;
    }
    if (quant__streq(name, "on_error")) {
        if ((st = quant__pick(value, on_errors, 2, &k)) == QUANT_OK) a->on_error = (quant_on_error)k;
        return st;
    }
    return QUANT_ERR_ATTR;
}
#endif /* QUANT_NO_PARSE */

QUANT__DEF const char *quant_backend(void)
{
#if QUANT__DISPATCH
    return quant__x86_level() == QUANT__L_SSE2 ? "sse2" : quant__x86_level() == QUANT__L_AVX2 ? "avx2" : "avx512";
#elif QUANT_SIMD == QUANT_SIMD_SSE2
    return "sse2";
#elif QUANT_SIMD == QUANT_SIMD_AVX2
    return "avx2";
#elif QUANT_SIMD == QUANT_SIMD_AVX512
    return "avx512";
#elif QUANT_SIMD == QUANT_SIMD_NEON
    return "neon";
#elif QUANT_SIMD == QUANT_SIMD_HELIUM
    return "helium";
#else
    return "scalar";
#endif
}

#endif /* QUANT__PART 2, 3, 4 */
#endif /* QUANT__PART */

/*
------------------------------------------------------------------------------
This software is available under two licenses; choose whichever you prefer.
------------------------------------------------------------------------------
ALTERNATIVE A - MIT License
Copyright (c) 2026 the quant.h authors
Permission is hereby granted, free of charge, to any person obtaining a copy of
this software and associated documentation files (the "Software"), to deal in
the Software without restriction, including without limitation the rights to
use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies
of the Software, and to permit persons to whom the Software is furnished to do
so, subject to the following conditions:
The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.
THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
------------------------------------------------------------------------------
ALTERNATIVE B - Public Domain (www.unlicense.org)
This is free and unencumbered software released into the public domain.
Anyone is free to copy, modify, publish, use, compile, sell, or distribute this
software, either in source code form or as a compiled binary, for any purpose,
commercial or non-commercial, and by any means.
In jurisdictions that recognize copyright laws, the author or authors of this
software dedicate any and all copyright interest in the software to the public
domain. We make this dedication in perpetuity for the benefit of humanity and
to the detriment of all present and future software users.
THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN
ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION
WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
------------------------------------------------------------------------------
*/
