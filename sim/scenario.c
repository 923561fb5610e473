/* scenario.c — a loaded scenario as the engine and the tools use it (see scenario.h): its
 * actors by name, its lease, the groups that cut one actor off, a rename, and freeing it.
 * Loading a file is scenario_load.c's (and scenario_reader, scenario_lines, scenario_nodes,
 * scenario_faults): the loader reads faults through the fault table, whose rows act on the
 * world, so nothing the world uses lives with the loader. */
#include "scenario.h"
#include "scenario_reader.h" /* NAME_MAX_LEN */

#include <stdlib.h>
#include <string.h>

void scenario_free(scenario *s)
{
    if (!s) return;
    free(s->path);
    free(s->name);
    free(s->about);
    free(s->protocol);
    free(s->server);
    free(s->server_options);
    free(s->mode);
    free(s->scripts);
    free(s->lock);
    for (int i = 0; i < s->nnodes; i++) free(s->nodes[i].name);
    free(s->nodes);
    for (int i = 0; i < s->nlinks; i++) {
        free(s->links[i].from);
        free(s->links[i].to);
    }
    free(s->links);
    for (int i = 0; i < s->nclients; i++) free(s->clients[i].name);
    free(s->clients);
    for (int i = 0; i < s->nfaults; i++) {
        fault_cfg *f = &s->faults[i];
        free(f->target);
        free(f->from);
        free(f->to);
        for (int g = 0; f->groups && f->groups[g]; g++) {
            for (int j = 0; f->groups[g][j]; j++) free(f->groups[g][j]);
            free(f->groups[g]);
        }
        free(f->groups);
    }
    free(s->faults);
    for (int i = 0; i < s->nexpects; i++) free(s->expects[i].property);
    free(s->expects);
    for (int i = 0; i < s->noptions; i++) {
        free(s->options[i].key);
        free(s->options[i].s);
    }
    free(s->options);
    for (int i = 0; i < s->explore.nfaults; i++) {
        explore_fault *ef = &s->explore.faults[i];
        for (int j = 0; j < ef->ntargets; j++) free(ef->targets[j]);
        free(ef->targets);
        free(ef->params_us);
        free(ef->values);
    }
    free(s->explore.faults);
    free(s);
}

int64_t scenario_lease_or_watchdog(const scenario *s)
{
    return s->lease_us > 0 ? s->lease_us : SCENARIO_WATCHDOG_LEASE_US;
}

int scenario_node_index(const scenario *s, const char *name)
{
    for (int i = 0; s && name && i < s->nnodes; i++)
        if (s->nodes[i].name && !strcmp(s->nodes[i].name, name)) return i;
    return -1;
}

int scenario_client_index(const scenario *s, const char *name)
{
    for (int i = 0; s && name && i < s->nclients; i++)
        if (s->clients[i].name && !strcmp(s->clients[i].name, name)) return i;
    return -1;
}

static void rename_str(char **p, const char *from, const char *to)
{
    if (*p && !strcmp(*p, from)) {
        free(*p);
        *p = xstrdup(to);
    }
}

int scenario_rename_actor(scenario *s, const char *from, const char *to, buf *err)
{
    if (scenario_node_index(s, from) < 0 && scenario_client_index(s, from) < 0) {
        buf_printf(err, "--rename: '%s' is no node or client of the scenario", from);
        return -1;
    }
    size_t len = strlen(to);
    int ok = len >= 1 && len <= NAME_MAX_LEN;
    for (size_t i = 0; ok && i < len; i++)
        ok = (to[i] >= 'a' && to[i] <= 'z') || (to[i] >= 'A' && to[i] <= 'Z') || (to[i] >= '0' && to[i] <= '9') ||
             to[i] == '_' || to[i] == '-';
    if (!ok) {
        buf_printf(err, "--rename: '%s' is not a valid name (1 to %d letters, digits, '_' or '-')", to, NAME_MAX_LEN);
        return -1;
    }
    if (strcmp(from, to) && (scenario_node_index(s, to) >= 0 || scenario_client_index(s, to) >= 0)) {
        buf_printf(err, "--rename: '%s' is already an actor of the scenario", to);
        return -1;
    }
    for (int i = 0; i < s->nnodes; i++) rename_str(&s->nodes[i].name, from, to);
    for (int i = 0; i < s->nclients; i++) rename_str(&s->clients[i].name, from, to);
    for (int i = 0; i < s->nlinks; i++) {
        rename_str(&s->links[i].from, from, to);
        rename_str(&s->links[i].to, from, to);
    }
    for (int i = 0; i < s->nfaults; i++) {
        fault_cfg *f = &s->faults[i];
        rename_str(&f->target, from, to);
        rename_str(&f->from, from, to);
        rename_str(&f->to, from, to);
        for (int g = 0; g < f->ngroups; g++)
            for (int j = 0; f->groups[g][j]; j++) rename_str(&f->groups[g][j], from, to);
    }
    for (int i = 0; i < s->noptions; i++)
        if (s->options[i].type == OPT_STRING) rename_str(&s->options[i].s, from, to);
    for (int i = 0; i < s->explore.nfaults; i++)
        for (int j = 0; j < s->explore.faults[i].ntargets; j++) rename_str(&s->explore.faults[i].targets[j], from, to);
    return 0;
}

char ***scenario_isolate_groups(const scenario *sc, const char *name)
{
    char ***g = xcalloc(2, sizeof *g);
    g[0] = xcalloc(2, sizeof **g);
    g[0][0] = (char *)name;
    g[1] = xcalloc((size_t)(sc->nnodes + sc->nclients) + 1, sizeof **g);
    int n = 0;
    for (int i = 0; i < sc->nnodes; i++)
        if (strcmp(sc->nodes[i].name, name)) g[1][n++] = sc->nodes[i].name;
    for (int i = 0; i < sc->nclients; i++)
        if (strcmp(sc->clients[i].name, name)) g[1][n++] = sc->clients[i].name;
    return g;
}

void scenario_free_groups(char ***groups)
{
    if (!groups) return;
    free(groups[0]);
    free(groups[1]);
    free(groups);
}
