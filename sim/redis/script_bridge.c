/* script_bridge.c — the Lua bridge proper, after Redis's script_lua.c: two converters —
 * reply → Lua value (what redis.call returns) and Lua value → reply (what EVAL returns) —
 * and one generic call path shared by redis.call and redis.pcall. Nothing malloc'ed is held
 * across a call that can raise a Lua error: the argv scratch and the reply of the current
 * redis.call belong to the scripting struct, so a longjmp out of a conversion leaks nothing.
 *
 * redis.call builds no reply its caller throws away (a statement `redis.call('set', ...)`):
 * see script_results_wanted. It finds a command by the address of its name's Lua string
 * (scripting.cmd_memo), and refuses what Redis refuses from a script with Redis's texts,
 * for the commands this fake does not implement too (script_banned_cmds).
 *
 * The numbers are where Lua 5.4 would show through (see the catalogue atop script_lib.c):
 * integer replies become Lua integers, so tostring(redis.call('incr', k)) is "1", not "1.0";
 * redis.call's number arguments print as Lua 5.1's doubles would (script_fmt_number); a
 * number returned to EVAL goes through a double as in Redis (script_number_to_ll).
 */
#include "scriptint.h"

#include <lauxlib.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------
 * Numbers and error tables */

/* Formats v as %lld without printf: this runs for every integer argument of redis.call. */
static size_t script_fmt_ll(char *dst, long long v)
{
    char tmp[24];
    size_t n = 0, len = 0;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) dst[len++] = '-';
    while (n) dst[len++] = tmp[--n];
    dst[len] = '\0';
    return len;
}

/* Lua number → the argv text Redis 7.0 on Lua 5.1 produces (%.17g of a double). Integers
 * within ±2^53 print the same digits through the fast path. */
static size_t script_fmt_number(lua_State *L, int idx, char *dst)
{
    if (lua_isinteger(L, idx)) {
        long long v = (long long)lua_tointeger(L, idx);
        if (v >= -(1LL << 53) && v <= (1LL << 53)) return script_fmt_ll(dst, v);
        return (size_t)snprintf(dst, 32, "%.17g", (double)v);
    }
    return (size_t)snprintf(dst, 32, "%.17g", (double)lua_tonumber(L, idx));
}

/* A Lua number as EVAL replies it: (long long) of the double, truncating toward zero;
 * what C leaves undefined (NaN, ±inf, out of range) gives LLONG_MIN as on x86-64. */
static long long script_number_to_ll(lua_State *L, int idx)
{
    double d = lua_isinteger(L, idx) ? (double)lua_tointeger(L, idx) : (double)lua_tonumber(L, idx);
    if (isnan(d) || d >= 9223372036854775808.0 || d < -9223372036854775808.0) return LLONG_MIN;
    return (long long)d;
}

/* Pushes {err = "<CODE> <msg>"} as Redis's luaPushErrorBuff builds it from "-CODE msg" (or
 * from "msg", which gets the code ERR): a "-" text without a space has code ERR; the
 * message is trimmed of CR/LF at both ends. */
void script_push_error_table(lua_State *L, const char *p, size_t len)
{
    const char *code = "ERR", *msg = p;
    size_t code_len = 3, msg_len = len;
    if (len > 0 && p[0] == '-') {
        const char *sp = memchr(p, ' ', len);
        if (sp) {
            code = p + 1;
            code_len = (size_t)(sp - p - 1);
            msg = sp + 1;
            msg_len = len - (size_t)(sp - p) - 1;
        } else {
            msg = p + 1;
            msg_len = len - 1;
        }
    }
    while (msg_len && (*msg == '\r' || *msg == '\n')) msg++, msg_len--;
    while (msg_len && (msg[msg_len - 1] == '\r' || msg[msg_len - 1] == '\n')) msg_len--;
    lua_createtable(L, 0, 1);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addlstring(&b, code, code_len);
    luaL_addchar(&b, ' ');
    luaL_addlstring(&b, msg, msg_len);
    luaL_pushresult(&b);
    lua_setfield(L, -2, "err");
}

/* ---------------------------------------------------------------------------------------
 * Reply → Lua (what redis.call returns) */

static void script_push_reply(lua_State *L, const reply *r, int resp3);

/* After redis.setresp(3), a reply the command tags as RESP3 answers it (reply.h's R3_*)
 * becomes what Redis 7.0's RESP3 parser makes of it (script_lua.c's redisProtocolToLuaType_*):
 * {map={k=v}}, {set={m=true}}, {double=n}, pairs as arrays of two; 0 if r is no such reply. */
