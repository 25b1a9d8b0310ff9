/* gen_tiny_gguf.c - writes tests/data/tiny.gguf with ggml's own GGUF writer
   and quantizers, and ggml's own decode of two of its tensors as
   tests/data/tiny_<tensor>.f32, for examples/test_gguf_dump.c.

   It loads libggml-base.so at run time (no link-time dependency); the
   build used for the committed files is node-llama-cpp's:

       mkdir -p /tmp/npm && cd /tmp/npm && npm pack @node-llama-cpp/linux-x64@3.22.1 &&
           tar xzf node-llama-cpp-linux-x64-3.22.1.tgz
       cc -O1 examples/gen_tiny_gguf.c -o /tmp/gen_tiny_gguf -ldl
       /tmp/gen_tiny_gguf /tmp/npm/package/bins/linux-x64/libggml-base.so tests/data

   The declarations below are ggml.h's and gguf.h's (ggml 0.5.0): opaque
   contexts and tensors, enums passed as int. */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ggml_init_params { size_t mem_size; void *mem_buffer; bool no_alloc; };

static void *(*ggml_init)(struct ggml_init_params);
static void (*ggml_free)(void *ctx);
static void *(*ggml_new_tensor_2d)(void *ctx, int type, int64_t ne0, int64_t ne1);
static void *(*ggml_new_tensor_3d)(void *ctx, int type, int64_t ne0, int64_t ne1, int64_t ne2);
static void *(*ggml_set_name)(void *tensor, const char *name);
static size_t (*ggml_row_size)(int type, int64_t ne);
static const char *(*ggml_type_name)(int type);
static size_t (*ggml_quantize_chunk)(int type, const float *src, void *dst, int64_t start,
                                     int64_t nrows, int64_t n_per_row, const float *imatrix);
static void *(*gguf_init_empty)(void);
static void (*gguf_free)(void *ctx);
static void (*gguf_set_val_str)(void *ctx, const char *key, const char *val);
static void (*gguf_set_val_u32)(void *ctx, const char *key, uint32_t val);
static void (*gguf_set_val_f32)(void *ctx, const char *key, float val);
static void (*gguf_set_val_bool)(void *ctx, const char *key, bool val);
static void (*gguf_set_arr_str)(void *ctx, const char *key, const char **data, size_t n);
static void (*gguf_set_arr_data)(void *ctx, const char *key, int type, const void *data, size_t n);
static void (*gguf_add_tensor)(void *ctx, const void *tensor);
static void (*gguf_set_tensor_data)(void *ctx, const char *name, const void *data);
static bool (*gguf_write_to_file)(const void *ctx, const char *fname, bool only_meta);

/* ggml type ids (ggml.h's enum ggml_type); gguf's value type id of int32 */
enum { F16 = 1, Q4_0 = 2, Q8_0 = 8, Q4_K = 12, Q6_K = 14, IQ4_XS = 23, MXFP4 = 39, NVFP4 = 40 };
enum { GGUF_TYPE_INT32 = 5 };

#define ROW 256
static const struct { const char *name; int type; int64_t ne1, ne2; int expect; } tensors[] = {
    { "q4_0",   Q4_0,   4, 0, 0 },
    { "q8_0",   Q8_0,   2, 2, 0 },    /* 3-D: ne = {256, 2, 2} */
    { "q4_K",   Q4_K,   4, 0, 1 },    /* expect: ggml's decode written as tiny_<name>.f32 */
    { "q6_K",   Q6_K,   4, 0, 0 },
    { "mxfp4",  MXFP4,  4, 0, 1 },
    { "iq4_xs", IQ4_XS, 4, 0, 0 },
    { "nvfp4",  NVFP4,  4, 0, 0 },
    { "f16",    F16,    4, 0, 0 },    /* last, and 2048 bytes: the file ends where its data does */
};
#define N_TENSORS (sizeof tensors / sizeof tensors[0])

static void *sym(void *lib, const char *name) {
    void *p = dlsym(lib, name);
    if (!p) { fprintf(stderr, "gen_tiny_gguf: %s not in the library\n", name); exit(1); }
    return p;
}
#define LOAD(f) (*(void **)&f = sym(lib, #f))

/* a fixed pseudo-random source: sums of four uniforms, a different
   magnitude in every row, and every 37th element 6 times larger */
static void source(float *x, size_t n, uint64_t seed) {
    size_t i;
    int k;
    for (i = 0; i < n; i++) {
        float s = 0;
        for (k = 0; k < 4; k++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            s += (float)(seed >> 40) / (float)(1 << 23) - 1.0f;
        }
        x[i] = s * 0.05f * (float)(1 + i / ROW) * (i % 37 == 0 ? 6.0f : 1.0f);
    }
}

