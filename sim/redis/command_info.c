/* command_info.c — COMMAND: the command table (commands.c) as Redis 7.0 describes its own,
 * so that COMMAND COUNT and COMMAND LIST say exactly what this server implements, and a
 * client library that reads COMMAND (or COMMAND INFO) at connect time finds the shape it
 * expects. What the table does not hold is filled in plainly: a command's legacy key
 * positions from a short list of exceptions, its ACL categories as read or write and fast
 * or slow, and no tips, key specs, subcommands or docs. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"

/* A command's legacy key positions (first, last, step), which Redis derives from its key
 * specs: most commands take one key, argv[1]; these are the others. */
static void command_keys(const command *cmd, long long pos[3])
{
    static const struct { const char *name; long long first, last, step; } odd[] = {
        { "blpop", 1, -2, 1 },  { "brpop", 1, -2, 1 },  { "copy", 1, 2, 1 },     { "dbsize", 0, 0, 0 },
        { "del", 1, -1, 1 },    { "exists", 1, -1, 1 }, { "flushall", 0, 0, 0 }, { "flushdb", 0, 0, 0 },
        { "keys", 0, 0, 0 },    { "mget", 1, -1, 1 },   { "mset", 1, -1, 2 },    { "msetnx", 1, -1, 2 },
        { "rename", 1, 2, 1 },  { "renamenx", 1, 2, 1 }, { "scan", 0, 0, 0 },    { "unlink", 1, -1, 1 },
        { "watch", 1, -1, 1 },
        { "move", 1, 1, 1 },    { "object", 0, 0, 0 }, { "select", 0, 0, 0 },   { "swapdb", 0, 0, 0 },
        { "smove", 1, 2, 1 },   { "sinter", 1, -1, 1 }, { "sinterstore", 1, -1, 1 }, { "sunion", 1, -1, 1 },
        { "sunionstore", 1, -1, 1 }, { "sdiff", 1, -1, 1 }, { "sdiffstore", 1, -1, 1 }, { "sintercard", 0, 0, 0 },
        { "rpoplpush", 1, 2, 1 }, { "lmove", 1, 2, 1 }, { "brpoplpush", 1, 2, 1 }, { "blmove", 1, 2, 1 },
        { "lmpop", 0, 0, 0 },   { "blmpop", 0, 0, 0 },  { "zmpop", 0, 0, 0 },      { "zunionstore", 1, 1, 1 },
        { "zinterstore", 1, 1, 1 }, { "zrangestore", 1, 2, 1 }, { "zdiffstore", 1, 1, 1 }, { "zunion", 0, 0, 0 },
        { "zinter", 0, 0, 0 },  { "zdiff", 0, 0, 0 },   { "zintercard", 0, 0, 0 },   { "bzmpop", 0, 0, 0 },
        { "bzpopmin", 1, -2, 1 }, { "bzpopmax", 1, -2, 1 }, { "touch", 1, -1, 1 },   { "randomkey", 0, 0, 0 },
        { "lcs", 1, 2, 1 },     { "sort", 1, 1, 1 },    { "sort_ro", 1, 1, 1 },
        { "bitop", 2, -1, 1 },  { "bitfield", 1, 1, 1 }, { "bitfield_ro", 1, 1, 1 },
        /* a shard channel is a key: it picks the cluster slot */
        { "spublish", 1, 1, 1 }, { "ssubscribe", 1, -1, 1 }, { "sunsubscribe", 1, -1, 1 },
    };
    int keyed = (cmd->flags & (CMD_WRITE | CMD_READONLY)) && strncmp(cmd->name, "eval", 4) != 0;
    pos[0] = pos[1] = pos[2] = keyed;
    for (size_t i = 0; i < LL_ARRAY_LEN(odd); i++)
        if (strcmp(odd[i].name, cmd->name) == 0) {
            pos[0] = odd[i].first;
            pos[1] = odd[i].last;
            pos[2] = odd[i].step;
        }
}

/* COMMAND INFO's entry: name, arity, flags, first key, last key, step, ACL categories,
 * tips, key specs, subcommands. The flags are the table's; the categories say read or write
 * and fast or slow; tips, key specs and subcommands are left empty. */
static void command_entry(const command *cmd, reply *r)
{
    static const struct { unsigned flag; const char *name; } flags[] = {
        { CMD_WRITE, "write" },   { CMD_READONLY, "readonly" }, { CMD_PUBSUB, "pubsub" },
        { CMD_NOSCRIPT, "noscript" }, { CMD_FAST, "fast" },     { CMD_MAY_REPLICATE, "may_replicate" },
    };
    reply *e = reply_array(r, 10);
    reply_bulk_cstr(&e[0], cmd->name);
    reply_int(&e[1], cmd->arity);
    size_t nf = 0;
    for (size_t i = 0; i < LL_ARRAY_LEN(flags); i++) nf += (cmd->flags & flags[i].flag) != 0;
    reply *f = reply_array(&e[2], nf);
    for (size_t i = 0, k = 0; i < LL_ARRAY_LEN(flags); i++)
        if (cmd->flags & flags[i].flag) reply_status(&f[k++], flags[i].name);
    long long pos[3];
    command_keys(cmd, pos);
    for (int i = 0; i < 3; i++) reply_int(&e[3 + i], pos[i]);
    /* A transaction command is @transaction, listed after its speed (Redis 7.0's order). */
    reply *acl = reply_array(&e[6], 2);
    int tx = (cmd->flags & CMD_TX) != 0;
    reply_status(&acl[tx], tx ? "@transaction" : cmd->flags & CMD_WRITE ? "@write" : "@read");
    reply_status(&acl[!tx], cmd->flags & CMD_FAST ? "@fast" : "@slow");
    for (int i = 7; i < 10; i++) reply_array(&e[i], 0);
}