static int script_push_resp3(lua_State *L, const reply *r)
{
    if (r->type == REPLY_BULK && r->integer == R3_DOUBLE) {
        lua_createtable(L, 0, 1);
        lua_pushnumber(L, strtod(r->str, NULL));
        lua_setfield(L, -2, "double");
        return 1;
    }
    if (r->type != REPLY_ARRAY || (r->integer != R3_MAP && r->integer != R3_SET && r->integer != R3_PAIRS))
        return 0;
    luaL_checkstack(L, 6, "reached lua stack limit");
    if (r->integer == R3_PAIRS) {
        lua_createtable(L, (int)(r->n / 2), 0);
        for (size_t i = 0; i + 1 < r->n; i += 2) {
            lua_createtable(L, 2, 0);
            script_push_reply(L, &r->elem[i], 1);
            lua_rawseti(L, -2, 1);
            script_push_reply(L, &r->elem[i + 1], 1);
            lua_rawseti(L, -2, 2);
            lua_rawseti(L, -2, (lua_Integer)(i / 2) + 1);
        }
        return 1;
    }
    int map = r->integer == R3_MAP;
    lua_createtable(L, 0, 1);
    /* grown key by key, as Redis's Lua 5.1 grows it (lua_newtable, then each key): integer
     * keys then move to the array part as they do there, and a traversal (the map handed
     * back, cmsgpack) meets them in Redis's order (1, 2, 0 for DEBUG PROTOCOL map's) */
    lua_newtable(L);
    for (size_t i = 0; i < r->n; i += map ? 2 : 1) {
        script_push_reply(L, &r->elem[i], 1);
        if (map && i + 1 < r->n) script_push_reply(L, &r->elem[i + 1], 1);
        else lua_pushboolean(L, 1);
        if (lua_isnil(L, -2)) lua_pop(L, 2); /* a null key: Lua has no such key */
        else lua_settable(L, -3);
    }
    lua_setfield(L, -2, map ? "map" : "set");
    return 1;
}

/* Pushes at most 3 slots for a non-array reply: within the LUA_MINSTACK a C function is
 * given (redis.call's), so only arrays, which nest, check the stack. resp3: the script said
 * redis.setresp(3). */
static void script_push_reply(lua_State *L, const reply *r, int resp3)
{
    if (resp3 && script_push_resp3(L, r)) return;
    switch (r->type) {
    case REPLY_NIL:
    case REPLY_NIL_ARRAY:
    case REPLY_NULL: /* RESP3's types never reach a script: its calls have no connection */
        if (resp3) lua_pushnil(L); /* RESP3's null */
        else lua_pushboolean(L, 0);
        break;
    case REPLY_BOOL: /* never made by a command */
        lua_pushboolean(L, (int)r->integer);
        break;
    case REPLY_RAW: /* DEBUG PROTOCOL's RESP3 types (scripts call it under DEBUG SET-DISABLE-DENY-SCRIPTS) */
        if (resp3 && r->len >= 3 && r->str[0] == '(') { /* redisProtocolToLuaType_BigNumber */
            lua_createtable(L, 0, 1);
            lua_pushlstring(L, r->str + 1, r->len - 3);
            lua_setfield(L, -2, "big_number");
        } else if (resp3 && r->len >= 3 && r->str[0] == '=' && memchr(r->str, '\n', r->len)) { /* ... VerbatimString */
            const char *body = (const char *)memchr(r->str, '\n', r->len) + 1;
            size_t n = (size_t)(r->str + r->len - 2 - body);
            lua_createtable(L, 0, 1);
            lua_createtable(L, 0, 2);
            lua_pushlstring(L, body + (n >= 4 ? 4 : n), n >= 4 ? n - 4 : 0);
            lua_setfield(L, -2, "string");
            lua_pushlstring(L, body, n >= 3 ? 3 : n);
            lua_setfield(L, -2, "format");
            lua_setfield(L, -2, "verbatim_string");
        } else {
            lua_pushlstring(L, r->str, r->len);
        }
        break;
    case REPLY_STATUS:
        lua_createtable(L, 0, 1);
        lua_pushlstring(L, r->str, r->len);
        lua_setfield(L, -2, "ok");
        break;
    case REPLY_ERROR: {
        char stackbuf[256];
        char *p = r->len + 1 <= sizeof stackbuf ? stackbuf : NULL;
        if (p) {
            p[0] = '-';
            memcpy(p + 1, r->str, r->len);
            script_push_error_table(L, p, r->len + 1);
        } else {
            /* Long error texts: Lua owns the temporary, so a memory error cannot leak. */
            lua_pushliteral(L, "-");
            lua_pushlstring(L, r->str, r->len);
            lua_concat(L, 2);
            size_t n;
            const char *t = lua_tolstring(L, -1, &n);
            script_push_error_table(L, t, n);
            lua_remove(L, -2);
        }
        /* Redis marks command errors so they are not counted twice in its error stats. */
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, "ignore_error_stats_update");
        break;
    }
    case REPLY_INTEGER:
        lua_pushinteger(L, (lua_Integer)r->integer);
        break;
    case REPLY_BULK:
    case REPLY_DOUBLE:
        lua_pushlstring(L, r->str, r->len);
        break;
    case REPLY_ARRAY:
    case REPLY_MAP:
    case REPLY_SET:
    case REPLY_PUSH:
    case REPLY_MULTI: /* only SUBSCRIBE makes these, and scripts may not call it */
        luaL_checkstack(L, 4, "reached lua stack limit");
        lua_createtable(L, (int)r->n, 0);
        for (size_t i = 0; i < r->n; i++) {
            script_push_reply(L, &r->elem[i], resp3);
            lua_rawseti(L, -2, (lua_Integer)i + 1);
        }
        break;
    }
}

