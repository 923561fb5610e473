/* script.c — the Lua bridge: EVAL / EVALSHA / EVAL_RO / EVALSHA_RO / SCRIPT under embedded
 * Lua 5.4, behaving as Redis 7.0.15 (which embeds Lua 5.1) behaves toward a script. This
 * file holds the script cache, the running of one script and the commands; the bridge's
 * converters and redis.call are in script_bridge.c, the libraries a script sees in
 * script_lib.c (with the catalogue of what differs from Lua 5.1), the sandbox and the budget
 * in script_sandbox.c, the state in script_state.c, KEYS and ARGV in script_args.c. What
 * they share is scriptint.h.
 *
 * One Lua state per server. Compiled scripts live in the registry; a dict maps the
 * lowercase hex SHA-1 of the body to the registry reference. SCRIPT FLUSH closes the state
 * and opens a fresh one (as Redis does); the math.random state survives it (as Redis's
 * global redisLrand48 state does).
 *
 * The sandbox's proxies cost a metamethod hop on every global read and every `redis.call`,
 * so a script whose bytecode proves it cannot tell the difference (bytecode.h: it never
 * writes a global, never holds _ENV or the redis table as a value, never names _G, load or
 * loadstring) runs against a second globals table holding the real fields, the real redis
 * table among them (SCRIPT_FAST_ENV). All the lock scripts do; each answers as it would
 * behind the proxies (pinned by tests/test_script.c). Such a script also cannot change or
 * keep its KEYS and ARGV tables when it only indexes them, so they are refilled in place
 * (SCRIPT_PURE_ARGS).
 */
#include "scriptint.h"

#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>

#include "bytecode.h"
#include "functionint.h"

/* ---------------------------------------------------------------------------------------
 * The state and the cache */

static void script_entry_release(void *payload)
{
    script_entry *e = payload;
    for (int t = 0; t < 2; t++) {
        free(e->memo[t].p);
        free(e->memo[t].len);
    }
}

static void script_state_close(scripting *s)
{
    if (!s->L) return;
    lua_sethook(s->L, NULL, 0, 0);
    lua_close(s->L);
    s->L = NULL;
    dict_free(s->cache, script_entry_release);
    s->cache = dict_new(sizeof(script_entry));
    memset(s->memo, 0, sizeof s->memo);
    memset(s->cmd_memo, 0, sizeof s->cmd_memo);
    s->fast_owner = NULL;
}

scripting *scripting_new(const scripting_config *cfg)
{
    scripting *s = xcalloc(1, sizeof *s);
    s->mem_limit = cfg && cfg->memory_limit ? cfg->memory_limit : SCRIPT_DEFAULT_MEMORY;
    s->insn_limit = cfg && cfg->instruction_limit ? cfg->instruction_limit : SCRIPT_DEFAULT_INSNS;
    /* With a host to tick, the hook fires every 100 instructions: a loop around an
     * expensive C call (a 30 MB string.find, a few ms) then hears SCRIPT KILL within a
     * fraction of a second. */
    int chunk = cfg && cfg->tick ? SCRIPT_HOOK_CHUNK / 100 : SCRIPT_HOOK_CHUNK;
    s->insn_chunk = s->insn_limit < (uint64_t)chunk ? (int)s->insn_limit : chunk;
    s->tick = cfg ? cfg->tick : NULL;
    s->tick_ud = cfg ? cfg->tick_ud : NULL;
    s->trace = cfg ? cfg->trace : NULL;
    s->trace_ud = cfg ? cfg->trace_ud : NULL;
    s->error = cfg ? cfg->error : NULL;
    s->error_ud = cfg ? cfg->error_ud : NULL;
    s->load = cfg ? cfg->load : NULL;
    s->load_ud = cfg ? cfg->load_ud : NULL;
    s->elapsed_us = cfg ? cfg->elapsed_us : NULL;
    s->elapsed_ud = cfg ? cfg->elapsed_ud : NULL;
    s->rand48 = 0x1234ABCD330EULL; /* redisLrand48's initial state */
    s->cache = dict_new(sizeof(script_entry));
    reply_init(&s->call_reply);
    script_state_open(s);
    return s;
}