int main(int argc, char **argv) {
    static const char *tokens[] = { "<s>", "</s>", "hello", "world" };
    static const int32_t ids[] = { 1, -2, 3 };
    static float src[N_TENSORS][4 * ROW], dec[4 * ROW];
    static unsigned char q[N_TENSORS][4 * ROW * 4];
    struct ggml_init_params params = { 1 << 20, NULL, true };
    void *lib, *ctx, *gctx;
    char path[4096];
    size_t i;

    if (argc != 3) { fprintf(stderr, "usage: gen_tiny_gguf LIBGGML_BASE_SO OUT_DIR\n"); return 2; }
    lib = dlopen(argv[1], RTLD_NOW);
    if (!lib) { fprintf(stderr, "gen_tiny_gguf: %s\n", dlerror()); return 1; }
    LOAD(ggml_init); LOAD(ggml_free); LOAD(ggml_new_tensor_2d); LOAD(ggml_new_tensor_3d);
    LOAD(ggml_set_name); LOAD(ggml_row_size); LOAD(ggml_type_name); LOAD(ggml_quantize_chunk);
    LOAD(gguf_init_empty); LOAD(gguf_free); LOAD(gguf_set_val_str); LOAD(gguf_set_val_u32);
    LOAD(gguf_set_val_f32); LOAD(gguf_set_val_bool); LOAD(gguf_set_arr_str); LOAD(gguf_set_arr_data);
    LOAD(gguf_add_tensor); LOAD(gguf_set_tensor_data); LOAD(gguf_write_to_file);

    ctx = ggml_init(params);   /* no_alloc: the tensors' data is given to gguf below */
    gctx = gguf_init_empty();
    if (!ctx || !gctx) { fprintf(stderr, "gen_tiny_gguf: ggml_init or gguf_init_empty failed\n"); return 1; }
    gguf_set_val_str(gctx, "general.architecture", "tiny");
    gguf_set_val_str(gctx, "general.name", "quant.h gguf_dump test");
    gguf_set_val_u32(gctx, "general.alignment", 32);  /* ggml's writer pads to 32 whatever this says */
    gguf_set_val_u32(gctx, "tiny.block_count", (uint32_t)N_TENSORS);
    gguf_set_val_f32(gctx, "tiny.rope.freq_base", 10000.0f);
    gguf_set_val_bool(gctx, "tiny.quantized", true);
    gguf_set_arr_str(gctx, "tokenizer.ggml.tokens", tokens, 4);
    gguf_set_arr_data(gctx, "tiny.ids", GGUF_TYPE_INT32, ids, 3);

    for (i = 0; i < N_TENSORS; i++) {
        int64_t rows = tensors[i].ne1 * (tensors[i].ne2 ? tensors[i].ne2 : 1);
        size_t want = ggml_row_size(tensors[i].type, ROW) * (size_t)rows, got;
        void *t = tensors[i].ne2 ? ggml_new_tensor_3d(ctx, tensors[i].type, ROW, tensors[i].ne1, tensors[i].ne2)
                                 : ggml_new_tensor_2d(ctx, tensors[i].type, ROW, tensors[i].ne1);
        if (strcmp(ggml_type_name(tensors[i].type), tensors[i].name) != 0) {
            fprintf(stderr, "gen_tiny_gguf: ggml calls type %d %s\n", tensors[i].type, ggml_type_name(tensors[i].type));
            return 1;
        }
        source(src[i], (size_t)(rows * ROW), 0x9e3779b97f4a7c15u * (i + 1));
        got = ggml_quantize_chunk(tensors[i].type, src[i], q[i], 0, rows, ROW, NULL);
        if (!t || got != want || got > sizeof q[i]) {
            fprintf(stderr, "gen_tiny_gguf: %s: %zu bytes quantized, %zu expected\n", tensors[i].name, got, want);
            return 1;
        }
        ggml_set_name(t, tensors[i].name);
        gguf_add_tensor(gctx, t);
        gguf_set_tensor_data(gctx, tensors[i].name, q[i]);

        if (tensors[i].expect) {   /* ggml's decode, dequantize_row_<type> */
            void (*to_float)(const void *, float *, int64_t);
            FILE *f;
            snprintf(path, sizeof path, "dequantize_row_%s", tensors[i].name);
            *(void **)&to_float = sym(lib, path);
            to_float(q[i], dec, rows * ROW);
            snprintf(path, sizeof path, "%s/tiny_%s.f32", argv[2], tensors[i].name);
            f = fopen(path, "wb");
            if (!f || fwrite(dec, sizeof dec[0], (size_t)(rows * ROW), f) != (size_t)(rows * ROW) || fclose(f)) {
                fprintf(stderr, "gen_tiny_gguf: cannot write %s\n", path);
                return 1;
            }
        }
    }
    snprintf(path, sizeof path, "%s/tiny.gguf", argv[2]);
    if (!gguf_write_to_file(gctx, path, false)) { fprintf(stderr, "gen_tiny_gguf: cannot write %s\n", path); return 1; }
    printf("wrote %s\n", path);
    gguf_free(gctx);
    ggml_free(ctx);
    return 0;
}
