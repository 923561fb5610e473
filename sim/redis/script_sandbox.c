/* script_sandbox.c — what a script may not reach or change, and how long and how large it
 * may run (the Lua state that holds it all is made in script_state.c).
 *
 * Sandbox. The globals a script sees (registry[LUA_RIDX_GLOBALS], the chunks' _ENV, `_G`)
 * are an empty read-only proxy whose metatable forwards reads to the real globals table;
 * the real table's own metatable raises "Script attempted to access nonexistent global
 * variable". Library tables (redis, string, table, math, coroutine, bit) are proxies too,
 * so `redis.call = nil` fails with Redis's "Attempt to modify a readonly table". rawset and
 * setmetatable refuse proxies (Redis's wording, no position prefix, as observed).
 * The proxies cost a metamethod hop on every global read and every `redis.call`, so a
 * script whose bytecode proves it cannot tell the difference runs against a second globals
 * table holding the real fields, the real redis table among them (script_open_fast_globals
 * in script_state.c; which scripts may, in script.c).
 *
 * Limits. An instruction budget (server_config.lua_instruction_limit, default 500 million)
 * is enforced by a count hook checked every min(limit, 10000) instructions, so the budget
 * is exact to within 10,000 instructions. In Lua 5.4 any count hook makes every VM
 * instruction trap into the debug machinery, so a script that cannot loop runs without it
 * until it could: a body of at most SCRIPT_UNHOOKED_MAX_BODY bytes whose text contains none
 * of "while", "for", "repeat", "goto", "function" (substrings anywhere, so comments and
 * strings count too: false alarms only cost speed) has no backward jump and no closure, so
 * each of its instructions runs at most once — a few per byte of text, far below 10,000,
 * so only when the limit is at least 10,000. The only ways such a script reaches other Lua
 * code are load/loadstring and threads; those wrappers and coroutine.create/wrap arm the
 * hook first (script_budget_arm), and the count starts there. When it trips, the hook
 * re-arms at count 1 on every thread it fires in, so each following instruction raises
 * again and a script's own pcall (or coroutine.resume) cannot swallow it — as Redis does
 * after SCRIPT KILL. EVAL replies
 *     ERR Script killed by locklab: exceeded the instruction budget of N instructions.
 *         script: <sha>, on @user_script:<line>.
 * (Redis itself never kills a script on its own; this replaces "killed by user with SCRIPT
 * KILL...", which is what a kill asked by the host's tick raises: script.h's
 * script_tick_fn, locklab serve's SCRIPT KILL; with a tick the hook fires every 100
 * instructions rather than 10,000.) Work done in C counts too: every 16 bytes a running script allocates (a
 * concatenation, string.rep, a growing table) count as one instruction, so a loop that
 * copies ever longer strings is stopped like one that spins. A single C call running long
 * (a pathological pattern) is not interruptible, as in Redis. A memory cap
 * (lua_memory_limit, default 64 MiB) is enforced by the allocator while a script runs or
 * compiles; a refused allocation makes the script fail with
 *     ERR Script ran out of memory: the Lua memory limit is N bytes script: <sha>
 * (no line: Lua raises memory errors without calling the message handler), after which a
 * full GC runs and the state stays usable.
 */
#include "scriptint.h"

#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char ro_marker; /* its address marks read-only proxies' metatables */

/* ---------------------------------------------------------------------------------------
 * Read-only proxies */

int script_global_missing(lua_State *L)
{
    if (lua_gettop(L) != 2) return luaL_error(L, "Wrong number of arguments to luaProtectedTableError");
    if (!lua_isstring(L, 2))
        return luaL_error(L, "Second argument to luaProtectedTableError must be a string or number");
    return luaL_error(L, "Script attempted to access nonexistent global variable '%s'", lua_tostring(L, 2));
}

static int script_proxy_newindex(lua_State *L)
{
    return luaL_error(L, "Attempt to modify a readonly table");
}

static int script_proxy_next(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    if (lua_next(L, 1)) return 2;
    lua_pushnil(L);
    return 1;
}

static int script_proxy_pairs(lua_State *L)
{
    lua_pushcfunction(L, script_proxy_next);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushnil(L);
    return 3;
}

static int script_proxy_len(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, lua_upvalueindex(1)));
    return 1;
}

/* Replaces the table on top of the stack with an empty read-only proxy for it. */
void script_make_proxy(lua_State *L)
{
    int real = lua_gettop(L);
    lua_newtable(L);                 /* proxy */
    lua_createtable(L, 0, 6);        /* its metatable */
    lua_pushvalue(L, real);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, script_proxy_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushvalue(L, real);
    lua_pushcclosure(L, script_proxy_pairs, 1);
    lua_setfield(L, -2, "__pairs");
    lua_pushvalue(L, real);
    lua_pushcclosure(L, script_proxy_len, 1);
    lua_setfield(L, -2, "__len");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pushlightuserdata(L, (void *)&ro_marker);
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
    lua_setmetatable(L, -2);
    lua_replace(L, real);
}

