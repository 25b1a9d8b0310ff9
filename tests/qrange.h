/* tests/qrange.h - the range [qmin, qmax] of a result type as choosing
   scales takes it (f8: -max, max of its finite values), for test_choose
   and the fuzz target (include after quant.h). */
#ifndef QRANGE_H
#define QRANGE_H
#include <stdint.h>

static void o_qrange(quant_dtype t, int64_t *lo, int64_t *hi)
{
    switch (t) {
    case QUANT_S8: *lo = -128; *hi = 127; break;
    case QUANT_U8: *lo = 0; *hi = 255; break;
    case QUANT_S4: *lo = -8; *hi = 7; break;
    case QUANT_U4: *lo = 0; *hi = 15; break;
    case QUANT_S2: *lo = -2; *hi = 1; break;
    case QUANT_U2: *lo = 0; *hi = 3; break;
    case QUANT_F8_E4M3: *lo = -448; *hi = 448; break;
    default: *lo = -57344; *hi = 57344; break;
    }
}
#endif
