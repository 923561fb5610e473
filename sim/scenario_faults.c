/* scenario_faults.c — the faults a scenario injects and the explore table (the model
 * checker's budget), and the actors both name (see scenario_int.h).
 *
 * A fault is a table with `at` and exactly one kind key ({ at = "5s", gc_pause = "A",
 * duration = "12s" }); its row in the fault table (faults.h, sim/fault_<name>.c) says what
 * else it takes, what actor it hits, and reads what is its own.
 * Every actor a fault, a link or the explore table names is looked up in one sorted index of
 * nodes and clients, built at the first lookup, and a partition marks the actors it has seen
 * with a stamp, so 10 000 partitions of hundreds of actors need no linear search per name.
 *
 * Like the rest of the loader (scenario_reader.c has the whole picture), these run under
 * the validator's pcall: a problem is reported with rd_fail, and whatever is allocated is
 * attached to the scenario before the next check. */
#include "faults.h"
#include "scenario_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lua.h>

/* ------------------------------------------------------------------------------------ */
/* Actors                                                                                 */

static const char *actor_kinds(int kinds)
{
    return kinds & ACT_MASTER ? "master node" : kinds == ACT_NODE ? "node"
           : kinds == ACT_CLIENT ? "client" : "node or client";
}

static int actor_ref_cmp(const void *a, const void *b)
{
    return strcmp(((const actor_ref *)a)->name, ((const actor_ref *)b)->name);
}

/* The node or client called `name`, or NULL. Names are unique across both (scenario_load_clients
 * checks), so one sorted index answers for either kind. */
static const actor_ref *find_actor(loader *ld, const char *name)
{
    const scenario *s = ld->s;
    if (!ld->actors) {
        int n = s->nnodes + s->nclients;
        ld->actors = xcalloc((size_t)n + 1, sizeof *ld->actors);
        ld->seen_stamp = xcalloc((size_t)n + 1, sizeof *ld->seen_stamp);
        ld->seen_group = xcalloc((size_t)n + 1, sizeof *ld->seen_group);
        for (int i = 0; i < s->nnodes; i++)
            if (s->nodes[i].name) ld->actors[ld->nactors++] = (actor_ref){ s->nodes[i].name, i, -1 };
        for (int i = 0; i < s->nclients; i++)
            if (s->clients[i].name) ld->actors[ld->nactors++] = (actor_ref){ s->clients[i].name, -1, i };
        if (ld->nactors > 1) qsort(ld->actors, (size_t)ld->nactors, sizeof *ld->actors, actor_ref_cmp);
    }
    actor_ref key = { name, -1, -1 };
    return bsearch(&key, ld->actors, (size_t)ld->nactors, sizeof *ld->actors, actor_ref_cmp);
}

/* Checks that `name` is an actor of one of `kinds`; `user` names the fault for messages. */
static void check_actor(loader *ld, const char *path, const char *name, int kinds, const char *user)
{
    const scenario *s = ld->s;
    const actor_ref *ref = find_actor(ld, name);
    int ni = ref ? ref->node : -1, ci = ref ? ref->client : -1;
    char shown[SHOW_LEN + 4];
    rd_show(shown, name, strlen(name));
    if (ni < 0 && ci < 0) {
        const char *names[MAX_NODES + MAX_CLIENTS];
        size_t n = 0;
        for (int i = 0; (kinds & (ACT_NODE | ACT_MASTER)) && i < s->nnodes; i++)
            if (!(kinds & ACT_MASTER) || s->nodes[i].master < 0) names[n++] = s->nodes[i].name;
        for (int i = 0; (kinds & ACT_CLIENT) && i < s->nclients; i++) names[n++] = s->clients[i].name;
        const char *near = rd_nearest(name, names, n);
        if (near)
            rd_fail(&ld->rd, path, "%s: no %s named '%s'; did you mean '%s'?", path, actor_kinds(kinds), shown, near);
        rd_fail(&ld->rd, path, "%s: no %s named '%s'", path, actor_kinds(kinds), shown);
    }
    if (ci >= 0 && !(kinds & ACT_CLIENT))
        rd_fail(&ld->rd, path, "%s: '%s' is a client, but %s needs a %s", path, shown, user, actor_kinds(kinds));
    if (ni >= 0 && !(kinds & (ACT_NODE | ACT_MASTER)))
        rd_fail(&ld->rd, path, "%s: '%s' is a node, but %s needs a %s", path, shown, user, actor_kinds(kinds));
    if (ni >= 0 && (kinds & ACT_MASTER)) {
        if (s->nodes[ni].master >= 0)
            rd_fail(&ld->rd, path, "%s: '%s' is a replica, but %s needs a master node", path, shown, user);
        int replicas = 0;
        for (int i = 0; i < s->nnodes; i++) replicas += s->nodes[i].master == ni;
        if (!replicas) rd_fail(&ld->rd, path, "%s: '%s' has no replica to fail over to (set replicas)", path, shown);
    }
}

