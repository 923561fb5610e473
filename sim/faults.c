/* faults.c — the table of fault kinds (faults.h): built from history.h's rows, each row's
 * fault_def in its own file (sim/fault_<name>.c). A new fault is a row in history.h's
 * FAULT_KINDS and its file; nothing here changes. Also the parts of the world every fault's
 * start shares (a target's clock, a client by actor index). */
#include "faultint.h"

#include <string.h>

#define FAULT_ROW_(k, n, p, wr, r) [FAULT_##k] = &fault_##n,
static const fault_def *const table[FAULT_KIND_COUNT] = { FAULT_KINDS(FAULT_ROW_) };
#undef FAULT_ROW_

const fault_def *fault_def_of(fault_kind k)
{
    LL_ASSERT(k >= 0 && k < FAULT_KIND_COUNT);
    return table[k];
}

int fault_kind_find(const char *name)
{
    for (int k = 0; name && k < FAULT_KIND_COUNT; k++)
        if (!strcmp(fault_kind_names[k], name)) return k;
    return -1;
}

void fault_describe(const fault_cfg *f, buf *out)
{
    fault_def_of(f->kind)->describe(f, out);
}

void fault_write(buf *b, const scenario *sc, const fault_cfg *f)
{
    fault_def_of(f->kind)->write(b, sc, f);
}

void fault_write_target_duration(buf *b, const scenario *sc, const fault_cfg *f)
{
    (void)sc;
    buf_puts(b, "  { at = ");
    fault_put_us(b, f->at_us);
    buf_printf(b, ", %s = \"%s\", duration = ", fault_kind_names[f->kind], f->target);
    fault_put_us(b, f->duration_us);
    buf_puts(b, " },\n");
}

void fault_offer_target_duration(fault_cfg *f, const char *target, int64_t us, double value)
{
    (void)value;
    f->target = (char *)target;
    f->duration_us = us;
}

int64_t fault_length_duration(const fault_cfg *f)
{
    return f->duration_us > 0 ? f->duration_us : 0;
}

void fault_put_us(buf *b, int64_t us)
{
    if (us % 1000 == 0) buf_printf(b, "\"%lldms\"", (long long)(us / 1000));
    else buf_printf(b, "\"%lldus\"", (long long)us);
}

lclock *fault_clock_of(struct world *w, int actor)
{
    return actor < w->cx.nnodes ? &w->cu.nodes[actor].clock : &clients_at(w->rt, actor - w->cx.nnodes)->clock;
}

client *fault_client(struct world *w, int actor)
{
    return clients_at(w->rt, actor - w->cx.nnodes);
}
