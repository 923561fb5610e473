/* client_run.c — the clients' runtime: client processes as Lua coroutines running a protocol
 * model (lua/clients/) and the workload around it, against the ctx API (client_ctx.c).
 *
 * All clients of a world share one Lua state (one copy of the protocol code); each client
 * has its own ctx object and coroutines. A ctx call that waits (a command, a sleep, a
 * message, the critical section) records what the coroutine waits for and yields; this file
 * resumes it with the result when the reply, message or timer event arrives. Waits carry a
 * generation number, so a late reply or a stale timer is recognised and ignored. A GC pause
 * holds every event addressed to the paused client and releases them, in order, at its end.
 *
 * Loading the models and building the clients: client_load.c. The sandbox and the budget of
 * a step that model code cannot evade: client_sandbox.c. */
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

/* A model's error object as text: a string or a number as it is, anything else named by
 * its type as Lua's own lua.c does ("(error object is a table value)"), never NULL; tmp
 * holds that text. No __tostring runs: it would be model code outside any budget. */
const char *client_error_text(lua_State *L, int idx, char *tmp, size_t n)
{
    if (lua_type(L, idx) == LUA_TSTRING || lua_type(L, idx) == LUA_TNUMBER) return lua_tostring(L, idx);
    snprintf(tmp, n, "(error object is a %s value)", luaL_typename(L, idx));
    return tmp;
}

/* A new coroutine of client c, its thread created from (and anchored in the registry of)
 * L's state; not started. */
coro *coro_new(client *c, lua_State *L, int is_main)
{
    if (c->ncoros == c->capcoros) {
        c->capcoros = c->capcoros ? c->capcoros * 2 : 4;
        c->coros = xrealloc(c->coros, (size_t)c->capcoros * sizeof *c->coros);
    }
    /* the thread first: creating it may raise (memory), and nothing of ours is live yet */
    lua_State *T = lua_newthread(L);
    int ref = luaL_ref(L, LUA_REGISTRYINDEX);
    coro *co = xcalloc(1, sizeof *co);
    co->idx = c->ncoros;
    co->L = T;
    co->ref = ref;
    co->state = CO_READY;
    co->token = -1;
    co->is_main = is_main;
    c->coros[c->ncoros++] = co;
    return co;
}

/* A write to the fenced resource (clientint.h): at a critical section's entry (ctx:critical)
 * and its end (on_timer). */
void client_resource_write(clientrt *rt, client *c, int64_t token)
{
    int accepted = 1;
    if (rt->cx->sc->fencing && token >= 0) {
        if (token < rt->resource_max_token) accepted = 0;
        else rt->resource_max_token = token;
    }
    hist_event *e = history_add(rt->cx->hist, rt->cx->now_us, H_WRITE, c->idx, local_now(rt, c));
    e->a = token;
    e->b = accepted;
}

/* ---- resuming coroutines ---- */

static void client_fail(clientrt *rt, client *c, const char *what)
{
    hist_event *e = history_add(rt->cx->hist, rt->cx->now_us, H_ERROR, c->idx, local_now(rt, c));
    e->text = xstrdup(what);
    if (!rt->failed) {
        rt->failed = 1;
        buf b;
        buf_init(&b);
        buf_printf(&b, "client %s: %s", c->cfg->name, what);
        rt->failure = buf_steal(&b);
    }
}

static void client_finish(clientrt *rt, client *c)
{
    c->done = 1;
    c->end_step = core_step(rt->cx);
    history_add(rt->cx->hist, rt->cx->now_us, H_END, c->idx, local_now(rt, c));
}

/* Resumes co with nargs values already pushed on its stack. */
static void coro_resume(clientrt *rt, client *c, coro *co, int nargs)
{
    lua_State *T = co->L;
    co->state = CO_RUNNING;
    if (rt->cx->explore) { /* wait wait_gen ends at this step */
        if (co->ngen_steps == co->capgen_steps) {
            co->capgen_steps = co->capgen_steps ? co->capgen_steps * 2 : 16;
            co->gen_steps = xrealloc(co->gen_steps, co->capgen_steps * sizeof *co->gen_steps);
        }
        co->gen_steps[co->ngen_steps++] = core_step(rt->cx);
    }
    co->wait_gen++;
    if (rt->killed) { /* the run is over: a step ran out of its budget */
        co->state = CO_DONE;
        return;
    }
    int nres = 0;
    client_step_begin(rt, T);
    int st = lua_resume(T, NULL, nargs, &nres);
    client_step_end();
    if (st == LUA_YIELD) {
        lua_pop(T, nres);
        if (co->state == CO_RUNNING) client_fail(rt, c, "the model called coroutine.yield itself; use the ctx API to wait");
        return;
    }
    if (st == LUA_OK) {
        lua_pop(T, nres);
        co->state = CO_DONE;
        if (co->is_main) client_finish(rt, c);
        return;
    }
    if (st == LUA_ERRMEM) {
        /* Lua's own "not enough memory" names nobody; and the state is at its limit, so the
         * message is made in C (a traceback would need memory in it) and nothing more runs */
        buf b;
        buf_init(&b);
        buf_printf(&b, "the client model %s used more than %d MiB of memory", rt->cx->sc->protocol,
                   (int)(client_memory_limit() >> 20));
        client_fail(rt, c, b.p);
        buf_release(&b);
        rt->killed = 1;
        co->state = CO_DONE;
        return;
    }
    char tmp[64];
    buf line; /* one line, whatever the model put in it (a newline would forge one) */
    buf_init(&line);
    buf_puts(&line, client_error_text(T, -1, tmp, sizeof tmp));
    ll_escape_controls(&line, 0, NULL);
    luaL_traceback(rt->L, T, line.p ? line.p : "", 0);
    buf_release(&line);
    client_fail(rt, c, lua_tostring(rt->L, -1));
    lua_pop(rt->L, 1);
    co->state = CO_DONE;
}

