/* tests/impl.c - the implementation, compiled once per build for the
   test programs that use only the public API (as a user's project does:
   one .c file defines QUANT_IMPLEMENTATION, the others include plainly).
   check_cpu, which needs the backend selection, is reached from them
   through check_cpu_shared. */
#define QUANT_IMPLEMENTATION
#include "../quant.h"
#include "check.h"

void check_cpu_shared(void);
void check_cpu_shared(void) { check_cpu(); }