/* ---------------------------------------------------------------------------------------
 * Lua → reply (what EVAL returns) */

/* Error and status texts: Redis replaces CR and LF with spaces. */
static void script_reply_line(reply *out, reply_type t, const char *p, size_t len)
{
    char *s = xmemdup(p, len);
    for (size_t i = 0; i < len; i++)
        if (s[i] == '\r' || s[i] == '\n') s[i] = ' ';
    if (t == REPLY_ERROR)
        reply_error(out, s);
    else
        reply_status(out, s);
    free(s);
}

/* Pushes t[field] (raw) and returns its type. */
int script_rawfield(lua_State *L, int idx, const char *field)
{
    lua_pushstring(L, field);
    return lua_rawget(L, idx < 0 ? idx - 1 : idx);
}


/* {map={k=v,...}} or {set={k=true,...}}: a map or a set (a flat array for a RESP2 caller),
 * in lua_next order. */
static void script_reply_from_pairs(lua_State *L, int depth, int with_values, reply *out)
{
    size_t n = 0;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        n++;
        lua_pop(L, 1);
    }
    reply *e = reply_array(out, n * (with_values ? 2 : 1));
    reply_tag(out, with_values ? R3_MAP : R3_SET);
    size_t i = 0;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pushvalue(L, -2);
        script_reply_from_lua(L, depth + 1, &e[i++]);
        if (with_values)
            script_reply_from_lua(L, depth + 1, &e[i++]);
        else
            lua_pop(L, 1);
    }
}

/* A script's {big_number=s}: Redis's addReplyBigNum with CR and LF as spaces, RESP3's
 * "(" to a RESP3 connection, a bulk string otherwise. */
static void script_reply_bignum(const scripting *s, reply *out, const char *p, size_t len)
{
    buf b;
    buf_init(&b);
    if (s->caller_resp3) buf_putc(&b, '(');
    buf_append(&b, p, len);
    for (size_t i = s->caller_resp3; i < b.len; i++)
        if (b.p[i] == '\r' || b.p[i] == '\n') b.p[i] = ' ';
    if (s->caller_resp3) {
        buf_puts(&b, "\r\n");
        reply_raw(out, b.p, b.len);
    } else {
        reply_bulk(out, b.p ? b.p : "", len);
    }
    buf_release(&b);
}

/* A script's {verbatim_string={format=f, string=s}}: Redis's addReplyVerbatim, RESP3's "="
 * with the format's first 3 bytes (spaces for the missing) to a RESP3 connection, a bulk
 * string otherwise. */
static void script_reply_verbatim(const scripting *s, reply *out, const char *p, size_t len, const char *format)
{
    if (!s->caller_resp3) {
        reply_bulk(out, p, len);
        return;
    }
    buf b;
    buf_init(&b);
    buf_printf(&b, "=%zu\r\n", len + 4);
    for (int i = 0; i < 3; i++) buf_putc(&b, *format ? *format++ : ' ');
    buf_putc(&b, ':');
    buf_append(&b, p, len);
    buf_puts(&b, "\r\n");
    reply_raw(out, b.p, b.len);
    buf_release(&b);
}

/* Converts the value on top of the stack into out and pops it. Never raises: it only reads
 * (raw accesses, no metamethods), so it may run outside a protected call. */
