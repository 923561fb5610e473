/* fault_drop.c — a lossy link ({ at = "5s", drop = {"A", "n1"}, probability = 0.5,
 * duration = "3s" }): both directions lose messages with that probability until it ends
 * (then the scenario's loss again). The search's lossy links are every link of one actor. */
#include "faultint.h"

#include <string.h>

#include <lua.h>

static void read_target(struct loader *ld, int idx, const char *path, fault_cfg *f)
{
    lua_State *L = ld->rd.L;
    if (lua_type(L, idx) != LUA_TTABLE)
        rd_fail(&ld->rd, path, "%s must be a link {from, to}, like {\"A\", \"n1\"}, not %s", path,
                rd_type_name(L, idx));
    int t = lua_absindex(L, idx);
    rd_check_list(&ld->rd, t, path, "names", 2, 2); /* "must have at least 2 names" */
    char p[PATH_LEN];
    rd_path_index(p, path, 1);
    lua_rawgeti(L, t, 1);
    f->from = scenario_actor_name(ld, -1, p, ACT_NODE | ACT_CLIENT, "drop");
    rd_path_index(p, path, 2);
    lua_rawgeti(L, t, 2);
    f->to = scenario_actor_name(ld, -1, p, ACT_NODE | ACT_CLIENT, "drop");
    lua_pop(L, 2);
    if (strcmp(f->from, f->to) == 0) rd_fail(&ld->rd, path, "%s: a link joins two different actors", path);
}

static void read(struct loader *ld, int t, const char *path, fault_cfg *f)
{
    f->probability = rd_opt_number(&ld->rd, t, path, "probability", 0, 0, 1);
}

static void describe(const fault_cfg *f, buf *out)
{
    if (f->to) buf_printf(out, "link %s-%s drops %g%% of messages", f->from, f->to, f->probability * 100);
    else buf_printf(out, "every link of %s drops %g%% of messages", f->from, f->probability * 100);
    if (f->duration_us >= 0) buf_printf(out, " for %lld ms", (long long)(f->duration_us / 1000));
}

static void note(const fault_cfg *f, hist_event *e)
{
    e->rate = f->probability;
    e->param_ms = f->duration_us >= 0 ? f->duration_us / 1000 : -1;
}

/* The links of its `from` (to `to`, or to everyone) lose messages with probability p, both
 * ways (p < 0: the scenario's loss again). */
static void set_loss(struct world *w, const fault_cfg *f, double p)
{
    int a = core_actor(&w->cx, f->from);
    for (int b = 0; b < w->cx.nactors; b++) {
        if (b == a || (f->to && b != core_actor(&w->cx, f->to))) continue;
        net_set_loss(w->net, a, b, p);
    }
}

static void start(struct world *w, const fault_cfg *f, int id, int target, int64_t early)
{
    (void)id, (void)target, (void)early;
    set_loss(w, f, f->probability);
}

static void end(struct world *w, const fault_cfg *f, int id, int target)
{
    (void)id, (void)target;
    set_loss(w, f, -1);
}

/* one entry per link: every link of `from`, or the one to `to` */
static void write(buf *b, const scenario *sc, const fault_cfg *f)
{
    const char *names[512];
    int n = 0;
    for (int i = 0; i < sc->nnodes && n < 512; i++) names[n++] = sc->nodes[i].name;
    for (int i = 0; i < sc->nclients && n < 512; i++) names[n++] = sc->clients[i].name;
    for (int i = 0; i < n; i++) {
        if (!strcmp(names[i], f->from) || (f->to && strcmp(names[i], f->to))) continue;
        buf_puts(b, "  { at = ");
        fault_put_us(b, f->at_us);
        buf_printf(b, ", drop = { \"%s\", \"%s\" }, probability = %.17g", f->from, names[i], f->probability);
        if (f->duration_us >= 0) {
            buf_puts(b, ", duration = ");
            fault_put_us(b, f->duration_us);
        }
        buf_puts(b, " },\n");
    }
}

static void offer(fault_cfg *f, const char *target, int64_t us, double value)
{
    f->from = (char *)target;
    f->target = NULL;
    f->probability = value;
    f->duration_us = us;
}

const fault_def fault_drop = {
    .kind = FAULT_DROP,
    .keys = { "probability", "duration" }, .nkeys = 2, .nrequired = 1,
    .read_target = read_target,
    .read = read,
    .write = write,
    .describe = describe,
    .note = note,
    .start = start,
    .end = end,
    .param = FP_PROBABILITY,
    .everywhere = 1,
    .lease_halves = 4,
    .value = 1.0,
    .offer = offer,
    .length = fault_length_duration,
};
