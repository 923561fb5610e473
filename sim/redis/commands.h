/* commands.h — the command table: each command's name, arity and flags, and its handler
 * (handlers.h). The table (commands.c) is the one place that knows every command file;
 * what reads it besides the server's command path (server.c, server_limits.c): COMMAND
 * (command_info.c, command_keys.c), a script's redis.call and redis.acl_check_cmd
 * (script_bridge.c, script_lib.c), EXEC (server_tx.c), INFO's commandstats
 * (server_stats.c), the key tracking of a command (tracking.c). Arity is checked
 * before the handler runs: `arity` > 0 means exactly that many arguments including the
 * name, < 0 means at least -arity. */
#ifndef LOCKLAB_COMMANDS_H
#define LOCKLAB_COMMANDS_H

#include "cmdctx.h"
#include "dbset.h"
#include "handlers.h"

enum {
    CMD_WRITE = 1 << 0,    /* may modify the keyspace */
    CMD_READONLY = 1 << 1,
    CMD_NOSCRIPT = 1 << 2, /* refused inside scripts */
    CMD_PUBSUB = 1 << 3,   /* allowed in RESP2 subscribe mode */
    CMD_FAST = 1 << 4,
    /* Propagates without writing the keyspace (PUBLISH): a read-only script refuses it as
     * a write (Redis 7.0's may-replicate). */
    CMD_MAY_REPLICATE = 1 << 5,
    /* MULTI, EXEC, DISCARD, WATCH, UNWATCH: run by the server itself (server.c), which
     * keeps each connection's transaction; their handlers are never called. */
    CMD_TX = 1 << 6,
    CMD_NO_MULTI = 1 << 7  /* refused inside MULTI, the transaction then aborted (SAVE, SHUTDOWN) */
};

typedef struct command {
    const char *name;      /* lower case */
    size_t namelen;
    int arity;
    unsigned flags;
    cmd_fn *fn;
} command;

/* command_info.c: whether Redis 7.0 flags cmd denyoom (refused past maxmemory) */
int command_denyoom(const command *cmd);
int command_skip_slowlog(const command *cmd); /* EXEC, AUTH, HELLO, ... (skip_slowlog) */
int command_may_replicate(const command *cmd); /* flagged write or may_replicate */

/* The footprint of running cmd: a command whose flags say neither read, write nor
 * may-replicate is taken to touch server state (a script runner is judged by its calls). */
#define CMD_KEYSPACE_FLAGS (CMD_READONLY | CMD_WRITE | CMD_MAY_REPLICATE)

int command_is_container(const command *cmd); /* it has subcommands (CLIENT, CONFIG, ...) */

const command *commands_lookup(slice name); /* case-insensitive; NULL if unknown */
/* COMMAND INFO's flags (acl 0) or ACL categories (acl 1) of a command, as redis-server
 * 7.0.15 gives them, space-separated; NULL for a name without a row (command_info.c). */
const char *command_doc_flags(const char *name, int acl);
size_t commands_count(void);
const command *commands_at(size_t i);
/* The lookup's perfect hash, exposed for tests/test_commands.c, which checks it: the slot
 * (0..COMMANDS_SLOTS-1) of a name under multiplier mul, the multiplier in use, and slot h's
 * entry (table index + 1, or 0 for none). */
#define COMMANDS_SLOTS 2048
unsigned commands_hash(slice name, uint32_t mul);
uint32_t commands_hash_mul(void);
unsigned commands_slot(unsigned h);

#endif
