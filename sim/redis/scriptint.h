/* scriptint.h — what the four files of the Lua bridge share, and nothing else sees:
 *
 *   script.c          the script cache, running one script, EVAL / EVALSHA / SCRIPT
 *   script_bridge.c   the converters (reply <-> Lua value) and the redis.call / pcall path
 *   script_lib.c      the rest of the redis table, bit, and the Lua 5.1 compatibility layer
 *   script_sandbox.c  the read-only proxies, the instruction budget and memory cap, the state
 *
 * The scripting struct (one per server), a cached script's entry, the limits and flags, and
 * the functions one of these files calls in another. The rest of the fake Redis uses
 * script.h. */
#ifndef LOCKLAB_SCRIPTINT_H
#define LOCKLAB_SCRIPTINT_H

#include <lua.h>

#include "commands.h"
#include "dict.h"
#include "script.h"

#define SCRIPT_DEFAULT_MEMORY ((size_t)64 << 20)
#define SCRIPT_DEFAULT_INSNS 500000000ULL
#define SCRIPT_HOOK_CHUNK 10000
#define SCRIPT_BYTES_PER_INSN 16      /* bytes allocated by a running script per budget instruction */
/* Redis 7.0 converts nested tables until lua_checkstack fails (LUAI_MAXCSTACK 8000):
 * observed, a self-referencing table replies with 7995 nested arrays, then the error. */
#define SCRIPT_MAX_REPLY_DEPTH 7995
#define SCRIPT_SHEBANG_NO_WRITES 1u
#define SCRIPT_SHEBANG 16u            /* has a #!lua line: Redis 7.0's flags mode, not eval-compat */
#define SCRIPT_SHEBANG_ALLOW_OOM 32u  /* flags=allow-oom (a function's: bit 1, fn_flag_names) */
#define SCRIPT_MAY_LOOP 2u            /* the body needs the count hook from the start */
#define SCRIPT_FAST_ENV 4u            /* runs against the real globals (bytecode.h) */
#define SCRIPT_PURE_ARGS 8u           /* ... and only reads KEYS and ARGV */
#define SCRIPT_UNHOOKED_MAX_BODY 1024
#define SCRIPT_CMD_MEMO 64            /* slots of scripting.cmd_memo, a power of two */
#define SCRIPT_CMD_WAYS 4             /* ... in sets of this many, a power of two */
/* A fast script runs against the shared fast globals, where KEYS and ARGV are set again
 * whenever another script ran in between, until this many runs; then it gets a copy of
 * its own, where they stay put. A copy costs about what 150 such settings do, and most of
 * a simulated world's scripts run a few times only. */
#define SCRIPT_OWN_ENV_RUNS 64

/* What a SCRIPT_PURE_ARGS script's KEYS or ARGV table holds: its entries 1..count are the
 * Lua strings whose texts are p[i] (owned by Lua, alive because the table refers to them). */
typedef struct args_memo {
    const char **p;
    size_t *len;
    int count, cap;
} args_memo;

typedef struct script_entry {
    int ref;         /* the compiled function in the registry */
    unsigned flags;  /* SCRIPT_SHEBANG_*, SCRIPT_MAY_LOOP, SCRIPT_FAST_ENV, SCRIPT_PURE_ARGS */
    /* This script's KEYS and ARGV tables in the registry (LUA_NOREF until its first run),
     * refilled in place by the next run (see script_args_table and script_args_pure). Per
     * script, because a client sends the same script much the same ARGV (lease, owner)
     * time after time. */
    int args_ref[2];
    args_memo memo[2];
    /* SCRIPT_FAST_ENV: runs so far, and, after SCRIPT_OWN_ENV_RUNS of them, the script's
     * own copy of the fast globals (its _ENV from then on; LUA_NOREF before) and whether
     * its KEYS / ARGV fields there are args_ref's tables already. */
    unsigned runs;
    int env_ref;
    int installed[2];
} script_entry;

typedef struct fn_def fn_def;
typedef struct fn_lib fn_lib;

