/* function.c — Redis 7.0's functions: FUNCTION LOAD / LIST / DELETE / FLUSH / STATS / KILL
 * / HELP, FCALL and FCALL_RO, on the server's Lua engine (script.c), with Redis 7.0.15's
 * texts (functions.c, function_lua.c).
 *
 * A library is its code, "#!lua name=<lib>" on the first line, run once at FUNCTION LOAD:
 * it registers functions with redis.register_function('name', callback) or
 * redis.register_function{function_name=, callback=, flags={...}, description=}. At load
 * time redis.call and redis.pcall are not there (Redis's load-time API has neither); at
 * FCALL the callback runs as a script does (the budget, the memory cap, the kill of
 * SCRIPT KILL through the host's tick, errors ending "script: <function>, on
 * @user_function:<line>."), called with its KEYS and ARGV as two tables.
 *
 * What differs: libraries and functions are listed in the order they were loaded and
 * registered (Redis: its hash order); the load-time sandbox is the scripts' own (globals
 * read-only, the same libraries) and the 500 ms load timeout is the instruction budget;
 * FUNCTION DUMP writes each library's code uncompressed (Redis LZF-compresses a code of
 * more than 20 bytes when that makes it shorter: the payload's bytes may then differ, but
 * either server restores either's payload); functions live in the server's Lua state and
 * are loaded again after SCRIPT FLUSH, which Redis keeps apart. */
#include "scriptint.h"

#include <ctype.h>
#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "glob.h"
#include "rdb.h"
#include "resp.h"

struct fn_def {
    char *name, *desc; /* desc NULL: none */
    unsigned flags;    /* SCRIPT_SHEBANG_NO_WRITES and the other flags, as names below */
    int ref;           /* the callback in the registry */
};

struct fn_lib {
    char *name;
    char *code; /* the whole payload, shebang included (WITHCODE) */
    size_t code_len;
    fn_def *fns;
    size_t nfns;
};

/* register_function's flags (Redis's scripts_flags_def), bit i for names[i]. */
static const char *const fn_flag_names[] = { "no-writes", "allow-oom", "allow-stale", "no-cluster",
                                             "allow-cross-slot-keys" };

static void fn_lib_free(scripting *s, fn_lib *l)
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

static fn_def *fn_find(scripting *s, slice name, fn_lib **lib)
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

static size_t fn_lib_index(scripting *s, const char *name)
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
static int fn_metadata(slice payload, char **name, size_t *code_at, buf *err)
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
static const char *fn_load(scripting *s, slice payload, int replace, buf *err)
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

/* ---- FCALL, FCALL_RO ---- */

/* Inside the protected call: KEYS and ARGV as two tables, then the callback. */
static int fn_trampoline(lua_State *L)
{
    scripting *s = script_of(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->fn_running->ref);
    for (int t = 0; t < 2; t++) {
        const slice *v = t ? s->run_args : s->run_keys;
        int n = t ? s->run_nargs : s->run_nkeys;
        lua_createtable(L, n, 0);
        for (int i = 0; i < n; i++) {
            lua_pushlstring(L, v[i].p, v[i].len);
            lua_rawseti(L, -2, i + 1);
        }
    }
    lua_call(L, 2, 1);
    return 1;
}

static void fcall_generic(cmdctx *c, int ro)
{
    scripting *s = c->lua;
    reply_release(c->out);
    if (s->running) {
        reply_error(c->out, "ERR This Redis command is not allowed from script");
        return;
    }
    fn_def *f = fn_find(s, c->argv[1], NULL);
    if (!f) {
        reply_error(c->out, "ERR Function not found");
        return;
    }
    long long numkeys;
    if (ll_parse_int64(c->argv[2], &numkeys) < 0) {
        reply_error(c->out, "ERR Bad number of keys provided");
        return;
    }
    if (numkeys > c->argc - 3) {
        reply_error(c->out, "ERR Number of keys can't be greater than number of args");
        return;
    }
    if (numkeys < 0) {
        reply_error(c->out, "ERR Number of keys can't be negative");
        return;
    }
    int no_writes = (f->flags & 1u) != 0;
    if (!no_writes && store_is_replica(c->db)) {
        reply_error(c->out, "READONLY You can't write against a read only replica.");
        return;
    }
    if (!no_writes && ro) {
        reply_error(c->out, "ERR Can not execute a script with write flag using *_ro command.");
        return;
    }
    script_run_function(c, f, f->name, ro || no_writes, (int)numkeys, fn_trampoline);
}

