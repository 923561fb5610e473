/* scenario_nodes.c — the scenario's actors and what joins them: nodes (count, replicas,
 * persistence, clocks), per-node settings, the network (delays, loss, partitions), the clients
 * and the links between actors; with the readers of clocks and delay distributions they use.
 * (Moved from scenario.c, which calls them in its fixed order: see its comment.) */
#include "scenario_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lua.h>

/* ------------------------------------------------------------------------------------ */
/* Clocks and delays                                                                      */

/* { offset = signed duration, drift = rate }; fields not given keep the values in c. */
static void load_clock(loader *ld, int t, const char *parent, clock_cfg *c)
{
    static const char *const keys[] = { "offset", "drift" };
    char path[PATH_LEN];
    rd_path_key(path, parent, "clock");
    int ct = rd_opt_table(&ld->rd, t, parent, "clock");
    if (!ct) return;
    rd_check_fields(&ld->rd, ct, path, keys, LL_ARRAY_LEN(keys));
    int64_t off = rd_opt_duration(&ld->rd, ct, path, "offset", INT64_MIN, D_SIGNED);
    if (off != INT64_MIN) c->offset_ms = (off >= 0 ? off + 500 : off - 500) / 1000;
    c->drift = rd_opt_number(&ld->rd, ct, path, "drift", c->drift, -0.5, 1.0);
    lua_pop(ld->rd.L, 1);
}

/* A delay distribution: D, {lo, hi} or { exponential = mean }. */
static dist to_dist(loader *ld, int idx, const char *path)
{
    lua_State *L = ld->rd.L;
    if (lua_type(L, idx) != LUA_TTABLE) {
        if (lua_type(L, idx) != LUA_TNUMBER && lua_type(L, idx) != LUA_TSTRING)
            rd_fail(&ld->rd, path, "%s must be a duration, {lo, hi} or { exponential = mean }, not %s", path,
                    rd_type_name(L, idx));
        return (dist){ DIST_CONST, rd_to_duration(&ld->rd, idx, path, 0), 0 };
    }
    int t = lua_absindex(L, idx);
    char p[PATH_LEN];
    if (lua_rawlen(L, t) == 0) {
        static const char *const keys[] = { "exponential" };
        rd_check_fields(&ld->rd, t, path, keys, 1);
        rd_path_key(p, path, "exponential");
        if (rd_get(L, t, "exponential") == LUA_TNIL)
            rd_fail(&ld->rd, path, "%s must be a duration, {lo, hi} or { exponential = mean }", path);
        dist d = { DIST_EXP, rd_to_duration(&ld->rd, -1, p, D_POSITIVE), 0 };
        lua_pop(L, 1);
        return d;
    }
    rd_check_list(&ld->rd, t, path, "durations", 2, 2);
    dist d = { DIST_UNIFORM, 0, 0 };
    lua_rawgeti(L, t, 1);
    rd_path_index(p, path, 1);
    d.a_us = rd_to_duration(&ld->rd, -1, p, 0);
    lua_rawgeti(L, t, 2);
    rd_path_index(p, path, 2);
    d.b_us = rd_to_duration(&ld->rd, -1, p, 0);
    lua_pop(L, 2);
    if (d.a_us > d.b_us) rd_fail(&ld->rd, path, "%s: the low end of {lo, hi} is above the high end", path);
    return d;
}

static dist opt_dist(loader *ld, int t, const char *parent, const char *key, dist dflt)
{
    char path[PATH_LEN];
    rd_path_key(path, parent, key);
    dist d = dflt;
    if (rd_get(ld->rd.L, t, key) != LUA_TNIL) d = to_dist(ld, -1, path);
    lua_pop(ld->rd.L, 1);
    return d;
}

/* ------------------------------------------------------------------------------------ */
/* Nodes, clients, the network                                                            */

static const char *const persist_names[] = { "none", "everysec", "always" };

