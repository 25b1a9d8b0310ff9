/* Minimal Cortex-M startup for the bare-metal tests: vector table, .data
   copy, .bss zero, FPU enable on cores that have one, and semihosting for
   output and the exit status (bkpt 0xAB, operation in r0, argument in r1). */
#include <stddef.h>
#include <stdint.h>
#include "emb.h"

extern uint32_t __data_load[], __data_start[], __data_end[], __bss_start[], __bss_end[], __stack_top[];
int main(void);

static int semihost(int op, const void *arg)
{
    register int r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void emb_puts(const char *s) { semihost(0x04, s); } /* SYS_WRITE0 */

void emb_exit(int code)
{
    /* SYS_EXIT_EXTENDED: ADP_Stopped_ApplicationExit and the status */
    const uint32_t block[2] = { 0x20026u, (uint32_t)code };
    semihost(0x20, block);
    for (;;) {}
}

void emb_put_u32(uint32_t v)
{
    char buf[11];
    int i = 10;
    buf[10] = '\0';
    do { buf[--i] = (char)('0' + v % 10); v /= 10; } while (v);
    emb_puts(buf + i);
}

void reset_handler(void)
{
    uint32_t *s = __data_load, *d = __data_start;
    while (d < __data_end) *d++ = *s++;
    for (d = __bss_start; d < __bss_end;) *d++ = 0;
#if defined(__ARM_FP)
    /* CPACR: full access to CP10 and CP11 before the first float instruction */
    *(volatile uint32_t *)0xE000ED88u |= 0xFu << 20;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
    emb_exit(main());
}

static void fault_handler(void)
{
    emb_puts("fault\n");
    emb_exit(3);
}

__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
    (void (*)(void))(uintptr_t)__stack_top, reset_handler, fault_handler, fault_handler,
    fault_handler, fault_handler, fault_handler, 0, 0, 0, 0, fault_handler, fault_handler, 0,
    fault_handler, fault_handler
};

/* The compiler may emit calls to these for struct copies. */
void *memcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    while (n--) *d++ = *s++;
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = (unsigned char *)dst;
    while (n--) *d++ = (unsigned char)c;
    return dst;
}
