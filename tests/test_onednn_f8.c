/* Rounding `onednn` with f8 is oneDNN's bits: quant.h's quantize and
   dequantize against tests/onednn_f8.h, a transcription of oneDNN's own
   conversion routines (f32 -> f16 -> f8 and back), on every f16 value, the
   f32 neighbours of every f16 and f8 rounding boundary (the ties the double
   rounding decides differently), random bits, and every f8 code, in both
   overflow modes, through the backend this program is built for. It also
   counts how often the oneDNN route differs from the single rounding the
   other roundings use. */
#include "../quant.h"
#include "oracle.h"
#include "check.h"

#define N 65536

static float xs[N];
static uint8_t codes[N];
static float ys[N];

/* quantize xs[0..n) with scale s through the public API and compare */
static long run_quantize(size_t n, float s, int fmt, int inf_nan, long *differs_from_single)
{
    quant_tensor src, dst;
    quant_attrs a = quant_attrs_default();
    quant_status st;
    size_t i;
    long bad = 0;
    memset(&src, 0, sizeof src);
    src.dtype = QUANT_F32; src.rank = 1; src.dims[0] = (int64_t)n; src.data = xs;
    dst = src;
    dst.dtype = fmt ? QUANT_F8_E5M2 : QUANT_F8_E4M3; dst.data = codes;
    a.scales = &s; a.n_scales = 1;
    a.rounding = QUANT_ROUND_ONEDNN;
    a.f8_overflow = inf_nan ? QUANT_F8_INF_NAN : QUANT_F8_SATURATE;
    st = quant_quantize(&src, &dst, &a);
    CHECK(st == QUANT_OK, "quantize status %s", quant_status_str(st));
    for (i = 0; i < n; ++i) {
        uint8_t want = odnn_quant_f8(xs[i], s, fmt);
        const int over = !isnan(xs[i]) && (want & 0x7F) == (fmt == 0 ? 0x7F : 0x7C);
        if (over && !inf_nan) want = (uint8_t)((want & 0x80) | (fmt == 0 ? 0x7E : 0x7B));
        if (codes[i] != want) ++bad;
        CHECK(codes[i] == want, "%s %s s=%a x=%a (0x%08x): got 0x%02x, oneDNN 0x%02x", fmt ? "e5m2" : "e4m3",
              inf_nan ? "inf_nan" : "saturate", (double)s, (double)xs[i], check_bits_float(xs[i]), codes[i], want);
        if (differs_from_single && !isnan(xs[i]) &&
            want != o_f8_encode(xs[i], o_quotient(xs[i], s, O_TORCH), fmt, inf_nan))
            ++*differs_from_single;
    }
    return bad;
}

static float f16_value(uint16_t h) { return odnn_f16_to_f32(h); }

int main(void)
{
    static const float scales[] = { 1.0f, 0.5f, -2.0f, 3.0f, 0.1f, 1e-3f, 448.0f, 7.3e-6f };
    const size_t ns = sizeof scales / sizeof *scales;
    long single_diff = 0, random_total = 0;
    size_t i, k;
    int fmt, inf_nan;
    check_cpu();

    for (fmt = 0; fmt < 2; ++fmt)
        for (inf_nan = 0; inf_nan < 2; ++inf_nan) {
            /* every f16 value (NaNs included) times each scale */
            for (k = 0; k < ns; ++k) {
                for (i = 0; i < N; ++i) xs[i] = f16_value((uint16_t)i) * scales[k];
                run_quantize(N, scales[k], fmt, inf_nan, NULL);
            }
            /* the f32 neighbours of every f16 value and of every midpoint
               between two f16 values, at scale 1: where rounding to f16
               first moves a value onto an f8 tie, or off one */
            for (i = 0; i < N / 4; ++i) {
                const uint16_t h = (uint16_t)(i * 2 + (fmt ? 0 : 1));
                const uint32_t b = check_bits_float(f16_value(h)), mid = b + (1u << 12);
                xs[4 * i] = check_float_bits(b + 1u);
                xs[4 * i + 1] = check_float_bits(b - 1u);
                xs[4 * i + 2] = check_float_bits(mid);
                xs[4 * i + 3] = check_float_bits(mid + (i & 1 ? 1u : 0u) - (i & 2 ? 1u : 0u));
            }
            run_quantize(N, 1.0f, fmt, inf_nan, NULL);
            /* random bits and random moderate values */
            for (k = 0; k < 16; ++k) {
                for (i = 0; i < N; ++i)
                    xs[i] = i % 2 ? check_float_bits(check_rand())
                                  : (float)((int)(check_rand() % 2000001) - 1000000) / 1000.0f;
                run_quantize(N, scales[k % ns], fmt, inf_nan, &single_diff);
                random_total += N;
            }
        }

    /* every code of both formats decodes as oneDNN decodes it, NaN
       payloads included, at each scale */
    for (fmt = 0; fmt < 2; ++fmt)
        for (k = 0; k < ns; ++k) {
            quant_tensor src, dst;
            quant_attrs a = quant_attrs_default();
            quant_status st;
            memset(&src, 0, sizeof src);
            src.dtype = fmt ? QUANT_F8_E5M2 : QUANT_F8_E4M3; src.rank = 1; src.dims[0] = 1024; src.data = codes;
            dst = src;
            dst.dtype = QUANT_F32; dst.data = ys;
            for (i = 0; i < 1024; ++i) codes[i] = (uint8_t)(i * 7 + i / 256);
            a.scales = &scales[k]; a.n_scales = 1;
            a.rounding = QUANT_ROUND_ONEDNN;
            st = quant_dequantize(&src, &dst, &a);
            CHECK(st == QUANT_OK, "dequantize status %s", quant_status_str(st));
            for (i = 0; i < 1024; ++i) {
                const float want = odnn_dequant_f8(codes[i], scales[k], fmt);
                CHECK(check_bits_float(ys[i]) == check_bits_float(want),
                      "%s dequantize 0x%02x s=%a: got 0x%08x, oneDNN 0x%08x", fmt ? "e5m2" : "e4m3", codes[i],
                      (double)scales[k], check_bits_float(ys[i]), check_bits_float(want));
            }
        }
    printf("oneDNN route differs from the single rounding on %ld of %ld random values\n", single_diff,
           random_total);
    CHECK(single_diff > 0, "the double rounding never mattered: the test data misses the ties");
    return check_done("test_onednn_f8");
}
