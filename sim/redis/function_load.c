/* function_load.c — loading a library of Redis 7.0's functions (FUNCTION LOAD, RESTORE, and
 * again after SCRIPT FLUSH): its shebang line (functionExtractLibMetaData), its body run once
 * in the load-time sandbox (function_lua.c, luaEngineCreate) where redis.register_function
 * is live, and the libraries' bookkeeping. The commands are in function.c; what differs from
 * Redis is said there. */
#include "functionint.h"

#include <ctype.h>
#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "resp.h"

/* register_function's flags (Redis's scripts_flags_def), bit i for names[i]. */
const char *const fn_flag_names[FN_NFLAGS] = { "no-writes", "allow-oom", "allow-stale", "no-cluster",
                                               "allow-cross-slot-keys" };

void fn_lib_free(scripting *s, fn_lib *l)
{
    if (!l) return;
    for (size_t i = 0; i < l->nfns; i++) {
        if (s->L) luaL_unref(s->L, LUA_REGISTRYINDEX, l->fns[i].ref);
        free(l->fns[i].name);
        free(l->fns[i].desc);
    }
    free(l->fns);
    free(l->name);
    free(l->code);
    free(l);
}

static int fn_name_ok(const char *p, size_t n)
{
    if (n == 0) return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)p[i]) && p[i] != '_') return 0;
    return 1;
}

fn_def *fn_find(scripting *s, slice name, fn_lib **lib)
{
    for (size_t i = 0; i < s->nlibs; i++)
        for (size_t k = 0; k < s->libs[i]->nfns; k++) {
            fn_def *f = &s->libs[i]->fns[k];
            if (strlen(f->name) == name.len && strncasecmp(f->name, name.p, name.len) == 0) {
                if (lib) *lib = s->libs[i];
                return f;
            }
        }
    return NULL;
}

size_t fn_lib_index(scripting *s, const char *name)
{
    for (size_t i = 0; i < s->nlibs; i++)
        if (!strcmp(s->libs[i]->name, name)) return i;
    return (size_t)-1;
}

/* ---- redis.register_function (only while a library loads: s->fn_loading) ---- */

/* Raises msg as Redis's luaPushError does here: {err = "ERR " .. msg}, no position. */
static int fn_raise(lua_State *L, const char *msg)
{
    script_push_error_table(L, msg, strlen(msg));
    return lua_error(L);
}

/* Redis 7.0's load-time globals (function_lua.c, luaEngineCreate): while a library's body
 * runs, the globals' reads go to a table that holds only `redis`, and that `redis` only
 * register_function, log, the LOG_* levels and the version; anything else raises "Script
 * attempted to access nonexistent global variable" (math, redis.call, redis.setresp...).
 * Afterwards they go back to the real globals, which the functions it registered see when
 * called (where redis.register_function is nil). Set on the globals' read-only proxy. */
static void fn_load_env(scripting *s, int on)
{
    lua_State *L = s->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS); /* the proxy */
    if (!lua_getmetatable(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->globals_ref);   /* proxy, mt, G */
    if (on) {
        lua_getmetatable(L, -1);
        lua_getfield(L, -1, "__index");                  /* ..., G, G's mt, missing */
        lua_newtable(L);                                 /* ..., missing, load G */
        lua_createtable(L, 0, 1);
        lua_pushvalue(L, -3);
        lua_setfield(L, -2, "__index");
        lua_setmetatable(L, -2);
        lua_newtable(L);                                 /* ..., missing, load G, load redis */
        lua_createtable(L, 0, 1);
        lua_pushvalue(L, -4);
        lua_setfield(L, -2, "__index");
        lua_setmetatable(L, -2);
        lua_pushcfunction(L, script_register_function);
        lua_setfield(L, -2, "register_function");
        lua_getfield(L, -5, "redis");                    /* the real redis, behind its proxy */
        if (lua_getmetatable(L, -1)) {
            lua_getfield(L, -1, "__index");
            static const char *const kept[] = { "log", "LOG_DEBUG", "LOG_VERBOSE", "LOG_NOTICE", "LOG_WARNING",
                                                "REDIS_VERSION", "REDIS_VERSION_NUM" };
            for (size_t i = 0; lua_istable(L, -1) && i < sizeof kept / sizeof *kept; i++) {
                lua_getfield(L, -1, kept[i]);
                lua_setfield(L, -5, kept[i]);
            }
            lua_pop(L, 2);
        }
        lua_pop(L, 1);
        script_make_proxy(L);                            /* load redis, read-only */
        lua_setfield(L, -2, "redis");
        lua_setfield(L, -5, "__index");                  /* the proxy's mt: load G */
        lua_pop(L, 3);                                   /* missing, G's mt, G */
    } else {
        lua_setfield(L, -2, "__index");
    }
    lua_pop(L, 2);
}

