// LD_PRELOAD shim for the CLI tests: counts heap allocations (malloc, calloc,
// realloc, aligned allocations) and publishes the count in the file named by
// COUNT_MALLOCS_FILE every 20 ms, so a test can count a daemon's allocations
// over a stretch of time from outside.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static atomic_long allocations;

void *malloc(size_t n) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); return __libc_malloc(n); }
void *calloc(size_t n, size_t m) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); return __libc_calloc(n, m); }
void *realloc(void *p, size_t n) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); return __libc_realloc(p, n); }
void *aligned_alloc(size_t a, size_t n) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); return __libc_memalign(a, n); }
void *memalign(size_t a, size_t n) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); return __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    void *p = __libc_memalign(a, n);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}

static void *publish(void *arg) {
    int fd = (int)(long)arg;
    // Signals are the daemon's business (it takes them through a signalfd).
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    char line[32];
    struct timespec pause = {0, 20 * 1000 * 1000};
    for (;;) {
        int n = snprintf(line, sizeof line, "%020ld\n", atomic_load(&allocations));
        pwrite(fd, line, n, 0);
        nanosleep(&pause, NULL);
    }
    return NULL;
}

__attribute__((constructor)) static void start(void) {
    const char *path = getenv("COUNT_MALLOCS_FILE");
    if (!path) return;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return;
    pthread_t t;
    pthread_create(&t, NULL, publish, (void *)(long)fd);
    pthread_detach(t);
}