/* Is id one of co's requests of ctx:send still awaited? Takes it off the list if so. */
static int take_pending(coro *co, uint64_t id)
{
    for (int i = co->pending_head; i < co->npending; i++)
        if (co->pending[i] == id) {
            if (i == co->pending_head) { /* the oldest, as a rule: O(1) (audit N9: O(n) each) */
                co->pending_head++;
            } else {
                memmove(co->pending + i, co->pending + i + 1, (size_t)(co->npending - i - 1) * sizeof *co->pending);
                co->npending--;
            }
            if (co->pending_head == co->npending) co->pending_head = co->npending = 0;
            return 1;
        }
    return 0;
}

/* Did c give up on request id at a deadline (ctx:abandon("timeout") recorded a timeout for
 * it)? Looks back through the history to the request: replies come after abandonment is
 * rare, and the request bounds the search. */
static int abandoned_by_timeout(const clientrt *rt, const client *c, uint64_t id)
{
    for (size_t i = history_len(rt->cx->hist); i-- > 0;) {
        const hist_event *e = history_at(rt->cx->hist, i);
        if (e->actor != c->idx || e->a != (int64_t)id) continue;
        if (e->kind == H_TIMEOUT) return 1;
        if (e->kind == H_REQUEST) return 0;
    }
    return 0;
}

void coro_drop_inbox(coro *co)
{
    for (int i = co->inbox_head; i < co->ninbox; i++) msg_free(co->inbox[i]);
    co->ninbox = co->inbox_head = 0;
}

/* A reply for c: 1 when a coroutine's inbox keeps the message (ctx:send's reply that came
 * while its coroutine was busy elsewhere), 0 when the caller frees it. */
static int on_reply(clientrt *rt, client *c, msg *m)
{
    coro *co = m->coro < c->ncoros ? c->coros[m->coro] : NULL;
    hist_event *e = history_add(rt->cx->hist, rt->cx->now_us, H_REPLY, c->idx, local_now(rt, c));
    e->peer = m->from;
    e->a = (int64_t)m->req_id;
    e->text = m->label ? xstrdup(m->label) : NULL;
    e->label = m->script ? xstrdup(m->script) : NULL; /* the script its request ran */
    if (m->refused) {
        e->reply = xstrdup("(connection refused)");
    } else {
        buf b;
        buf_init(&b);
        m->sk->reply_brief(m->body, &b);
        e->reply = buf_steal(&b);
    }
    if (co && m->async) {
        if (!take_pending(co, m->req_id)) {
            e->b = abandoned_by_timeout(rt, c, m->req_id) ? 0 : 2; /* abandoned (ctx:abandon) */
            return 0;
        }
        if (co->state != CO_WAIT_ANY) { /* held, still charged (CLIENT_PENDING_COST) */
            if (co->ninbox == co->capinbox && co->inbox_head > 0) {
                memmove(co->inbox, co->inbox + co->inbox_head, (size_t)(co->ninbox - co->inbox_head) * sizeof *co->inbox);
                co->ninbox -= co->inbox_head;
                co->inbox_head = 0;
            }
            if (co->ninbox == co->capinbox) {
                co->capinbox = co->capinbox ? co->capinbox * 2 : 4;
                co->inbox = xrealloc(co->inbox, (size_t)co->capinbox * sizeof *co->inbox);
            }
            co->inbox[co->ninbox++] = m;
            return 1;
        }
        rt->mem -= CLIENT_PENDING_COST; /* received */
        lua_pushinteger(co->L, (lua_Integer)m->req_id);
        int n = push_reply(co->L, m);
        coro_resume(rt, c, co, n + 1);
        return 0;
    }
    if (!co || co->state != CO_WAIT_REPLY || co->req_id != m->req_id) {
        e->b = 0; /* late: its caller already timed out */
        return 0;
    }
    const char *label = m->label ? m->label : "";
    if (!strncmp(label, "SUBSCRIBE ", 10) && !m->refused && !m->sk->reply_is_error(m->body)) {
        /* A confirmed subscription: hand back its handle. */
        c->subs[co->sub].node = m->from;
        lua_pushinteger(co->L, co->sub + 1);
        coro_resume(rt, c, co, 1);
        return 0;
    }
    int n = push_reply(co->L, m);
    coro_resume(rt, c, co, n);
    return 0;
}