struct scripting {
    lua_State *L;
    script_load_fn load;         /* compiles a body (script.h), or NULL */
    void *load_ud;
    dict *cache;                 /* lowercase sha → script_entry */
    int globals_ref;             /* the real globals table (KEYS, ARGV are set here) */
    int fast_globals_ref;        /* SCRIPT_FAST_ENV scripts' globals (until they get their own) */
    script_entry *fast_owner;    /* whose KEYS and ARGV tables are in those, or NULL */
    int kill_ref;                /* the pre-built {err=...} raised by the budget hook */
    int user_kill_ref;           /* and the one raised when the host's tick asks for a kill */
    script_tick_fn tick;         /* the host's periodic call, or NULL */
    void *tick_ud;
    int wrote;                   /* the running script has run a write command */
    /* maxmemory: the server was past it when the script's command came (scripting_set_oom),
     * and the running script or function is allow-oom; a denyoom call before any write is
     * then refused as Redis's scriptVerifyOOM refuses it */
    int oom, allow_oom;
    int noreplicas;              /* fewer good replicas than min-replicas-to-write: writes refused */
    /* Functions (function_load.c, function.c): the libraries in load order, the one loading (its
     * register_function calls land there), the function running. */
    fn_lib **libs;
    size_t nlibs;
    fn_lib *fn_loading;
    int64_t (*elapsed_us)(void *ud); /* scripting_config's: FUNCTION LOAD's timeout */
    void *elapsed_ud;
    int64_t load_start_us;       /* when the library being loaded started (elapsed_us) */
    fn_def *fn_running;
    /* The running function's FCALL (its words, borrowed for the run) and when it started (the
     * store's clock, ms): FUNCTION STATS's running_script, asked by a host while it runs. */
    int fn_argc;
    const slice *fn_argv;
    int64_t fn_start_ms;
    const char *run_name;        /* what an error's "script: ..." names: the sha or the function */
    size_t mem_used, mem_limit;
    int mem_capped;              /* the allocator enforces mem_limit */
    uint64_t insn_limit, insn_used;
    int insn_chunk;
    int killed;                  /* the budget tripped (1), the host killed it (2) */
    int hooked;                  /* the count hook is armed for the current script */
    int running;                 /* a script is executing */
    int read_only;               /* EVAL_RO / EVALSHA_RO / no-writes: refuse CMD_WRITE */
    int resp3;                   /* the running script said redis.setresp(3) */
    int user_error;              /* the error being raised is error()'s: kept as written */
    int caller_resp3;            /* and the connection it answers speaks RESP3 */
    /* DEBUG SET-DISABLE-DENY-SCRIPTS 1 (Redis's script_disable_deny_script): redis.call runs
     * the commands scripts may not call (CMD_NOSCRIPT), with the EVAL's server (caller_srv:
     * DEBUG SLEEP's host, its enable-debug-command) */
    int deny_off;
    server *caller_srv;
    char sha[41];                /* the running script */
    /* Where the last error was raised, captured by the message handler before unwinding. */
    int err_has_line;
    int err_line;
    char err_source[128];
    /* The running script's KEYS and ARGV (borrowed for the duration of the pcall). */
    const slice *run_keys, *run_args;
    int run_nkeys, run_nargs;
    script_entry *run_entry;
    /* The context every redis.call of the running script runs in: the EVAL's server parts
     * and database, no connection, in_script; a SELECT changes its db and dbid for the rest
     * of the script only. Each call sets argc and argv. */
    cmdctx call;
    uint64_t rand48;             /* redisLrand48 state (48 bits) */
    int repl_flags;              /* redis.set_repl(), accepted and ignored */
    script_trace_fn trace;
    void *trace_ud;
    script_error_fn error;       /* the errors of a script's reply that Redis counts (script.h) */
    void *error_ud;
    int reply_errors;            /* how many the running script's reply had */
    int reply_counted;           /* and errors in it that redis.call/pcall handed it */
    int call_refused;            /* the last redis.call's SCRIPT_CALL_* (script.h) */
    const command *call_cmd;     /* and its command, NULL if none */
    /* redis.call scratch: argv slices and number texts. */
    slice *argv;
    char (*numbuf)[32];
    size_t argv_cap;
    reply call_reply;            /* the current redis.call's reply (see the file comment) */
    /* EVALSHA's last hits: the sha exactly as sent → its entry, so a client repeating the
     * same shas skips case folding and hashing. Emptied whenever the cache changes. */
    struct { char raw[40]; char lower[41]; script_entry *e; } memo[2];
    unsigned memo_next;
    /* redis.call's command names: the Lua string's text pointer → its command, four-way
     * set-associative (a pointer may sit in any slot of its set of SCRIPT_CMD_WAYS; a full
     * set evicts its slots in turn). With two ways, three names of one script whose
     * addresses shared a pair evicted each other on every call, and whether they did
     * depended on where the allocator put them: a run-to-run swing of ~10% of the lock
     * script's instructions. Each cached string is pinned in the registry table pin_ref
     * (text pointer → string), so no other string can take its address while the entry
     * lives; emptied with the Lua state. */
    struct { const char *p; const command *cmd; } cmd_memo[SCRIPT_CMD_MEMO];
    unsigned cmd_memo_evict;
    int pin_ref;
    int probe_seen[4], probe_n;  /* what script_probe_wants saw */
};