void script_reply_from_lua(lua_State *L, int depth, reply *out)
{
    if (depth >= SCRIPT_MAX_REPLY_DEPTH || !lua_checkstack(L, 4)) {
        reply_error(out, "ERR reached lua stack limit");
        script_count_error(script_of(L), out->str);
        lua_pop(L, 1);
        return;
    }
    switch (lua_type(L, -1)) {
    case LUA_TSTRING: {
        size_t len;
        const char *p = lua_tolstring(L, -1, &len);
        reply_bulk(out, p, len);
        break;
    }
    case LUA_TBOOLEAN: {
        /* Redis 7.0: 1 or a null in RESP2; after redis.setresp(3) RESP3's boolean (1 or 0 to
         * a RESP2 connection) */
        scripting *s = script_of(L);
        int b = lua_toboolean(L, -1);
        if (!s->resp3 && b) reply_int(out, 1);
        else if (!s->resp3) reply_nil(out);
        else if (s->caller_resp3) reply_bool(out, b);
        else reply_int(out, b);
        break;
    }
    case LUA_TNUMBER:
        reply_int(out, script_number_to_ll(L, -1));
        break;
    case LUA_TTABLE: {
        size_t len;
        const char *p;
        if (script_rawfield(L, -1, "err") == LUA_TSTRING) {
            p = lua_tolstring(L, -1, &len);
            script_reply_line(out, REPLY_ERROR, p, len);
            lua_pop(L, 1);
            /* one a command replied was counted then */
            script_rawfield(L, -1, "ignore_error_stats_update");
            if (!lua_toboolean(L, -1)) script_count_error(script_of(L), out->str);
            else script_of(L)->reply_counted++;
            lua_pop(L, 1);
            break;
        }
        lua_pop(L, 1);
        if (script_rawfield(L, -1, "ok") == LUA_TSTRING) {
            p = lua_tolstring(L, -1, &len);
            script_reply_line(out, REPLY_STATUS, p, len);
            lua_pop(L, 1);
            break;
        }
        lua_pop(L, 1);
        if (script_rawfield(L, -1, "double") == LUA_TNUMBER) {
            reply_double(out, (double)lua_tonumber(L, -1));
            lua_pop(L, 1);
            break;
        }
        lua_pop(L, 1);
        if (script_rawfield(L, -1, "big_number") == LUA_TSTRING) { /* CR and LF become spaces, as Redis's */
            p = lua_tolstring(L, -1, &len);
            script_reply_bignum(script_of(L), out, p, len);
            lua_pop(L, 1);
            break;
        }
        lua_pop(L, 1);
        if (script_rawfield(L, -1, "verbatim_string") == LUA_TTABLE) {
            if (script_rawfield(L, -1, "string") == LUA_TSTRING &&
                script_rawfield(L, -2, "format") == LUA_TSTRING) {
                p = lua_tolstring(L, -2, &len);
                script_reply_verbatim(script_of(L), out, p, len, lua_tostring(L, -1));
                lua_pop(L, 3);
                break;
            }
            lua_pop(L, lua_type(L, -1) == LUA_TSTRING ? 2 : 1);
        }
        lua_pop(L, 1);
        if (script_rawfield(L, -1, "map") == LUA_TTABLE) {
            script_reply_from_pairs(L, depth, 1, out);
            lua_pop(L, 1);
            break;
        }
        lua_pop(L, 1);
        if (script_rawfield(L, -1, "set") == LUA_TTABLE) {
            script_reply_from_pairs(L, depth, 0, out);
            lua_pop(L, 1);
            break;
        }
        lua_pop(L, 1);
        /* An array: t[1], t[2], ... up to the first nil (raw, like Redis). */
        size_t n = 0;
        while (lua_rawgeti(L, -1, (lua_Integer)n + 1) != LUA_TNIL) {
            lua_pop(L, 1);
            n++;
        }
        lua_pop(L, 1);
        reply *e = reply_array(out, n);
        for (size_t i = 0; i < n; i++) {
            lua_rawgeti(L, -1, (lua_Integer)i + 1);
            script_reply_from_lua(L, depth + 1, &e[i]);
        }
        break;
    }
    default:
        reply_nil(out);
        break;
    }
    lua_pop(L, 1);
}

/* ---------------------------------------------------------------------------------------
 * redis.call / redis.pcall */

static void script_argv_reserve(scripting *s, size_t n)
{
    if (n <= s->argv_cap) return;
    size_t cap = s->argv_cap ? s->argv_cap : 16;
    while (cap < n) cap *= 2;
    s->argv = xrealloc(s->argv, cap * sizeof *s->argv);
    s->numbuf = xrealloc(s->numbuf, cap * sizeof *s->numbuf);
    s->argv_cap = cap;
}

