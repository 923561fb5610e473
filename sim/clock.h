/* clock.h — a local clock of a node or client. Nobody inside the simulation sees true time;
 * each actor reads its own clock:
 *
 *     local_ms = base_ms + (true_us - base_true_us) * (1 + drift) / 1000 + jumps_ms
 *
 * A drift change re-bases the clock at the moment of the change, so local time never jumps
 * because of a new rate; a clock_jump adds a signed step. Local time is floored to whole ms,
 * as Redis's mstime(). */
#ifndef LOCKLAB_CLOCK_H
#define LOCKLAB_CLOCK_H

#include <stdint.h>

typedef struct lclock {
    double base_ms;       /* local ms at base_true_us (jumps included) */
    int64_t base_true_us; /* µs */
    double drift;
    double jumps_ms;      /* the sum of the jumps so far (a monotonic clock leaves them out) */
} lclock;

void lclock_init(lclock *c, int64_t epoch_ms, int64_t offset_ms, double drift);
int64_t lclock_read(const lclock *c, int64_t true_us);        /* local ms */
/* The same clock to the µs (floored), as a server's TIME reads it (Redis's ustime()). */
int64_t lclock_read_us(const lclock *c, int64_t true_us);
/* The same clock without its jumps: what a monotonic clock (CLOCK_MONOTONIC) on that host
 * reads, up to a constant. */
int64_t lclock_read_monotonic(const lclock *c, int64_t true_us);
void lclock_set_drift(lclock *c, int64_t true_us, double drift);
void lclock_jump(lclock *c, int64_t true_us, int64_t by_ms);
/* The earliest true time (µs, ≥ now) at which the clock reads at least local_ms; INT64_MAX if
 * the clock never gets there (drift ≤ -1). */
int64_t lclock_true_when(const lclock *c, int64_t now_us, int64_t local_ms);
/* The same for the monotonic clock (lclock_read_monotonic), as long as it does not jump again. */
int64_t lclock_true_when_monotonic(const lclock *c, int64_t now_us, int64_t mono_ms);

#endif
