/* client.c — client processes: Lua coroutines running a protocol model (lua/clients/) and
 * the workload around it, against the ctx API.
 *
 * All clients of a world share one Lua state (one copy of the protocol code); each client
 * has its own ctx object and coroutines. A ctx call that waits (a command, a sleep, a
 * message, the critical section) records what the coroutine waits for and yields; the
 * engine resumes it with the result when the reply, message or timer event arrives. Waits
 * carry a generation number, so a late reply or a stale timer is recognised and ignored.
 *
 * The sandbox: base, string, table and math, without print/dofile/loadfile/load and without
 * math.random (randomness must come from ctx:random, through the chooser, to keep runs
 * reproducible). require() loads only lua/clients/<name>.lua. A model that runs too long
 * without yielding, or allocates without bound, is stopped with an error. */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chunkcache.h"
#include "dict.h"
#include "scriptlib.h"
#include "worldint.h"

#define CLIENT_MEMORY_LIMIT (256u << 20)
#define CLIENT_INSTRUCTION_BUDGET 20000000 /* per resume */
#define HOOK_EVERY 1000

typedef struct clientrt {
    lua_State *L;
    world *w;
    size_t mem, mem_limit;
    long budget;
    int boot_ref;       /* the bootstrap function */
    int module_ref;     /* the protocol module (a table with new) */
    int workload_ref;   /* the workload function */
    scriptlib *lib;
    const char *version;/* script version of the scenario ("3.11.1", "HEAD") */
    dict *bodies;       /* script id -> char* body (resolved once) */
    char *dir;          /* the data directory */
} clientrt;

static void *rt_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    clientrt *rt = ud;
    if (nsize == 0) {
        if (ptr) rt->mem -= osize;
        free(ptr);
        return NULL;
    }
    size_t old = ptr ? osize : 0;
    if (nsize > old && rt->mem + (nsize - old) > rt->mem_limit) return NULL;
    void *p = realloc(ptr, nsize);
    if (p) rt->mem = rt->mem - old + nsize;
    return p;
}

static void rt_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    clientrt *rt;
    lua_getallocf(L, (void **)&rt);
    rt->budget -= HOOK_EVERY;
    if (rt->budget < 0) luaL_error(L, "the client model ran %d instructions without waiting: an endless loop?", CLIENT_INSTRUCTION_BUDGET);
}

static world *W(lua_State *L)
{
    return lua_touserdata(L, lua_upvalueindex(1));
}

/* The client whose ctx is argument 1. */
static client *ctx_client(lua_State *L)
{
    client **box = luaL_checkudata(L, 1, "locklab.ctx");
    return *box;
}

static coro *current_coro(lua_State *L, client *c)
{
    for (int i = 0; i < c->ncoros; i++)
        if (c->coros[i]->L == L) return c->coros[i];
    luaL_error(L, "ctx used from outside its client's coroutines");
    return NULL;
}

static int coro_index(client *c, coro *co)
{
    (void)c;
    return co->idx;
}

/* A new coroutine of client c, its thread created from (and anchored in the registry of)
 * L's state; not started. */
static coro *coro_new(client *c, lua_State *L, int is_main)
{
    if (c->ncoros == c->capcoros) {
        c->capcoros = c->capcoros ? c->capcoros * 2 : 4;
        c->coros = xrealloc(c->coros, (size_t)c->capcoros * sizeof *c->coros);
    }
    coro *co = xcalloc(1, sizeof *co);
    co->idx = c->ncoros;
    co->L = lua_newthread(L);
    co->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    co->state = CO_READY;
    co->token = -1;
    co->is_main = is_main;
    c->coros[c->ncoros++] = co;
    return co;
}

static int64_t local_now(world *w, client *c)
{
    return lclock_read(&c->clock, w->now);
}

/* Arms a timer that fires when the client's clock has advanced by ms. */
static void arm_timer(world *w, client *c, coro *co, double ms)
{
    int64_t target = local_now(w, c) + (int64_t)(ms + 0.5);
    int64_t at = lclock_true_when(&c->clock, w->now, target);
    if (at == INT64_MAX) at = w->sc->duration + 1;
    sched_push(w->q, at, EV_TIMER, c->idx, ((uint64_t)coro_index(c, co) << 32) | (co->wait_gen & 0xffffffff), NULL);
}

static int node_arg(lua_State *L, world *w, int arg)
{
    const char *name = luaL_checkstring(L, arg);
    int i = scenario_node_index(w->sc, name);
    if (i < 0) return luaL_error(L, "unknown node '%s'", name);
    return i;
}

/* Appends a Lua value as a command argument the way a client library would send it. */
static void put_arg(lua_State *L, int idx, buf *b, size_t *offsets, int *argc)
{
    offsets[(*argc)++] = b->len;
    if (lua_type(L, idx) == LUA_TNUMBER) {
        if (lua_isinteger(L, idx)) buf_printf(b, "%lld", (long long)lua_tointeger(L, idx));
        else buf_printf(b, "%.17g", lua_tonumber(L, idx));
    } else if (lua_type(L, idx) == LUA_TSTRING) {
        size_t n;
        const char *s = lua_tolstring(L, idx, &n);
        buf_append(b, s, n);
    } else {
        luaL_error(L, "command arguments must be strings or numbers, not %s", luaL_typename(L, idx));
    }
    buf_putc(b, '\0');
}