void cmd_fcall(cmdctx *c) { fcall_generic(c, 0); }
void cmd_fcall_ro(cmdctx *c) { fcall_generic(c, 1); }

/* ---- FUNCTION ---- */

static void fn_list_entry(reply *r, const fn_lib *l, int withcode)
{
    reply *e = reply_array(r, withcode ? 8 : 6);
    reply_bulk_cstr(&e[0], "library_name");
    reply_bulk_cstr(&e[1], l->name);
    reply_bulk_cstr(&e[2], "engine");
    reply_bulk_cstr(&e[3], "LUA");
    reply_bulk_cstr(&e[4], "functions");
    reply *fs = reply_array(&e[5], l->nfns);
    for (size_t k = 0; k < l->nfns; k++) {
        const fn_def *f = &l->fns[k];
        reply *m = reply_array(&fs[k], 6);
        reply_bulk_cstr(&m[0], "name");
        reply_bulk_cstr(&m[1], f->name);
        reply_bulk_cstr(&m[2], "description");
        if (f->desc) reply_bulk_cstr(&m[3], f->desc);
        else reply_nil(&m[3]);
        reply_bulk_cstr(&m[4], "flags");
        size_t n = 0;
        for (size_t b = 0; b < LL_ARRAY_LEN(fn_flag_names); b++) n += (f->flags >> b) & 1u;
        reply *fl = reply_array(&m[5], n);
        for (size_t b = 0, j = 0; b < LL_ARRAY_LEN(fn_flag_names); b++)
            if ((f->flags >> b) & 1u) reply_bulk_cstr(&fl[j++], fn_flag_names[b]);
    }
    if (withcode) {
        reply_bulk_cstr(&e[6], "library_code");
        reply_bulk(&e[7], l->code, l->code_len);
    }
}

static void fn_list(cmdctx *c)
{
    scripting *s = c->lua;
    int withcode = 0;
    slice pat = { NULL, 0 };
    for (int i = 2; i < c->argc; i++) {
        if (!withcode && slice_eq_nocase(c->argv[i], "withcode")) {
            withcode = 1;
        } else if (!pat.p && slice_eq_nocase(c->argv[i], "libraryname")) {
            if (i >= c->argc - 1) {
                reply_error(c->out, "ERR library name argument was not given");
                return;
            }
            pat = c->argv[++i];
        } else {
            slice a = slice_cstr_prefix(c->argv[i]);
            reply_errorf(c->out, "ERR Unknown argument %.*s", (int)(a.len < 128 ? a.len : 128), a.p);
            return;
        }
    }
    size_t n = 0;
    for (size_t i = 0; i < s->nlibs; i++)
        n += !pat.p || glob_match_nocase(pat.p, pat.len, s->libs[i]->name, strlen(s->libs[i]->name));
    reply *e = reply_array(c->out, n);
    for (size_t i = 0; i < s->nlibs; i++)
        if (!pat.p || glob_match_nocase(pat.p, pat.len, s->libs[i]->name, strlen(s->libs[i]->name)))
            fn_list_entry(e++, s->libs[i], withcode);
}

/* ---- FUNCTION DUMP / RESTORE: Redis 7.0's payload (functions.c, rdb.c) ----
 *
 * For each library RDB_OPCODE_FUNCTION2 (245) and its code as an RDB string, then the RDB
 * version (10, two bytes little-endian) and the CRC-64 (Jones, reflected, as Redis's crc64)
 * of everything before it, eight bytes little-endian (rdb.c). */

#define FN_OPCODE_FUNCTION2 245

static void fn_dump(cmdctx *c)
{
    scripting *s = c->lua;
    buf b;
    buf_init(&b);
    for (size_t i = 0; i < s->nlibs; i++) {
        buf_putc(&b, (char)FN_OPCODE_FUNCTION2);
        rdb_put_len(&b, s->libs[i]->code_len);
        buf_append(&b, s->libs[i]->code, s->libs[i]->code_len);
    }
    buf_putc(&b, RDB_VERSION & 0xff);
    buf_putc(&b, RDB_VERSION >> 8);
    uint64_t crc = rdb_crc64((const unsigned char *)b.p, b.len);
    for (int i = 0; i < 8; i++) buf_putc(&b, (char)(crc >> (8 * i)));
    reply_bulk(c->out, b.p, b.len);
    buf_release(&b);
}

