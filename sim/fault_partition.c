/* fault_partition.c — a partition ({ at = "5s", partition = { {"A", "n1"}, {"B", "n2", "n3"} },
 * duration = "10s" }): actors in different groups cannot talk until it heals; an actor named
 * in no group keeps talking to everyone, so a partition needs two groups to cut anything. The
 * search's partitions cut one actor off from every other. */
#include "faultint.h"

#include <stdlib.h>
#include <string.h>

#include <lua.h>

static void read_target(struct loader *ld, int idx, const char *path, fault_cfg *f)
{
    lua_State *L = ld->rd.L;
    const scenario *s = ld->s;
    if (lua_type(L, idx) != LUA_TTABLE)
        rd_fail(&ld->rd, path, "%s must be a list of groups, like { {\"A\", \"n1\"}, {\"B\", \"n2\"} }, not %s",
                path, rd_type_name(L, idx));
    int t = lua_absindex(L, idx);
    int ngroups = rd_check_list(&ld->rd, t, path, "groups", 2, MAX_NODES + MAX_CLIENTS);
    int nactors = s->nnodes + s->nclients;
    f->groups = xcalloc((size_t)ngroups + 1, sizeof *f->groups); /* NULL-terminated too */
    f->ngroups = ngroups;
    int stamp = ++ld->stamp; /* marks the actors this partition names, in O(1) per name */
    for (int g = 0; g < ngroups; g++) {
        char gp[PATH_LEN];
        rd_path_index(gp, path, g + 1);
        if (lua_rawgeti(L, t, g + 1) != LUA_TTABLE)
            rd_fail(&ld->rd, gp, "%s must be a list of names, not %s", gp, rd_type_name(L, -1));
        int gt = lua_gettop(L);
        int n = rd_check_list(&ld->rd, gt, gp, "names", 1, nactors);
        f->groups[g] = xcalloc((size_t)n + 1, sizeof **f->groups);
        for (int i = 0; i < n; i++) {
            char np[PATH_LEN];
            rd_path_index(np, gp, i + 1);
            lua_rawgeti(L, gt, i + 1);
            f->groups[g][i] = scenario_actor_name(ld, -1, np, ACT_NODE | ACT_CLIENT, "a partition");
            lua_pop(L, 1);
            int id = scenario_actor_index(ld, f->groups[g][i]);
            if (ld->seen_stamp[id] == stamp)
                rd_fail(&ld->rd, np, "%s: '%s' is in two groups%s", np, f->groups[g][i],
                        ld->seen_group[id] == g ? " (named twice in one)" : "");
            ld->seen_stamp[id] = stamp;
            ld->seen_group[id] = g;
        }
        lua_pop(L, 1);
    }
}

static void describe(const fault_cfg *f, buf *out)
{
    buf_puts(out, "partition");
    for (int g = 0; g < f->ngroups; g++) {
        buf_puts(out, g ? " | " : " ");
        for (char **nm = f->groups[g]; *nm; nm++) buf_printf(out, "%s%s", nm == f->groups[g] ? "" : ",", *nm);
    }
    if (f->duration_us >= 0) buf_printf(out, " for %lld ms", (long long)(f->duration_us / 1000));
}

static void note(const fault_cfg *f, hist_event *e)
{
    e->param_ms = f->duration_us >= 0 ? f->duration_us / 1000 : -1;
}

static void start(struct world *w, const fault_cfg *f, int id, int target, int64_t early)
{
    (void)target, (void)early;
    int *group_of = xmalloc((size_t)w->cx.nactors * sizeof *group_of);
    for (int a = 0; a < w->cx.nactors; a++) group_of[a] = -1;
    for (int g = 0; g < f->ngroups; g++)
        for (char **nm = f->groups[g]; *nm; nm++) {
            int a = core_actor(&w->cx, *nm);
            if (a >= 0) group_of[a] = g;
        }
    net_partition(w->net, id, group_of);
    node_partitions_changed(&w->cu);
}

static void end(struct world *w, const fault_cfg *f, int id, int target)
{
    (void)f, (void)target;
    net_heal(w->net, id);
    node_partitions_changed(&w->cu);
}

/* the search's partitions cut their target off alone; a scenario's are written as given */
static void write(buf *b, const scenario *sc, const fault_cfg *f)
{
    buf_puts(b, "  { at = ");
    fault_put_us(b, f->at_us);
    if (!f->target) {
        buf_puts(b, ", partition = {");
        for (int g = 0; g < f->ngroups; g++) {
            buf_puts(b, g ? ", {" : " {");
            for (char **nm = f->groups[g]; *nm; nm++) buf_printf(b, " \"%s\",", *nm);
            buf_puts(b, " }");
        }
        buf_puts(b, " }");
        if (f->duration_us >= 0) {
            buf_puts(b, ", duration = ");
            fault_put_us(b, f->duration_us);
        }
        buf_puts(b, " },\n");
        return;
    }
    buf_printf(b, ", partition = { { \"%s\" }, {", f->target);
    for (int i = 0; i < sc->nnodes; i++)
        if (strcmp(sc->nodes[i].name, f->target)) buf_printf(b, " \"%s\",", sc->nodes[i].name);
    for (int i = 0; i < sc->nclients; i++)
        if (strcmp(sc->clients[i].name, f->target)) buf_printf(b, " \"%s\",", sc->clients[i].name);
    buf_puts(b, " } }, duration = ");
    fault_put_us(b, f->duration_us);
    buf_puts(b, " },\n");
}

static void place(fault_cfg *f, const scenario *sc)
{
    f->groups = scenario_isolate_groups(sc, f->target);
    f->ngroups = 2;
}

const fault_def fault_partition = {
    .kind = FAULT_PARTITION,
    .keys = { "duration" }, .nkeys = 1, .nrequired = 1,
    .read_target = read_target,
    .write = write,
    .describe = describe,
    .note = note,
    .start = start,
    .end = end,
    .param = FP_POSITIVE_US,
    .everywhere = 1,
    .cuts = 1,
    .lease_halves = 4,
    .offer = fault_offer_target_duration,
    .place = place,
    .length = fault_length_duration,
};
