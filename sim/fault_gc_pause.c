/* fault_gc_pause.c — a stop-the-world pause of a client process ({ at = "5s", gc_pause = "A",
 * duration = "12s" }): its coroutines, timers and received messages wait until the pause
 * ends (client_pause); the client ends it, and records its end. */
#include "faultint.h"

static void describe(const fault_cfg *f, buf *out)
{
    buf_printf(out, "GC pause of %s for %lld ms", f->target, (long long)(f->duration_us / 1000));
}

static void note(const fault_cfg *f, hist_event *e)
{
    e->param = f->duration_us >= 0 ? f->duration_us / 1000 : -1;
}

static void start(struct world *w, const fault_cfg *f, int id, int target, int64_t early)
{
    client_pause(w->rt, fault_client(w, target), f->duration_us > early ? f->duration_us - early : 0, id);
}

const fault_def fault_gc_pause = {
    .kind = FAULT_GC_PAUSE,
    .targets = FT_CLIENT,
    .keys = { "duration" }, .nkeys = 1, .nrequired = 1,
    .write = fault_write_target_duration,
    .describe = describe,
    .note = note,
    .start = start,
    .own_end = 1,
    .param = FP_POSITIVE_US,
    .tied = 1,
    .lease_halves = 3,
    .offer = fault_offer_target_duration,
    .length = fault_length_duration,
};