/* Fills s->argv from the Lua arguments 1..argc: strings borrowed (they stay on the stack
 * during the call), numbers formatted into s->numbuf. -1 if an argument is neither. */
int script_collect_args(scripting *s, lua_State *L, int argc)
{
    script_argv_reserve(s, (size_t)argc);
    for (int i = 0; i < argc; i++) {
        int t = lua_type(L, i + 1);
        if (t == LUA_TSTRING) {
            s->argv[i].p = lua_tolstring(L, i + 1, &s->argv[i].len);
        } else if (t == LUA_TNUMBER) {
            s->argv[i].len = script_fmt_number(L, i + 1, s->numbuf[i]);
            s->argv[i].p = s->numbuf[i];
        } else {
            return -1;
        }
    }
    return 0;
}

static void script_call_command(cmdctx *c, const command *cmd);

/* The command named by the Lua string at index 1 (collected in s->argv[0]), through
 * s->cmd_memo. Pinning a new name runs with the memory cap off, so it cannot raise. */
static const command *script_command_of(scripting *s, lua_State *L)
{
    const char *p = s->argv[0].p;
    /* The set's first slot: the top six bits of a Fibonacci hash of the address. */
    _Static_assert(SCRIPT_CMD_MEMO == 64, "the hash below yields six bits");
    unsigned h = (unsigned)(((uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ULL) >> 58) & (SCRIPT_CMD_MEMO - SCRIPT_CMD_WAYS);
    for (unsigned i = h; i < h + SCRIPT_CMD_WAYS; i++)
        if (s->cmd_memo[i].p == p && p) return s->cmd_memo[i].cmd;
    const command *cmd = commands_lookup(s->argv[0]);
    if (!cmd || lua_type(L, 1) != LUA_TSTRING) return cmd;
    unsigned slot = h + (s->cmd_memo_evict++ & (SCRIPT_CMD_WAYS - 1u));
    for (unsigned i = h; i < h + SCRIPT_CMD_WAYS; i++)
        if (!s->cmd_memo[i].p) {
            slot = i;
            break;
        }
    int capped = s->mem_capped;
    s->mem_capped = 0;
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->pin_ref);
    if (s->cmd_memo[slot].p) {
        lua_pushnil(L); /* an existing key: no allocation */
        lua_rawsetp(L, -2, s->cmd_memo[slot].p);
    }
    lua_pushvalue(L, 1);
    lua_rawsetp(L, -2, p);
    lua_pop(L, 1);
    s->mem_capped = capped;
    s->cmd_memo[slot].p = p;
    s->cmd_memo[slot].cmd = cmd;
    return cmd;
}

/* How many results the caller of the running C function wants (LUA_MULTRET: all).
 * Lua keeps this in the call's CallInfo (`nresults`), which the API does not expose;
 * lua_getstack hands out the CallInfo itself (lua_Debug.i_ci), and in Lua 5.4 the field
 * follows func, top, previous, next, the 24-byte union u and the 4-byte union u2
 * (lstate.h). script_probe_wants checks that offset before a state compiles its first
 * script; unless it held, this says LUA_MULTRET, which only means "build the reply". */
#define SCRIPT_CI_NRESULTS 60

/* Whether that offset holds for the Lua library linked in: 1, 0, or -1 before the first
 * probe. The one piece of process-wide state here: a fact about the library, not about any
 * world, found once (a probe costs a compile) and the same whichever state finds it. */
static int ci_layout_known = -1;

static int script_results_wanted_raw(lua_State *L)
{
    lua_Debug ar;
    if (!lua_getstack(L, 0, &ar)) return LUA_MULTRET;
    short n;
    memcpy(&n, (const char *)ar.i_ci + SCRIPT_CI_NRESULTS, sizeof n);
    return n;
}

static int script_results_wanted(lua_State *L)
{
    return ci_layout_known == 1 ? script_results_wanted_raw(L) : LUA_MULTRET;
}

static int script_probe_record(lua_State *L)
{
    scripting *s = script_of(L);
    if (s->probe_n < 4) s->probe_seen[s->probe_n++] = script_results_wanted_raw(L);
    return 0;
}

/* Sets ci_layout_known, unless a state has already: whether script_results_wanted_raw
 * reads 0, 1, 2 and LUA_MULTRET where a Lua function calls for that many results. */