/* Sends a request built in b (NUL-separated arguments) and makes the coroutine wait. */
static int send_request(lua_State *L, world *w, client *c, int node_idx, buf *b, size_t *offsets, int argc,
                        const char *label, double timeout_ms, int pubsub_conn)
{
    coro *co = current_coro(L, c);
    msg *m = xcalloc(1, sizeof *m);
    m->kind = MSG_REQUEST;
    m->from = c->idx;
    m->to = c->route[node_idx];
    m->coro = coro_index(c, co);
    m->req_id = ++c->next_req;
    m->pubsub_conn = pubsub_conn;
    m->argbuf = buf_steal(b);
    m->argc = argc;
    m->argv = xmalloc((size_t)argc * sizeof *m->argv);
    for (int i = 0; i < argc; i++) {
        size_t end = i + 1 < argc ? offsets[i + 1] - 1 : strlen(m->argbuf + offsets[argc - 1]) + offsets[argc - 1];
        m->argv[i] = (slice){ m->argbuf + offsets[i], end - offsets[i] };
    }
    m->label = xstrdup(label);
    reply_init(&m->r);
    hist_event *e = history_add(w->hist, w->now, H_REQUEST, c->idx, local_now(w, c));
    e->peer = m->to;
    e->a = (int64_t)m->req_id;
    e->text = xstrdup(label);
    co->state = CO_WAIT_REPLY;
    co->req_id = m->req_id;
    world_send(w, m);
    arm_timer(w, c, co, timeout_ms);
    return lua_yield(L, 0);
}

static double timeout_arg(lua_State *L, world *w, int idx)
{
    if (lua_isnoneornil(L, idx)) return (double)w->sc->timeout / 1000.0;
    double t = luaL_checknumber(L, idx);
    if (t < 0) luaL_error(L, "negative timeout");
    return t;
}

/* ctx:call(node, cmd, ...) -> value | nil, err */
static int ctx_call(lua_State *L)
{
    world *w = W(L);
    client *c = ctx_client(L);
    int node_idx = node_arg(L, w, 2);
    int top = lua_gettop(L);
    if (top < 3) return luaL_error(L, "ctx:call needs a command");
    size_t *offsets = xmalloc((size_t)top * sizeof *offsets);
    buf b;
    buf_init(&b);
    int argc = 0;
    for (int i = 3; i <= top; i++) put_arg(L, i, &b, offsets, &argc);
    buf label;
    buf_init(&label);
    for (int i = 0; i < argc; i++) {
        if (i) buf_putc(&label, ' ');
        buf_puts(&label, b.p + offsets[i]);
    }
    char *lab = buf_steal(&label);
    /* lua_yield does not return here: free before it. */
    char labcopy[256];
    snprintf(labcopy, sizeof labcopy, "%s", lab);
    free(lab);
    size_t offs[64];
    if (argc > 64) {
        free(offsets);
        buf_release(&b);
        return luaL_error(L, "too many arguments");
    }
    memcpy(offs, offsets, (size_t)argc * sizeof *offs);
    free(offsets);
    return send_request(L, w, c, node_idx, &b, offs, argc, labcopy, (double)w->sc->timeout / 1000.0, 0);
}

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
    qsort(keys, n, sizeof *keys, str_cmp);
    for (size_t i = 0; i < n; i++) buf_printf(out, "%s%s", i ? ", " : "", keys[i]);
    if (!n) buf_puts(out, "none");
    free(keys);
}

/* Checks the scenario's options against what the protocol model (on top of the stack)
 * declares in M.OPTIONS — name = "integer" | "number" | "string" | "boolean", or a list
 * of the strings it may be — so a misspelt option or a value of the wrong kind is an
 * error at the scenario, not a default silently kept or a failure deep inside the model.
 * A model without OPTIONS (one of your own) is not checked. 0, or -1 with err. */
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
        int t = lua_getfield(L, decl, o->key);
        const char *want = t == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        if (t == LUA_TNIL) {
            buf_printf(err, "%s:%d: options.%s: the %s model has no such option (it takes: ", file, o->line,
                       o->key, sc->protocol);
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
                buf_printf(err, "%s:%d: options.%s must be one of ", file, o->line, o->key);
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
            if (!ok) buf_printf(err, "%s:%d: options.%s must be %s %s", file, o->line, o->key,
                                strchr("aeiou", want[0]) ? "an" : "a", want);
        }
        lua_settop(L, decl);
    }
    lua_settop(L, top);
    return err->len == before ? 0 : -1;
}

static const char *script_body(lua_State *L, clientrt *rt, const char *name, const char **id_out)
{
    const char **cached = dict_get(rt->bodies, slice_cstr(name));
    if (cached) {
        *id_out = cached[1];
        return cached[0];
    }
    buf err, body;
    buf_init(&err);
    buf_init(&body);
    const script_info *si;
    if (strchr(name, '@')) si = scriptlib_find(rt->lib, name, &err);
    else {
        si = scriptlib_resolve(rt->lib, name, rt->version, &err);
        if (!si) {
            buf_reset(&err);
            si = scriptlib_resolve(rt->lib, name, "HEAD", &err);
        }
    }
    if (!si || scriptlib_body(rt->lib, si, &body, &err) != 0) {
        lua_pushstring(L, err.p ? err.p : "unknown script");
        buf_release(&err);
        buf_release(&body);
        lua_error(L);
    }
    buf_release(&err);
    const char **slot = dict_put(rt->bodies, slice_cstr(name), NULL);
    slot[0] = buf_steal(&body);
    slot[1] = si->id;
    *id_out = si->id;
    return slot[0];
}

