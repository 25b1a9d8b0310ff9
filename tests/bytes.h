/* tests/bytes.h - buffers of exactly a tensor's size, for the tests that
   allocate one per tensor (include after quant.h). */
#ifndef BYTES_H
#define BYTES_H
#include <stdlib.h>

/* the bytes n elements of t occupy; s4/u4/f4 pack two to a byte, s2/u2 four */
static size_t nbytes(quant_dtype t, size_t n)
{
    switch (t) {
    case QUANT_F32: case QUANT_S32: return 4 * n;
    case QUANT_F16: case QUANT_BF16: case QUANT_S16: return 2 * n;
    case QUANT_S4: case QUANT_U4: case QUANT_F4_E2M1: return (n + 1) / 2;
    case QUANT_S2: case QUANT_U2: return (n + 3) / 4;
    default: return n;
    }
}
/* malloc(0) may return NULL: an empty buffer is one byte, never read */
static void *alloc(size_t bytes) { return malloc(bytes ? bytes : 1); }
#endif
