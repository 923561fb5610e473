/* fault_clock_jump.c — an actor's clock jumps ({ at = "5s", clock_jump = "n1", by = "-20s" }),
 * by whole ms (rounded half away from zero), forwards or back. */
#include "faultint.h"

static void read(struct loader *ld, int t, const char *path, fault_cfg *f)
{
    int64_t by = rd_opt_duration(&ld->rd, t, path, "by", 0, D_SIGNED);
    f->jump_ms = (by >= 0 ? by + 500 : by - 500) / 1000;
}

static void describe(const fault_cfg *f, buf *out)
{
    buf_printf(out, "clock of %s jumps by %+lld ms", f->target, (long long)f->jump_ms);
}

static void note(const fault_cfg *f, hist_event *e)
{
    e->param_ms = f->jump_ms;
}

static void start(struct world *w, const fault_cfg *f, int id, int target, int64_t early)
{
    (void)id, (void)early;
    lclock_jump(fault_clock_of(w, target), w->cx.now_us, f->jump_ms);
    if (target < w->cx.nnodes) node_clock_changed(&w->cu, &w->cu.nodes[target]);
}

static void write(buf *b, const scenario *sc, const fault_cfg *f)
{
    (void)sc;
    buf_puts(b, "  { at = ");
    fault_put_us(b, f->at_us);
    buf_printf(b, ", clock_jump = \"%s\", by = %lld },\n", f->target, (long long)f->jump_ms);
}

static void offer(fault_cfg *f, const char *target, int64_t us, double value)
{
    (void)value;
    f->target = (char *)target;
    f->jump_ms = us / 1000;
}

const fault_def fault_clock_jump = {
    .kind = FAULT_CLOCK_JUMP,
    .targets = FT_NODE | FT_CLIENT,
    .keys = { "by" }, .nkeys = 1, .nrequired = 1,
    .read = read,
    .write = write,
    .describe = describe,
    .note = note,
    .start = start,
    .param = FP_SIGNED_US,
    .tied = 1,
    .lease_halves = 4,
    .offer = offer,
};
