/* script_args.c — a script's KEYS and ARGV tables: kept between runs in the registry and
 * refilled in place when the script left their shape alone (SCRIPT_PURE_ARGS: a fast script
 * that only indexes them cannot change or keep them), so that a lock script run a million
 * times does not build two tables each time. */
#include "scriptint.h"

#include <lauxlib.h>
#include <string.h>

/* Whether the table at idx is exactly {[1] = ..., ..., [n] = ...} without a metatable:
 * what a previous run left there unless the script changed its shape. Only raw reads. On
 * the way, bit i of *same is set when [i + 1] is the string v[i] already (i < 64). */
static int script_args_reusable(lua_State *L, int idx, const slice *v, int n, uint64_t *same)
{
    *same = 0;
    if (lua_getmetatable(L, idx)) {
        lua_pop(L, 1);
        return 0;
    }
    int count = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        int isint = 0;
        lua_Integer k = lua_type(L, -2) == LUA_TNUMBER ? lua_tointegerx(L, -2, &isint) : 0;
        if (!isint || k < 1 || k > n) {
            lua_pop(L, 2);
            return 0;
        }
        if (k <= 64 && lua_type(L, -1) == LUA_TSTRING) {
            size_t len;
            const char *p = lua_tolstring(L, -1, &len);
            if (len == v[k - 1].len && memcmp(p, v[k - 1].p, len) == 0) *same |= (uint64_t)1 << (k - 1);
        }
        lua_pop(L, 1);
        count++;
    }
    return count == n;
}

/* Pushes KEYS or ARGV for this run: the n values of v as strings. Redis gives every run a
 * fresh table; building one costs a table and n strings, so the entry's table from the
 * previous run is refilled instead when the script left it a plain sequence of n entries
 * (the only state a run can leave in it: globals are read-only, so nothing else can still
 * refer to it). Values equal to the previous run's are kept, which saves interning them
 * again. Any other shape gets a fresh table, so a run never sees what the last one stored.
 * May raise (memory): call it protected. */
int script_args_table(lua_State *L, int *ref, const slice *v, int n)
{
    int fresh = 1;
    uint64_t same = 0;
    if (*ref != LUA_NOREF) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, *ref);
        fresh = !script_args_reusable(L, lua_gettop(L), v, n, &same);
        if (fresh) lua_pop(L, 1);
    }
    if (fresh) {
        same = 0;
        lua_createtable(L, n, 0);
        lua_pushvalue(L, -1);
        if (*ref == LUA_NOREF)
            *ref = luaL_ref(L, LUA_REGISTRYINDEX);
        else
            lua_rawseti(L, LUA_REGISTRYINDEX, *ref);
    }
    for (int i = 0; i < n; i++) {
        if (i < 64 && (same >> i & 1u)) continue;
        lua_pushlstring(L, v[i].p, v[i].len);
        lua_rawseti(L, -2, i + 1);
    }
    return fresh;
}

/* Pushes KEYS (which = 0) or ARGV (1) for a SCRIPT_PURE_ARGS script: its table, refilled in
 * place without looking at it. Such a script can neither change the table nor keep it
 * (bytecode.h), so the table holds exactly what e->memo[which] says: only entries whose
 * text changed are replaced (no interning of the lease and owner run after run), and
 * those beyond n are cleared. May raise (memory): call it protected; the memo stays true
 * entry by entry whatever happens. */
int script_args_pure(lua_State *L, script_entry *e, int which, const slice *v, int n)
{
    args_memo *m = &e->memo[which];
    int *ref = &e->args_ref[which];
    int fresh = *ref == LUA_NOREF;
    if (fresh) {
        lua_createtable(L, n, 0);
        lua_pushvalue(L, -1);
        *ref = luaL_ref(L, LUA_REGISTRYINDEX);
    } else {
        lua_rawgeti(L, LUA_REGISTRYINDEX, *ref);
    }
    if (n > m->cap) {
        m->cap = n;
        m->p = xrealloc(m->p, (size_t)n * sizeof *m->p);
        m->len = xrealloc(m->len, (size_t)n * sizeof *m->len);
    }
    for (int i = 0; i < n; i++) {
        if (i < m->count && m->len[i] == v[i].len && (v[i].len == 0 || memcmp(m->p[i], v[i].p, v[i].len) == 0))
            continue;
        const char *p = lua_pushlstring(L, v[i].p, v[i].len);
        lua_rawseti(L, -2, i + 1);
        m->p[i] = p;
        m->len[i] = v[i].len;
        if (i == m->count) m->count++;
    }
    for (; m->count > n; m->count--) {
        lua_pushnil(L); /* an existing key: no allocation */
        lua_rawseti(L, -2, m->count);
    }
    return fresh;
}