/* FUNCTION RESTORE payload [FLUSH|APPEND|REPLACE] (Redis's functionRestoreCommand): the
 * libraries all load, or nothing changes. */
static void fn_restore(cmdctx *c)
{
    scripting *s = c->lua;
    enum { APPEND, REPLACE, FLUSH } policy = APPEND;
    if (c->argc == 4) {
        if (slice_eq_nocase(c->argv[3], "append")) policy = APPEND;
        else if (slice_eq_nocase(c->argv[3], "replace")) policy = REPLACE;
        else if (slice_eq_nocase(c->argv[3], "flush")) policy = FLUSH;
        else {
            reply_error(c->out, "ERR Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE.");
            return;
        }
    }
    slice data = c->argv[2];
    const unsigned char *p = (const unsigned char *)data.p;
    if (data.len < 10 || ((unsigned)p[data.len - 9] << 8 | p[data.len - 10]) > RDB_VERSION) {
        reply_error(c->out, "ERR DUMP payload version or checksum are wrong");
        return;
    }
    uint64_t crc = rdb_crc64(p, data.len - 8), want = 0;
    for (int i = 0; i < 8; i++) want |= (uint64_t)p[data.len - 8 + i] << (8 * i);
    if (crc != want) {
        reply_error(c->out, "ERR DUMP payload version or checksum are wrong");
        return;
    }
    /* the libraries' codes */
    rdb_reader r = { p, 0, data.len - 10 };
    char **codes = NULL;
    size_t *lens = NULL, n = 0;
    const char *err = NULL;
    while (r.at < r.end) {
        unsigned char type = p[r.at++];
        if (type != FN_OPCODE_FUNCTION2) { /* the 7.0 release candidates' format is not read */
            err = type == 246 ? "failed loading the given functions payload" : "given type is not a function";
            break;
        }
        codes = xrealloc(codes, (n + 1) * sizeof *codes);
        lens = xrealloc(lens, (n + 1) * sizeof *lens);
        if (rdb_get_string(&r, &codes[n], &lens[n]) < 0) {
            err = "Failed loading library payload";
            break;
        }
        n++;
    }
    buf e;
    buf_init(&e);
    if (err) goto done;
    /* APPEND refuses a library that exists; REPLACE takes the old one out (put back if
     * anything fails); FLUSH starts from none. */
    fn_lib **saved = s->libs;
    size_t nsaved = s->nlibs;
    s->libs = xmalloc((nsaved + n + 1) * sizeof *s->libs);
    s->nlibs = 0;
    char *dup = NULL;
    for (size_t i = 0; policy != FLUSH && i < nsaved; i++) {
        int taken = 0;
        for (size_t k = 0; k < n && !taken; k++) {
            char *name;
            size_t code_at;
            buf ignore;
            buf_init(&ignore);
            if (fn_metadata((slice){ codes[k], lens[k] }, &name, &code_at, &ignore) == 0) {
                taken = !strcmp(name, saved[i]->name);
                free(name);
            }
            buf_release(&ignore);
        }
        if (taken && policy == APPEND && !dup) dup = xstrdup(saved[i]->name);
        if (!taken || policy == APPEND) s->libs[s->nlibs++] = saved[i];
    }
    size_t kept = s->nlibs;
    if (dup) buf_printf(&e, "Library %s already exists", dup);
    for (size_t k = 0; !dup && k < n; k++)
        if (!fn_load(s, (slice){ codes[k], lens[k] }, 0, &e)) break;
    free(dup);
    if (e.len) { /* undo: the new libraries go, the old ones come back */
        for (size_t i = kept; i < s->nlibs; i++) fn_lib_free(s, s->libs[i]);
        free(s->libs);
        s->libs = saved;
        s->nlibs = nsaved;
    } else { /* the libraries replaced or flushed go */
        for (size_t i = 0; i < nsaved; i++) {
            int still = 0;
            for (size_t k = 0; k < kept && !still; k++) still = s->libs[k] == saved[i];
            if (!still) fn_lib_free(s, saved[i]);
        }
        free(saved);
    }
done:
    if (err) reply_errorf(c->out, "ERR %s", err);
    else if (e.len) reply_errorf(c->out, "ERR %s", e.p);
    else reply_ok(c->out);
    buf_release(&e);
    for (size_t k = 0; k < n; k++) free(codes[k]);
    free(codes);
    free(lens);
}

