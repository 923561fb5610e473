/* fault_disk_stall.c — a node's disk stalls ({ at = "5s", disk_stall = "n1", duration = "3s" }):
 * for its duration no fsync completes, and with persistence `always` no reply leaves the node
 * (node_disk.c says what Redis does and what is simplified). A stall on a node without
 * persistence changes nothing. */
#include "faultint.h"

static void describe(const fault_cfg *f, buf *out)
{
    buf_printf(out, "disk of %s stalls for %lld ms", f->target, (long long)(f->duration_us / 1000));
}

static void note(const fault_cfg *f, hist_event *e)
{
    e->param_ms = f->duration_us >= 0 ? f->duration_us / 1000 : -1;
}

static void start(struct world *w, const fault_cfg *f, int id, int target, int64_t early)
{
    (void)f, (void)id, (void)early;
    node_disk_stall(&w->cu, &w->cu.nodes[target]);
}

static void end(struct world *w, const fault_cfg *f, int id, int target)
{
    (void)f, (void)id;
    node_disk_resume(&w->cu, &w->cu.nodes[target]);
}

const fault_def fault_disk_stall = {
    .kind = FAULT_DISK_STALL,
    .targets = FT_NODE,
    .keys = { "duration" }, .nkeys = 1, .nrequired = 1,
    .write = fault_write_target_duration,
    .describe = describe,
    .note = note,
    .start = start,
    .end = end,
    .param = FP_POSITIVE_US,
    .tied = 1,
    .lease_halves = 3,
    .offer = fault_offer_target_duration,
    .length = fault_length_duration,
};
