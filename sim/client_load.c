/* client_load.c — a world's clients built (client.h's clients_new and clients_free): the
 * clients' Lua state made (client_sandbox.c's sandbox, with `require` and the ctx API
 * opened in it), the protocol model and the workload loaded and checked against the
 * scenario (the options a model declares, the server kind it speaks to), and each client
 * given its clock, routes, id and ctx object, its start scheduled. What runs them:
 * client_run.c. */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "chunkcache.h"
#include "clientint.h"

/* ---- the options a model declares ---- */

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The declared options of the model on top of the stack, sorted, as "a, b, c" ("none"). */
static void options_list(lua_State *L, int decl, buf *out)
{
    size_t n = 0, cap = 0;
    const char **keys = NULL;
    lua_pushnil(L);
    while (lua_next(L, decl)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING) continue;
        if (n == cap) keys = xrealloc(keys, (cap = cap ? cap * 2 : 16) * sizeof *keys);
        keys[n++] = lua_tostring(L, -1); /* the key stays in the table: the string lives */
    }
    if (n > 1) qsort(keys, n, sizeof *keys, str_cmp);
    for (size_t i = 0; i < n; i++) buf_printf(out, "%s%s", i ? ", " : "", keys[i]);
    if (!n) buf_puts(out, "none");
    free(keys);
}

/* A model names the kind of server it speaks to in M.SERVER ("zookeeper"; none: "redis"):
 * a scenario that runs it against another kind is an error at the scenario. 0, or -1. */
static int check_server(lua_State *L, const scenario *sc, buf *err)
{
    int top = lua_gettop(L);
    lua_getfield(L, top, "SERVER");
    const char *want = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "redis";
    const char *have = sc->server ? sc->server : "redis";
    int rc = 0;
    if (strcmp(want, have) != 0) {
        buf_printf(err, "%s:1: the %s model speaks to %s servers, but the scenario's nodes run %s; "
                   "write server = \"%s\"", sc->path ? sc->path : sc->name, sc->protocol, want, have, want);
        rc = -1;
    }
    lua_settop(L, top);
    return rc;
}

/* Where an option was given: its scenario line, or the command line (line 0: an option that
 * `locklab compare --options` set). */
static void opt_where(buf *err, const char *file, int line)
{
    if (line > 0) buf_printf(err, "%s:%d: ", file, line);
    else buf_puts(err, "--options: ");
}

/* The model's M.CHECK(options), if it has one: what the options mean together (an option
 * that the chosen preset does not take). It returns nothing when they are fine, or the
 * name of the option at fault and why; the error names that option's line. 0, or -1. */
static int check_together(lua_State *L, const scenario *sc, const char *file, buf *err)
{
    int top = lua_gettop(L);
    if (lua_getfield(L, top, "CHECK") != LUA_TFUNCTION) {
        lua_settop(L, top);
        return 0;
    }
    client_push_options(L, sc);
    if (lua_pcall(L, 1, 2, 0) != LUA_OK) {
        char tmp[64];
        buf_printf(err, "%s: the %s model's CHECK failed: %s", file, sc->protocol, client_error_text(L, -1, tmp, sizeof tmp));
        lua_settop(L, top);
        return -1;
    }
    const char *key = lua_tostring(L, -2), *why = lua_tostring(L, -1);
    int rc = 0;
    if (key) {
        int line = 0;
        for (int i = 0; i < sc->noptions; i++)
            if (!strcmp(sc->options[i].key, key)) line = sc->options[i].line;
        opt_where(err, file, line);
        buf_printf(err, "options.%s %s", key, why ? why : "is not accepted with the others");
        rc = -1;
    }
    lua_settop(L, top);
    return rc;
}

/* Checks the scenario's options against what the protocol model (on top of the stack)
 * declares in M.OPTIONS — name = "integer" | "number" | "string" | "boolean", or a list
 * of the strings it may be — so a misspelt option or a value of the wrong kind is an
 * error at the scenario, not a default silently kept or a failure deep inside the model.
 * A model without OPTIONS (one of your own) is not checked. Then M.CHECK, if the model has
 * one (check_together). 0, or -1 with err. */
