/* client_requests.c — the ctx methods that talk to nodes (client_ctx.c lists the whole API):
 *
 *   ctx:call(node, cmd, ...)        a command; its reply, or nil and the error (or "timeout")
 *   ctx:eval(node, script, keys, args [, timeout])
 *                                   a script of lua/redis/ (by name, at the scenario's
 *                                   version), sent whole with EVAL
 *   ctx:script(name)                which "name@version" the scenario's version selects
 *   ctx:send(node, cmd, ...), ctx:send_eval(node, script, keys, args)
 *                                   the same requests without waiting: each returns its id
 *   ctx:receive([timeout]), ctx:abandon(["timeout"])
 *   ctx:subscribe(node, channel), ctx:unsubscribe(sub), ctx:wait(sub, timeout_ms)
 *
 * A request is built as an argv (at most CTX_REQUEST_MAX bytes in all) with a label for
 * traces, and posted through the net to the node the client's route names for the node
 * asked; a call then waits for its reply or its timeout. */
#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clientint.h"

/* Appends a word of the request (the command's name, a script's body) as one argument. */
static void put_word(const char *w, buf *b, size_t *offsets, int *argc)
{
    offsets[(*argc)++] = b->len;
    buf_puts(b, w);
    buf_putc(b, '\0');
}

/* Appends a Lua value as a command argument the way a client library would send it; the
 * value is a string or a number (arg_size said so). Raises nothing. */
static void put_arg(lua_State *L, int idx, buf *b, size_t *offsets, int *argc)
{
    offsets[(*argc)++] = b->len;
    if (lua_type(L, idx) == LUA_TNUMBER) {
        if (lua_isinteger(L, idx)) buf_printf(b, "%lld", (long long)lua_tointeger(L, idx));
        else buf_printf(b, "%.17g", lua_tonumber(L, idx));
    } else {
        size_t n;
        const char *s = lua_tolstring(L, idx, &n);
        buf_append(b, s, n);
    }
    buf_putc(b, '\0');
}

/* Appends a string or a number at idx to a label as lua_tostring would write it (a float
 * as "%.14g", with ".0" when that looks like an integer), without converting the value in
 * place: that allocates, and may raise while the request's buffers are live. */
static void put_label(lua_State *L, int idx, buf *lab)
{
    if (lua_type(L, idx) != LUA_TNUMBER) {
        buf_puts(lab, lua_tostring(L, idx));
        return;
    }
    if (lua_isinteger(L, idx)) {
        buf_printf(lab, LUA_INTEGER_FMT, (LUAI_UACINT)lua_tointeger(L, idx));
        return;
    }
    char num[64];
    snprintf(num, sizeof num, LUA_NUMBER_FMT, (LUAI_UACNUMBER)lua_tonumber(L, idx));
    if (num[strspn(num, "-0123456789")] == '\0') strcat(num, ".0"); /* looks like an int */
    buf_puts(lab, num);
}

/* The bytes a value at idx takes as a command argument (a number: at most 32); an error for
 * any other type. Added to *total, which may not pass CTX_REQUEST_MAX. */
static void arg_size(lua_State *L, int idx, size_t *total, const char *what)
{
    size_t n = 32;
    if (lua_type(L, idx) == LUA_TSTRING) lua_tolstring(L, idx, &n);
    else if (lua_type(L, idx) != LUA_TNUMBER)
        luaL_error(L, "%s must be strings or numbers, not %s", what, luaL_typename(L, idx));
    *total += n + 1;
    if (*total > CTX_REQUEST_MAX) luaL_error(L, "a request of more than %d MiB: too large", (int)(CTX_REQUEST_MAX >> 20));
}