static int fn_string_arg(lua_State *L, int idx, char **out)
{
    if (!lua_isstring(L, idx)) return 0; /* a number too, as Redis's luaGetStringSds */
    size_t n;
    const char *p = lua_tolstring(L, idx, &n);
    *out = xmemdup(p, n);
    return 1;
}

int script_register_function(lua_State *L)
{
    scripting *s = script_of(L);
    fn_lib *l = s->fn_loading;
    if (!l) return fn_raise(L, "redis.register_function can only be called on FUNCTION LOAD command");
    int argc = lua_gettop(L);
    if (argc < 1 || argc > 2) return fn_raise(L, "wrong number of arguments to redis.register_function");
    fn_def f = { NULL, NULL, 0, LUA_NOREF };
    const char *err = NULL;
    int name_nul = 0; /* a name with a NUL byte in it (Redis's sds keeps it, and refuses it) */
    if (argc == 2) {
        if (!fn_string_arg(L, 1, &f.name)) return fn_raise(L, "first argument to redis.register_function must be a string");
        name_nul = memchr(lua_tostring(L, 1), 0, lua_rawlen(L, 1)) != NULL;
        if (!lua_isfunction(L, 2)) {
            free(f.name);
            return fn_raise(L, "second argument to redis.register_function must be a function");
        }
        lua_pushvalue(L, 2);
        f.ref = luaL_ref(L, LUA_REGISTRYINDEX);
    } else {
        if (!lua_istable(L, 1)) {
            err = "calling redis.register_function with a single argument is only applicable to Lua table "
                  "(representing named arguments).";
            goto bad;
        }
        lua_pushnil(L);
        while (lua_next(L, 1)) {
            if (lua_type(L, -2) != LUA_TSTRING) {
                err = "named argument key given to redis.register_function is not a string";
                lua_pop(L, 2);
                goto bad;
            }
            const char *key = lua_tostring(L, -2);
            if (!strcasecmp(key, "function_name")) {
                free(f.name);
                if (!fn_string_arg(L, -1, &f.name)) err = "function_name argument given to redis.register_function must be a string";
                else name_nul = memchr(lua_tostring(L, -1), 0, lua_rawlen(L, -1)) != NULL;
            } else if (!strcasecmp(key, "description")) {
                free(f.desc);
                if (!fn_string_arg(L, -1, &f.desc)) err = "description argument given to redis.register_function must be a string";
            } else if (!strcasecmp(key, "callback")) {
                if (!lua_isfunction(L, -1)) {
                    err = "callback argument given to redis.register_function must be a function";
                } else {
                    if (f.ref != LUA_NOREF) luaL_unref(L, LUA_REGISTRYINDEX, f.ref);
                    lua_pushvalue(L, -1);
                    f.ref = luaL_ref(L, LUA_REGISTRYINDEX);
                }
            } else if (!strcasecmp(key, "flags")) {
                if (!lua_istable(L, -1)) {
                    err = "flags argument to redis.register_function must be a table representing function flags";
                } else {
                    for (lua_Integer j = 1;; j++) {
                        lua_rawgeti(L, -1, j);
                        if (lua_isnil(L, -1)) {
                            lua_pop(L, 1);
                            break;
                        }
                        size_t k = 0;
                        const char *flag = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
                        while (flag && k < LL_ARRAY_LEN(fn_flag_names) && strcmp(flag, fn_flag_names[k])) k++;
                        lua_pop(L, 1);
                        if (!flag || k == LL_ARRAY_LEN(fn_flag_names)) {
                            err = "unknown flag given";
                            break;
                        }
                        f.flags |= 1u << k;
                    }
                }
            } else {
                err = "unknown argument given to redis.register_function";
            }
            lua_pop(L, 1);
            if (err) {
                lua_pop(L, 1);
                goto bad;
            }
        }
        if (!f.name) {
            err = "redis.register_function must get a function name argument";
            goto bad;
        }
        if (f.ref == LUA_NOREF) {
            err = "redis.register_function must get a callback argument";
            goto bad;
        }
    }
    if (name_nul || !fn_name_ok(f.name, strlen(f.name))) {
        err = "Library names can only contain letters, numbers, or underscores(_) and must be at least one character long";
        goto bad;
    }
    for (size_t i = 0; i < l->nfns; i++)
        if (!strcasecmp(l->fns[i].name, f.name)) {
            err = "Function already exists in the library";
            goto bad;
        }
    l->fns = xrealloc(l->fns, (l->nfns + 1) * sizeof *l->fns);
    l->fns[l->nfns++] = f;
    return 0;
bad:
    free(f.name);
    free(f.desc);
    if (f.ref != LUA_NOREF) luaL_unref(L, LUA_REGISTRYINDEX, f.ref);
    return fn_raise(L, err);
}