/* ctx:eval(node, script, keys, args [, timeout]) -> value | nil, err */
static int ctx_eval(lua_State *L)
{
    world *w = W(L);
    client *c = ctx_client(L);
    clientrt *rt = w->rt;
    int node_idx = node_arg(L, w, 2);
    const char *name = luaL_checkstring(L, 3);
    luaL_checktype(L, 4, LUA_TTABLE);
    luaL_checktype(L, 5, LUA_TTABLE);
    double timeout = timeout_arg(L, w, 6);
    const char *id;
    const char *body = script_body(L, rt, name, &id);
    int nkeys = (int)luaL_len(L, 4), nargs = (int)luaL_len(L, 5);
    if (nkeys + nargs + 3 > 64) return luaL_error(L, "too many keys and arguments");
    size_t offs[64];
    int argc = 0;
    buf b;
    buf_init(&b);
    offs[argc++] = 0;
    buf_puts(&b, "EVAL");
    buf_putc(&b, '\0');
    offs[argc++] = b.len;
    buf_puts(&b, body);
    buf_putc(&b, '\0');
    offs[argc++] = b.len;
    buf_printf(&b, "%d", nkeys);
    buf_putc(&b, '\0');
    buf label;
    buf_init(&label);
    buf_printf(&label, "%s", id);
    for (int t = 4; t <= 5; t++) {
        int n = t == 4 ? nkeys : nargs;
        for (int i = 1; i <= n; i++) {
            lua_geti(L, t, i);
            if (lua_type(L, -1) != LUA_TSTRING && lua_type(L, -1) != LUA_TNUMBER) {
                buf_release(&b);
                buf_release(&label);
                return luaL_error(L, "script %s must be strings or numbers", t == 4 ? "keys" : "arguments");
            }
            put_arg(L, lua_gettop(L), &b, offs, &argc);
            buf_printf(&label, " %s", lua_tostring(L, -1));
            lua_pop(L, 1);
        }
    }
    char labcopy[512];
    snprintf(labcopy, sizeof labcopy, "%s", label.p);
    buf_release(&label);
    return send_request(L, w, c, node_idx, &b, offs, argc, labcopy, timeout, 0);
}

/* ctx:script(name) -> "name@version": which text the scenario's script version selects, so a
 * model can follow that version's calling convention (KEYS/ARGV changed across releases). */
static int ctx_script(lua_State *L)
{
    world *w = W(L);
    (void)ctx_client(L);
    const char *name = luaL_checkstring(L, 2);
    const char *id;
    script_body(L, w->rt, name, &id);
    lua_pushstring(L, id);
    return 1;
}

static int ctx_now(lua_State *L)
{
    world *w = W(L);
    lua_pushinteger(L, local_now(w, ctx_client(L)));
    return 1;
}

/* ctx:sleep(ms), or ctx:sleep(lo, hi): a random time in [lo, hi] ms (a retry's jitter) —
 * a window, like a message's delay, that the model checker explores at its later end only
 * where waking later reorders something. */
static int ctx_sleep(lua_State *L)
{
    world *w = W(L);
    client *c = ctx_client(L);
    double ms = luaL_checknumber(L, 2);
    size_t before = world_decisions_made(w);
    int64_t width = 0;
    if (!lua_isnoneornil(L, 3)) {
        lua_Integer lo = luaL_checkinteger(L, 2), hi = luaL_checkinteger(L, 3);
        if (lo > hi) return luaL_error(L, "ctx:sleep: empty range [%d, %d]", (int)lo, (int)hi);
        ms = (double)chooser_range(w->ch, lo, hi, "sleep");
        width = (hi - lo) * 1000;
    }
    if (ms < 0) ms = 0;
    coro *co = current_coro(L, c);
    co->state = CO_SLEEP;
    if (width > 0) world_window_decision(w, before, width);
    arm_timer(w, c, co, ms);
    return lua_yield(L, 0);
}

static int ctx_random(lua_State *L)
{
    world *w = W(L);
    (void)ctx_client(L);
    lua_Integer lo = luaL_checkinteger(L, 2), hi = luaL_checkinteger(L, 3);
    if (lo > hi) return luaL_error(L, "ctx:random: empty range [%d, %d]", (int)lo, (int)hi);
    lua_pushinteger(L, chooser_range(w->ch, lo, hi, "random"));
    return 1;
}

/* ctx:unique(lo, hi): a number that only needs to be unique (a lock value): not a decision,
 * so the model checker does not branch on it (chooser_unique). */
static int ctx_unique(lua_State *L)
{
    world *w = W(L);
    (void)ctx_client(L);
    lua_Integer lo = luaL_checkinteger(L, 2), hi = luaL_checkinteger(L, 3);
    if (lo > hi) return luaL_error(L, "ctx:unique: empty range [%d, %d]", (int)lo, (int)hi);
    lua_pushinteger(L, chooser_unique(w->ch, lo, hi));
    return 1;
}

static int find_sub(client *c, int node_idx, const char *channel)
{
    for (int i = 0; i < c->nsubs; i++)
        if (c->subs[i].shard == node_idx && c->subs[i].channel && !strcmp(c->subs[i].channel, channel)) return i;
    return -1;
}

