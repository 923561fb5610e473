/* fault_restart.c — a node restarts ({ at = "9s", restart = "n1" }) with what its
 * persistence kept (node_restart). */
#include "faultint.h"

static void describe(const fault_cfg *f, buf *out)
{
    buf_printf(out, "restart of %s", f->target);
}

static void start(struct world *w, const fault_cfg *f, int id, int target, int64_t early)
{
    (void)f, (void)id, (void)early;
    node_restart(&w->cu, &w->cu.nodes[target]);
}

/* restarting what is up changes nothing */
static int idle(const struct world *w, const fault_cfg *f, int target)
{
    (void)f;
    return target >= 0 && target < w->cx.nnodes && w->cu.nodes[target].up;
}

static void write(buf *b, const scenario *sc, const fault_cfg *f)
{
    (void)sc;
    buf_puts(b, "  { at = ");
    fault_put_us(b, f->at_us);
    buf_printf(b, ", restart = \"%s\" },\n", f->target);
}

static void offer(fault_cfg *f, const char *target, int64_t us, double value)
{
    (void)us, (void)value;
    f->target = (char *)target;
}

const fault_def fault_restart = {
    .kind = FAULT_RESTART,
    .targets = FT_NODE,
    .write = write,
    .describe = describe,
    .start = start,
    .idle = idle,
    .param = FP_NONE,
    .tied = 1,
    .offer = offer,
};