void scripting_free(scripting *s)
{
    if (!s) return;
    function_flush(s);
    script_state_close(s);
    dict_free(s->cache, script_entry_release);
    reply_release(&s->call_reply);
    free(s->argv);
    free(s->numbuf);
    free(s);
}

size_t scripting_count(const scripting *s)
{
    return s->cache ? dict_size(s->cache) : 0;
}

void scripting_flush(scripting *s)
{
    script_state_close(s);
    script_state_open(s);
    function_reload(s); /* SCRIPT FLUSH leaves the functions (Redis keeps them apart) */
}

/* ---------------------------------------------------------------------------------------
 * Compiling */

/* Parses a "#!lua [flags=a,b]" first line (Redis 7.0's rules and texts). Returns the
 * offset where the Lua text starts (the shebang's newline is kept, so line numbers stay),
 * or -1 after filling err. */
static long script_shebang(slice body, unsigned *flags, reply *err)
{
    *flags = 0;
    if (body.len < 2 || memcmp(body.p, "#!", 2) != 0) return 0;
    *flags = SCRIPT_SHEBANG;
    const char *nl = memchr(body.p, '\n', body.len);
    if (!nl) {
        reply_error(err, "ERR Invalid script shebang");
        return -1;
    }
    const char *p = body.p, *end = nl;
    int part = 0;
    while (p < end) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
        if (p == end) break;
        const char *w = p;
        while (p < end && *p != ' ' && *p != '\t' && *p != '\r') p++;
        size_t wl = (size_t)(p - w);
        if (part++ == 0) {
            if (wl != 5 || memcmp(w, "#!lua", 5) != 0) {
                reply_errorf(err, "ERR Unexpected engine in script shebang: %.*s", (int)wl, w);
                return -1;
            }
        } else if (wl >= 6 && memcmp(w, "flags=", 6) == 0) {
            const char *f = w + 6;
            if (f == p) continue;
            for (;;) {
                const char *c = memchr(f, ',', (size_t)(p - f));
                size_t fl = (size_t)((c ? c : p) - f);
                static const char *const known[] = { "no-writes", "allow-oom", "allow-stale",
                                                     "no-cluster", "allow-cross-slot-keys", NULL };
                size_t k = 0;
                while (known[k] && !(strlen(known[k]) == fl && memcmp(known[k], f, fl) == 0)) k++;
                if (!known[k]) {
                    reply_errorf(err, "ERR Unexpected flag in script shebang: %.*s", (int)fl, f);
                    return -1;
                }
                if (k == 0) *flags |= SCRIPT_SHEBANG_NO_WRITES;
                if (k == 1) *flags |= SCRIPT_SHEBANG_ALLOW_OOM;
                if (!c) break;
                f = c + 1;
            }
        } else {
            reply_errorf(err, "ERR Unknown lua shebang option: %.*s", (int)wl, w);
            return -1;
        }
    }
    return (long)(nl - body.p);
}

static int script_dump_writer(lua_State *L, const void *p, size_t n, void *ud)
{
    (void)L;
    buf_append(ud, p, n);
    return 0;
}

/* SCRIPT_FAST_ENV and SCRIPT_PURE_ARGS for the chunk just compiled (on top of the stack),
 * whose _ENV becomes the fast globals when it may run against them (bytecode.h). */
static unsigned script_env_use(scripting *s)
{
    static const char *const sealed[] = { "redis", NULL };
    static const char *const indexed[] = { "KEYS", "ARGV", NULL };
    static const char *const banned[] = { "_G", "load", "loadstring", NULL };
    static const bytecode_rules rules = { sealed, indexed, banned };
    lua_State *L = s->L;
    buf dump;
    buf_init(&dump);
    unsigned v = lua_dump(L, script_dump_writer, &dump, 0) == 0 ? bytecode_env_use(dump.p, dump.len, &rules) : 0;
    buf_release(&dump);
    if (!(v & BYTECODE_ENV_SAFE)) return 0;
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->fast_globals_ref);
    const char *up = lua_setupvalue(L, -2, 1); /* a main chunk's one upvalue is _ENV */
    LL_ASSERT(up != NULL);
    return SCRIPT_FAST_ENV | ((v & BYTECODE_INDEXED_SAFE) ? SCRIPT_PURE_ARGS : 0);
}