int scenario_actor_index(loader *ld, const char *name)
{
    return (int)(find_actor(ld, name) - ld->actors);
}

char *scenario_actor_name(loader *ld, int idx, const char *path, int kinds, const char *user)
{
    const char *name = rd_to_string(&ld->rd, idx, path);
    check_actor(ld, path, name, kinds, user);
    return xstrdup(name);
}

/* ------------------------------------------------------------------------------------ */
/* Faults                                                                                 */

#define fault_names fault_kind_names /* history.h: the one vocabulary of faults */

/* Finds the fault's kind: exactly one kind key. */
static fault_kind fault_kind_of(loader *ld, int t, const char *path)
{
    int found = -1;
    for (int k = 0; k < (int)LL_ARRAY_LEN(fault_names); k++) {
        int present = rd_get(ld->rd.L, t, fault_names[k]) != LUA_TNIL;
        lua_pop(ld->rd.L, 1);
        if (!present) continue;
        if (found >= 0)
            rd_fail(&ld->rd, path, "%s has two kinds, '%s' and '%s'; a fault has exactly one", path,
                    fault_names[found], fault_names[k]);
        found = k;
    }
    if (found < 0) {
        char list[256];
        rd_fail(&ld->rd, path, "%s has no kind; give one of %s", path,
                rd_join_names(list, sizeof list, fault_names, LL_ARRAY_LEN(fault_names), 0));
    }
    return (fault_kind)found;
}

/* Keys of a fault: every key must belong to its kind; a key of another kind is named so. */
static void check_fault_keys(loader *ld, int t, const char *path, fault_kind kind)
{
    const fault_def *fd = fault_def_of(kind);
    const char *valid[4] = { "at", fault_names[kind] };
    size_t n = 2;
    for (int i = 0; i < fd->nkeys; i++) valid[n++] = fd->keys[i];
    /* a key of another kind: named so (every kind's keys, in the table's order) */
    const char *any[2 * FAULT_KIND_COUNT + 1] = { "at" };
    size_t nany = 1;
    for (int k = 0; k < FAULT_KIND_COUNT; k++)
        for (int i = 0; i < fault_def_of((fault_kind)k)->nkeys; i++) {
            const char *key = fault_def_of((fault_kind)k)->keys[i];
            size_t j = 0;
            while (j < nany && strcmp(any[j], key) != 0) j++;
            if (j == nany) any[nany++] = key;
        }
    for (size_t i = 0; i < nany; i++) {
        size_t j = 0;
        while (j < n && strcmp(valid[j], any[i]) != 0) j++;
        if (j < n) continue;
        int present = rd_get(ld->rd.L, t, any[i]) != LUA_TNIL;
        lua_pop(ld->rd.L, 1);
        if (!present) continue;
        char p[PATH_LEN], list[256];
        rd_path_key(p, path, any[i]);
        rd_fail(&ld->rd, p, "%s: '%s' does not apply to a %s fault (its keys: %s)", path, any[i],
                fault_names[kind], rd_join_names(list, sizeof list, valid, n, 0));
    }
    rd_check_fields(&ld->rd, t, path, valid, n);
}

