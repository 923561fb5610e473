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
 * read-only, the same libraries) and the 500 ms load timeout is real time where the host
 * keeps it (locklab serve: scripting_config's elapsed_us), the instruction budget elsewhere;
 * FUNCTION DUMP writes each library's code uncompressed (Redis LZF-compresses a code of
 * more than 20 bytes when that makes it shorter: the payload's bytes may then differ, but
 * either server restores either's payload); functions live in the server's Lua state and
 * are loaded again after SCRIPT FLUSH, which Redis keeps apart. */
#include "functionint.h"

#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "glob.h"
#include "rdb.h"

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

int function_loaded(const scripting *s)
{
    return s->nlibs > 0;
}