/* Puts a request built in b (NUL-separated arguments) on the net; its id. */
static uint64_t post_request(clientrt *rt, client *c, coro *co, int node_idx, buf *b, const size_t *offsets, int argc,
                             const char *label, const char *script, int conn, int async)
{
    msg *m = msg_new(MSG_REQUEST, c->idx, c->route[node_idx], 0);
    m->coro = coro_index(c, co);
    m->req_id = ++c->next_req;
    m->conn = conn;
    m->async = async;
    m->bytes = buf_steal(b);
    m->argc = argc;
    m->argv = xmalloc((size_t)argc * sizeof *m->argv);
    for (int i = 0; i < argc; i++) {
        size_t end = i + 1 < argc ? offsets[i + 1] - 1 : strlen(m->bytes + offsets[argc - 1]) + offsets[argc - 1];
        m->argv[i] = (slice){ m->bytes + offsets[i], end - offsets[i] };
    }
    m->label = xstrdup(label);
    m->script = script ? xstrdup(script) : NULL;
    hist_event *e = history_add(rt->cx->hist, rt->cx->now_us, H_REQUEST, c->idx, local_now(rt, c));
    e->peer = m->to;
    e->a = (int64_t)m->req_id;
    e->text = xstrdup(label);
    e->label = script ? xstrdup(script) : NULL; /* which script, as data: readers need not split the text */
    uint64_t id = m->req_id;
    net_send(rt->net, m);
    return id;
}

/* Sends a request built in b and makes the coroutine wait for its reply. */
static int send_request(lua_State *L, clientrt *rt, client *c, int node_idx, buf *b, size_t *offsets, int argc,
                        const char *label, const char *script, double timeout_ms, int conn)
{
    coro *co = current_coro(L, c);
    co->req_id = post_request(rt, c, co, node_idx, b, offsets, argc, label, script, conn, 0);
    co->state = CO_WAIT_REPLY;
    arm_timer(rt, c, co, timeout_ms);
    return lua_yield(L, 0);
}

/* Before ctx:send or ctx:send_eval builds anything: the replies it has not received count
 * toward the model's memory cap (audit N9: 500,000 of them took 520 MB outside it). */
static void send_charge(lua_State *L, clientrt *rt, client *c)
{
    coro *co = current_coro(L, c);
    if (rt->mem + CLIENT_PENDING_COST > rt->mem_limit)
        luaL_error(L, "ctx:send: the client model %s used more than %d MiB of memory, with the %d requests it sent "
                      "and has not received the replies of",
                   rt->cx->sc->protocol, (int)(rt->mem_limit >> 20),
                   co->npending - co->pending_head + co->ninbox - co->inbox_head);
}

/* ctx:send's half: the request goes out, the coroutine carries on; ctx:receive takes the
 * reply. Returns the request's id to Lua. */
static int send_async(lua_State *L, clientrt *rt, client *c, int node_idx, buf *b, size_t *offsets, int argc,
                      const char *label, const char *script)
{
    coro *co = current_coro(L, c);
    rt->mem += CLIENT_PENDING_COST; /* until received or abandoned (send_charge) */
    uint64_t id = post_request(rt, c, co, node_idx, b, offsets, argc, label, script, 0, 1);
    if (co->npending == co->cappending && co->pending_head > 0) {
        memmove(co->pending, co->pending + co->pending_head, (size_t)(co->npending - co->pending_head) * sizeof *co->pending);
        co->npending -= co->pending_head;
        co->pending_head = 0;
    }
    if (co->npending == co->cappending) {
        co->cappending = co->cappending ? co->cappending * 2 : 8;
        co->pending = xrealloc(co->pending, (size_t)co->cappending * sizeof *co->pending);
    }
    co->pending[co->npending++] = id;
    lua_pushinteger(L, (lua_Integer)id);
    return 1;
}

static double timeout_arg(lua_State *L, clientrt *rt, int idx)
{
    if (lua_isnoneornil(L, idx)) return (double)rt->cx->sc->timeout_us / 1000.0;
    double t = ms_arg(L, idx, "eval");
    if (t < 0) luaL_error(L, "negative timeout");
    return t;
}

/* The arguments from `first` on (a command and its arguments) into b, and the label that
 * names the request in traces ("SET lock v NX PX 10000"), at most labsz bytes. */
static void build_command(lua_State *L, int first, buf *b, size_t *offs, int *argc, char *label, size_t labsz)
{
    int top = lua_gettop(L);
    if (top < first) luaL_error(L, "a command is needed");
    if (top - first + 1 > 64) luaL_error(L, "too many arguments");
    size_t total = 0;
    for (int i = first; i <= top; i++) arg_size(L, i, &total, "command arguments");
    *argc = 0;
    for (int i = first; i <= top; i++) put_arg(L, i, b, offs, argc);
    buf lab;
    buf_init(&lab);
    for (int i = 0; i < *argc; i++) {
        if (i) buf_putc(&lab, ' ');
        buf_puts(&lab, b->p + offs[i]);
    }
    snprintf(label, labsz, "%s", lab.p ? lab.p : "");
    buf_release(&lab);
}