void script_probe_wants(scripting *s)
{
    static const char probe[] = "local f = ... f() local a = f() local b, c = f() return f()";
    if (ci_layout_known >= 0) return;
    lua_State *L = s->L;
    ci_layout_known = 0;
    s->probe_n = 0;
    if (luaL_loadbufferx(L, probe, sizeof probe - 1, "=probe", "t") != LUA_OK) {
        lua_pop(L, 1);
        return;
    }
    lua_pushcfunction(L, script_probe_record);
    int rc = lua_pcall(L, 1, 0, 0);
    if (rc != LUA_OK) lua_pop(L, 1);
    static const int want[4] = { 0, 1, 2, LUA_MULTRET };
    ci_layout_known = rc == LUA_OK && s->probe_n == 4 && memcmp(s->probe_seen, want, sizeof want) == 0;
}

static int script_redis_generic(lua_State *L, int raise)
{
    scripting *s = script_of(L);
    int argc = lua_gettop(L);
    const char *err = NULL;
    if (s->fn_loading) { /* a library loading: Redis's load-time API has no call or pcall */
        luaL_where(L, 1);
        lua_pushfstring(L, "Script attempted to access nonexistent global variable '%s'", raise ? "call" : "pcall");
        lua_concat(L, 2);
        size_t n;
        const char *m = lua_tolstring(L, -1, &n);
        script_push_error_table(L, m, n);
        return lua_error(L);
    }
    if (!s->running)
        err = "redis.call/pcall can only be called inside a script invocation";
    else if (argc == 0)
        err = "Please specify at least one argument for this redis lib call";
    else if (script_collect_args(s, L, argc) < 0)
        err = "Lua redis lib command arguments must be strings or integers";
    if (err) {
        script_push_error_table(L, err, strlen(err));
        return raise ? lua_error(L) : 1;
    }
    /* The running script's context with this call's arguments; its reply goes to call_reply.
     * (script_call_command releases whatever an interrupted call left there.) */
    s->call.argc = argc;
    s->call.argv = s->argv;
    script_call_command(&s->call, script_command_of(s, L));
    if (s->trace) s->trace(s->trace_ud, argc, s->argv, &s->call_reply);
    int is_err = s->call_reply.type == REPLY_ERROR;
    /* A reply nobody will see (`redis.call('set', ...)` as a statement) is not built: a
     * status reply is a table, which costs an allocation now and collection later. */
    int build = (is_err && raise) || script_results_wanted(L) != 0;
    if (build) script_push_reply(L, &s->call_reply, s->resp3); /* may raise on memory: s owns the reply */
    reply_release(&s->call_reply);
    if (is_err && raise) return lua_error(L);
    return build;
}

void script_count_error(scripting *s, const char *err)
{
    s->reply_errors++;
    if (s->error) s->error(s->error_ud, err);
}

int script_redis_call(lua_State *L) { return script_redis_generic(L, 1); }
int script_redis_pcall(lua_State *L) { return script_redis_generic(L, 0); }

/* Redis 7.0.15's commands that a script may not call (COMMAND's `noscript` flag), with
 * their arity, for the ones this fake does not implement: Redis checks a command's arity
 * before the ban, so redis.call('watch') is an arity error and redis.call('watch', 'k')
 * "not allowed", where an unknown name is "Unknown Redis command". A row with sub == NULL
 * is a plain command; sub == "" marks a container (its arity is the container's), whose
 * subcommands Redis looks up by the second argument: one not listed is unknown to Redis
 * too, except SCRIPT HELP, which scripts may call (`ok`). Observed on 7.0.15 (COMMAND). */
struct script_banned {
    const char *name, *sub;
    int arity;
    int ok;
};