/* COMMAND LIST FILTERBY MODULE name | ACLCAT category | PATTERN glob (ignoring case, as
 * Redis's stringmatchlen with nocase): no modules here; the categories are command_entry's. */
static void command_list_filtered(cmdctx *c)
{
    if (c->argc != 5 || !slice_opt_is(c->argv[2], "filterby")) {
        reply_error(c->out, ERR_SYNTAX);
        return;
    }
    slice by = c->argv[3], what = c->argv[4];
    int module = slice_opt_is(by, "module"), aclcat = slice_opt_is(by, "aclcat");
    if (!module && !aclcat && !slice_opt_is(by, "pattern")) {
        reply_error(c->out, ERR_SYNTAX);
        return;
    }
    size_t n = commands_count(), k = 0;
    const command **hit = xmalloc(n * sizeof *hit);
    for (size_t i = 0; i < n && !module; i++) {
        const command *cmd = commands_at(i);
        const char *kind = cmd->flags & CMD_TX ? "transaction" : cmd->flags & CMD_WRITE ? "write" : "read";
        int match = aclcat ? slice_opt_is(what, kind) ||
                                 slice_opt_is(what, cmd->flags & CMD_FAST ? "fast" : "slow")
                           : glob_match_nocase(what.p, what.len, cmd->name, cmd->namelen);
        if (match) hit[k++] = cmd;
    }
    reply *e = reply_array(c->out, k);
    for (size_t i = 0; i < k; i++) reply_bulk_cstr(&e[i], hit[i]->name);
    free(hit);
}

/* COMMAND, COMMAND COUNT, COMMAND LIST, COMMAND INFO [name ...], COMMAND DOCS [name ...]
 * (an empty answer: there are no docs here) and COMMAND HELP, with Redis 7.0's errors. */
void cmd_command(cmdctx *c)
{
    size_t n = commands_count();
    if (c->argc == 1) {
        reply *e = reply_array(c->out, n);
        for (size_t i = 0; i < n; i++) command_entry(commands_at(i), &e[i]);
        return;
    }
    slice sub = c->argv[1];
    if (slice_opt_is(sub, "list") && c->argc > 2) {
        command_list_filtered(c);
    } else if (slice_opt_is(sub, "count") || slice_opt_is(sub, "list") || slice_opt_is(sub, "help")) {
        if (c->argc != 2) {
            slice s = slice_cstr_prefix(sub);
            char name[16];
            size_t k;
            for (k = 0; k < s.len && k + 1 < sizeof name; k++) name[k] = (char)tolower((unsigned char)s.p[k]);
            name[k] = '\0';
            reply_errorf(c->out, "ERR wrong number of arguments for 'command|%s' command", name);
            return;
        }
        if (slice_opt_is(sub, "count")) {
            reply_int(c->out, (long long)n);
        } else if (slice_opt_is(sub, "list")) {
            reply *e = reply_array(c->out, n);
            for (size_t i = 0; i < n; i++) reply_bulk_cstr(&e[i], commands_at(i)->name);
        } else {
            static const char *const help[] = {
                "COMMAND <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
                "(no subcommand)", "    Return details about all Redis commands.", "COUNT",
                "    Return the total number of commands in this Redis server.", "LIST",
                "    Return a list of all commands in this Redis server.", "INFO [<command-name> ...]",
                "    Return details about multiple Redis commands.", "    If no command names are given, documentation details for all", "    commands are returned.",
                "DOCS [<command-name> ...]", "    Return documentation details about multiple Redis commands.",
                "    If no command names are given, documentation details for all", "    commands are returned.",
                "HELP", "    Print this help.",
            };
            reply *e = reply_array(c->out, LL_ARRAY_LEN(help));
            for (size_t i = 0; i < LL_ARRAY_LEN(help); i++) reply_status(&e[i], help[i]);
        }
    } else if (slice_opt_is(sub, "info")) {
        if (c->argc == 2) {
            reply *e = reply_array(c->out, n);
            for (size_t i = 0; i < n; i++) command_entry(commands_at(i), &e[i]);
            return;
        }
        reply *e = reply_array(c->out, (size_t)c->argc - 2);
        for (int i = 2; i < c->argc; i++) {
            const command *cmd = commands_lookup(c->argv[i]);
            if (cmd) command_entry(cmd, &e[i - 2]);
        }
    } else if (slice_opt_is(sub, "docs")) {
        reply_array(c->out, 0);
    } else {
        slice s = slice_cstr_prefix(sub);
        reply_errorf(c->out, "ERR unknown subcommand '%.*s'. Try COMMAND HELP.", (int)(s.len < 128 ? s.len : 128), s.p);
    }
}
