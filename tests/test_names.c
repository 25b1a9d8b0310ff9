/* Names and strict parsing: quant_status_str, quant_dtype_name,
   quant_dtype_from_name, quant_attrs_set, quant_backend. */
#include "../quant.h"
#include "check.h"

static int has_newline(const char *s) { return strchr(s, '\n') != NULL; }

int main(void)
{
    check_cpu();
    static const char *dnames[] = { "f32", "s8", "u8", "s32", "f8_e4m3", "f8_e5m2" };
    static const char *bad_dtypes[] = { "", "F32", "f32 ", " f32", "f64", "F16", "s8\n", "undef", "f8", "u8x" };
    static const struct { const char *name, *value; quant_status st; } bad[] = {
        { "axis", "", QUANT_ERR_PARSE }, { "axis", "-", QUANT_ERR_PARSE }, { "axis", "+", QUANT_ERR_PARSE },
        { "axis", " 1", QUANT_ERR_PARSE }, { "axis", "1 ", QUANT_ERR_PARSE }, { "axis", "0x10", QUANT_ERR_PARSE },
        { "axis", "1e3", QUANT_ERR_PARSE }, { "axis", "9223372036854775808", QUANT_ERR_PARSE },
        { "axis", "-9223372036854775809", QUANT_ERR_PARSE }, { "axis", "99999999999999999999", QUANT_ERR_PARSE },
        { "axis", "--1", QUANT_ERR_PARSE }, { "axis", "1.0", QUANT_ERR_PARSE },
        { "qtype", "per-tensor", QUANT_ERR_PARSE }, { "qtype", "PER_TENSOR", QUANT_ERR_PARSE },
        { "qtype", "per_channel ", QUANT_ERR_PARSE }, { "qtype", "", QUANT_ERR_PARSE },
        { "rounding", "Exact", QUANT_ERR_PARSE }, { "rounding", "nearest", QUANT_ERR_PARSE },
        { "rounding", "onnx\n", QUANT_ERR_PARSE }, { "f8_overflow", "saturated", QUANT_ERR_PARSE },
        { "f8_overflow", "inf-nan", QUANT_ERR_PARSE }, { "on_error", "Partial", QUANT_ERR_PARSE },
        { "on_error", "", QUANT_ERR_PARSE }, { "on_error", "nothing", QUANT_ERR_PARSE },
        { "scales", "1.0", QUANT_ERR_ATTR }, { "zps", "0", QUANT_ERR_ATTR }, { "Axis", "1", QUANT_ERR_ATTR },
        { "", "1", QUANT_ERR_ATTR }, { "axis ", "1", QUANT_ERR_ATTR }, { "round", "exact", QUANT_ERR_ATTR }
    };
    quant_attrs a = quant_attrs_default(), before;
    quant_dtype t;
    int i, j;

    /* every status has its own one-line string */
    for (i = 0; i <= QUANT_ERR_STRIDE; ++i) {
        const char *s = quant_status_str((quant_status)i);
        CHECK(s != NULL && s[0] != '\0' && !has_newline(s), "status %d string", i);
        for (j = 0; j < i; ++j) CHECK(strcmp(s, quant_status_str((quant_status)j)) != 0, "status %d == %d", i, j);
    }
    CHECK(quant_status_str((quant_status)99) != NULL, "unknown status string");
    CHECK(strcmp(quant_status_str(QUANT_OK), "ok") == 0, "ok string");
    {
        /* each string names the cases that return it, and no case that
           returns another status: quant_attrs_set with a known name and an
           unknown value is QUANT_ERR_PARSE, so QUANT_ERR_ATTR's string must
           not claim unknown values of attributes in general */
        static const struct { quant_status st; const char *has, *lacks; } words[] = {
            { QUANT_ERR_ATTR, "f8_overflow or on_error value", "attribute name or value" },
            { QUANT_ERR_ATTR, "attribute name", NULL },
            { QUANT_ERR_PARSE, "value", NULL },
            { QUANT_ERR_ZPS, "n_zps 0", NULL },
            { QUANT_ERR_OVERLAP, "src", NULL },
            { QUANT_ERR_AXIS, "rank 0", NULL },
            { QUANT_ERR_SCALES, "scale grid", NULL },
            { QUANT_ERR_ATTR, "group_shape", NULL },
            { QUANT_ERR_ALIGN, "f16/bf16", NULL },
        };
        for (i = 0; i < (int)(sizeof words / sizeof *words); ++i) {
            const char *s = quant_status_str(words[i].st);
            CHECK(strstr(s, words[i].has) != NULL, "status %d string '%s' lacks '%s'", (int)words[i].st, s, words[i].has);
            CHECK(!words[i].lacks || !strstr(s, words[i].lacks), "status %d string '%s' says '%s'", (int)words[i].st, s,
                  words[i].lacks);
        }
        a = quant_attrs_default();
        CHECK(quant_attrs_set(&a, "rounding", "nearest") == QUANT_ERR_PARSE, "known name, unknown value: PARSE");
        CHECK(quant_attrs_set(&a, "nearest", "exact") == QUANT_ERR_ATTR, "unknown name: ATTR");
    }

    /* dtype names round-trip */
    for (i = 0; i < 6; ++i) {
        CHECK(strcmp(quant_dtype_name((quant_dtype)(i + 1)), dnames[i]) == 0, "name of dtype %d", i + 1);
        t = QUANT_UNDEF;
        CHECK(quant_dtype_from_name(dnames[i], &t) == QUANT_OK && t == (quant_dtype)(i + 1), "parse %s", dnames[i]);
    }
    CHECK(quant_dtype_name((quant_dtype)77) != NULL, "name of dtype 77");
    for (i = 0; i < (int)(sizeof bad_dtypes / sizeof *bad_dtypes); ++i) {
        t = QUANT_S8;
        CHECK(quant_dtype_from_name(bad_dtypes[i], &t) == QUANT_ERR_PARSE && t == QUANT_S8, "bad dtype '%s'", bad_dtypes[i]);
    }
    CHECK(quant_dtype_from_name(NULL, &t) == QUANT_ERR_NULL, "NULL name");
    CHECK(quant_dtype_from_name("f32", NULL) == QUANT_ERR_NULL, "NULL out");

    /* defaults */
    CHECK(a.qtype == QUANT_PER_TENSOR && a.axis == 1 && a.rounding == QUANT_ROUND_EXACT &&
          a.f8_overflow == QUANT_F8_SATURATE && a.scales == NULL && a.n_scales == 0 &&
          a.zps == NULL && a.n_zps == 0 && a.on_error == QUANT_ON_ERROR_UNTOUCHED, "quant_attrs_default");
    {
        /* an on_error value out of range is QUANT_ERR_ATTR for any op, nothing written */
        float x[2] = { 1.0f, -2.0f }, sc = 0.5f;
        int8_t y[2] = { 9, 9 };
        quant_tensor src = { QUANT_F32, 1, { 2 }, x }, dst = { QUANT_S8, 1, { 2 }, y };
        quant_attrs b = quant_attrs_default();
        b.scales = &sc;
        b.n_scales = 1;
        CHECK(quant_quantize(&src, &dst, &b) == QUANT_OK && y[0] == 2 && y[1] == -4, "quantize with default attrs");
        y[0] = y[1] = 9;
        b.on_error = (quant_on_error)2;
        CHECK(quant_quantize(&src, &dst, &b) == QUANT_ERR_ATTR && y[0] == 9 && y[1] == 9, "on_error 2: ATTR");
        b.on_error = QUANT_ON_ERROR_PARTIAL; /* no op but the choose pair reads data that can be in error */
        CHECK(quant_quantize(&src, &dst, &b) == QUANT_OK && y[0] == 2 && y[1] == -4, "on_error partial, quantize");
    }

    /* good values */
    CHECK(quant_attrs_set(&a, "axis", "-3") == QUANT_OK && a.axis == -3, "axis -3");
    CHECK(quant_attrs_set(&a, "axis", "+7") == QUANT_OK && a.axis == 7, "axis +7");
    CHECK(quant_attrs_set(&a, "axis", "007") == QUANT_OK && a.axis == 7, "axis 007");
    CHECK(quant_attrs_set(&a, "axis", "9223372036854775807") == QUANT_OK && a.axis == INT64_MAX, "axis max");
    CHECK(quant_attrs_set(&a, "axis", "-9223372036854775808") == QUANT_OK && a.axis == INT64_MIN, "axis min");
    CHECK(quant_attrs_set(&a, "qtype", "per_channel") == QUANT_OK && a.qtype == QUANT_PER_CHANNEL, "qtype");
    CHECK(quant_attrs_set(&a, "qtype", "per_tensor") == QUANT_OK && a.qtype == QUANT_PER_TENSOR, "qtype");
    CHECK(quant_attrs_set(&a, "rounding", "onednn") == QUANT_OK && a.rounding == QUANT_ROUND_ONEDNN, "onednn");
    CHECK(quant_attrs_set(&a, "rounding", "onnx") == QUANT_OK && a.rounding == QUANT_ROUND_ONNX, "onnx");
    CHECK(quant_attrs_set(&a, "rounding", "torch") == QUANT_OK && a.rounding == QUANT_ROUND_TORCH, "torch");
    CHECK(quant_attrs_set(&a, "rounding", "exact") == QUANT_OK && a.rounding == QUANT_ROUND_EXACT, "exact");
    CHECK(quant_attrs_set(&a, "f8_overflow", "inf_nan") == QUANT_OK && a.f8_overflow == QUANT_F8_INF_NAN, "inf_nan");
    CHECK(quant_attrs_set(&a, "f8_overflow", "saturate") == QUANT_OK && a.f8_overflow == QUANT_F8_SATURATE, "sat");
    CHECK(quant_attrs_set(&a, "on_error", "partial") == QUANT_OK && a.on_error == QUANT_ON_ERROR_PARTIAL, "partial");
    CHECK(quant_attrs_set(&a, "on_error", "untouched") == QUANT_OK && a.on_error == QUANT_ON_ERROR_UNTOUCHED, "untouched");

    /* bad ones leave the attrs untouched */
    for (i = 0; i < (int)(sizeof bad / sizeof *bad); ++i) {
        quant_status st;
        before = a;
        st = quant_attrs_set(&a, bad[i].name, bad[i].value);
        CHECK(st == bad[i].st, "set %s='%s': %s", bad[i].name, bad[i].value, quant_status_str(st));
        CHECK(before.axis == a.axis && before.qtype == a.qtype && before.rounding == a.rounding &&
              before.f8_overflow == a.f8_overflow && before.on_error == a.on_error, "set %s='%s' changed attrs", bad[i].name, bad[i].value);
    }
    CHECK(quant_attrs_set(NULL, "axis", "1") == QUANT_ERR_NULL, "NULL attrs");
    CHECK(quant_attrs_set(&a, NULL, "1") == QUANT_ERR_NULL, "NULL name");
    CHECK(quant_attrs_set(&a, "axis", NULL) == QUANT_ERR_NULL, "NULL value");

    {
        const char *b = quant_backend();
        CHECK(b && (!strcmp(b, "scalar") || !strcmp(b, "sse2") || !strcmp(b, "avx2") ||
                    !strcmp(b, "avx512") || !strcmp(b, "neon")), "backend '%s'", b ? b : "(null)");
        printf("backend: %s\n", b);
    }
    return check_done("test_names");
}