void scenario_load_nodes(loader *ld, int root)
{
    lua_State *L = ld->rd.L;
    scenario *s = ld->s;
    persistence persist = PERSIST_NONE;
    if (rd_get(L, root, "persistence") != LUA_TNIL)
        persist = (persistence)rd_to_choice(&ld->rd, -1, "persistence", persist_names, 3);
    lua_pop(L, 1);
    int64_t restart = rd_opt_duration(&ld->rd, root, "", "restart_delay", -1, D_NONE);
    if (restart == DUR_NONE) restart = -1;
    clock_cfg clock = { 0, 0 };
    load_clock(ld, root, "", &clock);
    int replicas = (int)rd_opt_integer(&ld->rd, root, "", "replicas", 0, 0, MAX_REPLICAS);

    int type = rd_get(L, root, "nodes"), masters = 1;
    int names = 0;
    if (type == LUA_TTABLE) {
        names = lua_gettop(L);
        masters = rd_check_list(&ld->rd, names, "nodes", "node names", 1, MAX_MASTERS);
    } else if (type != LUA_TNIL) {
        if (type != LUA_TNUMBER)
            rd_fail(&ld->rd, "nodes", "nodes must be a count or a list of names, not %s", rd_type_name(L, -1));
        masters = (int)rd_to_integer(&ld->rd, -1, "nodes", 1, MAX_MASTERS);
    }
    s->nmasters = masters;
    s->nnodes = masters * (1 + replicas);
    s->nodes = xcalloc((size_t)s->nnodes, sizeof *s->nodes);
    int nodes_line = linemap_line(&ld->rd.map, "nodes");
    for (int i = 0; i < s->nnodes; i++) {
        node_cfg *n = &s->nodes[i];
        n->master = -1;
        n->persist = persist;
        n->restart_delay_us = restart;
        n->clock = clock;
        n->line = nodes_line;
    }
    char path[PATH_LEN], name[NAME_MAX_LEN + 16];
    for (int i = 0; i < masters; i++) {
        rd_path_index(path, "nodes", i + 1);
        if (names) {
            lua_rawgeti(L, names, i + 1);
            s->nodes[i].name = xstrdup(rd_to_name(&ld->rd, -1, path));
            lua_pop(L, 1);
            s->nodes[i].line = linemap_line(&ld->rd.map, path);
        } else {
            snprintf(name, sizeof name, "n%d", i + 1);
            s->nodes[i].name = xstrdup(name);
        }
        for (int j = 0; j < i; j++)
            if (strcmp(s->nodes[j].name, s->nodes[i].name) == 0)
                rd_fail(&ld->rd, path, "%s: the name '%s' is used twice", path, s->nodes[i].name);
    }
    lua_pop(L, 1);
    int replicas_line = linemap_line(&ld->rd.map, "replicas");
    for (int i = 0; i < masters; i++)
        for (int r = 0; r < replicas; r++) {
            node_cfg *n = &s->nodes[masters + i * replicas + r];
            snprintf(name, sizeof name, "%sr%d", s->nodes[i].name, r + 1);
            n->name = xstrdup(name);
            n->master = i;
            n->line = replicas_line;
            for (int j = 0; j < masters; j++)
                if (strcmp(s->nodes[j].name, name) == 0)
                    rd_fail(&ld->rd, "replicas", "replicas: the replica name '%s' is already a node's name", name);
        }
}