/* Compiles body and caches it under sha. Returns the entry, or NULL after filling err. */
static script_entry *script_compile(scripting *s, slice body, const char *sha, reply *err)
{
    unsigned flags;
    long off = script_shebang(body, &flags, err);
    if (off < 0) return NULL;
    lua_State *L = s->L;
    script_probe_wants(s);
    s->mem_capped = 1;
    const char *text = body.p + off;
    size_t len = body.len - (size_t)off;
    int rc = s->load ? s->load(s->load_ud, L, text, len, "@user_script")
                     : luaL_loadbufferx(L, text, len, "@user_script", "t");
    s->mem_capped = 0;
    if (rc != LUA_OK) {
        size_t ml = 0;
        const char *m = lua_tolstring(L, -1, &ml);
        /* Lua 5.1 quotes the end-of-stream token ("near '<eof>'"), 5.4 does not. */
        static const char eof54[] = "near <eof>";
        if (m && ml >= sizeof eof54 - 1 && strcmp(m + ml - (sizeof eof54 - 1), eof54) == 0)
            reply_errorf(err, "ERR Error compiling script (new function): %.*snear '<eof>'",
                         (int)(ml - (sizeof eof54 - 1)), m);
        else
            reply_errorf(err, "ERR Error compiling script (new function): %s", m ? m : "?");
        lua_pop(L, 1);
        if (rc == LUA_ERRMEM) lua_gc(L, LUA_GCCOLLECT, 0);
        return NULL;
    }
    flags |= script_env_use(s);
    int existed;
    memset(s->memo, 0, sizeof s->memo); /* dict_put may move the entries */
    script_entry *e = dict_put(s->cache, (slice){ sha, 40 }, &existed);
    LL_ASSERT(!existed);
    e->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    e->flags = flags | (script_may_loop(s, body) ? SCRIPT_MAY_LOOP : 0);
    e->args_ref[0] = e->args_ref[1] = LUA_NOREF;
    e->env_ref = LUA_NOREF;
    return e;
}

/* Finds a cached script by sha (any case). NULL if absent or not 40 characters. */
static script_entry *script_lookup(scripting *s, slice sha, char lower[41])
{
    if (sha.len != 40) return NULL;
    for (int m = 0; m < 2; m++)
        if (s->memo[m].e && memcmp(s->memo[m].raw, sha.p, 40) == 0) {
            memcpy(lower, s->memo[m].lower, 41);
            return s->memo[m].e;
        }
    for (int i = 0; i < 40; i++) { /* branch-free, so the compiler can vectorise it */
        unsigned char c = (unsigned char)sha.p[i];
        lower[i] = (char)(c | ((unsigned char)(c - 'A') < 26u) << 5);
    }
    lower[40] = '\0';
    script_entry *e = dict_get(s->cache, (slice){ lower, 40 });
    if (e) {
        unsigned m = s->memo_next++ & 1u;
        memcpy(s->memo[m].raw, sha.p, 40);
        memcpy(s->memo[m].lower, lower, 41);
        s->memo[m].e = e;
    }
    return e;
}

/* ---------------------------------------------------------------------------------------
 * Running */

/* Gives the fast script e a copy of the fast globals as its own _ENV. Runs with the memory
 * cap off (a few dozen fields), so it cannot raise. */
static void script_own_env(scripting *s, script_entry *e)
{
    lua_State *L = s->L;
    int capped = s->mem_capped;
    s->mem_capped = 0;
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->fast_globals_ref);
    script_push_copy(L);                                     /* F, E */
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->ref);
    lua_pushvalue(L, -2);                                    /* F, E, fn, E */
    const char *up = lua_setupvalue(L, -2, 1);
    LL_ASSERT(up != NULL);
    lua_pop(L, 1);
    e->env_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_pop(L, 1);
    e->installed[0] = e->installed[1] = 0;
    s->mem_capped = capped;
}