/* ctx:call(node, cmd, ...) -> value | nil, err; ctx:send(node, cmd, ...) -> id: the same
 * without waiting (ctx:receive takes the reply). */
static int call_or_send(lua_State *L, int async)
{
    clientrt *rt = rt_of(L);
    client *c = ctx_client(L);
    int node_idx = node_arg(L, rt, 2);
    if (lua_gettop(L) < 3) return luaL_error(L, "ctx:%s needs a command", async ? "send" : "call");
    (void)current_coro(L, c);
    step_action(L, rt, async ? "send" : "call");
    if (async) send_charge(L, rt, c);
    size_t offs[64];
    int argc;
    char label[256];
    buf b;
    buf_init(&b);
    build_command(L, 3, &b, offs, &argc, label, sizeof label);
    if (async) return send_async(L, rt, c, node_idx, &b, offs, argc, label, NULL);
    return send_request(L, rt, c, node_idx, &b, offs, argc, label, NULL, (double)rt->cx->sc->timeout_us / 1000.0, 0);
}

static int ctx_call(lua_State *L)
{
    return call_or_send(L, 0);
}

static int ctx_send(lua_State *L)
{
    return call_or_send(L, 1);
}

/* Raises err's text as a Lua error once both buffers are released: no heap memory is live
 * when the error unwinds (the text goes through the C stack, cut at 1 KiB). */
static _Noreturn void raise_released(lua_State *L, buf *err, buf *body)
{
    char text[1024];
    snprintf(text, sizeof text, "%s", err->p ? err->p : "unknown script");
    buf_release(err);
    buf_release(body);
    luaL_error(L, "%s", text);
    abort(); /* luaL_error does not return */
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
    char file[4096];
    int isfile = ll_script_file(rt->cx->sc->path, rt->cx->sc->protocol, name, file, sizeof file);
    if (isfile) {
        /* a script of the model's own, by file: its id is its path, kept after its body in
         * one allocation (the body's slot frees both) */
        if (isfile < 0) buf_printf(&err, "ctx:eval: the script file name '%s' is too long", name);
        if (isfile < 0 || script_file_body(file, &body, &err) != 0) raise_released(L, &err, &body);
        size_t bl = body.len, fl = strlen(file);
        char *mem = xmalloc(bl + fl + 2);
        if (bl) memcpy(mem, body.p, bl);
        mem[bl] = 0;
        memcpy(mem + bl + 1, file, fl + 1);
        buf_release(&err);
        buf_release(&body);
        const char **slot = dict_put(rt->bodies, slice_cstr(name), NULL);
        slot[0] = mem;
        slot[1] = mem + bl + 1;
        *id_out = slot[1];
        return slot[0];
    }
    const script_info *si;
    if (strchr(name, '@')) si = scriptlib_find(rt->lib, name, &err);
    else {
        si = scriptlib_resolve(rt->lib, name, rt->version, &err);
        if (!si) {
            buf_reset(&err);
            si = scriptlib_resolve(rt->lib, name, "HEAD", &err);
        }
    }
    if (!si || scriptlib_body(rt->lib, si, &body, &err) != 0) raise_released(L, &err, &body);
    buf_release(&err);
    const char **slot = dict_put(rt->bodies, slice_cstr(name), NULL);
    slot[0] = buf_steal(&body);
    slot[1] = si->id;
    *id_out = si->id;
    return slot[0];
}

/* EVAL of the script named by argument 3 with the keys and arguments of the tables 4 and 5
 * into b, and its label ("redisson/lock@HEAD myLock 30000 ..."), at most labsz bytes. */
