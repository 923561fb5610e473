/* client_ctx.c — the ctx API: what a client model (lua/clients/) calls to act on the world.
 * The requests to nodes (call, eval, script, send, send_eval, receive, abandon, subscribe,
 * unsubscribe, wait) are client_requests.c's, the clock's methods client_time.c's; the rest
 * (sleeping, deciding, the workload's milestones, the model's own facts) is here.
 *
 *   ctx:call(node, cmd, ...)        a command; its reply, or nil and the error (or "timeout")
 *   ctx:eval(node, script, keys, args [, timeout])
 *                                   a script of lua/redis/ (by name, at the scenario's
 *                                   version), sent whole with EVAL
 *   ctx:script(name)                which "name@version" the scenario's version selects
 *   ctx:subscribe(node, channel)    a subscription, once the node confirmed it
 *   ctx:unsubscribe(sub), ctx:wait(sub, timeout_ms)
 *   ctx:send(node, cmd, ...), ctx:send_eval(node, script, keys, args)
 *                                   the same requests without waiting: each returns its id
 *   ctx:receive([timeout])          the next reply to any of them as it arrives: id, value
 *                                   (parallel sends: Redlock clients that ask every node at
 *                                   once and decide at the first quorum, or at a deadline)
 *   ctx:abandon(["timeout"])        stop awaiting them (late replies are "no longer awaited",
 *                                   or with "timeout" timed out, as a call's)
 *   ctx:sleep(ms) / ctx:sleep(lo, hi)
 *   ctx:now(), ctx:monotonic(), ctx:instant(), ctx:before(instant)
 *                                   the client's clock (client_time.c)
 *   ctx:random(lo, hi)              a decision of the chooser (replayed, explored)
 *   ctx:unique(lo, hi)              a number that only needs to be unique (not a decision)
 *   ctx:critical(work_ms, token)    the critical section, writing to the fenced resource
 *   ctx:record(kind [, detail]), ctx:log(fmt, ...)
 *   ctx:spawn(fn, ...), ctx:id(), ctx:name(), ctx:nodes(), ctx:config()
 *
 * A call that waits (a request, a sleep, a message, the critical section) records in the
 * coroutine what it waits for, arms its timer, and yields; the runtime (client_run.c) resumes
 * it when the reply, message or timer arrives. Requests go through the net to the node the
 * client's route names for the node asked.
 *
 * Bounds (model code must not exhaust the tool): a request's arguments are at most
 * CTX_REQUEST_MAX bytes in all; a log line keeps its first CTX_LOG_MAX bytes and says how
 * many it cut; durations must be finite numbers of ms (one beyond any run's end simply
 * never comes within it); ctx:random and ctx:sleep ranges must fit the chooser's 64-bit
 * arithmetic; and one step (a resume to the next wait) may do at most CTX_STEP_ACTIONS
 * things that leave a trace (requests, spawns, logs, milestones). No heap memory is held
 * across a Lua error: every check that can raise comes before a buffer is filled. */
#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clientint.h"

/* The scenario's options (scenario.options) as a new table on L's stack: what a model's
 * cfg.options and its CHECK see. */
void client_push_options(lua_State *L, const scenario *sc)
{
    lua_newtable(L);
    for (int i = 0; i < sc->noptions; i++) {
        const option_cfg *o = &sc->options[i];
        if (o->type == OPT_STRING) lua_pushstring(L, o->s);
        else if (o->type == OPT_NUMBER) lua_pushnumber(L, o->num);
        else lua_pushboolean(L, o->b);
        lua_setfield(L, -2, o->key);
    }
}

/* ctx:sleep(ms), or ctx:sleep(lo, hi): a random time in [lo, hi] ms (a retry's jitter) —
 * a window, like a message's delay, that the model checker explores at its later end only
 * where waking later reorders something. */