static void on_pubsub(clientrt *rt, client *c, msg *m)
{
    hist_event *e = history_add(rt->cx->hist, rt->cx->now_us, H_PUBLISH, c->idx, local_now(rt, c));
    e->peer = m->from;
    e->text = xstrdup(m->label ? m->label : "");
    e->reply = xmemdup(m->bytes, m->nbytes);
    int s = -1;
    for (int i = 0; i < c->nsubs; i++)
        if (c->subs[i].channel && c->subs[i].node == m->from && !strcmp(c->subs[i].channel, m->label)) s = i;
    if (s < 0) return;
    for (int i = 0; i < c->ncoros; i++) {
        coro *co = c->coros[i];
        if (co->state == CO_WAIT_MSG && co->sub == s) {
            lua_pushlstring(co->L, m->bytes, m->nbytes);
            coro_resume(rt, c, co, 1);
            return;
        }
    }
    subscription *sub = &c->subs[s];
    if (sub->nqueue == sub->capqueue) {
        sub->capqueue = sub->capqueue ? sub->capqueue * 2 : 4;
        sub->queue = xrealloc(sub->queue, (size_t)sub->capqueue * sizeof *sub->queue);
    }
    sub->queue[sub->nqueue++] = xmemdup(m->bytes, m->nbytes);
}

/* The step at which the wait a timer was armed for ended, or -2 while that wait lasts (-1:
 * before the log began). */
static int timer_wait_ended(const client *c, uint64_t gen)
{
    int ci = (int)(gen >> 32);
    if (ci >= c->ncoros) return -1;
    const coro *co = c->coros[ci];
    if ((co->wait_gen & 0xffffffff) == (gen & 0xffffffff)) return -2;
    uint32_t g = (uint32_t)(gen & 0xffffffff);
    return g < co->ngen_steps ? co->gen_steps[g] : -1;
}