static void build_eval(lua_State *L, clientrt *rt, buf *b, size_t *offs, int *argc, char *label, size_t labsz,
                       const char **id_out)
{
    const char *name = luaL_checkstring(L, 3);
    luaL_checktype(L, 4, LUA_TTABLE);
    luaL_checktype(L, 5, LUA_TTABLE);
    const char *id;
    const char *body = script_body(L, rt, name, &id);
    *id_out = id; /* the runtime's script cache owns it */
    lua_Integer nk_ = luaL_len(L, 4), na_ = luaL_len(L, 5);
    if (nk_ < 0 || na_ < 0 || nk_ + na_ + 3 > 64) luaL_error(L, "too many keys and arguments");
    int nkeys = (int)nk_, nargs = (int)na_;
    size_t total = strlen(body);
    for (int t = 4; t <= 5; t++)
        for (int i = 1; i <= (t == 4 ? nkeys : nargs); i++) {
            lua_rawgeti(L, t, i);
            arg_size(L, lua_gettop(L), &total, t == 4 ? "script keys" : "script arguments");
            lua_pop(L, 1);
        }
    *argc = 0;
    char nk[16];
    snprintf(nk, sizeof nk, "%d", nkeys);
    put_word("EVAL", b, offs, argc);
    put_word(body, b, offs, argc);
    put_word(nk, b, offs, argc);
    buf lab;
    buf_init(&lab);
    buf_printf(&lab, "%s", id);
    for (int t = 4; t <= 5; t++) {
        int n = t == 4 ? nkeys : nargs;
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, t, i); /* checked above: a string or a number */
            put_arg(L, lua_gettop(L), b, offs, argc);
            buf_putc(&lab, ' ');
            put_label(L, lua_gettop(L), &lab);
            lua_pop(L, 1);
        }
    }
    snprintf(label, labsz, "%s", lab.p);
    buf_release(&lab);
}

/* ctx:eval(node, script, keys, args [, timeout]) -> value | nil, err */
static int ctx_eval(lua_State *L)
{
    clientrt *rt = rt_of(L);
    client *c = ctx_client(L);
    int node_idx = node_arg(L, rt, 2);
    double timeout = timeout_arg(L, rt, 6);
    (void)current_coro(L, c);
    step_action(L, rt, "eval");
    size_t offs[64];
    int argc;
    char label[512];
    buf b;
    buf_init(&b);
    const char *id;
    build_eval(L, rt, &b, offs, &argc, label, sizeof label, &id);
    return send_request(L, rt, c, node_idx, &b, offs, argc, label, id, timeout, 0);
}

/* ctx:send_eval(node, script, keys, args) -> id: ctx:eval without waiting. */
static int ctx_send_eval(lua_State *L)
{
    clientrt *rt = rt_of(L);
    client *c = ctx_client(L);
    int node_idx = node_arg(L, rt, 2);
    (void)current_coro(L, c);
    step_action(L, rt, "send_eval");
    send_charge(L, rt, c);
    size_t offs[64];
    int argc;
    char label[512];
    buf b;
    buf_init(&b);
    const char *id;
    build_eval(L, rt, &b, offs, &argc, label, sizeof label, &id);
    return send_async(L, rt, c, node_idx, &b, offs, argc, label, id);
}

/* ctx:receive([timeout_ms]) -> id, value | id, nil, err | nil, "timeout" | nil, "none": the
 * next reply to a request this coroutine sent with ctx:send / ctx:send_eval, in the order
 * the replies arrive (the engine's event order: deterministic). "none": nothing is awaited.
 * Without a timeout it waits as long as it takes (a library without a socket timeout). */
static int ctx_receive(lua_State *L)
{
    clientrt *rt = rt_of(L);
    client *c = ctx_client(L);
    int have_timeout = !lua_isnoneornil(L, 2);
    double ms = have_timeout ? ms_arg(L, 2, "receive") : 0;
    coro *co = current_coro(L, c);
    if (co->ninbox > co->inbox_head) {
        msg *m = co->inbox[co->inbox_head];
        lua_pushinteger(L, (lua_Integer)m->req_id);
        int n = push_reply(L, m); /* first: if it raises (memory), the reply is still in the inbox */
        if (++co->inbox_head == co->ninbox) co->inbox_head = co->ninbox = 0;
        rt->mem -= CLIENT_PENDING_COST; /* received */
        msg_free(m);
        return n + 1;
    }
    if (co->npending == co->pending_head) {
        lua_pushnil(L);
        lua_pushliteral(L, "none");
        return 2;
    }
    co->state = CO_WAIT_ANY;
    if (have_timeout) arm_timer(rt, c, co, ms < 0 ? 0 : ms);
    return lua_yield(L, 0);
}

/* ctx:abandon(["timeout"]): stops awaiting this coroutine's requests of ctx:send; those
 * already answered are dropped, and replies still on their way arrive "no longer awaited".
 * With "timeout" the client gave up at a deadline (a socket timeout, a round's deadline):
 * each request left gets its timeout in the history, and its reply arrives "too late". */