static const script_banned script_banned_cmds[] = {
    { "acl", "", -2, 0 }, { "acl", "cat", -2, 0 }, { "acl", "deluser", -3, 0 },
    { "acl", "dryrun", -4, 0 }, { "acl", "genpass", -2, 0 }, { "acl", "getuser", 3, 0 },
    { "acl", "list", 2, 0 }, { "acl", "load", 2, 0 }, { "acl", "log", -2, 0 },
    { "acl", "save", 2, 0 }, { "acl", "setuser", -3, 0 }, { "acl", "users", 2, 0 },
    { "acl", "whoami", 2, 0 },
    { "auth", NULL, -2, 0 }, { "bgrewriteaof", NULL, 1, 0 }, { "bgsave", NULL, -1, 0 },
    { "blmove", NULL, 6, 0 }, { "brpoplpush", NULL, 4, 0 }, { "bzpopmax", NULL, -3, 0 },
    { "bzpopmin", NULL, -3, 0 },
    { "client", "", -2, 0 }, { "client", "caching", 3, 0 }, { "client", "getname", 2, 0 },
    { "client", "getredir", 2, 0 }, { "client", "id", 2, 0 }, { "client", "info", 2, 0 },
    { "client", "kill", -3, 0 }, { "client", "list", -2, 0 }, { "client", "no-evict", 3, 0 },
    { "client", "pause", -3, 0 }, { "client", "reply", 3, 0 }, { "client", "setname", 3, 0 },
    { "client", "tracking", -3, 0 }, { "client", "trackinginfo", 2, 0 },
    { "client", "unblock", -3, 0 }, { "client", "unpause", 2, 0 },
    { "cluster", "", -2, 0 }, { "cluster", "reset", -2, 0 },
    { "config", "", -2, 0 }, { "config", "get", -3, 0 }, { "config", "resetstat", 2, 0 },
    { "config", "rewrite", 2, 0 }, { "config", "set", -4, 0 },
    { "debug", NULL, -2, 0 }, { "discard", NULL, 1, 0 }, { "exec", NULL, 1, 0 },
    { "failover", NULL, -1, 0 }, { "fcall", NULL, -3, 0 }, { "fcall_ro", NULL, -3, 0 },
    { "function", "", -2, 0 }, { "function", "delete", 3, 0 }, { "function", "dump", 2, 0 },
    { "function", "flush", -2, 0 }, { "function", "kill", 2, 0 }, { "function", "list", -2, 0 },
    { "function", "load", -3, 0 }, { "function", "restore", -3, 0 }, { "function", "stats", 2, 0 },
    { "hello", NULL, -1, 0 },
    { "latency", "", -2, 0 }, { "latency", "doctor", 2, 0 }, { "latency", "graph", 3, 0 },
    { "latency", "histogram", -2, 0 }, { "latency", "history", 3, 0 },
    { "latency", "latest", 2, 0 }, { "latency", "reset", -2, 0 },
    { "module", "", -2, 0 }, { "module", "list", 2, 0 }, { "module", "load", -3, 0 },
    { "module", "loadex", -3, 0 }, { "module", "unload", 3, 0 },
    { "monitor", NULL, 1, 0 }, { "multi", NULL, 1, 0 }, { "psubscribe", NULL, -2, 0 },
    { "psync", NULL, -3, 0 }, { "punsubscribe", NULL, -1, 0 }, { "quit", NULL, -1, 0 },
    { "replconf", NULL, -1, 0 }, { "replicaof", NULL, 3, 0 }, { "reset", NULL, 1, 0 },
    { "role", NULL, 1, 0 }, { "save", NULL, 1, 0 },
    { "script", "", -2, 0 }, { "script", "debug", 3, 0 }, { "script", "exists", -3, 0 },
    { "script", "flush", -2, 0 }, { "script", "help", 2, 1 }, { "script", "kill", 2, 0 },
    { "script", "load", 3, 0 },
    { "shutdown", NULL, -1, 0 }, { "slaveof", NULL, 3, 0 }, { "ssubscribe", NULL, -2, 0 },
    { "sunsubscribe", NULL, -1, 0 }, { "sync", NULL, 1, 0 }, { "unwatch", NULL, 1, 0 },
    { "wait", NULL, 3, 0 }, { "watch", NULL, -2, 0 },
};

static int script_arity_ok(int arity, int argc)
{
    return arity > 0 ? argc == arity : argc >= -arity;
}

/* What Redis's lookupCommand finds for argv among script_banned_cmds: the row (a container
 * itself when argc == 1), or NULL when the name is not there or the container has no such
 * subcommand (*container then says which). */
const script_banned *script_banned_find(int argc, const slice *argv, int *container)
{
    const size_t n = sizeof script_banned_cmds / sizeof *script_banned_cmds;
    *container = 0;
    for (size_t i = 0; i < n; i++) {
        const script_banned *b = &script_banned_cmds[i];
        if (!slice_eq_nocase(argv[0], b->name)) continue;
        if (!b->sub || argc == 1) return b;
        *container = 1;
        for (size_t j = i + 1; j < n && strcmp(script_banned_cmds[j].name, b->name) == 0; j++)
            if (slice_eq_nocase(argv[1], script_banned_cmds[j].sub)) return &script_banned_cmds[j];
        return NULL;
    }
    return NULL;
}

/* The commands scripts may not call that DEBUG SET-DISABLE-DENY-SCRIPTS 1 lets them call here:
 * those that need neither a connection of their own (a script's calls have none: pub/sub,
 * blocking, transactions, AUTH, HELLO, RESET, QUIT, MONITOR, WAIT) nor the script engine
 * idle (SCRIPT, FUNCTION, EVAL, FCALL): Redis runs those too, on its script's fake client,
 * for its tests; here they stay refused, never reaching a handler that needs what a call
 * lacks. */