static int ctx_sleep(lua_State *L)
{
    clientrt *rt = rt_of(L);
    client *c = ctx_client(L);
    double ms = ms_arg(L, 2, "sleep");
    size_t before = core_decisions_made(rt->cx);
    int64_t width = 0;
    if (!lua_isnoneornil(L, 3)) {
        lua_Integer lo = luaL_checkinteger(L, 2), hi = luaL_checkinteger(L, 3);
        if (lo > hi) return luaL_error(L, "ctx:sleep: empty range [%I, %I]", lo, hi);
        /* the window in µs must fit 64 bits: far beyond any run's end anyway */
        if (lo < -(lua_Integer)CTX_MS_FAR / 2 || hi > (lua_Integer)CTX_MS_FAR / 2)
            return luaL_error(L, "ctx:sleep: the range [%I, %I] goes beyond +-4.5e15 ms", lo, hi);
        ms = (double)chooser_range(rt->cx->ch, lo, hi, "sleep");
        width = (hi - lo) * 1000;
    }
    if (ms < 0) ms = 0;
    coro *co = current_coro(L, c);
    co->state = CO_SLEEP;
    /* each ms more wakes it one ms of its own clock later: at most this many true µs (a
     * unit too large only makes the explorer take smaller steps) */
    double rate = 1 + c->clock.drift;
    if (width > 0) core_window_decision(rt->cx, before, (int64_t)(1000.0 / (rate > 0.01 ? rate : 0.01)) + 2);
    arm_timer(rt, c, co, ms);
    return lua_yield(L, 0);
}

static int ctx_random(lua_State *L)
{
    clientrt *rt = rt_of(L);
    (void)ctx_client(L);
    lua_Integer lo = luaL_checkinteger(L, 2), hi = luaL_checkinteger(L, 3);
    if (lo > hi) return luaL_error(L, "ctx:random: empty range [%I, %I]", lo, hi);
    /* the chooser counts the values of a range in 64 signed bits: hi - lo + 1 must fit */
    if ((uint64_t)hi - (uint64_t)lo >= (uint64_t)INT64_MAX)
        return luaL_error(L, "ctx:random: the range [%I, %I] has more than 2^63 - 1 values", lo, hi);
    lua_pushinteger(L, chooser_range(rt->cx->ch, lo, hi, "random"));
    return 1;
}

/* ctx:unique(lo, hi): a number that only needs to be unique (a lock value): not a decision,
 * so the model checker does not branch on it (chooser_unique). */
static int ctx_unique(lua_State *L)
{
    clientrt *rt = rt_of(L);
    (void)ctx_client(L);
    lua_Integer lo = luaL_checkinteger(L, 2), hi = luaL_checkinteger(L, 3);
    if (lo > hi) return luaL_error(L, "ctx:unique: empty range [%I, %I]", lo, hi);
    lua_pushinteger(L, chooser_unique(rt->cx->ch, lo, hi));
    return 1;
}