/* Runs inside the protected call: sets KEYS and ARGV (allocation may fail under the memory
 * cap, so it must be protected too), then calls the script for one result. KEYS and ARGV
 * go into the real globals (a slow script), the shared fast globals (unless they hold this
 * script's tables already), or the script's own copy (once, and when a table changes). */
static int script_trampoline(lua_State *L)
{
    scripting *s = script_of(L);
    script_entry *e = s->run_entry;
    int fast = (e->flags & SCRIPT_FAST_ENV) != 0;
    if (fast && e->env_ref == LUA_NOREF && ++e->runs >= SCRIPT_OWN_ENV_RUNS) script_own_env(s, e);
    int own = e->env_ref != LUA_NOREF;
    int target = own ? e->env_ref : fast ? s->fast_globals_ref : s->globals_ref;
    int stale = fast && !own && s->fast_owner != e;
    if (stale) s->fast_owner = NULL; /* until both tables are in */
    for (int t = 0; t < 2; t++) {
        const slice *v = t ? s->run_args : s->run_keys;
        int n = t ? s->run_nargs : s->run_nkeys;
        int fresh = (e->flags & SCRIPT_PURE_ARGS) ? script_args_pure(L, e, t, v, n)
                                                   : script_args_table(L, &e->args_ref[t], v, n);
        if (!fast || fresh || (own ? !e->installed[t] : stale)) {
            /* A real globals table (the script's own or a shared one): no __newindex. */
            lua_rawgeti(L, LUA_REGISTRYINDEX, target);
            lua_insert(L, -2);
            lua_setfield(L, -2, t ? "ARGV" : "KEYS");
            e->installed[t] = own;
        }
        lua_pop(L, 1);
    }
    if (fast && !own) s->fast_owner = e;
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->ref);
    lua_call(L, 0, 1);
    return 1;
}

static void script_append_suffix(scripting *s, buf *b)
{
    buf_printf(b, " script: %s", s->run_name ? s->run_name : s->sha);
    if (s->err_has_line) buf_printf(b, ", on %s:%d.", s->err_source, s->err_line);
}

/* Turns the error object on top of the stack (after a failed pcall with status rc) into
 * EVAL's error reply. Runs unprotected with the cap off: only plain reads and tostring of
 * values that cannot carry a script-set __tostring. */
static void script_error_reply(scripting *s, int rc, reply *out)
{
    lua_State *L = s->L;
    buf b;
    buf_init(&b);
    int counted = 0; /* an error redis.call raised: counted when its command replied */
    if (s->killed) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, s->killed == 2 ? s->user_kill_ref : s->kill_ref);
        lua_getfield(L, -1, "err");
        buf_puts(&b, lua_tostring(L, -1));
        lua_pop(L, 2);
        script_append_suffix(s, &b);
    } else if (rc == LUA_ERRMEM) {
        buf_printf(&b, "ERR Script ran out of memory: the Lua memory limit is %zu bytes script: %s",
                   s->mem_limit, s->sha);
    } else if (lua_type(L, -1) == LUA_TTABLE) {
        int t = script_rawfield(L, -1, "err");
        if (t == LUA_TSTRING || t == LUA_TNUMBER)
            buf_puts(&b, lua_tostring(L, -1));
        else
            buf_puts(&b, "ERR Script raised an error table without an 'err' field");
        lua_pop(L, 1);
        script_rawfield(L, -1, "ignore_error_stats_update");
        counted = lua_toboolean(L, -1);
        lua_pop(L, 1);
        script_append_suffix(s, &b);
    } else {
        int t = lua_type(L, -1);
        buf_puts(&b, "ERR ");
        if (t == LUA_TSTRING || t == LUA_TNUMBER)
            buf_puts(&b, lua_tostring(L, -1));
        else if (t == LUA_TNIL)
            buf_puts(&b, "nil");
        else if (t == LUA_TBOOLEAN)
            buf_puts(&b, lua_toboolean(L, -1) ? "true" : "false");
        else
            buf_printf(&b, "%s: %p", lua_typename(L, t), lua_topointer(L, -1));
        script_append_suffix(s, &b);
    }
    for (size_t i = 0; i < b.len; i++)
        if (b.p[i] == '\r' || b.p[i] == '\n') b.p[i] = ' ';
    reply_error(out, b.p);
    if (!counted) script_count_error(s, out->str);
    else s->reply_counted++;
    buf_release(&b);
}