/* ctx:subscribe(node, channel) -> subscription (after the server confirmed it) */
static int ctx_subscribe(lua_State *L)
{
    world *w = W(L);
    client *c = ctx_client(L);
    int node_idx = node_arg(L, w, 2);
    const char *channel = luaL_checkstring(L, 3);
    int s = find_sub(c, node_idx, channel);
    if (s < 0) {
        if (c->nsubs == c->capsubs) {
            c->capsubs = c->capsubs ? c->capsubs * 2 : 4;
            c->subs = xrealloc(c->subs, (size_t)c->capsubs * sizeof *c->subs);
        }
        s = c->nsubs++;
        c->subs[s] = (subscription){ .shard = node_idx, .node = c->route[node_idx], .channel = xstrdup(channel) };
    }
    c->subs[s].node = c->route[node_idx];
    size_t offs[2];
    int argc = 0;
    buf b;
    buf_init(&b);
    offs[argc++] = 0;
    buf_puts(&b, "SUBSCRIBE");
    buf_putc(&b, '\0');
    offs[argc++] = b.len;
    buf_puts(&b, channel);
    buf_putc(&b, '\0');
    char label[300];
    snprintf(label, sizeof label, "SUBSCRIBE %s", channel);
    coro *co = current_coro(L, c);
    co->sub = s;
    return send_request(L, w, c, node_idx, &b, offs, argc, label, (double)w->sc->timeout / 1000.0, 1);
}

/* ctx:unsubscribe(sub): drops the subscription (no wait). */
static int ctx_unsubscribe(lua_State *L)
{
    world *w = W(L);
    client *c = ctx_client(L);
    lua_Integer s = luaL_checkinteger(L, 2) - 1;
    if (s < 0 || s >= c->nsubs || !c->subs[s].channel) return 0;
    subscription *sub = &c->subs[s];
    node *n = &w->nodes[sub->node];
    /* Unsubscribing is modelled as immediate and reliable: a client that stops listening
     * simply ignores what arrives later. */
    if (n->up) {
        if (pubsub_unsubscribe(server_pubsub(n->srv), n->subconns[c->cidx].id, slice_cstr(sub->channel)))
            n->subconns[c->cidx].subscriptions--;
    }
    for (int i = 0; i < sub->nqueue; i++) free(sub->queue[i]);
    sub->nqueue = 0;
    free(sub->channel);
    sub->channel = NULL;
    return 0;
}

/* ctx:wait(sub, timeout_ms) -> message | nil */
static int ctx_wait(lua_State *L)
{
    world *w = W(L);
    client *c = ctx_client(L);
    lua_Integer s = luaL_checkinteger(L, 2) - 1;
    double ms = luaL_checknumber(L, 3);
    if (s < 0 || s >= c->nsubs || !c->subs[s].channel) return luaL_error(L, "ctx:wait: not a subscription");
    subscription *sub = &c->subs[s];
    if (sub->nqueue > 0) {
        char *m = sub->queue[0];
        memmove(sub->queue, sub->queue + 1, (size_t)(--sub->nqueue) * sizeof *sub->queue);
        lua_pushstring(L, m);
        free(m);
        return 1;
    }
    coro *co = current_coro(L, c);
    co->state = CO_WAIT_MSG;
    co->sub = (int)s;
    arm_timer(w, c, co, ms < 0 ? 0 : ms);
    return lua_yield(L, 0);
}

static int ctx_spawn(lua_State *L)
{
    world *w = W(L);
    client *c = ctx_client(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    int nargs = lua_gettop(L) - 2;
    coro *co = coro_new(c, L, 0);
    lua_State *T = co->L;
    lua_pushvalue(L, 2);
    for (int i = 0; i < nargs; i++) lua_pushvalue(L, 3 + i);
    lua_xmove(L, T, nargs + 1);
    sched_push(w->q, w->now, EV_SPAWN, c->idx, (uint64_t)co->idx, NULL);
    return 0;
}

static int ctx_id(lua_State *L)
{
    client *c = ctx_client(L);
    lua_pushfstring(L, "%s:1", c->uuid);
    return 1;
}

static int ctx_name(lua_State *L)
{
    lua_pushstring(L, ctx_client(L)->cfg->name);
    return 1;
}

static int ctx_log(lua_State *L)
{
    world *w = W(L);
    client *c = ctx_client(L);
    int n = lua_gettop(L);
    lua_getglobal(L, "string");
    lua_getfield(L, -1, "format");
    for (int i = 2; i <= n; i++) lua_pushvalue(L, i);
    lua_call(L, n - 1, 1);
    hist_event *e = history_add(w->hist, w->now, H_LOG, c->idx, local_now(w, c));
    e->text = xstrdup(lua_tostring(L, -1));
    return 0;
}

static void resource_write(world *w, client *c, int64_t token)
{
    int accepted = 1;
    if (w->sc->fencing && token >= 0) {
        if (token < w->resource_max_token) accepted = 0;
        else w->resource_max_token = token;
    }
    hist_event *e = history_add(w->hist, w->now, H_WRITE, c->idx, local_now(w, c));
    e->a = token;
    e->b = accepted;
}

/* ctx:critical(work_ms, token): enter, write, hold for work_ms of local time, write, leave. */
static int ctx_critical(lua_State *L)
{
    world *w = W(L);
    client *c = ctx_client(L);
    double work = luaL_checknumber(L, 2);
    int64_t token = lua_isnoneornil(L, 3) ? -1 : (int64_t)luaL_checkinteger(L, 3);
    coro *co = current_coro(L, c);
    hist_event *e = history_add(w->hist, w->now, H_CS_ENTER, c->idx, local_now(w, c));
    e->a = token;
    resource_write(w, c, token);
    co->state = CO_CRITICAL;
    co->token = token;
    arm_timer(w, c, co, work < 0 ? 0 : work);
    return lua_yield(L, 0);
}

/* ctx:record(kind [, detail]): the protocol's milestones for the checker and the trace. */
static int ctx_record(lua_State *L)
{
    world *w = W(L);
    client *c = ctx_client(L);
    static const struct { const char *name; hist_kind k; } kinds[] = {
        { "acquire", H_ACQUIRE }, { "acquired", H_ACQUIRED }, { "acquire_failed", H_ACQUIRE_FAILED },
        { "release", H_RELEASE }, { "released", H_RELEASED },
    };
    const char *k = luaL_checkstring(L, 2);
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if (strcmp(k, kinds[i].name)) continue;
        hist_event *e = history_add(w->hist, w->now, kinds[i].k, c->idx, local_now(w, c));
        if (lua_isinteger(L, 3)) e->a = lua_tointeger(L, 3);
        else if (lua_type(L, 3) == LUA_TSTRING) e->text = xstrdup(lua_tostring(L, 3));
        return 0;
    }
    return luaL_error(L, "ctx:record: unknown milestone '%s'", k);
}