static int script_is_readonly(lua_State *L, int idx)
{
    if (lua_type(L, idx) != LUA_TTABLE || !lua_getmetatable(L, idx)) return 0;
    lua_pushlightuserdata(L, (void *)&ro_marker);
    int ro = lua_rawget(L, -2) != LUA_TNIL;
    lua_pop(L, 2);
    return ro;
}

/* Redis raises these two without a position prefix (the patched VM raises from C). */
static int script_readonly_error(lua_State *L)
{
    lua_pushliteral(L, "Attempt to modify a readonly table");
    return lua_error(L);
}

int script_rawset(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    luaL_checkany(L, 3);
    if (script_is_readonly(L, 1)) return script_readonly_error(L);
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 1;
}

/* setmetatable that refuses read-only tables and, like Lua 5.1, ignores __gc on tables
 * (5.4 would run the finalizer later, outside any script). */
int script_setmetatable(lua_State *L)
{
    int t = lua_type(L, 2);
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
    if (script_is_readonly(L, 1)) return script_readonly_error(L);
    if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL)
        return luaL_error(L, "cannot change a protected metatable");
    lua_settop(L, 2);
    int gc = 0;
    if (t == LUA_TTABLE) {
        gc = script_rawfield(L, 2, "__gc") != LUA_TNIL;
        if (!gc) lua_pop(L, 1);
    }
    if (gc) {                       /* stack: t, mt, mt.__gc */
        lua_pushliteral(L, "__gc");
        lua_pushnil(L);
        lua_rawset(L, 2);
    }
    lua_pushvalue(L, 2);
    lua_setmetatable(L, 1);
    if (gc) {                       /* restore the field; the object stays unmarked */
        lua_pushliteral(L, "__gc");
        lua_insert(L, -2);
        lua_rawset(L, 2);
    }
    lua_settop(L, 1);
    return 1;
}

/* ---------------------------------------------------------------------------------------
 * The instruction budget */

/* Whether the script needs the count hook from its first instruction (see the file
 * comment): 0 only for a short body without loop or function keywords. */
int script_may_loop(const scripting *s, slice body)
{
    static const char *const words[] = { "while", "for", "repeat", "goto", "function", NULL };
    if (body.len > SCRIPT_UNHOOKED_MAX_BODY || s->insn_limit < SCRIPT_HOOK_CHUNK) return 1;
    for (const char *const *w = words; *w; w++) {
        size_t n = strlen(*w);
        for (const char *p = body.p, *end = body.p + body.len; (size_t)(end - p) >= n; p++) {
            p = memchr(p, (*w)[0], (size_t)(end - p) - n + 1);
            if (!p) break;
            if (memcmp(p, *w, n) == 0) return 1;
        }
    }
    return 0;
}

void script_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    scripting *s = script_of(L);
    if (!s->killed) {
        s->insn_used += (uint64_t)s->insn_chunk;
        if (s->insn_used >= s->insn_limit) s->killed = 1;
        /* FUNCTION LOAD ends after 500 ms of real time where the host keeps it (Redis's
         * LOAD_TIMEOUT_MS), whatever the instruction budget (serve sets none) */
        else if (s->fn_loading && s->elapsed_us && s->elapsed_us(s->elapsed_ud) - s->load_start_us > 500000) s->killed = 1;
        else if (s->tick && s->tick(s->tick_ud, s->wrote)) s->killed = 2;
        else return;
    }
    /* From now on every instruction of every thread that reaches here raises again. */
    lua_sethook(L, script_hook, LUA_MASKCOUNT, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->killed == 2 ? s->user_kill_ref : s->kill_ref);
    lua_error(L);
}

/* Arms the instruction budget for the rest of the running script (see the file comment).
 * Called before anything that can bring other Lua code or a new thread into an unhooked
 * script; new threads copy the hook of the thread that creates them. */
static void script_budget_arm(lua_State *L)
{
    scripting *s = script_of(L);
    if (!s->running || s->hooked) return;
    s->hooked = 1;
    lua_sethook(s->L, script_hook, LUA_MASKCOUNT, s->insn_chunk);
    if (L != s->L) lua_sethook(L, script_hook, LUA_MASKCOUNT, s->insn_chunk);
}