/* Runs the cached script e (whose sha it is) for EVAL's context c, with its first nkeys
 * arguments after numkeys as KEYS and the rest as ARGV, and replies into c->out; ro for
 * EVAL_RO / EVALSHA_RO. */
/* The run of a script or a function: its context set, `call` run protected under the
 * budget and the memory cap, its result or error replied. */
static void script_run_common(cmdctx *c, int ro, int hooked, int nkeys, lua_CFunction call)
{
    scripting *s = c->lua;
    reply *out = c->out;
    lua_State *L = s->L;
    int base = lua_gettop(L);
    s->run_keys = c->argv + 3;
    s->run_nkeys = nkeys;
    s->run_args = c->argv + 3 + nkeys;
    s->run_nargs = c->argc - 3 - nkeys;
    s->call = (cmdctx){ .db = c->db, .ps = c->ps, .lua = s, .out = &s->call_reply, .in_script = 1,
                        .dbs = c->dbs, .dbid = c->dbid, .rng = c->rng, .lim = c->lim,
                        .footprint = c->footprint };
    s->read_only = ro;
    s->resp3 = 0;
    s->user_error = 0;
    s->caller_resp3 = c->conn && c->conn->resp == 3;
    s->caller_srv = c->srv;
    s->killed = 0;
    s->wrote = 0;
    s->insn_used = 0;
    s->err_has_line = 0;
    s->reply_errors = s->reply_counted = 0;
    s->running = 1;
    s->hooked = hooked;
    if (s->hooked) lua_sethook(L, script_hook, LUA_MASKCOUNT, s->insn_chunk);
    lua_pushcfunction(L, script_msgh);
    lua_pushcfunction(L, call);
    s->mem_capped = 1;
    int rc = lua_pcall(L, 0, 1, base + 1);
    s->mem_capped = 0;
    s->running = 0;
    s->read_only = 0;
    if (s->hooked) lua_sethook(L, NULL, 0, 0);
    s->hooked = 0;
    reply_release(out);
    /* A script that caught the budget error and returned right away (`return pcall(f)`, a
     * tail call: no instruction of its own left to trap) still counts as killed. */
    if (rc == LUA_OK && !s->killed) {
        script_reply_from_lua(L, 0, out);
    } else {
        script_error_reply(s, rc, out);
        if (rc == LUA_ERRMEM) lua_gc(L, LUA_GCCOLLECT, 0);
    }
    reply_release(&s->call_reply);
    c->script_ran = 1;
    c->script_errors = s->reply_errors;
    c->script_counted = s->reply_counted;
    lua_settop(L, base);
    /* collectgarbage('stop') must not outlive the script that called it. */
    if (!lua_gc(L, LUA_GCISRUNNING)) lua_gc(L, LUA_GCRESTART);
    s->run_name = NULL;
    s->fn_running = NULL;
}

static void script_run(cmdctx *c, script_entry *e, const char *sha, int ro, int nkeys)
{
    scripting *s = c->lua;
    memcpy(s->sha, sha, 41);
    s->run_entry = e;
    s->run_name = NULL;
    s->allow_oom = (e->flags & SCRIPT_SHEBANG_ALLOW_OOM) != 0;
    script_run_common(c, ro || (e->flags & SCRIPT_SHEBANG_NO_WRITES), (e->flags & SCRIPT_MAY_LOOP) != 0, nkeys,
                      script_trampoline);
    s->allow_oom = 0;
}