static int ctx_nodes(lua_State *L)
{
    world *w = W(L);
    (void)ctx_client(L);
    lua_newtable(L);
    int k = 1;
    for (int i = 0; i < w->nnodes; i++) {
        if (w->sc->nodes[i].master >= 0) continue;
        lua_pushstring(L, w->sc->nodes[i].name);
        lua_rawseti(L, -2, k++);
    }
    return 1;
}

static void push_ms(lua_State *L, int64_t us)
{
    if (us % 1000 == 0) lua_pushinteger(L, us / 1000);
    else lua_pushnumber(L, (double)us / 1000.0);
}

static int ctx_config(lua_State *L)
{
    world *w = W(L);
    client *c = ctx_client(L);
    const scenario *sc = w->sc;
    const client_cfg *cc = c->cfg;
    int64_t lease = cc->lease != -1 ? cc->lease : sc->lease;
    int64_t wait = cc->wait != -1 ? cc->wait : sc->wait;
    lua_newtable(L);
    lua_pushstring(L, sc->lock ? sc->lock : "lock");
    lua_setfield(L, -2, "lock");
    if (lease >= 0) {
        push_ms(L, lease);
        lua_setfield(L, -2, "lease");
    }
    push_ms(L, wait);
    lua_setfield(L, -2, "wait");
    push_ms(L, cc->work);
    lua_setfield(L, -2, "work");
    push_ms(L, cc->think);
    lua_setfield(L, -2, "think");
    push_ms(L, sc->timeout);
    lua_setfield(L, -2, "timeout");
    lua_pushinteger(L, cc->rounds);
    lua_setfield(L, -2, "rounds");
    lua_pushboolean(L, sc->fencing);
    lua_setfield(L, -2, "fencing");
    lua_pushstring(L, sc->mode ? sc->mode : "single");
    lua_setfield(L, -2, "mode");
    lua_newtable(L);
    for (int i = 0; i < sc->noptions; i++) {
        const option_cfg *o = &sc->options[i];
        if (o->type == OPT_STRING) lua_pushstring(L, o->s);
        else if (o->type == OPT_NUMBER) lua_pushnumber(L, o->num);
        else lua_pushboolean(L, o->b);
        lua_setfield(L, -2, o->key);
    }
    lua_setfield(L, -2, "options");
    return 1;
}

static const luaL_Reg ctx_methods[] = {
    { "call", ctx_call }, { "eval", ctx_eval }, { "now", ctx_now }, { "sleep", ctx_sleep },
    { "random", ctx_random }, { "unique", ctx_unique }, { "subscribe", ctx_subscribe }, { "unsubscribe", ctx_unsubscribe },
    { "wait", ctx_wait }, { "spawn", ctx_spawn }, { "id", ctx_id }, { "name", ctx_name },
    { "log", ctx_log }, { "critical", ctx_critical }, { "record", ctx_record },
    { "nodes", ctx_nodes }, { "config", ctx_config }, { "script", ctx_script }, { NULL, NULL },
};

/* ---- resuming coroutines ---- */

static void client_fail(world *w, client *c, const char *what)
{
    hist_event *e = history_add(w->hist, w->now, H_ERROR, c->idx, local_now(w, c));
    e->text = xstrdup(what);
    if (!w->failed) {
        w->failed = 1;
        buf b;
        buf_init(&b);
        buf_printf(&b, "client %s: %s", c->cfg->name, what);
        w->failure = buf_steal(&b);
    }
}

static void client_finish(world *w, client *c)
{
    c->done = 1;
    history_add(w->hist, w->now, H_END, c->idx, local_now(w, c));
}

/* Resumes co with nargs values already pushed on its stack. */
static void coro_resume(world *w, client *c, coro *co, int nargs)
{
    clientrt *rt = w->rt;
    lua_State *T = co->L;
    co->state = CO_RUNNING;
    co->wait_gen++;
    rt->budget = CLIENT_INSTRUCTION_BUDGET;
    int nres = 0;
    int st = lua_resume(T, NULL, nargs, &nres);
    if (st == LUA_YIELD) {
        lua_pop(T, nres);
        if (co->state == CO_RUNNING) client_fail(w, c, "the model called coroutine.yield itself; use the ctx API to wait");
        return;
    }
    if (st == LUA_OK) {
        lua_pop(T, nres);
        co->state = CO_DONE;
        if (co->is_main) client_finish(w, c);
        return;
    }
    const char *m = lua_tostring(T, -1);
    luaL_traceback(rt->L, T, m ? m : "error object is not a string", 0);
    client_fail(w, c, lua_tostring(rt->L, -1));
    lua_pop(rt->L, 1);
    co->state = CO_DONE;
}