/* coroutine.create / coroutine.wrap: arm, then the original (upvalue 1). */
int script_coroutine_new(lua_State *L)
{
    script_budget_arm(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* The end of both: 5.4's load (upvalue 1) of the chunk and name at 1 and 2, with mode "t";
 * returns the function, or nil and the message. */
static int script_load_text(lua_State *L)
{
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_pushliteral(L, "t");
    lua_call(L, 3, 2);
    if (lua_isnil(L, 1)) return 2; /* nil, message */
    lua_settop(L, 1);
    return 1;
}

/* load(func [, chunkname]) as in 5.1 and loadstring(s [, chunkname]); both through 5.4's
 * load (upvalue 1) with mode "t", so bytecode is refused and the env is the sandbox. */
int script_load(lua_State *L)
{
    script_budget_arm(L);
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_settop(L, 2);
    if (lua_isnil(L, 2)) {
        lua_pushliteral(L, "=(load)");
        lua_replace(L, 2);
    }
    return script_load_text(L);
}

int script_loadstring(lua_State *L)
{
    script_budget_arm(L);
    luaL_checkstring(L, 1);
    lua_settop(L, 2);
    if (lua_isnil(L, 2)) {
        lua_pushvalue(L, 1);
        lua_replace(L, 2);
    }
    return script_load_text(L);
}

/* ---------------------------------------------------------------------------------------
 * Where an error was raised */

/* Lua state's message handler: records where the error was raised (skipping one C frame,
 * like Redis's __redis__err__handler) while the stack is still there. Must not raise. */
/* Lua 5.4 words a type error with the variable last ("attempt to call a nil value (field
 * 'f')"), Lua 5.1 first ("attempt to call field 'f' (a nil value)", ldebug.c's
 * luaG_typeerror): the string at idx, if it holds such a text, is replaced by 5.1's. Only
 * the kinds of variable 5.1 knows (local, global, field, upvalue, method) are reworded. */
void script_51_wording(lua_State *L, int idx)
{
    size_t n;
    if (lua_type(L, idx) != LUA_TSTRING) return;
    const char *m = lua_tolstring(L, idx, &n), *end = m + n;
    const char *at = strstr(m, "attempt to ");
    const char *val = at ? strstr(at, " value (") : NULL;
    if (!val || memchr(m, '\0', n)) return;
    const char *a = NULL; /* the last " a " before " value (": " a TYPE" */
    for (const char *p = at + 10; p + 3 <= val; p++)
        if (!memcmp(p, " a ", 3)) a = p;
    if (!a || a <= at + 10) return;
    const char *kind = val + 8, *sp = memchr(kind, ' ', (size_t)(end - kind));
    if (!sp || sp + 1 >= end || sp[1] != '\'') return;
    static const char *const kinds[] = { "local", "global", "field", "upvalue", "method" };
    int known = 0;
    for (size_t i = 0; i < LL_ARRAY_LEN(kinds); i++)
        known |= (size_t)(sp - kind) == strlen(kinds[i]) && !memcmp(kind, kinds[i], strlen(kinds[i]));
    const char *close = strstr(sp + 2, "')");
    if (!known || !close) return;
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addlstring(&b, m, (size_t)(a - m));                 /* ... "attempt to OP" */
    luaL_addchar(&b, ' ');
    luaL_addlstring(&b, kind, (size_t)(close + 1 - kind));    /* "KIND 'NAME'" */
    luaL_addlstring(&b, " (a ", 4);
    luaL_addlstring(&b, a + 3, (size_t)(val - a - 3));       /* "TYPE" */
    luaL_addlstring(&b, " value)", 7);
    luaL_addlstring(&b, close + 2, (size_t)(end - close - 2));
    luaL_pushresult(&b);
    lua_replace(L, idx < 0 ? idx - 1 : idx);
}

int script_msgh(lua_State *L)
{
    scripting *s = script_of(L);
    lua_Debug ar;
    int level = 1;
    if (!s->user_error) script_51_wording(L, 1);
    s->user_error = 0;
    s->err_has_line = 0;
    if (!lua_getstack(L, level, &ar) || !lua_getinfo(L, "Sf", &ar)) return 1;
    lua_CFunction cf = lua_tocfunction(L, -1);
    lua_pop(L, 1);
    if (strcmp(ar.what, "C") == 0) {
        level++;
        /* Our proxies' metamethods are an extra C frame Redis does not have (its read-only
         * tables are a VM patch): when a C function such as table.insert hit them, skip
         * that one too. */
        if ((cf == script_proxy_newindex || cf == script_global_missing) && lua_getstack(L, level, &ar) &&
            lua_getinfo(L, "S", &ar) && strcmp(ar.what, "C") == 0)
            level++;
    }
    if (!lua_getstack(L, level, &ar) || !lua_getinfo(L, "Sl", &ar)) return 1;
    s->err_has_line = 1;
    s->err_line = ar.currentline;
    snprintf(s->err_source, sizeof s->err_source, "%s", ar.source ? ar.source : "?");
    return 1;
}

/* ---------------------------------------------------------------------------------------
 * The allocator: the memory cap, and the instruction budget's share of work done in C */

void *script_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    scripting *s = ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        s->mem_used -= old;
        return NULL;
    }
    if (nsize > old) {
        if (s->mem_capped && s->mem_used - old + nsize > s->mem_limit) return NULL;
        /* Work done in C counts toward the instruction budget: a block of n bytes is about
         * n bytes written, by concatenation, string.rep, table.concat, a table's growth.
         * Else `s = s .. 'x'` in a loop, a handful of instructions per turn, copies the
         * whole string each turn and runs for hours within budget. The hook sees the sum at
         * its next call (every SCRIPT_HOOK_CHUNK instructions of a looping script). */
        if (s->running) s->insn_used += nsize / SCRIPT_BYTES_PER_INSN;
    }
    void *p = realloc(ptr, nsize);
    if (!p) return NULL;
    s->mem_used = s->mem_used - old + nsize;
    return p;
}