static void load_fault(loader *ld, int t, const char *path, fault_cfg *f)
{
    lua_State *L = ld->rd.L;
    const scenario *s = ld->s;
    fault_kind kind = fault_kind_of(ld, t, path);
    const fault_def *fd = fault_def_of(kind);
    const char *kn = fault_names[kind];
    f->kind = kind;
    f->duration_us = -1;
    check_fault_keys(ld, t, path, kind);
    for (int i = 0; i < fd->nrequired; i++) {
        int present = rd_get(L, t, fd->keys[i]) != LUA_TNIL;
        lua_pop(L, 1);
        if (!present) rd_fail(&ld->rd, path, "%s: a %s fault needs '%s'", path, kn, fd->keys[i]);
    }
    char p[PATH_LEN];
    rd_path_key(p, path, "at");
    if (rd_get(L, t, "at") == LUA_TNIL) rd_fail(&ld->rd, path, "%s has no 'at' (when the fault happens)", path);
    f->at_us = rd_to_duration(&ld->rd, -1, p, 0);
    lua_pop(L, 1);
    if (f->at_us > s->duration_us)
        rd_fail(&ld->rd, p, "%s: the fault comes after the end of the scenario (duration %.14gs)", p,
                (double)s->duration_us / 1e6);

    rd_path_key(p, path, kn);
    rd_get(L, t, kn);
    if (fd->read_target) fd->read_target(ld, -1, p, f);
    else f->target = scenario_actor_name(ld, -1, p, fd->targets, kn);
    lua_pop(L, 1);

    f->duration_us = rd_opt_duration(&ld->rd, t, path, "duration", -1, D_POSITIVE);
    if (fd->read) fd->read(ld, t, path, f);
}