/* Pushes a reply the way a client library hands it over: (value) or (nil, error). */
static int push_reply(lua_State *L, const reply *r)
{
    switch (r->type) {
    case REPLY_NIL:
    case REPLY_NIL_ARRAY: lua_pushnil(L); return 1;
    case REPLY_STATUS:
    case REPLY_BULK: lua_pushlstring(L, r->str, r->len); return 1;
    case REPLY_ERROR:
        lua_pushnil(L);
        lua_pushlstring(L, r->str, r->len);
        return 2;
    case REPLY_INTEGER: lua_pushinteger(L, r->integer); return 1;
    case REPLY_ARRAY:
    case REPLY_MULTI:
        lua_createtable(L, (int)r->n, 0);
        for (size_t i = 0; i < r->n; i++) {
            if (r->elem[i].type == REPLY_NIL || r->elem[i].type == REPLY_NIL_ARRAY) lua_pushboolean(L, 0);
            else if (r->elem[i].type == REPLY_ERROR) lua_pushlstring(L, r->elem[i].str, r->elem[i].len);
            else push_reply(L, &r->elem[i]);
            lua_rawseti(L, -2, (lua_Integer)i + 1);
        }
        return 1;
    }
    return 0;
}

static void on_reply(world *w, client *c, msg *m)
{
    coro *co = m->coro < c->ncoros ? c->coros[m->coro] : NULL;
    hist_event *e = history_add(w->hist, w->now, H_REPLY, c->idx, local_now(w, c));
    e->peer = m->from;
    e->a = (int64_t)m->req_id;
    e->text = m->label ? xstrdup(m->label) : NULL;
    buf b;
    buf_init(&b);
    reply_to_brief(&m->r, &b);
    e->reply = buf_steal(&b);
    if (!co || co->state != CO_WAIT_REPLY || co->req_id != m->req_id) {
        e->b = 0; /* late: its caller already timed out */
        return;
    }
    const char *label = m->label ? m->label : "";
    if (!strncmp(label, "SUBSCRIBE ", 10) && m->r.type != REPLY_ERROR) {
        /* A confirmed subscription: hand back its handle. */
        c->subs[co->sub].node = m->from;
        lua_pushinteger(co->L, co->sub + 1);
        coro_resume(w, c, co, 1);
        return;
    }
    int n = push_reply(co->L, &m->r);
    coro_resume(w, c, co, n);
}

static void on_pubsub(world *w, client *c, msg *m)
{
    hist_event *e = history_add(w->hist, w->now, H_PUBLISH, c->idx, local_now(w, c));
    e->peer = m->from;
    e->text = xstrdup(m->label ? m->label : "");
    e->reply = xmemdup(m->r.str ? m->r.str : "", m->r.len);
    int s = -1;
    for (int i = 0; i < c->nsubs; i++)
        if (c->subs[i].channel && c->subs[i].node == m->from && !strcmp(c->subs[i].channel, m->label)) s = i;
    if (s < 0) return;
    for (int i = 0; i < c->ncoros; i++) {
        coro *co = c->coros[i];
        if (co->state == CO_WAIT_MSG && co->sub == s) {
            lua_pushlstring(co->L, m->r.str, m->r.len);
            coro_resume(w, c, co, 1);
            return;
        }
    }
    subscription *sub = &c->subs[s];
    if (sub->nqueue == sub->capqueue) {
        sub->capqueue = sub->capqueue ? sub->capqueue * 2 : 4;
        sub->queue = xrealloc(sub->queue, (size_t)sub->capqueue * sizeof *sub->queue);
    }
    sub->queue[sub->nqueue++] = xmemdup(m->r.str, m->r.len);
}

static void on_timer(world *w, client *c, uint64_t gen)
{
    int ci = (int)(gen >> 32);
    if (ci >= c->ncoros) return;
    coro *co = c->coros[ci];
    if ((co->wait_gen & 0xffffffff) != (gen & 0xffffffff)) return;
    switch (co->state) {
    case CO_SLEEP: coro_resume(w, c, co, 0); break;
    case CO_WAIT_REPLY: {
        hist_event *e = history_add(w->hist, w->now, H_TIMEOUT, c->idx, local_now(w, c));
        e->a = (int64_t)co->req_id;
        lua_pushnil(co->L);
        lua_pushliteral(co->L, "timeout");
        coro_resume(w, c, co, 2);
        break;
    }
    case CO_WAIT_MSG:
        lua_pushnil(co->L);
        coro_resume(w, c, co, 1);
        break;
    case CO_CRITICAL:
        resource_write(w, c, co->token);
        history_add(w->hist, w->now, H_CS_EXIT, c->idx, local_now(w, c))->a = co->token;
        coro_resume(w, c, co, 0);
        break;
    default: break;
    }
}

static void hold(client *c, const event *e)
{
    if (c->nheld == c->capheld) {
        c->capheld = c->capheld ? c->capheld * 2 : 8;
        c->held = xrealloc(c->held, (size_t)c->capheld * sizeof *c->held);
    }
    c->held[c->nheld++] = *e;
}

static int paused(const world *w, const client *c)
{
    return w->now < c->paused_until;
}

int client_deliver(world *w, client *c, event *e)
{
    if (c->dead || c->done) return 0;
    if (paused(w, c)) {
        hold(c, e);
        return 1;
    }
    msg *m = e->data;
    if (m->kind == MSG_REPLY) on_reply(w, c, m);
    else if (m->kind == MSG_PUBSUB) on_pubsub(w, c, m);
    return 0;
}