/* ---- loading ---- */

/* Runs a library's code (after its shebang line) as Redis's engine->create does: compiled
 * as "@user_function", run once with register_function live. 0, or -1 with the error text
 * (after "ERR ") in err. */
static int fn_lib_run(scripting *s, fn_lib *l, const char *code, size_t len, buf *err)
{
    lua_State *L = s->L;
    int base = lua_gettop(L);
    s->mem_capped = 1;
    int rc = luaL_loadbufferx(L, code, len, "@user_function", "t");
    if (rc != LUA_OK) {
        s->mem_capped = 0;
        buf_printf(err, "Error compiling function: %s", lua_tostring(L, -1));
        lua_settop(L, base);
        return -1;
    }
    lua_pushcfunction(L, script_msgh);
    lua_insert(L, -2);
    s->fn_loading = l;
    s->load_start_us = s->elapsed_us ? s->elapsed_us(s->elapsed_ud) : 0;
    s->killed = 0;
    s->insn_used = 0;
    s->running = 1;
    s->hooked = 1;
    memcpy(s->sha, "(library load)", 15);
    s->run_name = l->name;
    lua_sethook(L, script_hook, LUA_MASKCOUNT, s->insn_chunk);
    fn_load_env(s, 1);
    rc = lua_pcall(L, 0, 0, base + 1);
    fn_load_env(s, 0);
    lua_sethook(L, NULL, 0, 0);
    s->hooked = 0;
    s->running = 0;
    s->fn_loading = NULL;
    s->mem_capped = 0;
    if (rc != LUA_OK) {
        buf_puts(err, "Error registering functions: ");
        if (s->killed) {
            buf_puts(err, "ERR FUNCTION LOAD timeout");
        } else if (lua_type(L, -1) == LUA_TTABLE && script_rawfield(L, -1, "err") == LUA_TSTRING) {
            const char *m = lua_tostring(L, -1);
            buf_printf(err, "%s%s", strncmp(m, "ERR ", 4) && m[0] != '-' ? "ERR " : "", m);
        } else if (lua_type(L, -1) == LUA_TSTRING) {
            buf_printf(err, "ERR %s", lua_tostring(L, -1));
        } else {
            buf_puts(err, "ERR unknown error");
        }
        lua_settop(L, base);
        if (rc == LUA_ERRMEM) lua_gc(L, LUA_GCCOLLECT, 0);
        return -1;
    }
    lua_settop(L, base);
    return 0;
}

