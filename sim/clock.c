/* clock.c — see clock.h. */
#include "clock.h"

#include <math.h>

void lclock_init(lclock *c, int64_t epoch_ms, int64_t offset_ms, double drift)
{
    c->base_ms = (double)(epoch_ms + offset_ms);
    c->base_true_us = 0;
    c->drift = drift;
    c->jumps_ms = 0;
}

static double exact(const lclock *c, int64_t true_us)
{
    return c->base_ms + (double)(true_us - c->base_true_us) * (1.0 + c->drift) / 1000.0;
}

int64_t lclock_read(const lclock *c, int64_t true_us)
{
    /* The small epsilon keeps exact millisecond boundaries from flooring one ms short
     * through binary rounding (1.001 * 1000 is not exact in binary). */
    return (int64_t)floor(exact(c, true_us) + 1e-6);
}

int64_t lclock_read_us(const lclock *c, int64_t true_us)
{
    /* exact() in µs: local ms about 1.7e12, so the product stays within a double's 2^53 */
    return (int64_t)floor(exact(c, true_us) * 1000.0 + 1e-3);
}

int64_t lclock_read_monotonic(const lclock *c, int64_t true_us)
{
    return (int64_t)floor(exact(c, true_us) - c->jumps_ms + 1e-6);
}

void lclock_set_drift(lclock *c, int64_t true_us, double drift)
{
    c->base_ms = exact(c, true_us);
    c->base_true_us = true_us;
    c->drift = drift;
}

void lclock_jump(lclock *c, int64_t true_us, int64_t by_ms)
{
    c->base_ms = exact(c, true_us) + (double)by_ms;
    c->base_true_us = true_us;
    c->jumps_ms += (double)by_ms;
}

int64_t lclock_true_when_monotonic(const lclock *c, int64_t now_us, int64_t mono_ms)
{
    double local = (double)mono_ms + c->jumps_ms; /* the wall reading when the monotonic one is there */
    if (local > 9e18) return INT64_MAX;
    int64_t t = lclock_true_when(c, now_us, (int64_t)ceil(local - 1e-6));
    while (t != INT64_MAX && lclock_read_monotonic(c, t) < mono_ms) t++;
    return t;
}

int64_t lclock_true_when(const lclock *c, int64_t now_us, int64_t local_ms)
{
    if (lclock_read(c, now_us) >= local_ms) return now_us;
    if (c->drift <= -1.0) return INT64_MAX;
    double t = (double)c->base_true_us + ((double)local_ms - c->base_ms) * 1000.0 / (1.0 + c->drift);
    if (t > 9e18) return INT64_MAX;
    int64_t ti = (int64_t)ceil(t);
    if (ti < now_us) ti = now_us;
    /* Correct the floating-point estimate by a few µs either way. */
    while (lclock_read(c, ti) < local_ms) ti++;
    while (ti > now_us && lclock_read(c, ti - 1) >= local_ms) ti--;
    return ti;
}