static int check_options(lua_State *L, const scenario *sc, buf *err)
{
    int top = lua_gettop(L);
    if (lua_getfield(L, top, "OPTIONS") != LUA_TTABLE) {
        lua_settop(L, top);
        return 0;
    }
    int decl = lua_gettop(L);
    const char *file = sc->path ? sc->path : sc->name;
    size_t before = err->len;
    for (int i = 0; i < sc->noptions && err->len == before; i++) {
        const option_cfg *o = &sc->options[i];
        if (!strcmp(o->key, "deadlock_bound")) { /* the checker's, for every model: no_deadlock's bound */
            if (!(o->type == OPT_STRING && scenario_parse_duration(o->s) > 0) && !(o->type == OPT_NUMBER && o->num > 0)) {
                opt_where(err, file, o->line);
                buf_puts(err, "options.deadlock_bound must be a duration such as \"2s\" (no_deadlock's bound)");
            }
            continue;
        }
        int t = lua_getfield(L, decl, o->key);
        const char *want = t == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        if (t == LUA_TNIL) {
            opt_where(err, file, o->line);
            buf_printf(err, "options.%s: the %s model has no such option (it takes: ", o->key, sc->protocol);
            options_list(L, decl, err);
            buf_puts(err, ")");
        } else if (t == LUA_TTABLE) { /* the strings it may be */
            int ok = 0;
            for (lua_Integer k = 1; o->type == OPT_STRING && !ok && lua_rawgeti(L, -1, k) == LUA_TSTRING; k++) {
                ok = strcmp(lua_tostring(L, -1), o->s) == 0;
                lua_pop(L, 1);
            }
            if (!ok) {
                lua_settop(L, decl + 1);
                opt_where(err, file, o->line);
                buf_printf(err, "options.%s must be one of ", o->key);
                for (lua_Integer k = 1; lua_rawgeti(L, decl + 1, k) == LUA_TSTRING; k++) {
                    buf_printf(err, "%s\"%s\"", k > 1 ? ", " : "", lua_tostring(L, -1));
                    lua_pop(L, 1);
                }
            }
        } else if (want) {
            int ok = !strcmp(want, "string")    ? o->type == OPT_STRING
                     : !strcmp(want, "boolean") ? o->type == OPT_BOOL
                     : !strcmp(want, "number")  ? o->type == OPT_NUMBER
                     : !strcmp(want, "integer") ? o->type == OPT_NUMBER && o->num == floor(o->num) &&
                                                      fabs(o->num) < 9007199254740992.0
                                                : 1;
            if (!ok) {
                opt_where(err, file, o->line);
                buf_printf(err, "options.%s must be %s %s", o->key, strchr("aeiou", want[0]) ? "an" : "a", want);
            }
        }
        lua_settop(L, decl);
    }
    lua_settop(L, top);
    if (err->len == before && check_together(L, sc, file, err) != 0) return -1;
    return err->len == before ? 0 : -1;
}

/* ---- the runtime ---- */

static const char bootstrap[] =
    "local ctx, M, workload = ...\n"
    "local lock = M.new(ctx, ctx:config())\n"
    "return workload(ctx, lock, ctx:config())\n";

static int load_file(lua_State *L, chunkcache *cc, const char *path, buf *err)
{
    buf b;
    buf_init(&b);
    int rd = ll_read_file(path, 64u << 20, &b);
    if (rd != LL_READ_OK) {
        if (rd == LL_READ_OPEN) buf_printf(err, "cannot open '%s'", path);
        else buf_printf(err, "cannot read '%s': %s", path,
                        rd == LL_READ_NOT_FILE ? "not a regular file (a FIFO or a device)" : strerror(errno));
        buf_release(&b);
        return -1;
    }
    char chunk[512];
    snprintf(chunk, sizeof chunk, "@%s", path);
    int st = chunkcache_load(cc, L, b.p ? b.p : "", b.len, chunk);
    buf_release(&b);
    if (st != LUA_OK) {
        buf_puts(err, lua_tostring(L, -1));
        lua_pop(L, 1);
        return -1;
    }
    return 0;
}