static void start_client(world *w, client *c)
{
    clientrt *rt = w->rt;
    lua_State *L = rt->L;
    c->started = 1;
    history_add(w->hist, w->now, H_START, c->idx, local_now(w, c));
    coro *co = coro_new(c, L, 1);
    lua_State *T = co->L;
    lua_rawgeti(T, LUA_REGISTRYINDEX, rt->boot_ref);
    lua_rawgeti(T, LUA_REGISTRYINDEX, c->ctx_ref);
    lua_rawgeti(T, LUA_REGISTRYINDEX, rt->module_ref);
    lua_rawgeti(T, LUA_REGISTRYINDEX, rt->workload_ref);
    coro_resume(w, c, co, 3);
}

void client_event(world *w, client *c, event *e)
{
    if (c->dead || c->done) return;
    if (e->kind == EV_PAUSE_END) {
        if (w->now < c->paused_until) return; /* a longer pause began meanwhile */
        history_add(w->hist, w->now, H_FAULT_END, c->idx, local_now(w, c))->text = xstrdup("GC pause ends");
        int n = c->nheld;
        event *held = c->held;
        c->held = NULL;
        c->nheld = c->capheld = 0;
        for (int i = 0; i < n; i++) sched_push(w->q, w->now, held[i].kind, held[i].actor, held[i].gen, held[i].data);
        free(held);
        return;
    }
    if (paused(w, c)) {
        hold(c, e);
        return;
    }
    switch (e->kind) {
    case EV_CLIENT_START: start_client(w, c); break;
    case EV_TIMER: on_timer(w, c, e->gen); break;
    case EV_SPAWN: {
        int ci = (int)e->gen;
        if (ci < c->ncoros && c->coros[ci]->state == CO_READY) {
            coro *co = c->coros[ci];
            coro_resume(w, c, co, lua_gettop(co->L) - 1);
        }
        break;
    }
    default: break;
    }
}

void client_pause(world *w, client *c, int64_t duration)
{
    int64_t until = w->now + duration;
    if (until > c->paused_until) c->paused_until = until;
    sched_push(w->q, c->paused_until, EV_PAUSE_END, c->idx, 0, NULL);
}

void client_crash(world *w, client *c)
{
    if (c->dead) return;
    c->dead = 1;
    for (int i = 0; i < w->nnodes; i++) {
        node *n = &w->nodes[i];
        pubsub_drop_conn(server_pubsub(n->srv), n->conns[c->cidx].id);
        pubsub_drop_conn(server_pubsub(n->srv), n->subconns[c->cidx].id);
        n->conns[c->cidx].subscriptions = n->subconns[c->cidx].subscriptions = 0;
    }
    /* Held events carry messages: free them. */
    for (int i = 0; i < c->nheld; i++)
        if (c->held[i].kind == EV_DELIVER) msg_free(c->held[i].data);
    c->nheld = 0;
}

void clients_route(world *w, int shard, int node_idx)
{
    for (int i = 0; i < w->nclients; i++) w->clients[i].route[shard] = node_idx;
}

int clients_all_done(const world *w)
{
    for (int i = 0; i < w->nclients; i++)
        if (!w->clients[i].done && !w->clients[i].dead) return 0;
    return 1;
}

/* ---- the runtime ---- */

static const char bootstrap[] =
    "local ctx, M, workload = ...\n"
    "local lock = M.new(ctx, ctx:config())\n"
    "return workload(ctx, lock, ctx:config())\n";

static int load_file(lua_State *L, chunkcache *cc, const char *path, buf *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        buf_printf(err, "cannot open '%s'", path);
        return -1;
    }
    buf b;
    buf_init(&b);
    char tmp[4096];
    size_t n;
    while ((n = fread(tmp, 1, sizeof tmp, f)) > 0) buf_append(&b, tmp, n);
    fclose(f);
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
static int rt_require(lua_State *L)
{
    world *w = W(L);
    const char *name = luaL_checkstring(L, 1);
    for (const char *p = name; *p; p++)
        if (!(*p == '_' || *p == '-' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
            return luaL_error(L, "require: '%s' is not a client module name", name);
    lua_getfield(L, LUA_REGISTRYINDEX, "locklab.loaded");
    lua_getfield(L, -1, name);
    if (!lua_isnil(L, -1)) return 1;
    lua_pop(L, 1);
    char path[1024];
    ll_model_file(w->rt->dir, w->sc->protocol, name, path, sizeof path); /* beside the model first */
    buf err;
    buf_init(&err);
    if (load_file(L, w->chunks, path, &err) != 0) {
        lua_pushstring(L, err.p);
        buf_release(&err);
        return lua_error(L);
    }
    lua_call(L, 0, 1);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, name);
    return 1;
}

static int no_random(lua_State *L)
{
    return luaL_error(L, "math.random is not available to client models: use ctx:random(lo, hi), which the simulation can replay");
}

static void open_sandbox(lua_State *L, world *w)
{
    luaL_requiref(L, "_G", luaopen_base, 1);
    luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
    luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
    luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
    lua_pop(L, 4);
    static const char *const banned[] = { "dofile", "loadfile", "load", "print", "collectgarbage", NULL };
    for (int i = 0; banned[i]; i++) {
        lua_pushnil(L);
        lua_setglobal(L, banned[i]);
    }
    lua_getglobal(L, "math");
    lua_pushcfunction(L, no_random);
    lua_setfield(L, -2, "random");
    lua_pushcfunction(L, no_random);
    lua_setfield(L, -2, "randomseed");
    lua_pop(L, 1);
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, "locklab.loaded");
    lua_pushlightuserdata(L, w);
    lua_pushcclosure(L, rt_require, 1);
    lua_setglobal(L, "require");
    luaL_newmetatable(L, "locklab.ctx");
    lua_newtable(L);
    lua_pushlightuserdata(L, w);
    luaL_setfuncs(L, ctx_methods, 1);
    lua_setfield(L, -2, "__index");
    lua_pushliteral(L, "locklab.ctx");
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
}

