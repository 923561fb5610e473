/* fakeclock.c — an LD_PRELOAD for redis-server used by tools/transcript-from-redis.py: the
 * wall clock (gettimeofday, clock_gettime REALTIME, time) reads an 8-byte file holding int64
 * ms, so a transcript's .advance/.settime move a real server's clock exactly and PTTL replies
 * come out as exact as in the fake. CLOCK_MONOTONIC stays real (cron, script timeouts). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <dlfcn.h>
static volatile int64_t *fc_ms;
static void fc_init(void) {
    if (fc_ms) return;
    const char *p = getenv("FAKECLOCK_FILE");
    int fd = open(p ? p : "/tmp/fakeclock", O_RDONLY);
    if (fd < 0) abort();
    fc_ms = mmap(NULL, 8, PROT_READ, MAP_SHARED, fd, 0);
    if (fc_ms == MAP_FAILED) abort();
}
int gettimeofday(struct timeval *tv, void *tz) {
    (void)tz; fc_init();
    int64_t ms = *fc_ms;
    tv->tv_sec = ms / 1000; tv->tv_usec = (ms % 1000) * 1000;
    return 0;
}
int clock_gettime(clockid_t id, struct timespec *ts) {
    if (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE) {
        fc_init(); int64_t ms = *fc_ms;
        ts->tv_sec = ms / 1000; ts->tv_nsec = (ms % 1000) * 1000000; return 0;
    }
    static int (*real)(clockid_t, struct timespec *);
    if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    return real(id, ts);
}
time_t time(time_t *t) { fc_init(); time_t s = (time_t)(*fc_ms / 1000); if (t) *t = s; return s; }