void scenario_load_per_node(loader *ld, int root)
{
    static const char *const keys[] = { "persistence", "restart_delay", "clock" };
    lua_State *L = ld->rd.L;
    scenario *s = ld->s;
    int t = rd_opt_table(&ld->rd, root, "", "per_node");
    if (!t) return;
    const char *names[MAX_NODES];
    for (int i = 0; i < s->nnodes; i++) names[i] = s->nodes[i].name;
    rd_check_keys(&ld->rd, t, "per_node", "node", "nodes", names, (size_t)s->nnodes, 0);
    for (int i = 0; i < s->nnodes; i++) {
        node_cfg *n = &s->nodes[i];
        char path[PATH_LEN];
        rd_path_key(path, "per_node", n->name);
        int type = rd_get(L, t, n->name);
        if (type == LUA_TNIL) {
            lua_pop(L, 1);
            continue;
        }
        if (type != LUA_TTABLE) rd_fail(&ld->rd, path, "%s must be a table, not %s", path, rd_type_name(L, -1));
        int nt = lua_gettop(L);
        rd_check_fields(&ld->rd, nt, path, keys, LL_ARRAY_LEN(keys));
        char p[PATH_LEN];
        rd_path_key(p, path, "persistence");
        if (rd_get(L, nt, "persistence") != LUA_TNIL)
            n->persist = (persistence)rd_to_choice(&ld->rd, -1, p, persist_names, 3);
        lua_pop(L, 1);
        int64_t restart = rd_opt_duration(&ld->rd, nt, path, "restart_delay", INT64_MIN, D_NONE);
        if (restart != INT64_MIN) n->restart_delay_us = restart == DUR_NONE ? -1 : restart;
        load_clock(ld, nt, path, &n->clock);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

static void load_client(loader *ld, int t, const char *path, client_cfg *c)
{
    static const char *const keys[] = { "name", "start", "work", "rounds", "wait", "lease",
                                        "think", "clock" };
    lua_State *L = ld->rd.L;
    rd_check_fields(&ld->rd, t, path, keys, LL_ARRAY_LEN(keys));
    char p[PATH_LEN];
    rd_path_key(p, path, "name");
    if (rd_get(L, t, "name") == LUA_TNIL) rd_fail(&ld->rd, path, "%s has no 'name' (it is required)", path);
    c->name = xstrdup(rd_to_name(&ld->rd, -1, p));
    lua_pop(L, 1);
    c->start_us = rd_opt_duration(&ld->rd, t, path, "start", 0, 0);
    c->work_us = rd_opt_duration(&ld->rd, t, path, "work", 1000000, 0);
    c->rounds = (int)rd_opt_integer(&ld->rd, t, path, "rounds", 1, 1, MAX_ROUNDS);
    c->wait_us = rd_opt_duration(&ld->rd, t, path, "wait", -1, 0);
    c->lease_us = rd_opt_duration(&ld->rd, t, path, "lease", -1, D_NONE | D_POSITIVE);
    c->think_us = rd_opt_duration(&ld->rd, t, path, "think", 0, 0);
    load_clock(ld, t, path, &c->clock);
}

void scenario_load_clients(loader *ld, int root)
{
    lua_State *L = ld->rd.L;
    scenario *s = ld->s;
    int t = rd_opt_table(&ld->rd, root, "", "clients");
    if (!t) rd_fail(&ld->rd, "", "the scenario has no 'clients' (it is required)");
    int n = rd_check_list(&ld->rd, t, "clients", "clients", 1, MAX_CLIENTS);
    s->clients = xcalloc((size_t)n, sizeof *s->clients);
    s->nclients = n;
    for (int i = 0; i < n; i++) {
        char path[PATH_LEN];
        rd_path_index(path, "clients", i + 1);
        if (lua_rawgeti(L, t, i + 1) != LUA_TTABLE)
            rd_fail(&ld->rd, path, "%s must be a table { name = ..., ... }, not %s", path, rd_type_name(L, -1));
        client_cfg *c = &s->clients[i];
        c->line = linemap_line(&ld->rd.map, path);
        load_client(ld, lua_gettop(L), path, c);
        lua_pop(L, 1);
        char np[PATH_LEN];
        rd_path_key(np, path, "name");
        for (int j = 0; j < i; j++)
            if (strcmp(s->clients[j].name, c->name) == 0)
                rd_fail(&ld->rd, np, "%s: the name '%s' is used twice", np, c->name);
        if (scenario_node_index(s, c->name) >= 0)
            rd_fail(&ld->rd, np, "%s: '%s' is already the name of a node", np, c->name);
    }
    lua_pop(L, 1);
}

void scenario_load_network(loader *ld, int root)
{
    static const char *const keys[] = { "delay", "loss", "partitions", "tcp_retries2", "keepalive" };
    static const char *const cuts[] = { "drop", "tcp" };
    static const char *const repl_keys[] = { "lag", "down_after", "detection", "commit" };
    static const char *const commits[] = { "async", "quorum" };
    scenario *s = ld->s;
    s->delay = (dist){ DIST_UNIFORM, 1000, 5000 };
    s->tcp_retries2 = 15;                   /* Linux's default (ip-sysctl) */
    s->keepalive_us = (7200LL + 9 * 75) * 1000000; /* tcp_keepalive_time + probes × interval */
    int t = rd_opt_table(&ld->rd, root, "", "network");
    if (t) {
        rd_check_fields(&ld->rd, t, "network", keys, LL_ARRAY_LEN(keys));
        s->delay = opt_dist(ld, t, "network", "delay", s->delay);
        s->loss = rd_opt_number(&ld->rd, t, "network", "loss", 0, 0, 1);
        if (rd_get(ld->rd.L, t, "partitions") != LUA_TNIL)
            s->tcp_partitions = rd_to_choice(&ld->rd, -1, "network.partitions", cuts, 2);
        lua_pop(ld->rd.L, 1);
        s->tcp_retries2 = (int)rd_opt_integer(&ld->rd, t, "network", "tcp_retries2", 15, 1, 30);
        s->keepalive_us = rd_opt_duration(&ld->rd, t, "network", "keepalive", s->keepalive_us, D_POSITIVE);
        lua_pop(ld->rd.L, 1);
    }
    s->repl_lag = s->delay;
    s->down_after_us = 5000000;
    s->detection_us = 1000000;
    t = rd_opt_table(&ld->rd, root, "", "replication");
    if (t) {
        rd_check_fields(&ld->rd, t, "replication", repl_keys, LL_ARRAY_LEN(repl_keys));
        s->repl_lag = opt_dist(ld, t, "replication", "lag", s->repl_lag);
        s->down_after_us = rd_opt_duration(&ld->rd, t, "replication", "down_after", s->down_after_us, D_POSITIVE);
        s->detection_us = rd_opt_duration(&ld->rd, t, "replication", "detection", s->detection_us, 0);
        if (rd_get(ld->rd.L, t, "commit") != LUA_TNIL) s->repl_quorum = rd_to_choice(&ld->rd, -1, "replication.commit", commits, 2);
        lua_pop(ld->rd.L, 1);
        lua_pop(ld->rd.L, 1);
    }
}

void scenario_load_links(loader *ld, int root)
{
    static const char *const keys[] = { "from", "to", "delay", "loss" };
    lua_State *L = ld->rd.L;
    scenario *s = ld->s;
    int t = rd_opt_table(&ld->rd, root, "", "links");
    if (!t) return;
    int n = rd_check_list(&ld->rd, t, "links", "links", 0, MAX_LINKS);
    s->links = xcalloc((size_t)(n ? n : 1), sizeof *s->links);
    s->nlinks = n;
    for (int i = 0; i < n; i++) {
        char path[PATH_LEN], p[PATH_LEN];
        rd_path_index(path, "links", i + 1);
        if (lua_rawgeti(L, t, i + 1) != LUA_TTABLE)
            rd_fail(&ld->rd, path, "%s must be a table { from = ..., to = ... }, not %s", path, rd_type_name(L, -1));
        int lt = lua_gettop(L);
        link_cfg *l = &s->links[i];
        l->line = linemap_line(&ld->rd.map, path);
        rd_check_fields(&ld->rd, lt, path, keys, LL_ARRAY_LEN(keys));
        for (int end = 0; end < 2; end++) {
            const char *key = end ? "to" : "from";
            rd_path_key(p, path, key);
            if (rd_get(L, lt, key) == LUA_TNIL) rd_fail(&ld->rd, path, "%s has no '%s' (it is required)", path, key);
            char *name = scenario_actor_name(ld, -1, p, ACT_NODE | ACT_CLIENT, "a link");
            if (end) l->to = name;
            else l->from = name;
            lua_pop(L, 1);
        }
        if (strcmp(l->from, l->to) == 0) rd_fail(&ld->rd, path, "%s: a link joins two different actors", path);
        for (int j = 0; j < i; j++) {
            const link_cfg *o = &s->links[j];
            if ((!strcmp(o->from, l->from) && !strcmp(o->to, l->to)) ||
                (!strcmp(o->from, l->to) && !strcmp(o->to, l->from)))
                rd_fail(&ld->rd, path, "%s: the link %s-%s is given twice (links work both ways)", path, l->from,
                        l->to);
        }
        l->delay = opt_dist(ld, lt, path, "delay", s->delay);
        l->loss = rd_opt_number(&ld->rd, lt, path, "loss", s->loss, 0, 1);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}