static int script_undeniable(slice name)
{
    static const char *const names[] = { "debug", "client", "config", "latency", "slowlog", "role", "lastsave", "save" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (slice_eq_nocase(name, names[i])) return 1;
    return 0;
}

/* Runs one redis.call: c is its context (the server's db, ps and lua, the call's argc, argv
 * and out, no conn, in_script set), cmd what commands_lookup finds for c->argv[0]. Replies
 * Redis's script-specific errors for a command a script may not run. */
static void script_call_command(cmdctx *c, const command *cmd)
{
    int argc = c->argc;
    const slice *argv = c->argv;
    reply *out = c->out;
    scripting *s = c->lua;
    reply_release(out);
    if (cmd) c->name = cmd->name;
    if (s) s->call_refused = SCRIPT_CALL_REJECTED, s->call_cmd = cmd; /* until the command runs */
    if (cmd && (cmd->flags & CMD_NOSCRIPT) && s && s->deny_off && script_undeniable(argv[0])) {
        /* DEBUG SET-DISABLE-DENY-SCRIPTS 1 */
        if (!script_arity_ok(cmd->arity, argc)) {
            reply_error(out, "ERR Wrong number of args calling Redis command from script");
            return;
        }
        s->call_refused = SCRIPT_CALL_RAN;
        cmdctx with_srv = *c;
        with_srv.srv = s->caller_srv;
        if (!(cmd->flags & CMD_KEYSPACE_FLAGS)) cmd_footprint(c, FP_STATE);
        cmd->fn(&with_srv);
        return;
    }
    if (!cmd || (cmd->flags & CMD_NOSCRIPT)) { /* the rare paths: Redis's lookup decides */
        int container;
        const script_banned *b = script_banned_find(argc, argv, &container);
        if (!b && (container || !cmd)) {
            reply_error(out, "ERR Unknown Redis command called from script");
            if (s) s->call_refused = SCRIPT_CALL_UNKNOWN;
            return;
        }
        if (b) {
            if (!script_arity_ok(b->arity, argc)) {
                reply_error(out, "ERR Wrong number of args calling Redis command from script");
            } else if (b->ok && cmd) {
                if (s) s->call_refused = SCRIPT_CALL_RAN;
                if (!(cmd->flags & CMD_KEYSPACE_FLAGS)) cmd_footprint(c, FP_STATE);
                cmd->fn(c);
            } else {
                reply_error(out, "ERR This Redis command is not allowed from script");
            }
            return;
        }
    }
    /* Observed order on 7.0.15: arity before the script ban (redis.call('blpop') is an
     * arity error, redis.call('blpop','x',0) "not allowed"). */
    if (!script_arity_ok(cmd->arity, argc)) {
        reply_error(out, "ERR Wrong number of args calling Redis command from script");
        return;
    }
    if (cmd->flags & CMD_NOSCRIPT) {
        reply_error(out, "ERR This Redis command is not allowed from script");
        return;
    }
    store *db = c->db;
    if (cmd->flags & (CMD_WRITE | CMD_MAY_REPLICATE)) {
        if (s && s->read_only) {
            reply_error(out, "ERR Write commands are not allowed from read-only scripts.");
            return;
        }
        if ((cmd->flags & CMD_WRITE) && store_is_replica(db)) {
            reply_error(out, "READONLY You can't write against a read only replica.");
            return;
        }
    }
    if (s && s->noreplicas && (cmd->flags & CMD_WRITE)) { /* scriptVerifyWriteCommandAllow, then */
        reply_error(out, "NOREPLICAS Not enough good replicas to write.");
        return;
    }
    if (s && s->oom && !s->allow_oom && !s->wrote && command_denyoom(cmd)) { /* scriptVerifyOOM */
        reply_error(out, "OOM command not allowed when used memory > 'maxmemory'.");
        return;
    }
    if (cmd->flags & (CMD_WRITE | CMD_MAY_REPLICATE)) {
        if ((cmd->flags & CMD_WRITE) && s) s->wrote = 1; /* SCRIPT KILL: UNKILLABLE from now on */
    }
    if (s) s->call_refused = SCRIPT_CALL_RAN;
    if (!(cmd->flags & CMD_KEYSPACE_FLAGS)) cmd_footprint(c, FP_STATE);
    cmd->fn(c);
}

const struct command *scripting_call_command(const scripting *s, int *refused)
{
    *refused = s->call_refused;
    return s->call_refused == SCRIPT_CALL_UNKNOWN ? NULL : s->call_cmd;
}

void scripting_call(cmdctx *c)
{
    script_call_command(c, commands_lookup(c->argv[0]));
}