void scenario_load_faults(loader *ld, int root)
{
    lua_State *L = ld->rd.L;
    scenario *s = ld->s;
    int t = rd_opt_table(&ld->rd, root, "", "faults");
    if (!t) return;
    int n = rd_check_list(&ld->rd, t, "faults", "faults", 0, MAX_FAULTS);
    s->faults = xcalloc((size_t)(n ? n : 1), sizeof *s->faults);
    s->nfaults = n;
    for (int i = 0; i < n; i++) {
        char path[PATH_LEN];
        rd_path_index(path, "faults", i + 1);
        fault_cfg *f = &s->faults[i];
        f->line = linemap_line(&ld->rd.map, path);
        if (lua_rawgeti(L, t, i + 1) != LUA_TTABLE)
            rd_fail(&ld->rd, path, "%s must be a table { at = ..., <kind> = ... }, not %s", path, rd_type_name(L, -1));
        load_fault(ld, lua_gettop(L), path, f);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* ------------------------------------------------------------------------------------ */
/* The explore table: which faults the model checker may inject, where, and how far it
 * searches (model/explore.c interprets it).                                              */

/* explore.faults.<kind> = { targets... } or { targets = {...}, params = {...} }. */
static void load_explore_fault(loader *ld, int t, const char *path, fault_kind kind, explore_fault *ef)
{
    static const char *const keys[] = { "targets", "params" };
    lua_State *L = ld->rd.L;
    const char *kn = fault_names[kind];
    int top = lua_gettop(L);
    ef->kind = kind;
    ef->line = linemap_line(&ld->rd.map, path);
    int targets = t, params = 0;
    char tp[PATH_LEN], pp[PATH_LEN];
    snprintf(tp, sizeof tp, "%s", path);
    if (lua_rawlen(L, t) == 0) {
        rd_check_fields(&ld->rd, t, path, keys, LL_ARRAY_LEN(keys));
        rd_path_key(tp, path, "targets");
        targets = rd_opt_table(&ld->rd, t, path, "targets");
        if (!targets) rd_fail(&ld->rd, path, "%s has no 'targets' (it is required)", path);
        rd_path_key(pp, path, "params");
        params = rd_opt_table(&ld->rd, t, path, "params");
    }
    int n = rd_check_list(&ld->rd, targets, tp, "actor names", 1, MAX_NODES + MAX_CLIENTS);
    ef->targets = xcalloc((size_t)n, sizeof *ef->targets);
    ef->ntargets = n;
    const fault_def *fd = fault_def_of(kind);
    int actors = fd->targets ? fd->targets : ACT_NODE | ACT_CLIENT; /* a partition's, a link's: any actor */
    int stamp = ++ld->stamp;
    for (int i = 0; i < n; i++) {
        char p[PATH_LEN];
        rd_path_index(p, tp, i + 1);
        lua_rawgeti(L, targets, i + 1);
        ef->targets[i] = scenario_actor_name(ld, -1, p, actors, kn);
        lua_pop(L, 1);
        /* a target named twice would double that part of the search and change nothing */
        int id = scenario_actor_index(ld, ef->targets[i]);
        if (ld->seen_stamp[id] == stamp) rd_fail(&ld->rd, p, "%s: '%s' is named twice", p, ef->targets[i]);
        ld->seen_stamp[id] = stamp;
    }
    if (!params) {
        lua_settop(L, top);
        return;
    }
    if (fd->param == FP_NONE) rd_fail(&ld->rd, pp, "%s: a %s takes no params", pp, kn);
    int np = rd_check_list(&ld->rd, params, pp, "values", 1, 1000);
    int real = fd->param == FP_RATE || fd->param == FP_PROBABILITY;
    if (real) ef->values = xcalloc((size_t)np, sizeof *ef->values);
    else ef->params_us = xcalloc((size_t)np, sizeof *ef->params_us);
    for (int i = 0; i < np; i++) {
        char p[PATH_LEN];
        rd_path_index(p, pp, i + 1);
        lua_rawgeti(L, params, i + 1);
        switch (fd->param) {
        case FP_RATE: ef->values[ef->nvalues++] = rd_to_number(&ld->rd, -1, p, -0.5, 1.0); break;
        case FP_PROBABILITY: ef->values[ef->nvalues++] = rd_to_number(&ld->rd, -1, p, 0, 1); break;
        default: /* as in faults: a pause or a partition lasts longer than 0 */
            ef->params_us[ef->nparams++] = rd_to_duration(&ld->rd, -1, p, fd->param == FP_SIGNED_US     ? D_SIGNED
                                                                       : fd->param == FP_POSITIVE_US ? D_POSITIVE
                                                                                                     : 0);
        }
        lua_pop(L, 1);
    }
    lua_settop(L, top);
}

void scenario_load_explore(loader *ld, int root)
{
    static const char *const keys[] = { "faults", "max_faults", "horizon", "max_deviations", "max_depth" };
    lua_State *L = ld->rd.L;
    scenario *s = ld->s;
    explore_cfg *x = &s->explore;
    int t = rd_opt_table(&ld->rd, root, "", "explore");
    if (!t) return;
    x->present = 1;
    x->line = linemap_line(&ld->rd.map, "explore");
    rd_check_fields(&ld->rd, t, "explore", keys, LL_ARRAY_LEN(keys));
    if (rd_get(L, t, "max_faults") == LUA_TNIL)
        rd_fail(&ld->rd, "explore", "explore has no 'max_faults' (it is required)");
    x->max_faults = (int)rd_to_integer(&ld->rd, -1, "explore.max_faults", 0, 1000);
    lua_pop(L, 1);
    x->horizon_us = rd_opt_duration(&ld->rd, t, "explore", "horizon", 0, D_POSITIVE);
    if (x->horizon_us > s->duration_us)
        rd_fail(&ld->rd, "explore.horizon", "explore.horizon is after the end of the scenario");
    x->max_depth = (int)rd_opt_integer(&ld->rd, t, "explore", "max_depth", 0, 0, INT_MAX);
    x->max_deviations = (int)rd_opt_integer(&ld->rd, t, "explore", "max_deviations", -1, 0, 1000000);
    int ft = rd_opt_table(&ld->rd, t, "explore", "faults");
    if (ft) {
        rd_check_keys(&ld->rd, ft, "explore.faults", "fault kind", "fault kinds", fault_names,
                      LL_ARRAY_LEN(fault_names), 1);
        x->faults = xcalloc(LL_ARRAY_LEN(fault_names), sizeof *x->faults);
        for (int k = 0; k < (int)LL_ARRAY_LEN(fault_names); k++) {
            char path[PATH_LEN];
            rd_path_key(path, "explore.faults", fault_names[k]);
            int type = rd_get(L, ft, fault_names[k]);
            if (type == LUA_TNIL) {
                lua_pop(L, 1);
                continue;
            }
            if (type != LUA_TTABLE)
                rd_fail(&ld->rd, path, "%s must be a list of targets or { targets = {...}, params = {...} }, not %s",
                        path, rd_type_name(L, -1));
            load_explore_fault(ld, lua_gettop(L), path, (fault_kind)k, &x->faults[x->nfaults++]);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