void scripting_set_oom(scripting *s, int oom)
{
    if (s) s->oom = oom;
}

void scripting_set_noreplicas(scripting *s, int short_of)
{
    if (s) s->noreplicas = short_of;
}

/* What a script request (EVAL, EVALSHA, FCALL) declares before it runs: its shebang's flags
 * (*flags; 0 without a shebang), or its function (*fn). 0 for another request, or a script or
 * function this server does not have. */
static int script_declared(scripting *s, int argc, const slice *argv, unsigned *flags, const fn_def **fn)
{
    *flags = 0;
    *fn = NULL;
    if (argc < 2) return 0;
    if (slice_eq_nocase(argv[0], "eval")) {
        reply err;
        reply_init(&err);
        long at = script_shebang(argv[1], flags, &err);
        reply_release(&err);
        return at >= 0;
    }
    if (slice_eq_nocase(argv[0], "evalsha")) {
        char lower[41];
        script_entry *e = script_lookup(s, argv[1], lower);
        if (e) *flags = e->flags;
        return e != NULL;
    }
    if (slice_eq_nocase(argv[0], "fcall")) *fn = fn_find(s, argv[1], NULL);
    return *fn != NULL;
}

int scripting_declares_write(scripting *s, int argc, const slice *argv)
{
    unsigned flags;
    const fn_def *f;
    if (!script_declared(s, argc, argv, &flags, &f)) return 0;
    if (f) return !(f->flags & 1u); /* fn_flag_names: no-writes */
    return (flags & SCRIPT_SHEBANG) && !(flags & SCRIPT_SHEBANG_NO_WRITES);
}

void script_run_function(cmdctx *c, fn_def *f, const char *name, int ro, int nkeys, lua_CFunction call)
{
    scripting *s = c->lua;
    s->fn_running = f;
    s->run_name = name;
    s->fn_argc = c->argc;
    s->fn_argv = c->argv;
    s->fn_start_ms = store_now(c->db);
    s->allow_oom = (f->flags & 2u) != 0; /* fn_flag_names: allow-oom */
    script_run_common(c, ro, 1, nkeys, call); /* a function may always loop: hooked */
    s->allow_oom = 0;
    s->fn_argc = 0;
    s->fn_argv = NULL;
}

/* ---------------------------------------------------------------------------------------
 * The commands */

/* Whether a call of EVAL / EVALSHA / FCALL may write or replicate, as Redis 7.0's
 * evalGetCommandFlags and fcallGetCommandFlags judge it before running (CLIENT PAUSE WRITE
 * holds it): a script or function declared no-writes does not; one with a shebang and
 * without that flag does; one without a shebang, or not known, does (EVAL's own flags). */
int scripting_may_write(scripting *s, int argc, const slice *argv)
{
    if (argc < 2) return 1;
    if (slice_eq_nocase(argv[0], "eval")) {
        unsigned flags;
        reply err;
        reply_init(&err);
        long at = script_shebang(argv[1], &flags, &err);
        reply_release(&err);
        if (at < 0 || !(flags & SCRIPT_SHEBANG)) return 1;
        return !(flags & SCRIPT_SHEBANG_NO_WRITES);
    }
    if (slice_eq_nocase(argv[0], "evalsha")) {
        char lower[41];
        script_entry *e = script_lookup(s, argv[1], lower);
        if (!e || !(e->flags & SCRIPT_SHEBANG)) return 1;
        return !(e->flags & SCRIPT_SHEBANG_NO_WRITES);
    }
    if (slice_eq_nocase(argv[0], "fcall")) {
        fn_def *f = fn_find(s, argv[1], NULL);
        return !f || !(f->flags & SCRIPT_SHEBANG_NO_WRITES);
    }
    return 1;
}

/* Whether EVAL / EVALSHA / FCALL is refused past maxmemory before it runs (Redis 7.0's
 * scriptFlagsToCmdFlags: a script with a shebang, or a function, that may write and is not
 * allow-oom is denyoom; one without a shebang meets OOM at its first write instead). */