/* require(name): loads lua/clients/<name>.lua once (<name>.lua beside a model that sits
 * beside its scenario comes first: ll_model_file); names are plain words (no paths). */
static int client_require(lua_State *L)
{
    clientrt *rt = rt_of(L);
    const char *name = luaL_checkstring(L, 1);
    for (const char *p = name; *p; p++)
        if (!(*p == '_' || *p == '-' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
            return luaL_error(L, "require: '%s' is not a client module name", name);
    lua_getfield(L, LUA_REGISTRYINDEX, "locklab.loaded");
    lua_getfield(L, -1, name);
    if (!lua_isnil(L, -1)) return 1;
    lua_pop(L, 1);
    char path[1024];
    ll_model_file(rt->dir, rt->cx->sc->protocol, name, path, sizeof path); /* beside the model first */
    buf err;
    buf_init(&err);
    if (load_file(L, rt->cx->chunks, path, &err) != 0) {
        lua_pushstring(L, err.p);
        buf_release(&err);
        return lua_error(L);
    }
    lua_call(L, 0, 1);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, name);
    return 1;
}

/* "redisson@3.11.1" -> "3.11.1"; NULL or "HEAD" -> "HEAD". */
static const char *version_of(const char *spec)
{
    if (!spec) return "HEAD";
    const char *at = strchr(spec, '@');
    return at ? at + 1 : spec;
}

static void make_uuid(clientrt *rt, client *c)
{
    uint64_t st = rt->cx->sc->seed * 0x9e3779b97f4a7c15ULL + (uint64_t)c->cidx + 1;
    uint64_t a = ll_splitmix64(&st), b = ll_splitmix64(&st);
    snprintf(c->uuid, sizeof c->uuid, "%08x-%04x-4%03x-%04x-%012llx", (unsigned)(a >> 32), (unsigned)(a >> 16) & 0xffff,
             (unsigned)a & 0xfff, (unsigned)((b >> 48) & 0x3fff) | 0x8000, (unsigned long long)(b & 0xffffffffffffULL));
}

/* Loads the models and builds the clients into rt (built by clients_new); 0, or -1 with err. */
static int clients_load(clientrt *rt, const char *data_dir, buf *err)
{
    rt->dir = xstrdup(data_dir ? data_dir : ll_data_dir());
    rt->bodies = dict_new(2 * sizeof(char *));
    rt->version = version_of(rt->cx->sc->scripts);
    rt->boot_ref = rt->module_ref = rt->workload_ref = LUA_NOREF;
    rt->lib = rt->shared_lib ? (scriptlib *)rt->shared_lib : scriptlib_load(rt->dir, err);
    if (!rt->lib) return -1;
    lua_State *L = client_state_new(rt);
    if (!L) {
        buf_puts(err, "cannot create the clients' Lua state");
        return -1;
    }
    rt->L = L;
    /* in the sandbox: require (a module of lua/clients, once) and the ctx API */
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, "locklab.loaded");
    lua_pushlightuserdata(L, rt);
    lua_pushcclosure(L, client_require, 1);
    lua_setglobal(L, "require");
    ctx_open(L, rt);
    lua_gc(L, LUA_GCSTOP); /* what is built here stays: no collection until it is built */
    client_step_begin(rt, L); /* loading the models is a step too */

    char path[1024];
    const char *files[2] = { rt->cx->sc->protocol, "workload" };
    int *refs[2] = { &rt->module_ref, &rt->workload_ref };
    for (int i = 0; i < 2; i++) {
        ll_model_file(rt->dir, NULL, files[i], path, sizeof path); /* a protocol beside its scenario is a path */
        if (load_file(L, rt->cx->chunks, path, err) != 0) return -1;
        if (lua_pcall(L, 0, 1, 0) != LUA_OK) {
            char tmp[64];
            const char *m = client_error_text(L, -1, tmp, sizeof tmp);
            /* a string error names its place already; another names the file here */
            if (lua_type(L, -1) == LUA_TSTRING) buf_puts(err, m);
            else buf_printf(err, "%s: %s", path, m);
            return -1;
        }
        if (i == 0 && (!lua_istable(L, -1) || (lua_getfield(L, -1, "new"), !lua_isfunction(L, -1)))) {
            buf_printf(err, "%s: a protocol model must return a table with a function 'new'", path);
            return -1;
        }
        if (i == 0) lua_pop(L, 1);
        if (i == 0 && check_options(L, rt->cx->sc, err) != 0) return -1;
        if (i == 0 && check_server(L, rt->cx->sc, err) != 0) return -1;
        if (i == 1 && !lua_isfunction(L, -1)) {
            buf_printf(err, "%s: the workload must return a function", path);
            return -1;
        }
        *refs[i] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    if (chunkcache_load(rt->cx->chunks, L, bootstrap, sizeof bootstrap - 1, "=bootstrap") != LUA_OK) {
        buf_puts(err, lua_tostring(L, -1));
        return -1;
    }
    rt->boot_ref = luaL_ref(L, LUA_REGISTRYINDEX);

    for (int i = 0; i < rt->cx->nclients; i++) {
        client *c = &rt->clients[i];
        c->idx = rt->cx->nnodes + i;
        c->cidx = i;
        c->cfg = &rt->cx->sc->clients[i];
        lclock_init(&c->clock, WORLD_EPOCH_MS, c->cfg->clock.offset_ms, c->cfg->clock.drift);
        rt->cx->clocks[c->idx] = &c->clock;
        c->route = xmalloc((size_t)rt->cx->nnodes * sizeof *c->route);
        for (int n = 0; n < rt->cx->nnodes; n++) c->route[n] = n;
        make_uuid(rt, c);
        client **box = lua_newuserdatauv(L, sizeof *box, 0);
        *box = c;
        luaL_setmetatable(L, "locklab.ctx");
        c->ctx_ref = luaL_ref(L, LUA_REGISTRYINDEX);
        sched_push(rt->cx->q, c->cfg->start_us, EV_CLIENT_START, c->idx, 0, NULL);
    }
    lua_gc(L, LUA_GCRESTART);
    return 0;
}

clientrt *clients_new(core *cx, net *nt, cluster *cu, const char *data_dir, const scriptlib *lib, buf *err)
{
    clientrt *rt = xcalloc(1, sizeof *rt);
    rt->cx = cx;
    rt->net = nt;
    rt->cu = cu;
    rt->shared_lib = lib;
    rt->clients = xcalloc((size_t)cx->nclients, sizeof *rt->clients);
    client_cpu_users_add(1);
    int rc = clients_load(rt, data_dir, err);
    client_step_end();
    if (rc != 0) {
        clients_free(rt);
        return NULL;
    }
    return rt;
}

static void free_body(void *p)
{
    free(((char **)p)[0]);
}

void clients_free(clientrt *rt)
{
    if (!rt) return;
    for (int i = 0; i < rt->cx->nclients; i++) {
        client *c = &rt->clients[i];
        for (int s = 0; s < c->nsubs; s++) {
            for (int q = 0; q < c->subs[s].nqueue; q++) free(c->subs[s].queue[q]);
            free(c->subs[s].queue);
            free(c->subs[s].channel);
        }
        free(c->subs);
        for (int h = 0; h < c->nheld; h++)
            if (c->held[h].kind == EV_DELIVER) msg_free(c->held[h].data);
        free(c->held);
        for (int k = 0; k < c->ncoros; k++) {
            coro_drop_inbox(c->coros[k]);
            free(c->coros[k]->inbox);
            free(c->coros[k]->pending);
            free(c->coros[k]->gen_steps);
            free(c->coros[k]);
        }
        free(c->coros);
        free(c->route);
    }
    free(rt->clients);
    if (rt->L) lua_close(rt->L);
    client_cpu_users_add(-1);
    if (rt->lib != rt->shared_lib) scriptlib_free(rt->lib);
    dict_free(rt->bodies, free_body);
    free(rt->dir);
    free(rt->failure);
    free(rt);
}