static void fn_wrong_args(cmdctx *c, const char *sub)
{
    reply_errorf(c->out, "ERR wrong number of arguments for 'function|%s' command", sub);
}

void cmd_function(cmdctx *c)
{
    scripting *s = c->lua;
    slice sub = c->argv[1];
    reply_release(c->out);
    if (slice_eq_nocase(sub, "load")) {
        if (c->argc < 3) {
            fn_wrong_args(c, "load");
            return;
        }
        int replace = 0, at = 2;
        while (at < c->argc - 1) {
            if (slice_eq_nocase(c->argv[at], "replace")) {
                replace = 1;
                at++;
                continue;
            }
            slice a = slice_cstr_prefix(c->argv[at]);
            reply_errorf(c->out, "ERR Unknown option given: %.*s", (int)(a.len < 128 ? a.len : 128), a.p);
            return;
        }
        if (s->running) {
            reply_error(c->out, "ERR This Redis command is not allowed from script");
            return;
        }
        buf err;
        buf_init(&err);
        const char *name = fn_load(s, c->argv[at], replace, &err);
        if (name) reply_bulk_cstr(c->out, name);
        else reply_errorf(c->out, "ERR %s", err.p);
        buf_release(&err);
    } else if (slice_eq_nocase(sub, "list")) {
        fn_list(c);
    } else if (slice_eq_nocase(sub, "dump")) {
        if (c->argc != 2) fn_wrong_args(c, "dump");
        else fn_dump(c);
    } else if (slice_eq_nocase(sub, "restore")) {
        if (c->argc < 3) {
            fn_wrong_args(c, "restore");
        } else if (c->argc > 4) {
            slice a = slice_cstr_prefix(sub);
            reply_errorf(c->out, "ERR unknown subcommand or wrong number of arguments for '%.*s'. Try FUNCTION HELP.",
                         (int)(a.len < 128 ? a.len : 128), a.p);
        } else if (s->running) {
            reply_error(c->out, "ERR This Redis command is not allowed from script");
        } else {
            fn_restore(c);
        }
    } else if (slice_eq_nocase(sub, "delete")) {
        if (c->argc != 3) {
            fn_wrong_args(c, "delete");
            return;
        }
        char *name = xmemdup(c->argv[2].p, c->argv[2].len);
        size_t i = strlen(name) == c->argv[2].len ? fn_lib_index(s, name) : (size_t)-1;
        free(name);
        if (i == (size_t)-1) {
            reply_error(c->out, "ERR Library not found");
            return;
        }
        fn_lib_free(s, s->libs[i]);
        memmove(s->libs + i, s->libs + i + 1, (s->nlibs - i - 1) * sizeof *s->libs);
        s->nlibs--;
        reply_ok(c->out);
    } else if (slice_eq_nocase(sub, "flush")) {
        if (c->argc > 3) { /* Redis's addReplySubcommandSyntaxError */
            reply_error(c->out, "ERR unknown subcommand or wrong number of arguments for 'flush'. Try FUNCTION HELP.");
            return;
        }
        if (c->argc == 3 && !slice_eq_nocase(c->argv[2], "sync") && !slice_eq_nocase(c->argv[2], "async")) {
            reply_error(c->out, "ERR FUNCTION FLUSH only supports SYNC|ASYNC option");
            return;
        }
        function_flush(s);
        reply_ok(c->out);
    } else if (slice_eq_nocase(sub, "stats")) {
        if (c->argc != 2) {
            fn_wrong_args(c, "stats");
            return;
        }
        /* Asked while a script runs (a host lets FUNCTION STATS through while busy, as
         * Redis's allow-busy flag does): an EVAL's busy error, or the function running. */
        if (s->running && !s->fn_running) {
            reply_error(c->out, "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.");
            return;
        }
        size_t nf = 0;
        for (size_t i = 0; i < s->nlibs; i++) nf += s->libs[i]->nfns;
        reply *e = reply_array(c->out, 4);
        reply_tag(c->out, R3_MAP); /* maps in RESP3, as Redis answers */
        reply_bulk_cstr(&e[0], "running_script");
        if (s->running && s->fn_argv) {
            reply *r = reply_array(&e[1], 6);
            reply_tag(&e[1], R3_MAP);
            reply_bulk_cstr(&r[0], "name");
            reply_bulk_cstr(&r[1], s->fn_running->name);
            reply_bulk_cstr(&r[2], "command");
            reply *w = reply_array(&r[3], (size_t)s->fn_argc);
            for (int i = 0; i < s->fn_argc; i++) reply_bulk(&w[i], s->fn_argv[i].p, s->fn_argv[i].len);
            reply_bulk_cstr(&r[4], "duration_ms");
            reply_int(&r[5], (long long)(store_now(c->db) - s->fn_start_ms));
        } else {
            reply_nil(&e[1]);
        }
        reply_bulk_cstr(&e[2], "engines");
        reply *en = reply_array(&e[3], 2);
        reply_tag(&e[3], R3_MAP);
        reply_bulk_cstr(&en[0], "LUA");
        reply *m = reply_array(&en[1], 4);
        reply_tag(&en[1], R3_MAP);
        reply_bulk_cstr(&m[0], "libraries_count");
        reply_int(&m[1], (long long)s->nlibs);
        reply_bulk_cstr(&m[2], "functions_count");
        reply_int(&m[3], (long long)nf);
    } else if (slice_eq_nocase(sub, "kill")) {
        if (c->argc != 2) {
            fn_wrong_args(c, "kill");
            return;
        }
        reply_error(c->out, "NOTBUSY No scripts in execution right now.");
    } else if (slice_eq_nocase(sub, "help") && c->argc == 2) {
        static const char *const help[] = {
            "FUNCTION <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
            "LOAD [REPLACE] <FUNCTION CODE>",
            "    Create a new library with the given library name and code.",
            "DELETE <LIBRARY NAME>",
            "    Delete the given library.",
            "LIST [LIBRARYNAME PATTERN] [WITHCODE]",
            "    Return general information on all the libraries:",
            "    * Library name",
            "    * The engine used to run the Library",
            "    * Library description",
            "    * Functions list",
            "    * Library code (if WITHCODE is given)",
            "    It also possible to get only function that matches a pattern using LIBRARYNAME argument.",
            "STATS",
            "    Return information about the current function running:",
            "    * Function name",
            "    * Command used to run the function",
            "    * Duration in MS that the function is running",
            "    If no function is running, return nil",
            "    In addition, returns a list of available engines.",
            "KILL",
            "    Kill the current running function.",
            "FLUSH [ASYNC|SYNC]",
            "    Delete all the libraries.",
            "    When called without the optional mode argument, the behavior is determined by the",
            "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
            "    * ASYNC: Asynchronously flush the libraries.",
            "    * SYNC: Synchronously flush the libraries.",
            "DUMP",
            "    Return a serialized payload representing the current libraries, can be restored using FUNCTION RESTORE command",
            "RESTORE <PAYLOAD> [FLUSH|APPEND|REPLACE]",
            "    Restore the libraries represented by the given payload, it is possible to give a restore policy to",
            "    control how to handle existing libraries (default APPEND):",
            "    * FLUSH: delete all existing libraries.",
            "    * APPEND: appends the restored libraries to the existing libraries. On collision, abort.",
            "    * REPLACE: appends the restored libraries to the existing libraries, On collision, replace the old",
            "      libraries with the new libraries (notice that even on this option there is a chance of failure",
            "      in case of functions name collision with another library).",
            "HELP",
            "    Prints this help.",
        };
        reply *e = reply_array(c->out, LL_ARRAY_LEN(help));
        for (size_t i = 0; i < LL_ARRAY_LEN(help); i++) reply_status(&e[i], help[i]);
    } else {
        slice a = slice_cstr_prefix(sub);
        reply_errorf(c->out, "ERR unknown subcommand '%.*s'. Try FUNCTION HELP.", (int)(a.len < 128 ? a.len : 128), a.p);
    }
}