/* The scripting struct of a state: its allocator's user data. */
static inline scripting *script_of(lua_State *L)
{
    void *ud;
    lua_getallocf(L, &ud);
    return ud;
}

/* script_bridge.c: the converters and the redis.call path. */
typedef struct script_banned script_banned;
void script_push_error_table(lua_State *L, const char *p, size_t len);
int script_rawfield(lua_State *L, int idx, const char *field);
void script_reply_from_lua(lua_State *L, int depth, reply *out);
int script_collect_args(scripting *s, lua_State *L, int argc);
const script_banned *script_banned_find(int argc, const slice *argv, int *container);
int script_redis_call(lua_State *L);
int script_redis_pcall(lua_State *L);
void script_probe_wants(scripting *s);

/* script.c: runs function f (function.c) as script_run runs a script: `call` pushes the
 * callback's result from inside the protected call; ro: writes refused (FCALL_RO, no-writes). */
void script_run_function(struct cmdctx *c, fn_def *f, const char *name, int ro, int nkeys, lua_CFunction call);

/* script_bridge.c: err, an error of the script's reply that Redis counts (script_error_fn). */
void script_count_error(scripting *s, const char *err);

/* function_load.c */
int script_register_function(lua_State *L);
void function_flush(scripting *s);
void function_reload(scripting *s);

/* script_lib.c: the libraries a script sees. */
void script_open_libs(lua_State *L);

/* script_sandbox.c: protection, budget, allocator. */
void script_make_proxy(lua_State *L);
/* The real globals' __index: "Script attempted to access nonexistent global variable" */
int script_global_missing(lua_State *L);
int script_rawset(lua_State *L);
int script_setmetatable(lua_State *L);
int script_coroutine_new(lua_State *L);
int script_load(lua_State *L);
int script_loadstring(lua_State *L);
int script_may_loop(const scripting *s, slice body);
void script_hook(lua_State *L, lua_Debug *ar);
int script_msgh(lua_State *L);
void script_51_wording(lua_State *L, int idx);
void *script_alloc(void *ud, void *ptr, size_t osize, size_t nsize); /* lua_Alloc: ud is the scripting */

/* script_args.c: KEYS and ARGV, kept and refilled (script.c's trampoline). */
/* Pushes KEYS or ARGV for this run: the n values of v as strings. Redis gives every run a
 * fresh table; building one costs a table and n strings, so the entry's table from the
 * previous run is refilled instead when the script left it a plain sequence of n entries
 * (the only state a run can leave in it: globals are read-only, so nothing else can still
 * refer to it). Values equal to the previous run's are kept, which saves interning them
 * again. Any other shape gets a fresh table, so a run never sees what the last one stored.
 * May raise (memory): call it protected. */
int script_args_table(lua_State *L, int *ref, const slice *v, int n);
/* Pushes KEYS (which = 0) or ARGV (1) for a SCRIPT_PURE_ARGS script: its table, refilled in
 * place without looking at it. Such a script can neither change the table nor keep it
 * (bytecode.h), so the table holds exactly what e->memo[which] says: only entries whose
 * text changed are replaced (no interning of the lease and owner run after run), and
 * those beyond n are cleared. May raise (memory): call it protected; the memo stays true
 * entry by entry whatever happens. */
int script_args_pure(lua_State *L, script_entry *e, int which, const slice *v, int n);

/* script_state.c: the state. */
void script_push_copy(lua_State *L);
void script_state_open(scripting *s);

#endif
