/* Worked examples: the seed documents' formulas on hand-checked numbers,
   and cases from oneDNN's and ONNX's own tests. */
#include "../quant.h"
#include "check.h"

static quant_tensor vec(quant_dtype t, int64_t n, void *data)
{
    quant_tensor x;
    memset(&x, 0, sizeof x);
    x.dtype = t; x.rank = 1; x.dims[0] = n; x.data = data;
    return x;
}

int main(void)
{
    check_cpu();
    quant_attrs a = quant_attrs_default();
    size_t i;

    { /* oneDNN Graph unit test: per-tensor u8, scale 0.1, zp 10 */
        float src[4] = { 1.0f, 0.0f, 1.0f, 2.0f }, s = 0.1f, back[4];
        int64_t z = 10;
        uint8_t dst[4], want[4] = { 20, 10, 20, 30 };
        float wantf[4] = { 1.0f, 0.0f, 1.0f, 2.0f };
        quant_tensor ts = vec(QUANT_F32, 4, src), td = vec(QUANT_U8, 4, dst), tb = vec(QUANT_F32, 4, back);
        a.scales = &s; a.n_scales = 1; a.zps = &z; a.n_zps = 1;
        CHECK(quant_quantize(&ts, &td, &a) == QUANT_OK, "u8 example status");
        for (i = 0; i < 4; ++i) CHECK(dst[i] == want[i], "u8 example [%zu]: %d", i, dst[i]);
        CHECK(quant_dequantize(&td, &tb, &a) == QUANT_OK, "u8 dequantize status");
        /* (20 - 10) * 0.1f rounds to 1.0f exactly */
        for (i = 0; i < 4; ++i) CHECK(back[i] == wantf[i], "u8 dequantize [%zu]: %g", i, back[i]);
    }
    { /* per-channel s8 on axis 1 of [1, 2, 2]: scales {0.5, 2}, zps {0, -4} */
        float src[4] = { 1.0f, -1.25f, 3.0f, 5.0f }, s[2] = { 0.5f, 2.0f };
        int64_t z[2] = { 0, -4 };
        int8_t dst[4], want[4] = { 2, -2, -2, -2 }; /* 5/2 - 4 = -1.5 ties to -2 */
        quant_tensor ts = vec(QUANT_F32, 4, src), td = vec(QUANT_S8, 4, dst);
        ts.rank = td.rank = 3;
        ts.dims[0] = td.dims[0] = 1; ts.dims[1] = td.dims[1] = 2; ts.dims[2] = td.dims[2] = 2;
        a = quant_attrs_default();
        a.qtype = QUANT_PER_CHANNEL; a.axis = 1; a.scales = s; a.n_scales = 2; a.zps = z; a.n_zps = 2;
        CHECK(quant_quantize(&ts, &td, &a) == QUANT_OK, "per-channel status");
        for (i = 0; i < 4; ++i) CHECK(dst[i] == want[i], "per-channel [%zu]: %d", i, dst[i]);
    }
    { /* the roundings differ at ties: 0.5 + 1 is 2 in exact, rne(0.5) + 1 = 1 in onnx */
        float src[1] = { 0.5f }, s = 1.0f;
        int64_t z = 1;
        uint8_t dst[1];
        static const int want[4] = { 2, 2, 1, 1 };
        quant_tensor ts = vec(QUANT_F32, 1, src), td = vec(QUANT_U8, 1, dst);
        int r;
        a = quant_attrs_default();
        a.scales = &s; a.n_scales = 1; a.zps = &z; a.n_zps = 1;
        for (r = 0; r < 4; ++r) {
            a.rounding = (quant_rounding)r;
            CHECK(quant_quantize(&ts, &td, &a) == QUANT_OK && dst[0] == want[r],
                  "tie example rounding %d: %d", r, dst[0]);
        }
    }
    { /* x * fl(1/s) differs from x / s: 3 / 3 rounds to 1, 3 * fl(1/3) too,
         but 7 / 7 vs 7 * fl(1/7) differ in the last bit; with x = 63.5
         s = 127 the quotient 0.5 ties to 0 exactly and the product is
         0.50000006 (over the tie) when fl(1/127) rounds up */
        float s = 127.0f, r = 1.0f / s;
        float x[1] = { 63.5f };
        int8_t q[1];
        quant_tensor ts = vec(QUANT_F32, 1, x), td = vec(QUANT_S8, 1, q);
        a = quant_attrs_default();
        a.scales = &s; a.n_scales = 1;
        a.rounding = QUANT_ROUND_EXACT;
        CHECK(quant_quantize(&ts, &td, &a) == QUANT_OK && q[0] == 0, "63.5/127 exact: %d", q[0]);
        a.rounding = QUANT_ROUND_TORCH;
        CHECK(quant_quantize(&ts, &td, &a) == QUANT_OK && q[0] == (63.5f * r > 0.5f ? 1 : 0),
              "63.5*fl(1/127) torch: %d", q[0]);
    }
    { /* ONNX QuantizeLinear reference example: y_scale 2, y_zero_point 128,
         x = {0, 2, 3, 1000, -254, -1000} -> {128, 129, 130, 255, 1, 0} */
        float x[6] = { 0, 2, 3, 1000, -254, -1000 }, s = 2.0f;
        int64_t z = 128;
        uint8_t q[6], want[6] = { 128, 129, 130, 255, 1, 0 };
        quant_tensor ts = vec(QUANT_F32, 6, x), td = vec(QUANT_U8, 6, q);
        a = quant_attrs_default();
        a.scales = &s; a.n_scales = 1; a.zps = &z; a.n_zps = 1; a.rounding = QUANT_ROUND_ONNX;
        CHECK(quant_quantize(&ts, &td, &a) == QUANT_OK, "onnx example status");
        for (i = 0; i < 6; ++i) CHECK(q[i] == want[i], "onnx example [%zu]: %d", i, q[i]);
    }
    { /* ONNX DequantizeLinear example: x = {0, 3, 128, 255}, scale 2, zp 128
         -> {-256, -250, 0, 254} */
        uint8_t q[4] = { 0, 3, 128, 255 };
        float y[4], want[4] = { -256, -250, 0, 254 }, s = 2.0f;
        int32_t z = 128;
        quant_tensor tq = vec(QUANT_U8, 4, q), ty = vec(QUANT_F32, 4, y), ts = vec(QUANT_F32, 1, &s),
                     tz = vec(QUANT_S32, 1, &z);
        CHECK(quant_dynamic_dequantize(&tq, &ts, &tz, &ty, NULL) == QUANT_OK, "dq example status");
        for (i = 0; i < 4; ++i) CHECK(y[i] == want[i], "dq example [%zu]: %g", i, y[i]);
    }
    { /* f8: 448 and 464 saturate to 0x7E, 480 overflows; e5m2 57344 is 0x7B,
         61440 ties up past max; NaN keeps its sign */
        float x[6] = { 448.0f, 464.0f, 480.0f, -1e9f, 0.001953125f /* 2^-9 */, 0.0009765625f /* 2^-10 */ };
        uint8_t q[6];
        static const uint8_t want_sat[6] = { 0x7E, 0x7E, 0x7E, 0xFE, 0x01, 0x00 };
        static const uint8_t want_inf[6] = { 0x7E, 0x7E, 0x7F, 0xFF, 0x01, 0x00 };
        float s = 1.0f;
        quant_tensor ts = vec(QUANT_F32, 6, x), td = vec(QUANT_F8_E4M3, 6, q);
        a = quant_attrs_default();
        a.scales = &s; a.n_scales = 1;
        CHECK(quant_quantize(&ts, &td, &a) == QUANT_OK, "e4m3 status");
        for (i = 0; i < 6; ++i) CHECK(q[i] == want_sat[i], "e4m3 sat [%zu]: 0x%02x", i, q[i]);
        a.f8_overflow = QUANT_F8_INF_NAN;
        CHECK(quant_quantize(&ts, &td, &a) == QUANT_OK, "e4m3 status");
        for (i = 0; i < 6; ++i) CHECK(q[i] == want_inf[i], "e4m3 inf_nan [%zu]: 0x%02x", i, q[i]);
    }
    {
        float x[4] = { 57344.0f, 61439.0f, 61440.0f, -1e30f };
        uint8_t q[4];
        static const uint8_t want_sat[4] = { 0x7B, 0x7B, 0x7B, 0xFB };
        static const uint8_t want_inf[4] = { 0x7B, 0x7B, 0x7C, 0xFC };
        quant_f32_to_f8_e5m2(x, q, 4, 1.0f);
        for (i = 0; i < 4; ++i) CHECK(q[i] == want_sat[i], "e5m2 sat [%zu]: 0x%02x", i, q[i]);
        {
            float s = 1.0f;
            quant_tensor ts = vec(QUANT_F32, 4, x), td = vec(QUANT_F8_E5M2, 4, q);
            a = quant_attrs_default();
            a.scales = &s; a.n_scales = 1; a.f8_overflow = QUANT_F8_INF_NAN;
            CHECK(quant_quantize(&ts, &td, &a) == QUANT_OK, "e5m2 status");
            for (i = 0; i < 4; ++i) CHECK(q[i] == want_inf[i], "e5m2 inf_nan [%zu]: 0x%02x", i, q[i]);
        }
    }
    { /* row kernels agree with the ops */
        float x[3] = { -1.0f, 0.25f, 7.0f }, y[3];
        int8_t q[3];
        quant_f32_to_s8(x, q, 3, 0.25f, -3);
        CHECK(q[0] == -7 && q[1] == -2 && q[2] == 25, "row s8: %d %d %d", q[0], q[1], q[2]);
        quant_s8_to_f32(q, y, 3, 0.25f, -3);
        CHECK(y[0] == -1.0f && y[1] == 0.25f && y[2] == 7.0f, "row s8 back: %g %g %g", y[0], y[1], y[2]);
    }
    return check_done("test_examples");
}
