/* Bare-metal test on a Helium core: every result of helium_vs_scalar.c's
   operations with the Helium backend against the scalar backend's, hash
   by hash. */
#include <stdint.h>
#include "emb.h"

const char *hvs_scalar(void (*emit)(uint32_t));
const char *hvs_helium(void (*emit)(uint32_t));

#define HVS_MAX 65536
static uint32_t want[HVS_MAX];
static uint32_t count, at, failures;

static void keep(uint32_t h)
{
    if (count < HVS_MAX) want[count] = h;
    ++count;
}

static void check(uint32_t h)
{
    if (at < count && at < HVS_MAX && want[at] != h && ++failures <= 20) {
        emb_puts("FAIL result #");
        emb_put_u32(at);
        emb_puts("\n");
    }
    ++at;
}

int main(void)
{
    const char *a = hvs_scalar(keep), *b = hvs_helium(check);
    emb_puts("helium_vs_scalar: ");
    emb_puts(b);
    emb_puts(" against ");
    emb_puts(a);
    emb_puts(", ");
    emb_put_u32(at);
    emb_puts(" results, ");
    emb_put_u32(failures);
    emb_puts(" differ\n");
    return failures || at != count || count > HVS_MAX || count == 0;
}