int scripting_denies_oom(scripting *s, int argc, const slice *argv)
{
    unsigned flags;
    const fn_def *f;
    if (!script_declared(s, argc, argv, &flags, &f)) return 0;
    if (f) return !(f->flags & 1u) && !(f->flags & 2u); /* no-writes, allow-oom */
    return (flags & SCRIPT_SHEBANG) && !(flags & SCRIPT_SHEBANG_NO_WRITES) && !(flags & SCRIPT_SHEBANG_ALLOW_OOM);
}

/* Redis 7.0 refuses to start a script with a shebang and without the no-writes flag (one
 * that declares it may write) on a replica, and under EVAL_RO / EVALSHA_RO, in that order.
 * A script without a shebang (eval-compat mode) is stopped at its first write instead.
 * Returns 1 after replying the refusal. */
static int script_refused(store *db, const script_entry *e, int ro, reply *out)
{
    if (!(e->flags & SCRIPT_SHEBANG) || (e->flags & SCRIPT_SHEBANG_NO_WRITES)) return 0;
    if (store_is_replica(db))
        reply_error(out, "READONLY You can't write against a read only replica.");
    else if (ro)
        reply_error(out, "ERR Can not execute a script with write flag using *_ro command.");
    else
        return 0;
    return 1;
}

/* Parses numkeys as EVAL does; 0 or -1 after replying. */
static int script_numkeys(slice arg, int nrest, long long *numkeys, reply *out)
{
    if (ll_parse_int64(arg, numkeys) < 0) {
        reply_error(out, ERR_NOT_INT);
        return -1;
    }
    if (*numkeys > nrest) {
        reply_error(out, "ERR Number of keys can't be greater than number of args");
        return -1;
    }
    if (*numkeys < 0) {
        reply_error(out, "ERR Number of keys can't be negative");
        return -1;
    }
    return 0;
}

static void script_eval_generic(cmdctx *c, int by_sha, int ro)
{
    scripting *s = c->lua;
    char sha[41];
    long long numkeys;
    script_entry *e;
    reply_release(c->out);
    if (s->running) { /* a script can never start another one */
        reply_error(c->out, "ERR This Redis command is not allowed from script");
        return;
    }
    if (by_sha) {
        /* Redis's order: a sha of the wrong length, then numkeys, then the cache. */
        if (c->argv[1].len != 40) {
            reply_error(c->out, "NOSCRIPT No matching script. Please use EVAL.");
            return;
        }
        if (script_numkeys(c->argv[2], c->argc - 3, &numkeys, c->out) < 0) return;
        if (!(e = script_lookup(s, c->argv[1], sha))) {
            reply_error(c->out, "NOSCRIPT No matching script. Please use EVAL.");
            return;
        }
    } else {
        if (script_numkeys(c->argv[2], c->argc - 3, &numkeys, c->out) < 0) return;
        script_sha1hex(c->argv[1].p, c->argv[1].len, sha);
        e = dict_get(s->cache, (slice){ sha, 40 });
        if (!e && !(e = script_compile(s, c->argv[1], sha, c->out))) return;
    }
    if (script_refused(c->db, e, ro, c->out)) return;
    script_run(c, e, sha, ro, (int)numkeys);
}

void cmd_eval(cmdctx *c) { script_eval_generic(c, 0, 0); }
void cmd_evalsha(cmdctx *c) { script_eval_generic(c, 1, 0); }
void cmd_eval_ro(cmdctx *c) { script_eval_generic(c, 0, 1); }
void cmd_evalsha_ro(cmdctx *c) { script_eval_generic(c, 1, 1); }

static void script_wrong_args(cmdctx *c, const char *sub)
{
    reply_errorf(c->out, "ERR wrong number of arguments for 'script|%s' command", sub);
}