static void on_timer(clientrt *rt, client *c, uint64_t gen)
{
    int ci = (int)(gen >> 32);
    if (ci >= c->ncoros) return;
    coro *co = c->coros[ci];
    int w = timer_wait_ended(c, gen);
    if (w != -2) {
        /* a timer of a wait that has ended: it does nothing, wherever it falls after that end */
        rt->cx->stale_by = w;
        return;
    }
    switch (co->state) {
    case CO_SLEEP: coro_resume(rt, c, co, 0); break;
    case CO_WAIT_REPLY: {
        hist_event *e = history_add(rt->cx->hist, rt->cx->now_us, H_TIMEOUT, c->idx, local_now(rt, c));
        e->a = (int64_t)co->req_id;
        lua_pushnil(co->L);
        lua_pushliteral(co->L, "timeout");
        coro_resume(rt, c, co, 2);
        break;
    }
    case CO_WAIT_MSG:
        lua_pushnil(co->L);
        coro_resume(rt, c, co, 1);
        break;
    case CO_WAIT_ANY: /* ctx:receive's deadline: the requests stay pending */
        lua_pushnil(co->L);
        lua_pushliteral(co->L, "timeout");
        coro_resume(rt, c, co, 2);
        break;
    case CO_CRITICAL:
        client_resource_write(rt, c, co->token);
        history_add(rt->cx->hist, rt->cx->now_us, H_CS_EXIT, c->idx, local_now(rt, c))->a = co->token;
        coro_resume(rt, c, co, 0);
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

static int paused(const clientrt *rt, const client *c)
{
    return rt->cx->now_us < c->paused_until_us;
}

/* An event for a client that has finished or vanished does nothing, wherever it falls after
 * the step that ended it (a timer: after the end of its wait, if that came first). */
static int ended(clientrt *rt, const client *c, const event *e)
{
    if (!c->dead && !c->done) return 0;
    int w = e->kind == EV_TIMER ? timer_wait_ended(c, e->gen) : -2;
    rt->cx->stale_by = w != -2 ? w : c->end_step;
    return 1;
}

int client_deliver(clientrt *rt, client *c, event *e)
{
    if (ended(rt, c, e)) return 0;
    if (paused(rt, c)) {
        hold(c, e);
        return 1;
    }
    msg *m = e->data;
    if (m->kind == MSG_REPLY) return on_reply(rt, c, m);
    if (m->kind == MSG_PUBSUB) on_pubsub(rt, c, m);
    return 0;
}

static void start_client(clientrt *rt, client *c)
{
    lua_State *L = rt->L;
    c->started = 1;
    history_add(rt->cx->hist, rt->cx->now_us, H_START, c->idx, local_now(rt, c));
    coro *co = coro_new(c, L, 1);
    lua_State *T = co->L;
    lua_rawgeti(T, LUA_REGISTRYINDEX, rt->boot_ref);
    lua_rawgeti(T, LUA_REGISTRYINDEX, c->ctx_ref);
    lua_rawgeti(T, LUA_REGISTRYINDEX, rt->module_ref);
    lua_rawgeti(T, LUA_REGISTRYINDEX, rt->workload_ref);
    coro_resume(rt, c, co, 3);
}

void client_event(clientrt *rt, client *c, event *e)
{
    if (ended(rt, c, e)) return;
    if (e->kind == EV_PAUSE_END) {
        if (rt->cx->now_us < c->paused_until_us) return; /* a longer pause began meanwhile */
        hist_event *f = history_add(rt->cx->hist, rt->cx->now_us, H_FAULT_END, c->idx, local_now(rt, c));
        f->text = xstrdup("GC pause ends");
        f->fault = FAULT_GC_PAUSE;
        f->fault_id = c->pause_fault;
        int n = c->nheld;
        event *held = c->held;
        c->held = NULL;
        c->nheld = c->capheld = 0;
        for (int i = 0; i < n; i++) sched_push(rt->cx->q, rt->cx->now_us, held[i].kind, held[i].actor, held[i].gen, held[i].data);
        free(held);
        return;
    }
    if (paused(rt, c)) {
        hold(c, e);
        return;
    }
    switch (e->kind) {
    case EV_CLIENT_START: start_client(rt, c); break;
    case EV_TIMER: on_timer(rt, c, e->gen); break;
    case EV_SPAWN: {
        int ci = (int)e->gen;
        if (ci < c->ncoros && c->coros[ci]->state == CO_READY) {
            coro *co = c->coros[ci];
            coro_resume(rt, c, co, lua_gettop(co->L) - 1);
        }
        break;
    }
    default: break;
    }
}

void client_pause(clientrt *rt, client *c, int64_t duration, uint64_t since, int fault_id)
{
    int64_t until = rt->cx->now_us + duration;
    /* a pause inside a longer one changes nothing: no second end at the longer one's (it
     * said "GC pause ends" twice, and the search took the two ends for an order) */
    if (until <= c->paused_until_us) return;
    c->paused_until_us = until;
    c->pause_fault = fault_id;
    sched_push_since(rt->cx->q, since, until, EV_PAUSE_END, c->idx, 0, NULL);
}

/* The process dies and its host closes its connections (FIN/RST): every server sees them go. */
void client_crash(clientrt *rt, client *c)
{
    if (c->dead) return;
    client_vanish(rt, c);
    net_set_host_down(rt->net, c->idx, 0); /* only the process died: its host still answers */
    client_drop_connections(rt, c);
}

void client_drop_connections(clientrt *rt, client *c)
{
    for (int i = 0; i < rt->cx->nnodes; i++) node_drop_client(rt->cu, &rt->cu->nodes[i], c->cidx);
}

/* The client stops for good; its connections stay open on the servers' side. */
void client_vanish(clientrt *rt, client *c)
{
    if (c->dead) return;
    c->dead = 1;
    c->end_step = core_step(rt->cx);
    net_set_host_down(rt->net, c->idx, 1);
    /* Held events carry messages: free them. */
    for (int i = 0; i < c->nheld; i++)
        if (c->held[i].kind == EV_DELIVER) msg_free(c->held[i].data);
    c->nheld = 0;
    for (int i = 0; i < c->ncoros; i++) coro_drop_inbox(c->coros[i]);
}

void clients_route(clientrt *rt, int shard, int node_idx)
{
    for (int i = 0; i < rt->cx->nclients; i++) rt->clients[i].route[shard] = node_idx;
}

int clients_all_done(const clientrt *rt)
{
    for (int i = 0; i < rt->cx->nclients; i++)
        if (!rt->clients[i].done && !rt->clients[i].dead) return 0;
    return 1;
}

client *clients_at(clientrt *rt, int cidx)
{
    return &rt->clients[cidx];
}

const char *clients_failure(const clientrt *rt)
{
    return rt->failed ? (rt->failure ? rt->failure : "client model failed") : NULL;
}
