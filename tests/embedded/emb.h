#ifndef EMB_H
#define EMB_H
#include <stdint.h>
void emb_puts(const char *s);
void emb_put_u32(uint32_t v);
void emb_exit(int code);
#endif
