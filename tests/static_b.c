#define QUANT_STATIC
#define QUANT_IMPLEMENTATION
#include "quant.h"

int quantize_in_b(float x); /* defined here, called from static_a.c */
int quantize_in_b(float x)
{
    int8_t q;
    quant_f32_to_s8(&x, &q, 1, 0.5f, 0);
    return q;
}
