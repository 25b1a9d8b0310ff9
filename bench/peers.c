/* oneDNN's reorder and XNNPACK's convert operators, as the benchmark's
   peers. Each is compiled in only when Meson found it. Both run on one
   thread, as quant.h does (the benchmark sets OMP_NUM_THREADS=1 for
   oneDNN; XNNPACK gets no thread pool). */
#include <stdlib.h>
#include "baselines.h"

#ifdef HAVE_DNNL
#include <oneapi/dnnl/dnnl.h>
#endif
#ifdef HAVE_XNNPACK
#include <xnnpack.h>
#endif

struct peer {
    int kind; /* 1 oneDNN, 2 XNNPACK */
#ifdef HAVE_DNNL
    dnnl_engine_t engine;
    dnnl_stream_t stream;
    dnnl_primitive_t prim;
    dnnl_memory_t msrc, mdst;
#endif
#ifdef HAVE_XNNPACK
    xnn_operator_t op;
#endif
};

#ifdef HAVE_DNNL
/* quantize from f32 or bf16 (fdt), or dequantize to f32 */
static peer *dnnl_prepare(int quantize, int is_u8, dnnl_data_type_t fdt, size_t outer, size_t C, size_t inner,
                          const float *scales, int32_t zp, void *src, void *dst)
{
    peer *p = calloc(1, sizeof *p);
    dnnl_memory_desc_t ds, dd;
    dnnl_dims_t dims = { (dnnl_dim_t)outer, (dnnl_dim_t)C, (dnnl_dim_t)inner };
    dnnl_primitive_attr_t attr;
    dnnl_primitive_desc_t pd;
    const dnnl_data_type_t qt = is_u8 ? dnnl_u8 : dnnl_s8;
    float *sc = malloc(C * sizeof *sc);
    size_t c;
    int ok = 1;
    p->kind = 1;
    /* oneDNN scales multiply: quantize passes fl(1/s), dequantize s */
    for (c = 0; c < C; ++c) sc[c] = quantize ? 1.0f / scales[c] : scales[c];
    ok &= dnnl_engine_create(&p->engine, dnnl_cpu, 0) == dnnl_success;
    ok &= dnnl_stream_create(&p->stream, p->engine, dnnl_stream_default_flags) == dnnl_success;
    ok &= dnnl_memory_desc_init_by_tag(&ds, 3, dims, quantize ? fdt : qt, dnnl_abc) == dnnl_success;
    ok &= dnnl_memory_desc_init_by_tag(&dd, 3, dims, quantize ? qt : fdt, dnnl_abc) == dnnl_success;
    ok &= dnnl_primitive_attr_create(&attr) == dnnl_success;
    ok &= dnnl_primitive_attr_set_output_scales(attr, (dnnl_dim_t)C, C > 1 ? 1 << 1 : 0, sc) == dnnl_success;
    if (zp != 0)
        ok &= dnnl_primitive_attr_set_zero_points(attr, quantize ? DNNL_ARG_DST : DNNL_ARG_SRC, 1, 0, &zp) == dnnl_success;
    ok = ok && dnnl_reorder_primitive_desc_create(&pd, &ds, p->engine, &dd, p->engine, attr) == dnnl_success;
    ok = ok && dnnl_primitive_create(&p->prim, pd) == dnnl_success;
    ok = ok && dnnl_memory_create(&p->msrc, &ds, p->engine, src) == dnnl_success;
    ok = ok && dnnl_memory_create(&p->mdst, &dd, p->engine, dst) == dnnl_success;
    free(sc);
    if (!ok) { free(p); return NULL; }
    return p;
}
#endif

peer *peer_dnnl_prepare(int quantize, int is_u8, size_t outer, size_t C, size_t inner,
                        const float *scales, int32_t zp, void *src, void *dst)
{
#ifdef HAVE_DNNL
    return dnnl_prepare(quantize, is_u8, dnnl_f32, outer, C, inner, scales, zp, src, dst);
#else
    (void)quantize; (void)is_u8; (void)outer; (void)C; (void)inner; (void)scales; (void)zp; (void)src; (void)dst;
    return NULL;
#endif
}

peer *peer_dnnl_prepare_bf16(int is_u8, size_t outer, size_t C, size_t inner, const float *scales, int32_t zp,
                             void *src, void *dst)
{
#ifdef HAVE_DNNL
    return dnnl_prepare(1, is_u8, dnnl_bf16, outer, C, inner, scales, zp, src, dst);
#else
    (void)is_u8; (void)outer; (void)C; (void)inner; (void)scales; (void)zp; (void)src; (void)dst;
    return NULL;
#endif
}

peer *peer_xnn_prepare(int quantize, int is_u8, size_t n, float scale, int32_t zp, void *src, void *dst)
{
#ifdef HAVE_XNNPACK
    static int initialized;
    peer *p;
    enum xnn_status st;
    if (!initialized) {
        if (xnn_initialize(NULL) != xnn_status_success) return NULL;
        initialized = 1;
    }
    p = calloc(1, sizeof *p);
    p->kind = 2;
    /* one row of n channels: XNNPACK's convert is per tensor only */
    if (quantize && is_u8)
        st = xnn_create_convert_nc_f32_qu8(n, n, n, scale, (uint8_t)zp, 0, 255, 0, &p->op);
    else if (quantize)
        st = xnn_create_convert_nc_f32_qs8(n, n, n, scale, (int8_t)zp, -128, 127, 0, &p->op);
    else if (is_u8)
        st = xnn_create_convert_nc_qu8_f32(n, n, n, scale, (uint8_t)zp, 0, &p->op);
    else
        st = xnn_create_convert_nc_qs8_f32(n, n, n, scale, (int8_t)zp, 0, &p->op);
    if (st == xnn_status_success) {
        if (quantize && is_u8) st = xnn_setup_convert_nc_f32_qu8(p->op, 1, src, dst, NULL);
        else if (quantize) st = xnn_setup_convert_nc_f32_qs8(p->op, 1, src, dst, NULL);
        else if (is_u8) st = xnn_setup_convert_nc_qu8_f32(p->op, 1, src, dst, NULL);
        else st = xnn_setup_convert_nc_qs8_f32(p->op, 1, src, dst, NULL);
    }
    if (st != xnn_status_success) { free(p); return NULL; }
    return p;
#else
    (void)quantize; (void)is_u8; (void)n; (void)scale; (void)zp; (void)src; (void)dst;
    return NULL;
#endif
}

void peer_run(peer *p)
{
#ifdef HAVE_DNNL
    if (p->kind == 1) {
        dnnl_exec_arg_t args[2] = { { DNNL_ARG_SRC, p->msrc }, { DNNL_ARG_DST, p->mdst } };
        dnnl_primitive_execute(p->prim, p->stream, 2, args);
        dnnl_stream_wait(p->stream);
    }
#endif
#ifdef HAVE_XNNPACK
    if (p->kind == 2) xnn_run_operator(p->op, NULL);
#endif
    (void)p;
}

void peer_free(peer *p)
{
    if (!p) return;
#ifdef HAVE_DNNL
    if (p->kind == 1) {
        dnnl_primitive_destroy(p->prim);
        dnnl_memory_destroy(p->msrc);
        dnnl_memory_destroy(p->mdst);
        dnnl_stream_destroy(p->stream);
        dnnl_engine_destroy(p->engine);
    }
#endif
#ifdef HAVE_XNNPACK
    if (p->kind == 2) xnn_delete_operator(p->op);
#endif
    free(p);
}
