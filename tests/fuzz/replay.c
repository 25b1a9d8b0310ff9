/* Runs the libFuzzer target over every file of the directories (or the
   files) given as arguments, without libFuzzer: the fuzz corpus as a
   regression test on every build, the cross builds under qemu-user
   included (armhf: 32-bit size_t). A mismatch aborts inside the target;
   the input that did it is named first. Prints
   "replay: N inputs, 0 failures" and exits 0, or exits non-zero. */
#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64   /* 32-bit hosts: stat and readdir of files with 64-bit inode numbers */
#include "../../quant.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char current[4096];

static void name_current(void)
{
    if (current[0]) {
        (void)!write(2, "replay: failed on ", 18);
        (void)!write(2, current, strlen(current));
        (void)!write(2, "\n", 1);
    }
}

static void on_signal(int sig)
{
    name_current();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* AddressSanitizer and UBSan end the process through their own death path */
#if defined(__GNUC__)
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));
#endif

static int run_file(const char *path, long *count)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    long n;
    if (!f) { fprintf(stderr, "replay: cannot open %s\n", path); return 1; }
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        fprintf(stderr, "replay: cannot read %s\n", path);
        return 1;
    }
    buf = (uint8_t *)malloc(n ? (size_t)n : 1);   /* exactly the input: an over-read of it is reported too */
    if (!buf || (n && fread(buf, 1, (size_t)n, f) != (size_t)n)) {
        fclose(f);
        free(buf);
        fprintf(stderr, "replay: cannot read %s\n", path);
        return 1;
    }
    fclose(f);
    snprintf(current, sizeof current, "%s", path);
    LLVMFuzzerTestOneInput(buf, (size_t)n);
    current[0] = 0;
    free(buf);
    ++*count;
    return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int run_dir(const char *dir, long *count)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0, i;
    int bad = 0;
    if (!d) { fprintf(stderr, "replay: cannot open directory %s\n", dir); return 1; }
    for (;;) {
        char path[4096];
        struct stat s;
        errno = 0;
        if ((e = readdir(d)) == NULL) {
            if (errno) { fprintf(stderr, "replay: cannot list %s\n", dir); bad = 1; }
            break;
        }
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &s) != 0) { fprintf(stderr, "replay: cannot stat %s\n", path); bad = 1; continue; }
        if (!S_ISREG(s.st_mode)) continue;
        if (n == cap) {
            char **more = (char **)realloc(names, (cap = cap ? 2 * cap : 256) * sizeof *names);
            if (!more) { fprintf(stderr, "replay: out of memory\n"); exit(2); }
            names = more;
        }
        names[n] = (char *)malloc(strlen(path) + 1);
        if (!names[n]) { fprintf(stderr, "replay: out of memory\n"); exit(2); }
        strcpy(names[n++], path);
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, cmp_str);   /* the same order everywhere */
    for (i = 0; i < n; ++i) {
        bad |= run_file(names[i], count);
        free(names[i]);
    }
    free(names);
    return bad;
}

int main(int argc, char **argv)
{
    long count = 0;
    int i, bad = 0;
#if defined(QUANT_SIMD) && (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    {
        /* a build for a backend this CPU cannot run is a Meson skip */
        int ok = 1;
        __builtin_cpu_init();
#if QUANT_SIMD == QUANT_SIMD_AVX2
        ok = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#elif QUANT_SIMD == QUANT_SIMD_AVX512
        ok = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512vl");
#endif
        if (!ok) { printf("SKIP: this CPU cannot run the %s backend\n", quant_backend()); return 77; }
    }
#endif
    signal(SIGABRT, on_signal);
    signal(SIGSEGV, on_signal);
    signal(SIGBUS, on_signal);
    signal(SIGILL, on_signal);
    signal(SIGFPE, on_signal);
#if defined(__GNUC__)
    if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(name_current);
#endif
    if (argc < 2) { fprintf(stderr, "usage: %s DIR|FILE...\n", argv[0]); return 2; }
    for (i = 1; i < argc; ++i) {
        struct stat s;
        if (stat(argv[i], &s) != 0) { fprintf(stderr, "replay: no such file or directory: %s\n", argv[i]); bad = 1; }
        else if (S_ISDIR(s.st_mode)) bad |= run_dir(argv[i], &count);
        else bad |= run_file(argv[i], &count);
    }
    if (count == 0) { fprintf(stderr, "replay: no inputs\n"); bad = 1; }
    printf("replay: %ld inputs, %d failures\n", count, bad);
    return bad;
}
