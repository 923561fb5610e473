/* fault_failover.c — a forced failover of a master to one of its replicas ({ at = "5s",
 * failover = "n1" }), as an operator's or Sentinel's. */
#include "faultint.h"

static void describe(const fault_cfg *f, buf *out)
{
    buf_printf(out, "failover of %s", f->target);
}

static void start(struct world *w, const fault_cfg *f, int id, int target, int64_t early)
{
    (void)f, (void)id, (void)early;
    node_failover(&w->cu, &w->cu.nodes[target], 1);
}

static void write(buf *b, const scenario *sc, const fault_cfg *f)
{
    (void)sc;
    buf_puts(b, "  { at = ");
    fault_put_us(b, f->at_us);
    buf_printf(b, ", failover = \"%s\" },\n", f->target);
}

static void offer(fault_cfg *f, const char *target, int64_t us, double value)
{
    (void)us, (void)value;
    f->target = (char *)target;
}

const fault_def fault_failover = {
    .kind = FAULT_FAILOVER,
    .targets = FT_MASTER,
    .write = write,
    .describe = describe,
    .start = start,
    .param = FP_NONE,
    .offer = offer,
};