static int ctx_abandon(lua_State *L)
{
    clientrt *rt = rt_of(L);
    client *c = ctx_client(L);
    const char *why = luaL_optstring(L, 2, NULL);
    if (why && strcmp(why, "timeout") != 0) return luaL_error(L, "ctx:abandon: \"timeout\" or nothing, not '%s'", why);
    coro *co = current_coro(L, c);
    for (int i = co->pending_head; why && i < co->npending; i++)
        history_add(rt->cx->hist, rt->cx->now_us, H_TIMEOUT, c->idx, local_now(rt, c))->a = (int64_t)co->pending[i];
    rt->mem -= (size_t)(co->npending - co->pending_head + co->ninbox - co->inbox_head) * CLIENT_PENDING_COST;
    co->npending = co->pending_head = 0;
    coro_drop_inbox(co);
    return 0;
}

/* ctx:script(name) -> "name@version": which text the scenario's script version selects, so a
 * model can follow that version's calling convention (KEYS/ARGV changed across releases). */
static int ctx_script(lua_State *L)
{
    clientrt *rt = rt_of(L);
    (void)ctx_client(L);
    const char *name = luaL_checkstring(L, 2);
    const char *id;
    script_body(L, rt, name, &id);
    lua_pushstring(L, id);
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
    clientrt *rt = rt_of(L);
    client *c = ctx_client(L);
    int node_idx = node_arg(L, rt, 2);
    size_t chlen;
    const char *channel = luaL_checklstring(L, 3, &chlen);
    if (chlen > CTX_REQUEST_MAX) return luaL_error(L, "ctx:subscribe: a channel name of more than %d MiB", (int)(CTX_REQUEST_MAX >> 20));
    coro *co = current_coro(L, c);
    step_action(L, rt, "subscribe");
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
    put_word("SUBSCRIBE", &b, offs, &argc);
    put_word(channel, &b, offs, &argc);
    char label[300];
    snprintf(label, sizeof label, "SUBSCRIBE %s", channel);
    co->sub = s;
    return send_request(L, rt, c, node_idx, &b, offs, argc, label, NULL, (double)rt->cx->sc->timeout_us / 1000.0, 1);
}

/* ctx:unsubscribe(sub): drops the subscription (no wait). */
static int ctx_unsubscribe(lua_State *L)
{
    clientrt *rt = rt_of(L);
    client *c = ctx_client(L);
    lua_Integer s = luaL_checkinteger(L, 2);
    if (s < 1 || s > c->nsubs || !c->subs[--s].channel) return 0; /* a handle is 1 .. nsubs */
    subscription *sub = &c->subs[s];
    node_unsubscribe(rt->cu, &rt->cu->nodes[sub->node], c->cidx, sub->channel);
    for (int i = 0; i < sub->nqueue; i++) free(sub->queue[i]);
    sub->nqueue = 0;
    free(sub->channel);
    sub->channel = NULL;
    return 0;
}

/* ctx:wait(sub, timeout_ms) -> message | nil */
static int ctx_wait(lua_State *L)
{
    clientrt *rt = rt_of(L);
    client *c = ctx_client(L);
    lua_Integer s = luaL_checkinteger(L, 2);
    double ms = ms_arg(L, 3, "wait");
    if (s < 1 || s > c->nsubs || !c->subs[--s].channel) return luaL_error(L, "ctx:wait: not a subscription");
    subscription *sub = &c->subs[s];
    if (sub->nqueue > 0) {
        char *m = sub->queue[0];
        lua_pushstring(L, m); /* first: if it raises (memory), the message is still queued */
        memmove(sub->queue, sub->queue + 1, (size_t)(--sub->nqueue) * sizeof *sub->queue);
        free(m);
        return 1;
    }
    coro *co = current_coro(L, c);
    co->state = CO_WAIT_MSG;
    co->sub = (int)s;
    arm_timer(rt, c, co, ms < 0 ? 0 : ms);
    return lua_yield(L, 0);
}

const luaL_Reg ctx_request_methods[] = {
    { "call", ctx_call }, { "eval", ctx_eval }, { "script", ctx_script }, { "send", ctx_send },
    { "send_eval", ctx_send_eval }, { "receive", ctx_receive }, { "abandon", ctx_abandon },
    { "subscribe", ctx_subscribe }, { "unsubscribe", ctx_unsubscribe }, { "wait", ctx_wait },
    { NULL, NULL },
};
