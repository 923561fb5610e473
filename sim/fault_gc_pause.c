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
    e->param_ms = f->duration_us >= 0 ? f->duration_us / 1000 : -1;
}

/* A pause of a client that is down, or already paused at least until this one would end,
 * changes nothing (client_pause keeps the later end): the search does not offer it. Two
 * pauses of one client at one instant were searched at every µs of the second's window back
 * over the gap before it, each a run of its own, all one run (measured: Redlock with two 2 s
 * pauses of either client, 111,541 paths of the first level without finishing it). */
static int idle(const struct world *w, const fault_cfg *f, int target)
{
    if (target < w->cx.nnodes) return 0;
    const client *c = clients_at(w->rt, target - w->cx.nnodes);
    return c->dead || (f->duration_us >= 0 && c->paused_until_us >= w->cx.now_us + f->duration_us);
}

/* A pause that landed more than its whole length early has ended before now: nothing is held.
 * Else its end is pushed as where it landed would have pushed it (sched_push_since: among what
 * is due at its instant, after what was pushed before then — as a replay that pins it there). */
static void start(struct world *w, const fault_cfg *f, int id, int target, int64_t early)
{
    if (f->duration_us >= 0 && early > f->duration_us) return;
    client_pause(w->rt, fault_client(w, target), f->duration_us > early ? f->duration_us - early : 0,
                 steps_seq_at(w, w->cx.now_us - early), id);
}

const fault_def fault_gc_pause = {
    .kind = FAULT_GC_PAUSE,
    .targets = FT_CLIENT,
    .keys = { "duration" }, .nkeys = 1, .nrequired = 1,
    .write = fault_write_target_duration,
    .describe = describe,
    .note = note,
    .start = start,
    .idle = idle,
    .own_end = 1,
    .param = FP_POSITIVE_US,
    .tied = 1,
    .lease_halves = 3,
    .offer = fault_offer_target_duration,
    .length = fault_length_duration,
};
