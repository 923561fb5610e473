/* serve_time.c — the time of `locklab serve` (serveint.h): the machine's monotonic clock
 * (the one door through which serve reads real time), the world's true time (manual: as
 * LOCKLAB ADVANCE moved it; wall: the real time elapsed, as far as serve_catch_up moved the
 * world), each node's clock (the world's, with its offset, drift and jumps), and the serve's
 * node of a world node. */
#include "serveint.h"

#include <time.h>

int64_t serve_mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t serve_true_us(const serve *sv)
{
    return world_now(sv->w);
}

int64_t serve_node_clock_us(const snode *n)
{
    const serve *sv = n->sv;
    if (!sv->w) /* the world is being built: its clocks at true time 0 */
        return (HISTORY_EPOCH_MS + sv->wsc.nodes[n->widx].clock.offset_ms) * 1000;
    return world_node_clock_us(sv->w, n->widx);
}

/* In whole ms, rounded down (one rounding, of the µs clock: the ms clock never lags it). */
int64_t serve_node_clock(const snode *n)
{
    int64_t us = serve_node_clock_us(n);
    return us >= 0 ? us / 1000 : -((-us + 999) / 1000);
}

snode *serve_node_of(serve *sv, int widx)
{
    for (int i = 0; i < sv->nnodes; i++)
        if (sv->nodes[i].widx == widx) return &sv->nodes[i];
    return NULL;
}