void cmd_script(cmdctx *c)
{
    scripting *s = c->lua;
    slice sub = c->argv[1];
    reply_release(c->out);
    if (slice_eq_nocase(sub, "load")) {
        if (c->argc != 3) {
            script_wrong_args(c, "load");
            return;
        }
        char sha[41];
        script_sha1hex(c->argv[2].p, c->argv[2].len, sha);
        if (!dict_get(s->cache, (slice){ sha, 40 }) && !script_compile(s, c->argv[2], sha, c->out)) return;
        reply_bulk(c->out, sha, 40);
    } else if (slice_eq_nocase(sub, "exists")) {
        if (c->argc < 3) {
            script_wrong_args(c, "exists");
            return;
        }
        reply *e = reply_array(c->out, (size_t)c->argc - 2);
        for (int i = 2; i < c->argc; i++) {
            char lower[41];
            reply_int(&e[i - 2], script_lookup(s, c->argv[i], lower) != NULL);
        }
    } else if (slice_eq_nocase(sub, "flush")) {
        if (c->argc > 3 || (c->argc == 3 && !slice_eq_nocase(c->argv[2], "sync") &&
                            !slice_eq_nocase(c->argv[2], "async"))) {
            reply_error(c->out, "ERR SCRIPT FLUSH only support SYNC|ASYNC option");
            return;
        }
        scripting_flush(s);
        reply_ok(c->out);
    } else if (slice_eq_nocase(sub, "kill")) {
        if (c->argc != 2) {
            script_wrong_args(c, "kill");
            return;
        }
        /* Scripts run atomically to completion here: there is never one to kill. */
        reply_error(c->out, "NOTBUSY No scripts in execution right now.");
    } else if (slice_eq_nocase(sub, "debug")) {
        if (c->argc != 3) {
            script_wrong_args(c, "debug");
            return;
        }
        if (slice_eq_nocase(c->argv[2], "no")) {
            reply_ok(c->out);
        } else if (slice_eq_nocase(c->argv[2], "yes") || slice_eq_nocase(c->argv[2], "sync")) {
            /* Redis would start its Lua debugger (LDB) for this connection's next EVAL. */
            reply_error(c->out, "ERR locklab has no Lua debugger: SCRIPT DEBUG YES|SYNC is not supported");
        } else {
            reply_error(c->out, "ERR Use SCRIPT DEBUG YES/SYNC/NO");
        }
    } else if (slice_eq_nocase(sub, "help")) {
        if (c->argc != 2) {
            script_wrong_args(c, "help");
            return;
        }
        /* Redis 7.0.15's text, line for line. */
        static const char *const help[] = {
            "SCRIPT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
            "DEBUG (YES|SYNC|NO)",
            "    Set the debug mode for subsequent scripts executed.",
            "EXISTS <sha1> [<sha1> ...]",
            "    Return information about the existence of the scripts in the script cache.",
            "FLUSH [ASYNC|SYNC]",
            "    Flush the Lua scripts cache. Very dangerous on replicas.",
            "    When called without the optional mode argument, the behavior is determined by the",
            "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
            "    * ASYNC: Asynchronously flush the scripts cache.",
            "    * SYNC: Synchronously flush the scripts cache.",
            "KILL",
            "    Kill the currently executing Lua script.",
            "LOAD <script>",
            "    Load a script into the scripts cache without executing it.",
            "HELP",
            "    Prints this help.",
        };
        size_t n = sizeof help / sizeof *help;
        reply *lines = reply_array(c->out, n);
        for (size_t i = 0; i < n; i++) reply_status(&lines[i], help[i]);
    } else {
        reply_errorf(c->out, "ERR unknown subcommand '%.*s'. Try SCRIPT HELP.", (int)sub.len, sub.p);
    }
}

int scripting_cached(scripting *s, slice body)
{
    char sha[41], lower[41];
    script_sha1hex(body.p, body.len, sha);
    return script_lookup(s, (slice){ sha, 40 }, lower) != NULL;
}

void scripting_set_deny_off(scripting *s, int off)
{
    s->deny_off = off;
}

int scripting_resp(const scripting *s)
{
    return s->resp3 ? 3 : 2;
}