static int ctx_spawn(lua_State *L)
{
    clientrt *rt = rt_of(L);
    client *c = ctx_client(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    step_action(L, rt, "spawn");
    int nargs = lua_gettop(L) - 2;
    luaL_checkstack(L, nargs + 2, "ctx:spawn: too many arguments"); /* the copies, and the thread */
    coro *co = coro_new(c, L, 0);
    lua_State *T = co->L;
    if (!lua_checkstack(T, nargs + 1)) return luaL_error(L, "ctx:spawn: no memory for %d arguments", nargs); /* never scheduled */
    lua_pushvalue(L, 2);
    for (int i = 0; i < nargs; i++) lua_pushvalue(L, 3 + i);
    lua_xmove(L, T, nargs + 1);
    sched_push(rt->cx->q, rt->cx->now_us, EV_SPAWN, c->idx, (uint64_t)co->idx, NULL);
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

/* A copy of a model's text for the history: at most CTX_LOG_MAX bytes, cut at a
 * character's start with a mark saying how much went. */
static char *cut_text(const char *text, size_t len)
{
    if (len <= CTX_LOG_MAX) return xstrdup(text);
    size_t keep = CTX_LOG_MAX;
    while (keep > 0 && ((unsigned char)text[keep] & 0xc0) == 0x80) keep--;
    return xformat("%.*s… [%zu more bytes cut]", (int)keep, text, len - keep);
}

static int ctx_log(lua_State *L)
{
    clientrt *rt = rt_of(L);
    client *c = ctx_client(L);
    int n = lua_gettop(L);
    luaL_checkstack(L, n + 1, "ctx:log: too many arguments"); /* string, format and the copies */
    lua_getglobal(L, "string");
    lua_getfield(L, -1, "format");
    for (int i = 2; i <= n; i++) lua_pushvalue(L, i);
    lua_call(L, n - 1, 1);
    step_action(L, rt, "log");
    size_t len;
    const char *text = lua_tolstring(L, -1, &len);
    history_add(rt->cx->hist, rt->cx->now_us, H_LOG, c->idx, local_now(rt, c))->text = cut_text(text, len);
    return 0;
}

/* ctx:critical(work_ms, token): enter, write, hold for work_ms of local time, write, leave. */
static int ctx_critical(lua_State *L)
{
    clientrt *rt = rt_of(L);
    client *c = ctx_client(L);
    double work = ms_arg(L, 2, "critical");
    int64_t token = lua_isnoneornil(L, 3) ? -1 : (int64_t)luaL_checkinteger(L, 3);
    coro *co = current_coro(L, c);
    hist_event *e = history_add(rt->cx->hist, rt->cx->now_us, H_CS_ENTER, c->idx, local_now(rt, c));
    e->a = token;
    client_resource_write(rt, c, token);
    co->state = CO_CRITICAL;
    co->token = token;
    arm_timer(rt, c, co, work < 0 ? 0 : work);
    return lua_yield(L, 0);
}

/* ctx:record(kind [, detail [, outcome]]): the protocol's milestones for the checker and the
 * trace. detail: a token (acquired) or words for the trace; outcome (acquire_failed,
 * released): one of history.h's hist_outcome names, which is what the checker reads. */
static int ctx_record(lua_State *L)
{
    clientrt *rt = rt_of(L);
    client *c = ctx_client(L);
    static const struct { const char *name; hist_kind k; } kinds[] = {
        { "acquire", H_ACQUIRE }, { "acquired", H_ACQUIRED }, { "acquire_failed", H_ACQUIRE_FAILED },
        { "release", H_RELEASE }, { "released", H_RELEASED },
    };
    const char *k = luaL_checkstring(L, 2);
    const char *outcome = luaL_optstring(L, 4, NULL);
    int code = outcome ? hist_outcome_find(outcome) : -1;
    if (outcome && code < 0)
        return luaL_error(L, "ctx:record: unknown outcome '%s' (released, not_released, gave_up, reentry_failed)", outcome);
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if (strcmp(k, kinds[i].name)) continue;
        if (outcome && kinds[i].k != H_ACQUIRE_FAILED && kinds[i].k != H_RELEASED)
            return luaL_error(L, "ctx:record: an outcome goes with acquire_failed or released, not %s", k);
        step_action(L, rt, "record");
        hist_event *e = history_add(rt->cx->hist, rt->cx->now_us, kinds[i].k, c->idx, local_now(rt, c));
        e->code = code;
        if (lua_isinteger(L, 3)) e->a = lua_tointeger(L, 3);
        else if (lua_type(L, 3) == LUA_TSTRING) {
            size_t len;
            const char *text = lua_tolstring(L, 3, &len);
            e->text = cut_text(text, len);
        }
        return 0;
    }
    return luaL_error(L, "ctx:record: unknown milestone '%s'", k);
}

/* ctx:lock_unit(op [, name]): what the model's lock is on the servers, and what it did to its
 * holds, for the checker (release safety, reentrancy): "key", name: the lock is that server
 * object; "prefix", name: every object whose name starts with it; "reentered": the holder took
 * the lock again; "inner_released": it undid one hold and still holds the lock. */
static int ctx_lock_unit(lua_State *L)
{
    clientrt *rt = rt_of(L);
    client *c = ctx_client(L);
    const char *op = luaL_checkstring(L, 2);
    int code = hist_unit_find(op);
    if (code < 0) return luaL_error(L, "ctx:lock_unit: unknown op '%s' (key, prefix, reentered, inner_released)", op);
    const char *name = NULL;
    if (code == HU_KEY || code == HU_PREFIX) {
        size_t len;
        name = luaL_checklstring(L, 3, &len);
        if (!len || strlen(name) != len) return luaL_error(L, "ctx:lock_unit: the %s must be a non-empty name without NUL bytes", op);
    }
    hist_event *e = history_add(rt->cx->hist, rt->cx->now_us, H_LOCK_UNIT, c->idx, local_now(rt, c));
    e->code = code;
    if (name) e->text = xstrdup(name);
    return 0;
}

static int ctx_nodes(lua_State *L)
{
    clientrt *rt = rt_of(L);
    (void)ctx_client(L);
    lua_newtable(L);
    int k = 1;
    for (int i = 0; i < rt->cx->nnodes; i++) {
        if (rt->cx->sc->nodes[i].master >= 0) continue;
        lua_pushstring(L, rt->cx->sc->nodes[i].name);
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
    clientrt *rt = rt_of(L);
    client *c = ctx_client(L);
    const scenario *sc = rt->cx->sc;
    const client_cfg *cc = c->cfg;
    int64_t lease = cc->lease_us != -1 ? cc->lease_us : sc->lease_us;
    int64_t wait = cc->wait_us != -1 ? cc->wait_us : sc->wait_us;
    lua_newtable(L);
    lua_pushstring(L, sc->lock ? sc->lock : "lock");
    lua_setfield(L, -2, "lock");
    if (lease >= 0) {
        push_ms(L, lease);
        lua_setfield(L, -2, "lease");
    }
    push_ms(L, wait);
    lua_setfield(L, -2, "wait");
    push_ms(L, cc->work_us);
    lua_setfield(L, -2, "work");
    push_ms(L, cc->think_us);
    lua_setfield(L, -2, "think");
    push_ms(L, sc->timeout_us);
    lua_setfield(L, -2, "timeout");
    lua_pushinteger(L, cc->rounds);
    lua_setfield(L, -2, "rounds");
    lua_pushboolean(L, sc->fencing);
    lua_setfield(L, -2, "fencing");
    lua_pushstring(L, sc->mode ? sc->mode : "single");
    lua_setfield(L, -2, "mode");
    lua_pushstring(L, rt->version);
    lua_setfield(L, -2, "scripts");
    lua_newtable(L); /* replicas: per master's name, how many replicas the scenario gives it */
    for (int i = 0; i < sc->nnodes; i++) {
        if (sc->nodes[i].master >= 0) continue;
        int n = 0;
        for (int j = 0; j < sc->nnodes; j++) n += sc->nodes[j].master == i;
        lua_pushinteger(L, n);
        lua_setfield(L, -2, sc->nodes[i].name);
    }
    lua_setfield(L, -2, "replicas");
    client_push_options(L, sc);
    lua_setfield(L, -2, "options");
    return 1;
}

static const luaL_Reg ctx_methods[] = {
    { "sleep", ctx_sleep }, { "random", ctx_random }, { "unique", ctx_unique }, { "spawn", ctx_spawn },
    { "id", ctx_id }, { "name", ctx_name }, { "log", ctx_log }, { "critical", ctx_critical },
    { "record", ctx_record }, { "lock_unit", ctx_lock_unit }, { "nodes", ctx_nodes }, { "config", ctx_config },
    { NULL, NULL },
};

void ctx_open(lua_State *L, clientrt *rt)
{
    luaL_newmetatable(L, "locklab.ctx");
    lua_newtable(L);
    lua_pushlightuserdata(L, rt);
    luaL_setfuncs(L, ctx_methods, 1);
    lua_pushlightuserdata(L, rt);
    luaL_setfuncs(L, ctx_request_methods, 1); /* client_requests.c */
    lua_pushlightuserdata(L, rt);
    luaL_setfuncs(L, ctx_time_methods, 1); /* client_time.c */
    lua_setfield(L, -2, "__index");
    lua_pushliteral(L, "locklab.ctx");
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
    instant_open(L);
}
