/* script.h — the Lua bridge: EVAL / EVALSHA / SCRIPT under embedded Lua 5.4, with Redis
 * 7.0's conversion rules, sandbox, error texts and limits. One Lua state per server;
 * compiled scripts are cached by the SHA-1 of their body. The commands are in the command
 * table (commands.h) and reach their server's engine through their context; the server
 * makes one engine and frees it. See script_lib.c for what differs from Redis's embedded
 * Lua 5.1 and how it is hidden. */
#ifndef LOCKLAB_SCRIPT_H
#define LOCKLAB_SCRIPT_H

#include <stddef.h>
#include <stdint.h>

#include "pubsub.h"
#include "reply.h"
#include "store.h"

typedef struct scripting scripting;
struct lua_State;

/* Called for every redis.call / redis.pcall inside a script, after it ran (verbose traces). */
typedef void (*script_trace_fn)(void *ud, int argc, const slice *argv, const reply *r);

/* Compiles a script's body as luaL_loadbufferx(L, text, len, name, "t") does: pushes the
 * function, or the error message, and returns the status. Given by the server's owner to
 * share compiled bodies between servers (the engine's cache of compiled chunks). */
typedef int (*script_load_fn)(void *ud, struct lua_State *L, const char *text, size_t len,
                              const char *name);

/* Called from a running script every few thousand VM instructions (only scripts that can
 * loop: see script_sandbox.c), with whether it has written yet: returns 1 to kill it now
 * (SCRIPT KILL, FUNCTION KILL, the host stopping), 0 to let it run on. The host may do its
 * own work here (locklab serve answers other clients -BUSY once the script has run past
 * busy-reply-threshold). NULL: never asked. */
typedef int (*script_tick_fn)(void *ud, int wrote);

/* Called for each error a script's reply carries that Redis 7.0 counts in its error stats
 * (afterErrorReply): one the script made (`return {err=...}`, error(), a stack limit, its
 * kill), at any depth of the reply, but not one redis.call or redis.pcall handed it, which
 * was counted when that command replied (Redis's ignore_error_stats_update). */
typedef void (*script_error_fn)(void *ud, const char *err);

/* What a scripting engine is made with (its server's server_config, server.h). */
typedef struct scripting_config {
    size_t memory_limit;         /* bytes the Lua state may use; 0 = 64 MiB */
    uint64_t instruction_limit;  /* VM instructions one script may run; 0 = 500 million */
    script_trace_fn trace;       /* NULL: no trace */
    void *trace_ud;
    script_load_fn load;         /* NULL: luaL_loadbufferx */
    void *load_ud;
    script_tick_fn tick;         /* NULL: none */
    void *tick_ud;
    script_error_fn error;       /* NULL: none */
    void *error_ud;
    /* Real time in µs (a host's: locklab serve's), for FUNCTION LOAD's 500 ms timeout, as
     * Redis's (LOAD_TIMEOUT_MS); NULL: the instruction budget ends a load that does not. */
    int64_t (*elapsed_us)(void *ud);
    void *elapsed_ud;
} scripting_config;

scripting *scripting_new(const scripting_config *cfg); /* cfg NULL: the defaults */
void scripting_free(scripting *s);
void scripting_flush(scripting *s);            /* SCRIPT FLUSH */

/* Runs a redis.call from a script in the context c (cmdctx.h: the server's parts, the
 * call's arguments and reply, no connection, in_script set): checks that the command exists,
 * is allowed in scripts and has the right arity (with the script-specific error texts), then
 * executes it. The bridge's path; exposed for tests through server_call_from_script
 * (server.h). */
struct cmdctx;
void scripting_call(struct cmdctx *c);

/* The command of the redis.call just run (the one a script_trace_fn is told of), NULL if
 * Redis knows none by its name, and in *refused whether it ran, was refused before it ran
 * (Redis's scriptCall: a rejected call of that command) or was unknown. */
enum { SCRIPT_CALL_RAN, SCRIPT_CALL_REJECTED, SCRIPT_CALL_UNKNOWN };
struct command;
const struct command *scripting_call_command(const scripting *s, int *refused);

/* Is the script with this body in the cache (EVAL of it then adds nothing)? */
int scripting_cached(scripting *s, slice body);
/* How many scripts the cache holds (INFO memory's number_of_cached_scripts). */
size_t scripting_count(const scripting *s);
/* EVAL / EVALSHA / FCALL argv: whether Redis would count the call as one that may write */
int scripting_may_write(scripting *s, int argc, const slice *argv);
int function_loaded(const scripting *s); /* a function library is loaded */
/* DEBUG SET-DISABLE-DENY-SCRIPTS: scripts may call every command (Redis's test hook) */
void scripting_set_deny_off(scripting *s, int off);
/* The protocol a command called from the running script answers in: 3 after redis.setresp(3) */
int scripting_resp(const scripting *s);
int scripting_denies_oom(scripting *s, int argc, const slice *argv); /* refused past maxmemory */
void scripting_set_oom(scripting *s, int oom); /* the server is past maxmemory as a command comes */
void scripting_set_noreplicas(scripting *s, int short_of); /* fewer good replicas than min-replicas-to-write */
/* EVAL / EVALSHA / FCALL of a script with a shebang, or a function, not declared no-writes */
int scripting_declares_write(scripting *s, int argc, const slice *argv);

/* Lowercase hex SHA-1 of data into out[41]. */
void script_sha1hex(const char *data, size_t len, char out[41]);

#endif
