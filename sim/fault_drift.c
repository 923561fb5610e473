/* fault_drift.c — an actor's clock runs at another rate from now on ({ at = "1s", drift = "n1",
 * rate = 0.1 }: 10% fast). The search offers it at every instant, and where in its target's
 * gap before that instant it began is a window of its own (WDEC_DRIFT, model/reduce.c). */
#include "faultint.h"

static void read(struct loader *ld, int t, const char *path, fault_cfg *f)
{
    f->rate = rd_opt_number(&ld->rd, t, path, "rate", 0, -0.5, 1.0);
}

static void describe(const fault_cfg *f, buf *out)
{
    buf_printf(out, "clock of %s drifts at %+g%%", f->target, f->rate * 100);
}

static void note(const fault_cfg *f, hist_event *e)
{
    e->rate = f->rate;
}

static void start(struct world *w, const fault_cfg *f, int id, int target, int64_t early)
{
    (void)id;
    /* it may have landed earlier in its target's gap (the explorer's): from then on */
    lclock_set_drift(fault_clock_of(w, target), w->cx.now_us - early, f->rate);
    if (target < w->cx.nnodes) node_clock_changed(&w->cu, &w->cu.nodes[target]);
}

static void write(buf *b, const scenario *sc, const fault_cfg *f)
{
    (void)sc;
    buf_puts(b, "  { at = ");
    fault_put_us(b, f->at_us);
    buf_printf(b, ", drift = \"%s\", rate = %.17g },\n", f->target, f->rate);
}

static void offer(fault_cfg *f, const char *target, int64_t us, double value)
{
    (void)us;
    f->target = (char *)target;
    f->rate = value;
}

const fault_def fault_drift = {
    .kind = FAULT_DRIFT,
    .targets = FT_NODE | FT_CLIENT,
    .keys = { "rate" }, .nkeys = 1, .nrequired = 1,
    .read = read,
    .write = write,
    .describe = describe,
    .note = note,
    .start = start,
    .param = FP_RATE,
    .value = 0.1,
    .offer = offer,
};