/* "redisson@3.11.1" -> "3.11.1"; NULL or "HEAD" -> "HEAD". */
static const char *version_of(const char *spec)
{
    if (!spec) return "HEAD";
    const char *at = strchr(spec, '@');
    return at ? at + 1 : spec;
}

static void make_uuid(world *w, client *c)
{
    uint64_t st = w->sc->seed * 0x9e3779b97f4a7c15ULL + (uint64_t)c->cidx + 1;
    uint64_t a = ll_splitmix64(&st), b = ll_splitmix64(&st);
    snprintf(c->uuid, sizeof c->uuid, "%08x-%04x-4%03x-%04x-%012llx", (unsigned)(a >> 32), (unsigned)(a >> 16) & 0xffff,
             (unsigned)a & 0xfff, (unsigned)((b >> 48) & 0x3fff) | 0x8000, (unsigned long long)(b & 0xffffffffffffULL));
}

int clients_init(world *w, const char *data_dir, buf *err)
{
    clientrt *rt = xcalloc(1, sizeof *rt);
    w->rt = rt;
    rt->w = w;
    rt->mem_limit = CLIENT_MEMORY_LIMIT;
    rt->dir = xstrdup(data_dir ? data_dir : ll_data_dir());
    rt->bodies = dict_new(2 * sizeof(char *));
    rt->version = version_of(w->sc->scripts);
    rt->boot_ref = rt->module_ref = rt->workload_ref = LUA_NOREF;
    rt->lib = w->shared_lib ? (scriptlib *)w->shared_lib : scriptlib_load(rt->dir, err);
    if (!rt->lib) return -1;
    lua_State *L = lua_newstate(rt_alloc, rt);
    if (!L) {
        buf_puts(err, "cannot create the clients' Lua state");
        return -1;
    }
    rt->L = L;
    lua_gc(L, LUA_GCSTOP); /* what is built here stays: no collection until it is built */
    open_sandbox(L, w);
    lua_sethook(L, rt_hook, LUA_MASKCOUNT, HOOK_EVERY);
    rt->budget = CLIENT_INSTRUCTION_BUDGET;

    char path[1024];
    const char *files[2] = { w->sc->protocol, "workload" };
    int *refs[2] = { &rt->module_ref, &rt->workload_ref };
    for (int i = 0; i < 2; i++) {
        ll_model_file(rt->dir, NULL, files[i], path, sizeof path); /* a protocol beside its scenario is a path */
        if (load_file(L, w->chunks, path, err) != 0) return -1;
        if (lua_pcall(L, 0, 1, 0) != LUA_OK) {
            buf_printf(err, "%s", lua_tostring(L, -1));
            return -1;
        }
        if (i == 0 && (!lua_istable(L, -1) || (lua_getfield(L, -1, "new"), !lua_isfunction(L, -1)))) {
            buf_printf(err, "%s: a protocol model must return a table with a function 'new'", path);
            return -1;
        }
        if (i == 0) lua_pop(L, 1);
        if (i == 0 && check_options(L, w->sc, err) != 0) return -1;
        if (i == 1 && !lua_isfunction(L, -1)) {
            buf_printf(err, "%s: the workload must return a function", path);
            return -1;
        }
        *refs[i] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    if (chunkcache_load(w->chunks, L, bootstrap, sizeof bootstrap - 1, "=bootstrap") != LUA_OK) {
        buf_puts(err, lua_tostring(L, -1));
        return -1;
    }
    rt->boot_ref = luaL_ref(L, LUA_REGISTRYINDEX);

    for (int i = 0; i < w->nclients; i++) {
        client *c = &w->clients[i];
        c->idx = w->nnodes + i;
        c->cidx = i;
        c->cfg = &w->sc->clients[i];
        lclock_init(&c->clock, w->epoch_ms, c->cfg->clock.offset_ms, c->cfg->clock.drift);
        c->route = xmalloc((size_t)w->nnodes * sizeof *c->route);
        for (int n = 0; n < w->nnodes; n++) c->route[n] = n;
        make_uuid(w, c);
        client **box = lua_newuserdatauv(L, sizeof *box, 0);
        *box = c;
        luaL_setmetatable(L, "locklab.ctx");
        c->ctx_ref = luaL_ref(L, LUA_REGISTRYINDEX);
        sched_push(w->q, c->cfg->start, EV_CLIENT_START, c->idx, 0, NULL);
    }
    lua_gc(L, LUA_GCRESTART);
    return 0;
}

static void free_body(void *p)
{
    free(((char **)p)[0]);
}

void clients_release(world *w)
{
    clientrt *rt = w->rt;
    for (int i = 0; i < w->nclients; i++) {
        client *c = &w->clients[i];
        for (int s = 0; s < c->nsubs; s++) {
            for (int q = 0; q < c->subs[s].nqueue; q++) free(c->subs[s].queue[q]);
            free(c->subs[s].queue);
            free(c->subs[s].channel);
        }
        free(c->subs);
        for (int h = 0; h < c->nheld; h++)
            if (c->held[h].kind == EV_DELIVER) msg_free(c->held[h].data);
        free(c->held);
        for (int k = 0; k < c->ncoros; k++) free(c->coros[k]);
        free(c->coros);
        free(c->route);
    }
    if (!rt) return;
    if (rt->L) lua_close(rt->L);
    if (rt->lib != w->shared_lib) scriptlib_free(rt->lib);
    dict_free(rt->bodies, free_body);
    free(rt->dir);
    free(rt);
    w->rt = NULL;
}