/* Redis's functionExtractLibMetaData: the engine and the name from the shebang line. */
int fn_metadata(slice payload, char **name, size_t *code_at, buf *err)
{
    if (payload.len < 2 || memcmp(payload.p, "#!", 2) != 0) {
        buf_puts(err, "Missing library metadata");
        return -1;
    }
    const char *nl = memchr(payload.p, '\n', payload.len);
    if (!nl) {
        buf_puts(err, "Invalid library metadata");
        return -1;
    }
    *code_at = (size_t)(nl - payload.p);
    *name = NULL;
    /* the shebang's words as Redis splits them (sdssplitargs: name="foo" is name=foo) */
    char *line = xmemdup(payload.p, (size_t)(nl - payload.p));
    resp_args parts = { 0 };
    int split = resp_split(line, &parts);
    free(line);
    if (split != 0 || parts.argc == 0) {
        resp_args_release(&parts);
        buf_puts(err, "Invalid library metadata");
        return -1;
    }
    const char *engine = parts.argv[0] + 2;
    size_t engine_len = parts.len[0] - 2;
    for (int i = 1; i < parts.argc; i++) {
        const char *w = parts.argv[i];
        size_t wl = parts.len[i];
        if (wl >= 5 && strncasecmp(w, "name=", 5) == 0) {
            if (*name) {
                buf_puts(err, "Invalid metadata value, name argument was given multiple times");
                goto bad;
            }
            *name = xmemdup(w + 5, wl - 5);
            continue;
        }
        buf_printf(err, "Invalid metadata value given: %.*s", (int)wl, w);
        goto bad;
    }
    if (!*name) {
        buf_puts(err, "Library name was not given");
        goto bad;
    }
    if (!fn_name_ok(*name, strlen(*name))) {
        buf_puts(err, "Library names can only contain letters, numbers, or underscores(_) and must be at least one "
                      "character long");
        goto bad;
    }
    if (engine_len != 3 || strncasecmp(engine, "lua", 3) != 0) {
        buf_printf(err, "Engine '%.*s' not found", (int)engine_len, engine);
        goto bad;
    }
    resp_args_release(&parts);
    return 0;
bad:
    resp_args_release(&parts);
    free(*name);
    *name = NULL;
    return -1;
}

/* FUNCTION LOAD's work: the library's name, or NULL with the error in err. */
const char *fn_load(scripting *s, slice payload, int replace, buf *err)
{
    char *name;
    size_t code_at;
    if (fn_metadata(payload, &name, &code_at, err) < 0) return NULL;
    size_t old = fn_lib_index(s, name);
    if (old != (size_t)-1 && !replace) {
        buf_printf(err, "Library '%s' already exists", name);
        free(name);
        return NULL;
    }
    fn_lib *l = xcalloc(1, sizeof *l);
    l->name = name;
    l->code = xmemdup(payload.p, payload.len);
    l->code_len = payload.len;
    if (fn_lib_run(s, l, payload.p + code_at, payload.len - code_at, err) < 0) goto bad;
    if (l->nfns == 0) {
        buf_puts(err, "No functions registered");
        goto bad;
    }
    for (size_t k = 0; k < l->nfns; k++) {
        fn_lib *owner;
        if (fn_find(s, slice_cstr(l->fns[k].name), &owner) && (old == (size_t)-1 || owner != s->libs[old])) {
            buf_printf(err, "Function %s already exists", l->fns[k].name);
            goto bad;
        }
    }
    if (old != (size_t)-1) {
        fn_lib_free(s, s->libs[old]);
        s->libs[old] = l;
    } else {
        s->libs = xrealloc(s->libs, (s->nlibs + 1) * sizeof *s->libs);
        s->libs[s->nlibs++] = l;
    }
    return l->name;
bad:
    fn_lib_free(s, l);
    return NULL;
}

void function_flush(scripting *s)
{
    for (size_t i = 0; i < s->nlibs; i++) fn_lib_free(s, s->libs[i]);
    free(s->libs);
    s->libs = NULL;
    s->nlibs = 0;
}

/* After the Lua state was made anew (SCRIPT FLUSH): every library's code runs again, so its
 * callbacks live in the new state. */
void function_reload(scripting *s)
{
    fn_lib **libs = s->libs;
    size_t n = s->nlibs;
    s->libs = NULL;
    s->nlibs = 0;
    for (size_t i = 0; i < n; i++) {
        buf err;
        buf_init(&err);
        for (size_t k = 0; k < libs[i]->nfns; k++) libs[i]->fns[k].ref = LUA_NOREF; /* the old state is gone */
        fn_load(s, (slice){ libs[i]->code, libs[i]->code_len }, 0, &err);
        buf_release(&err);
        lua_State *L = s->L;
        s->L = NULL; /* nothing to unref in the closed state */
        fn_lib_free(s, libs[i]);
        s->L = L;
    }
    free(libs);
}
