/* core.c — the few services every part of a running world uses (see core.h): naming
 * actors, reading their clocks, and describing a window decision to the explorer. */
#include "core.h"

int core_actor(const core *cx, const char *name)
{
    int i = scenario_node_index(cx->sc, name);
    if (i >= 0) return i;
    i = scenario_client_index(cx->sc, name);
    return i >= 0 ? cx->nnodes + i : -1;
}

int64_t core_local(const core *cx, int actor)
{
    if (actor < 0) return cx->now_us / 1000;
    return lclock_read(cx->clocks[actor], cx->now_us);
}

static size_t decisions_made(const core *cx)
{
    size_t n;
    chooser_record(cx->ch, &n);
    return n;
}

size_t core_decisions_made(const core *cx)
{
    return cx->explore ? decisions_made(cx) : 0;
}

void core_clock_read(core *cx)
{
    if (cx->clock_read < CORE_READ_MS) cx->clock_read = CORE_READ_MS;
}

void core_clock_read_us(core *cx)
{
    cx->clock_read = CORE_READ_US;
}

int core_step(const core *cx)
{
    return cx->explore ? cx->step : -1;
}

void core_clock_read_at(core *cx, int step)
{
    if (cx->explore && step >= 0 && cx->mark) cx->mark(cx->window_ud, step);
}

void core_clock_compare(core *cx, int origin, int64_t margin_us, int before)
{
    if (cx->explore && cx->compare) cx->compare(cx->window_ud, origin, margin_us, before);
}

void core_window_held(core *cx, size_t before, int64_t held)
{
    if (cx->explore && decisions_made(cx) == before + 1) cx->window(cx->window_ud, before, 0, held);
}

void core_window_decision(core *cx, size_t before, int64_t unit)
{
    if (cx->explore && decisions_made(cx) == before + 1) {
        cx->window(cx->window_ud, before, unit, 0);
        sched_tag_next(cx->q, (int)before);
    }
}
