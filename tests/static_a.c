/* QUANT_STATIC in two translation units of one program: no symbol clash. */
#define QUANT_STATIC
#define QUANT_IMPLEMENTATION
#include "quant.h"

int quantize_in_b(float x);

int main(void)
{
    float x = 2.0f;
    int8_t q;
    quant_f32_to_s8(&x, &q, 1, 0.5f, 0);
    return !(q == 4 && quantize_in_b(2.0f) == 4);
}
