/* test_gguf_dump.c - examples/gguf_dump.c on tests/data/tiny.gguf, which
   ggml wrote (examples/gen_tiny_gguf.c):

   - the file lists, and every tensor of it decodes;
   - q4_K and mxfp4 decode to exactly the bytes of ggml's dequantize_row_*
     (tests/data/tiny_<tensor>.f32, written by the same program);
   - every truncation of the file is an error (the file ends where its last
     tensor's data does), read from a buffer of exactly that size, so that
     a sanitizer build sees any read past it;
   - every byte of the header and tensor infos set to 0x00, 0x01, 0x7f,
     0x80, 0xfe and 0xff in turn gives an error or a listing, never a crash.

       test_gguf_dump DATA_DIR OUT_DIR    (OUT_DIR gets the decoded files and a log) */
#define GGUF_DUMP_NO_MAIN
#include "gguf_dump.c"

static unsigned char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = (unsigned char *)malloc(n ? (size_t)n : 1)) != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (f) fclose(f);
    if (!buf) fprintf(stderr, "test_gguf_dump: cannot read %s\n", path);
    *len = buf ? (size_t)n : 0;
    return buf;
}

int main(int argc, char **argv) {
    static const char *const names[] = { "q4_0", "q8_0", "q4_K", "q6_K", "mxfp4", "iq4_xs", "nvfp4", "f16" };
    static const char *const expect[] = { "q4_K", "mxfp4" };
    static const unsigned char pokes[] = { 0x00, 0x01, 0x7f, 0x80, 0xfe, 0xff };
    char path[4096], out[4096];
    unsigned char *file, *copy;
    size_t len, k, i, head, fails = 0, before;
    const char *err;
    FILE *log;
    gguf g = { NULL, 0, NULL, 0 };

    if (argc != 3) { fprintf(stderr, "usage: test_gguf_dump DATA_DIR OUT_DIR\n"); return 2; }
    snprintf(path, sizeof path, "%s/tiny.gguf", argv[1]);
    snprintf(out, sizeof out, "%s/test_gguf_dump.log", argv[2]);
    if (!(file = slurp(path, &len)) || !(log = fopen(out, "w"))) return 1;

    /* the listing, and where the data starts (the pokes stop there) */
    err = list(file, len, &g, log);
    head = g.data ? (size_t)(g.data - file) : 0;
    free(g.t);
    if (err) { fprintf(stderr, "%s: %s\n", path, err); return 1; }

    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(out, sizeof out, "%s/tiny_%s.out.f32", argv[2], names[i]);
        remove(out);   /* not a previous run's */
        if ((err = dump(file, len, names[i], out, log)) != NULL) {
            printf("FAIL decode %s: %s\n", names[i], err);
            fails++;
        }
    }
    for (i = 0; i < sizeof expect / sizeof expect[0]; i++) {
        size_t n_got, n_want, e, bad = 0;
        unsigned char *got, *want;
        snprintf(out, sizeof out, "%s/tiny_%s.out.f32", argv[2], expect[i]);
        snprintf(path, sizeof path, "%s/tiny_%s.f32", argv[1], expect[i]);
        got = slurp(out, &n_got), want = slurp(path, &n_want);
        if (!got || !want || n_got != n_want) {
            printf("FAIL %s: %zu bytes decoded, ggml's %zu\n", expect[i], n_got, n_want);
            fails++;
        } else {
            for (e = 0; e + 4 <= n_got; e += 4) {
                float a, b;
                if (memcmp(got + e, want + e, 4) == 0) continue;
                memcpy(&a, got + e, 4), memcpy(&b, want + e, 4);
                if (bad++ < 8) printf("FAIL %s[%zu]: %.9g, ggml %.9g\n", expect[i], e / 4, a, b);
            }
            if (bad) printf("FAIL %s: %zu of %zu values differ from ggml's\n", expect[i], bad, n_got / 4), fails++;
            else printf("ok   %s: %zu values as ggml's, bit for bit\n", expect[i], n_got / 4);
        }
        free(got), free(want);
    }

    for (before = fails, k = 0; k < len; k++) {   /* every truncation, in a buffer of exactly k bytes */
        copy = (unsigned char *)malloc(k ? k : 1);
        memcpy(copy, file, k);
        rewind(log);
        if (!dump(copy, k, "f16", NULL, log)) {
            if (fails++ < 20) printf("FAIL the first %zu bytes of %zu read as a whole file\n", k, len);
        }
        free(copy);
    }
    if (fails == before) printf("ok   %zu truncations: each an error\n", len);

    for (k = 0; k < head; k++) {   /* every header byte poked: no crash, whatever the result */
        for (i = 0; i < sizeof pokes; i++) {
            unsigned char keep = file[k];
            file[k] = pokes[i];
            rewind(log);
            dump(file, len, "q4_K", NULL, log);
            file[k] = keep;
        }
    }
    printf("ok   %zu header bytes poked\n", head);
    fclose(log);
    free(file);
    printf(fails ? "FAILED: %zu\n" : "all passed\n", fails);
    return fails ? 1 : 0;
}
